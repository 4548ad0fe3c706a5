"""The named conversions the chord argument proves (docs/proofs/chord-removal.md, docs/sections/dp-conversions.md):
pure eps to Renyi of a stated order between records, and record removal tight for every N.

Hand values (T = e^eps):

- local, Renyi of order alpha: log((T^alpha + T^(1 - alpha))/(T + 1))/(alpha - 1), attained by randomized response
  (one record (T, 1)/(T + 1), N - 1 at (1, T)/(T + 1)); at alpha = 3 and T = 2: log((8 + 1/4)/3)/2 = log(11/4)/2.
- central (record removal), the reference page's two-point table: u = N - (N - 1)/T; v = 1/T at N = 2,
  max(0, N - (N - 1) T) for N >= 3; w = (1 - v)/(u - v); q(s) = (N - s)/(N - 1); Renyi:
  log max(w q(u)^alpha + (1 - w) q(v)^alpha, w q(u)^(1 - alpha) + (1 - w) q(v)^(1 - alpha))/(alpha - 1); KL:
  max(w q(u) log q(u) + (1 - w) q(v) log q(v), -(w log q(u) + (1 - w) log q(v))); attained by P = (w, 1 - w),
  x_1 = (u w, v (1 - w)), N - 1 records at (q(u) w, q(v) (1 - w)). At N = 2, T = 2 (u = 3/2, v = 1/2, w = 1/2,
  q(u) = 1/2, q(v) = 3/2), Renyi 2: max(5/4, 4/3) = 4/3, level log(4/3); KL: max((3/4) log(3/2) - (1/4) log 2,
  (1/2) log(4/3)) = (1/2) log(4/3).
"""

from __future__ import annotations

import copy
import random
from fractions import Fraction as F

import mpmath
import pytest
import sympy

import brute
import brute_divergences
from implgraph.certify import check_certificate
from implgraph.engines.prove import check_implication

mpmath.mp.dps = 50


def _mp(q):
    return mpmath.mpf(q.numerator) / q.denominator


def local_renyi(T, alpha):
    T, a = _mp(T), _mp(alpha)
    return mpmath.log((T ** a + T ** (1 - a)) / (T + 1)) / (a - 1)


def central_points(T, n):
    """(u, v, w, q(u), q(v)) exactly (Fractions)."""
    u = n - F(n - 1) / T
    v = 1 / T if n == 2 else max(F(0), n - (n - 1) * T)
    w = (1 - v) / (u - v)
    return u, v, w, (n - u) / F(n - 1), (n - v) / F(n - 1)


def central_renyi2(T, n):
    """exp of the central Renyi-2 tight f, exactly."""
    _, _, w, qu, qv = central_points(T, n)
    return max(w * qu ** 2 + (1 - w) * qv ** 2, w / qu + (1 - w) / qv)


def central_kl(T, n):
    _, _, w, qu, qv = central_points(T, n)
    w, qu, qv = _mp(w), _mp(qu), _mp(qv)
    fwd = w * qu * mpmath.log(qu) + (1 - w) * (qv * mpmath.log(qv) if qv else 0)
    return max(fwd, -(w * mpmath.log(qu) + (1 - w) * mpmath.log(qv)))


def attaining(T, n):
    u, v, w, qu, qv = central_points(T, n)
    return [[u * w, v * (1 - w)]] + [[qu * w, qv * (1 - w)]] * (n - 1)


def _engine_f(result, T, n):
    f = result.tight
    subs = {s: (sympy.log(sympy.Rational(T.numerator, T.denominator)) if s.name == "eps" else n)
            for s in f.free_symbols}
    return mpmath.mpf(str(sympy.N(f.subs(subs), 60)))


@pytest.fixture(scope="module")
def renyi3():
    return check_implication("ldp", "renyi-ldp", b_params={"alpha": sympy.Integer(3)}, max_n=3)


