"""(eps, delta) levels against the total variation between two records: (T - 1 + 2 delta)/(T + 1) between records,
min(1, (N - 1)(1 - (1 - 2 delta)/T)) on record removal, tight for every N (docs/arguments/slack-pairs-tv.md).

Hand values (delta = 1/10):

- eps-delta-ldp at T = 2: U = (2 - 1 + 1/5)/3 = 2/5. Two records at (7/10, 3/10), one at (3/10, 7/10): the events
  {1} and {2} meet 7/10 <= 2 (3/10) + 1/10 with equality, so the level is 2; TV = 2/5 (before: the trivial f 1, its
  tightness unknown; TV = 1 needs disjoint records, which no finite eps allows at delta < 1).
- eps-delta-dp at N = 3, T = 5/4: U = 2 (1 - (4/5)/(5/4)) = 18/25. Records (43/50, 7/50), (7/50, 43/50), (1/2, 1/2):
  removing the first leaves (8/25, 17/25), and 1/2 <= (5/4)(8/25) + 1/10 = 1/2 with equality; TV = 18/25.
- eps-delta-dp at N = 6, T = 1: U = min(1, 5 (1/5)) = 1: the trivial f is tight from N = 6.
"""

from __future__ import annotations

import copy
import itertools
import random
from fractions import Fraction as F

import pytest
import sympy

import brute
from implgraph.certify import check_certificate
from implgraph.engines.prove import check_implication

D = F(1, 10)
LDP = [[F(7, 10), F(3, 10)], [F(7, 10), F(3, 10)], [F(3, 10), F(7, 10)]]
DP_3 = [[F(43, 50), F(7, 50)], [F(7, 50), F(43, 50)], [F(1, 2), F(1, 2)]]
DP_6 = [[F(1), F(0)], [F(0), F(1)]] + [[F(1, 2), F(1, 2)]] * 4


def _tv(rows):
    return max(sum(abs(a - b) for a, b in zip(x, y)) / 2 for x, y in itertools.permutations(rows, 2))


def test_hand_values_of_the_families():
    assert brute.eps_delta_ldp(LDP, D) == 2 and _tv(LDP) == F(2, 5)
    assert brute.eps_delta_dp(DP_3, D) == F(5, 4) and _tv(DP_3) == F(18, 25)
    assert brute.eps_delta_dp(DP_6, D) == 1 and _tv(DP_6) == 1


def test_brute_no_table_above_the_bounds():
    rng = random.Random(17)
    seen = 0
    for _ in range(2500):
        n = rng.randint(2, 4)
        rows = brute.random_rows(rng, n, rng.randint(2, 3), high=5)
        t1, t2 = brute.eps_delta_ldp(rows, D), brute.eps_delta_dp(rows, D)
        if t1 != brute.INF:
            seen += 1
            assert _tv(rows) <= (t1 - 1 + 2 * D) / (t1 + 1)
        if t2 != brute.INF:
            assert _tv(rows) <= min(F(1), (n - 1) * (1 - (1 - 2 * D) / t2))
    assert seen > 300


CASES = [("eps-delta-ldp", 3, F(2), F(2, 5)), ("eps-delta-dp", 3, F(5, 4), F(18, 25)), ("eps-delta-dp", 6, F(1), F(1))]


@pytest.fixture(scope="module")
def results():
    return {a: check_implication(a, "tv-ldp", a_params={"delta": sympy.Rational(1, 10)}, max_n=3)
            for a in ("eps-delta-ldp", "eps-delta-dp")}


@pytest.mark.parametrize("a,n,t,hand", CASES)
def test_proved_tight_for_every_n_and_rechecked(results, a, n, t, hand):
    r = results[a]
    assert r.verdict == "proved" and r.method == "slack-pairs-tv", (a, r.method)
    cert = r.details["certificate"]
    assert cert["tight"] and check_certificate(cert).ok
    N, eps = sympy.Symbol("N", integer=True), sympy.Symbol("eps", positive=True)
    f = sympy.sympify(str(r.tight), locals={"N": N, "eps": eps})
    assert sympy.simplify(f.subs({N: n, eps: sympy.log(t)}) - hand) == 0


def test_forgeries_are_rejected(results):
    cert = results["eps-delta-ldp"].details["certificate"]
    bad = check_certificate({**cert, "upper": "(T - 1)/(T + 1)"})          # delta dropped: smaller, no bound
    assert not bad.ok and any("U is the lemma's value" in s[0] and not s[1] for s in bad.steps)
    fam = copy.deepcopy(cert["tightness"])
    fam["rows"][1]["value"] = fam["rows"][0]["value"]
    assert not check_certificate({**cert, "tightness": fam}).ok
    side = {**cert["A"], "slack": {"compares": "pairs", "delta": "1/5"}}    # not the registry's delta
    assert not check_certificate({**cert, "A": side}).ok


# A hockey-stick level (delta-ldp, delta-dp at gamma = 2; tv-dp at gamma = 1): the same inequalities with the ratio
# gamma and the level delta. Hand values: delta-ldp(log 2) at delta = 1/4: U = (2 - 1 + 1/2)/3 = 1/2, two records at
# (3/4, 1/4) and one at (1/4, 3/4) (3/4 - 2 (1/4) = 1/4 both ways); tv-dp at N = 3, delta = 1/8:
# U = min(1, 2 (2)(1/8)) = 1/2, records (3/4, 1/4), (1/4, 3/4), (1/2, 1/2): removing the first leaves (3/8, 5/8), TV 1/8.
HOCKEY = [[F(3, 4), F(1, 4)], [F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)]]
TV_DP = [[F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)], [F(1, 2), F(1, 2)]]


def _hockey_pairs(rows, g):
    return max(sum(max(a - g * b, F(0)) for a, b in zip(x, y)) for x, y in itertools.permutations(rows, 2))


def _tv_removal(rows):
    return max(sum(abs(a - b) for a, b in zip(x, y)) / 2 for x, y in brute._pairs_of(rows, "removal"))


def test_hockey_levels_hand_values_and_brute():
    assert _hockey_pairs(HOCKEY, 2) == F(1, 4) and _tv(HOCKEY) == F(1, 2)
    assert _tv_removal(TV_DP) == F(1, 8) and _tv(TV_DP) == F(1, 2)
    rng = random.Random(23)
    for _ in range(1500):
        n = rng.randint(2, 4)
        rows = brute.random_rows(rng, n, rng.randint(2, 3), high=5)
        assert _tv(rows) <= (1 + 2 * _hockey_pairs(rows, 2)) / 3
        assert _tv(rows) <= min(F(1), 2 * (n - 1) * _tv_removal(rows))


@pytest.mark.parametrize("a,params,n,d,hand", [("delta-ldp", {"eps": sympy.log(2)}, 3, F(1, 4), F(1, 2)),
                                               ("tv-dp", {}, 3, F(1, 8), F(1, 2))])
def test_hockey_levels_proved_tight_and_rechecked(a, params, n, d, hand):
    r = check_implication(a, "tv-ldp", a_params=params, max_n=3)
    assert r.verdict == "proved" and r.method == "slack-pairs-tv", (a, r.method)
    cert = r.details["certificate"]
    assert cert["tight"] and check_certificate(cert).ok
    N, delta = sympy.Symbol("N", integer=True), sympy.Symbol("delta", positive=True)
    f = sympy.sympify(str(r.tight), locals={"N": N, "delta": delta})
    assert sympy.simplify(f.subs({N: n, delta: d}) - hand) == 0
    assert not check_certificate({**cert, "upper": "T"}).ok
