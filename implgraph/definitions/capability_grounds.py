"""The ground distances of a level that is an earth mover's distance, declared as a typed capability.

:class:`GroundDistances` names the word parameter that chooses the ground distance and, for each ground, its cost
``d(i, j)`` between the values ``i`` and ``j`` (integer indices ``0 <= i, j < K``) of a domain of ``K`` values, as a
formula in ``i``, ``j`` and ``K`` read by the project's formula reader (:func:`implgraph.core.formula.parse_expr`; a
whitelist walk, nothing is evaluated). The engine writes these formulas into the certificates that rest on the
ground being a metric, and the independent checker (:mod:`implgraph.certify.ground_metric`) proves each a metric for
every ``K >= 2``.

Examples
--------
>>> g = GroundDistances("ground", (("equal", "Piecewise((0, Eq(i, j)), (1, True))"), ("ordered", "Abs(i - j)/(K - 1)")))
>>> g.names(), g.formula("ordered")
(('equal', 'ordered'), 'Abs(i - j)/(K - 1)')
>>> g.matrix("ordered", 3)[0]
[Fraction(0, 1), Fraction(1, 2), Fraction(1, 1)]
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import sympy

from implgraph.core.errors import InputError, printable
from implgraph.definitions._capability_values import _check_name
from implgraph.definitions.capabilities import Capability

__all__ = ["GroundDistances", "GROUND_SYMBOLS", "read_cost"]

#: the cost formula's names: the two values' indices and the number of values (plain symbols)
GROUND_SYMBOLS = {n: sympy.Symbol(n) for n in ("i", "j", "K")}


@lru_cache(maxsize=None)
def read_cost(text: str) -> sympy.Expr:
    """A cost formula in ``i``, ``j``, ``K`` as sympy (the formula reader; InputError for anything else)."""
    from implgraph.core.formula import parse_expr
    if not isinstance(text, str):
        raise InputError(f"ground cost {printable(repr(text))[:60]} is not text",
                         fix='write the cost as a formula in i, j and K, e.g. "Abs(i - j)/(K - 1)"')
    return parse_expr(text, GROUND_SYMBOLS)


@dataclass(frozen=True)
class GroundDistances(Capability):
    """The parameter ``param`` chooses the ground distance among ``costs``, pairs ``(name, cost formula)``.

    Parameters
    ----------
    param : str
        The word parameter naming the ground (emd-t-closeness's ``ground``).
    costs : tuple of (str, str)
        Each ground's name and its cost ``d(i, j)`` as a formula in ``i``, ``j`` (the values' indices, from 0) and
        ``K`` (the number of values); read once here, so an unreadable formula is refused where it is declared.
    """

    param: str
    costs: tuple = ()

    def __post_init__(self):
        _check_name("GroundDistances", self.param)
        pairs = tuple((str(n), str(c)) for n, c in (self.costs.items() if isinstance(self.costs, dict)
                                                    else self.costs))
        if not pairs or len({n for n, _ in pairs}) != len(pairs):
            raise InputError(f"GroundDistances: {printable(repr(self.costs))[:60]}",
                             fix="name each ground once, with its cost formula")
        for name, cost in pairs:
            read_cost(cost)
            if set(map(str, read_cost(cost).free_symbols)) - set(GROUND_SYMBOLS):
                raise InputError(f"GroundDistances {name}: the cost uses a name other than i, j, K",
                                 fix="write the cost in i, j and K only")
        object.__setattr__(self, "costs", pairs)

    def params_named(self) -> tuple:
        return (self.param,)

    def names(self) -> tuple:
        """The grounds' names, in the declared order."""
        return tuple(n for n, _ in self.costs)

    def covered(self, params) -> list:
        """The grounds a claim with parameters ``params`` is about: the one its ``param`` names, else every ground."""
        stated = str((params or {}).get(self.param))
        return [stated] if stated in self.names() else list(self.names())

    def formula(self, name: str) -> str | None:
        """The cost formula of the ground ``name`` as declared (text), or None."""
        return dict(self.costs).get(name)

    def matrix(self, name: str, K: int) -> list:
        """The costs ``d(i, j)`` of the ground ``name`` over ``K`` values, exact (``Fraction``)."""
        e = read_cost(self.formula(name))
        s = GROUND_SYMBOLS
        out = []
        for i in range(K):
            row = []
            for j in range(K):
                v = e.xreplace({s["i"]: sympy.Integer(i), s["j"]: sympy.Integer(j), s["K"]: sympy.Integer(K)})
                if not v.is_Rational:
                    raise InputError(f"ground {name}: d({i}, {j}) = {v} at K = {K} is not a rational number",
                                     fix="give a cost with rational values")
                row.append(Fraction(int(v.p), int(v.q)))
            out.append(row)
        return out
