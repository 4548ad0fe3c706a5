"""Reference check (not the engine): the tight f of a two-sided subset level against KL and Renyi-2 closeness,
derived by hand in docs/proofs/subset-closeness-chord.md; prints figures, asserts nothing.

A in {kt-closeness(k=2), kdp(k=2)} (raw level T), B in {kl-closeness, renyi-closeness(alpha=2)} over ANY partition.
Claim: f(T, N) = chord of phi over the single-record ratio interval [lo, hi] (phi(r) = r log r for KL; for Renyi-2
log(hi + lo - hi*lo)), with [lo, hi] given in closed form below, attained by a two-bucket table.

Parts (run: python benchmarks/subset_closeness_reference.py [--quick]; about 15 s quick, minutes in full):
  A. the generic min/max closed form of [lo, hi] equals the piecewise form of the report (exact, Fractions);
     f is nondecreasing in T; the subset-size-j generalisation covers both kt(2) (j = 2) and kdp(2) (j = N - 2).
  B. exact per-bucket LPs (own Fraction simplex, each optimum certified by an exactly checked dual): min / max of a_1 = x_1(l)/P_l subject to the bucket's
     constraints equal the closed-form lo / hi; the LP optimum points are re-checked feasible with Fractions.
  C. the attaining two-bucket family: built with Fractions, its A level recomputed exactly (<= T), its singleton
     divergence equals f.
  D. exact full-table LPs with 2 buckets (no symmetry assumption): for P_1 = p on a grid (plus the predicted
     optimum L), min and max of x_1(1) over ALL tables with mean P and A level <= T; both endpoints evaluated
     (KL and D_2 are convex in x_1, so the max over the segment is at an endpoint). max over p <= f, and = f at p = L.
  E. random tables (K = 2..4, N = 3..7, Dirichlet rows of several concentrations and outlier-shaped tables):
     max over ALL nonempty subsets E (every partition's class) of D(mean_E || P) versus f(T_A(table), N).
     Then a hill climb at fixed T maximising the worst singleton divergence with K = 3 (falsification only: a
     local search, it stays below f but does not reliably reach it).
  F. exact LPs with 3 buckets: support points of the feasible region of x_1 (given P) in 17 directions; the best
     divergence at those points stays <= f and reaches f at P = (L, (1 - L)/2, (1 - L)/2).
"""

from __future__ import annotations

import itertools
import math
import random
import sys
import time
from fractions import Fraction as Fr

import numpy as np

QUICK = "--quick" in sys.argv


# ----------------------------------------------------------------------------------------------------------------
# closed forms
# ----------------------------------------------------------------------------------------------------------------

def interval_j(N, T, j):
    """Single-record ratio interval [lo, hi] for a two-sided subset level of size j (1 <= j <= N - 1):
    every j-subset's mean within [1/T, T] of the table, bucket by bucket. kt(k=2): j = 2; kdp(k=2): j = N - 2."""
    T = Fr(T)
    hi = min(N - (N - 1) / T, Fr(j * T * (N - 1) - (j - 1) * N, N - j))
    lo = max(Fr(0), N - (N - 1) * T, Fr(j * (N - 1) / T - (j - 1) * N, N - j))
    return lo, hi


def interval(A, N, T):
    return interval_j(N, T, 2 if A == "kt" else N - 2)


def interval_piecewise(A, N, T):
    """The piecewise form written in the report."""
    T = Fr(T)
    if A == "kt":
        if N == 3:
            return max(Fr(0), 3 - 2 * T), 3 - 2 / T
        hi = N - (N - 1) / T if T >= Fr(N - 2, 2) else (2 * (N - 1) * T - N) / Fr(N - 2)
        lo = (2 * (N - 1) / T - N) / Fr(N - 2) if T <= Fr(2 * (N - 1), N) else Fr(0)
        return lo, hi
    # kdp(k=2)
    if N == 3:
        return 1 / T, (T if T <= 2 else 3 - 2 / T)
    if N == 4:
        return max(Fr(0), 3 / T - 2), 4 - 3 / T
    return max(Fr(0), N - (N - 1) * T), N - (N - 1) / T


def xlogx(r):
    r = float(r)
    return 0.0 if r == 0 else r * math.log(r)


def f_kl(lo, hi):
    if hi == lo:
        return 0.0
    L = (1 - lo) / (hi - lo)
    return float(L) * xlogx(hi) + float(1 - L) * xlogx(lo)


def f_r2(lo, hi):
    return math.log(float(hi + lo - hi * lo))


def f_bound(A, B, N, T):
    lo, hi = interval(A, N, Fr(T))
    return f_kl(lo, hi) if B == "kl" else f_r2(lo, hi)


