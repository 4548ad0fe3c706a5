"""The lemma ``slack-target-removal``: an additive slack on record removal as the target.

A a two-sided subset level of size N - 1 (the table against the table without one record, eps-DP on record removal)
without a slack, B the same comparison with an additive slack delta in (0, 1) (``B["slack"]``, ``compares ==
"removal"``). With x and y the two tables' masses on an event, A gives h1 = T y - x >= 0; U = T: ``T y - x + delta >=
0`` from h1 and delta >= 0 (multipliers 1, 1). Stated only as an upper bound.
"""

from __future__ import annotations

from implgraph.certify.lemmas import lemma
from implgraph.certify.obligation import Obligation, multipliers, slack, upper_is
from implgraph.core import methods


def _structure(cert, A, B, rd):
    N = rd.gens["N"]
    d = slack(B, "removal")
    removal = (A.get("family") == "subset" and A.get("sides") == "two-sided" and not A.get("slack")
               and rd.poly(A.get("size") or 0) == N - 1)
    return [("A the table against the table without one record (a two-sided subset level of size N - 1), B the same "
             "comparison with a slack delta in (0, 1)", removal and d is not None and d > 0),
            ("U = T", upper_is(cert, rd, rd.gens["T"], 1))]


def _obligations(cert, A, B, rd, data):
    g = rd.gens
    T, X, Y = g["T"], g["b_"], g["a_"]
    d = slack(B, "removal")
    if d is None:
        return []
    h1 = T * Y - X
    box = [(">=", X), (">=", 1 - X), (">=", Y), (">=", 1 - Y), (">=", T - 1)]
    facts = {"A on the event: T*y - x >= 0": h1, "delta >= 0": d * rd.poly("1")}
    return [Obligation("ratio: T*y - x + delta >= 0 (x <= U y + delta)", T * Y - X + d, box + [(">=", h1)],
                       facts=facts, multipliers=multipliers(data, rd).get("ratio")),
            Obligation("U >= 1: T - 1 >= 0", T - 1, [])]


lemma(methods.SLACK_TARGET_REMOVAL, structure=_structure, obligations=_obligations)