@pytest.fixture(scope="module")
def removal():
    return {"kl": check_implication("dp", "kl-dp", max_n=3),
            "renyi2": check_implication("dp", "renyi-dp", b_params={"alpha": sympy.Integer(2)}, max_n=3)}


def test_hand_values():
    assert central_renyi2(F(2), 2) == F(4, 3)
    assert abs(central_kl(F(2), 2) - mpmath.log(F(4, 3).numerator / mpmath.mpf(3)) / 2) < 1e-45
    assert abs(local_renyi(F(2), F(3)) - mpmath.log(mpmath.mpf(11) / 4) / 2) < 1e-45


def test_local_renyi_proved_tight_with_the_hand_f(renyi3):
    assert renyi3.verdict == "proved" and renyi3.tightness == "tight"
    for T in (F(2), F(3), F(5, 4)):
        assert abs(_engine_f(renyi3, T, 2) - local_renyi(T, F(3))) < 1e-40
    assert check_certificate(renyi3.details["certificate"]).ok


def test_local_renyi_against_brute_force():
    rng = random.Random(7)
    for _ in range(150):
        rows = brute.random_rows(rng, rng.randint(2, 4), rng.randint(2, 3))
        T = brute.ldp(rows)
        if T == brute.INF:
            continue
        for alpha in (F(3), F(3, 2)):
            level = max(brute_divergences.renyi_float(x, y, float(alpha)) for x, y in brute._pairs_of(rows, "pairs"))
            assert level <= local_renyi(T, alpha) + 1e-9
    for T in (F(2), F(3)):      # randomized response attains it
        rows = [[T / (T + 1), 1 / (T + 1)]] + [[1 / (T + 1), T / (T + 1)]] * 2
        assert brute.ldp(rows) == T
        assert brute.renyi_level_sum(rows, 3, "pairs") == (T ** 3 + T ** -2) / (T + 1)


@pytest.mark.parametrize("n", [2, 3, 4, 10])
def test_removal_tight_f_is_the_two_point_table(removal, n):
    for T in (F(5, 4), F(2), F(3), F(7)):
        assert abs(_engine_f(removal["renyi2"], T, n) - mpmath.log(_mp(central_renyi2(T, n)))) < 1e-40
        assert abs(_engine_f(removal["kl"], T, n) - central_kl(T, n)) < 1e-40
        rows = attaining(T, n)
        assert brute.dp(rows) <= T
        assert brute.renyi_level_sum(rows, 2, "removal") == central_renyi2(T, n)


def test_removal_against_brute_force():
    rng = random.Random(11)
    checked = 0
    for _ in range(200):
        rows = brute.random_rows(rng, rng.randint(2, 4), rng.randint(2, 3))
        T = brute.dp(rows)
        if T == brute.INF:
            continue
        checked += 1
        if T == 1:      # every record alike: every removal leaves the table's mean
            assert brute.renyi_level_sum(rows, 2, "removal") == 1
            continue
        assert brute.renyi_level_sum(rows, 2, "removal") <= central_renyi2(T, len(rows))
        assert brute.kl_level_float(rows, "removal") <= central_kl(T, len(rows)) + 1e-9
    assert checked > 50


@pytest.mark.slow
def test_removal_certificates_check(removal):
    for r in removal.values():
        assert r.verdict == "proved" and r.tightness == "tight"
        certs = r.details["certificates"]
        assert len(certs) == 3 and all(check_certificate(c).ok for c in certs)


def _piece(r, text):
    return next(c for c in r.details["certificates"] if text in c["domain"])