def f_bound_float(A, B, N, T):
    """f at a float T (for random tables): the same formulas in floats."""
    j = 2 if A == "kt" else N - 2
    hi = min(N - (N - 1) / T, (j * T * (N - 1) - (j - 1) * N) / (N - j))
    lo = max(0.0, N - (N - 1) * T, (j * (N - 1) / T - (j - 1) * N) / (N - j))
    if B == "kl":
        if hi - lo < 1e-15:
            return 0.0
        L = (1 - lo) / (hi - lo)
        return L * xlogx(hi) + (1 - L) * xlogx(lo)
    return math.log(hi + lo - hi * lo)


# ----------------------------------------------------------------------------------------------------------------
# levels and divergences of concrete tables
# ----------------------------------------------------------------------------------------------------------------

def level_exact(A, X):
    """Exact A level (Fractions) of a table X (list of rows of Fractions). inf if some ratio is 0."""
    N, K = len(X), len(X[0])
    P = [sum(X[i][l] for i in range(N)) / N for l in range(K)]
    size = 2 if A == "kt" else N - 2
    worst = Fr(1)
    for S in itertools.combinations(range(N), size):
        for l in range(K):
            if P[l] == 0:
                if any(X[i][l] for i in S):
                    return math.inf
                continue
            r = sum(X[i][l] for i in S) / size / P[l]
            if r == 0:
                return math.inf
            worst = max(worst, r, 1 / r)
    return worst


def level_np(A, X):
    """Float A level via pair sums of ratios (kt: pairs; kdp(2): complements of pairs)."""
    N = X.shape[0]
    P = X.mean(axis=0)
    keep = P > 0                        # a bucket with P_l = 0 is empty in every record: no constraint
    X, P = X[:, keep], P[keep]
    R = X / P
    i, j = np.triu_indices(N, 1)
    S = R[i] + R[j]
    r = S / 2 if A == "kt" else (N - S) / (N - 2)
    if np.any(r <= 1e-300):
        return math.inf
    return float(max(r.max(), (1 / r).max(), 1.0))


def divs_np(M, P):
    """KL and D_2 of each row of M against P (rows of M are distributions)."""
    keep = P > 0                        # M is 0 wherever P is (M are averages of the records)
    M, P = M[:, keep], P[keep]
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(M > 0, M * np.log(M / P), 0.0)
    return t.sum(axis=1), np.log((M * M / P).sum(axis=1))


_SUBSETS = {}


def subset_matrix(N):
    if N not in _SUBSETS:
        rows = []
        for mask in range(1, 2 ** N):
            v = np.array([(mask >> b) & 1 for b in range(N)], dtype=float)
            rows.append(v / v.sum())
        _SUBSETS[N] = np.array(rows)
    return _SUBSETS[N]


# ----------------------------------------------------------------------------------------------------------------
# A. closed forms
# ----------------------------------------------------------------------------------------------------------------

T_GRID = sorted({Fr(1)} | {Fr(1) + Fr(i, 40) for i in range(1, 200)} | {Fr(n, d) for n in range(1, 40)
                                                                         for d in range(1, 9) if Fr(n, d) >= 1})


def part_A():
    bad = 0
    for A in ("kt", "kdp"):
        for N in range(3, 13):
            prev = {"kl": -1.0, "r2": -1.0}
            for T in T_GRID:
                g = interval(A, N, T)
                p = interval_piecewise(A, N, T)
                if g != p or not (g[0] <= 1 <= g[1]):
                    bad += 1
                    print("  MISMATCH", A, N, T, g, p)
                for B in ("kl", "r2"):
                    v = f_bound(A, B, N, T)
                    if v < prev[B] - 1e-13:
                        bad += 1
                        print("  NOT MONOTONE", A, B, N, T)
                    prev[B] = v
    print(f"A. piecewise == generic closed form, lo <= 1 <= hi, f nondecreasing in T: {bad} failures "
          f"(A x N=3..12 x {len(T_GRID)} rational T)")
    return bad


