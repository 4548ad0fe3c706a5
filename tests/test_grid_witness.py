"""The grid fallback of check-edge (definitions without linear-fractional forms) finds the small
non-implication witnesses of enhanced beta-likeness that its coarse grid missed.

Hand witnesses (N = 2, singleton classes E1, E2):

* T1 = {(1/7, 6/7)}, {(6/7, 1/7)}: the table's distribution is (1/2, 1/2); class E1 has q_2 = 6/7 and
  (6/7) / (1/2) - 1 = 5/7 > -ln(1/2) = 0.693..., so enhanced beta-likeness is infinite, while LDP's
  e^eps = (6/7) / (1/7) = 6 and (eps, 1/10)-LDP's e^eps = (6/7 - 1/10) / (1/7) = 53/10 are finite.
* T2 = {(0, 1/2, 1/2)}, {(1/2, 1/4, 1/4)}: P = (1/4, 3/8, 3/8); class E1: (1/2) / (3/8) - 1 = 1/3 <=
  -ln(3/8); class E2: (1/2) / (1/4) - 1 = 1 <= -ln(1/4) = 1.386..., so enhanced beta-likeness is finite
  with beta = 1 (raw level beta + 1 = 2), while multiplicative t-closeness, DP, delta-disclosure and
  (eps, 1/10)-DP compare the zero of E1 in bucket 1 with a positive value: infinite.

With two buckets no table has a finite enhanced level and an infinite level of those four (x / (1 - x) >
-ln(1 - x)), so their witnesses need 3 buckets.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from implgraph.core.concrete import INF, ConcreteTable
from implgraph.definitions.nodes import parse_node
from implgraph.definitions import get
from implgraph.engines import instance
from implgraph.engines.checkedge import check_edge
from implgraph.engines.direction import check_direction
from implgraph.engines.lf import partitions

import brute

H = Fraction(1, 2)
Q = Fraction(1, 4)
T1 = [[Fraction(1, 7), Fraction(6, 7)], [Fraction(6, 7), Fraction(1, 7)]]
T2 = [[Fraction(0), H, H], [H, Q, Q]]

INTO_ENHANCED = ["ldp", "eps-delta-ldp(delta=1/10)"]
FROM_ENHANCED = ["mult-t-closeness", "dp", "delta-disclosure-privacy", "eps-delta-dp(delta=1/10)"]
PAIRS = [(a, "enhanced-beta-likeness") for a in INTO_ENHANCED] + \
        [("enhanced-beta-likeness", b) for b in FROM_ENHANCED]


#: independent brute-force levels (tests/brute.py: no import from implgraph), ratios with INF for infinity
BRUTE = {"ldp": lambda r, c: brute.ldp(r),
         "eps-delta-ldp(delta=1/10)": lambda r, c: brute.eps_delta_ldp(r, Fraction(1, 10)),
         "enhanced-beta-likeness": brute.enhanced_beta_likeness,
         "mult-t-closeness": brute.mult_t,
         "dp": lambda r, c: brute.dp(r),
         "delta-disclosure-privacy": brute.delta_disclosure_ratio,
         "eps-delta-dp(delta=1/10)": lambda r, c: brute.eps_delta_dp(r, Fraction(1, 10))}


def _level(label, rows, classes):
    """The definition's own concrete level (raw) on the table of ``rows``."""
    node = parse_node(label)
    ct = ConcreteTable.from_fractions([[Fraction(v) for v in r] for r in rows], classes=classes)
    return get(node.name).concrete(ct, **node.param_dict)


def test_the_hand_witnesses_have_the_hand_levels():
    c = ["E1", "E2"]
    assert _level("enhanced-beta-likeness", T1, c) == INF
    assert _level("ldp", T1, c) == 6
    assert _level("eps-delta-ldp(delta=1/10)", T1, c) == Fraction(53, 10)
    assert _level("enhanced-beta-likeness", T2, c) == 2          # beta = 1
    for b in FROM_ENHANCED:
        assert _level(b, T2, c) == INF, b
    # the same by brute force
    assert BRUTE["enhanced-beta-likeness"](T1, c) == brute.INF
    assert BRUTE["ldp"](T1, c) == 6 and BRUTE["eps-delta-ldp(delta=1/10)"](T1, c) == Fraction(53, 10)
    assert BRUTE["enhanced-beta-likeness"](T2, c) == 2
    assert all(BRUTE[b](T2, c) == brute.INF for b in FROM_ENHANCED)


