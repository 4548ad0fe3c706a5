"""The binary-program argument: a Renyi-2 level between records to an (eps, delta) slack
(docs/proofs/binary-program.md).

Hand values (c = e^T - 1 the chi^2 level, f = e^eps, d = delta):

- d = 1/10: c0 = 4 d^2/(1 - d^2) = 4/99, c1 = 4 d^2/(1 - 2 d) = 1/20. f = 1 at c = 4/99; at c = 1/20 both pieces give
  1 + 2 d^2/(1 - 2 d) = 41/40; at c = 1/10 (top) f = 1 - 1/10 + (1/10)/(4/10) = 23/20, attained by b = 4 d^2/(4 d^2
  + c) = 2/7, a = 3/7: chi^2 = (1/49)/(10/49) = 1/10 one way, (1/49)/(12/49) = 1/12 the other, (3/7 - 1/10)/(2/7) =
  23/20. Middle at m = 21/400 (in [1/20, 1/18]): c = 16 m^2/(1 - 4 m^2) = 1764/39559,
  f = (1/2 + m - d)/(1/2 - m) = (181/400)/(179/400) = 181/179, attained by (221/400, 179/400) against
  (179/400, 221/400).
- d = 1/4: c0 = 4/15, c1 = 1/2; at c = 1 (top) f = 1 - 1/4 + 1 = 7/4.
"""

from __future__ import annotations

import copy
import random
import sys
from fractions import Fraction as F
from pathlib import Path

import mpmath
import pytest
import sympy

import brute
from _plugin_fixtures import registered

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "docs" / "examples" / "implgraph-divergences"))

from implgraph_divergences.kl_ldp import KLLocalPrivacy  # noqa: E402
from implgraph_divergences.renyi2_ldp import Renyi2LocalPrivacy  # noqa: E402

from implgraph.certify import check_certificate  # noqa: E402
from implgraph.engines.prove import check_implication  # noqa: E402

D = F(1, 10)


@pytest.fixture(scope="module", autouse=True)
def plugins():
    with registered(KLLocalPrivacy, Renyi2LocalPrivacy):
        yield


def f_by_hand(c, d):
    """The program's value (e^eps) at chi^2 level c, high precision: the three pieces of the proof page."""
    with mpmath.workdps(50):
        c, d = mpmath.mpf(c.numerator) / c.denominator, mpmath.mpf(d.numerator) / d.denominator
        if c <= 4 * d ** 2 / (1 - d ** 2):
            return mpmath.mpf(1)
        if c <= 4 * d ** 2 / (1 - 2 * d):
            m = mpmath.sqrt(c / (4 + c)) / 2
            return (mpmath.mpf(1) / 2 + m - d) / (mpmath.mpf(1) / 2 - m)
        return 1 - d + c / (4 * d)


def f_removal_by_hand(c, dn):
    """Record removal: 1 where N d >= 1, else the program at the removal pair's chi^2 level c/(N (N - 1))."""
    d, n = dn
    return mpmath.mpf(1) if n * d >= 1 else f_by_hand(c / (n * (n - 1)), d)


def _gap(f, c, d, q):
    """f(c, d) - q at 50 digits (q a Fraction)."""
    with mpmath.workdps(50):
        return f(c, d) - mpmath.mpf(q.numerator) / q.denominator


def chi_level(rows):
    """The largest chi^2 over ordered pairs of distinct records, exactly (brute force); None where infinite."""
    s = brute.renyi_level_sum(rows, 2, "pairs")
    return None if s is None else s - 1


def _proof(b="eps-delta-ldp", delta=D):
    return check_implication("example-renyi2-ldp", b, b_params={"delta": sympy.Rational(delta.numerator, delta.denominator)},
                             max_n=3)


def _tight_at(res, c):
    f = sympy.sympify(res.tight) if isinstance(res.tight, str) else res.tight
    (d,) = f.free_symbols         # A's level symbol
    return sympy.exp(f.subs(d, sympy.log(1 + sympy.Rational(c.numerator, c.denominator))))


def test_hand_values_and_verdict():
    res = _proof()
    assert res.verdict == "proved" and res.tightness == "tight" and res.method == "binary-program"
    m = F(21, 400)
    points = [(F(4, 99), 1), (F(1, 50), 1), (F(1, 20), F(41, 40)), (F(1, 10), F(23, 20)),
              (16 * m ** 2 / (1 - 4 * m ** 2), F(181, 179))]
    for c, want in points:
        got = _tight_at(res, c)
        assert abs(sympy.N(got, 30) - sympy.Rational(want.numerator, want.denominator)) < sympy.Float("1e-25"), c
        assert abs(_gap(f_by_hand, c, D, F(want))) < mpmath.mpf("1e-40")
    assert abs(_gap(f_by_hand, F(1), F(1, 4), F(7, 4))) < mpmath.mpf("1e-40")


