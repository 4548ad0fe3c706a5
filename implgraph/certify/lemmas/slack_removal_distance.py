"""The lemma ``slack-removal-distance``: a class's distance under an additive slack on removal.

As ``removal-distance`` with A's constraints ``a <= T b + delta`` between the table and the table without one record,
both ways, on every event (``A["slack"]``, ``compares == "removal"``, delta in [0, 1)), B a class's total variation
distance over any classes: without the record of the largest mass M on S, T (N P - M) >= (N - 1)(P - delta) on S
and (N - 1) T (1 - P) + (N - 1) delta >= N (1 - P) - (1 - M) on the complement.
``U = Min((N - 1)(T - 1 + delta)/(N T - N + 1), (N - 1)(T - 1 + 2 delta)/(T + 1), (N - 1)/N)`` (any of the three
components, or the Min of several). *near* ``(N - 1)(T - 1 + 2 delta) - (T + 1)(M - P) >= 0`` (multipliers 1, 1),
*far* ``(N - 1)(T - 1 + delta) - (N T - N + 1)(M - P) >= 0`` (1 on the first, (N - 1)(T - 1) on 1 - M >= 0),
*mass* ``(N - 1) - N (M - P) >= 0`` (1 on the other records' mass N P - M >= 0, N - 1 on 1 - M >= 0).
"""

from __future__ import annotations

from implgraph.certify.lemmas import lemma
from implgraph.certify.obligation import Obligation, any_partition, components_among, multipliers, slack
from implgraph.core import methods


def _slack_removal_structure(cert, A, B, rd):
    T, N = rd.gens["T"], rd.gens["N"]
    d = slack(A, "removal")
    ok = d is not None and components_among(cert, rd, [((N - 1) * (T - 1 + d), N * T - N + 1),
                                                        ((N - 1) * (T - 1 + 2 * d), T + 1), (N - 1, N)])
    return [("A compares the table without one record with a slack delta in [0, 1), B a class's total variation "
             "distance over any classes", d is not None and B.get("family") == "class"
             and B.get("distance") == "total-variation" and any_partition(B, rd)),
            ("U = Min((N - 1)(T - 1 + delta)/(N T - N + 1), (N - 1)(T - 1 + 2 delta)/(T + 1), (N - 1)/N), or some of "
             "them", ok)]


def _slack_removal(cert, A, B, rd, data):
    """The obligations of ``slack-removal-distance`` (see the module notes)."""
    g = rd.gens
    T, N, P, M = g["T"], g["N"], g["a_"], g["b_"]
    d = slack(A, "removal")
    exists = [(">=", N - 2), (">=", T - 1)]
    mults = multipliers(data, rd)
    on_s = T * (N * P - M) - (N - 1) * (P - d)
    on_rest = (N - 1) * T * (1 - P) - N * (1 - P) + (1 - M) + (N - 1) * d
    others = N * P - M
    s_fact, r_fact = ("without M on S: T*(N*P - M) - (N - 1)*(P - delta) >= 0",
                      "without M on the rest: (N - 1)*T*(1 - P) - N*(1 - P) + (1 - M) + (N - 1)*delta >= 0")
    hyps = exists + [(">=", P), (">=", 1 - P), (">=", M), (">=", 1 - M), (">=", on_s), (">=", on_rest),
                     (">=", others)]
    return [
        Obligation("on the domain: N >= 2", N - 2),
        Obligation("near: (N - 1)*(T - 1 + 2*delta) - (T + 1)*(M - P) >= 0",
                   (N - 1) * (T - 1 + 2 * d) - (T + 1) * (M - P), hyps,
                   facts={s_fact: on_s, r_fact: on_rest}, multipliers=mults.get("near")),
        Obligation("far: (N - 1)*(T - 1 + delta) - (N*T - N + 1)*(M - P) >= 0",
                   (N - 1) * (T - 1 + d) - (N * T - N + 1) * (M - P), hyps,
                   facts={s_fact: on_s, "1 - M >= 0": 1 - M}, multipliers=mults.get("far")),
        Obligation("mass: (N - 1) - N*(M - P) >= 0", (N - 1) - N * (M - P), hyps,
                   facts={"other records on S: N*P - M >= 0": others, "1 - M >= 0": 1 - M},
                   multipliers=mults.get("mass")),
        Obligation("N*T - N + 1 > 0 (a component's denominator)", N * T - N + 1, exists, strict=True),
        Obligation("U >= 0: (N - 1)*(T - 1 + delta) >= 0", (N - 1) * (T - 1 + d), exists),
    ]


lemma(methods.SLACK_REMOVAL_DISTANCE, structure=_slack_removal_structure, obligations=_slack_removal)
