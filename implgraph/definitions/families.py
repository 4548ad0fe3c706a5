"""Helpers for plugin authors: a new definition in one short module, with the refuter for free.

Most privacy definitions of the papers compare *averages* of the bucket probabilities over sets of
records: LDP compares single records, (k,t)-closeness and (k,eps)-DP compare k-subsets with the
whole table, multiplicative t-closeness compares equivalence classes with the whole table. Their
optimal level is the largest ratio ``mean_S1(Pr(B_l)) / mean_S2(Pr(B_l))`` over a family of pairs of
record sets. :class:`RatioOfAverages` turns that description into a full :class:`Definition`:

- ``family = "pairwise"`` (records i, j), ``"subset"`` (every set of ``subset_size(N, **params)``
  records against the whole table) or ``"class"`` (every equivalence class against the table);
- ``scale = "ratio"`` (the level is the ratio) or ``"log"`` (the level is its natural log).

The exact levels (symbolic and concrete) come from the core, the z3 shape for the refuter
(:mod:`implgraph.engines.refute`) follows from the family, and :func:`lf_terms` gives the engine of
:mod:`implgraph.engines.checkedge` the level as a maximum of linear-fractional forms, so check-edge and
discover decide the new definition against every other one without further code.

Examples
--------
A complete plugin (delta-disclosure privacy, Brickell and Shmatikov 2008):

>>> from implgraph.definitions.families import RatioOfAverages
>>> class DeltaDisclosure(RatioOfAverages):
...     name = "delta-disclosure-doc"
...     level_symbol = "delta"
...     scale = "log"
...     family = "class"
>>> from implgraph.core.concrete import ConcreteTable
>>> ct = ConcreteTable.from_fractions([[1, 0], [0, 1]], classes=["E1", "E2"])
>>> DeltaDisclosure().concrete(ct)
inf
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction

from implgraph.definitions.base import Definition
from implgraph.definitions._common import (check_subset_size, class_ratio, class_ratio_concrete, pairwise_ratio,
                                  pairwise_ratio_concrete, subset_ratio, subset_ratio_concrete)
from implgraph.core.errors import InputError

__all__ = ["RatioOfAverages", "Form", "Term", "LFModel", "lf_model", "param_grid", "FAMILIES"]

FAMILIES = ("pairwise", "subset", "class")
_SHAPES = {"pairwise": "pairwise", "subset": "subset-ratio", "class": "class-ratio"}


class RatioOfAverages(Definition):
    """Base class of a definition whose raw level is a max of ratios of averages.

    Set ``name``, ``level_symbol``, ``scale`` (``ratio`` or ``log``), ``family`` and, for
    ``family = "subset"``, override :meth:`subset_size` (default: the parameter ``k``).
    ``stronger`` is ``smaller`` (a ratio closer to 1 is more private).
    """

    family: str = "class"
    stronger = "smaller"

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        if cls.family not in FAMILIES:
            raise InputError(f"plugin {cls.__name__}: family {cls.family!r}", fix="use " + ", ".join(FAMILIES))
        cls.z3_shape = _SHAPES[cls.family]
        if cls.family == "class":
            cls.needs_classes = True

    def subset_size(self, N, **params):
        """Size j of the record sets compared with the whole table (``family = "subset"``)."""
        return params["k"]

    def z3_subset_size(self, N, **params):
        """The refuter's subset size (:mod:`implgraph.solvers.z3_backend`)."""
        return self.subset_size(N, **params)

    def symbolic(self, ctx, table, **params):
        if self.family == "class":
            return class_ratio(ctx, table) if table.has_classes else None
        if self.family == "subset":
            j = self.subset_size(table.size, **params)
            check_subset_size(ctx, table.size, j, self.name)
            return subset_ratio(ctx, table, j)
        return pairwise_ratio(ctx, table)

    def concrete(self, ct, **params):
        if self.family == "class":
            return None if ct.classes is None else class_ratio_concrete(ct)
        if self.family == "subset":
            j = int(self.subset_size(ct.N, **params))
            if not 1 <= j <= ct.N - 1:
                raise InputError(f"{self.name}: subset size {j} is out of range for N = {ct.N}",
                                 fix="choose parameters with 1 <= size <= N - 1")
            return subset_ratio_concrete(ct, j)
        return pairwise_ratio_concrete(ct)


# -- the level as a max of linear-fractional forms --------------------------------------------

@dataclass(frozen=True)
class Form:
    """An affine form ``const + sum coef[(i, l)] * Pr(record i in bucket l)``."""

    coef: tuple          # ((i, l, Fraction), ...) sorted
    const: Fraction = Fraction(0)

    @staticmethod
    def mean(rows, l):
        w = Fraction(1, len(rows))
        return Form(tuple((i, l, w) for i in sorted(rows)))

    def value(self, x):
        return self.const + sum((c * x[i][l] for i, l, c in self.coef), Fraction(0))


