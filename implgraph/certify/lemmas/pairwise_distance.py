"""The lemma ``pairwise-distance``: a class's total variation distance under pairwise ratios.

A a pairwise level <= T, B the total variation distance of a class's distribution from the table's
(``B["distance"] == "total-variation"``) over classes of >= s records (``B["min_class"]``, no
``max_class``; s >= 1, 2 s <= N): ``U = (N - s)(T - 1)/(N (T + 1))`` (checked as a quotient). For a
class E of e records (s <= e <= N - s) and the buckets S where E lies above the table, let X and Y
(``b_`` and ``a_``, in [0, 1]) be the means on S of E's records and of the other records: the
table's mass on S is P = (e X + (N - e) Y)/N, so B's distance for E is X - P = (N - e)(X - Y)/N.
Each record of E and each other record are within ratio T on S and on its complement (A's bucket
ratios, a mediant), and averaging over the pairs gives X <= T Y and T (1 - X) >= 1 - Y. *pairs*
``(N - s)(T - 1) - (T + 1)(N - e)(X - Y) >= 0`` (multipliers N - e, N - e and T - 1 on those two
and ``e - s >= 0``), i.e. N (T + 1)(U - (X - P)) >= 0. U >= 0.
"""

from __future__ import annotations

from implgraph.certify.lemmas import lemma
from implgraph.certify.obligation import Obligation, existence, integer_valued, multipliers, two_sided, upper_is
from implgraph.core import methods


def _pairwise_distance_structure(cert, A, B, rd):
    T, N = rd.gens["T"], rd.gens["N"]
    s = rd.poly(B.get("min_class") or "1")
    upper_ok = upper_is(cert, rd, (N - s) * (T - 1), N * (T + 1))
    return [("A is pairwise, B a class's total variation distance", A.get("family") == "pairwise" and two_sided(A)
             and A.get("distance") is None and A.get("slack") is None and B.get("family") == "class"
             and B.get("distance") == "total-variation" and B.get("max_class") is None),
            ("U = (N - s)(T - 1)/(N (T + 1))", upper_ok),
            ("s is an integer (integer coefficients, integer symbols)",
             integer_valued([s], cert.get("symbols") or {}))]


def _pairwise_distance(cert, A, B, rd, data):
    """The obligations of ``pairwise-distance`` (see the module notes)."""
    g = rd.gens
    T, N, e, Y, X = g["T"], g["N"], g["e_"], g["a_"], g["b_"]
    s = rd.poly(B.get("min_class") or "1")
    exists = [(">=", s - 1), (">=", N - 2 * s), (">=", T - 1)]
    on_s, on_rest = T * Y - X, T * (1 - X) - (1 - Y)
    facts = {"A on S: T*Y - X >= 0": on_s, "A on the rest: T*(1 - X) - (1 - Y) >= 0": on_rest, "e - s >= 0": e - s}
    hyps = exists + [(">=", e - s), (">=", N - e - s), (">=", X), (">=", 1 - X), (">=", Y), (">=", 1 - Y),
                     (">=", on_s), (">=", on_rest)]
    return existence(s, N, 2) + [
        Obligation("pairs: (N - s)*(T - 1) - (T + 1)*(N - e)*(X - Y) >= 0 (X - P <= U)",
                   (N - s) * (T - 1) - (T + 1) * (N - e) * (X - Y), hyps, facts=facts,
                   multipliers=multipliers(data, rd).get("pairs")),
        Obligation("U >= 0: (N - s)*(T - 1) >= 0", (N - s) * (T - 1), exists),
    ]


lemma(methods.PAIRWISE_DISTANCE, structure=_pairwise_distance_structure, obligations=_pairwise_distance)