def explicit_f(A, B, N, T):
    """The explicit piecewise formulas as written in the report (floats, T raw)."""
    ln = math.log
    def chord(h, l, L):
        return L * xlogx(h) + (1 - L) * xlogx(l)
    s = T + 1 / T
    if A == "kdp" and N == 3:
        if T <= 2:
            return (T - 1) * ln(T) / (T + 1) if B == "kl" else ln(T + 1 / T - 1)
        return ((3 * T - 2) * ln(3 - 2 / T) - 2 * ln(T)) / (3 * T) if B == "kl" else ln(3 - 4 / T + 2 / T ** 2)
    if N == 4:                                  # kt(2) and kdp(2) coincide
        if T >= 1.5:
            return ln(4 - 3 / T)
        h, l = 4 - 3 / T, 3 / T - 2
        return chord(h, l, 0.5) if B == "kl" else ln(10 - 18 / T + 9 / T ** 2)
    if A == "kdp" or N == 3:                    # kdp(2), N >= 5; kt(2), N = 3: [max(0, N-(N-1)T), N-(N-1)/T]
        if T >= N / (N - 1):
            return ln(N - (N - 1) / T)
        h, l = N - (N - 1) / T, N - (N - 1) * T
        return chord(h, l, T / (T + 1)) if B == "kl" else ln((N - 1) ** 2 * (s - 1) - N * (N - 2))
    # kt(2), N >= 5
    h = (2 * (N - 1) * T - N) / (N - 2)
    l = (2 * (N - 1) / T - N) / (N - 2)
    t1, t2 = 2 * (N - 1) / N, (N - 2) / 2
    if T <= min(t1, t2):
        return chord(h, l, 1 / (T + 1)) if B == "kl" else ln((4 * (N - 1) ** 2 * (s - 1) - N * (3 * N - 4)) / (N - 2) ** 2)
    if T >= t2 and T >= t1:
        return ln(N - (N - 1) / T)
    if t1 <= T <= t2:                           # N >= 6
        return ln(h)
    # N = 5, 3/2 <= T <= 8/5: lo = l, hi = 5 - 4/T, L = 2/5
    hh = N - (N - 1) / T
    return chord(hh, l, 0.4) if B == "kl" else ln((35 - 64 / T + 32 / T ** 2) / 3)


def part_A2():
    worst = 0.0
    for A in ("kt", "kdp"):
        for N in range(3, 13):
            for T in T_GRID:
                for B in ("kl", "r2"):
                    worst = max(worst, abs(explicit_f(A, B, N, float(T)) - f_bound(A, B, N, T)))
    print(f"A2. explicit piecewise formulas of the report == chord on [lo, hi]: max |diff| = {worst:.2e}")
    return 1 if worst > 1e-12 else 0


def part_A3():
    """General subset size j: which term of [lo_j, hi_j] is active (the report's section 6 conditions)."""
    bad = n = 0
    for N in range(3, 13):
        for j in range(1, N):
            for T in T_GRID:
                lo, hi = interval_j(N, T, j)
                h2 = Fr(j * T * (N - 1) - (j - 1) * N, N - j)
                l2, l3 = N - (N - 1) * T, Fr(j * (N - 1) / T - (j - 1) * N, N - j)
                n += 1
                bad += (hi == N - (N - 1) / T) != (T >= Fr(N - j, j) or h2 == N - (N - 1) / T)
                bad += (l2 >= l3) != (T <= Fr(j, N - j) or l2 == l3)
                if j >= 2:
                    bad += (l3 <= 0) != (T >= Fr(j * (N - 1), (j - 1) * N))
    print(f"A3. general-j piece conditions (hi switch at T=(N-j)/j, N-(N-1)T vs third lower term at T=j/(N-j), third "
          f"<= 0 from T=j(N-1)/((j-1)N)): {n} (N<=12, j, T) cases, {bad} mismatches")
    return bad


# ----------------------------------------------------------------------------------------------------------------
# B. per-bucket exact LPs
# ----------------------------------------------------------------------------------------------------------------