def test_attaining_pairs_by_hand():
    for (x, y), c, want in ((((F(3, 7), F(4, 7)), (F(2, 7), F(5, 7))), F(1, 10), F(23, 20)),
                            (((F(221, 400), F(179, 400)), (F(179, 400), F(221, 400))),
                             16 * F(21, 400) ** 2 / (1 - 4 * F(21, 400) ** 2), F(181, 179))):
        for n in (2, 3, 4):
            rows = [list(x)] + [list(y)] * (n - 1)
            assert chi_level(rows) == c
            assert brute.eps_delta_ldp(rows, D) == want


def test_certificates_are_rechecked():
    res = _proof()
    certs = [res.details["certificate"], *res.details.get("certificates", [])]
    assert certs and all(check_certificate(c).ok for c in certs)
    central = _proof("eps-delta-dp")
    assert central.verdict == "proved" and central.tightness == "not derived"
    cert = central.details["certificate"]
    assert cert["tight"] is False and check_certificate(cert).ok
    # by hand: at N = 2 the removal pair's chi^2 level is c/2: c = 1/5 gives the top piece at 1/10, e^eps <= 23/20;
    # at N = 10 >= 1/delta every table is (0, 1/10)-DP
    N, level = sympy.symbols("N d")
    f = sympy.sympify(central.details["proved_f"], locals={"N": N, "d": level})
    at = f.subs({N: 2, level: sympy.log(sympy.Rational(6, 5))})
    assert sympy.simplify(sympy.exp(at) - sympy.Rational(23, 20)) == 0
    assert f.subs({N: 10, level: 5}) == 0
    assert not check_certificate(_forged(cert, lambda c: c.update(upper=c["upper"].replace("N >= 10", "N >= 5")))).ok


def _forged(cert, edit):
    out = copy.deepcopy(cert)
    edit(out)
    assert out != cert          # the edit took
    return out


def test_forged_certificates_are_rejected():
    cert = _proof().details["certificate"]
    forgeries = [
        lambda c: c.update(upper=c["upper"].replace("5*exp(T)/2", "3*exp(T)")),         # a smaller slope
        lambda c: c.update(upper=c["upper"].replace("log(21/20)", "log(11/10)")),       # a piece moved
        lambda c: c.update(upper=c["upper"].replace("(1, T <= log(103/99))", "(1, T <= log(21/20))")),
        lambda c: c["B"]["slack"].update(delta="1/5"),                                  # another delta
        lambda c: c["tightness"]["pieces"][2]["rows"][1].update(value="2/(5*exp(T))"),  # a wrong attaining row
        lambda c: c["B"].update(definition="eps-delta-dp"),                             # tight on removal
    ]
    for edit in forgeries:
        assert not check_certificate(_forged(cert, edit)).ok


def _grid_best(c, d, den=300):
    """The best (a - d)/b over binary pairs of a grid (exact chi^2 both ways <= c): a lower bound of the program."""
    best = F(1)
    for j in range(1, den):
        b = F(j, den)
        for i in range(j + 1, den):
            a = F(i, den)
            s2 = (a - b) ** 2
            if s2 > c * b * (1 - b) or s2 > c * a * (1 - a):
                break
            best = max(best, (a - d) / b)
    return best


@pytest.mark.parametrize("c, d", [(F(1, 30), D), (F(9, 200), D), (F(12, 250), D), (F(1, 20), D), (F(1, 10), D),
                                  (F(1, 2), D), (F(2, 5), F(1, 4)), (F(3, 2), F(1, 4))])
def test_grid_search_meets_f_from_below(c, d):
    gap = _gap(f_by_hand, c, d, _grid_best(c, d))
    assert -mpmath.mpf("1e-40") <= gap < mpmath.mpf("0.01")


def test_random_tables_never_above_f():
    rng = random.Random(40)
    for _ in range(300):
        n, p = rng.randint(2, 4), rng.randint(2, 4)
        rows = brute.random_rows(rng, n, p, high=6)
        c = chi_level(rows)
        if c is None:
            continue
        for d in (F(1, 10), F(1, 4)):
            assert _gap(f_by_hand, c, d, brute.eps_delta_ldp(rows, d)) >= -mpmath.mpf("1e-40"), (rows, d)
            assert _gap(f_removal_by_hand, c, (d, n), brute.eps_delta_dp(rows, d)) >= -mpmath.mpf("1e-40"), (rows, d)


def test_random_binary_pairs_near_the_middle_never_above_f():
    """Pairs around (1/2, 1/2), where the flat and middle pieces live (c up to about 0.2)."""
    rng = random.Random(41)
    pieces = set()
    for _ in range(3000):
        a, b = F(500 + rng.randint(-110, 110), 1000), F(500 + rng.randint(-110, 110), 1000)
        rows = [[a, 1 - a], [b, 1 - b]]
        c = chi_level(rows)
        pieces.add("flat" if c <= F(4, 99) else "middle" if c <= F(1, 20) else "top")
        assert _gap(f_by_hand, c, D, brute.eps_delta_ldp(rows, D)) >= -mpmath.mpf("1e-40"), rows
    assert pieces == {"flat", "middle", "top"}


