"""The lemma ``slack-pairwise-distance``: a class's distance under an additive slack on pairs.

As ``pairwise-distance`` with A's constraints ``a <= T b + delta`` between two records on every event (``A["slack"]``,
``compares == "pairs"``, delta a number in [0, 1)): averaging over the pairs, X <= T Y + delta on S and
1 - Y <= T (1 - X) + delta on its complement. ``U = (N - s)(T - 1 + 2 delta)/(N (T + 1))``. *pairs*
``(N - s)(T - 1 + 2 delta) - (T + 1)(N - e)(X - Y) >= 0`` (multipliers N - e, N - e and T - 1 + 2 delta).
"""

from __future__ import annotations

from implgraph.certify.lemmas import lemma
from implgraph.certify.obligation import Obligation, existence, integer_valued, multipliers, slack, upper_is
from implgraph.core import methods


def _slack_pairwise_structure(cert, A, B, rd):
    T, N = rd.gens["T"], rd.gens["N"]
    s = rd.poly(B.get("min_class") or "1")
    d = slack(A, "pairs")
    upper_ok = d is not None and upper_is(cert, rd, (N - s) * (T - 1 + 2 * d), N * (T + 1))
    return [("A compares two records with a slack delta in [0, 1), B a class's total variation distance",
             d is not None and B.get("family") == "class" and B.get("distance") == "total-variation"
             and B.get("max_class") is None),
            ("U = (N - s)(T - 1 + 2 delta)/(N (T + 1))", upper_ok),
            ("s is an integer (integer coefficients, integer symbols)", integer_valued([s], cert.get("symbols") or {}))]


def _slack_pairwise(cert, A, B, rd, data):
    """The obligations of ``slack-pairwise-distance`` (see the module notes)."""
    g = rd.gens
    T, N, e, Y, X = g["T"], g["N"], g["e_"], g["a_"], g["b_"]
    s, d = rd.poly(B.get("min_class") or "1"), slack(A, "pairs")
    exists = [(">=", s - 1), (">=", N - 2 * s), (">=", T - 1)]
    on_s, on_rest = T * Y - X + d, T * (1 - X) - (1 - Y) + d
    facts = {"A on S: T*Y - X + delta >= 0": on_s, "A on the rest: T*(1 - X) - (1 - Y) + delta >= 0": on_rest,
             "e - s >= 0": e - s}
    hyps = exists + [(">=", e - s), (">=", N - e - s), (">=", X), (">=", 1 - X), (">=", Y), (">=", 1 - Y),
                     (">=", on_s), (">=", on_rest)]
    return existence(s, N, 2) + [
        Obligation("pairs: (N - s)*(T - 1 + 2*delta) - (T + 1)*(N - e)*(X - Y) >= 0 (X - P <= U)",
                   (N - s) * (T - 1 + 2 * d) - (T + 1) * (N - e) * (X - Y), hyps, facts=facts,
                   multipliers=multipliers(data, rd).get("pairs")),
        Obligation("U >= 0: (N - s)*(T - 1 + 2*delta) >= 0", (N - s) * (T - 1 + 2 * d), exists),
    ]


lemma(methods.SLACK_PAIRWISE_DISTANCE, structure=_slack_pairwise_structure, obligations=_slack_pairwise)
