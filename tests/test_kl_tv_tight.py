"""KL and zero-concentrated privacy => total variation between records: the tight f derived by hand
(docs/sections/dp-conversions.md, "KL, zCDP => TV") against the engine.

By hand: KL(x || y) + KL(y || x) >= 2 g(TV(x, y)) with g(t) = t log((1 + t)/(1 - t)), equality at the symmetric pair
((1 + t)/2, (1 - t)/2) and its mirror, whose KL is g(t) each way and whose zCDP level is the same g(t). So the tight
f of kl-ldp => tv-ldp and of zcdp-ldp => tv-ldp is g^-1 of A's level, for every N >= 2. The engine proves Pinsker's
sqrt(d/2), an upper bound: it must never be below g^-1 (that would be unsound), and its levels of the attaining table
must be the hand values.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath as mp
import pytest
import sympy

from implgraph.core.concrete import ConcreteTable
from implgraph.core.formula import parse_expr
from implgraph.definitions.levels import optimal_level
from implgraph.engines.prove import check_implication


def g(t):
    """t log((1 + t)/(1 - t)), in mpmath."""
    t = mp.mpf(t.numerator) / t.denominator
    return t * mp.log((1 + t) / (1 - t))


def _table(t, N):
    """One record at ((1 + t)/2, (1 - t)/2), N - 1 at its mirror."""
    return ConcreteTable.from_fractions([[(1 + t) / 2, (1 - t) / 2]] + [[(1 - t) / 2, (1 + t) / 2]] * (N - 1))


@pytest.mark.parametrize("t", [Fraction(3, 5), Fraction(9, 10)])
@pytest.mark.parametrize("N", [2, 4])
def test_the_attaining_table_has_the_hand_levels(t, N):
    """kl-ldp and zcdp-ldp level g(t) (by hand at t = 3/5: (3/5) log 4), tv-ldp level t, exactly."""
    table = _table(t, N)
    assert optimal_level(table, "tv-ldp").value == sympy.Rational(t.numerator, t.denominator)
    with mp.workdps(40):
        for name in ("kl-ldp", "zcdp-ldp"):
            value = sympy.N(optimal_level(table, name).value, 40)
            assert abs(mp.mpf(str(value)) - g(t)) < mp.mpf(10) ** -25, name
        if t == Fraction(3, 5):
            assert abs(g(t) - mp.mpf(3) / 5 * mp.log(4)) < mp.mpf(10) ** -35


@pytest.mark.parametrize("a, level", [("kl-ldp", "d"), ("zcdp-ldp", "rho")])
def test_the_engines_f_is_never_below_the_tight_one(a, level):
    """The engine's f at A's level g(t) is at least t (the attaining table's TV): where it says tight, it is t."""
    r = check_implication(a, "tv-ldp", None)
    assert r.verdict == "proved"
    sym = sympy.Symbol(level, positive=True)
    f = parse_expr(str(r.tight if r.tight is not None else r.upper_f[0]), {level: sym})
    with mp.workdps(40):
        for t in (Fraction(1, 10), Fraction(3, 5), Fraction(9, 10)):
            value = mp.mpf(str(sympy.N(f.subs(sym, sympy.Float(str(g(t)), 40)), 40)))
            assert value >= mp.mpf(t.numerator) / t.denominator - mp.mpf(10) ** -25
            if r.tight is not None:
                assert abs(value - mp.mpf(t.numerator) / t.denominator) < mp.mpf(10) ** -25
