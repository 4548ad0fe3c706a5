"""Shortcuts that must answer exactly what the long way answers: the float pre-screen of grid points
(:func:`~implgraph.checks.table_points.surely_outside`), the early-stopping test that a level is
infinite everywhere (:func:`~implgraph.definitions.levels.infinite_everywhere`) and the region solver's
one-shot check (:func:`implgraph.solvers.z3_backend.check`).

Expected values are derived by hand in the comments.
"""

from __future__ import annotations

import pytest
import sympy
import z3

from implgraph.checks.table_points import surely_outside
from implgraph.definitions.levels import infinite_everywhere
from implgraph.core.region import Region
from implgraph.core.table import Block, Table
from implgraph.definitions import all_definitions
from implgraph.definitions.capabilities import RatioLevel
from implgraph.solvers import z3_backend

N, z = sympy.symbols("N z", integer=True)
x = sympy.Symbol("x", real=True)
REGION = Region({N: "integer", z: "integer", x: "real"},
                (sympy.Ge(N, 2 * z + 1), sympy.Le(x, sympy.Rational(1, 3)), sympy.Gt(N * x, 1)))


@pytest.mark.parametrize("values, outside", [
    ((3, 1, 1 / 3), False),   # 3 >= 3, x = 1/3 (float of 1/3 is on the boundary: not surely outside), 3*x = 1
    ((3, 1, 0.5), True),      # x = 1/2 > 1/3
    ((2, 1, 0.2), True),      # N = 2 < 2*1 + 1
    ((5, 1, 0.2), False),     # N*x = 1 exactly: fails, but only the exact check may say so
    ((6, 2, 0.25), False),    # 6 >= 5, 1/4 <= 1/3, 6/4 > 1: inside
])
def test_surely_outside_rejects_only_sure_failures(values, outside):
    assert surely_outside(REGION, (N, z, x))(list(values)) is outside


def test_surely_outside_skips_what_it_cannot_evaluate():
    # an equation and a non-polynomial constraint are left to the exact check
    r = Region({x: "real"}, (sympy.Eq(x, 2), sympy.Gt(sympy.exp(x), 3)))
    assert surely_outside(r, (x,))([0.0]) is False


def _pairwise():
    return next(d for d in all_definitions() if d.declared(RatioLevel) == RatioLevel("pairwise") and not d.needs_classes)


def test_infinite_everywhere_parametric():
    # z records with Pr(a1) = 0 next to N - z with Pr(a1) = 1/2: the largest-to-smallest ratio of a1 is
    # (1/2)/0 = oo wherever both groups are non-empty (1 <= z <= N - 1)
    region = Region({N: "integer", z: "integer"}, (sympy.Ge(z, 1), sympy.Le(z, N - 1)))
    half, zero, one = sympy.Rational(1, 2), sympy.Integer(0), sympy.Integer(1)
    t = Table(blocks=[Block(probs=(zero, one), count=z), Block(probs=(half, half), count=N - z)], region=region)
    assert infinite_everywhere(t, _pairwise()) is True
    # Pr(a1) = 1/4 instead of 0: every ratio is finite (at most 3)
    quarter = sympy.Rational(1, 4)
    t2 = Table(blocks=[Block(probs=(quarter, 1 - quarter), count=z), Block(probs=(half, half), count=N - z)],
               region=region)
    assert infinite_everywhere(t2, _pairwise()) is False


@pytest.mark.parametrize("formulas, status", [
    (lambda a: [a > 1, a < 2], "sat"),
    (lambda a: [a > 1, a < 0], "unsat"),
    (lambda a: [a * a == 2, a > 0], "sat"),     # a = sqrt(2): sat, but no rational model
])
def test_one_shot_check(formulas, status):
    a = z3.Real("a")
    got, model = z3_backend.check(formulas(a), 1000, {"a": a})
    assert got == status
    if formulas(a)[0].eq((a * a == 2)):
        assert model is None


def test_rational_value_is_exact():
    from implgraph.core.at_point import rational_value
    a, b = sympy.symbols("a b", real=True)
    # (a + 1)/(3 b) at a = 1/2, b = 2: (3/2)/6 = 1/4
    assert rational_value((a + 1) / (3 * b), {a: sympy.Rational(1, 2), b: sympy.Integer(2)}) == sympy.Rational(1, 4)
    assert rational_value(1 / (a - b), {a: sympy.Integer(1), b: sympy.Integer(1)}) is None   # zero denominator
    assert rational_value(sympy.exp(a), {a: sympy.Integer(0)}) is None                      # not rational arithmetic


def test_factors_of_a_negated_polynomial():
    from implgraph.core.factoring import factors
    a, b = sympy.symbols("a b")
    # a^2 - b^2 = (a - b)(a + b); b^2 - a^2 = -(a - b)(a + b): same factors, constant negated
    c, fs = factors(b**2 - a**2)
    c2, fs2 = factors(a**2 - b**2)
    assert (c, c2) == (-1, 1)
    assert set(fs) == set(fs2) == {(a - b, 1), (a + b, 1)}


def test_pair_le_both_directions_on_one_region():
    from implgraph.checks.lazy_max import _pair_le
    a = sympy.Symbol("a", real=True)
    region = Region({a: "real"}, (sympy.Ge(a, 0),))
    local: dict = {}
    # a <= a + 1 everywhere; a + 1 <= a nowhere (None: not proved on the whole region)
    assert _pair_le(region, {}, a, a + 1, local) is True
    assert _pair_le(region, {}, a + 1, a, local) is None
    assert _pair_le(region, {}, a + 1, a) is None   # the same without the shared memo
