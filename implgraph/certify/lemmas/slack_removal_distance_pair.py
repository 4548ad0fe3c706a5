"""The lemma ``slack-removal-distance-pair``: the two-record piece of slack-removal-distance.

As ``slack-removal-distance`` on a domain where N = 2: ``U = Min((T - 1 + 2 delta)/(2 T), 1/2)``. *pair*
``(T - 1 + 2 delta) - 2 T (x1 - P) >= 0`` from P <= T x2 + delta on S and 1 - P <= T (1 - x1) + delta on the
complement (multipliers 1, 1), *half* ``1 - 2 (x1 - P) >= 0`` from 1 - x1 >= 0 and x2 = 2 P - x1 >= 0.
"""

from __future__ import annotations

from implgraph.certify.lemmas import lemma
from implgraph.certify.lemmas.slack_removal_distance import _slack_removal_structure
from implgraph.certify.obligation import Obligation, components_among, multipliers, slack
from implgraph.core import methods


def _slack_removal_pair_structure(cert, A, B, rd):
    T = rd.gens["T"]
    d = slack(A, "removal")
    ok = d is not None and components_among(cert, rd, [(T - 1 + 2 * d, 2 * T), (rd.poly("1"), rd.poly("2"))])
    return [_slack_removal_structure(cert, A, B, rd)[0],
            ("U = Min((T - 1 + 2 delta)/(2 T), 1/2), or one of them", ok)]


def _slack_removal_pair(cert, A, B, rd, data):
    """The obligations of ``slack-removal-distance-pair`` (see the module notes)."""
    g = rd.gens
    T, N, P, x1 = g["T"], g["N"], g["a_"], g["b_"]
    d = slack(A, "removal")
    on_s, on_rest = T * (2 * P - x1) - P + d, T * (1 - x1) - (1 - P) + d
    hyps = [(">=", T - 1), (">=", P), (">=", 1 - P), (">=", x1), (">=", 1 - x1), (">=", 2 * P - x1),
            (">=", on_s), (">=", on_rest)]
    mults = multipliers(data, rd)
    return [
        Obligation("on the domain: N >= 2", N - 2), Obligation("on the domain: N <= 2", 2 - N),
        Obligation("pair: (T - 1 + 2*delta) - 2*T*(x1 - P) >= 0", (T - 1 + 2 * d) - 2 * T * (x1 - P), hyps,
                   facts={"A on S: T*x2 - P + delta >= 0": on_s,
                          "A on the rest: T*(1 - x1) - (1 - P) + delta >= 0": on_rest},
                   multipliers=mults.get("pair")),
        Obligation("half: 1 - 2*(x1 - P) >= 0", 1 - 2 * (x1 - P), hyps,
                   facts={"1 - x1 >= 0": 1 - x1, "x2 = 2*P - x1 >= 0": 2 * P - x1}, multipliers=mults.get("half")),
        Obligation("2 T > 0 (U's denominator)", 2 * T, [(">=", T - 1)], strict=True),
        Obligation("U >= 0: T - 1 + 2*delta >= 0", T - 1 + 2 * d, [(">=", T - 1)]),
    ]


lemma(methods.SLACK_REMOVAL_DISTANCE_PAIR, structure=_slack_removal_pair_structure, obligations=_slack_removal_pair)
