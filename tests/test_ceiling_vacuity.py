"""An implication proved only at B's own ceiling (a bound every table of N records meets, whatever A) is no edge.

basic-beta-likeness's level is at most N - 1 on every table of N records (a class of one record holds at most the
whole table's mass: its mean is at most N times the table's), and a class's KL divergence from the table is at most
log N (the log of the largest ratio): both are reached by one record holding a value no other record has (derived by
hand below). A proof of A => B at that ceiling holds for every A and says nothing of A; Definition 3 of ekenstedt2022
counts no edge for it. Whether a smaller f holds (it does: under basic beta-likeness at beta every ratio is at most
1 + beta, so KL <= log(1 + beta)) is a separate question the engine must leave open until it proves it.
"""

from __future__ import annotations

import math

from implgraph.engines.checkedge import check_edge


def _kl(x, y):
    return sum(a * math.log(a / b) for a, b in zip(x, y) if a > 0)


def test_the_ceilings_are_reached_by_one_record_with_a_value_of_its_own():
    # N = 4 records in singleton classes: record 1 at (1, 0), the others at (0, 1); table P = (1/4, 3/4)
    N = 4
    P = (1 / N, (N - 1) / N)
    assert math.isclose(_kl((1.0, 0.0), P), math.log(N))              # KL(class 1 || P) = log N
    assert math.isclose((1.0 - P[0]) / P[0], N - 1)                     # basic beta: (P_E - P)/P = N - 1


def test_a_proof_at_the_ceiling_is_no_edge_either_way():
    r = check_edge("basic-beta-likeness", "kl-closeness", N=3)
    assert r.kind == "unknown"
    for d in (r.forward, r.backward):
        assert d.relation == "unknown"
        assert d.verdict == "proved"                      # the ceiling itself is proved, for every N
        assert "own ceiling" in d.evidence and "(open)" in d.evidence
