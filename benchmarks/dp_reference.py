"""The reference side of ``bench_dp_libraries.py``: divergences of two distributions, the closed-form conversions
derived by hand in docs/sections/dp-conversions.md, and the numerical tight f of a divergence level => (eps, delta)
(floats: a benchmark, never a verdict). The model is in ``bench_dp_libraries.py``'s docstring. It holds:

- the closed forms derived by hand in the docs page (pure eps => Renyi, KL, zCDP, TV, (eps', delta); (eps, delta)
  => TV), local and central;
- the tight f of a divergence level => (eps, delta), by the binary reduction the docs page proves: merging the
  buckets of the worst event and of its complement keeps every Renyi divergence from rising (data processing),
  so two buckets suffice; in the central form the N - 1 records other than the removed one may be taken equal
  (Jensen), so a table is two numbers (a, c) for every N. The supremum is then a two-variable problem over a
  convex set, solved by bisection and golden-section search.
"""

from __future__ import annotations

import math

import numpy as np

INF = math.inf
# -------------------------------------------------------------------------------------------------------------
# divergences of two distributions (lists of floats), in nats
# -------------------------------------------------------------------------------------------------------------


def _logsumexp(values):
    m = max(values)
    if m == -INF:
        return -INF
    return m + math.log(math.fsum(math.exp(v - m) for v in values))


def renyi(x, y, alpha):
    """D_alpha(x || y) for alpha > 1 (``math.inf``: the max log ratio); inf where x > 0 = y somewhere."""
    if any(xi > 0 and yi <= 0 for xi, yi in zip(x, y)):
        return INF
    pairs = [(xi, yi) for xi, yi in zip(x, y) if xi > 0]
    if alpha == INF:
        return max(0.0, max(math.log(xi / yi) for xi, yi in pairs))
    s = _logsumexp([alpha * math.log(xi) + (1 - alpha) * math.log(yi) for xi, yi in pairs])
    return max(0.0, s / (alpha - 1))


def kl(x, y):
    """D_KL(x || y) (the Renyi divergence of order 1)."""
    if any(xi > 0 and yi <= 0 for xi, yi in zip(x, y)):
        return INF
    return max(0.0, math.fsum(xi * math.log(xi / yi) for xi, yi in zip(x, y) if xi > 0))


def tv(x, y):
    return 0.5 * math.fsum(abs(xi - yi) for xi, yi in zip(x, y))


#: the orders of the zCDP supremum: alpha - 1 from 1e-6 to 1e5 (the limit alpha -> 1, KL, is added apart)
_ALPHA_GRID = 1 + np.logspace(-6, 5, 111)


def _ratio_curve(x, y, alphas):
    """D_alpha(x || y) / alpha on an array of orders (x > 0 only where y > 0)."""
    lx = np.array([math.log(v) for v in x if v > 0])
    ly = np.array([math.log(w) for v, w in zip(x, y) if v > 0])
    m = np.outer(alphas, lx) + np.outer(1 - alphas, ly)
    top = m.max(axis=1)
    s = top + np.log(np.exp(m - top[:, None]).sum(axis=1))
    return np.maximum(s, 0) / ((alphas - 1) * alphas)


def zcdp_level(x, y, cap=None):
    """sup_{alpha > 1} D_alpha(x || y) / alpha: the grid's best order refined by golden section in log(alpha - 1);
    KL is the limit alpha -> 1 (a float estimate from below, within the refinement's tolerance)."""
    if any(xi > 0 and yi <= 0 for xi, yi in zip(x, y)):
        return INF
    curve = _ratio_curve(x, y, _ALPHA_GRID)
    k = int(np.argmax(curve))
    best = max(float(curve[k]), kl(x, y))
    if cap is not None and best > cap:
        return best                                  # already above the level asked about: no refinement
    lo = math.log(_ALPHA_GRID[max(k - 1, 0)] - 1)
    hi = math.log(_ALPHA_GRID[min(k + 1, len(_ALPHA_GRID) - 1)] - 1)
    for _ in range(4):                               # zoom in: 4 grids of 25 orders between the neighbours
        ts = np.linspace(lo, hi, 25)
        curve = _ratio_curve(x, y, 1 + np.exp(ts))
        k = int(np.argmax(curve))
        best = max(best, float(curve[k]))
        lo, hi = ts[max(k - 1, 0)], ts[min(k + 1, 24)]
    return best


