"""The lemma ``class-size``: A's level is the smallest class's size.

A's *registered* definition declares that its level is the size of its smallest class
(``ClassSizeLevel()``; the checker reads the registry, not the certificate), with no other class size on
its side (``min_class`` 1, no ``max_class``): at level T (an integer) every
class has >= T records, and a partition into >= 2 classes exists only where 2 T <= N (a class of e records
leaves N - e >= T to the others; the domain has T >= 1 and 2 T <= N). B a class level on any partition
(``min_class`` 1, no ``max_class``): a one-sided ratio, U = N/T, *mass* ``N e - T L >= 0`` (as in
``set-mass`` with s = T), or the total variation distance, U = (N - T)/N, *mass*
``(N - T) - N (x - P) >= 0`` (as in ``same-distance`` with s = T).
"""

from __future__ import annotations

from implgraph.certify.lemmas import lemma
from implgraph.certify.lemmas.one_sided_ceiling import _set_mass_of
from implgraph.certify.lemmas.same_distance import _distance_mass_of
from implgraph.certify.obligation import any_partition, upper_is
from implgraph.certify.registered import registered
from implgraph.core import methods


def _class_size_structure(cert, A, B, rd):
    """The shape of ``class-size``: A's registered definition declares a class-size level; B a one-sided class
    ratio or the total variation distance, on any partition; U = N/T or (N - T)/N; T an integer."""
    from implgraph.definitions.capabilities import ClassSizeLevel
    T, N = rd.gens["T"], rd.gens["N"]
    d = registered(A.get("definition"))
    distance = B.get("distance")
    b_ok = (B.get("family") == "class" and any_partition(B, rd)
            and (distance == "total-variation" or (distance is None and B.get("sides") == "one-sided")))
    upper_ok = upper_is(cert, rd, *((N - T, N) if distance is not None else (N, T)))
    return [("A's registered definition declares a class-size level, on any partition", d is not None
             and d.has(ClassSizeLevel) and not A.get("params") and any_partition(A, rd)),
            ("B is a one-sided class ratio or the total variation distance, on any partition", b_ok),
            ("T is an integer", (cert.get("symbols") or {}).get("T") == "integer"),
            ("U = (N - T)/N (a distance) or N/T (a ratio)", upper_ok)]


def _class_size(cert, A, B, rd, data):
    """The obligations of ``class-size`` (see the module notes): ``set-mass``'s or ``same-distance``'s with s = T."""
    T = rd.gens["T"]
    return _set_mass_of(T, rd, data, 2) if B.get("distance") is None else _distance_mass_of(T, rd, data)


lemma(methods.CLASS_SIZE, structure=_class_size_structure, obligations=_class_size)
