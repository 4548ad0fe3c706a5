"""The lemma ``slack-averaging`` (method ``slack-pairs-to-removal``): an additive slack between any two records bounds
the one of record removal.

A an additive slack delta_A between any two records (``A["slack"]``, ``compares == "pairs"``), B an additive slack
delta_B >= delta_A on record removal, U = T. With x a record's mass on an event and q the mean of the other N - 1
records' masses, A averaged over the others gives ``T q - x + delta_A >= 0``, and averaged over the whole table (a
record against itself: x <= T x + delta_A as T >= 1), then over the others, ``T ((N - 1) q + x) - N q + N delta_A >=
0``. The obligations, with P = ((N - 1) q + x)/N: *removed* ``N (T q + delta_B) - ((N - 1) q + x) >= 0`` (P <= T q +
delta_B), and *kept* ``T ((N - 1) q + x) - N q + N delta_B >= 0`` (q <= T P + delta_B), each as the certificate's
multipliers times those facts.
"""

from __future__ import annotations

from implgraph.certify.lemmas import lemma
from implgraph.certify.obligation import Obligation, multipliers, slack, upper_is
from implgraph.core import methods


def _structure(cert, A, B, rd):
    da, db = slack(A, "pairs"), slack(B, "removal")
    return [("A an additive slack between any two records, B one on record removal with delta_B >= delta_A",
             da is not None and db is not None and da <= db),
            ("U = T", upper_is(cert, rd, rd.gens["T"], 1))]


def _obligations(cert, A, B, rd, data):
    g = rd.gens
    T, N, X, Q = g["T"], g["N"], g["b_"], g["q_"]
    da, db = slack(A, "pairs"), slack(B, "removal")
    if da is None or db is None:
        return []
    one = rd.poly("1")
    removed = T * Q - X + da
    kept = T * ((N - 1) * Q + X) - N * Q + N * da
    box = [(">=", X), (">=", 1 - X), (">=", Q), (">=", 1 - Q), (">=", T - 1), (">=", N - 2)]
    facts = {"A averaged over the others: T*q - x + delta_A >= 0": removed, "q >= 0": Q,
             "delta_A >= 0": da * one, "delta_B - delta_A >= 0": (db - da) * one,
             "A averaged over the table, then over the others: T*((N - 1)*q + x) - N*q + N*delta_A >= 0": kept}
    mults = multipliers(data, rd)
    return [Obligation("removed: N*(T*q + delta_B) - ((N - 1)*q + x) >= 0 (P <= T q + delta_B)",
                       N * (T * Q + db) - ((N - 1) * Q + X), box + [(">=", removed)], facts=facts,
                       multipliers=mults.get("removed")),
            Obligation("kept: T*((N - 1)*q + x) - N*q + N*delta_B >= 0 (q <= T P + delta_B)",
                       T * ((N - 1) * Q + X) - N * Q + N * db, box + [(">=", kept)], facts=facts,
                       multipliers=mults.get("kept")),
            Obligation("U >= 1: T - 1 >= 0", T - 1, [])]


lemma(methods.SLACK_PAIRS_TO_REMOVAL, structure=_structure, obligations=_obligations)