def divergence(kind, alpha=None):
    """The pair divergence of a source definition: ``renyi`` (order alpha), ``kl``, ``zcdp``, ``tv``; each takes
    an optional ``cap`` (a value above it may be returned unrefined: only ``<= cap`` is asked)."""
    if kind == "renyi":
        return lambda x, y, cap=None: renyi(x, y, alpha)
    if kind == "zcdp":
        return zcdp_level
    f = {"kl": kl, "tv": tv}[kind]
    return lambda x, y, cap=None: f(x, y)


# -------------------------------------------------------------------------------------------------------------
# closed forms derived by hand (docs/sections/dp-conversions.md); T = e^eps
# -------------------------------------------------------------------------------------------------------------


def _log_cosh(t):
    t = abs(t)
    return t + math.log1p(math.exp(-2 * t)) - math.log(2)


def pure_to_renyi_local(eps, alpha):
    """(1/(alpha - 1)) log((T^alpha + T^(1 - alpha))/(T + 1)) = (log cosh((alpha - 1/2) eps) - log cosh(eps/2))/(alpha - 1)."""
    if alpha == INF:
        return eps
    if alpha == 1:
        return pure_to_kl_local(eps)
    return (_log_cosh((alpha - 0.5) * eps) - _log_cosh(eps / 2)) / (alpha - 1)


def pure_to_kl_local(eps):
    """eps tanh(eps/2); also the tight zCDP level (the supremum over alpha is the limit alpha -> 1)."""
    return eps * math.tanh(eps / 2)


pure_to_zcdp_local = pure_to_kl_local


def pure_to_tv_local(eps):
    return math.tanh(eps / 2)


def pure_to_approx_local(eps, delta):
    """e^eps' = max(1, (1 - delta) e^eps - delta) (the engine's slack-target-pairs)."""
    v = (1 - delta) * math.exp(eps) - delta
    return math.log(v) if v > 1 else 0.0


def approx_to_tv_local(eps, delta):
    return min(1.0, (math.exp(eps) - 1 + 2 * delta) / (math.exp(eps) + 1))


def tv_to_approx(t, delta, N=None):
    """0 where t <= delta, else no finite eps (central: every table has eps = 0 once delta >= 1/N)."""
    if N is not None and delta >= 1 / N:
        return 0.0
    return 0.0 if t <= delta else INF


def central_ratio_range(eps, N):
    """[v, u]: the ratios s = x_i / P a removed record may have in a bucket (docs: 'the central form')."""
    T = math.exp(eps)
    u = N - (N - 1) / T
    v = 1 / T if N == 2 else max(0.0, N - (N - 1) * T)
    return v, u


def central_two_point(eps, N):
    """The attaining table's removal pair as (weights, Q/P ratios): P-mass w on s = u, 1 - w on s = v."""
    v, u = central_ratio_range(eps, N)
    if u <= v:
        return (1.0,), (1.0,)
    w = (1 - v) / (u - v)
    return (w, 1 - w), ((N - u) / (N - 1), (N - v) / (N - 1))


def _two_point_renyi(weights, q, alpha):
    """max(D_alpha(Q || P), D_alpha(P || Q)) with Q/P = q on P-masses ``weights``."""
    out = 0.0
    for power in (alpha, 1 - alpha):
        s = _logsumexp([math.log(w) + power * math.log(r) for w, r in zip(weights, q) if w > 0])
        out = max(out, s / (alpha - 1))
    return out


def pure_to_renyi_central(eps, alpha, N):
    weights, q = central_two_point(eps, N)
    return _two_point_renyi(weights, q, alpha)


def pure_to_kl_central(eps, N):
    weights, q = central_two_point(eps, N)
    qp = math.fsum(w * r * math.log(r) for w, r in zip(weights, q))     # KL(Q || P)
    pq = -math.fsum(w * math.log(r) for w, r in zip(weights, q))        # KL(P || Q)
    return max(qp, pq)


