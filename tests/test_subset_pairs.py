"""A two-sided subset level of size j against the total variation between two records: min(1, j (1 - 1/T)), tight
for every N (docs/arguments/subset-pairs.md).

Hand values:

- kt-closeness(k=2) at N = 4, T = 3/2: U = min(1, 2 (1 - 2/3)) = 2/3. Records (5/6, 1/6), (1/6, 5/6) and two at
  (1/2, 1/2): the table is (1/2, 1/2); a pair holding one of the first two has mean (2/3, 1/3) or (1/3, 2/3), ratios
  4/3 and 2/3 = 1/T; the first two together, or the last two, ratio 1: level 3/2, TV of the first two 2/3.
- dp at N = 3, T = 2: U = min(1, 2 (1 - 1/2)) = 1. Records (1, 0), (0, 1), (1/2, 1/2): removing the first leaves
  (1/4, 3/4) against (1/2, 1/2), ratios 1/2 and 3/2; level 2, TV 1 (before: the trivial f 1, its tightness unknown).
- lip (size 1) at N = 2, T = 2: U = 1/2, records (3/4, 1/4) and (1/4, 3/4): ratios 3/2 and 1/2 to the table (1/2, 1/2),
  level 2, TV 1/2 (the corners argument's family needs N >= T + 1 = 3).
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

KT_4 = [[F(5, 6), F(1, 6)], [F(1, 6), F(5, 6)], [F(1, 2), F(1, 2)], [F(1, 2), F(1, 2)]]
DP_3 = [[F(1), F(0)], [F(0), F(1)], [F(1, 2), F(1, 2)]]
LIP_2 = [[F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)]]


def _tv(rows):
    return max(sum(abs(a - b) for a, b in zip(x, y)) / 2 for x, y in itertools.permutations(rows, 2))


def test_hand_values_of_the_family():
    assert brute.kt(KT_4, 2) == F(3, 2) and _tv(KT_4) == F(2, 3)
    assert brute.dp(DP_3) == 2 and _tv(DP_3) == 1
    assert brute.kt(LIP_2, 1) == 2 and _tv(LIP_2) == F(1, 2)


@pytest.mark.parametrize("size", [lambda n: 1, lambda n: 2, lambda n: n - 1, lambda n: n - 2])
def test_brute_no_table_above_the_bound(size):
    rng = random.Random(3)
    seen = 0
    for _ in range(1500):
        n = rng.randint(3, 5)
        j = size(n)
        if not 1 <= j <= n - 1:
            continue
        rows = brute.random_rows(rng, n, rng.randint(2, 3), high=5)
        t = brute.kt(rows, j)
        if t == brute.INF:
            continue
        seen += 1
        assert _tv(rows) <= min(F(1), j * (1 - 1 / t))
    assert seen > 300


CASES = [("kt-closeness", {"k": sympy.Integer(2)}, 4, F(3, 2), F(2, 3)), ("dp", {}, 3, F(2), F(1)),
         ("lip", {}, 2, F(2), F(1, 2))]


@pytest.fixture(scope="module")
def results():
    return {a: check_implication(a, "tv-ldp", a_params=ap, max_n=3) for a, ap, *_ in CASES}


@pytest.mark.parametrize("a,ap,n,t,hand", CASES)
def test_proved_tight_for_every_n_and_rechecked(results, a, ap, n, t, hand):
    r = results[a]
    assert r.verdict == "proved" and r.method == "subset-pairs", (a, r.method)
    cert = r.details["certificate"]
    assert cert["tight"] and not (cert.get("tightness") or {}).get("domain") and check_certificate(cert).ok
    names = {"N": sympy.Symbol("N", integer=True), "t": sympy.Symbol("t", positive=True),
             "eps": sympy.Symbol("eps", positive=True)}
    f = sympy.sympify(str(r.tight), locals=names)
    value = f.subs({names["N"]: n, names["t"]: t, names["eps"]: sympy.log(t)})
    assert sympy.simplify(value - hand) == 0


def _failed(report, words):
    return not report.ok and any(words in s[0] and not s[1] for s in report.steps)


def test_forgeries_are_rejected(results):
    cert = results["kt-closeness"].details["certificate"]
    assert _failed(check_certificate({**cert, "upper": "Min(1, 1 - 1/T)"}), "U is min")
    assert _failed(check_certificate({**cert, "domain": ["T > 0", "T >= 1", "N >= 2"]}), "2 <= N - 1")
    fam = copy.deepcopy(cert["tightness"])
    fam["rows"][1]["value"] = fam["rows"][0]["value"]          # records i and k equal: TV 0, not U
    assert _failed(check_certificate({**cert, "tightness": fam}), "total variation U")
    data = {**cert["upper_certificate"], "size": "3"}
    assert not check_certificate({**cert, "upper_certificate": data}).ok
