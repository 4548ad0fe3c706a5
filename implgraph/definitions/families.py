"""The declaration of a ratio-of-averages definition: one class statement, every view derived.

Most privacy definitions of the papers compare *averages* of the bucket probabilities over sets of
records: LDP compares single records, (k,t)-closeness and (k,eps)-DP compare k-subsets with the
whole table, multiplicative t-closeness compares equivalence classes with the whole table. Their
optimal level is the largest ratio ``mean_S1(Pr(B_l)) / mean_S2(Pr(B_l))`` over a family of pairs of
record sets. :class:`RatioOfAverages` turns that description into a full :class:`Definition`. It
declares

- ``declares = (RatioLevel(family, sides), ...)`` (:mod:`implgraph.definitions.capabilities`): the
  family ``"pairwise"`` (records i, j), ``"subset"`` (every set of ``SubsetSize(...)`` records against
  the whole table; declare the size too) or ``"class"`` (every equivalence class against the table; a
  minimum class size is the node parameter ``k`` of check-edge); the sides ``"two-sided"`` (both
  ``mean_S / mean_D`` and ``mean_D / mean_S`` are bounded) or ``"one-sided"`` (only ``mean_S / mean_D``:
  a set may not lie *above* the table by more than the level, as basic beta-likeness). The default is
  ``(RatioLevel("class", "two-sided"),)``;
- ``scale``: ``"ratio"`` (the level is the ratio), ``"log"`` (its natural log) or ``"affine"`` (the
  ratio minus 1), see :mod:`implgraph.definitions.scales`;
- ``params`` with ``ranges`` (``{"k": (1, "N - 1")}``), ``reference``, ``label_format``.

From that declaration, here and nowhere else, come: the exact symbolic and concrete levels
(:mod:`implgraph.definitions._common`), the refuter's z3 shape ``z3_shape`` (read by
:mod:`implgraph.solvers.z3_backend`), the linear-fractional terms of check-edge and prove
(:func:`lf_model`), the parameter ranges and the labels.

Examples
--------
A complete plugin (delta-disclosure privacy, Brickell and Shmatikov 2008):

>>> from implgraph.definitions.families import RatioOfAverages
>>> from implgraph.definitions.capabilities import RatioLevel
>>> class DeltaDisclosure(RatioOfAverages):
...     name = "delta-disclosure-doc"
...     level_symbol = "delta"
...     scale = "log"
...     declares = (RatioLevel("class", "two-sided"),)
>>> from implgraph.core.concrete import ConcreteTable
>>> ct = ConcreteTable.from_fractions([[1, 0], [0, 1]], classes=["E1", "E2"])
>>> DeltaDisclosure().concrete(ct)
inf
>>> DeltaDisclosure.z3_shape
'class-ratio'
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, fields
from fractions import Fraction

from implgraph.definitions.base import Definition
from implgraph.definitions.capabilities import FAMILIES, SIDES, RatioLevel, SubsetSize
from implgraph.definitions.validation import old_form_error
from implgraph.definitions._common import (check_subset_size, check_subset_size_concrete, class_ratio,
                                           class_ratio_concrete, pairwise_ratio, pairwise_ratio_concrete,
                                           subset_ratio, subset_ratio_concrete)
from implgraph.core.errors import InputError

__all__ = ["RatioOfAverages", "Form", "Term", "LFModel", "lf_model", "param_grid", "FAMILIES", "SIDES"]

#: the refuter's encoding of each (family, sides); one-sided pairwise is the same as two-sided
_SHAPES = {("pairwise", "two-sided"): "pairwise", ("subset", "two-sided"): "subset-ratio",
           ("class", "two-sided"): "class-ratio", ("subset", "one-sided"): "subset-upper",
           ("class", "one-sided"): "class-upper"}
_RATIO_SCALES = ("ratio", "log", "affine", "log-record")


class RatioOfAverages(Definition):
    """Base class of a definition whose raw level is a max of ratios of averages.

    Declare ``name``, ``level_symbol``, ``scale`` (``ratio``, ``log`` or ``affine``) and ``declares``: a
    :class:`~implgraph.definitions.capabilities.RatioLevel` and, for ``family = "subset"``, a
    :class:`~implgraph.definitions.capabilities.SubsetSize`. ``stronger`` is ``smaller`` (a ratio closer
    to 1 is more private). ``z3_shape`` is derived; do not set it.
    """

    declares = (RatioLevel("class", "two-sided"),)
    stronger = "smaller"

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        error = old_form_error(cls, RatioOfAverages)
        if error is not None:
            raise error
        ratio = next((c for c in cls.declares if isinstance(c, RatioLevel)), None)
        if ratio is None:
            raise InputError(f"plugin {cls.__name__}: a ratio of averages declares the record sets it compares",
                             fix='declares = (RatioLevel("class", "two-sided"),) '
                                 '(from implgraph.definitions.capabilities)')
        if ratio.family == "subset" and not any(isinstance(c, SubsetSize) for c in cls.declares):
            raise InputError(f"plugin {cls.__name__}: a subset ratio level declares the size of its subsets",
                             fix='declares = (RatioLevel("subset"), SubsetSize("k")) (a formula in N and the params)')
        if cls.scale not in _RATIO_SCALES:
            raise InputError(f"plugin {cls.__name__}: scale {cls.scale!r} is not a ratio scale",
                             fix="use " + ", ".join(_RATIO_SCALES))
        cls.z3_shape = _SHAPES[(ratio.family, ratio.sides)]

    @property
    def ratio(self) -> RatioLevel:
        """The declared :class:`~implgraph.definitions.capabilities.RatioLevel`."""
        return self.declared(RatioLevel)

    @property
    def one_sided(self) -> bool:
        """True when only ``mean_S / mean_D`` counts."""
        return self.ratio.sides == "one-sided"

    def symbolic(self, ctx, table, **params):
        family = self.ratio.family
        if family == "class":
            return class_ratio(ctx, table, self.one_sided) if table.has_classes else None
        if family == "subset":
            j = self.declared(SubsetSize).size(table.size, params)
            check_subset_size(ctx, table.size, j, self.name)
            return subset_ratio(ctx, table, j, self.one_sided)
        return pairwise_ratio(ctx, table)

    def concrete(self, ct, **params):
        family = self.ratio.family
        if family == "class":
            return None if ct.classes is None else class_ratio_concrete(ct, self.one_sided)
        if family == "subset":
            if False in self.param_ranges(ct.N, **params):
                raise InputError(f"{self.name}: parameters {params} are out of range for N = {ct.N}",
                                 fix="choose " + ", ".join(f"{lo} <= {p} <= {hi}" for p, (lo, hi) in self.ranges.items()))
            j = int(self.declared(SubsetSize).size(ct.N, params))
            check_subset_size_concrete(ct.N, j, self.name)
            return subset_ratio_concrete(ct, j, self.one_sided)
        return pairwise_ratio_concrete(ct)

    def lf_terms(self, N, sizes, p, **params):
        """The raw level as a max of linear-fractional terms (check-edge, prove), or None without classes."""
        if self.needs_classes and len(sizes) < 1:
            return None
        family = self.ratio.family
        j = int(self.declared(SubsetSize).size(N, params)) if family == "subset" else None
        return LFModel(_ratio_terms(family, N, sizes, p, j, self.one_sided), Fraction(1))


# -- the level as a max of linear-fractional forms --------------------------------------------

def _hash_once(self):
    """The hash of a frozen dataclass's fields, computed once: forms and terms key the engines' memos (solver
    terms, optima) and are hashed thousands of times."""
    h = self.__dict__.get("_hash")
    if h is None:
        h = hash(tuple(getattr(self, f.name) for f in fields(self)))
        object.__setattr__(self, "_hash", h)
    return h


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

    __hash__ = _hash_once


@dataclass(frozen=True)
class Term:
    """``num / den`` with Definition 4's conventions: 0/0 imposes nothing, c/0 is infinite."""

    num: Form
    den: Form

    __hash__ = _hash_once


