"""Data sets for the mechanisms: value counts of a nominal attribute per equivalence class.

A :class:`Dataset` is what a :class:`~implgraph.mechanisms.channels.Mechanism` is applied to;
:func:`value_partition` (one class per value: the worst partition of a per-record channel) and
:func:`worst_case_dataset` (one class of k equal values, one with the rest: Section V-A of [1]_) build
the partitions the calibrations of Section V use.

References
----------
.. [1] E. Ekenstedt et al., "When Differential Privacy Implies Syntactic Privacy", IEEE TIFS 17, 2022,
   Section V.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import sympy

from implgraph.core.errors import InputError
from implgraph.core.region import Region

__all__ = ["Dataset", "value_partition", "worst_case_dataset", "value_names"]


def value_names(n: int) -> list:
    """The names ``a1, ..., an`` of a nominal domain of ``n`` values."""
    return [f"a{i + 1}" for i in range(n)]


@dataclass
class Dataset:
    """Value counts of a nominal attribute, per equivalence class.

    Parameters
    ----------
    classes : dict
        ``{class label: [count of a1, ..., count of an]}`` (ints or integer sympy expressions). A single
        class labelled ``None`` means "no partition".
    values : list of str
    kinds, constraints :
        Symbols in symbolic counts and the constraints on them.
    """

    classes: dict
    values: list
    kinds: dict = field(default_factory=dict)
    constraints: tuple = ()
    name: str = ""

    @classmethod
    def from_counts(cls, classes: dict, values=None, name="", kinds=None, constraints=()):
        classes = {k: [sympy.sympify(c) for c in v] for k, v in classes.items()}
        n = len(next(iter(classes.values())))
        if any(len(v) != n for v in classes.values()):
            raise InputError("every class needs one count per value", fix="give n counts per class")
        values = list(values or value_names(n))
        for label, counts in classes.items():
            for c in counts:
                if c.is_number and (not c.is_Integer or c < 0):
                    raise InputError(f"class {label}: count {c} is not a non-negative integer",
                                     fix="give record counts")
        return cls(classes, values, dict(kinds or {}), tuple(constraints), name)

    @classmethod
    def from_records(cls, records, labels=None, values=None, name=""):
        """From one value per record (and one class label per record, or none)."""
        values = list(values or sorted(set(records), key=str))
        index = {v: i for i, v in enumerate(values)}
        labels = list(labels) if labels is not None else [None] * len(records)
        classes: dict = {}
        for v, lab in zip(records, labels):
            if v not in index:
                raise InputError(f"value {v!r} is not in the domain {values}", fix="list every value")
            classes.setdefault(lab, [0] * len(values))[index[v]] += 1
        return cls.from_counts(classes, values=[str(v) for v in values], name=name)

    @property
    def n(self) -> int:
        return len(self.values)

    @property
    def counts(self) -> list:
        """Records per value over the whole data set."""
        return [sympy.expand(sum((c[i] for c in self.classes.values()), sympy.Integer(0))) for i in range(self.n)]

    @property
    def N(self):
        return sympy.expand(sum(self.counts, sympy.Integer(0)))

    @property
    def frequencies(self) -> list:
        """The empirical distribution p_y of the values (exact)."""
        N = self.N
        return [sympy.cancel(c / N) for c in self.counts]

    def class_sizes(self) -> dict:
        return {k: sympy.expand(sum(v, sympy.Integer(0))) for k, v in self.classes.items()}

    def check_k(self, k) -> None:
        """Raise InputError unless every class has at least ``k`` records (decided on the region)."""
        k = sympy.sympify(k)
        N = self.N
        if k.is_number and N.is_number and k > N:
            raise InputError(f"k = {k} is larger than the data ({N} records)", fix=f"choose k <= {N}")
        region = Region(dict(self.kinds), tuple(self.constraints))
        for label, size in self.class_sizes().items():
            ok = sympy.sympify(size >= k)
            if ok is sympy.true:
                continue
            if ok is sympy.false or region.decide(ok) is not True:
                raise InputError(f"class {label} has {size} records, fewer than k = {k}",
                                 fix="merge small classes or lower k")


def value_partition(weights, values=None) -> Dataset:
    """One class per value holding all its records (the worst partition of a per-record channel).

    ``weights`` are the value frequencies: concrete ones become the smallest integer counts with
    those frequencies; symbolic ones are used as (real) record masses, positive on the region.
    """
    w = [sympy.sympify(x) for x in weights]
    free = set().union(*(x.free_symbols for x in w))
    if not free:
        den = math.lcm(*[int(sympy.Rational(x).q) for x in w])
        w = [sympy.Integer(int(x * den)) for x in w]
    n = len(w)
    classes = {f"E{i + 1}": [w[i] if j == i else sympy.Integer(0) for j in range(n)]
               for i in range(n) if w[i] != 0}
    kinds = {s: "integer" if s.is_integer else "real" for s in free}
    cons = tuple(x > 0 for x in w if x.free_symbols)
    return Dataset.from_counts(classes, values=values, kinds=kinds, constraints=cons, name="value partition")


def worst_case_dataset(counts, k, values=None) -> Dataset:
    """The partition that maximises the multiplicative t of a per-record mechanism (Fig. 4, Fig. 5).

    One class of ``k`` records that all hold the least frequent value, one class with the rest (Section
    V-A of [1]_: 'an upper limit ... can be provided by a group whose confidential attributes take on the
    same value'). Needs that count >= k and N - k >= k.
    """
    counts = [int(c) for c in counts]
    N = sum(counts)
    k = int(k)
    if k < 1:
        raise InputError(f"k = {k}", fix="choose k >= 1")
    if k > N:
        raise InputError(f"k = {k} is larger than the data ({N} records)", fix=f"choose k <= {N}")
    i = min((c, i) for i, c in enumerate(counts) if c > 0)[1]
    if counts[i] < k or N - k < k:
        raise InputError(f"no class of k = {k} equal values fits (counts {counts})",
                         fix="choose a smaller k")
    rest = list(counts)
    rest[i] -= k
    pure = [0] * len(counts)
    pure[i] = k
    return Dataset.from_counts({"E1": pure, "E2": rest}, values=values, name="worst-case partition")