@dataclass(frozen=True)
class Term:
    """``num / den`` with Definition 4's conventions: 0/0 imposes nothing, c/0 is infinite."""

    num: Form
    den: Form


@dataclass
class LFModel:
    """A definition's raw level at N records and class sizes ``sizes``: ``max(floor, terms)``.

    ``structural`` is set instead of terms when the level depends on the partition only
    (k-anonymity): it is then that value.
    """

    terms: list
    floor: Fraction
    structural: Fraction | None = None


def _ratio_terms(family, N, sizes, p, j=None):
    rows = list(range(N))
    terms = []
    if family == "pairwise":
        for l in range(p):
            for i, k in itertools.permutations(rows, 2):
                terms.append(Term(Form.mean([i], l), Form.mean([k], l)))
    elif family == "subset":
        for l in range(p):
            whole = Form.mean(rows, l)
            for S in itertools.combinations(rows, j):
                terms.append(Term(whole, Form.mean(S, l)))
                terms.append(Term(Form.mean(S, l), whole))
    elif family == "class":
        for l in range(p):
            whole = Form.mean(rows, l)
            for E in _classes(sizes):
                terms.append(Term(whole, Form.mean(E, l)))
                terms.append(Term(Form.mean(E, l), whole))
    return terms


def _classes(sizes):
    out, start = [], 0
    for s in sizes:
        out.append(list(range(start, start + s)))
        start += s
    return out


def emd_terms(N, sizes, p, ground):
    """EMD of every class against the table as a max over sign vectors of linear forms."""
    rows = list(range(N))
    terms = []
    one = Form((), Fraction(1))
    for E in _classes(sizes):
        diffs = []
        for l in range(p):
            d = {}
            for i in E:
                d[(i, l)] = d.get((i, l), 0) + Fraction(1, len(E))
            for i in rows:
                d[(i, l)] = d.get((i, l), 0) - Fraction(1, N)
            diffs.append(d)
        if ground == "equal":
            parts, scale = diffs, Fraction(1, 2)
        else:
            parts, acc = [], {}
            for d in diffs[:-1]:
                acc = {k: acc.get(k, 0) + d.get(k, 0) for k in set(acc) | set(d)}
                parts.append(dict(acc))
            scale = Fraction(1, p - 1)
        for signs in itertools.product((1, -1), repeat=len(parts)):
            tot = {}
            for s, d in zip(signs, parts):
                for k, v in d.items():
                    tot[k] = tot.get(k, 0) + s * v * scale
            coef = tuple(sorted((i, l, c) for (i, l), c in tot.items() if c != 0))
            terms.append(Term(Form(coef), one))
    return terms


def lf_model(definition, N, sizes, p=2, **params):
    """The definition's raw level as an :class:`LFModel`, or None when it has no such form.

    ``sizes`` are the class sizes (rows are numbered class by class); ``()`` for no classes.
    A definition may supply its own ``lf_terms(N, sizes, p, **params) -> LFModel``.
    """
    d = definition
    if hasattr(d, "lf_terms"):
        return d.lf_terms(N, sizes, p, **params)
    if d.needs_classes and len(sizes) < 1:
        return None
    if d.family in FAMILIES and _SHAPES[d.family] == d.z3_shape:
        # a ratio of averages over the record sets of its family (declared by the definition)
        j = int(d.subset_size(N, **params)) if d.family == "subset" else None
        return LFModel(_ratio_terms(d.family, N, sizes, p, j), Fraction(1))
    return None


def param_grid(definition, N) -> list | None:
    """The parameter assignments discover tries for a definition at N records.

    A definition may define ``param_values(N) -> list of dict``. Otherwise a parameter ``k`` runs
    over 1..N-1 and ``ground`` is ``equal``; a definition with other parameters gives None
    (discover skips it and says so). A class-based definition whose level is not a count (not
    k-anonymity or l-diversity) and that has no own ``k`` is also tried with every minimum class size
    k = 2..N/2 (``k`` as in :func:`implgraph.core.nodes.parse_node`; k = 1 is any partition, the
    plain definition).
    """
    d = definition
    if hasattr(d, "param_values"):
        return list(d.param_values(N))
    plain = _own_param_grid(d, N)
    if plain is None or not d.needs_classes or d.scale == "count" or "k" in d.params:
        return plain
    return plain + [dict(p, k=k) for k in range(2, N // 2 + 1) for p in plain]


def _own_param_grid(d, N):
    grids = []
    for name in d.params:
        if name == "k":
            grids.append([("k", k) for k in range(1, N)])
        elif name == "ground":
            grids.append([("ground", "equal")])
        else:
            return None
    return [dict(c) for c in itertools.product(*grids)] if grids else [{}]
