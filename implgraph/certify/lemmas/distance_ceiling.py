"""The lemma ``distance-mass`` (method ``distance-ceiling``): a class of >= s records is at most (N - s)/N away.

B a class's total variation distance from the table (``B["distance"] == "total-variation"``) over classes of
>= s records (``B["min_class"]``, no ``max_class``; the domain gives s >= 1, 2 s <= N), whatever A is:
``U = (N - s)/N`` (checked as a quotient). For a class E of e >= s records, the buckets S where it lies above
the table, x its mass and P the table's there, the other records hold N P - e x >= 0 on S: *mass*
``(N - s) - N (x - P) = (N P - e x) + (N - e)(1 - x) + (e - s) >= 0`` (``same-distance``'s identity, without
A). Where A's registered definition declares a parameter a minimum class size (``MinClassSize``: its level
is infinite on a table with a smaller class) and the certificate says so (``A["min_class_param"]``), the
sides' class sizes must be that parameter's value (``A["params"]``): every table where A is finite.
"""

from __future__ import annotations

from implgraph.certify.lemmas import lemma
from implgraph.certify.lemmas.same_distance import _distance_mass_of
from implgraph.certify.obligation import integer_valued, upper_is
from implgraph.core import methods


def _distance_ceiling_structure(cert, A, B, rd):
    """The shape of ``distance-mass``: B a class's total variation distance over classes of >= s records (no
    maximum), U = (N - s)/N."""
    N = rd.gens["N"]
    s = rd.poly(B.get("min_class") or "1")
    upper_ok = upper_is(cert, rd, N - s, N)
    return [("B is a class's total variation distance, no maximum class size", B.get("family") == "class"
             and B.get("distance") == "total-variation" and B.get("max_class") is None),
            ("U = (N - s)/N", upper_ok),
            ("s is an integer (integer coefficients, integer symbols)", integer_valued([s], cert.get("symbols") or {}))]


def _distance_ceiling(cert, A, B, rd, data):
    return _distance_mass_of(rd.poly(B.get("min_class") or "1"), rd, data)


lemma(methods.DISTANCE_CEILING, structure=_distance_ceiling_structure, obligations=_distance_ceiling)