@pytest.mark.slow
def test_forged_removal_certificates_rejected(removal):
    two = _piece(removal["kl"], "N <= 2")
    bad = copy.deepcopy(two)
    bad["domain"].remove("N <= 2")              # the interval 2 - 1/T is only for N = 2
    assert not check_certificate(bad).ok
    bad = copy.deepcopy(two)                     # one direction only: not the larger chord
    bad["upper"] = "-(-log(T) + log(2 - 1/T))/4"
    assert not check_certificate(bad).ok
    bad = copy.deepcopy(_piece(removal["renyi2"], "(N >= 3) & (T >= N/(N - 1))"))
    bad["upper_certificate"]["hi"] = "N/(N - 2)"      # not an interval the lemma proves
    assert not check_certificate(bad).ok
    bad = copy.deepcopy(_piece(removal["renyi2"], "(N >= 3) & (T >= N/(N - 1))"))
    bad["upper"] = "log((N + T - 1)/N)"               # the smaller chord alone
    assert not check_certificate(bad).ok


def test_forged_order_rejected(renyi3):
    bad = copy.deepcopy(renyi3.details["certificate"])
    bad["B"]["params"] = {"alpha": "2"}
    assert not check_certificate(bad).ok


# -- Renyi of a stated order >= 2 between records => (eps, delta): the order-2 program through D_alpha >= D_2 --------

def chi2_program(c, d):
    """e^eps of the order-2 program at chi^2 level c (the binary-program page's three pieces); c, d mpmath numbers."""
    if c <= 4 * d ** 2 / (1 - d ** 2):
        return mpmath.mpf(1)
    if c <= 4 * d ** 2 / (1 - 2 * d):
        m = mpmath.sqrt(c / (4 + c)) / 2
        return (mpmath.mpf(1) / 2 + m - d) / (mpmath.mpf(1) / 2 - m)
    return 1 - d + c / (4 * d)


@pytest.fixture(scope="module")
def renyi3_slack():
    return check_implication("renyi-ldp", "eps-delta-ldp", a_params={"alpha": sympy.Integer(3)},
                             b_params={"delta": sympy.Rational(1, 10)}, max_n=3)


def test_renyi3_to_slack_is_an_upper_bound(renyi3_slack):
    r = renyi3_slack
    assert r.verdict == "proved" and r.tight is None          # an upper bound, tightness not derived
    f = sympy.sympify(r.details["proved_f"], locals={"d": sympy.Symbol("d")})
    # at level d = log(11/10): chi^2 <= e^(D_2) - 1 <= e^(D_3) - 1 = 1/10, the top piece 1 - 1/10 + 1/4 = 23/20
    value = sympy.N(f.subs(sympy.Symbol("d"), sympy.log(sympy.Rational(11, 10))), 50)
    assert abs(mpmath.mpf(str(value)) - mpmath.log(mpmath.mpf(23) / 20)) < 1e-40
    assert check_certificate(r.details["certificate"]).ok
    bad = copy.deepcopy(r.details["certificate"])
    bad["A"]["params"] = {"alpha": "3/2"}          # below order 2: D_2 is not at most D_alpha
    assert not check_certificate(bad).ok


def test_renyi3_to_slack_against_brute_force():
    """Every table's (eps, 1/10) level is at most the program at c = e^(D_3) - 1 (D_3 = log(sum x^3/y^2)/2)."""
    rng = random.Random(5)
    checked = 0
    d = F(1, 10)
    for _ in range(300):
        rows = brute.random_rows(rng, rng.randint(2, 3), rng.randint(2, 3), high=8)
        s3 = brute.renyi_level_sum(rows, 3, "pairs")
        if s3 is None:
            continue
        checked += 1
        level = brute.eps_delta_ldp(rows, d)
        assert level != brute.INF
        assert _mp(F(level)) <= chi2_program(mpmath.sqrt(_mp(s3)) - 1, _mp(d)) + 1e-40
    assert checked > 50


# -- orders read from parameters: the hockey-stick below TV, Renyi monotone in its order --------------------------

