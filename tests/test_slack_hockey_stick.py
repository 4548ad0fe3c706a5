"""(eps, delta) levels between records against the hockey-stick slack at gamma = 2 (docs/arguments/slack-hockey-stick.md):
max(delta, (T - 2 + 3 delta)/(T + 1)) between records, max(delta, (T - (N + 1) + (N + 2) delta)/(T + 1))/N on record
removal (the pair bound at 1 + N (gamma - 1) = N + 1, over N).

Hand values (delta = 1/10; T the least e^eps of brute.eps_delta_ldp):

- between records, T = 3/2 <= 2: U = max(1/10, (3/2 - 17/10)/(5/2)) = 1/10; rows (1/10, 9/10), (0, 1), (0, 1): T = 1
  (1 <= T (9/10) + 1/10), hockey-stick 1/10 - 2 (0) = 1/10 (before: the composition's (T - 4/5)/(T + 1) = 7/25).
- between records, T = 4: U = (4 - 17/10)/5 = 23/50; rows (41/50, 9/50), (9/50, 41/50): (41/50 - 1/10)/(9/50) = 4,
  hockey-stick 41/50 - 18/50 = 23/50 (the dominating pair, KOV 2015).
- on removal, N = 3, T = 2 <= N + 1: U = 1/30; the same three rows: P = (1/30, 29/30), without the first (0, 1):
  1/30 - 0 = 1/30 (before: (T - 4/5)/(3 (T + 1)) = 2/15).
- on removal, N = 2, T = 5 > 3: U = (5 - 3 + 4/10)/(2 (6)) = 1/5; rows (17/20, 3/20), (3/20, 17/20): T = 5, P =
  (1/2, 1/2), 1/2 - 2 (3/20) = 1/5.
- on removal, N = 5, T = 7 > 6: U = (7 - 6 + 7/10)/(5 (8)) = 17/400; rows (71/80, 9/80) and four (9/80, 71/80): T = 7,
  P = (107/400, ...), without the first 9/80 = 45/400: 107/400 - 90/400 = 17/400.
"""

from __future__ import annotations

import copy
import random
from fractions import Fraction as F

import pytest
import sympy

import brute
from implgraph.certify import check_certificate
from implgraph.engines.prove import check_implication

D = F(1, 10)
LOW = [[F(1, 10), F(9, 10)], [F(0), F(1)], [F(0), F(1)]]
KOV_PAIR = [[F(41, 50), F(9, 50)], [F(9, 50), F(41, 50)]]
KOV_N2 = [[F(17, 20), F(3, 20)], [F(3, 20), F(17, 20)]]
KOV_N5 = [[F(71, 80), F(9, 80)]] + [[F(9, 80), F(71, 80)]] * 4


def _hockey(rows, g, compares):
    """The largest p(S) - g q(S) (at least 0) over the compared distributions and events."""
    return max([F(0)] + [sum(p[b] for b in S) - g * sum(q[b] for b in S)
                         for p, q in brute._pairs_of(rows, compares) for S in brute._events(len(rows[0]))])


def _pairs_u(t, d=D, g=2):
    return max(d, (t - g + (1 + g) * d) / (t + 1))


def _removal_u(t, n, d=D, g=2):
    return _pairs_u(t, d, 1 + n * (g - 1)) / n


@pytest.mark.parametrize("rows,compares,t,hand", [
    (LOW, "pairs", F(1), F(1, 10)), (KOV_PAIR, "pairs", F(4), F(23, 50)), (LOW, "removal", F(1), F(1, 30)),
    (KOV_N2, "removal", F(5), F(1, 5)), (KOV_N5, "removal", F(7), F(17, 400))])
def test_hand_tables(rows, compares, t, hand):
    assert brute.eps_delta_ldp(rows, D) == t
    assert _hockey(rows, 2, compares) == hand
    assert (_pairs_u(t) if compares == "pairs" else _removal_u(t, len(rows))) == hand


def test_hand_values_of_the_bound():
    assert _pairs_u(F(3, 2)) == F(1, 10) and _pairs_u(F(4)) == F(23, 50)
    assert _removal_u(F(2), 3) == F(1, 30) and _removal_u(F(5), 2) == F(1, 5) and _removal_u(F(7), 5) == F(17, 400)
    # delta/N for every T <= N + 1 at gamma = 2
    assert all(_removal_u(F(t), n) == D / n for n in (2, 3, 5) for t in range(1, n + 2))