def pure_to_tv_central(eps, N):
    v, u = central_ratio_range(eps, N)
    return 0.0 if u <= v else (u - 1) * (1 - v) / ((N - 1) * (u - v))


def pure_to_zcdp_central(eps, N):
    """sup over alpha of the two-point table's Renyi level / alpha (one table attains every order)."""
    weights, q = central_two_point(eps, N)
    P = list(weights)
    Q = [w * r for w, r in zip(weights, q)]
    return max(zcdp_level(P, Q), zcdp_level(Q, P))


# -------------------------------------------------------------------------------------------------------------
# the tight f of a divergence level => (eps, delta), by the binary reduction
# -------------------------------------------------------------------------------------------------------------

_GOLD = (math.sqrt(5) - 1) / 2


def _bisect_up(ok, lo, hi, iters=42):
    """The largest point of [lo, hi] where ``ok`` holds, given ok(lo) and a sublevel interval."""
    if ok(hi):
        return hi
    for _ in range(iters):
        mid = math.sqrt(lo * hi) if lo > 0 else 0.5 * (lo + hi)
        if mid in (lo, hi):
            mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if ok(mid) else (lo, mid)
    return lo


def _golden_max(f, lo, hi, iters=48):
    c, d = hi - _GOLD * (hi - lo), lo + _GOLD * (hi - lo)
    fc, fd = f(c), f(d)
    for _ in range(iters):
        if fc >= fd:
            hi, d, fd = d, c, fc
            c = hi - _GOLD * (hi - lo)
            fc = f(c)
        else:
            lo, c, fc = c, d, fd
            d = lo + _GOLD * (hi - lo)
            fd = f(d)
    return (c, fc) if fc >= fd else (d, fd)


def _maximise_1d(f, grid):
    """The best of ``grid`` refined by golden section between its neighbours (f quasi-concave or nearly)."""
    vals = [f(t) for t in grid]
    k = max(range(len(grid)), key=vals.__getitem__)
    lo, hi = grid[max(k - 1, 0)], grid[min(k + 1, len(grid) - 1)]
    t, v = _golden_max(f, lo, hi)
    return (t, v) if v >= vals[k] else (grid[k], vals[k])


def local_tight_eps(div, level, delta, one_sided=False):
    """The tight eps of (eps, delta)-LDP on tables whose local D-level is <= ``level``, and its binary pair.

    sup over binary x = (a, 1 - a), y = (b, 1 - b), a >= b, with D(x || y) <= level (and D(y || x) <= level
    unless ``one_sided``) of (a - delta)/b; eps = log of max(1, that). The feasible set is convex (Renyi's
    exp((alpha - 1) D) is an f-divergence, jointly convex), so a_max(b) is concave and (a_max(b) - delta)/b
    quasi-concave in b: one maximum, found on a grid of log b and refined by golden section.
    Returns (eps, (x, y)); eps = inf when a pair with b = 0 < a - delta is feasible.
    """
    def feasible(a, b):
        x, y = (a, 1 - a), (b, 1 - b)
        return div(x, y, level) <= level and (one_sided or div(y, x, level) <= level)

    if feasible(1.0, 0.0) or (delta < 1 and feasible(delta + (1 - delta) / 2, 0.0)):
        return INF, ((1.0, 0.0), (0.0, 1.0))

    def a_max(b):
        return _bisect_up(lambda a: feasible(a, b), b, 1.0)

    def value(logb):
        b = math.exp(logb)
        a = a_max(b)
        return (a - delta) / b if a > delta else 0.0

    grid = list(np.linspace(-60 * math.log(10), -1e-12, 36))
    logb, best = _maximise_1d(value, grid)
    b = math.exp(logb)
    a = a_max(b)
    return (math.log(best) if best > 1 else 0.0), ((a, 1 - a), (b, 1 - b))


def central_pairs(a, c, N):
    """The removal pairs of the table x = (a, 1 - a) and N - 1 records z = (c, 1 - c): (P, Q_1), (P, Q_j)."""
    P = (a + (N - 1) * c) / N
    Qj = (a + (N - 2) * c) / (N - 1)
    return [((P, 1 - P), (c, 1 - c)), ((P, 1 - P), (Qj, 1 - Qj))]


