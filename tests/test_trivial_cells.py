"""A trivial implication (f = B's weakest level, met by every table) is decided only where the tight f is known to be
that level; otherwise it says what holds and leaves the rest undecided.

Hand values:

- mult-t-closeness => distinct-l-diversity at N = 3: records (0, 1) (0, 1) (0, 1) in any classes have mult-t-closeness
  1 (every class is the table), its strongest level, and distinct l-diversity 1 (each class holds one value), its
  weakest: at every level of A, B can be at its weakest, so the tight f is 1 (trivial, decided).
- delta-ldp(eps = log 2) => tv-ldp: at A's strongest level 0, every bucket has x <= 2 y and y <= 2 x for any two
  records, so their ratios lie in [1/2, 2] and TV(x, y) <= (2 - 1)/(2 + 1) = 1/3 (the chord of |r - 1|/2, with sum y r
  = 1): the trivial f = 1 is not tight; the engine now proves the tight f (1 + 2 delta)/3 (slack-pairs-tv), 1/3 at 0.
- pml => tv-ldp at N = 3: at pml's level T every record is at most T times the table, bucket by bucket, so at T near 1
  two records cannot be far apart (at T = 1 all are the table, TV 0): the trivial f = 1 is not tight there, and with no
  argument for the pair the engine must not call the trivial cell decided.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction as F

import sympy

import brute
from implgraph.core.verdict import trivial_open
from implgraph.engines.checkedge import check_edge
from implgraph.map.matrix_cells import Cell, counts_of


def test_b_at_its_weakest_at_every_level_decides_the_trivial_cell():
    rows = [[F(0), F(1)]] * 3
    assert brute.mult_t(rows, ["E1", "E2", "E2"]) == 1 and brute.distinct_l(rows, ["E1", "E2", "E2"]) == 1
    r = check_edge("mult-t-closeness", "distinct-l-diversity", N=3)
    assert r.forward.relation == "implication" and r.forward.trivial and r.forward.tight == "1"
    assert not trivial_open(r.forward) and "only trivially" in r.summary


def _hockey_both_ways(x, y, g):
    return max(sum(max(a - g * b, F(0)) for a, b in zip(x, y)), sum(max(b - g * a, F(0)) for a, b in zip(x, y)))


def test_brute_delta_ldp_at_zero_bounds_tv_below_its_weakest_level():
    rng = random.Random(5)
    seen = 0
    for _ in range(3000):
        rows = brute.random_rows(rng, 3, 3, high=6)
        if all(_hockey_both_ways(x, y, 2) == 0 for x, y in itertools.combinations(rows, 2)):
            seen += 1
            assert all(sum(abs(a - b) for a, b in zip(x, y)) / 2 <= F(1, 3) for x, y in itertools.combinations(rows, 2))
    assert seen > 20


def test_a_trivial_f_that_is_not_tight_is_proved_below_it():
    r = check_edge("delta-ldp(eps=log(2))", "tv-ldp", N=3)
    assert r.forward.relation == "implication" and not r.forward.trivial and not trivial_open(r.forward)
    delta = sympy.Symbol("delta")
    assert sympy.sympify(str(r.forward.tight_all_n), locals={"delta": delta}).subs(delta, 0) == sympy.Rational(1, 3)


def test_a_trivial_f_whose_tightness_is_unknown_is_undecided():
    """No cell of the zoo is such a direction any more (kl-dp => delta-ldp(log 2), the last one, is proved below B's
    weakest level: the next test); a direction of that shape, as check-edge returns it, is said and counted undecided."""
    from types import SimpleNamespace
    from implgraph.engines.checkedge import _undecided
    d = SimpleNamespace(a="kl-dp", b="delta-ldp(eps=log(2))", relation="implication", verdict="verified-bounded",
                        trivial=True, vacuous=False, tight=None, tight_all_n=None, proved_f=None, tight_upto=None)
    assert trivial_open(d)
    text = _undecided(d)
    assert "beyond delta-ldp(eps=log(2))'s weakest level is undecided" in text and "f = 1 holds trivially" in text
    c = counts_of([Cell("kl-dp", "delta-ldp(eps=log(2))", "implication", "verified-bounded", "implication",
                        trivial=True)])
    assert (c["implication_trivial_open"], c["decided"]) == (1, 0)


def test_kl_dp_to_the_hockey_stick_is_proved_below_its_weakest_level():
    """min(1, (N - 1) sqrt(2 d)) (Pinsker on record removal, then the total variation between records): at N = 3,
    d = 1/32 it is 2 sqrt(1/16) = 1/2, below the weakest level 1 (by hand)."""
    r = check_edge("kl-dp", "delta-ldp(eps=log(2))", N=3)
    assert r.forward.relation == "implication" and not r.forward.trivial and not trivial_open(r.forward)
    assert "undecided" not in r.summary
    d, N = sympy.Symbol("d"), sympy.Symbol("N")
    f = sympy.sympify(str(r.forward.tight_all_n), locals={"d": d, "N": N})
    assert f.subs({d: sympy.Rational(1, 32), N: 3}) == sympy.Rational(1, 2)


def test_a_level_no_grid_table_reaches_is_not_left_out():
    """distinct-l-diversity => tv-ldp at N = 3: with two buckets no class holds 3 values, so l = 3 is out of reach of
    every table here; the grid cannot show that a level is out of reach of every table (its tight f stays unknown),
    while at l = 2 records (1, 0) and (0, 1) in one class (mean (1/2, 1/2): 2 values) are at total variation 1,
    tv-ldp's weakest level. With more buckets every l is reached (weakest-family: one record uniform over l values, the
    others over other values, one class): the prover's tight f 1 for every N decides the cell."""
    rows = [[F(1), F(0)], [F(0), F(1)], [F(0), F(1)]]
    assert brute.distinct_l(rows, ["E1", "E1", "E1"]) == 2 and _tv_max(rows) == 1
    r = check_edge("distinct-l-diversity", "tv-ldp", N=3)
    assert r.forward.trivial and r.forward.tight is None and r.forward.tight_all_n == "1"
    assert not trivial_open(r.forward)


def _tv_max(rows):
    return max(sum(abs(a - b) for a, b in zip(x, y)) / 2 for x, y in itertools.combinations(rows, 2))


def test_a_tight_f_at_b_s_weakest_level_keeps_the_cell_trivial():
    """kl-ldp => pml: a record's ratio to the table is at most N (x_i(l) <= N P_l), pml's weakest level log N, and the
    prover's family approaches it at every kl-ldp level > 0 (module notes of ceiling-family): the tight f is that
    weakest level, so the cell is trivial (its tight f known), whatever symbol of N the prover wrote it in. Hand value:
    one record at (1/2, 1/2) and N - 1 = 2 at (0, 1) have P = (1/6, 5/6) and ratio 3 = N in the first bucket."""
    rows = [[F(1, 2), F(1, 2)], [F(0), F(1)], [F(0), F(1)]]
    P = [sum(r[k] for r in rows) / 3 for k in range(2)]
    assert rows[0][0] / P[0] == 3
    d = check_edge("kl-ldp", "pml", N=3).forward
    assert d.relation == "implication" and d.trivial and not trivial_open(d)
    assert d.tight_all_n == "log(N)"