def simplex_max(c, A, b):
    """Exact LP (Fractions): max c.x s.t. A x <= b, x >= 0 (CLRS slack-form simplex, Bland's rule, auxiliary x0 for
    an infeasible origin). Returns x (list of Fractions), None if infeasible; raises if unbounded."""
    m, n = len(A), len(c)
    Nset = list(range(n))
    Bset = list(range(n, n + m))
    a = {Bset[i]: {j: Fr(A[i][j]) for j in range(n)} for i in range(m)}
    bb = {Bset[i]: Fr(b[i]) for i in range(m)}

    def pivot(a, bb, cc, v, Nset, Bset, l, e):
        ale = a[l][e]
        na, nb = {}, {}
        nb[e] = bb[l] / ale
        na[e] = {j: a[l][j] / ale for j in Nset if j != e}
        na[e][l] = 1 / ale
        for i in Bset:
            if i == l:
                continue
            aie = a[i][e]
            nb[i] = bb[i] - aie * nb[e]
            na[i] = {j: a[i][j] - aie * na[e][j] for j in Nset if j != e}
            na[i][l] = -aie * na[e][l]
        ce = cc.get(e, Fr(0))
        nv = v + ce * nb[e]
        nc = {j: cc.get(j, Fr(0)) - ce * na[e][j] for j in Nset if j != e}
        nc[l] = -ce * na[e][l]
        nN = sorted([j for j in Nset if j != e] + [l])
        nB = sorted([i for i in Bset if i != l] + [e])
        return na, nb, nc, nv, nN, nB

    def run(a, bb, cc, v, Nset, Bset):
        while True:
            es = [j for j in Nset if cc.get(j, 0) > 0]
            if not es:
                return a, bb, cc, v, Nset, Bset
            e = min(es)
            best = None
            for i in Bset:
                if a[i][e] > 0:
                    d = bb[i] / a[i][e]
                    if best is None or d < best[0] or (d == best[0] and i < best[1]):
                        best = (d, i)
            if best is None:
                raise ValueError("unbounded")
            a, bb, cc, v, Nset, Bset = pivot(a, bb, cc, v, Nset, Bset, best[1], e)

    cobj = {j: Fr(c[j]) for j in range(n)}
    if m and min(bb.values()) < 0:
        x0 = n + m
        for i in Bset:
            a[i][x0] = Fr(-1)
        Naux = Nset + [x0]
        l = min(Bset, key=lambda i: (bb[i], i))
        a, bb, cc, v, Naux, Bset = pivot(a, bb, {x0: Fr(-1)}, Fr(0), Naux, Bset, l, x0)
        a, bb, cc, v, Naux, Bset = run(a, bb, cc, v, Naux, Bset)
        if v != 0:
            return None
        if x0 in Bset:
            e = next(j for j in Naux if a[x0][j] != 0)
            a, bb, cc, v, Naux, Bset = pivot(a, bb, cc, v, Naux, Bset, x0, e)
        Nset = [j for j in Naux if j != x0]
        for i in Bset:
            a[i].pop(x0, None)
        # the original objective in the current nonbasic variables
        cc, v = {j: Fr(0) for j in Nset}, Fr(0)
        for j, cj in cobj.items():
            if j in Bset:
                v += cj * bb[j]
                for k in Nset:
                    cc[k] -= cj * a[j][k]
            else:
                cc[j] += cj
    else:
        cc, v = dict(cobj), Fr(0)
    a, bb, cc, v, Nset, Bset = run(a, bb, cc, v, Nset, Bset)
    return [bb[j] if j in Bset else Fr(0) for j in range(n)]


def lp_max_certified(c, A, b):
    """max c.x (A x <= b, x >= 0) with an exact certificate: the primal optimum x and the dual optimum y (solved
    separately) are both re-checked feasible and c.x == b.y (strong duality), so the value is proven optimal
    independently of the solver. Returns (value, x) or None if infeasible."""
    x = simplex_max(c, A, b)
    if x is None:
        return None
    m, n = len(A), len(c)
    AT = [[-A[i][j] for i in range(m)] for j in range(n)]
    y = simplex_max([-bi for bi in b], AT, [-cj for cj in c])          # min b.y s.t. A^T y >= c, y >= 0
    assert y is not None
    assert all(v >= 0 for v in x) and all(sum(A[i][j] * x[j] for j in range(n)) <= b[i] for i in range(m))
    assert all(v >= 0 for v in y) and all(sum(A[i][j] * y[i] for i in range(m)) >= c[j] for j in range(n))
    val = sum(c[j] * x[j] for j in range(n))
    assert val == sum(b[i] * y[i] for i in range(m)), "no duality certificate"
    return val, x


def bucket_lp(N, T, j):
    """Exact min / max of a_1 over the bucket's ratio vectors: a >= 0, sum a = N, every j-subset mean in [1/T, T]."""
    A, b = [], []
    A.append([1] * N); b.append(Fr(N))
    A.append([-1] * N); b.append(Fr(-N))
    for S in itertools.combinations(range(N), j):
        row = [1 if i in S else 0 for i in range(N)]
        A.append(row); b.append(j * T)                        # sum_S a <= j T
        A.append([-v for v in row]); b.append(-Fr(j) / T)     # sum_S a >= j / T
    c = [1] + [0] * (N - 1)
    hi = lp_max_certified(c, A, b)[0]
    lo = -lp_max_certified([-v for v in c], A, b)[0]
    return lo, hi


def part_B():
    Ts = [Fr(1), Fr(21, 20), Fr(6, 5), Fr(5, 4), Fr(4, 3), Fr(3, 2), Fr(8, 5), Fr(5, 3), Fr(7, 4), Fr(2),
          Fr(9, 4), Fr(5, 2), Fr(3), Fr(4), Fr(6)]
    if QUICK:
        Ts = Ts[::3]
    n = bad = 0
    t0 = time.time()
    for N in range(3, 8):
        for j in range(1, N):
            for T in Ts:
                got = bucket_lp(N, T, j)
                want = interval_j(N, T, j)
                n += 1
                if got != want:
                    bad += 1
                    print("  LP MISMATCH N=%d j=%d T=%s LP=%s closed=%s" % (N, j, T, got, want))
    print(f"B. exact per-bucket LP interval == closed form, N=3..7, every j=1..N-1 (kt(2): j=2, kdp(2): j=N-2), "
          f"{len(Ts)} T: {n} cases, {bad} mismatches ({time.time() - t0:.0f}s)")
    return bad