def test_brute_no_table_above_the_bounds():
    rng = random.Random(33)
    seen = 0
    for _ in range(1500):
        n = rng.randint(2, 5)
        rows = brute.random_rows(rng, n, rng.randint(2, 3) if n < 5 else 2, high=5)
        t = brute.eps_delta_ldp(rows, D)
        if t == brute.INF:
            continue
        seen += 1
        assert _hockey(rows, 2, "pairs") <= _pairs_u(t)
        assert _hockey(rows, 2, "removal") <= _removal_u(t, n)
        assert _hockey(rows, 3, "removal") <= _removal_u(t, n, g=3)
        for g in (F(5, 4), F(3, 2)):            # below N/(N - 1) too: the larger of the two ways' bounds
            c = n - g * (n - 1)
            other = c / n * _pairs_u(t, g=g / c) if c > 0 else F(0)
            assert _hockey(rows, g, "removal") <= max(_removal_u(t, n, g=g), other)
    assert seen > 200


@pytest.fixture(scope="module")
def results():
    return {b: check_implication("eps-delta-ldp", b, a_params={"delta": sympy.Rational(1, 10)},
                                 b_params={"eps": sympy.log(2)}, max_n=3)
            for b in ("delta-ldp", "delta-dp")}


@pytest.mark.parametrize("b,n,t,hand", [("delta-ldp", 3, F(3, 2), F(1, 10)), ("delta-ldp", 2, F(4), F(23, 50)),
                                        ("delta-dp", 3, F(2), F(1, 30)), ("delta-dp", 2, F(5), F(1, 5)),
                                        ("delta-dp", 5, F(7), F(17, 400))])
def test_proved_for_every_n_and_rechecked(results, b, n, t, hand):
    r = results[b]
    assert r.verdict == "proved" and r.method == "slack-hockey-stick", (b, r.method)
    cert = r.details["certificate"]
    assert check_certificate(cert).ok
    N, eps = sympy.Symbol("N", integer=True), sympy.Symbol("eps", positive=True)
    f = sympy.sympify(str(r.proved_f if getattr(r, "proved_f", None) is not None else r.tight),
                      locals={"N": N, "eps": eps})
    assert sympy.simplify(f.subs({N: n, eps: sympy.log(t)}) - hand) == 0


def test_tight_for_every_t_by_two_families(results):
    for b, r in (("delta-ldp", "2"), ("delta-dp", "N + 1")):
        cert = results[b].details["certificate"]
        assert cert["tight"] and cert["tightness"]["domain"] == [f"T <= {r}"]
        assert cert["tightness"]["beyond"]["domain"] == [f"T >= {r}"]
        assert results[b].tightness == "tight"


def _failed(report):
    return [s[0] for s in report.steps if not s[1]]


def test_forgeries_are_rejected(results):
    cert = results["delta-ldp"].details["certificate"]
    # delta dropped from K: (T - 2)/(T + 1), 2/5 at T = 4 below the 23/50 KOV_PAIR attains
    bad = check_certificate({**cert, "upper": "Max(1/10, (T - 2)/(T + 1))"})
    assert not bad.ok and any("U is the lemma's Max" in s for s in _failed(bad))
    assert not check_certificate({**cert, "upper": "(T - 17/10)/(T + 1)"}).ok       # the Max's delta dropped
    side = {**cert["A"], "slack": {"compares": "pairs", "delta": "1/5"}}            # not the registry's delta
    assert not check_certificate({**cert, "A": side}).ok
    data = copy.deepcopy(cert["upper_certificate"])
    data["b_divergence"]["gamma"] = "3"
    assert not check_certificate({**cert, "upper_certificate": data}).ok
    fam = copy.deepcopy(cert["tightness"])
    fam["domain"] = ["T <= 4"]                                      # delta and 0 beyond gamma: hockey-stick delta < U
    assert not check_certificate({**cert, "tightness": fam}).ok
    fam = copy.deepcopy(cert["tightness"])
    fam["beyond"]["rows"][1]["value"] = "(1 - 1/10)/(T + 2)"        # not the dominating pair: A's level above T
    bad = check_certificate({**cert, "tightness": fam})
    assert not bad.ok and len(_failed(bad)) == 2
    rem = results["delta-dp"].details["certificate"]
    # delta/(N + 1) for delta/N: 1/40 at N = 3, T = 2, below the 1/30 LOW attains
    forged = rem["upper"].replace("1/(10*N)", "1/(10*(N + 1))")
    assert forged != rem["upper"] and not check_certificate({**rem, "upper": forged}).ok
    # B at gamma 3/2 < N/(N - 1) for N = 2: Q_i - gamma P no longer vanishes, the lemma's case is not
    b = {**rem["B"], "params": {"eps": "log(3/2)"}}
    bad = check_certificate({**rem, "B": b})
    assert not bad.ok
