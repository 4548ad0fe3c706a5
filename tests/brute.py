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

__all__ = ["INF", "mean", "needed", "mult_t", "kt", "dp", "kdp", "ldp", "k_anonymity", "emd_t",
           "groups", "basic_beta_likeness", "delta_disclosure_ratio"]


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