# ----------------------------------------------------------------------------------------------------------------
# C. the attaining family
# ----------------------------------------------------------------------------------------------------------------

def family(A, N, T):
    """Two buckets, P = (L, 1 - L), record 1 at ratios (hi, lo), the N - 1 others alike at ((N - hi)/(N - 1),
    (N - lo)/(N - 1)); record 1 in a class of its own."""
    lo, hi = interval(A, N, T)
    L = (1 - lo) / (hi - lo)
    x1 = [hi * L, lo * (1 - L)]
    xo = [(N - hi) * L / (N - 1), (N - lo) * (1 - L) / (N - 1)]
    return [x1] + [list(xo) for _ in range(N - 1)], L


def part_C():
    worst = 0.0
    bad = 0
    cnt = 0
    for A in ("kt", "kdp"):
        for N in range(3, 10):
            for T in [t for t in T_GRID if t > 1][:: (8 if QUICK else 2)]:
                X, L = family(A, N, T)
                assert all(sum(r) == 1 and min(r) >= 0 for r in X)
                lev = level_exact(A, X)
                Xn = np.array([[float(v) for v in r] for r in X])
                P = Xn.mean(axis=0)
                kl, r2 = divs_np(Xn[:1], P)
                g = max(abs(kl[0] - f_bound(A, "kl", N, T)), abs(r2[0] - f_bound(A, "r2", N, T)))
                worst = max(worst, g)
                cnt += 1
                if lev > T or g > 1e-12:
                    bad += 1
                    print("  FAMILY FAIL", A, N, T, lev, g)
    print(f"C. attaining family: {cnt} (A, N=3..9, T) cases, A level <= T exactly in all, "
          f"max |D(x_1||P) - f| = {worst:.2e}, failures {bad}")
    return bad


def explicit_family(A, N, T):
    """(x_1, x_other) of the report's explicit attaining tables (section 3.5), Fractions; None if no explicit form."""
    lo, hi = interval(A, N, T)
    if A == "kdp" and N == 3:
        if T <= 2:
            return [T / (T + 1), 1 / (T + 1)], [(3 - T) / (2 * (T + 1)), (3 * T - 1) / (2 * (T + 1))]
        return [(3 - 2 / T) / 3, 2 / (3 * T)], [1 / (3 * T), 1 - 1 / (3 * T)]
    if lo == 0 and hi == N - (N - 1) / T:
        return [Fr(1), Fr(0)], [1 / (N * T - N + 1), (N * T - N) / (N * T - N + 1)]
    if N == 4:
        return [(4 - 3 / T) / 2, (3 / T - 2) / 2], [1 / T / 2, (2 - 1 / T) / 2]
    if A == "kdp" or N == 3:
        return [(N * T - N + 1) / (T + 1), (N - (N - 1) * T) / (T + 1)], [1 / (T + 1), T / (T + 1)]
    if lo > 0 and hi == (2 * (N - 1) * T - N) / Fr(N - 2):
        d = (N - 2) * (T + 1)
        return [(2 * (N - 1) * T - N) / d, (2 * (N - 1) - N * T) / d], [(N - 2 * T) / d, (N * T - 2) / d]
    if N == 5 and lo > 0:
        return [2 - 8 / (5 * T), 8 / (5 * T) - 1], [2 / (5 * T), 1 - 2 / (5 * T)]
    return None


def part_C2():
    n = bad = 0
    for A in ("kt", "kdp"):
        for N in range(3, 13):
            for T in [t for t in T_GRID if t > 1]:
                e = explicit_family(A, N, T)
                if e is None:
                    continue
                X, _ = family(A, N, T)
                n += 1
                if X[0] != e[0] or X[1] != e[1]:
                    bad += 1
                    print("  EXPLICIT FAMILY MISMATCH", A, N, T, X[:2], e)
    print(f"C2. explicit attaining tables of the report == the generic family: {n} cases, {bad} mismatches")
    return bad


# ----------------------------------------------------------------------------------------------------------------
# D. full-table exact LPs with two buckets
# ----------------------------------------------------------------------------------------------------------------

