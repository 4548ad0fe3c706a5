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
    assert not interval_unsat(region, KINDS, sympy.Gt(mu, 0))
    assert not interval_unsat(region, KINDS, sympy.Ge(mu, 1))            # mu = 1
    assert interval_unsat(region, KINDS, sympy.Gt(mu, 1))
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
    for _ in range(400):
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
    assert proved >= 8      # the screen did answer (the check is not vacuous)


def test_linear_relations_between_symbols():
    from implgraph.core.intervals import linear_unsat
    region = (sympy.Le(k, N - 1), sympy.Ge(k, 1), sympy.Ge(N, 2))
    assert linear_unsat(region, KINDS, sympy.Ge(k, N))                 # k <= N - 1
    assert linear_unsat(region, KINDS, sympy.Gt(k - N, -1))            # integers: k - N > -1 is k >= N
    assert not linear_unsat(region, KINDS, sympy.Ge(k, N - 1))         # k = N - 1
    # over the reals a - mu > -1 and a <= mu - 1 do not meet; a - mu >= -1 does (a = mu - 1)
    assert linear_unsat((sympy.Le(a, mu - 1),), KINDS, sympy.Gt(a - mu, -1))
    assert not linear_unsat((sympy.Le(a, mu - 1),), KINDS, sympy.Ge(a - mu, -1))
    # two steps: k <= N - 1 and N <= 2*k - 2 give k >= 1 + ... ; k <= 0 contradicts k >= 1
    assert linear_unsat((sympy.Le(k, N - 1), sympy.Le(N, 2 * k - 2)), KINDS, sympy.Le(k, 0))
    # a nonlinear constraint is left out (a relaxation), a function turns the screen off
    assert linear_unsat((sympy.Le(k, N - 1), sympy.Le(N * k, 7)), KINDS, sympy.Ge(k, N))
    assert not linear_unsat((sympy.Le(k, N - 1), sympy.Le(sympy.exp(k), 7)), KINDS, sympy.Ge(k, N))
    assert not linear_unsat(region, KINDS, sympy.Ge(k * N, N ** 2))    # a nonlinear question


def test_linear_never_unsat_where_a_point_exists():
    from implgraph.core.intervals import linear_unsat
    import operator
    rng = random.Random(11)
    ops = [(sympy.Ge, operator.ge), (sympy.Gt, operator.gt), (sympy.Le, operator.le), (sympy.Lt, operator.lt)]
    box = [(1, 0, 2, operator.ge), (-1, 0, 2, operator.ge), (0, 1, 2, operator.ge), (0, -1, 2, operator.ge)]
    proved = 0
    for kinds, grid in ((KINDS, [Fraction(n) for n in range(-3, 4)]),
                        ((("N", "real"), ("k", "real")), [Fraction(n, 4) for n in range(-9, 10)])):
        for _ in range(250):
            rows = [(rng.randint(-3, 3), rng.randint(-3, 3), rng.randint(-5, 5), rng.choice(ops))
                    for _ in range(rng.randint(1, 4))] + [(a_, b_, c_, (sympy.Ge, op)) for a_, b_, c_, op in box]
            rels = [op[0](a_ * N + b_ * k + c_, 0) for a_, b_, c_, op in rows]
            if any(r in (sympy.true, sympy.false) for r in rels):
                continue
            # the box |N|, |k| <= 2 bounds the region, so that the grid decides
            if not linear_unsat(tuple(rels[1:]), kinds, rels[0]):
                continue
            proved += 1
            for vn, vk in itertools.product(grid, repeat=2):
                assert not all((op[1] if isinstance(op, tuple) else op)(a_ * vn + b_ * vk + c_, 0)
                               for a_, b_, c_, op in rows), (rels, vn, vk)
    assert proved >= 20


def test_exact_truth_of_max_and_min_at_a_point():
    from implgraph.core.at_point import holds_at, rational_value
    x, y = sympy.symbols("x y")
    point = {x: sympy.Rational(1, 3), y: sympy.Integer(2)}
    # max(1/3, 1/2, -1/3) - min(1/3, 2) = 1/2 - 1/3
    assert rational_value(sympy.Max(x, 1 / y, x * y - 1) - sympy.Min(x, y), point) == sympy.Rational(1, 6)
    assert holds_at(sympy.Max(x, y) > 1, point) is True
    assert holds_at(sympy.Min(x, 1 / y) >= sympy.Rational(1, 2), point) is False
    assert rational_value(sympy.Max(x, 1 / (y - 2)), point) is None          # 1/0: not a value


def test_products_held_by_the_bounds():
    from implgraph.core.intervals import linear_unsat
    alpha = sympy.Symbol("alpha")
    kinds = KINDS + (("alpha", "real"),)
    region = (sympy.Gt(alpha, 0), sympy.Le(alpha, mu), sympy.Le(mu, 1), sympy.Le(2, k), sympy.Le(k + 2, N))
    # k*mu <= 2*mu + k - 2 <= k (mu <= 1, k >= 2) and N >= k + 2, so k*mu > N has no point
    assert linear_unsat(region, kinds, sympy.Gt(k * mu, N))
    assert not linear_unsat(region, kinds, sympy.Gt(k * mu + 3, N))      # k = 2, mu = 1, N = 4: 5 > 4
    assert linear_unsat((sympy.Ge(mu, 2),), KINDS, sympy.Lt(mu ** 2, 2 * mu))   # mu**2 >= 2*mu there
    assert not linear_unsat((sympy.Ge(mu, 1),), KINDS, sympy.Lt(mu ** 2, 2 * mu))  # mu = 3/2: 9/4 < 3


def test_products_never_unsat_where_a_point_exists():
    from implgraph.core.intervals import linear_unsat
    import operator
    rng = random.Random(5)
    ops = [(sympy.Ge, operator.ge), (sympy.Gt, operator.gt), (sympy.Le, operator.le), (sympy.Lt, operator.lt)]
    grid = [Fraction(n, 4) for n in range(-8, 9)]
    proved = 0
    for _ in range(800):
        box = [sympy.Ge(N, rng.randint(-2, 0)), sympy.Le(N, 2), sympy.Ge(k, -2), sympy.Le(k, rng.randint(0, 2))]
        cs = [rng.randint(-3, 3) for _ in range(6)]
        op = rng.choice(ops)
        poly = lambda n, kk: cs[0] * n * kk + cs[1] * n * n + cs[2] * kk * kk + cs[3] * n + cs[4] * kk + cs[5]
        extra = op[0](poly(N, k), 0)
        if extra in (sympy.true, sympy.false):
            continue
        if not linear_unsat(tuple(box), (("N", "real"), ("k", "real")), extra):
            continue
        proved += 1
        for vn, vk in itertools.product(grid, repeat=2):
            point = {N: sympy.Rational(vn.numerator, vn.denominator), k: sympy.Rational(vk.numerator, vk.denominator)}
            if all(c.xreplace(point) is sympy.true for c in box):
                assert not op[1](poly(vn, vk), 0), (box, extra, vn, vk)
    assert proved >= 12
