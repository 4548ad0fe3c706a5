"""The lemma ``subset-distance``: a class's distance under a subset ratio of size j.

A a two-sided subset level <= T of size j (``A["size"]``; the domain gives 1 <= j <= N - 1), B the total variation
distance of a class's distribution from the table's over any classes. Merging the buckets S where a class lies
above the table keeps A's ratios <= T (a mediant); the class's mass on S is at most the largest record's, M
(``b_``), and B's distance for the class at most M - P = (N - 1)(M - y)/N, with y (``a_``) the mean of the other
N - 1 records and P the table's mass. The j largest values have mean H >= (M + (j - 1) y)/j and the j smallest
L <= y (``extreme-means-monotone``: j <= N - 1), so A's H <= T P and L >= P/T on S and 1 - L <= T (1 - P),
1 - H >= (1 - P)/T on the complement, and M <= 1, give, scaled by N j, the *lower* facts
``j (N (T - 1) y - (M - y)) >= 0`` (a = 1/N) and ``N j (T - 1) y - (N - T j)(M - y) >= 0`` (a = 1/j - T/N) and the
*upper* facts ``j (N (T - 1)(1 - y) - T (M - y)) >= 0`` (b = T/N), ``N j (T - 1)(1 - y) - (N T - j)(M - y) >= 0``
(b = T/j - 1/N) and ``N j (T - 1)(1 - M) >= 0`` (b = T - 1). For each pair (a, b): ``N j (T - 1) - N j (a + b)(M - y)
>= 0`` (multipliers 1 and 1), with N j (a + b) > 0, so M - P <= (N - 1)(T - 1)/(N (a + b)). ``U`` is the Min of
some of the six (checked as quotients); each is >= 0.
"""

from __future__ import annotations

import itertools

from implgraph.certify.lemmas import lemma
from implgraph.certify.obligation import (Obligation, any_partition, components_among, integer_valued, multipliers,
                                         size, two_sided)
from implgraph.core import methods


def _subset_distance_facts(j, N, T, M, y):
    """The ``subset-distance`` facts (see the module notes): ``({name: (N j a, fact)}, {name: (N j b, fact)})``."""
    D = M - y
    lower = {"the j smallest: L >= P/T": (j, j * (N * (T - 1) * y - D)),
             "the j largest: H <= T P": (N - T * j, N * j * (T - 1) * y - (N - T * j) * D)}
    upper = {"the j smallest on the complement: 1 - L <= T (1 - P)": (j * T, j * (N * (T - 1) * (1 - y) - T * D)),
             "the j largest on the complement: 1 - H >= (1 - P)/T": (N * T - j, N * j * (T - 1) * (1 - y) - (N * T - j) * D),
             "M <= 1": (N * j * (T - 1), N * j * (T - 1) * (1 - M))}
    return lower, upper


def _subset_distance_structure(cert, A, B, rd):
    T, N = rd.gens["T"], rd.gens["N"]
    j = size(A, rd)
    ok = False
    if j is not None:
        lower, upper = _subset_distance_facts(j, N, T, rd.gens["b_"], rd.gens["a_"])
        ok = components_among(cert, rd, [((N - 1) * j * (T - 1), a + b) for a, _ in lower.values()
                                          for b, _ in upper.values()])
    return [("A is a two-sided subset level, B a class's total variation distance over any classes",
             A.get("family") == "subset" and two_sided(A) and A.get("distance") is None and j is not None
             and A.get("slack") is None and B.get("family") == "class" and B.get("distance") == "total-variation" and any_partition(B, rd)),
            ("U = the Min of some of (N - 1) j (T - 1)/(N j (a + b)) over the six pairs", ok),
            ("j is an integer (integer coefficients, integer symbols)",
             j is not None and integer_valued([j], cert.get("symbols") or {}))]


def _subset_distance(cert, A, B, rd, data):
    """The obligations of ``subset-distance`` (see the module notes)."""
    g = rd.gens
    T, N, y, M = g["T"], g["N"], g["a_"], g["b_"]
    j = size(A, rd)
    lower, upper = _subset_distance_facts(j, N, T, M, y)
    exists = [(">=", N - 2), (">=", T - 1), (">=", j - 1), (">=", N - 1 - j)]
    hyps = exists + [(">=", y), (">=", 1 - y), (">=", M - y), (">=", 1 - M)] + \
        [(">=", f) for _, f in [*lower.values(), *upper.values()]]
    mults = multipliers(data, rd)
    out = [Obligation("on the domain: j >= 1", j - 1), Obligation("on the domain: j <= N - 1", N - 1 - j)]
    for (low, (a, fa)), (up, (b, fb)) in itertools.product(lower.items(), upper.items()):
        out += [Obligation(f"{low} + {up}: N j (T - 1) - N j (a + b)(M - y) >= 0",
                           N * j * (T - 1) - (a + b) * (M - y), hyps, facts={low: fa, up: fb},
                           multipliers=mults.get(f"{low} + {up}")),
                Obligation(f"{low} + {up}: N j (a + b) > 0", a + b, exists, strict=True)]
    return out + [Obligation("U >= 0: (N - 1) j (T - 1) >= 0", (N - 1) * j * (T - 1), exists)]


lemma(methods.SUBSET_DISTANCE, structure=_subset_distance_structure, obligations=_subset_distance)
