"""The reference side of the differential-privacy conversions (docs/sections/dp-conversions.md).

Each hand-derived tight f is checked two ways against tests/brute.py's literal definitions (pure and
(eps, delta) levels, local and central) and a literal divergence written here:

- *valid*: no table of a grid (every multiset of records with small denominators) or of a random sample is
  above f at its own level;
- *attained*: the table the derivation names meets A at the level and has B's level exactly f.

Exact ``Fraction`` arithmetic wherever the quantities are rational (integer Renyi orders: the level compares
``sum x^alpha y^(1 - alpha)``; TV; chi-square; the (eps, delta) need ``e^eps``); mpmath at 40 digits where a
log enters (KL); floats only for the numerical optimiser of benchmarks/bench_dp_libraries.py, which is tested
here against the closed forms and against random tables. Nothing here is imported from implgraph.
"""

from __future__ import annotations

import importlib.util
import itertools
import math
import random
from fractions import Fraction as F
from pathlib import Path

import mpmath as mp
import pytest

import brute

_BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def _load(name):
    spec = importlib.util.spec_from_file_location(name, _BENCHMARKS / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


ref = _load("dp_reference")          # the benchmark's reference side (closed forms and the numerical tight f)
bench = _load("bench_dp_libraries")  # the libraries' side


@pytest.fixture(autouse=True)
def _forty_digits():
    """mpmath at 40 digits inside each test only (the global precision is other modules' too)."""
    with mp.workdps(40):
        yield


# -- literal divergences (exact) -------------------------------------------------------------------------------

def power_sum(x, y, alpha):
    """sum_l x_l^alpha y_l^(1 - alpha) for an integer alpha >= 2 (None: infinite, x > 0 = y somewhere)."""
    total = F(0)
    for xi, yi in zip(x, y):
        if xi == 0:
            continue
        if yi == 0:
            return None
        total += xi ** alpha / yi ** (alpha - 1)
    return total


def tv(x, y):
    return sum((abs(a - b) for a, b in zip(x, y)), F(0)) / 2


def _mp(q):
    """A Fraction as an mpf (mpmath takes no Fraction)."""
    q = F(q)
    return mp.mpf(q.numerator) / q.denominator


def kl_mp(x, y):
    if any(a > 0 and b == 0 for a, b in zip(x, y)):
        return mp.inf
    return mp.fsum(_mp(a) * mp.log(_mp(a) / _mp(b)) for a, b in zip(x, y) if a > 0)


def local_pairs(rows):
    return [(rows[i], rows[j]) for i, j in itertools.permutations(range(len(rows)), 2)]


def central_pairs(rows):
    """(P, Q_i) and (Q_i, P) for every removal i."""
    n, p = len(rows), len(rows[0])
    P = [sum((r[l] for r in rows), F(0)) / n for l in range(p)]
    out = []
    for i in range(n):
        Q = [sum((rows[j][l] for j in range(n) if j != i), F(0)) / (n - 1) for l in range(p)]
        out += [(P, Q), (Q, P)]
    return out


def level(pairs, measure):
    """The max of ``measure`` over the pairs (None: infinite)."""
    best = F(0)
    for x, y in pairs:
        v = measure(x, y)
        if v is None:
            return None
        best = max(best, v)
    return best


def distributions(p, d):
    """Every distribution over p buckets with denominator d."""
    return [tuple(F(c, d) for c in comp) for comp in itertools.product(range(d + 1), repeat=p) if sum(comp) == d]


def tables(N, p, d):
    return [list(rows) for rows in itertools.combinations_with_replacement(distributions(p, d), N)]


GRID = [(2, 2, 8), (2, 3, 5), (3, 2, 6), (3, 3, 3), (4, 2, 4)]


def grid_tables():
    for N, p, d in GRID:
        yield from tables(N, p, d)


# -- hand-derived closed forms, in T = e^eps (docs: "pure eps-DP => ...") -------------------------------------

def rr_power_sum(T, alpha):
    """Local: (T^alpha + T^(1 - alpha))/(T + 1), randomized response's sum."""
    return (T ** alpha + T ** (1 - alpha)) / (T + 1)


def central_two_point(T, N):
    """Central: the removed record's ratio s = x/P lies in [v, u]; P-mass w at u. Returns (w, u, v)."""
    u = N - F(N - 1) / T
    v = 1 / T if N == 2 else max(F(0), N - (N - 1) * T)
    return (1 - v) / (u - v), u, v


def central_power_sum(T, N, alpha):
    """max(H(Q||P), H(P||Q)) of the two-point table, Q/P = (N - s)/(N - 1)."""
    w, u, v = central_two_point(T, N)
    qu, qv = (N - u) / F(N - 1), (N - v) / F(N - 1)
    return max(w * qu ** alpha + (1 - w) * qv ** alpha, w / qu ** (alpha - 1) + (1 - w) / qv ** (alpha - 1))


def central_tv(T, N):
    w, u, v = central_two_point(T, N)
    return w * (u - 1) / (N - 1)


def central_table(T, N):
    """The attaining table: one record x = s P, N - 1 records Q (two buckets)."""
    w, u, v = central_two_point(T, N)
    P = (w, 1 - w)
    x = (u * w, v * (1 - w))
    Q = tuple((N * P[l] - x[l]) / (N - 1) for l in range(2))
    return [list(x)] + [list(Q)] * (N - 1)


RR = lambda T: [[T / (T + 1), 1 / (T + 1)], [1 / (T + 1), T / (T + 1)]]     # noqa: E731
TS = [F(3, 2), F(2), F(3), F(7)]


# -- pure eps => Renyi, TV, KL, zCDP: local --------------------------------------------------------------------

@pytest.mark.parametrize("alpha", [2, 3])
def test_pure_to_renyi_local_valid_on_grid(alpha):
    for rows in grid_tables():
        T = brute.ldp(rows)
        if T == brute.INF:
            continue
        H = level(local_pairs(rows), lambda x, y: power_sum(x, y, alpha))
        assert H <= rr_power_sum(T, alpha), rows


@pytest.mark.parametrize("alpha", [2, 3, 5])
@pytest.mark.parametrize("T", TS)
def test_pure_to_renyi_local_attained(alpha, T):
    rows = RR(T)
    assert brute.ldp(rows) == T
    assert level(local_pairs(rows), lambda x, y: power_sum(x, y, alpha)) == rr_power_sum(T, alpha)
    # N records: one at x, N - 1 at y has the same levels (every pair is (x, y), (y, x) or equal)
    big = [rows[0]] + [rows[1]] * 6
    assert brute.ldp(big) == T
    assert level(local_pairs(big), lambda x, y: power_sum(x, y, alpha)) == rr_power_sum(T, alpha)


def test_pure_to_renyi_local_cosh_form_and_bench():
    """(T^a + T^(1 - a))/(T + 1) = cosh((a - 1/2) eps)/cosh(eps/2); the benchmark's closed form agrees."""
    for eps in (0.1, 1.0, 4.0):
        for a in (1.5, 2.0, 7.0):
            T = math.exp(eps)
            direct = math.log((T ** a + T ** (1 - a)) / (T + 1)) / (a - 1)
            cosh = math.log(math.cosh((a - 0.5) * eps) / math.cosh(eps / 2)) / (a - 1)
            assert direct == pytest.approx(cosh, rel=1e-12)
            assert ref.pure_to_renyi_local(eps, a) == pytest.approx(direct, rel=1e-12)


def test_pure_to_tv_local():
    for rows in grid_tables():
        T = brute.ldp(rows)
        if T != brute.INF:
            assert level(local_pairs(rows), tv) <= (T - 1) / (T + 1)
    for T in TS:
        assert level(local_pairs(RR(T)), tv) == (T - 1) / (T + 1)


def test_pure_to_kl_local():
    for rows in itertools.islice(grid_tables(), 0, None, 3):
        T = brute.ldp(rows)
        if T == brute.INF:
            continue
        f = mp.log(_mp(T)) * (_mp(T) - 1) / (_mp(T) + 1)
        assert max(kl_mp(x, y) for x, y in local_pairs(rows)) <= f + mp.mpf(10) ** -35
    for T in TS:
        f = mp.log(_mp(T)) * (_mp(T) - 1) / (_mp(T) + 1)
        assert abs(max(kl_mp(x, y) for x, y in local_pairs(RR(T))) - f) < mp.mpf(10) ** -35


def test_pure_to_zcdp_local_is_the_kl_limit():
    """The docs' proof: with t = (alpha - 1/2) eps >= s = eps/2, g(t) = log cosh t - log cosh s -
    (t^2 - s^2) tanh(s)/(2 s) <= 0 (g(s) = 0, g' = tanh t - t tanh(s)/s <= 0), i.e. D_alpha(RR)/alpha <
    eps tanh(eps/2) for every alpha > 1, with the limit alpha -> 1 equal to it."""
    for eps in (mp.mpf("0.05"), mp.mpf(1), mp.mpf(3), mp.mpf(8)):
        T = mp.e ** eps
        kl = eps * mp.tanh(eps / 2)
        for a in [1 + mp.mpf(10) ** (k / 4) for k in range(-40, 16)]:
            d = mp.log((T ** a + T ** (1 - a)) / (T + 1)) / (a - 1)
            assert d / a < kl
        near = 1 + mp.mpf(10) ** -20
        d = mp.log((T ** near + T ** (1 - near)) / (T + 1)) / (near - 1)
        assert abs(d / near - kl) < mp.mpf(10) ** -15
    # random pairs at pure level eps: their zCDP level (sup over orders, floats) is at most eps tanh(eps/2)
    rng = random.Random(7)
    for _ in range(300):
        p = rng.choice([2, 3, 4])
        x = [rng.random() + 0.01 for _ in range(p)]
        y = [rng.random() + 0.01 for _ in range(p)]
        x, y = [v / sum(x) for v in x], [v / sum(y) for v in y]
        eps = max(abs(math.log(a / b)) for a, b in zip(x, y))
        assert max(ref.zcdp_level(x, y), ref.zcdp_level(y, x)) <= eps * math.tanh(eps / 2) * (1 + 1e-9)


# -- pure eps => Renyi, TV: central (record removal) ------------------------------------------------------------

CENTRAL_GRID = [(2, 2, 10), (3, 2, 8), (3, 3, 4), (4, 2, 6), (5, 2, 4)]


def central_grid_tables():
    for N, p, d in CENTRAL_GRID:
        yield from tables(N, p, d)


@pytest.mark.parametrize("alpha", [2, 3])
def test_pure_to_renyi_central_valid_on_grid(alpha):
    for rows in central_grid_tables():
        T = brute.dp(rows)
        if T == brute.INF or T == 1:
            continue
        H = level(central_pairs(rows), lambda x, y: power_sum(x, y, alpha))
        assert H <= central_power_sum(T, len(rows), alpha), rows


def test_pure_to_tv_central_valid_on_grid():
    for rows in central_grid_tables():
        T = brute.dp(rows)
        if T == brute.INF or T == 1:
            continue
        assert level(central_pairs(rows), tv) <= central_tv(T, len(rows)), rows


@pytest.mark.parametrize("N", [2, 3, 4, 7, 20])
@pytest.mark.parametrize("T", TS + [F(11, 10), F(50)])
def test_pure_central_attained(N, T):
    rows = central_table(T, N)
    assert all(v >= 0 for r in rows for v in r) and all(sum(r) == 1 for r in rows)
    assert brute.dp(rows) <= T
    assert level(central_pairs(rows), tv) == central_tv(T, N)
    for alpha in (2, 3):
        assert level(central_pairs(rows), lambda x, y: power_sum(x, y, alpha)) == central_power_sum(T, N, alpha)


def test_pure_central_worked_values():
    """By hand: N = 2, T = 2: s in [1/2, 3/2], w = 1/2, TV = 1/4; N >= 3 and T >= N/(N - 1): v = 0 and
    TV = (T - 1)/(N T - N + 1), at most 1/N."""
    assert central_two_point(F(2), 2) == (F(1, 2), F(3, 2), F(1, 2))
    assert central_tv(F(2), 2) == F(1, 4)
    for N in (3, 5, 10):
        for T in (F(2), F(9)):
            assert central_tv(T, N) == (T - 1) / (N * T - N + 1) < F(1, N)
    # the benchmark's float version agrees
    for N in (2, 3, 10):
        for eps in (0.2, 1.0, 3.0):
            T = F(math.exp(eps))
            assert ref.pure_to_tv_central(eps, N) == pytest.approx(float(central_tv(T, N)), rel=1e-9)
            assert ref.pure_to_renyi_central(eps, 2, N) == pytest.approx(
                math.log(float(central_power_sum(T, N, 2))), rel=1e-9)


def test_pure_to_kl_central_attained_and_valid():
    for N in (2, 3, 6):
        for T in TS:
            rows = central_table(T, N)
            f = max(kl_mp(x, y) for x, y in central_pairs(rows))
            assert float(f) == pytest.approx(ref.pure_to_kl_central(math.log(T), N), rel=1e-9)
    for rows in itertools.islice(central_grid_tables(), 0, None, 4):
        T = brute.dp(rows)
        if T == brute.INF or T == 1:
            continue
        w, u, v = central_two_point(T, len(rows))
        f = max(kl_mp(x, y) for x, y in central_pairs(central_table(T, len(rows))))
        assert max(kl_mp(x, y) for x, y in central_pairs(rows)) <= f + mp.mpf(10) ** -30, rows


# -- Renyi of order 2 (chi-square) => (eps, delta): local, closed form ----------------------------------------

def chi2(x, y):
    H = power_sum(x, y, 2)
    return None if H is None else H - 1


def chi2_bound(c, delta):
    """e^eps = max(1, 1 - delta + c/(4 delta)) where c >= 4 delta^2/(1 - 2 delta) (docs)."""
    return max(F(1), 1 - delta + c / (4 * delta))


def chi2_witness(c, delta):
    b = 4 * delta ** 2 / (4 * delta ** 2 + c)
    a = (4 * delta ** 2 + 2 * delta * c) / (4 * delta ** 2 + c)
    return [[a, 1 - a], [b, 1 - b]]


@pytest.mark.parametrize("delta", [F(1, 10), F(1, 20), F(1, 1000)])
@pytest.mark.parametrize("c", [F(1, 10), F(1, 2), F(3), F(40)])
def test_renyi2_to_approx_local_attained(c, delta):
    rows = chi2_witness(c, delta)
    assert level(local_pairs(rows), chi2) == c          # forward chi2 is c, the reverse is smaller
    assert brute.eps_delta_ldp(rows, delta) == chi2_bound(c, delta)


@pytest.mark.parametrize("delta", [F(1, 10), F(1, 5)])
def test_renyi2_to_approx_local_valid_on_grid(delta):
    floor = 4 * delta ** 2 / (1 - 2 * delta)
    checked = 0
    for rows in grid_tables():
        c = level(local_pairs(rows), chi2)
        if c is None or c < floor:
            continue
        assert brute.eps_delta_ldp(rows, delta) <= chi2_bound(c, delta), rows
        checked += 1
    rng = random.Random(11)
    for _ in range(300):                                            # tables without zeros, 3 buckets
        N = rng.choice([2, 3])
        rows = []
        for _ in range(N):
            w = [rng.randint(1, 30) for _ in range(3)]
            rows.append([F(v, sum(w)) for v in w])
        c = level(local_pairs(rows), chi2)
        if c >= floor:
            assert brute.eps_delta_ldp(rows, delta) <= chi2_bound(c, delta), rows
            checked += 1
    assert checked > 200


def test_renyi2_to_approx_bench_optimiser_matches_closed_form():
    for r in (0.1, 0.5, 2.0):
        for delta in (1e-2, 1e-6):
            eps, _ = ref.local_tight_eps(ref.divergence("renyi", 2), r, delta)
            closed = math.log(1 - delta + math.expm1(r) / (4 * delta))
            assert eps == pytest.approx(closed, rel=1e-8)


# -- Renyi of order alpha and zCDP => (eps, delta): the binary optimiser against random tables ------------------

def _eps_delta_ldp_float(rows, delta):
    """max over ordered pairs and events of (x(B) - delta)/y(B), floats (a random table's need)."""
    best = 1.0
    p = len(rows[0])
    for x, y in itertools.permutations(rows, 2):
        for r in range(1, p):
            for B in itertools.combinations(range(p), r):
                a, b = sum(x[l] for l in B), sum(y[l] for l in B)
                if a > delta:
                    best = max(best, math.inf if b == 0 else (a - delta) / b)
    return best


def _random_table(rng, N, p, spread):
    rows = []
    for _ in range(N):
        w = [math.exp(rng.uniform(-spread, spread)) for _ in range(p)]
        rows.append([v / sum(w) for v in w])
    return rows


@pytest.mark.parametrize("alpha,r,delta", [(3, 0.5, 1e-2), (5, 1.0, 1e-3), (1.5, 0.3, 0.05)])
def test_renyi_to_approx_local_optimiser(alpha, r, delta):
    div = ref.divergence("renyi", alpha)
    eps, (x, y) = ref.local_tight_eps(div, r, delta)
    # the optimiser's pair attains it (re-checked literally) ...
    assert max(ref.renyi(x, y, alpha), ref.renyi(y, x, alpha)) <= r * (1 + 1e-9)
    assert math.log(_eps_delta_ldp_float([list(x), list(y)], delta)) == pytest.approx(eps, rel=1e-7)
    # ... and no random table at the level beats it (levels rescaled by mixing toward the uniform row)
    rng = random.Random(alpha)
    for _ in range(150):
        N, p = rng.choice([(2, 2), (2, 3), (3, 3), (3, 4)])
        rows = _random_table(rng, N, p, rng.choice([1, 4, 12]))
        lam = _scale_to_level(rows, lambda u, v: renyi_level(u, v, alpha), r)
        mixed = [[lam * v + (1 - lam) / p for v in row] for row in rows]
        assert math.log(_eps_delta_ldp_float(mixed, delta)) <= eps * (1 + 1e-7) + 1e-12


def renyi_level(u, v, alpha):
    return max(ref.renyi(u, v, alpha), ref.renyi(v, u, alpha))


def _scale_to_level(rows, pair_level, r):
    """The largest lambda in [0, 1] whose mix lambda rows + (1 - lambda) uniform has a level <= r."""
    p = len(rows[0])

    def lvl(lam):
        m = [[lam * v + (1 - lam) / p for v in row] for row in rows]
        return max(pair_level(u, v) for u, v in itertools.permutations(m, 2))

    if lvl(1.0) <= r:
        return 1.0
    lo, hi = 0.0, 1.0
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if lvl(mid) <= r else (lo, mid)
    return lo


@pytest.mark.parametrize("alpha,r", [(2, 0.045), (10, 0.5)])
def test_renyi_one_sided_can_exceed_two_sided(alpha, r):
    """The model's Renyi level bounds both directions; the optimal one-directional conversion (what a library
    proves from D(P||Q) <= r alone) is larger where the reverse constraint binds (here delta = 1/10: the
    two-sided optimum is the symmetric pair (a, 1 - a), (1 - a, a); the one-sided one puts x at (1, 0))."""
    div = ref.divergence("renyi", alpha)
    two, (x, y) = ref.local_tight_eps(div, r, 0.1)
    one, (x1, _) = ref.local_tight_eps(div, r, 0.1, one_sided=True)
    assert one > two * (1 + 1e-3)
    assert x[0] == pytest.approx(y[1], rel=1e-6)
    if alpha == 10:
        assert x1[0] == pytest.approx(1, abs=1e-5)
        assert one == pytest.approx(math.log(0.9 * math.exp(r)), rel=1e-6)    # (1 - delta) e^r: x = (1, 0)


def gaussian_threshold_eps(rho, delta):
    """A lower bound on the tight zCDP => (eps, delta): N(mu, 1) against N(0, 1), mu^2/2 = rho, cut at a
    threshold (data processing keeps the pair rho-zCDP both ways); the best threshold's need."""
    mu = math.sqrt(2 * rho)
    Q = lambda t: 0.5 * math.erfc(t / math.sqrt(2))                # noqa: E731
    def need(t):
        a, b = Q(t - mu), Q(t)
        return (a - delta) / b if a > delta and b > 0 else 1.0

    _, best = ref._maximise_1d(need, [k / 10 for k in range(-40, 161)])
    return math.log(max(1.0, best))


@pytest.mark.slow
@pytest.mark.parametrize("rho,delta", [(0.1, 1e-6), (1.0, 1e-3), (0.01, 1e-9)])
def test_zcdp_to_approx_local_sandwich(rho, delta):
    """Gaussian (cut in two) <= tight <= CKS 2020's bound, and the optimiser's pair re-checks."""
    eps, (x, y) = ref.local_tight_eps(ref.divergence("zcdp"), rho, delta)
    assert gaussian_threshold_eps(rho, delta) <= eps * (1 + 1e-9)
    assert eps <= bench.cks_zcdp(rho, delta) * (1 + 1e-9)
    assert max(ref.zcdp_level(x, y), ref.zcdp_level(y, x)) <= rho * (1 + 1e-7)


# -- (eps, delta) => total variation: local ------------------------------------------------------------------

@pytest.mark.parametrize("delta", [F(0), F(1, 10), F(1, 3)])
def test_approx_to_tv_local(delta):
    """TV <= min(1, (T - 1 + 2 delta)/(T + 1)); attained by (a, 1 - a), (1 - a, a), a = (T + delta)/(T + 1)."""
    for rows in itertools.islice(grid_tables(), 0, None, 3):
        T = brute.eps_delta_ldp(rows, delta)
        if T != brute.INF:
            assert level(local_pairs(rows), tv) <= min(F(1), (T - 1 + 2 * delta) / (T + 1)), rows
    for T in TS:
        a = (T + delta) / (T + 1)
        if a > 1:
            continue
        rows = [[a, 1 - a], [1 - a, a]]
        assert brute.eps_delta_ldp(rows, delta) <= T
        assert level(local_pairs(rows), tv) == (T - 1 + 2 * delta) / (T + 1)


# -- KL and zCDP => total variation: local (the sharp Jeffreys bound) ----------------------------------------

def jeffreys_floor(t):
    """g(t) = t log((1 + t)/(1 - t)) = 2 t artanh(t): the KL, each way, of the symmetric pair ((1 + t)/2, (1 - t)/2)
    and its mirror; the docs' proof: KL(x || y) + KL(y || x) >= 2 g(TV(x, y)) for every pair."""
    t = _mp(t)
    return t * mp.log((1 + t) / (1 - t))


def test_kl_to_tv_local_valid_on_grid():
    """No grid table has g(TV level) above its KL level (both local: the largest over ordered pairs), so
    TV <= g^-1(d); Pinsker's sqrt(d/2) is never below it."""
    checked = 0
    for rows in grid_tables():
        t = max(tv(x, y) for x, y in local_pairs(rows))
        d = max(kl_mp(x, y) for x, y in local_pairs(rows))
        if t == 0 or d == mp.inf:
            continue
        checked += 1
        assert jeffreys_floor(t) <= d * (1 + mp.mpf(10) ** -30)
        assert _mp(t) <= mp.sqrt(d / 2)
    assert checked > 100      # (most grid tables hold a zero against a positive value: KL infinite)


def test_kl_to_tv_local_valid_on_random_pairs():
    """Random pairs of 2 to 5 buckets, far from symmetric: the sum of both KLs is at least 2 g(TV)."""
    rng = random.Random(11)
    for _ in range(400):
        p = rng.choice([2, 3, 4, 5])
        x = [F(rng.randint(1, 60)) for _ in range(p)]
        y = [F(rng.randint(1, 60)) for _ in range(p)]
        x, y = [v / sum(x) for v in x], [v / sum(y) for v in y]
        t = tv(x, y)
        if t > 0:
            assert 2 * jeffreys_floor(t) <= (kl_mp(x, y) + kl_mp(y, x)) * (1 + mp.mpf(10) ** -30)


@pytest.mark.parametrize("t", [F(1, 10), F(3, 5), F(19, 20)])
def test_kl_and_zcdp_to_tv_local_attained(t):
    """One record at ((1 + t)/2, (1 - t)/2) and one at its mirror: KL level g(t) both ways (by hand at t = 3/5:
    (3/5) log 4), total variation t; its zCDP level is the same g(t) (randomized response's level is its KL, the
    pure => zCDP test above), so g^-1 is attained by both sources."""
    rows = [((1 + t) / 2, (1 - t) / 2), ((1 - t) / 2, (1 + t) / 2)]
    assert max(tv(x, y) for x, y in local_pairs(rows)) == t
    d = max(kl_mp(x, y) for x, y in local_pairs(rows))
    assert abs(d - jeffreys_floor(t)) < mp.mpf(10) ** -35
    if t == F(3, 5):
        assert abs(d - F(3, 5) * mp.log(4)) < mp.mpf(10) ** -35
    z = max(brute.zcdp_mp(x, y) for x, y in local_pairs(rows))
    assert abs(z - d) < mp.mpf(10) ** -12


# -- total variation => (eps, delta) ------------------------------------------------------------------------

@pytest.mark.parametrize("delta", [F(1, 10), F(1, 4)])
def test_tv_to_approx_local(delta):
    for rows in grid_tables():
        if level(local_pairs(rows), tv) <= delta:
            assert brute.eps_delta_ldp(rows, delta) == 1          # eps = 0
    for t in (delta + F(1, 100), F(1, 2), F(1)):
        rows = [[t, 1 - t], [F(0), F(1)]]
        assert level(local_pairs(rows), tv) == t
        assert brute.eps_delta_ldp(rows, delta) == brute.INF


@pytest.mark.parametrize("N", [2, 3, 4])
def test_tv_to_approx_central(N):
    """Central TV is at most 1/N; delta >= 1/N makes every table (0, delta)-DP; t in (delta, 1/N] has a witness."""
    for rows in tables(N, 2, 6):
        t = level(central_pairs(rows), tv)
        assert t <= F(1, N)
        assert brute.eps_delta_dp(rows, F(1, N)) == 1
        if t <= F(1, 10):
            assert brute.eps_delta_dp(rows, F(1, 10)) == 1
    delta = F(1, 10)
    for t in (F(1, 8), F(1, N)):
        if t <= delta:
            continue
        rows = [[N * t, 1 - N * t]] + [[F(0), F(1)]] * (N - 1)
        assert level(central_pairs(rows), tv) == t
        assert brute.eps_delta_dp(rows, delta) == brute.INF


# -- the reverse directions: non-implications ---------------------------------------------------------------

@pytest.mark.parametrize("delta", [F(1, 10), F(1, 1000)])
def test_approx_and_tv_do_not_imply_divergences(delta):
    """(delta, 1 - delta) beside (0, 1): (0, delta)-LDP and TV = delta, but every Renyi order, KL, zCDP and pure
    eps are infinite (the first record has mass where the second has none)."""
    rows = [[delta, 1 - delta], [F(0), F(1)]]
    assert brute.eps_delta_ldp(rows, delta) == 1 and level(local_pairs(rows), tv) == delta
    assert brute.ldp(rows) == brute.INF
    assert level(local_pairs(rows), lambda x, y: power_sum(x, y, 2)) is None
    assert kl_mp(rows[0], rows[1]) == mp.inf
    central = [[2 * delta, 1 - 2 * delta], [F(0), F(1)]]        # N = 2: P = (delta, ...) against Q_1 = (0, 1)
    assert brute.eps_delta_dp(central, delta) == 1 and brute.dp(central) == brute.INF


def test_renyi_does_not_imply_pure():
    """x = (K b, 1 - K b), y = (b, 1 - b) with b = c/((K - 1)^2 + c): chi-square level c for every K (the
    reverse is smaller), Renyi-2 level log(1 + c), pure level >= log K: unbounded, never infinite."""
    c = F(1, 2)
    for K in (F(10), F(100), F(10 ** 4)):
        b = c / ((K - 1) ** 2 + c)
        rows = [[K * b, 1 - K * b], [b, 1 - b]]
        assert level(local_pairs(rows), chi2) == c
        assert brute.ldp(rows) >= K


def test_renyi_does_not_imply_higher_order():
    """The same shape with K = m^2 and b = K^(-5/2) = m^-5: chi-square ~ K^(-1/2) -> 0 while the order-3 sum
    ~ 1 + K^(1/2) grows: a Renyi level of one order bounds no higher order."""
    for m in (10, 30, 100):
        K, b = F(m * m), F(1, m ** 5)
        rows = [[K * b, 1 - K * b], [b, 1 - b]]
        assert level(local_pairs(rows), chi2) < F(2, m)
        assert level(local_pairs(rows), lambda x, y: power_sum(x, y, 3)) > 1 + F(m, 2)


def test_kl_and_zcdp_do_not_imply_pure():
    """Families with a bounded KL level (and a bounded zCDP level) and a pure level log K -> oo."""
    for K in (10, 100, 1000, 10 ** 5):
        b = F(1, 2) / (K * max(1, round(math.log(K))))              # K b log K ~ 1/2
        rows = [[K * b, 1 - K * b], [b, 1 - b]]
        assert brute.ldp(rows) >= K
        assert max(kl_mp(x, y) for x, y in local_pairs(rows)) < 1
    for K in (10.0, 1e3, 1e6):
        b = math.exp(-math.log(K) ** 2)                              # a Gaussian-like tail
        x, y = (K * b, 1 - K * b), (b, 1 - b)
        assert max(ref.zcdp_level(x, y), ref.zcdp_level(y, x)) < 0.5          # pure level log K


# -- the central form: how N enters ---------------------------------------------------------------------------

def test_central_equals_local_until_delta_meets_one_over_n():
    """Renyi-2 => (eps, delta) at delta = 1e-3: the local optimum needs x(B) ~ 2 delta, which a removed record
    can carry while 2 delta <= 1/N, so central = local there; at delta >= 1/N every table is (0, delta)-DP."""
    div = ref.divergence("renyi", 2)
    local, _ = ref.local_tight_eps(div, 0.5, 1e-3)
    for N in (2, 10, 100):
        central, _ = ref.central_tight_eps(div, 0.5, 1e-3, N)
        assert central == pytest.approx(local, rel=1e-7)
    assert ref.central_tight_eps(div, 0.5, 1e-3, 1000)[0] == 0.0


# -- the libraries (skipped when not installed): never below a witness of the tight f ---------------------------

def test_libraries_never_below_the_tight_f():
    pytest.importorskip("dp_accounting")
    pytest.importorskip("autodp")
    pytest.importorskip("opendp")
    libs = bench.Libraries()
    for eps in (0.1, 1.0, 4.0):
        for a in (2, 10):
            assert libs.autodp_pure_rdp(eps, a) >= ref.pure_to_renyi_local(eps, a) * (1 - 1e-9)
        assert libs.opendp_pure_zcdp(eps) >= ref.pure_to_zcdp_local(eps)
        for delta in (1e-3, 1e-8):
            assert libs.autodp_pure_approx(eps, delta) >= ref.pure_to_approx_local(eps, delta) - 1e-12
            assert libs.dpa_pure_approx(eps, delta) >= ref.pure_to_approx_local(eps, delta) - 1e-12
    for r in (0.1, 1.0):
        for delta in (1e-3, 1e-8):
            closed = math.log(1 - delta + math.expm1(r) / (4 * delta))
            assert libs.dpa_rdp(2, r, delta) >= closed
            assert libs.autodp_rdp(2, r, delta) >= closed
    for rho in (0.1, 1.0):
        for delta in (1e-3, 1e-8):
            g = gaussian_threshold_eps(rho, delta)
            for v in (libs.dpa_zcdp(rho, delta), libs.autodp_zcdp(rho, delta), libs.opendp_zcdp(rho, delta)):
                assert v >= g