def central_level(div, a, c, N, cap=None):
    out = 0.0
    for u, v in central_pairs(a, c, N):
        out = max(out, div(u, v, cap), div(v, u, cap))
        if cap is not None and out > cap:
            break
    return out


def _event_need(u, v, delta):
    """max over the two events of (u(B) - delta)/v(B) (inf where v(B) = 0 < u(B) - delta)."""
    best = 0.0
    for k in (0, 1):
        if u[k] - delta > 0:
            best = max(best, INF if v[k] <= 0 else (u[k] - delta) / v[k])
    return best


def central_tight_eps(div, level, delta, N):
    """The tight eps of (eps, delta)-DP (record removal) on N-record tables whose central D-level is <= level.

    One record x = (a, 1 - a) and N - 1 records z = (c, 1 - c) are extremal (docs). For each c the feasible a
    form an interval around c (the level is quasi-convex in a); each target is linear-fractional in a, so its
    maximum is at an end. The best c is searched on a grid in logit(c) and refined.
    Returns (eps, (a, c)).
    """
    if delta >= 1 / N:
        return 0.0, (0.5, 0.5)

    def ends(c):
        ok = lambda a: central_level(div, a, c, N, level) <= level       # noqa: E731
        hi = _bisect_up(ok, c, 1.0)
        lo = 1 - _bisect_up(lambda t: ok(1 - t), 1 - c, 1.0)
        return lo, hi

    def value(t):
        c = 1 / (1 + math.exp(-t))
        best, arg = 0.0, c
        for a in ends(c):
            for u, v in central_pairs(a, c, N):
                need = max(_event_need(u, v, delta), _event_need(v, u, delta))
                if need > best:
                    best, arg = need, a
        value.arg[t] = arg
        return best

    value.arg = {}
    grid = list(np.linspace(-32, 32, 49))
    t, best = _maximise_1d(value, grid)
    c = 1 / (1 + math.exp(-t))
    a = value.arg.get(t, c)
    return (math.log(best) if best > 1 else 0.0), (a, c)


# -------------------------------------------------------------------------------------------------------------
# re-checking an attaining table with 50 digits (for a flag)
# -------------------------------------------------------------------------------------------------------------


def recheck_pair(kind, alpha, x, y, level, eps_claim, delta):
    """(A-level of the pair, (eps, delta)-level) with mpmath at 50 digits; is the library's eps_claim beaten?"""
    import mpmath as mp
    with mp.workdps(50):
        return _recheck_pair(mp, kind, alpha, x, y, level, eps_claim, delta)


def _recheck_pair(mp, kind, alpha, x, y, level, eps_claim, delta):
    X, Y = [mp.mpf(v) for v in x], [mp.mpf(v) for v in y]

    def ren(u, w, a):
        return mp.log(mp.fsum(ui ** a * wi ** (1 - a) for ui, wi in zip(u, w) if ui > 0)) / (a - 1)

    if kind == "renyi":
        lvl = max(ren(X, Y, mp.mpf(alpha)), ren(Y, X, mp.mpf(alpha)))
    elif kind == "kl":
        lvl = max(mp.fsum(u * mp.log(u / w) for u, w in zip(X, Y) if u > 0),
                  mp.fsum(w * mp.log(w / u) for u, w in zip(X, Y) if w > 0))
    else:
        # a dense grid of orders (alpha - 1 from 1e-6 to 1e5): a lower estimate of the supremum, so a
        # witness confirmed here may still exceed its level by the grid's gap; the flag says "re-check"
        lvl = max(max(ren(X, Y, a) / a, ren(Y, X, a) / a)
                  for a in [1 + mp.mpf(10) ** (mp.mpf(k) / 40) for k in range(-240, 201)])
    need = max((X[k] - delta) / Y[k] for k in (0, 1) if X[k] > delta)
    return float(lvl), float(mp.log(need)), bool(lvl <= level * (1 + 1e-9) and mp.log(need) > eps_claim)
