"""Brute-force optimal levels, straight from the definitions, on small concrete tables.

Independent of the engine: no import from :mod:`implgraph`. Every quantifier of the definitions is
enumerated literally (all k-subsets with :func:`itertools.combinations`, all removals, all pairs,
all classes, all buckets) in exact :class:`fractions.Fraction` arithmetic.

A table is a list of rows, each a list of Fractions (one per bucket, summing to 1); classes, when
given, are one label per row.

Conventions (Ekenstedt et al. 2022, Definitions 4-8). A constraint ``t^-1 <= a/b <= t`` between two
averaged probabilities is read cross-multiplied, ``b <= t*a`` and ``a <= t*b``:

- a = b = 0 : satisfied by every t (no constraint; "0/0");
- exactly one of a, b is 0 : satisfied by no finite t (the level is infinite; "x/0");
- otherwise the smallest t is max(a/b, b/a).

The optimal level (Definition 1) is the smallest t >= 1 meeting every constraint, so it is the
maximum of 1 and the per-constraint requirements; eps = ln t for the DP family. The functions below
return that ratio t (``INF`` for infinity), never the logarithm.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

INF = float("inf")

__all__ = ["INF", "mean", "needed", "mult_t", "kt", "subset_upper", "dp", "kdp", "ldp", "k_anonymity", "emd_t",
           "groups", "basic_beta_likeness", "delta_disclosure_ratio", "enhanced_beta_likeness", "distinct_l", "frequency_l",
           "entropy_l",
           "recursive_cl", "alpha_k", "eps_delta_dp", "eps_delta_ldp", "hierarchical_emd"]


def mean(rows, idx, l):
    """Pr_S(B_l): the average of Pr(Z(c_i) in B_l) over the records ``idx``."""
    idx = list(idx)
    return Fraction(sum(rows[i][l] for i in idx), len(idx))


def needed(a: Fraction, b: Fraction):
    """The smallest t with ``b <= t*a`` and ``a <= t*b`` (None: every t works)."""
    if a == 0 and b == 0:
        return None
    if a == 0 or b == 0:
        return INF
    return max(a / b, b / a)


def _optimum(requirements):
    best = Fraction(1)
    for r in requirements:
        if r is None:
            continue
        if r == INF:
            return INF
        best = max(best, r)
    return best


def groups(classes):
    out = {}
    for i, c in enumerate(classes):
        out.setdefault(c, []).append(i)
    return list(out.values())


def mult_t(rows, classes):
    """Definition 4: every class E against the whole table D, every bucket."""
    n, p = len(rows), len(rows[0])
    everyone = range(n)
    return _optimum(needed(mean(rows, everyone, l), mean(rows, e, l))
                    for e in groups(classes) for l in range(p))


def kt(rows, k):
    """Definition 7: every subset K of exactly k records, every bucket."""
    n, p = len(rows), len(rows[0])
    assert 1 <= k <= n - 1
    everyone = range(n)
    return _optimum(needed(mean(rows, everyone, l), mean(rows, K, l))
                    for K in itertools.combinations(range(n), k) for l in range(p))


def subset_upper(rows, k):
    """One-sided subset level (pointwise maximal leakage at k = 1): the largest Pr_K(B_l) / Pr_D(B_l) over every
    subset K of exactly k records and every bucket with Pr_D(B_l) > 0; at least 1."""
    n, p = len(rows), len(rows[0])
    assert 1 <= k <= n
    best = Fraction(1)
    for K in itertools.combinations(range(n), k):
        for l in range(p):
            whole = mean(rows, range(n), l)
            if whole > 0:
                best = max(best, mean(rows, K, l) / whole)
    return best


def kdp(rows, k):
    """Definition 8: every removal of k records; the query returns the attribute distribution."""
    n, p = len(rows), len(rows[0])
    assert 1 <= k <= n - 1
    everyone = range(n)
    out = []
    for removed in itertools.combinations(range(n), k):
        rest = [i for i in everyone if i not in removed]
        for l in range(p):
            out.append(needed(mean(rows, everyone, l), mean(rows, rest, l)))
    return _optimum(out)


def dp(rows):
    """Definition 5: every single-record removal D_-i."""
    n, p = len(rows), len(rows[0])
    assert n >= 2
    everyone = range(n)
    return _optimum(needed(mean(rows, everyone, l), mean(rows, [j for j in everyone if j != i], l))
                    for i in everyone for l in range(p))


def ldp(rows):
    """Definition 6: Pr(Z(c_i) in B_l) <= e^eps Pr(Z(c_j) in B_l) for every ordered pair (i, j)."""
    n, p = len(rows), len(rows[0])
    out = []
    for i, j in itertools.product(range(n), repeat=2):
        for l in range(p):
            a, b = rows[i][l], rows[j][l]
            if a == 0:
                continue                  # 0 <= t*b for every t
            out.append(INF if b == 0 else a / b)
    return _optimum(out)


def k_anonymity(classes):
    """The size of the smallest equivalence class."""
    return min(len(g) for g in groups(classes))


def emd_t(rows, classes, ground="equal"):
    """t-closeness with the earth mover's distance (Li et al. 2007), maximised over classes.

    equal ground distance: EMD(P, Q) = (1/2) sum_i |p_i - q_i|; ordered ground distance
    |i - j|/(m - 1): EMD(P, Q) = (1/(m-1)) sum_{i=1}^{m} |r_1 + ... + r_i| with r_i = p_i - q_i.
    """
    n, m = len(rows), len(rows[0])
    P = [mean(rows, range(n), l) for l in range(m)]
    worst = Fraction(0)
    for e in groups(classes):
        Q = [mean(rows, e, l) for l in range(m)]
        r = [P[i] - Q[i] for i in range(m)]
        if ground == "equal":
            d = sum((abs(x) for x in r), Fraction(0)) / 2
        else:
            d = sum((abs(sum(r[:i + 1], Fraction(0))) for i in range(m)), Fraction(0)) / (m - 1)
        worst = max(worst, d)
    return worst


def basic_beta_likeness(rows, classes):
    """Basic beta-likeness (Cao and Karras, VLDB 2012, Definition 2), the optimal beta itself.

    With P the table's distribution and Q a class's: ``max{D(p_i, q_i) | p_i < q_i} <= beta`` with
    ``D(p, q) = (q - p) / p``, for every class. The smallest such beta is the largest D over every class
    and value with ``p_i < q_i`` (then ``p_i > 0``: a value absent from the table is absent from its
    classes), and 0 when no class has a value above the table's frequency. One-sided: a value *below*
    the table's frequency imposes nothing, so the level is never infinite.
    """
    n, m = len(rows), len(rows[0])
    P = [mean(rows, range(n), l) for l in range(m)]
    beta = Fraction(0)
    for e in groups(classes):
        for l in range(m):
            q = mean(rows, e, l)
            if P[l] < q:
                beta = max(beta, (q - P[l]) / P[l])
    return beta


def delta_disclosure_ratio(rows, classes):
    """delta-disclosure privacy (Brickell and Shmatikov, KDD 2008, Definition 4): ``exp`` of the optimal delta.

    ``|ln(Pr_E(v) / Pr_D(v))| < delta`` for every class E and every value v of the table (``Pr_D(v) > 0``);
    the optimal (infimum) delta is the largest ``|ln(q / p)|``, i.e. ``ln max(q/p, p/q)``, infinite when a
    class lacks a value of the table (``q = 0 < p``), 0 when every class has the table's distribution.
    Returned as the ratio ``e^delta`` (``INF`` for infinity) to stay in exact arithmetic.
    """
    n, m = len(rows), len(rows[0])
    worst = Fraction(1)
    for l in range(m):
        p = mean(rows, range(n), l)
        if p == 0:
            continue
        for e in groups(classes):
            q = mean(rows, e, l)
            if q == 0:
                return INF
            worst = max(worst, q / p, p / q)
    return worst


def enhanced_beta_likeness(rows, classes):
    """Enhanced beta-likeness (Cao and Karras, VLDB 2012, Definition 3), ``1 + beta`` (``INF``: no beta).

    Every class and value with ``p < q`` needs ``(q - p) / p <= min(beta, -ln p)``; the fixed part
    ``D <= -ln p`` is ``p * e^D <= 1``, evaluated with 80 decimal digits (the tables tested keep it
    far from equality).
    """
    import decimal
    n, m = len(rows), len(rows[0])
    P = [mean(rows, range(n), l) for l in range(m)]
    beta = Fraction(0)
    with decimal.localcontext() as dc:
        dc.prec = 80
        for e in groups(classes):
            for l in range(m):
                q = mean(rows, e, l)
                if P[l] < q:
                    D = (q - P[l]) / P[l]
                    lhs = decimal.Decimal(P[l].numerator) / P[l].denominator * \
                        (decimal.Decimal(D.numerator) / D.denominator).exp()
                    assert abs(lhs - 1) > decimal.Decimal(10) ** -40, "too close to call"
                    if lhs > 1:
                        return INF
                    beta = max(beta, D)
    return 1 + beta


def distinct_l(rows, classes):
    """Distinct l-diversity (Machanavajjhala et al., TKDD 2007): the fewest values present in a class."""
    m = len(rows[0])
    return min(sum(1 for l in range(m) if mean(rows, e, l) > 0) for e in groups(classes))


def frequency_l(rows, classes):
    """Frequency l-diversity (sei2019 Definition 2): every value's relative frequency in a class is at most 1/l; the
    largest such l, ``min_E 1 / max_v Pr_E(v)``."""
    m = len(rows[0])
    return min(1 / max(mean(rows, e, l) for l in range(m)) for e in groups(classes))


def entropy_l(rows, classes):
    """Entropy l-diversity (sei2019 Definition 3): ``-sum_v p(v) log p(v) >= log l`` in every class; the largest such
    l, ``min_E prod_v p(v)^(-p(v))`` (0^0 = 1), as an exact sympy number (sympy compares them)."""
    import sympy
    m = len(rows[0])
    levels = []
    for e in groups(classes):
        q = [mean(rows, e, l) for l in range(m)]
        levels.append(sympy.Mul(*(sympy.Rational(x.numerator, x.denominator) ** -sympy.Rational(x.numerator, x.denominator)
                                  for x in q if x)))
    return min(levels, key=lambda v: sympy.N(v, 50))


def recursive_cl(rows, classes, l):
    """Recursive (c, l)-diversity (Machanavajjhala et al., TKDD 2007, Definition 4.3): the smallest c >= 1.

    Per class the frequencies sorted down, ``r_1 < c (r_l + ... + r_m)``; the infimum c is
    ``r_1 / (r_l + ... + r_m)`` (``INF`` when that tail is 0), and at least 1.
    """
    m = len(rows[0])
    best = Fraction(1)
    for e in groups(classes):
        r = sorted((mean(rows, e, b) for b in range(m)), reverse=True)
        tail = sum(r[l - 1:], Fraction(0))
        if tail == 0:
            return INF
        best = max(best, r[0] / tail)
    return best


def alpha_k(rows, classes, k):
    """(alpha, k)-anonymity (Wong et al., KDD 2006): the largest value frequency in a class, ``INF``
    when a class has fewer than k records."""
    m = len(rows[0])
    if any(len(e) < k for e in groups(classes)):
        return INF
    return max(mean(rows, e, b) for e in groups(classes) for b in range(m))


def _events(m):
    return [S for r in range(1, m + 1) for S in itertools.combinations(range(m), r)]


def _slack_need(a, b, delta):
    """The smallest e^eps with ``a <= e^eps b + delta`` (None: every eps; INF: none)."""
    if a <= delta:
        return None
    return INF if b == 0 else (a - delta) / b


def eps_delta_ldp(rows, delta):
    """(eps, delta)-LDP: ``Pr(x_i in S) <= e^eps Pr(x_j in S) + delta`` for every ordered pair and every
    set S of buckets; returns the smallest ``e^eps >= 1``."""
    n, m = len(rows), len(rows[0])
    out = []
    for i, j in itertools.product(range(n), repeat=2):
        for S in _events(m):
            out.append(_slack_need(sum(rows[i][l] for l in S), sum(rows[j][l] for l in S), delta))
    return _optimum(out)


def eps_delta_dp(rows, delta):
    """(eps, delta)-DP with single-record removal: the table's and every D_-i's distribution, both
    ways, every set S of buckets; returns the smallest ``e^eps >= 1``."""
    n, m = len(rows), len(rows[0])
    out = []
    for i in range(n):
        rest = [j for j in range(n) if j != i]
        for S in _events(m):
            P = sum((mean(rows, range(n), l) for l in S), Fraction(0))
            Q = sum((mean(rows, rest, l) for l in S), Fraction(0))
            out += [_slack_need(P, Q, delta), _slack_need(Q, P, delta)]
    return _optimum(out)


def hierarchical_emd(rows, classes, tree):
    """t-closeness with the hierarchical ground distance, Li et al.'s formula (ICDE 2007, Section 4.2).

    ``tree`` is nested tuples of 0-based bucket indices, every leaf at the same depth H. For a node N,
    ``extra(N)`` is ``p_i - q_i`` at a leaf and the sum over the children otherwise;
    ``pos_extra(N)`` / ``neg_extra(N)`` sum the positive / the absolute negative extras of its
    children, and ``EMD = sum over internal N of height(N) / H * min(pos_extra(N), neg_extra(N))``.
    """
    n, m = len(rows), len(rows[0])
    P = [mean(rows, range(n), l) for l in range(m)]

    def height(t):
        return 0 if isinstance(t, int) else 1 + height(t[0])

    H = height(tree)
    worst = Fraction(0)
    for e in groups(classes):
        Q = [mean(rows, e, l) for l in range(m)]

        def walk(t):            # (extra, cost of the subtree)
            if isinstance(t, int):
                return P[t] - Q[t], Fraction(0)
            kids = [walk(c) for c in t]
            pos = sum((x for x, _ in kids if x > 0), Fraction(0))
            neg = sum((-x for x, _ in kids if x < 0), Fraction(0))
            cost = sum((c for _, c in kids), Fraction(0)) + Fraction(height(t), H) * min(pos, neg)
            return sum((x for x, _ in kids), Fraction(0)), cost

        worst = max(worst, walk(tree)[1])
    return worst


def random_rows(rng, n, m, high=4):
    """``n`` random rows of ``m`` exact probabilities (integer weights 0..high, some zero entries; a row of zeros
    gets weight 1 on its first bucket), for the tests' random-table checks."""
    rows = []
    for _ in range(n):
        w = [rng.randint(0, high) for _ in range(m)]
        w[0] += sum(w) == 0
        rows.append([Fraction(x, sum(w)) for x in w])
    return rows


