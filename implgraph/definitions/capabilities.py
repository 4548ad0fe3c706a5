"""What a definition's level is, declared as typed capabilities the engine reads (never by name).

A :class:`~implgraph.definitions.base.Definition` lists its capabilities in ``declares``, a tuple of the
frozen dataclasses of this module, and the engine asks ``d.declared(Kind)`` (the declaration, or None) or
``d.has(Kind)``; :func:`implgraph.definitions.with_capability` filters the registry. Each capability is one
fact the prover, the checker and the tests read (the tests check each against the brute force):

- :class:`RatioLevel` : the raw level is the largest ratio of two record averages over a family of record
  sets (``pairwise``, ``subset``, ``class``), ``two-sided`` or ``one-sided``
  (:class:`~implgraph.definitions.families.RatioOfAverages` declares it);
- :class:`SubsetSize` : the size of the record subsets of a ``subset`` ratio level, a formula in ``N`` and
  the parameters (read by the project's formula reader; never evaluated);
- :class:`OnClasses` : the level is computed over the table's equivalence classes (every capability about
  classes implies it; declare it alone where no other one says so);
- :class:`ClassSizeLevel` : the level is the smallest class's number of records (k-anonymity);
- :class:`MinClassSize` : a parameter is a minimum class size ((alpha,k)-anonymity's ``k``);
- :class:`MinClassSizeAboveWeakest` : a parameter is a minimum class size wherever the level is stronger than its
  weakest (p-sensitive k-anonymity's ``k``: p = 0 on a smaller class), and which level it is wherever the floor holds;
- :class:`ClassDistance` : at some parameters (``where``) the level is a distance between each class's
  bucket distribution and the table's (``total-variation``: the EMD with the equal ground distance);
- :class:`ClassLevel` : the level of one class over ``k`` values, for every ``k``, as a formula of a
  :class:`~implgraph.definitions._classes.GenericClass`;
- :class:`AdditiveSlack` : the level's constraints read ``a <= e^level b + delta`` on every output event,
  between the records ``compares`` (``removal`` or ``pairs``), ``delta`` the parameter ``param``;
- :class:`TailRatio` : the level is ``max(1, max_E r_1 / (r_l + ... + r_m))``, ``l`` the parameter ``param``;
- :class:`FiniteLevelOf` : the level equals another definition's wherever it is finite (in the same units),
  the condition that makes it finite being ``increase_cap``;
- :class:`~implgraph.definitions.capability_grounds.GroundDistances` (its own module): an EMD's ground distances.

Examples
--------
>>> from implgraph.definitions import get
>>> get("alpha-k-anonymity").declared(MinClassSize)
MinClassSize(param='k')
>>> get("dp").declared(RatioLevel), get("dp").declared(SubsetSize).size(10, {})
(RatioLevel(family='subset', sides='two-sided'), 9)
>>> get("k-anonymity").has(RatioLevel), get("k-anonymity").has(ClassSizeLevel)
(False, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import sympy

from implgraph.core.errors import InputError, printable
from implgraph.definitions._capability_values import (DISTANCES, FAMILIES, INCREASE_CAPS, SIDES, SLACK_COMPARES,
                                                      _N, _check_name, _exact, _names, _refuse, _size_formula)

__all__ = ["Capability", "RatioLevel", "SubsetSize", "OnClasses", "ClassSizeLevel", "MinClassSize",
           "MinClassSizeAboveWeakest", "ClassDistance", "ClassLevel", "AdditiveSlack", "TailRatio", "FiniteLevelOf",
           "CAPABILITIES", "FAMILIES", "SIDES", "family_of"]


class Capability:
    """Base of every capability: a frozen dataclass, compared and hashed by value.

    >>> MinClassSize("k") == MinClassSize("k"), isinstance(TailRatio("l"), Capability)
    (True, True)
    """

    def on_classes(self) -> bool:
        """Does this capability say the level is computed over equivalence classes?"""
        return False

    def params_named(self) -> tuple:
        """The definition's parameters this capability names (checked against ``params`` at registration)."""
        return ()