def table_lp_x1_range(A, N, T, p):
    """min / max of y_1 = x_1(1) over two-bucket tables (rows (y_i, 1 - y_i), 0 <= y_i <= 1) with mean P = (p, 1 - p)
    and A level <= T (exact, duality-certified LPs). Returns None if infeasible."""
    size = 2 if A == "kt" else N - 2
    Am, b = [], []
    Am.append([1] * N); b.append(N * p)
    Am.append([-1] * N); b.append(-N * p)
    for i in range(N):
        Am.append([1 if k == i else 0 for k in range(N)]); b.append(Fr(1))
    for S in itertools.combinations(range(N), size):
        row = [1 if i in S else 0 for i in range(N)]
        neg = [-v for v in row]
        Am.append(row); b.append(size * p * T)                    # bucket 1: mean_S <= T p
        Am.append(neg); b.append(-size * p / T)                   # bucket 1: mean_S >= p / T
        Am.append(neg); b.append(size * ((1 - p) * T - 1))        # bucket 2: size - s1 <= size T (1 - p)
        Am.append(row); b.append(size * (1 - (1 - p) / T))        # bucket 2: size - s1 >= size (1 - p)/T
    c = [1] + [0] * (N - 1)
    r_hi = lp_max_certified(c, Am, b)
    if r_hi is None:
        return None
    r_lo = lp_max_certified([-v for v in c], Am, b)
    res = []
    for val, pt in ((-r_lo[0], r_lo[1]), (r_hi[0], r_hi[1])):
        lev = level_exact(A, [[v, 1 - v] for v in pt])
        assert sum(pt) == N * p and lev <= T, ("LP point infeasible", A, N, T, p, pt, lev)
        res.append(val)
    return tuple(res)


def part_D():
    Ts = [Fr(6, 5), Fr(3, 2), Fr(2), Fr(3)]
    Ns = range(3, 7) if not QUICK else range(3, 5)
    pgrid = [Fr(i, 24) for i in range(1, 24)] if not QUICK else [Fr(i, 8) for i in range(1, 8)]
    t0 = time.time()
    worst_excess = -1.0
    lines = []
    for A in ("kt", "kdp"):
        for N in Ns:
            if A == "kdp" and N < 3:
                continue
            for T in Ts:
                lo_, hi_ = interval(A, N, T)
                L = (1 - lo_) / (hi_ - lo_)
                best = {"kl": (-1.0, None), "r2": (-1.0, None)}
                for p in pgrid + [L]:
                    r = table_lp_x1_range(A, N, T, p)
                    if r is None:
                        continue
                    for y1 in r:
                        x1 = np.array([[float(y1), float(1 - y1)]])
                        P = np.array([float(p), float(1 - p)])
                        kl, r2 = divs_np(x1, P)
                        for B, v in (("kl", kl[0]), ("r2", r2[0])):
                            if v > best[B][0]:
                                best[B] = (v, p)
                for B in ("kl", "r2"):
                    f = f_bound(A, B, N, T)
                    worst_excess = max(worst_excess, best[B][0] - f)
                    lines.append(f"   {A:3s} N={N} T={str(T):4s} {B}: LP max {best[B][0]:.12f} at p={best[B][1]}"
                                 f"  f={f:.12f}  diff={best[B][0] - f:+.1e}")
    print(f"D. two-bucket full-table exact LPs (p grid /24 plus p = L): max(LP sup - f) = {worst_excess:+.2e} "
          f"({time.time() - t0:.0f}s)")
    for s in lines:
        print(s)
    return 1 if worst_excess > 1e-12 else 0


# ----------------------------------------------------------------------------------------------------------------
# E. random tables and hill climbing
# ----------------------------------------------------------------------------------------------------------------

def random_table(rng, N, K):
    kind = rng.integers(4)
    if kind == 0:
        X = rng.dirichlet(np.full(K, rng.choice([0.3, 1.0, 5.0, 50.0])), size=N)
    elif kind == 1:       # one outlier, others near a common row
        base = rng.dirichlet(np.ones(K))
        X = np.array([rng.dirichlet(base * rng.choice([20.0, 200.0, 2000.0]) + 1e-9) for _ in range(N)])
        X[0] = rng.dirichlet(np.full(K, 0.5))
    elif kind == 2:       # convex mix towards a common row (small levels)
        base = rng.dirichlet(np.ones(K))
        X = rng.dirichlet(np.ones(K), size=N)
        w = rng.uniform(0.5, 0.999)
        X = w * base + (1 - w) * X
    else:                 # two groups
        a, b = rng.dirichlet(np.ones(K)), rng.dirichlet(np.ones(K))
        m = rng.integers(1, N)
        X = np.array([a] * m + [b] * (N - m)) * rng.uniform(0.8, 1.0) + rng.dirichlet(np.ones(K), size=N) * 0.0
        X = X / X.sum(axis=1, keepdims=True)
        X = 0.7 * X + 0.3 * X.mean(axis=0) * rng.uniform(0.5, 1.0)
        X = X / X.sum(axis=1, keepdims=True)
    return X