def random_labels(rng, n, classes=3):
    """``n`` class labels among ``E1..E<classes>`` (a partition of the rows; a label may be unused)."""
    return [f"E{rng.randint(1, classes)}" for _ in range(n)]


# -- divergences (cross-checks only: floats with a tolerance where a log enters, Fractions where rational) --------

def kl_float(x, y):
    """D(x || y) = sum x log(x/y) in floats (INF where x > 0 = y); for cross-checking exact levels only."""
    import math
    total = 0.0
    for a, b in zip(x, y):
        if a == 0:
            continue
        if b == 0:
            return INF
        total += float(a) * math.log(float(a) / float(b))
    return total


def renyi_power_sum(x, y, alpha):
    """sum x^alpha y^(1 - alpha) for an integer order alpha >= 2, exactly (None where x > 0 = y)."""
    total = Fraction(0)
    for a, b in zip(x, y):
        if a == 0:
            continue
        if b == 0:
            return None
        total += a ** alpha / b ** (alpha - 1)
    return total


def _pairs_of(rows, compares, classes=None):
    """The distributions compared: every ordered pair of records, every class against the table, or the table against
    the table without each record (both ways); literally, from the rows."""
    n, p = len(rows), len(rows[0])
    whole = [mean(rows, range(n), l) for l in range(p)]
    if compares == "pairs":
        return [(rows[i], rows[j]) for i, j in itertools.permutations(range(n), 2)]
    if compares == "class":
        return [([mean(rows, idx, l) for l in range(p)], whole) for idx in groups(classes)]
    out = []
    for i in range(n):
        rest = [mean(rows, [k for k in range(n) if k != i], l) for l in range(p)]
        out += [(whole, rest), (rest, whole)]
    return out


