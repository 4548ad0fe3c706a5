"""The lemma ``max-value`` (method ``subset-to-one-sided``): a class mean is at most the bucket's largest value.

A a two-sided subset level <= T of size j (``A["size"]``; the domain gives 1 <= j <= N - 1), B a
one-sided class level (any class sizes) or a one-sided subset level of size 1 (one record against the table):
``U = Min(N - (N - 1)/T, (j T (N - 1) - (j - 1) N)/(N - j))``
(checked component by component, in either order; U may be one component alone, which the prover writes
where the domain makes it the smaller). Per bucket with mean p = 1 and largest value M
(every class mean, and every record's value, is <= M): the other N - 1 values are the N - 1 smallest, with mean >= the j
smallest's >= 1/T (``extreme-means-monotone`` and A), so *all* ``T (N - M) - (N - 1) >= 0``; the
j - 1 largest of them have mean H >= their mean (N - M)/(N - 1) (``extreme-means-monotone``) and
M + (j - 1) H <= j T (A), so *j largest* ``j T (N - 1) - (j - 1) N - (N - j) M =
(N - 1) (j T - (j - 1) H - M) + (j - 1) ((N - 1) H - (N - M)) >= 0``, with N - j > 0; each component
is >= 1 (a bucket 0 everywhere has ratio 1).

A a one-sided subset level <= T of size j (every mean of j records is <= T, none bounded below): the *j largest*
obligation, which reads A's upper side only, and *mass* ``N - M >= 0`` (the other values are >= 0, the bucket sums
to N): ``U = Min((j T (N - 1) - (j - 1) N)/(N - j), N)`` (or either alone; the first component of the two-sided
case needs A's lower side and is refused).
"""

from __future__ import annotations

from implgraph.certify.lemmas import lemma
from implgraph.certify.obligation import Obligation, min_of, multipliers, size, two_sided
from implgraph.core import methods


def _max_value_components(cert, A, rd):
    """U's components N - (N - 1)/T and (j T (N - 1) - (j - 1) N)/(N - j), as ``(P, Q)`` in that order;
    None otherwise. A one-sided A: U must be the second component alone."""
    T, N = rd.gens["T"], rd.gens["N"]
    j = size(A, rd)
    if j is None:
        return None
    second = (j * T * (N - 1) - (j - 1) * N, N - j)
    if A.get("sides") == "one-sided":
        return min_of(cert, rd, second, (N, N ** 0))
    return min_of(cert, rd, (N * T - N + 1, T), second)


def _one_record_or_class(B, rd) -> bool:
    """Is B one-sided over classes, or over subsets of exactly 1 record (a mean that is one value)?"""
    if B.get("sides") != "one-sided":
        return False
    if B.get("family") == "class":
        return True
    return B.get("family") == "subset" and B.get("size") is not None and size(B, rd) == rd.poly("1")


def _max_value_structure(cert, A, B, rd):
    return [("A is a subset level (two-sided, or one-sided), B a one-sided class level or one record against the "
             "table", A.get("family") == "subset" and (two_sided(A) or A.get("sides") == "one-sided")
             and A.get("size") is not None and _one_record_or_class(B, rd)),
            ("U = Min(N - (N - 1)/T, (j T (N - 1) - (j - 1) N)/(N - j)); Min((j T (N - 1) - (j - 1) N)/(N - j), N) "
             "where A is one-sided", _max_value_components(cert, A, rd) is not None)]


def _max_value(cert, A, B, rd, data):
    """The obligations of ``max-value`` (see the module notes)."""
    g = rd.gens
    T, N, M, H = g["T"], g["N"], g["b_"], g["a_"]
    j = size(A, rd)
    mults = multipliers(data, rd)
    exists = [(">=", j - 1), (">=", N - 1 - j), (">=", T - 1)]
    alls = {"T*(N - M) - (N - 1) >= 0": T * (N - M) - (N - 1)}
    top = {"j*T - (j - 1)*H - M >= 0": j * T - (j - 1) * H - M, "(N - 1)*H - (N - M) >= 0": (N - 1) * H - (N - M)}
    hyps = exists + [(">=", f) for f in (*alls.values(), *top.values())]
    second = j * T * (N - 1) - (j - 1) * N
    if A.get("sides") == "one-sided":      # the j largest alone: A's upper side
        hyps = exists + [(">=", f) for f in top.values()]
        return [Obligation("on the domain: j >= 1", j - 1), Obligation("on the domain: j <= N - 1", N - 1 - j),
                Obligation("N - j > 0 (the component's denominator)", N - j, exists, strict=True),
                Obligation("j largest: (j*T*(N - 1) - (j - 1)*N) - (N - j)*M >= 0 "
                           "(M <= (j T (N - 1) - (j - 1) N)/(N - j))", second - (N - j) * M,
                           hyps, facts=top, multipliers=mults.get("j largest")),
                Obligation("empty bucket: j*T*(N - 1) - (j - 1)*N - (N - j) >= 0", second - (N - j), exists),
                Obligation("mass: N - M >= 0 (M <= N: the other values are >= 0)", N - M,
                           exists + [(">=", N - M)], facts={"N - M >= 0": N - M}, multipliers=mults.get("mass")),
                Obligation("empty bucket: N - 1 >= 0", N - 1, exists)]
    return [Obligation("on the domain: j >= 1", j - 1), Obligation("on the domain: j <= N - 1", N - 1 - j),
            Obligation("N - j > 0 (the second component's denominator)", N - j, exists, strict=True),
            Obligation("all: (N*T - N + 1) - T*M >= 0 (M <= N - (N - 1)/T)", N * T - N + 1 - T * M, hyps,
                       facts=alls, multipliers=mults.get("all")),
            Obligation("j largest: (j*T*(N - 1) - (j - 1)*N) - (N - j)*M >= 0 "
                       "(M <= (j T (N - 1) - (j - 1) N)/(N - j))", second - (N - j) * M,
                       hyps, facts=top, multipliers=mults.get("j largest")),
            Obligation("empty bucket: N*T - N + 1 - T >= 0", N * T - N + 1 - T, exists),
            Obligation("empty bucket: j*T*(N - 1) - (j - 1)*N - (N - j) >= 0", second - (N - j), exists)]


lemma(methods.SUBSET_TO_ONE_SIDED, structure=_max_value_structure, obligations=_max_value)
