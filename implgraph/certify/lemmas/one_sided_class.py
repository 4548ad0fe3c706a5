"""The lemma ``rest-mass`` (method ``one-sided-class``): the other classes bound a class from below.

A a two-sided class level <= T, B a one-sided class level, on the same partition into >= 2 classes
of >= s records (``A["min_class"] == B["min_class"]``, no ``max_class``; s >= 1, 2 s <= N):
``U = Min(T, (N T - N + s)/(s T))`` (checked component by component; U may be one component alone). Per bucket with the table's
mean p = 1 (scale free; a bucket 0 everywhere has ratio 1 <= U, checked), a class E of e records
(s <= e <= N - s) has mean x with e x = N - (N - e) y, y the mean of the other records: each of
their classes has mean >= 1/T by A, so T y >= 1, and A bounds E's ratio, x <= T. *below T*
``T e - (N - (N - e) y) >= 0`` is that premise; *rest* ``(N T - N + s) e - s T (N - (N - e) y) >= 0``
(multipliers N (T - 1) on ``e - s >= 0`` and s (N - e) on ``T*y - 1 >= 0``).
"""

from __future__ import annotations

from implgraph.certify.lemmas import lemma
from implgraph.certify.obligation import Obligation, existence, min_of, multipliers, same_partition, two_sided
from implgraph.core import methods


def _rest_mass_components(cert, A, rd):
    """U's two components, T and (N T - N + s)/(s T), in either order; None if U is not that Min."""
    T, N = rd.gens["T"], rd.gens["N"]
    s = rd.poly(A.get("min_class") or "1")
    return min_of(cert, rd, (T, rd.poly("1")), (N * T - N + s, s * T))


def _rest_mass_structure(cert, A, B, rd):
    return [("A is a two-sided class level, B a one-sided class level", A.get("family") == "class" and two_sided(A)
             and B.get("family") == "class" and B.get("sides") == "one-sided"),
            ("U = Min(T, (N T - N + s)/(s T))", _rest_mass_components(cert, A, rd) is not None),
            *same_partition(A, B, cert, rd)]


def _rest_mass(cert, A, B, rd, data):
    """The obligations of ``rest-mass`` (see the module notes)."""
    g = rd.gens
    T, N, y, e = g["T"], g["N"], g["v_"], g["e_"]
    s = rd.poly(A.get("min_class") or "1")
    exists = [(">=", s - 1), (">=", N - 2 * s), (">=", T - 1)]
    mults = multipliers(data, rd)
    x_e = N - (N - e) * y                       # e x
    premise = {"A: T*e - e*x >= 0": T * e - x_e}
    rest = {"e - s >= 0": e - s, "T*y - 1 >= 0": T * y - 1}
    hyps = exists + [(">=", e - s), (">=", N - e - s), (">=", y), (">=", x_e), (">=", T * y - 1), (">=", T * e - x_e)]
    return existence(s, N, 2) + [
        Obligation("class size e > 0", e, exists + [(">=", e - s)], strict=True),
        Obligation("below T: T*e - e*x >= 0 (x <= T: A's bound on E)", T * e - x_e, hyps, facts=premise,
                   multipliers=mults.get("below T")),
        Obligation("rest: (N*T - N + s)*e - s*T*e*x >= 0 (x <= (N T - N + s)/(s T))",
                   (N * T - N + s) * e - s * T * x_e, hyps, facts=rest, multipliers=mults.get("rest")),
        Obligation("empty bucket: (N*T - N + s) - s*T >= 0 (ratio 1 <= U)", N * T - N + s - s * T, exists),
    ]


lemma(methods.ONE_SIDED_CLASS, structure=_rest_mass_structure, obligations=_rest_mass)