@dataclass(frozen=True)
class RatioLevel(Capability):
    """The raw level is the largest ``mean_S1(Pr(B_l)) / mean_S2(Pr(B_l))`` over a family of pairs of record sets.

    Parameters
    ----------
    family : {"pairwise", "subset", "class"}
        Records i and j; every set of :class:`SubsetSize` records against the whole table; every equivalence
        class against the whole table.
    sides : {"two-sided", "one-sided"}
        Both ratios bounded, or only ``mean_S / mean_D`` (a set may not lie above the table by more than the
        level). A pairwise comparison is two-sided (i/j and j/i both count).

    Examples
    --------
    >>> RatioLevel("class", "one-sided")
    RatioLevel(family='class', sides='one-sided')
    >>> RatioLevel("class").on_classes(), RatioLevel("pairwise").on_classes()
    (True, False)
    >>> RatioLevel("pairs")
    Traceback (most recent call last):
    ...
    implgraph.core.errors.InputError: RatioLevel family: 'pairs'; fix: use pairwise, subset, class
    """

    family: str
    sides: str = "two-sided"

    def __post_init__(self):
        if self.family not in FAMILIES:
            _refuse("RatioLevel family", self.family, FAMILIES)
        if self.sides not in SIDES:
            _refuse("RatioLevel sides", self.sides, SIDES)
        if self.family == "pairwise" and self.sides != "two-sided":
            raise InputError("RatioLevel: a pairwise comparison has no sides (i/j and j/i both count)",
                             fix='use RatioLevel("pairwise", "two-sided")')

    def on_classes(self) -> bool:
        return self.family == "class"


@dataclass(frozen=True)
class SubsetSize(Capability):
    """The size j of the record subsets a ``subset`` ratio level compares with the whole table.

    Parameters
    ----------
    expr_text : str
        A formula in ``N`` (the number of records) and the definition's parameters, read by the project's
        formula reader (:func:`implgraph.core.formula.parse_expr`; nothing is evaluated): ``"k"``, ``"N - k"``,
        ``"N - 1"``.

    Examples
    --------
    >>> SubsetSize("N - k").size(10, {"k": 3})
    7
    >>> N = sympy.Symbol("N", integer=True)
    >>> SubsetSize("N - 1").size(N, {})
    N - 1
    """

    expr_text: str

    def __post_init__(self):
        if not isinstance(self.expr_text, str):
            raise InputError(f"SubsetSize: {printable(repr(self.expr_text))[:60]} is not text",
                             fix='give the size as a formula in N and the parameters, e.g. SubsetSize("N - k")')
        self.formula()             # read once now: an unreadable formula is refused where it is declared

    def formula(self) -> sympy.Expr:
        """The size as a sympy expression in the plain symbols ``N`` and the parameters it names."""
        try:
            return _size_formula(self.expr_text)
        except InputError as exc:
            raise InputError(f"SubsetSize {printable(repr(self.expr_text))[:60]}: {exc.reason}",
                             fix="write the size as a formula in N and the parameters, e.g. \"N - k\"") from None

    def params_named(self) -> tuple:
        return tuple(sorted(_names(self.expr_text) - {"N"}))

    def size(self, N, params: dict):
        """The size at ``N`` records (a number or a symbol) and the parameter values ``params`` (exact)."""
        swap = {_N: _exact(N), **{sympy.Symbol(str(k)): _exact(v) for k, v in params.items()
                                  if str(k) in self.params_named()}}
        return self.formula().xreplace(swap)


@dataclass(frozen=True)
class OnClasses(Capability):
    """The level is computed over the table's equivalence classes (a table without classes has none).
    Every capability about classes implies it (a class :class:`RatioLevel`, :class:`ClassSizeLevel`,
    :class:`MinClassSize`, :class:`ClassDistance`, :class:`ClassLevel`, :class:`TailRatio`); else declare it.

    >>> OnClasses().on_classes()
    True
    """

    def on_classes(self) -> bool:
        return True


