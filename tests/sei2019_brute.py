"""sei2019's set channel and the posterior EMD of its released sets, by brute force.

Independent of the engine: no import from :mod:`implgraph`. The channel's draw (Section V-B) is enumerated
literally: with probability ``p`` the true value plus each ``(eta - 1)``-subset of the other values, equally
likely; otherwise each ``eta``-subset of the domain, equally likely. The posterior is Bayes' theorem on that
table and the EMD the closed forms of Li et al. 2007 (as in :mod:`brute`): equal ground distance, half the L1
distance; ordered ``|i - k|/(d - 1)``, the sum of the absolute cumulative differences over ``d - 1``.
"""

from __future__ import annotations

import itertools
from fractions import Fraction


def channel(d: int, p, eta: int) -> dict:
    """``{(v, Z): Pr(Z | v)}`` for every value ``v`` and released set ``Z`` (a sorted tuple)."""
    p = Fraction(p)
    out = {}
    for v in range(d):
        others = [u for u in range(d) if u != v]
        heads = list(itertools.combinations(others, eta - 1))
        for rest in heads:
            z = tuple(sorted((v,) + rest))
            out[v, z] = out.get((v, z), Fraction(0)) + p / len(heads)
        tails = list(itertools.combinations(range(d), eta))
        for z in tails:
            out[v, z] = out.get((v, z), Fraction(0)) + (1 - p) / len(tails)
    return out


def emd(a, b, ground="equal") -> Fraction:
    r = [x - y for x, y in zip(a, b)]
    if len(r) == 1:
        return Fraction(0)
    if ground == "equal":
        return sum((abs(x) for x in r), Fraction(0)) / 2
    return sum((abs(sum(r[:i + 1], Fraction(0))) for i in range(len(r))), Fraction(0)) / (len(r) - 1)


def worst_emd(counts, p, eta, ground="equal") -> Fraction:
    """The largest EMD between the prior and the posterior of a set released with positive probability."""
    n, d = sum(counts), len(counts)
    prior = [Fraction(c, n) for c in counts]
    table = channel(d, p, eta)
    worst = Fraction(0)
    for z in itertools.combinations(range(d), eta):
        joint = [prior[v] * table.get((v, z), 0) for v in range(d)]
        total = sum(joint)
        if total == 0:
            continue
        worst = max(worst, emd(prior, [x / total for x in joint], ground))
    return worst