def kl_level(rows):
    """The largest KL over ordered pairs of records at 50 digits (None where infinite)."""
    with mpmath.workdps(50):
        best = mpmath.mpf(0)
        for x in rows:
            for y in rows:
                if any(p > 0 and q == 0 for p, q in zip(x, y)):
                    return None
                best = max(best, sum((mpmath.mpf(p.numerator) / p.denominator
                                      * mpmath.log(mpmath.mpf((p / q).numerator) / (p / q).denominator)
                                      for p, q in zip(x, y) if p > 0), mpmath.mpf(0)))
        return best


def kl_bound_by_hand(r, d):
    """1 where r <= 2 d^2 (Pinsker), else (d/r)(e^(r/d) - 1)."""
    with mpmath.workdps(50):
        d = mpmath.mpf(d.numerator) / d.denominator
        return mpmath.mpf(1) if r <= 2 * d ** 2 else d / r * (mpmath.exp(r / d) - 1)


def test_kl_upper_bound_is_proved_and_rechecked():
    for b in ("eps-delta-ldp", "eps-delta-dp"):
        res = check_implication("example-kl-ldp", b, b_params={"delta": sympy.Rational(1, 10)}, max_n=2)
        assert res.verdict == "proved" and res.tightness == "not derived"
        cert = res.details["certificate"]
        assert cert["tight"] is False and check_certificate(cert).ok
        f = sympy.sympify(res.details["proved_f"], locals={"N": sympy.Symbol("N")})
        names = {s.name: s for s in f.free_symbols}
        (d,) = (s for s in f.free_symbols if s.name != "N")
        if b == "eps-delta-dp":
            # every table of N >= 10 records is at eps = 0 (|P(E) - Q_i(E)| <= 1/N <= 1/10): B's cap, the binary
            # program's bound below it
            assert res.method == "removal-cap" and cert["parts"][0]["method"] == "binary-program"
            assert f.subs({names["N"]: 10, d: 1}) == 0
            f, cert = f.subs(names["N"], 3), cert["parts"][0]
        assert res.method in ("binary-program", "removal-cap") and cert["method"] == "binary-program"
        # by hand: at T = 1/5 (> 2 delta^2 = 1/50) e^eps <= (1/2)(e^2 - 1); at T = 1/100, eps = 0
        assert sympy.simplify(sympy.exp(f.subs(d, sympy.Rational(1, 5))) - (sympy.exp(2) - 1) / 2) == 0
        assert f.subs(d, sympy.Rational(1, 100)) == 0
    forged = [lambda c: c.update(upper=c["upper"].replace("exp(10*T)", "exp(9*T)")),
              lambda c: c.update(upper=c["upper"].replace("T <= 1/50", "T <= 1/20")),
              lambda c: c.update(tight=True)]
    for edit in forged:
        assert not check_certificate(_forged(cert, edit)).ok


def test_kl_bound_against_random_tables():
    rng = random.Random(42)
    for _ in range(300):
        n, p = rng.randint(2, 4), rng.randint(2, 3)
        rows = brute.random_rows(rng, n, p, high=6)
        r = kl_level(rows)
        if r is None:
            continue
        for d in (F(1, 10), F(1, 4)):
            with mpmath.workdps(50):
                U = kl_bound_by_hand(r, d)
                for level in (brute.eps_delta_ldp(rows, d), brute.eps_delta_dp(rows, d)):
                    assert mpmath.mpf(level.numerator) / level.denominator <= U + mpmath.mpf("1e-40"), (rows, d)


@pytest.mark.parametrize("order, kind", [(3, "chi-square"), ("oo", "chi-square"), ("3/2", "kl")])
def test_other_orders_get_the_lower_orders_bound(order, kind):
    """D_alpha >= D_2 for alpha >= 2 and >= KL for alpha > 1: the lower order's bound, never tight."""
    from implgraph.definitions.divergences import Divergence, DivergenceDefinition

    class Other(DivergenceDefinition):
        name = "renyi-other-test"
        level_symbol = "d"
        level = Divergence("renyi", order, compares="pairs")

    with registered(Other):
        res = check_implication("renyi-other-test", "eps-delta-ldp", b_params={"delta": sympy.Rational(1, 10)},
                                max_n=2)
        assert res.verdict == "proved" and res.tightness == "not derived" and res.method == "binary-program"
        cert = res.details["certificate"]
        assert cert["upper_certificate"]["program"] == kind and check_certificate(cert).ok
        assert not check_certificate(_forged(cert, lambda c: c.update(tight=True))).ok
