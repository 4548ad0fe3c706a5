"""The lemma ``same-distance``: two definitions declaring the same class distance.

A and B class levels of one declared class distance, the total variation distance
(``A["distance"] == B["distance"] == "total-variation"``, each the
registered definition's at its parameters), on the same partition into >= 2 classes of >= s records
(one ``min_class``, no ``max_class``; s >= 1, 2 s <= N): the raw levels are one function of the table,
so B <= T. ``U = Min(T, (N - s)/N)`` (checked component by component; U may be one alone). For a
class E of e records (s <= e <= N - s), the buckets S where E lies above the table, E's mass x and the
table's P on S (``b_``, ``a_``): the other records' mass on S is N P - e x >= 0. *mass*
``(N - s) - N (x - P) >= 0`` (multipliers 1, N - e and 1 on that, ``1 - x >= 0`` and ``e - s >= 0``).
"""

from __future__ import annotations

from implgraph.certify.lemmas import lemma
from implgraph.certify.obligation import Obligation, existence, min_of, multipliers, same_partition
from implgraph.core import methods


def _same_distance_structure(cert, A, B, rd):
    T, N = rd.gens["T"], rd.gens["N"]
    s = rd.poly(B.get("min_class") or "1")
    return [("A and B are class levels of one declared distance, the total variation distance",
             A.get("family") == "class" == B.get("family")
             and A.get("distance") == B.get("distance") == "total-variation"),
            ("U = Min(T, (N - s)/N)", min_of(cert, rd, (T, rd.poly("1")), (N - s, N)) is not None),
            *same_partition(A, B, cert, rd)]


def _same_distance(cert, A, B, rd, data):
    """The obligations of ``same-distance`` (see the module notes)."""
    return _distance_mass_of(rd.poly(B.get("min_class") or "1"), rd, data)


def _distance_mass_of(s, rd, data):
    """``same-distance``'s obligation for classes of >= s records: x - P <= (N - s)/N from the others' mass."""
    g = rd.gens
    T, N, e, P, x = g["T"], g["N"], g["e_"], g["a_"], g["b_"]
    exists = [(">=", s - 1), (">=", N - 2 * s), (">=", T)]
    others = N * P - e * x
    facts = {"other records on S: N*P - e*x >= 0": others, "1 - x >= 0": 1 - x, "e - s >= 0": e - s}
    hyps = exists + [(">=", e - s), (">=", N - e - s), (">=", P), (">=", 1 - P), (">=", x), (">=", 1 - x),
                     (">=", others)]
    return existence(s, N, 2) + [
        Obligation("mass: (N - s) - N*(x - P) >= 0 (x - P <= (N - s)/N)", (N - s) - N * (x - P), hyps,
                   facts=facts, multipliers=multipliers(data, rd).get("mass")),
        Obligation("U >= 0: N - s >= 0", N - s, exists),
    ]


lemma(methods.SAME_DISTANCE, structure=_same_distance_structure, obligations=_same_distance)
