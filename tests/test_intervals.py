"""The interval screen before the solver (implgraph.core.intervals): cases derived by hand, and soundness
checked against exact evaluation on a grid of rational points (never unsat where a point exists)."""

import itertools
import random
from fractions import Fraction

import sympy

from implgraph.core.intervals import interval_unsat

N, k, mu, a = sympy.Symbol("N"), sympy.Symbol("k"), sympy.Symbol("mu"), sympy.Symbol("a")
KINDS = (("N", "integer"), ("a", "real"), ("k", "integer"), ("mu", "real"))


def test_bounds_the_region_states():
    region = (sympy.Ge(N, 2), sympy.Gt(mu, 0), sympy.Le(mu, 1))
    assert interval_unsat(region, KINDS, sympy.Le(N, 0))             # N >= 2
    assert interval_unsat(region, KINDS, sympy.Lt(N, 2))
    assert not interval_unsat(region, KINDS, sympy.Le(N, 2))         # N = 2
    assert interval_unsat(region, KINDS, sympy.Le(mu, 0))            # 0 < mu (strict)
    assert not interval_unsat(region, KINDS, sympy.Lt(mu, 1))
    assert interval_unsat(region, KINDS, sympy.Gt(mu - 1, 0))        # mu <= 1
    # N*mu >= 0 * ... : N >= 2 and mu > 0 give N*mu > 0 only as a closed bound N*mu >= 0
    assert interval_unsat(region, KINDS, sympy.Lt(N * mu, 0))
    assert not interval_unsat(region, KINDS, sympy.Le(N * mu, 0))    # closed product: not proved (sound)


def test_integer_bounds_are_tightened():
    # k > 3/2 with k an integer is k >= 2, so k < 2 has no point; a real a > 3/2 may be below 2
    assert interval_unsat((sympy.Gt(2 * k, 3),), KINDS, sympy.Lt(k, 2))
    assert not interval_unsat((sympy.Gt(2 * a, 3),), KINDS, sympy.Lt(a, 2))


def test_even_power_and_relations_between_symbols():
    assert interval_unsat((), KINDS, sympy.Lt(mu ** 2, 0))
    assert not interval_unsat((), KINDS, sympy.Le(mu ** 2, 0))       # mu = 0
    # a relation between two symbols states no bound: not used (the solver is asked)
    assert not interval_unsat((sympy.Le(k, N - 1), sympy.Ge(N, 2)), KINDS, sympy.Ge(k, N))


def test_anything_else_is_left_to_the_solver():
    assert not interval_unsat((sympy.Ge(mu, 1),), KINDS, sympy.Lt(sympy.log(mu), 0))
    assert not interval_unsat((sympy.Ge(mu, 1),), KINDS, sympy.Lt(1 / mu, 0))
    assert not interval_unsat((sympy.Ge(sympy.exp(mu), 1), sympy.Ge(mu, 1)), KINDS, sympy.Lt(mu, 0))
    assert not interval_unsat((sympy.Ge(mu, 1),), KINDS, sympy.Eq(mu, 0))


def _value(e, point):
    return Fraction(str(e.xreplace(point)))


def test_never_unsat_where_a_grid_point_exists():
    rng = random.Random(7)
    proved = 0
    xs = [mu, a]
    grid = [Fraction(n, 2) for n in range(-5, 6)]
    ops = [sympy.Ge, sympy.Gt, sympy.Le, sympy.Lt]
    for _ in range(600):
        cons = []
        for x in xs:
            for op in rng.sample(ops, rng.randint(0, 2)):
                cons.append(op(rng.randint(-3, 3) * x + rng.randint(-4, 4), 0))
        terms = [rng.randint(-2, 2) * x ** rng.randint(0, 2) * y ** rng.randint(0, 2) for x in xs for y in xs]
        e = sympy.Add(*terms) + rng.randint(-3, 3)
        extra = rng.choice(ops)(e, 0)
        if extra in (sympy.true, sympy.false) or any(c in (sympy.true, sympy.false) for c in cons):
            continue
        if not interval_unsat(tuple(cons), KINDS, extra):
            continue
        proved += 1
        for vals in itertools.product(grid, repeat=2):
            point = {x: sympy.Rational(v.numerator, v.denominator) for x, v in zip(xs, vals)}
            assert not all(c.xreplace(point) is sympy.true for c in cons + [extra]), (cons, extra, point)
    assert proved >= 15      # the screen did answer (the check is not vacuous)