def part_E1(trials):
    rng = np.random.default_rng(12345)
    worst = {}
    singleton_max_ok = True
    t0 = time.time()
    for _ in range(trials):
        N = int(rng.integers(3, 8))
        K = int(rng.integers(2, 5))
        X = random_table(rng, N, K)
        P = X.mean(axis=0)
        means = subset_matrix(N) @ X
        kl, r2 = divs_np(means, P)
        kls, r2s = divs_np(X, P)
        if kl.max() > kls.max() + 1e-12 or r2.max() > r2s.max() + 1e-12:
            singleton_max_ok = False
        for A in ("kt", "kdp"):
            T = level_np(A, X)
            if not math.isfinite(T):
                continue
            for B, v in (("kl", kl.max()), ("r2", r2.max())):
                f = f_bound_float(A, B, N, T)
                key = (A, B)
                if key not in worst or v - f > worst[key][0]:
                    worst[key] = (v - f, N, K, T, v, f)
    print(f"E1. {trials} random tables (N=3..7, K=2..4), B over every nonempty subset (any partition's classes): "
          f"max over subsets == max over singletons: {singleton_max_ok} ({time.time() - t0:.0f}s)")
    for key, (g, N, K, T, v, f) in sorted(worst.items()):
        print(f"    {key[0]:3s}->{key[1]}: max (D - f(T_A)) = {g:+.3e}   (at N={N} K={K} T_A={T:.4f}: D={v:.6f} f={f:.6f})")
    return 1 if any(w[0] > 1e-9 for w in worst.values()) else 0


def shrink_to_level(A, X, T):
    """Pull a table towards its mean row until its A level is <= T (bisection on the mixing weight)."""
    P = X.mean(axis=0)
    lo, hi = 0.0, 1.0
    if level_np(A, X) <= T:
        return X
    for _ in range(50):
        mid = (lo + hi) / 2
        if level_np(A, P + mid * (X - P)) <= T:
            lo = mid
        else:
            hi = mid
    return P + lo * (X - P)


def climb(A, B, N, T, K, rng, steps, restarts=4):
    """Maximise max_i D(x_i || P) over tables with A level <= T: a (1+1) evolution strategy with adaptive step and
    moves that keep the table's mean (row i up, the others down alike; row i up, row k down) or shift every row."""
    best_val, best_X = -1.0, None
    for _restart in range(restarts):
        X = shrink_to_level(A, rng.dirichlet(np.ones(K) * 0.5, size=N), T)
        P = X.mean(axis=0)
        kl, r2 = divs_np(X, P)
        cur = (kl if B == "kl" else r2).max()
        step = 0.05
        for it in range(steps):
            d = rng.normal(size=K) * step
            d -= d.mean()
            Y = X.copy()
            mv = rng.integers(3)
            i = int(rng.integers(N))
            if mv == 0:
                Y[i] += d
                Y[np.arange(N) != i] -= d / (N - 1)
            elif mv == 1:
                k = (i + 1 + int(rng.integers(N - 1))) % N
                Y[i] += d
                Y[k] -= d
            else:
                Y += d
            if Y.min() < 0 or level_np(A, Y) > T:
                step = max(step * 0.97, 1e-7)
                continue
            P = Y.mean(axis=0)
            kl, r2 = divs_np(Y, P)
            v = (kl if B == "kl" else r2).max()
            if v >= cur:
                X, cur = Y, v
                step = min(step * 1.3, 0.5)
            else:
                step = max(step * 0.97, 1e-7)
        if cur > best_val:
            best_val, best_X = cur, X
    return best_val, best_X


def part_E2():
    rng = np.random.default_rng(7)
    Ts = [1.2, 1.5, 2.0, 3.0] if not QUICK else [1.5]
    steps = 20000 if not QUICK else 4000
    t0 = time.time()
    rows = []
    worst_excess = -1.0
    for A in ("kt", "kdp"):
        for N in range(3, 8):
            for T in Ts:
                for B in ("kl", "r2"):
                    v, X = climb(A, B, N, T, 3, rng, steps)
                    f = f_bound_float(A, B, N, T)
                    worst_excess = max(worst_excess, v - f)
                    rows.append((A, N, T, B, v, f))
    print(f"E2. hill climb (K=3, {steps} steps x 4 restarts): max (found - f) = {worst_excess:+.2e} ({time.time() - t0:.0f}s)")
    print("     A   N  T    B   found        f            f - found")
    for A, N, T, B, v, f in rows:
        print(f"    {A:4s} {N} {T:4.1f} {B:3s} {v:.8f}  {f:.8f}  {f - v:.2e}")
    return 1 if worst_excess > 1e-9 else 0


