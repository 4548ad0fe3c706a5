"""Randomised-response mechanisms as exact channels, and the tables they produce.

A :class:`Mechanism` is a channel over a nominal domain ``{a1, ..., an}``: an exact (sympy)
transition matrix ``M[i, j] = Pr(output = a_j | input = a_i)`` (rows are inputs). Three mechanisms of
Ekenstedt et al. [1]_ Section V-A are built in:

- :func:`randomised_response` (Fig. 4): keep the input with probability ``p_LDP``, else output a value
  drawn uniformly from the n values: ``M = p I + (1 - p)/n J``;
- :func:`empirical_response` (Fig. 5): keep the input with probability ``p_t``, else output a value
  drawn from the empirical distribution ``p_y`` of the whole data set: ``M = p I + (1 - p) 1 p_y^T``;
- :func:`sequential` (mechanism 2 of Section V-C): Fig. 5 then Fig. 4, ``M = M_5 M_4``.

Applying a mechanism to a :class:`Dataset` (value counts per equivalence class) gives a parametric
:class:`~implgraph.core.table.Table` with one block per (class, input value): the block's row is the
channel's row of that input and its count the number of such records. Every definition's level of a
mechanism is then the core's :func:`~implgraph.core.levels.optimal_level` of that table (exact; symbolic in
the mechanism's parameters and in symbolic counts).

For a symbolic number of values ``n`` the matrix cannot be written out; :func:`lumped_randomised_response`
gives the exact channel of the event ``{Z = a1}`` (inputs ``a1`` / any other value; outputs ``a1`` /
any other value). By the symmetry of Fig. 4 under permutations of the values every singleton bucket
has the column of ``a1``, so the LDP level over singleton buckets is the level of that column.

References
----------
.. [1] E. Ekenstedt et al., "When Differential Privacy Implies Syntactic Privacy", IEEE TIFS 17, 2022,
   Section V (Fig. 4, Fig. 5, eq. 1-2).

Examples
--------
>>> import sympy
>>> m = randomised_response(2, sympy.Rational(1, 2))
>>> m.matrix
Matrix([
[3/4, 1/4],
[1/4, 3/4]])
>>> d = Dataset.from_counts({"E1": [3, 0], "E2": [1, 2]})
>>> str(mechanism_level(m, d, "ldp").value)
'log(3)'
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import sympy

from implgraph.core.errors import InputError
from implgraph.core.region import Region
from implgraph.core.table import Block, Table

__all__ = ["Mechanism", "Dataset", "randomised_response", "empirical_response", "sequential",
           "lumped_randomised_response", "mechanism_level", "worst_case_dataset", "check_probability",
           "value_names", "value_partition", "exact_level", "calibrate_keep"]


def value_names(n: int) -> list:
    return [f"a{i + 1}" for i in range(n)]


def _num(x):
    """A Python or sympy number as an exact sympy number (floats via their decimal text)."""
    if isinstance(x, float):
        return sympy.Rational(repr(x))
    if isinstance(x, str):
        from implgraph.core.formula import parse_expr
        return parse_expr(x, {})
    return sympy.sympify(x)


def _tidy(x):
    """A rational function in lowest terms (``cancel``); anything else simplified."""
    x = sympy.sympify(x)
    if x.is_rational_function():
        return sympy.cancel(x)
    return sympy.simplify(x)


def check_probability(p, name: str = "p", strict_upper: bool = False):
    """Raise :class:`InputError` if ``p`` is a number outside [0, 1] (or [0, 1) if ``strict_upper``).

    Symbolic ``p`` is accepted (its range is stated by the mechanism's region).
    """
    p = _num(p)
    if p.is_number:
        if p.is_real is False or p < 0 or p > 1 or (strict_upper and p == 1):
            hi = "1)" if strict_upper else "1]"
            raise InputError(f"{name} = {p} is outside [0, {hi}",
                             fix=f"give a probability 0 <= {name} {'<' if strict_upper else '<='} 1")
    return p


@dataclass
class Mechanism:
    """A channel over a nominal domain, with an exact transition matrix.

    Parameters
    ----------
    matrix : sympy.Matrix
        ``matrix[i, j] = Pr(output = values[j] | input = values[i])``; every row sums to 1.
    values : list of str
        The domain ``a1..an`` (inputs and outputs).
    name : str
    kinds : dict
        ``{Symbol: "real" | "integer"}`` of the parameters.
    constraints : tuple
        Where the parameters live (e.g. ``0 <= p_LDP <= 1``).
    """

    matrix: sympy.Matrix
    values: list
    name: str = ""
    kinds: dict = field(default_factory=dict)
    constraints: tuple = ()

    @property
    def n(self) -> int:
        return len(self.values)

    @property
    def region(self) -> Region:
        return Region(dict(self.kinds), tuple(self.constraints))

    def prob(self, out, inp):
        """Pr(output = ``out`` | input = ``inp``) (value names or indices)."""
        i = self.values.index(inp) if isinstance(inp, str) else inp
        j = self.values.index(out) if isinstance(out, str) else out
        return self.matrix[i, j]

    def row(self, inp) -> tuple:
        i = self.values.index(inp) if isinstance(inp, str) else inp
        return tuple(_tidy(self.matrix[i, j]) for j in range(self.n))

    def then(self, other: "Mechanism") -> "Mechanism":
        """Sequential composition: ``self`` first, then ``other`` on its output (``M_self M_other``)."""
        if other.values != self.values:
            raise InputError(f"cannot compose mechanisms over {self.values} and {other.values}",
                             fix="use the same value domain")
        m = (self.matrix * other.matrix).applyfunc(sympy.factor)
        kinds = {**self.kinds, **other.kinds}
        return Mechanism(m, list(self.values), f"{self.name} then {other.name}", kinds,
                         tuple(self.constraints) + tuple(c for c in other.constraints if c not in self.constraints))

    def subs(self, point: dict) -> "Mechanism":
        point = {(sympy.Symbol(k, real=True) if isinstance(k, str) else k): _num(v) for k, v in point.items()}
        m = self.matrix.subs(point).applyfunc(sympy.simplify)
        kinds = {s: k for s, k in self.kinds.items() if s not in point}
        cons = []
        for c in self.constraints:
            cc = sympy.sympify(c).subs(point)
            if cc is sympy.true:
                continue
            if cc is sympy.false:
                raise InputError(f"parameter values {point} violate {c}", fix="choose values in range")
            cons.append(cc)
        return Mechanism(m, list(self.values), self.name, kinds, tuple(cons))

    def validate(self) -> "Mechanism":
        """Decide (z3, whole region) that every entry is in [0, 1] and every row sums to 1."""
        region = self.region
        for i in range(self.n):
            total = sympy.simplify(sum(self.matrix.row(i)))
            if total != 1 and region.decide(sympy.Eq(total, 1)) is not True:
                raise InputError(f"{self.name}: row {self.values[i]} sums to {total}, not 1",
                                 fix="check the mechanism's parameters")
            for j in range(self.n):
                v = self.matrix[i, j]
                for rel in (v >= 0, v <= 1):
                    rel = sympy.sympify(rel)
                    if rel is sympy.true:
                        continue
                    if rel is sympy.false or region.decide(rel) is not True:
                        raise InputError(f"{self.name}: Pr({self.values[j]} | {self.values[i]}) = {v} can leave "
                                         f"[0, 1]", fix="check the mechanism's parameters")
        return self

    def numeric(self) -> np.ndarray:
        """The matrix as floats (for sampling and plots only)."""
        if self.matrix.free_symbols:
            raise InputError(f"{self.name}: the matrix has free symbols {sorted(map(str, self.matrix.free_symbols))}",
                             fix="substitute values first")
        return np.array(self.matrix.tolist(), dtype=float)

    def sample(self, inputs, rng) -> np.ndarray:
        """Apply the mechanism to an array of input indices (Monte-Carlo; floats)."""
        m = self.numeric()
        cum = np.cumsum(m, axis=1)
        u = rng.random(len(inputs))
        out = (u[:, None] > cum[np.asarray(inputs)]).sum(axis=1)
        return np.minimum(out, self.n - 1)

    def apply(self, dataset: "Dataset") -> Table:
        """The probability table of the mechanism's output on ``dataset``.

        One block per (class, input value) with a non-zero count; its row is the channel's row of that
        input, its count the number of such records. The region joins the mechanism's parameter
        constraints and the data set's count constraints.
        """
        if dataset.values != self.values:
            raise InputError(f"the data set's values {dataset.values} differ from the mechanism's {self.values}",
                             fix="use the same value domain")
        blocks = []
        for label, counts in dataset.classes.items():
            for i, c in enumerate(counts):
                c = sympy.sympify(c)
                if c == 0:
                    continue
                blocks.append(Block(probs=self.row(i), count=c, cls=None if label is None else str(label)))
        kinds = {**dataset.kinds, **self.kinds}
        for s in self.matrix.free_symbols:
            kinds.setdefault(s, "integer" if s.is_integer else "real")
        region = Region(kinds, tuple(self.constraints) + tuple(dataset.constraints))
        symbols = {s.name: s for s in kinds}
        return Table(blocks=blocks, buckets=list(self.values), region=region, symbols=symbols,
                     id=f"{self.name} on {dataset.name}" if dataset.name else self.name)


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


def randomised_response(n, p) -> Mechanism:
    """Fig. 4 of [1]_: keep with probability ``p``, else a value drawn uniformly from the n values.

    ``Pr(a_i | a_i) = p + (1 - p)/n`` and ``Pr(a_j | a_i) = (1 - p)/n`` for ``j != i``.

    Raises
    ------
    InputError
        ``p`` outside [0, 1] or ``n < 2``.
    """
    n = int(n)
    if n < 2:
        raise InputError(f"n = {n} values", fix="a nominal attribute needs n >= 2 values")
    p = check_probability(p, "p_LDP")
    m = sympy.Matrix(n, n, lambda i, j: (p if i == j else 0) + (1 - p) / n)
    kinds, cons = _param_region([p])
    return Mechanism(m, value_names(n), "Fig. 4 randomised response", kinds, cons)


def empirical_response(py, p) -> Mechanism:
    """Fig. 5 of [1]_: keep with probability ``p``, else a value drawn from the empirical distribution.

    ``Pr(a_j | a_i) = p [i = j] + (1 - p) p_y(a_j)``.

    Raises
    ------
    InputError
        ``p`` outside [0, 1], or ``py`` not a distribution (a number outside [0, 1], or a sum != 1).
    """
    py = [_num(x) for x in py]
    n = len(py)
    if n < 2:
        raise InputError(f"p_y has {n} values", fix="give the frequency of each of n >= 2 values")
    for i, x in enumerate(py):
        check_probability(x, f"p_y(a{i + 1})")
    total = sympy.simplify(sum(py))
    if total.is_number and total != 1:
        raise InputError(f"the frequencies p_y sum to {total}, not 1", fix="give a distribution")
    p = check_probability(p, "p_t")
    m = sympy.Matrix(n, n, lambda i, j: (p if i == j else 0) + (1 - p) * py[j])
    kinds, cons = _param_region([p] + py)
    return Mechanism(m, value_names(n), "Fig. 5 randomised response", kinds, cons)


def sequential(first: Mechanism, second: Mechanism) -> Mechanism:
    """Mechanism 2 of [1]_ Section V-C: ``first`` (Fig. 5), then ``second`` (Fig. 4) on its output."""
    return first.then(second)


def lumped_randomised_response(n, p) -> Mechanism:
    """The exact channel of the event ``{Z = a1}`` under Fig. 4 with a (possibly symbolic) ``n``.

    Inputs and outputs are ``a1`` and ``other`` (any of a2..an):
    ``Pr(a1 | a1) = p + (1 - p)/n``, ``Pr(a1 | other) = (1 - p)/n``.
    """
    n = sympy.sympify(n)
    p = check_probability(p, "p_LDP")
    m = sympy.Matrix([[p + (1 - p) / n, (1 - p) * (n - 1) / n],
                      [(1 - p) / n, 1 - (1 - p) / n]])
    kinds, cons = _param_region([p])
    if not n.is_number:
        for s in n.free_symbols:
            kinds[s] = "integer"
        cons = cons + (n >= 2,)
    return Mechanism(m, ["a1", "other"], "Fig. 4 randomised response (a1 vs other values)", kinds, cons)


def _param_region(params):
    kinds, cons = {}, []
    for p in params:
        for s in sympy.sympify(p).free_symbols:
            kinds[s] = "integer" if s.is_integer else "real"
        if not sympy.sympify(p).is_number:
            cons += [p >= 0, p <= 1]
    return kinds, tuple(cons)


def mechanism_level(mechanism: Mechanism, dataset: Dataset, definition: str, **params):
    """The optimal level of ``definition`` on the mechanism's output table (the core, exact)."""
    from implgraph.core.levels import optimal_level
    return optimal_level(mechanism.apply(dataset), definition, **params)


def _level_pieces(level):
    return [(p.condition, p.value) for p in level.pieces]


def _decide(region, cond):
    try:
        return region.decide(cond)
    except Exception:  # an untranslatable condition: unknown, never a proof
        return None


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


def exact_level(mech: Mechanism, py, definition: str, **params):
    """The core's optimal level of ``definition`` on the channel's output over the value partition."""
    weights = py if py else [1] * mech.n
    return mechanism_level(mech, value_partition(weights, mech.values), definition, **params)


def calibrate_keep(level, target_raw, var, region):
    """The largest keep probability ``var`` whose level (raw) is at most ``target_raw``.

    The candidates solve ``piece value == target`` for each piece of the core's level; their minimum is
    returned with the decision (exact, or z3 on the whole region: True, False, or None if not decided)
    that the level there is at most the target. It is the largest such value when every piece grows
    with ``var`` (true of the keep probabilities of Fig. 4 and Fig. 5: each ratio of the channel's rows
    grows as less mass is redistributed). Returns (value, decided) or (None, None).
    """
    sols = []
    for _, v in _level_pieces(level):
        if v is None or v is sympy.oo or var not in sympy.sympify(v).free_symbols:
            continue
        try:
            found = sympy.solve(sympy.Eq(sympy.together(v), target_raw), var)
        except NotImplementedError:
            continue
        sols += [sympy.simplify(s) for s in found if s.is_real is not False]
    if not sols:
        # the level does not depend on var: every keep probability in [0, 1] reaches at most the level
        consts = [sympy.sympify(v) for _, v in _level_pieces(level) if v is not None and v is not sympy.oo]
        if consts and all(not v.free_symbols and bool(v <= target_raw) for v in consts):
            return sympy.Integer(1), True
        return None, None
    value = sympy.Min(*sols)
    checks = [sympy.Or(sympy.Not(sympy.sympify(c).subs(var, value)),
                       sympy.sympify(v).subs(var, value) <= target_raw if v is not None else sympy.false)
              for c, v in _level_pieces(level)]
    checks.append(value >= 0)
    cond = sympy.And(*checks)
    if not cond.free_symbols:
        return value, cond is sympy.true
    return value, _decide(region, cond)


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
