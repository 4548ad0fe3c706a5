"""The lemma ``removal-distance-pair``: the two-record piece of removal-distance.

As ``removal-distance`` (A a two-sided subset level <= T of size j, B a class's total variation distance over
any classes), on a domain where N = 2, so j = 1: ``U = (T - 1)/(2 T)`` (checked as a quotient). The classes
are the two records (one class of both is the table, at distance 0). For the class of record x1 and the
buckets S where it lies above the table, x1 (``b_``) its mass, P (``a_``) the table's and x2 = 2 P - x1 the
other record's: A bounds each record against the table, so T x2 >= P on S and T (1 - x1) >= 1 - P on the
complement (a mediant). *pair* ``(T - 1) - 2 T (x1 - P) >= 0`` (multipliers 1 and 1 on the two), i.e.
2 T (U - (x1 - P)) >= 0. U >= 0 where T >= 1.
"""

from __future__ import annotations

from implgraph.certify.lemmas import lemma
from implgraph.certify.lemmas.removal_distance import _removal_distance_structure
from implgraph.certify.obligation import Obligation, multipliers, size, upper_is
from implgraph.core import methods


def _removal_pair_structure(cert, A, B, rd):
    T = rd.gens["T"]
    return [_removal_distance_structure(cert, A, B, rd)[0], ("U = (T - 1)/(2 T)", upper_is(cert, rd, T - 1, 2 * T))]


def _removal_pair(cert, A, B, rd, data):
    """The obligations of ``removal-distance-pair`` (see the module notes)."""
    g = rd.gens
    T, N, P, x1 = g["T"], g["N"], g["a_"], g["b_"]
    j = size(A, rd)
    on_s, on_rest = T * (2 * P - x1) - P, T * (1 - x1) - (1 - P)
    facts = {"A on S: T*x2 - P >= 0": on_s, "A on the rest: T*(1 - x1) - (1 - P) >= 0": on_rest}
    hyps = [(">=", T - 1), (">=", P), (">=", 1 - P), (">=", x1), (">=", 1 - x1), (">=", on_s), (">=", on_rest)]
    return [
        Obligation("on the domain: N >= 2", N - 2), Obligation("on the domain: N <= 2", 2 - N),
        Obligation("on the domain: j >= 1", j - 1), Obligation("on the domain: j <= 1", 1 - j),
        Obligation("pair: (T - 1) - 2*T*(x1 - P) >= 0", (T - 1) - 2 * T * (x1 - P), hyps, facts=facts,
                   multipliers=multipliers(data, rd).get("pair")),
        Obligation("2 T > 0 (U's denominator)", 2 * T, [(">=", T - 1)], strict=True),
        Obligation("U >= 0: T - 1 >= 0", T - 1, [(">=", T - 1)]),
    ]


lemma(methods.REMOVAL_DISTANCE_PAIR, structure=_removal_pair_structure, obligations=_removal_pair)