@pytest.mark.parametrize("a, b", PAIRS)
def test_check_edge_finds_a_witness(a, b):
    r = check_edge(a, b, N=4)
    d = r.forward
    assert d.relation == "non-implication" and d.verdict == "refuted"
    w = d.witness
    rows = [[Fraction(v) for v in row] for row in w["rows"]]
    # a table: rows of probabilities summing to 1, at least two classes
    assert all(sum(row) == 1 and min(row) >= 0 for row in rows)
    assert w["classes"] is not None and len(set(w["classes"])) >= 2
    # A finite, B infinite by the definitions' own views, recomputed here
    ra, rb = _level(a, rows, w["classes"]), _level(b, rows, w["classes"])
    assert ra is not None and ra != INF
    assert rb == INF
    assert BRUTE[a](rows, w["classes"]) != brute.INF and BRUTE[b](rows, w["classes"]) == brute.INF
    if a == "enhanced-beta-likeness":
        # two buckets cannot do (see the module notes): the grid of 3 buckets found it, and says so
        assert len(rows[0]) >= 3
        inst = next(i for i in d.instances if i.relation == "non-implication")
        assert "3 buckets" in inst.note


@pytest.mark.parametrize("a, b", PAIRS)
def test_a_claimed_f_is_refuted_by_the_same_witness(a, b):
    f = "2*" + parse_node(a).definition.level_symbol
    d = check_direction(a, b, f=f, N=2, prover=False)
    assert d.relation == "non-implication" and d.f_verdict == "refuted"
    assert _level(b, d.witness["rows"], d.witness["classes"]) == INF


def test_finer_grids_stay_within_the_budget():
    for N in range(2, 9):
        for parts in (partitions(N, 2), [(N,)]):
            for p in (2, 3, 5):
                for points, note in instance._finer_grids(N, p, parts):
                    assert all(len(pt) == max(p, 3) or len(pt) == p for pt in points)
                    assert all(sum(pt) == 1 for pt in points)
                    n = instance._grid_count(len(points), parts)
                    assert n <= instance.GRID_BUDGET
                    if N <= 3:
                        assert n == len(list(instance._grid_tables(points, parts)))
    # a budget of no table leaves the coarse grid alone
    assert list(instance._finer_grids(2, 2, [(1, 1)], budget=0)) == []


def test_simplex_points():
    # v with denominators up to 8: the Farey sequence F_8 has 23 terms
    assert len(instance._simplex_points(2, 8)) == 23
    # 3 buckets, denominators up to 2: the 3 vertices and the 3 midpoints of the edges
    assert sorted(instance._simplex_points(3, 2)) == sorted(
        [(1, 0, 0), (0, 1, 0), (0, 0, 1), (H, H, 0), (H, 0, H), (0, H, H)])


def test_grid_tables_once_up_to_symmetry():
    # two classes of one record over 3 rows: the 6 unordered pairs with repetition
    pts = instance._simplex_points(2, 2)
    tables = list(instance._grid_tables(pts, [(1, 1)]))
    assert len(tables) == 6
    assert len({tuple(sorted(tuple(r) for r in rows)) for rows, _ in tables}) == 6
    # classes of 2 and 1 records: 6 multisets for the class of 2 times 3 rows for the other
    assert len(list(instance._grid_tables(pts, [(2, 1)]))) == 18


def test_class_size_limits_are_kept():
    # enhanced beta-likeness => LDP at N = 4: the grid's first witness has classes of 3 and 1 records;
    # with classes of at least 2 records asked for, the grid searches the partition {2, 2} alone
    from implgraph.engines.instance import analyse
    a, b = get("enhanced-beta-likeness"), get("ldp")
    free = analyse(a, {}, b, {}, 4, 2)
    assert free.relation == "non-implication" and min(Counter(free.witness["classes"]).values()) == 1
    kept = analyse(a, {}, b, {}, 4, 2, min_class=2)
    assert kept.relation == "non-implication"
    assert sorted(Counter(kept.witness["classes"]).values()) == [2, 2]
    rows = kept.witness["rows"]
    assert _level("enhanced-beta-likeness", rows, kept.witness["classes"]) not in (None, INF)
    assert _level("ldp", rows, kept.witness["classes"]) == INF


def test_bucket_tied_parameter_skips_wider_grid():
    """A hierarchy over 2 leaves takes no 3-bucket table: the wider grid is skipped, not an error."""
    from implgraph.engines.checkedge import check_edge
    res = check_edge("enhanced-beta-likeness", "hierarchical-emd-t-closeness(ground=((1)(2)))", f="beta", N=3)
    assert res.forward.relation in ("implication", "unknown", "non-implication")
    w = res.backward.witness
    assert w is None or all(len(r) == 2 for r in w["rows"])
