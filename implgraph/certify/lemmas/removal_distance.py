"""The lemma ``removal-distance``: a class's distance under record removal.

A a two-sided subset level <= T of size j (``A["size"]``; the domain gives 1 <= j <= N - 1; j = N - 1 is
record removal), B the total variation
distance of a class's distribution from the table's (``B["distance"] == "total-variation"``) over any
classes (``min_class`` 1, no ``max_class``): ``U = Min((N - 1)(T - 1)/(T + 1), (N - 1)(T - 1)/(N T - N + 1))``
(checked component by component, in either order; U may be one alone). For a class E and the buckets S
where E lies above the table, E's mass on S is at most the largest record's, M (``b_``, in [0, 1]), so B's
distance for E is at most M - P, P the table's mass (``a_``). The N - 1 other records form a set A bounds (a
set of >= j records has its mean between the means of the j smallest and of the j largest values):
their mean on S, (N P - M)/(N - 1), is >= P/T, and on the complement, (N (1 - P) - (1 - M))/(N - 1), is
<= T (1 - P) (each a mediant of A's bucket ratios). *near* ``(N - 1)(T - 1) - (T + 1)(M - P) >= 0``
(multipliers 1 and 1 on the two), *far* ``(N - 1)(T - 1) - (N T - N + 1)(M - P) >= 0`` (multipliers 1 on
the first and (N - 1)(T - 1) on ``1 - M >= 0``). Both denominators are > 0 and U >= 0 where T >= 1.
"""

from __future__ import annotations

from implgraph.certify.lemmas import lemma
from implgraph.certify.obligation import Obligation, any_partition, integer_valued, min_of, multipliers, size, two_sided
from implgraph.core import methods


def _removal_distance_components(cert, rd):
    """U's components (N - 1)(T - 1)/(T + 1) and (N - 1)(T - 1)/(N T - N + 1), in either order; None otherwise."""
    T, N = rd.gens["T"], rd.gens["N"]
    return min_of(cert, rd, ((N - 1) * (T - 1), T + 1), ((N - 1) * (T - 1), N * T - N + 1))


def _removal_distance_structure(cert, A, B, rd):
    return [("A is a two-sided subset level, B a class's total variation distance over any classes",
             A.get("family") == "subset" and two_sided(A) and A.get("distance") is None and A.get("slack") is None
             and size(A, rd) is not None and B.get("family") == "class" and B.get("distance") == "total-variation"
             and any_partition(B, rd)),
            ("U = Min((N - 1)(T - 1)/(T + 1), (N - 1)(T - 1)/(N T - N + 1))",
             _removal_distance_components(cert, rd) is not None),
            ("j is an integer (integer coefficients, integer symbols)",
             size(A, rd) is not None and integer_valued([size(A, rd)], cert.get("symbols") or {}))]


def _removal_distance(cert, A, B, rd, data):
    """The obligations of ``removal-distance`` (see the module notes)."""
    g = rd.gens
    T, N, P, M = g["T"], g["N"], g["a_"], g["b_"]
    j = size(A, rd)
    exists = [(">=", N - 2), (">=", T - 1)]
    mults = multipliers(data, rd)
    on_s = T * (N * P - M) - (N - 1) * P
    on_rest = (N - 1) * T * (1 - P) - N * (1 - P) + (1 - M)
    near = {"without M on S: T*(N*P - M) - (N - 1)*P >= 0": on_s,
            "without M on the rest: (N - 1)*T*(1 - P) - N*(1 - P) + (1 - M) >= 0": on_rest}
    far = {"without M on S: T*(N*P - M) - (N - 1)*P >= 0": on_s, "1 - M >= 0": 1 - M}
    hyps = exists + [(">=", P), (">=", 1 - P), (">=", M), (">=", 1 - M), (">=", on_s), (">=", on_rest)]
    return [
        Obligation("on the domain: N >= 2", N - 2),
        Obligation("on the domain: j >= 1", j - 1), Obligation("on the domain: j <= N - 1", N - 1 - j),
        Obligation("near: (N - 1)*(T - 1) - (T + 1)*(M - P) >= 0", (N - 1) * (T - 1) - (T + 1) * (M - P), hyps,
                   facts=near, multipliers=mults.get("near")),
        Obligation("far: (N - 1)*(T - 1) - (N*T - N + 1)*(M - P) >= 0",
                   (N - 1) * (T - 1) - (N * T - N + 1) * (M - P), hyps, facts=far, multipliers=mults.get("far")),
        Obligation("N*T - N + 1 > 0 (the second component's denominator)", N * T - N + 1, exists, strict=True),
        Obligation("U >= 0: (N - 1)*(T - 1) >= 0", (N - 1) * (T - 1), exists),
    ]


lemma(methods.REMOVAL_DISTANCE, structure=_removal_distance_structure, obligations=_removal_distance)