def test_tv_to_hockey_stick_tight():
    r = check_implication("tv-ldp", "delta-ldp", b_params={"eps": sympy.log(2)}, max_n=3)
    assert r.verdict == "proved" and r.tightness == "tight" and str(r.tight) == "delta"      # E_2 <= TV: f = t
    cert = r.details["certificate"]
    assert check_certificate(cert).ok
    bad = copy.deepcopy(cert)
    bad["A"] = dict(bad["A"], definition="kl-ldp")       # KL does not bound the hockey-stick by its own level
    assert not check_certificate(bad).ok
    bad = copy.deepcopy(cert)
    bad["tightness"]["rows"][1]["value"] = "1/2"         # not the attaining family
    assert not check_certificate(bad).ok
    rng = random.Random(3)
    for _ in range(100):
        rows = brute.random_rows(rng, rng.randint(2, 3), rng.randint(2, 3))
        tv = brute_divergences.level_over(brute_divergences.event_gap, rows, "pairs")
        assert brute_divergences.level_over(lambda x, y: brute_divergences.event_gap(x, y, 2), rows, "pairs") <= tv
    t = F(1, 3)                                          # attained: (t, 1 - t), (0, 1): E_2 = t = TV both ways
    rows = [[t, 1 - t], [F(0), F(1)]]
    assert brute_divergences.level_over(lambda x, y: brute_divergences.event_gap(x, y, 2), rows, "pairs") == t
    assert brute_divergences.level_over(brute_divergences.event_gap, rows, "pairs") == t


def test_renyi_order_from_parameters():
    r = check_implication("renyi-ldp", "renyi-ldp", a_params={"alpha": sympy.Integer(3)},
                          b_params={"alpha": sympy.Integer(2)}, max_n=3)
    assert r.verdict == "proved" and r.details["proved_f"] == "d"
    assert check_certificate(r.details["certificate"]).ok
    bad = copy.deepcopy(r.details["certificate"])
    bad["A"]["params"], bad["B"]["params"] = {"alpha": "2"}, {"alpha": "3"}     # D_3 <= D_2 is false
    assert not check_certificate(bad).ok
    rng = random.Random(9)
    for _ in range(100):         # D_2 <= D_3: (sum x^2/y)^2 <= sum x^3/y^2, exactly
        rows = brute.random_rows(rng, rng.randint(2, 3), rng.randint(2, 3))
        s2, s3 = brute.renyi_level_sum(rows, 2, "pairs"), brute.renyi_level_sum(rows, 3, "pairs")
        assert s2 is None or s2 ** 2 <= s3


def test_pure_to_hockey_stick_tight():
    """ldp => delta-ldp(eps' = log 2): max(0, T - 2)/(T + 1), randomized response; at T = 3, 1/4."""
    r = check_implication("ldp", "delta-ldp", b_params={"eps": sympy.log(2)}, max_n=3)
    assert r.verdict == "proved" and r.tightness == "tight"
    assert abs(_engine_f(r, F(3), 2) - mpmath.mpf(1) / 4) < 1e-40
    assert check_certificate(r.details["certificate"]).ok
    T = F(3)
    rows = [[T / (T + 1), 1 / (T + 1)], [1 / (T + 1), T / (T + 1)]]
    assert brute_divergences.level_over(lambda x, y: brute_divergences.event_gap(x, y, 2), rows, "pairs") == F(1, 4)
    rng = random.Random(13)
    for _ in range(100):
        rows = brute.random_rows(rng, rng.randint(2, 3), rng.randint(2, 3))
        T = brute.ldp(rows)
        if T != brute.INF:
            assert brute_divergences.level_over(lambda x, y: brute_divergences.event_gap(x, y, 2), rows, "pairs") <= max(0, T - 2) / (T + 1)


def test_removal_at_order_oo_is_the_pure_level():
    """renyi-dp(alpha = oo) is dp's own level (the largest log ratio, both ways): f = eps."""
    r = check_implication("dp", "renyi-dp", b_params={"alpha": sympy.oo}, max_n=3)
    assert r.verdict == "proved" and str(r.tight) == "eps"
    assert check_certificate(r.details["certificate"]).ok
