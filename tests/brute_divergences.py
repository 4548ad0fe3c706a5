"""Independent brute force for the zoo's divergence and syntactic additions (cross-checks only): Renyi divergences in
floats, the hockey-stick and total variation by enumerating every event, p of p-sensitive k-anonymity counted per
class. The compared distributions are :func:`brute._pairs_of`'s (literally, from the rows)."""

from __future__ import annotations

from fractions import Fraction

from brute import INF, _pairs_of, groups, mean


def renyi_float(x, y, alpha):
    """D_alpha(x || y) in floats for a real order alpha > 1 (``math.inf``: the largest log ratio); INF where
    x > 0 = y; for cross-checking exact levels only."""
    import math
    if any(a > 0 and b == 0 for a, b in zip(x, y)):
        return INF
    if alpha == INF:
        return max(math.log(float(a) / float(b)) for a, b in zip(x, y) if a > 0)
    s = sum(float(a) ** alpha * float(b) ** (1 - alpha) for a, b in zip(x, y) if a > 0)
    return math.log(s) / (alpha - 1)


def event_gap(x, y, g=1):
    """max over every event B (a set of buckets, the empty one included) of x(B) - g y(B): the hockey-stick
    divergence at g, and at g = 1 the total variation, by enumerating the events (exact for a rational g, floats
    otherwise)."""
    m = len(x)
    best = 0
    for bits in range(1 << m):
        idx = [l for l in range(m) if bits >> l & 1]
        best = max(best, sum((x[l] for l in idx), Fraction(0)) - g * sum((y[l] for l in idx), Fraction(0)))
    return best


def level_over(fn, rows, compares, classes=None):
    """The largest ``fn(x, y)`` over the compared distributions (:func:`_pairs_of`)."""
    return max(fn(x, y) for x, y in _pairs_of(rows, compares, classes))


def p_sensitive(rows, classes, k):
    """p of p-sensitive k-anonymity: the fewest distinct values (buckets of positive mean) in a class, when every
    class has at least k records; 0 (no p holds) otherwise."""
    idx = groups(classes)
    if min(len(g) for g in idx) < k:
        return 0
    return min(sum(1 for l in range(len(rows[0])) if mean(rows, g, l) > 0) for g in idx)