@dataclass
class LFModel:
    """A definition's raw level at N records and class sizes ``sizes``: ``max(floor, terms)``.

    ``structural`` is set instead of terms when the level depends on the partition only
    (k-anonymity): it is then that value.
    """

    terms: list
    floor: Fraction
    structural: Fraction | None = None


def _ratio_terms(family, N, sizes, p, j=None, one_sided=False):
    """``mean_D / mean_S`` (two-sided only) and ``mean_S / mean_D`` for every set S of the family."""
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
                terms += _set_terms(whole, Form.mean(S, l), one_sided)
    elif family == "class":
        for l in range(p):
            whole = Form.mean(rows, l)
            for E in _classes(sizes):
                terms += _set_terms(whole, Form.mean(E, l), one_sided)
    return terms


def _set_terms(whole, part, one_sided):
    return [Term(part, whole)] if one_sided else [Term(whole, part), Term(part, whole)]


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
    return None


def param_grid(definition, N) -> list | None:
    """The parameter assignments discover tries for a definition at N records.

    A definition may define ``param_values(N) -> list of dict``. Otherwise a parameter ``k`` runs
    over 1..N-1 and ``ground`` is ``equal``; a definition with other parameters gives None
    (discover skips it and says so). A class-based definition whose level is not a count (not
    k-anonymity or l-diversity) and that has no own ``k`` is also tried with every minimum class size
    k = 2..N/2 (``k`` as in :func:`implgraph.definitions.nodes.parse_node`; k = 1 is any partition, the
    plain definition).
    """
    d = definition
    if hasattr(d, "param_values"):
        return list(d.param_values(N))
    plain = _own_param_grid(d, N)
    if plain is None or not d.needs_classes or d.level_scale.best_raw is None or "k" in d.params:
        return plain
    return plain + [dict(p, k=k) for k in range(2, N // 2 + 1) for p in plain]


def _own_param_grid(d, N):
    grids = []
    for name in d.params:
        if name == "k":
            grids.append([("k", k) for k in range(1, N)])
        elif name in d.words:
            grids.append([(name, d.words[name])])
        else:
            return None
    return [dict(c) for c in itertools.product(*grids)] if grids else [{}]