# ----------------------------------------------------------------------------------------------------------------
# F. three buckets: exact LP support scan of the feasible x_1 region
# ----------------------------------------------------------------------------------------------------------------

def support_lp(A, N, T, P, w):
    """An x_1 maximising w.x_1 over all K-bucket tables (exact Fractions) with mean P and A level <= T."""
    K = len(P)
    size = 2 if A == "kt" else N - 2
    nv = N * K
    Am, b = [], []

    def row(coefs):
        r = [0] * nv
        for idx, cf in coefs:
            r[idx] += cf
        return r
    for i in range(N):
        r = row([(i * K + l, 1) for l in range(K)])
        Am.append(r); b.append(Fr(1)); Am.append([-v for v in r]); b.append(Fr(-1))
    for l in range(K - 1):
        r = row([(i * K + l, 1) for i in range(N)])
        Am.append(r); b.append(N * P[l]); Am.append([-v for v in r]); b.append(-N * P[l])
    for S in itertools.combinations(range(N), size):
        for l in range(K):
            r = row([(i * K + l, 1) for i in S])
            Am.append(r); b.append(size * T * P[l]); Am.append([-v for v in r]); b.append(-size * P[l] / T)
    c = [0] * nv
    for l in range(K):
        c[l] = w[l]
    x = simplex_max(c, Am, b)
    if x is None:
        return None
    X = [x[i * K:(i + 1) * K] for i in range(N)]
    assert level_exact(A, X) <= T and all(sum(r) == 1 for r in X)
    return X[0]


def part_F():
    """K = 3: the feasible set of x_1 (given P) is a polygon; KL and D_2 are convex in x_1, so their maximum is at a
    vertex. Scan the polygon's support points in 16 directions (plus (2, -1, -1)): an inner approximation whose
    best value must stay <= f (and reaches f at P = (L, (1 - L)/2, (1 - L)/2))."""
    rng = random.Random(99)
    dirs = [(2, -1, -1)]
    for kk in range(16):
        th = 2 * math.pi * kk / 16
        c, s_ = math.cos(th), math.sin(th) / math.sqrt(3)
        dirs.append((round(1000 * (c + s_)), round(1000 * (-c + s_)), round(-2000 * s_)))
    Ts = [Fr(6, 5), Fr(3, 2), Fr(2)] if not QUICK else [Fr(3, 2)]
    Ns = range(3, 7) if not QUICK else range(3, 5)
    t0 = time.time()
    worst_excess, lines = -1.0, []
    for A in ("kt", "kdp"):
        for N in Ns:
            for T in Ts:
                lo_, hi_ = interval(A, N, T)
                L = (1 - lo_) / (hi_ - lo_)
                Ps = [[L, (1 - L) / 2, (1 - L) / 2]]
                for _ in range(3 if not QUICK else 1):
                    a_, b_ = sorted(rng.sample(range(1, 30), 2))
                    Ps.append([Fr(a_, 30), Fr(b_ - a_, 30), Fr(30 - b_, 30)])
                best = {"kl": -1.0, "r2": -1.0}
                at_L = {"kl": -1.0, "r2": -1.0}
                for pi, P in enumerate(Ps):
                    Pn = np.array([float(v) for v in P])
                    for w in dirs:
                        x1 = support_lp(A, N, T, P, w)
                        if x1 is None:
                            continue
                        kl, r2 = divs_np(np.array([[float(v) for v in x1]]), Pn)
                        for B, v in (("kl", kl[0]), ("r2", r2[0])):
                            best[B] = max(best[B], v)
                            if pi == 0:
                                at_L[B] = max(at_L[B], v)
                for B in ("kl", "r2"):
                    f = f_bound(A, B, N, T)
                    worst_excess = max(worst_excess, best[B] - f)
                    lines.append(f"   {A:3s} N={N} T={str(T):4s} {B}: best {best[B]:.12f} (at P=(L,..): "
                                 f"{at_L[B]:.12f})  f={f:.12f}  best-f={best[B] - f:+.1e}")
    print(f"F. three-bucket exact LP support scan (4 P's incl. (L,(1-L)/2,(1-L)/2), 17 directions): "
          f"max(best - f) = {worst_excess:+.2e} ({time.time() - t0:.0f}s)")
    for s_ in lines:
        print(s_)
    return 1 if worst_excess > 1e-12 else 0



if __name__ == "__main__":
    fails = part_A() + part_A2() + part_A3() + part_C() + part_C2()
    fails += part_B()
    fails += part_D()
    fails += part_E1(20000 if not QUICK else 2000)
    fails += part_E2()
    fails += part_F()
    print("TOTAL FAILURES:", fails)