def kl_level_float(rows, compares, classes=None):
    """The largest KL divergence over the compared distributions, in floats."""
    return max(kl_float(x, y) for x, y in _pairs_of(rows, compares, classes))


def renyi_level_sum(rows, alpha, compares, classes=None):
    """The largest sum x^alpha y^(1 - alpha) over the compared distributions (the Renyi level is its log/(alpha - 1)),
    exactly; None where one is infinite."""
    sums = [renyi_power_sum(x, y, alpha) for x, y in _pairs_of(rows, compares, classes)]
    return None if any(s is None for s in sums) else max(sums)


def zcdp_mp(x, y, dps=50):
    """sup over alpha > 1 of D_alpha(x || y)/alpha, approximated from below in mpmath at ``dps`` digits: the larger of
    KL (the limit at alpha -> 1) and the best of D_alpha/alpha on a grid of orders, refined by golden-section search
    around the best grid point. Every value it returns is a D_alpha/alpha actually evaluated (or KL), so it is at most
    the supremum; for cross-checking the exact level only. None where some x > 0 = y (infinite)."""
    import mpmath
    if any(a > 0 and b == 0 for a, b in zip(x, y)):
        return None
    with mpmath.workdps(dps):
        terms = [(mpmath.mpf(a.numerator) / a.denominator, mpmath.mpf(b.numerator) / b.denominator)
                 for a, b in zip(x, y) if a > 0]

        def value(alpha):               # D_alpha/alpha, literally
            s = mpmath.fsum(a ** alpha * b ** (1 - alpha) for a, b in terms)
            return mpmath.log(s) / ((alpha - 1) * alpha)

        kl = mpmath.fsum(a * mpmath.log(a / b) for a, b in terms)
        top = max(mpmath.log(a / b) for a, b in terms)
        if kl == 0:
            return mpmath.mpf(0)
        hi_alpha = 1 + max(mpmath.mpf(2), top / kl)
        span = mpmath.log10(hi_alpha - 1) + 8            # orders 1 + 10^-8 .. hi_alpha, evenly in log(alpha - 1)
        grid = [1 + mpmath.mpf(10) ** (-8 + span * i / 400) for i in range(401)]
        vals = [value(a) for a in grid]
        i = max(range(len(grid)), key=lambda j: vals[j])
        lo, hi = grid[max(0, i - 1)], grid[min(len(grid) - 1, i + 1)]
        g = (mpmath.sqrt(5) - 1) / 2
        best = vals[i]
        for _ in range(200):
            c, d = hi - g * (hi - lo), lo + g * (hi - lo)
            vc, vd = value(c), value(d)
            best = max(best, vc, vd)
            if vc >= vd:
                hi = d
            else:
                lo = c
        return max(kl, best)


def zcdp_level_mp(rows, compares, classes=None, dps=50):
    """The zero-concentrated level of a table: the largest :func:`zcdp_mp` over the compared distributions (every
    ordered pair of records, or the table against the table without each record, both ways), INF where one is
    infinite; a value from below (each :func:`zcdp_mp` is), for cross-checking the exact level only."""
    values = [zcdp_mp(x, y, dps) for x, y in _pairs_of(rows, compares, classes)]
    return INF if any(v is None for v in values) else max(values)


def tv_level(rows, compares, classes=None):
    """The largest total variation (1/2) sum_l |x_l - y_l| over the compared distributions, exactly."""
    return max(sum((abs(a - b) for a, b in zip(x, y)), Fraction(0)) / 2
               for x, y in _pairs_of(rows, compares, classes))


def hockey_level(rows, gamma, compares, classes=None):
    """The largest hockey-stick sum_l max(x_l - gamma y_l, 0) over the compared distributions, exactly (gamma a
    Fraction >= 1): the least delta of (log gamma, delta) privacy."""
    return max(sum((max(a - gamma * b, Fraction(0)) for a, b in zip(x, y)), Fraction(0))
               for x, y in _pairs_of(rows, compares, classes))
