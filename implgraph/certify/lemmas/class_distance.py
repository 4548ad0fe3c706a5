"""The lemma ``class-distance``: a class's total variation distance under a two-sided class ratio.

A a two-sided class level <= T, B the total variation distance of a class's distribution from the
table's (``B["distance"] == "total-variation"``), on the same partition into >= 2 classes of >= s
records (one ``min_class``, no ``max_class``; s >= 1, 2 s <= N):
``U = Min((T - 1)/(T + 1), (N - s)(T - 1)/(N T))`` (checked component by component; U may be one
component alone). For a class E of e records (s <= e <= N - s) let S be the buckets where E's
distribution lies above the table's, x = E's mass on S and P = the table's (``b_`` and ``a_``,
both in [0, 1]): B's distance for E is x - P. A ratio of sums of numbers each within [1/T, T] of
its partner lies within [1/T, T] (a mediant), so A gives x <= T P (S), T (1 - x) >= 1 - P (the
complement of S) and, for every other class, a mass on S >= P/T; those classes hold the other
N - e records, so T (N P - e x) >= (N - e) P. *near* ``(T - 1) - (T + 1)(x - P) >= 0``
(multipliers 1 and 1 on the first two premises), *far* ``(N - s)(T - 1) - N T (x - P) >= 0``
(multipliers 1 on the third, N - e on the second and T - 1 on ``e - s >= 0``). Each component is
>= 0 (a distance is >= 0).
"""

from __future__ import annotations

from implgraph.certify.lemmas import lemma
from implgraph.certify.obligation import (Obligation, class_mass_setting, existence, min_of, multipliers,
                                         same_partition, two_sided)
from implgraph.core import methods


def _class_distance_components(cert, A, rd):
    """U's components (T - 1)/(T + 1) and (N - s)(T - 1)/(N T), in either order; None if U is not that Min."""
    T, N = rd.gens["T"], rd.gens["N"]
    s = rd.poly(A.get("min_class") or "1")
    return min_of(cert, rd, (T - 1, T + 1), ((N - s) * (T - 1), N * T))


def _class_distance_structure(cert, A, B, rd):
    return [("A is a two-sided class level, B a class's total variation distance",
             A.get("family") == "class" and two_sided(A) and A.get("distance") is None
             and B.get("family") == "class" and B.get("distance") == "total-variation"),
            ("U = Min((T - 1)/(T + 1), (N - s)(T - 1)/(N T))", _class_distance_components(cert, A, rd) is not None),
            *same_partition(A, B, cert, rd)]


def _class_distance(cert, A, B, rd, data):
    """The obligations of ``class-distance`` (see the module notes)."""
    T, N, e, P, x, s, exists = class_mass_setting(A, rd)
    mults = multipliers(data, rd)
    on_s, on_rest = T * P - x, T * (1 - x) - (1 - P)
    others = T * N * P - T * e * x - (N - e) * P
    near = {"A on S: T*P - x >= 0": on_s, "A on the rest: T*(1 - x) - (1 - P) >= 0": on_rest}
    far = {"other classes: T*N*P - T*e*x - (N - e)*P >= 0": others,
           "A on the rest: T*(1 - x) - (1 - P) >= 0": on_rest, "e - s >= 0": e - s}
    hyps = exists + [(">=", e - s), (">=", N - e - s), (">=", P), (">=", 1 - P), (">=", x), (">=", 1 - x),
                     (">=", on_s), (">=", on_rest), (">=", others)]
    return existence(s, N, 2) + [
        Obligation("near: (T - 1) - (T + 1)*(x - P) >= 0 (x - P <= (T - 1)/(T + 1))",
                   (T - 1) - (T + 1) * (x - P), hyps, facts=near, multipliers=mults.get("near")),
        Obligation("far: (N - s)*(T - 1) - N*T*(x - P) >= 0 (x - P <= (N - s)(T - 1)/(N T))",
                   (N - s) * (T - 1) - N * T * (x - P), hyps, facts=far, multipliers=mults.get("far")),
        Obligation("U >= 0: T - 1 >= 0", T - 1, exists),
        Obligation("U >= 0: (N - s)*(T - 1) >= 0", (N - s) * (T - 1), exists),
    ]


lemma(methods.CLASS_DISTANCE, structure=_class_distance_structure, obligations=_class_distance)
