"""The exact zero-concentrated level of two distributions (sup over alpha > 1 of D_alpha/alpha) against the brute
force ``tests/brute.py:zcdp_mp`` (the orders evaluated literally, in mpmath) and against values derived by hand."""

import random
from fractions import Fraction as F

import mpmath
import pytest
import sympy

from implgraph.core.concrete import INF, Enclosed
from implgraph.definitions._zcdp_values import ZcdpSup, enclose, zcdp_between
from brute import zcdp_mp


def _value(v):
    return mpmath.mpf(sympy.N(v.expr if isinstance(v, Enclosed) else v, 60))


def test_randomized_response_is_the_kl_limit():
    """Randomized response at T = e^eps: the supremum is the limit at alpha -> 1 (the docs' tanh lemma), so the level
    is eps tanh(eps/2) = log(T)(T - 1)/(T + 1) exactly."""
    for T in (F(2), F(3), F(9, 4), F(11)):
        x, y = (T / (T + 1), 1 / (T + 1)), (1 / (T + 1), T / (T + 1))
        v = zcdp_between(x, y)
        eps = sympy.log(sympy.Rational(T.numerator, T.denominator))
        by_hand = eps * (sympy.Rational(T.numerator, T.denominator) - 1) / (sympy.Rational(T.numerator, T.denominator) + 1)
        assert not isinstance(v, Enclosed)
        assert sympy.simplify(sympy.expand_log(v - by_hand, force=True)) == 0


def test_constant_ratio_is_its_log():
    """x = c y on x's support: every D_alpha is log c, so the supremum is the limit log c."""
    v = zcdp_between((F(1, 2), F(1, 2), F(0)), (F(1, 4), F(1, 4), F(1, 2)))
    assert v == sympy.log(2)


def test_equal_and_infinite():
    assert zcdp_between((F(1, 3), F(2, 3)), (F(1, 3), F(2, 3))) == 0
    assert zcdp_between((F(1, 2), F(1, 2)), (F(1), F(0))) == INF


def test_support_strictly_inside():
    """supp x inside supp y, x = y on it up to scale: x = (1/2, 1/2, 0), y = (1/3, 1/3, 1/3): x = (3/2) y there, level
    log(3/2) (a constant ratio)."""
    v = zcdp_between((F(1, 2), F(1, 2), F(0)), (F(1, 3), F(1, 3), F(1, 3)))
    assert sympy.simplify(sympy.expand_log(v - sympy.log(sympy.Rational(3, 2)), force=True)) == 0


def test_small_probability_pair_is_interior():
    """y = (1/10000, ...), x = (1/100, ...): a ratio of 100 on a small bucket, KL = 0.0313...: D_alpha/alpha peaks at
    an interior order well above KL (the brute force finds it)."""
    x, y = (F(1, 100), F(99, 100)), (F(1, 10000), F(9999, 10000))
    v = zcdp_between(x, y)
    assert isinstance(v, Enclosed) and isinstance(v.expr, ZcdpSup)
    b = zcdp_mp(x, y)
    with mpmath.workdps(60):
        _inside(v, b)
    kl = sum(float(a) * mpmath.log(float(a) / float(c)) for a, c in zip(x, y))
    assert b > 10 * kl


def _inside(v, b):
    assert mpmath.mpf(v.lo.numerator) / v.lo.denominator - mpmath.mpf(10) ** -25 <= b
    assert b <= mpmath.mpf(v.hi.numerator) / v.hi.denominator + mpmath.mpf(10) ** -40


def _random_pair(rng):
    p = rng.choice([2, 3, 4])

    def dist():
        w = [rng.randint(1, 20) ** rng.choice([1, 2, 3]) for _ in range(p)]
        return tuple(F(a, sum(w)) for a in w)
    return dist(), dist()


@pytest.mark.parametrize("seed", range(3))
def test_random_pairs_against_brute(seed):
    """Every exact level lies within 1e-20 (relative) of the brute force's, and never below a value it evaluated."""
    rng = random.Random(seed)
    with mpmath.workdps(60):
        _against_brute(rng)


def _against_brute(rng):
    for _ in range(25):
        x, y = _random_pair(rng)
        v = zcdp_between(x, y)
        b = zcdp_mp(x, y)
        if isinstance(v, Enclosed):
            lo = mpmath.mpf(v.lo.numerator) / v.lo.denominator
            hi = mpmath.mpf(v.hi.numerator) / v.hi.denominator
        else:
            lo = hi = _value(v)
        assert b <= hi * (1 + mpmath.mpf(10) ** -40)              # the brute force's values are attained orders
        assert b >= lo * (1 - mpmath.mpf(10) ** -20)              # and it finds the peak


def test_sympy_number_evaluates_inside_its_enclosure():
    x, y = (F(1, 100), F(99, 100)), (F(1, 10000), F(9999, 10000))
    v = zcdp_between(x, y)
    lo, hi = enclose(x, y, 45)
    n = v.expr.evalf(40)
    assert F(str(lo)) <= F(str(sympy.Rational(str(n)))) + F(1, 10 ** 38)
    assert F(str(sympy.Rational(str(n)))) <= hi + F(1, 10 ** 38)
    assert v.lo <= hi and lo <= v.hi


def test_tiny_bucket_far_orders():
    """x = (2^-40, ...), y = (2^-80, ...): a ratio of 2^40 on a bucket of mass 2^-80, KL about 3e-11, so the orders to
    search reach 10^12 (e^(t z) has an exponent of about 10^13): the level is still enclosed, around the brute force's."""
    x = (F(1, 2 ** 40), 1 - F(1, 2 ** 40))
    y = (F(1, 2 ** 80), 1 - F(1, 2 ** 80))
    v = zcdp_between(x, y)
    assert isinstance(v, Enclosed)
    b = zcdp_mp(x, y, dps=60)
    with mpmath.workdps(60):
        assert b <= mpmath.mpf(v.hi.numerator) / v.hi.denominator * (1 + mpmath.mpf(10) ** -40)
        assert b >= mpmath.mpf(v.lo.numerator) / v.lo.denominator * (1 - mpmath.mpf(10) ** -12)


def test_nearly_equal_distributions():
    """y = (1/2 - 10^-30, 1/2 + 10^-30) against x = (1/2, 1/2): KL is about 2 10^-60 and D_alpha/alpha is flat to 60
    digits over 30 decades of orders; Hoeffding's lemma (G <= max(KL, R^2/8), R the range of log(x/y)) encloses it."""
    e = F(1, 10 ** 30)
    x, y = (F(1, 2), F(1, 2)), (F(1, 2) - e, F(1, 2) + e)
    v = zcdp_between(x, y)
    b = zcdp_mp(x, y, dps=150)
    with mpmath.workdps(150):
        lo, hi = (mpmath.mpf(w.numerator) / w.denominator for w in ((v.lo, v.hi) if isinstance(v, Enclosed)
                                                                      else (F(0), F(0))))
        assert isinstance(v, Enclosed)
        assert lo * (1 - mpmath.mpf(10) ** -25) <= b <= hi * (1 + mpmath.mpf(10) ** -40)
        assert abs(b / (2 * mpmath.mpf(10) ** -60) - 1) < mpmath.mpf(10) ** -20     # by hand: -log(1 - 4 e^2)/2