@dataclass(frozen=True)
class ClassSizeLevel(Capability):
    """The optimal level is the smallest class's number of records (larger is stronger; k-anonymity).
    >>> ClassSizeLevel().on_classes()
    True
    """

    def on_classes(self) -> bool:
        return True


@dataclass(frozen=True)
class MinClassSize(Capability):
    """The parameter ``param`` is a minimum class size: the level is infinite on a table with a class of fewer records,
    so every table where it is finite has classes of at least that many ((alpha,k)-anonymity's k).

    >>> MinClassSize("k").params_named()
    ('k',)
    """

    param: str

    def __post_init__(self):
        _check_name("MinClassSize", self.param)

    def on_classes(self) -> bool:
        return True

    def params_named(self) -> tuple:
        return (self.param,)


@dataclass(frozen=True)
class MinClassSizeAboveWeakest(Capability):
    """The parameter ``param`` is a minimum class size wherever the level is stronger than its weakest: a table with a
    class of fewer records is at the weakest level (every table meets it; p-sensitive k-anonymity's k: p = 0 there),
    not infinite as with :class:`MinClassSize`, so the floor holds above the weakest level only; the definition
    ``level_of`` (a name) has the same level on every table whose classes have >= ``param`` records (distinct's).

    >>> MinClassSizeAboveWeakest("k").params_named(), MinClassSizeAboveWeakest("k").on_classes()
    (('k',), True)
    """

    param: str
    level_of: str | None = None

    def __post_init__(self):
        _check_name("MinClassSizeAboveWeakest", self.param)
        if self.level_of is not None and not (isinstance(self.level_of, str) and self.level_of):
            _refuse("MinClassSizeAboveWeakest level_of", self.level_of, ("a registered definition's name",))

    def on_classes(self) -> bool:
        return True

    def params_named(self) -> tuple:
        return (self.param,)


@dataclass(frozen=True)
class ClassDistance(Capability):
    """Where the parameters are as ``where`` says (words, e.g. ``{"ground": "equal"}``), the level is the
    largest distance ``kind`` between a class's bucket distribution and the table's.

    Parameters
    ----------
    kind : {"total-variation"}
        Half the sum of the absolute differences.
    where : dict
        Word parameters and the value each must have (a missing one reads the definition's default word).

    Examples
    --------
    >>> cd = ClassDistance("total-variation", where={"ground": "equal"})
    >>> cd.at({"ground": "equal"}, {"ground": "equal"}), cd.at({"ground": "ordered"}, {"ground": "equal"})
    ('total-variation', None)
    >>> cd.at({}, {"ground": "equal"})
    'total-variation'
    """

    kind: str
    where: tuple = ()

    def __post_init__(self):
        if self.kind not in DISTANCES:
            _refuse("ClassDistance kind", self.kind, DISTANCES)
        where = self.where.items() if isinstance(self.where, dict) else self.where
        pairs = tuple(sorted((str(k), str(v)) for k, v in where))
        for k, _ in pairs:
            _check_name("ClassDistance where", k)
        object.__setattr__(self, "where", pairs)

    def on_classes(self) -> bool:
        return True

    def params_named(self) -> tuple:
        return tuple(k for k, _ in self.where)

    def at(self, params: dict, defaults: dict) -> str | None:
        """The distance the level is at ``params`` (missing words read from ``defaults``), or None."""
        ok = all(str(params.get(k, defaults.get(k))).strip() == v for k, v in self.where)
        return self.kind if ok else None


