"""The lemma ``class-mass`` (method ``class-to-subset``, docs/proofs/class-to-subset.md).

A two-sided class level <= T with >= 2 classes of >= s records (``A["min_class"]``, no
``max_class``; a partition exists only where s >= 1 and N - 2 s >= 0, premises of every
obligation) bounds the two-sided subset level of size N - 1 by ``U = (N - 1) T / s`` (checked as
a quotient). Per bucket with mean m = 1 (ratios are scale free): a set of N - 1 records misses
one record r of a class E of e records; r's value is at most E's sum, and the other classes hold
N - e >= s records with means >= 1/T, so the N - 1 values sum to L with T L >= N - e. *lower*
``T L - s >= 0`` (multipliers on ``T*L >= N - e`` and ``N - e - s >= 0``): m / mean_S =
(N - 1)/L <= U. The other ratio is mean_S / m <= N / (N - 1) (a value >= 0 dropped): *upper*
``(N - 1)^2 T - N s >= 0`` where N >= 4 (multipliers on ``T - 1 >= 0``, ``N - 2s >= 0`` and
``1``) and where N = 3 (then s = 1: s is an integer, checked, with 1 <= s <= 3/2); where N = 2
the two classes are single records and S is the other one, a class, so mean_S / m <= T:
*pair* ``(N - 1 - s) T >= 0`` (multipliers on ``N - 2s >= 0`` and ``N - 2 == 0``), U >= T.
"""

from __future__ import annotations

from implgraph.certify.lemmas import lemma
from implgraph.certify.obligation import Obligation, existence, integer_valued, multipliers, size, two_sided, upper_is
from implgraph.core import methods


def _class_mass_structure(cert, A, B, rd):
    """The shape of ``class-mass``: the sides, B's size N - 1, U = (N - 1) T / s, s an integer."""
    T, N = rd.gens["T"], rd.gens["N"]
    s = rd.poly(A.get("min_class") or "1")
    upper_ok = upper_is(cert, rd, (N - 1) * T, s)
    return [("A is a two-sided class level without a maximum class size, B a two-sided subset level",
             A["family"] == "class" and A.get("max_class") is None and B["family"] == "subset" and two_sided(A)
             and two_sided(B)),
            ("B's subset size is N - 1", B.get("size") is not None and size(B, rd) == N - 1),
            ("U = (N - 1) T / s", upper_ok),
            ("s is an integer (integer coefficients, integer symbols)", integer_valued([s], cert.get("symbols") or {}))]


def _class_mass(cert, A, B, rd, data):
    """The obligations of ``class-mass`` (see the module notes)."""
    g = rd.gens
    T, N, L, e = g["T"], g["N"], g["a_"], g["e_"]
    s = rd.poly(A.get("min_class") or "1")
    exists = [(">=", s - 1), (">=", N - 2 * s)]
    mults = multipliers(data, rd)
    lower = {"T*L >= N - e": T * L - N + e, "N - e - s >= 0": N - e - s}
    upper = {"T - 1 >= 0": T - 1, "N - 2s >= 0": N - 2 * s, "1": rd.poly("1")}
    pair = {"N - 2s >= 0": N - 2 * s, "N - 2 == 0": N - 2}
    return existence(s, N, 2) + [
        Obligation("lower: T*L - s >= 0 (m / mean_S <= (N - 1) T / s)", T * L - s,
                   exists + [(">=", f) for f in lower.values()], facts=lower, multipliers=mults.get("lower")),
        Obligation("upper: (N - 1)^2 T - N s >= 0 where N >= 4", (N - 1) ** 2 * T - N * s,
                   exists + [(">=", N - 4), (">=", T - 1)], facts=upper, multipliers=mults.get("upper")),
        Obligation("upper: (N - 1)^2 T - N s >= 0 where N = 3 (s = 1, an integer in [1, 3/2])",
                   (N - 1) ** 2 * T - N * s, exists + [("==", N - 3), ("==", s - 1)]),
        Obligation("pair: (N - 1 - s) T >= 0 where N = 2 (singleton classes: mean_S / m <= T <= U)",
                   (N - 1 - s) * T, exists + [("==", N - 2)], facts=pair, multipliers=mults.get("pair")),
    ]


lemma(methods.CLASS_TO_SUBSET, structure=_class_mass_structure, obligations=_class_mass)
