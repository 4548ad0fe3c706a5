"""pml (each record at most T times the table) against the total variation on record removal:
min((T - 1)/N, (T - 1)/(T (N - 1)), 1/N), tight for every N; and against the hockey-stick at gamma = 2 there:
min(1/N, max(0, (2T - N - 1)/(T (N - 1)))), tight where N >= 3 (docs/proofs/pml-tv.md).

Hand values (two buckets; P the table, Q_1 the table without the first record):

- N = 2, T = 3/2: U = min(1/4, 1/3, 1/2) = 1/4. Records (3/4, 1/4), (1/4, 3/4): P = (1/2, 1/2), largest ratio 3/2;
  Q_1 = (1/4, 3/4), total variation 1/4.
- N = 3, T = 5/4 (below N/(N - 1) = 3/2): U = min(1/12, 1/10, 1/3) = 1/12. Records (5/6, 1/6) and twice (7/12, 5/12):
  P = (2/3, 1/3), ratios 5/4 (first bucket of the first, second bucket of the others) and less; Q_1 = (7/12, 5/12),
  total variation 2/3 - 7/12 = 1/12.
- N = 3, T = 2: U = min(1/3, 1/4, 1/3) = 1/4. Records (1, 0) and twice (1/4, 3/4): P = (1/2, 1/2), ratios 2 and 3/2;
  Q_1 = (1/4, 3/4), total variation 1/4.
- T >= N: every table meets pml, and the bound is the weakest level 1/N: (1, 0) beside N - 1 records (0, 1).

The hockey-stick at gamma = 2 (P(S) - 2 Q_i(S) = (2a - (N + 1) p)/(N - 1) <= a (2 - (N + 1)/T)/(N - 1)):

- N = 3, T = 5/2: U = min(1/3, 1/5) = 1/5. Records (1, 0) and twice (1/10, 9/10): P = (2/5, 3/5), ratios 5/2 and 3/2;
  Q_1 = (1/10, 9/10), P(S) - 2 Q_1(S) = 2/5 - 1/5 = 1/5 on the first bucket.
- N = 4, T = 3: U = min(1/4, 1/9) = 1/9. Records (1, 0) and three times (1/9, 8/9): P = (1/3, 2/3), ratios 3 and 4/3;
  1/3 - 2/9 = 1/9.
- N = 4, T = 2: U = 0 (2T <= N + 1): no table of four records at pml level <= 2 has a positive hockey-stick.
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

HAND = [(2, F(3, 2), [[F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)]], F(1, 4)),
        (3, F(5, 4), [[F(5, 6), F(1, 6)], [F(7, 12), F(5, 12)], [F(7, 12), F(5, 12)]], F(1, 12)),
        (3, F(2), [[F(1), F(0)], [F(1, 4), F(3, 4)], [F(1, 4), F(3, 4)]], F(1, 4)),
        (4, F(5), [[F(1), F(0)], [F(0), F(1)], [F(0), F(1)], [F(0), F(1)]], F(1, 4))]


def _tv_removal(rows):
    """The largest total variation between the table and the table without one record (exact)."""
    n, m = len(rows), len(rows[0])
    p = [sum(r[l] for r in rows) / n for l in range(m)]
    out = F(0)
    for i in range(n):
        q = [(n * p[l] - rows[i][l]) / (n - 1) for l in range(m)]
        out = max(out, sum(abs(a - b) for a, b in zip(p, q)) / 2)
    return out


def _u(n, t):
    return min((t - 1) / n, (t - 1) / (t * (n - 1)), F(1, n))


HAND_HS = [(3, F(5, 2), [[F(1), F(0)], [F(1, 10), F(9, 10)], [F(1, 10), F(9, 10)]], F(1, 5)),
           (4, F(3), [[F(1), F(0)]] + [[F(1, 9), F(8, 9)]] * 3, F(1, 9))]


def _hs_removal(rows, g=2):
    """The largest hockey-stick at ``g`` between the table and the table without one record, both ways (exact)."""
    n, m = len(rows), len(rows[0])
    p = [sum(r[l] for r in rows) / n for l in range(m)]
    out = F(0)
    for i in range(n):
        q = [(n * p[l] - rows[i][l]) / (n - 1) for l in range(m)]
        out = max(out, sum(max(F(0), a - g * b) for a, b in zip(p, q)), sum(max(F(0), b - g * a) for a, b in zip(p, q)))
    return out


def _u_hs(n, t):
    return min(F(1, n), max(F(0), (2 * t - n - 1) / (t * (n - 1))))


@pytest.mark.parametrize("n,t,rows,hand", HAND_HS)
def test_hand_values_of_the_hockey_stick_family(n, t, rows, hand):
    assert brute.subset_upper(rows, 1) <= t and _hs_removal(rows) == hand == _u_hs(n, t)


def test_brute_no_table_above_the_hockey_stick_bound():
    rng = random.Random(23)
    zero = 0
    for _ in range(2000):
        n = rng.randint(2, 5)
        rows = brute.random_rows(rng, n, rng.randint(2, 4), high=5)
        t = brute.subset_upper(rows, 1)
        assert _hs_removal(rows) <= _u_hs(n, t)
        zero += n == 4 and t <= 2
    assert zero > 10


@pytest.mark.parametrize("n,t,rows,hand", HAND)
def test_hand_values_of_the_family(n, t, rows, hand):
    assert brute.subset_upper(rows, 1) <= t and _tv_removal(rows) == hand == _u(n, t)


def test_brute_no_table_above_the_bound():
    rng = random.Random(17)
    for _ in range(2000):
        n = rng.randint(2, 5)
        rows = brute.random_rows(rng, n, rng.randint(2, 4), high=5)
        assert _tv_removal(rows) <= _u(n, brute.subset_upper(rows, 1))


@pytest.fixture(scope="module")
def result():
    return check_implication("pml", "tv-dp", max_n=3)


@pytest.fixture(scope="module")
def result_hs():
    return check_implication("pml", "delta-dp", b_params={"eps": sympy.log(2)}, max_n=3)


def test_hockey_stick_proved_tight_where_n_at_least_3(result_hs):
    r = result_hs
    assert r.verdict == "proved" and r.method == "one-sided-removal", r.method
    cert = r.details["certificate"]
    assert cert["tight"] and cert["tightness"]["domain"] == ["N >= 3"] and check_certificate(cert).ok
    names = {"N": sympy.Symbol("N", integer=True), "eps": sympy.Symbol("eps", positive=True)}
    f = sympy.sympify(str(r.tight), locals=names)
    for n, t, _, hand in HAND_HS + [(4, F(2), None, F(0))]:
        assert sympy.simplify(f.subs({names["N"]: n, names["eps"]: sympy.log(t)}) - hand) == 0
    fam = {k: v for k, v in cert["tightness"].items() if k != "domain"}     # tight at N = 2 too: false
    assert _failed(check_certificate({**cert, "tightness": fam}), "family's domain")
    assert _failed(check_certificate({**cert, "upper": "Min(1/N, Max(0, (-N + 2*T)/(T*(N - 1))))"}), "U is the")
    data = {**cert["upper_certificate"], "gamma": "1"}
    assert _failed(check_certificate({**cert, "upper_certificate": data}), "data")


def test_proved_tight_and_rechecked(result):
    r = result
    assert r.verdict == "proved" and r.method == "one-sided-removal", r.method
    cert = r.details["certificate"]
    assert cert["tight"] and check_certificate(cert).ok
    names = {"N": sympy.Symbol("N", integer=True), "eps": sympy.Symbol("eps", positive=True)}
    f = sympy.sympify(str(r.tight), locals=names)
    for n, t, _, hand in HAND:
        assert sympy.simplify(f.subs({names["N"]: n, names["eps"]: sympy.log(t)}) - hand) == 0


def _failed(report, words):
    return not report.ok and any(words in s[0] and not s[1] for s in report.steps)


def test_forgeries_are_rejected(result):
    cert = result.details["certificate"]
    assert _failed(check_certificate({**cert, "upper": "Min(1/N, (T - 1)/N, (T - 1)/(T*N))"}), "U is the")
    assert _failed(check_certificate({**cert, "upper": "Min((T - 1)/N, (T - 1)/(T*(N - 1)))"}), "U is the")
    fam = copy.deepcopy(cert["tightness"])
    fam["rows"][1]["value"] = "1 - T/N"         # the first piece everywhere: not a pml table beyond N/(N - 1)
    assert _failed(check_certificate({**cert, "tightness": fam}), "attains U")
    fam = copy.deepcopy(cert["tightness"])
    fam["rows"][1]["count"] = "N - 2"
    assert _failed(check_certificate({**cert, "tightness": fam}), "one record and N - 1 others")
    two_sided = {**cert, "A": {**cert["A"], "sides": "two-sided"}}
    assert not check_certificate(two_sided).ok
    assert not check_certificate({**cert, "domain": ["T > 0", "N >= 2"]}).ok