@dataclass(frozen=True)
class ClassLevel(Capability):
    """The level of one class over ``k`` values, valid for every ``k >= 1``.

    Parameters
    ----------
    formula : callable
        ``formula(cls)`` for a :class:`~implgraph.definitions._classes.GenericClass` ``cls``: a sympy
        expression in ``cls.q[i]`` (inside sums over ``(cls.i, 1, cls.k)``), ``cls.k`` and ``cls.top``.
        The tests compare it with the definition's computed level on classes over a few values.

    Examples
    --------
    >>> from implgraph.definitions._classes import GenericClass
    >>> ClassLevel(lambda cls: 1 / cls.top).formula(GenericClass())
    1/q_max
    """

    formula: Callable

    def __post_init__(self):
        if not callable(self.formula):
            raise InputError(f"ClassLevel: {printable(repr(self.formula))[:60]} is not a function",
                             fix="give a function of a GenericClass, e.g. ClassLevel(lambda cls: 1 / cls.top)")

    def on_classes(self) -> bool:
        return True


@dataclass(frozen=True)
class AdditiveSlack(Capability):
    """The level's constraints read ``a <= e^level b + delta`` on every output event (a union of buckets).

    Parameters
    ----------
    compares : {"removal", "pairs"}
        The table against the table without one record ((eps,delta)-DP), or one record against another
        ((eps,delta)-LDP).
    param : str
        The parameter that is ``delta``.

    >>> AdditiveSlack("pairs", "delta")
    AdditiveSlack(compares='pairs', param='delta')
    """

    compares: str
    param: str = "delta"

    def __post_init__(self):
        if self.compares not in SLACK_COMPARES:
            _refuse("AdditiveSlack compares", self.compares, SLACK_COMPARES)
        _check_name("AdditiveSlack", self.param)

    def params_named(self) -> tuple:
        return (self.param,)


@dataclass(frozen=True)
class TailRatio(Capability):
    """The level is ``max(1, max_E r_1 / (r_l + ... + r_m))`` over the classes E, ``r_1 >= r_2 >= ...`` the class's
    frequencies and ``l`` the parameter ``param`` (recursive (c,l)-diversity).

    >>> TailRatio("l").on_classes()
    True
    """

    param: str

    def __post_init__(self):
        _check_name("TailRatio", self.param)

    def on_classes(self) -> bool:
        return True

    def params_named(self) -> tuple:
        return (self.param,)


@dataclass(frozen=True)
class FiniteLevelOf(Capability):
    """The level equals the definition ``name``'s wherever it is finite, in the same units; this definition adds
    a condition that makes the rest infinite.

    Parameters
    ----------
    name : str
        The registered definition whose level this one's equals.
    increase_cap : {"-log(p)"} or None
        The condition: each class's increase q/p - 1 over the table's p, on a value with p < q, is at most this
        cap (enhanced beta-likeness: D(p, q) <= -ln p).

    >>> FiniteLevelOf("basic-beta-likeness", "-log(p)")
    FiniteLevelOf(name='basic-beta-likeness', increase_cap='-log(p)')
    """

    name: str
    increase_cap: str | None = None

    def __post_init__(self):
        if not isinstance(self.name, str) or not self.name:
            raise InputError(f"FiniteLevelOf: {printable(repr(self.name))[:60]} is not a definition name",
                             fix='give the registered name, e.g. FiniteLevelOf("basic-beta-likeness")')
        if self.increase_cap is not None and self.increase_cap not in INCREASE_CAPS:
            _refuse("FiniteLevelOf increase_cap", self.increase_cap, INCREASE_CAPS)


def family_of(d) -> str | None:
    """The record sets the definition ``d``'s level compares: its :class:`RatioLevel`'s family, ``"class"`` for
    another level computed over classes, else None (a level over the whole table, such as (eps,delta)-DP's).

    >>> from implgraph.definitions import get
    >>> family_of(get("ldp")), family_of(get("k-anonymity")), family_of(get("eps-delta-dp"))
    ('pairwise', 'class', None)
    """
    ratio = d.declared(RatioLevel)
    if ratio is not None:
        return ratio.family
    return "class" if d.needs_classes else None


#: every capability kind, by class name
CAPABILITIES = {c.__name__: c for c in (RatioLevel, SubsetSize, OnClasses, ClassSizeLevel, MinClassSize,
                                        MinClassSizeAboveWeakest, ClassDistance, ClassLevel, AdditiveSlack, TailRatio,
                                        FiniteLevelOf)}
