"""The lemma ``one-sided-distance``: a class's distance under a one-sided class ratio.

A a one-sided class level <= T, B the total variation distance of a class's distribution from the table's
(``B["distance"] == "total-variation"``), on the same partition into >= 2 classes of >= s records (one
``min_class``, no ``max_class``; s >= 1, 2 s <= N): ``U = Min((N - s)(T - 1)/N, (T - 1)/T, (N - s)/N)``
(any of its components, in any order: each is an upper bound by its own obligation). For a class E of e
records (s <= e <= N - s), the buckets S where E lies above the table, E's mass x and the table's P on S
(``b_``, ``a_``): A gives x <= T P on S (a mediant of one-sided ratios) and, for the other classes on the
complement, (T - 1)(N - e)(1 - P) - e (x - P) >= 0; the other records' mass is N P - e x >= 0.
*near* ``(T - 1) - T (x - P) >= 0`` (multipliers 1, T - 1 on ``T P - x`` and ``1 - x``), *spread*
``(N - s)(T - 1) - N (x - P) >= 0`` (N - e, 1, T - 1 on ``T P - x``, the complement and ``e - s``), *mass*
``(N - s) - N (x - P) >= 0`` (1, N - e, 1 on ``N P - e x``, ``1 - x`` and ``e - s``).
"""

from __future__ import annotations

from implgraph.certify.lemmas import lemma
from implgraph.certify.obligation import (Obligation, class_mass_setting, components_among, existence, multipliers,
                                         same_partition)
from implgraph.core import methods


def _one_sided_distance_structure(cert, A, B, rd):
    T, N = rd.gens["T"], rd.gens["N"]
    s = rd.poly(B.get("min_class") or "1")
    one = rd.poly("1")
    return [("A is a one-sided class level, B a class's total variation distance",
             A.get("family") == "class" and A.get("sides") == "one-sided" and A.get("distance") is None
             and B.get("family") == "class" and B.get("distance") == "total-variation"),
            ("U = Min((N - s)(T - 1)/N, (T - 1)/T, (N - s)/N), or some of its components",
             components_among(cert, rd, [((N - s) * (T - 1), N), (T - 1, T), (N - s, N * one)])),
            *same_partition(A, B, cert, rd)]


def _one_sided_distance(cert, A, B, rd, data):
    """The obligations of ``one-sided-distance`` (see the module notes)."""
    T, N, e, P, x, s, exists = class_mass_setting(B, rd)
    mults = multipliers(data, rd)
    on_s, rest, others = T * P - x, (T - 1) * (N - e) * (1 - P) - e * (x - P), N * P - e * x
    hyps = exists + [(">=", e - s), (">=", N - e - s), (">=", P), (">=", 1 - P), (">=", x), (">=", 1 - x),
                     (">=", on_s), (">=", rest), (">=", others)]
    near = {"A on S: T*P - x >= 0": on_s, "1 - x >= 0": 1 - x}
    spread = {"A on S: T*P - x >= 0": on_s,
              "other classes on the rest: (T - 1)*(N - e)*(1 - P) - e*(x - P) >= 0": rest, "e - s >= 0": e - s}
    mass = {"other records on S: N*P - e*x >= 0": others, "1 - x >= 0": 1 - x, "e - s >= 0": e - s}
    return existence(s, N, 2) + [
        Obligation("near: (T - 1) - T*(x - P) >= 0 (x - P <= (T - 1)/T)", (T - 1) - T * (x - P), hyps,
                   facts=near, multipliers=mults.get("near")),
        Obligation("spread: (N - s)*(T - 1) - N*(x - P) >= 0 (x - P <= (N - s)(T - 1)/N)",
                   (N - s) * (T - 1) - N * (x - P), hyps, facts=spread, multipliers=mults.get("spread")),
        Obligation("mass: (N - s) - N*(x - P) >= 0 (x - P <= (N - s)/N)", (N - s) - N * (x - P), hyps,
                   facts=mass, multipliers=mults.get("mass")),
        Obligation("T > 0 (a denominator)", T, exists, strict=True),
        Obligation("U >= 0: (N - s)*(T - 1) >= 0", (N - s) * (T - 1), exists),
    ]


lemma(methods.ONE_SIDED_DISTANCE, structure=_one_sided_distance_structure, obligations=_one_sided_distance)
