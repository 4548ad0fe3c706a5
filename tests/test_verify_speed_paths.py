"""The shortcuts taken for ``implgraph verify``'s speed give the answers of the paths they replace.

Expected answers are derived by hand (in the comment beside each case): the nlsat path of a region question over
the reals (``logic="QF_NRA"``) and its fallback to z3's default tactic outside nlsat's fragment, the sign relations
built unevaluated, and a level claim's maximum of exponentials at a sample point.
"""

from __future__ import annotations

import pytest
import sympy
import z3

from implgraph.checks.level_points import _max_value
from implgraph.core.relations import to_zero
from implgraph.solvers import z3_region

X, Y = z3.Real("x"), z3.Real("y")


@pytest.mark.parametrize("formulas, want", [
    ([X * Y > 1, X < 0, Y > 0], "unsat"),                 # x < 0 < y makes x*y negative
    ([X * X + Y * Y < 1, X + Y > 1], "sat"),              # x = y = 3/5: 18/25 < 1 and 6/5 > 1
    ([X * X < 2, X > 1], "sat"),                          # x = 5/4: 25/16 < 2
    ([X * X < 0], "unsat"),                               # a square is never negative
    ([z3.If(X > 1, X, 2 * X) > 3, X * X < 20], "sat"),   # x = 4: If gives 4 > 3, 16 < 20
])
def test_nlsat_path_gives_the_hand_answers(formulas, want):
    status, model = z3_region.check(formulas, 1000, {"x": X, "y": Y}, logic="QF_NRA")
    assert status == want
    assert z3_region.check(formulas, 1000, {"x": X, "y": Y})[0] == want      # the default tactic agrees
    if status == "sat" and model is not None:       # a rational model satisfies the formulas exactly
        s = z3.Solver()
        s.add(*formulas, X == model["x"].p / z3.RealVal(model["x"].q), Y == model["y"].p / z3.RealVal(model["y"].q))
        assert s.check() == z3.sat


@pytest.mark.parametrize("formulas, want", [
    ([z3.ToReal(z3.ToInt(X)) > X], "unsat"),             # floor(x) <= x
    ([z3.ToInt(X) == 1, X > z3.RealVal("3/2")], "sat"),  # x = 7/4: floor 1
    # floor(y) > y**2 with y > 0: floor 0 on (0, 1), 1 <= y**2 on [1, 2), floor(y) <= y < y**2 from 2 on
    ([z3.ToReal(z3.ToInt(Y)) > Y * Y, Y > 0], "unsat"),
    ([z3.ToReal(z3.ToInt(Y)) == 1, Y * Y > 2, Y < 2], "sat"),   # y = 3/2: floor 1, 9/4 > 2
])
def test_a_question_outside_real_arithmetic_gets_the_hand_answer(formulas, want):
    assert z3_region.check(formulas, 1000, {}, logic="QF_NRA")[0] == want


def test_an_unknown_of_nlsat_is_asked_again_of_the_default_tactic(monkeypatch):
    """nlsat gives up (``unknown``, not a time limit) on a power with a symbolic exponent; the question then goes to
    the default tactic, which answers what it answers without the hint."""
    asked = []
    real = z3_region._default_tactic
    monkeypatch.setattr(z3_region, "_default_tactic", lambda ms, ctx: asked.append(ms) or real(ms, ctx))
    a = z3.Real("a")
    formulas = [a ** Y > 2, Y > 0]
    without = z3_region.check(formulas, 500, {})[0]
    asked.clear()
    assert z3_region.check(formulas, 500, {}, logic="QF_NRA")[0] == without
    assert asked == [500]


def test_sign_relations_are_the_relations_sympy_builds_when_undecided():
    N, k = sympy.symbols("N k", integer=True)
    f = N - 2 * k + 1
    for op, rel in ((">", sympy.Gt), (">=", sympy.Ge), ("<", sympy.Lt), ("<=", sympy.Le)):
        assert to_zero(f, op) == rel(f, 0) and type(to_zero(f, op)) is type(rel(f, 0))
    assert to_zero(sympy.Integer(-2), "<") is sympy.true and to_zero(sympy.Rational(1, 3), "<=") is sympy.false


def test_a_maximum_of_exponentials_at_a_point_is_exp_of_the_largest_exponent():
    N, k = sympy.symbols("N k")
    at = {N: sympy.Integer(4), k: sympy.Integer(2)}
    # N/(N - 1) = 4/3 and k*(N - 1)/(N*(k - 1)) = 3/2 at the point: exp(3/2) is the larger
    e = sympy.Max(sympy.exp(N / (N - 1)), sympy.exp(k * (N - 1) / (N * (k - 1))))
    assert _max_value(e, at) == sympy.exp(sympy.Rational(3, 2)) == e.xreplace(at)
    assert _max_value(sympy.exp(N - 4), at) == 1                 # exp(0)
    assert _max_value(sympy.Max(sympy.exp(N - 3), sympy.exp(k / 2)), at) == sympy.E      # exp(1) twice
    # a maximum mixing a ratio and an exponential is left to sympy (xreplace)
    mixed = sympy.Max(N / 3, sympy.exp(k - 2))
    assert _max_value(mixed, at) == sympy.Rational(4, 3)         # 4/3 > exp(0) = 1


def test_a_point_of_python_integers_and_fractions_is_read_exactly():
    """The sample grids give integer symbols Python ints: read as the Rationals xreplace makes of them."""
    from fractions import Fraction

    from implgraph.core.at_point import holds_at, rational_value
    N, k, mu = sympy.symbols("N k mu")
    value = -(N - 1) * (N - k * mu) / (N * (-N + k * mu + 1))
    # at N = 4, k = 2, mu = 1/2: -(3)(3)/(4 * (-2)) = 9/8
    for point in ({N: 4, k: 2, mu: Fraction(1, 2)}, {N: sympy.Integer(4), k: sympy.Integer(2), mu: sympy.Rational(1, 2)}):
        assert rational_value(value, point) == sympy.Rational(9, 8) == value.xreplace(point)
        assert holds_at(N >= 2 * k - 1, point) is True and holds_at(N < 2 * k, point) is False    # 4 >= 3, 4 < 4
    assert rational_value(N / (N - 4), {N: 4}) is None      # a zero denominator: not a value
    assert rational_value(N, {N: True}) is None             # a bool is not a number here
