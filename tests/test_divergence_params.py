"""Witness families with a divergence whose order is a parameter (renyi-ldp(alpha=2), renyi-dp(alpha=2)): the
families of implgraph.prover.arguments.divergence_family read the order from the parameters.

Hand values:

- one record at x = (K b, 1 - K b), N - 1 at y = (b, 1 - b), b = 1/((K - 1)^2 + 1): chi^2(x || y) = 1, so
  exp(D_2) = 1 + chi^2 = 2 between those records; at K = 3, b = 1/5, x = (3/5, 2/5), y = (1/5, 4/5):
  sum x^2/y = (9/25)/(1/5) + (4/25)/(4/5) = 9/5 + 1/5 = 2, and chi^2(y || x) = (4/25)/(3/5) + (4/25)/(2/5) = 2/3
  = (K - 1)/(K (K - 2)) <= 1; the ratio x_1/y_1 = K: ldp's raw level >= K;
- one record at x = (1/K, 1 - 1/K), N - 1 at y = (1/K^3, 1 - 1/K^3): KL < 2 both ways, exp(D_2(x || y)) >= K.
"""

from __future__ import annotations

import copy
import math
from fractions import Fraction as F

import pytest
import sympy

import brute
from implgraph.certify import check_certificate
from implgraph.engines.prove import check_implication

TWO = {"alpha": sympy.Integer(2)}
# (A, A's params, B, B's params): A bounded on the family, B unbounded in K
PAIRS = [("renyi-ldp", TWO, "ldp", {}), ("renyi-ldp", TWO, "dp", {}), ("renyi-dp", TWO, "dp", {}),
         ("renyi-ldp", TWO, "mult-t-closeness", {}), ("renyi-ldp", TWO, "kt-closeness", {"k": 2}),
         ("renyi-ldp", TWO, "kdp", {"k": 2}), ("renyi-ldp", TWO, "delta-disclosure-privacy", {}),
         ("kl-ldp", {}, "renyi-ldp", TWO)]


@pytest.fixture(scope="module")
def results():
    return {(a, b): check_implication(a, b, a_params=ap, b_params=bp, max_n=3) for a, ap, b, bp in PAIRS}


def test_refuted_for_every_n_with_a_checked_certificate(results):
    for (a, b), r in results.items():
        assert r.verdict == "refuted" and r.method == "divergence-family", (a, b, r.evidence)
        assert check_certificate(r.details["certificate"]).ok, (a, b)


def test_forged_orders_rejected(results):
    bad = copy.deepcopy(results[("renyi-ldp", "ldp")].details["certificate"])
    bad["A"]["params"] = {"alpha": "3"}          # Renyi 3 is not bounded by the chi^2 family's log 2
    assert not check_certificate(bad).ok
    bad = copy.deepcopy(results[("kl-ldp", "renyi-ldp")].details["certificate"])
    bad["B"]["params"] = {"alpha": "3/2"}        # an order below 2 is not shown unbounded by the KL family
    assert not check_certificate(bad).ok


def test_chi_square_family_by_hand_and_brute_force():
    b = F(1, 5)
    rows = [[3 * b, 1 - 3 * b], [b, 1 - b]]
    assert rows == [[F(3, 5), F(2, 5)], [F(1, 5), F(4, 5)]]
    assert brute.renyi_power_sum(rows[0], rows[1], 2) == 2
    assert brute.renyi_power_sum(rows[1], rows[0], 2) == 1 + F(2, 3)
    for K in (3, 4, 7, 20):
        b = F(1, (K - 1) ** 2 + 1)
        for n in (2, 3, 4):
            rows = [[K * b, 1 - K * b]] + [[b, 1 - b]] * (n - 1)
            assert brute.renyi_level_sum(rows, 2, "pairs") <= 2           # exp(D_2) <= 2 both ways
            assert brute.renyi_level_sum(rows, 2, "removal") <= 2         # averages of records: at most the pairs'
            assert brute.ldp(rows) >= K                                   # the ratio x_1/y_1 = K
            assert brute.dp(rows) >= F(K + n - 1, n)                      # the table against the records at y


def test_kl_family_by_brute_force():
    for K in (2, 3, 5, 10):
        for n in (2, 3):
            rows = [[F(1, K), 1 - F(1, K)]] + [[F(1, K ** 3), 1 - F(1, K ** 3)]] * (n - 1)
            assert brute.kl_level_float(rows, "pairs") < 2
            assert brute.renyi_level_sum(rows, 2, "pairs") >= K           # exp(D_2) >= 1 + chi^2 >= K
            assert math.log(brute.renyi_level_sum(rows, 2, "pairs")) >= math.log(K) - 1e-12


# -- a class-size level against a class divergence: log(N/T) ---------------------------------------------------------

@pytest.fixture(scope="module")
def by_size():
    return {"kl": check_implication("k-anonymity", "kl-closeness", max_n=3),
            "renyi2": check_implication("k-anonymity", "renyi-closeness", b_params=TWO, max_n=3)}


def test_class_size_bounds_a_class_divergence(by_size):
    n, k = sympy.Symbol("N"), sympy.Symbol("k")
    for r in by_size.values():
        # tight where N >= 2 k (T records on a value of their own in one class, N - T in another), the assumption stated
        assert r.verdict == "proved" and r.tightness == "tight" and r.method == "divergence-ceiling"
        assert r.details["attained_where"] == "2*T <= N"
        f = sympy.sympify(r.details.get("proved_f") or str(r.tight), locals={"N": n, "k": k})
        assert sympy.simplify(sympy.expand_log(f - sympy.log(n / k), force=True)) == 0     # log(N/k), by hand
        cert = r.details["certificate"]
        assert check_certificate(cert).ok
        bad = copy.deepcopy(cert)
        bad["A"]["definition"] = "distinct-l-diversity"     # not a class-size level: s = T is not read
        assert not check_certificate(bad).ok
        bad = copy.deepcopy(cert)
        bad["domain"].remove("(T) <= N")
        assert not check_certificate(bad).ok
        bad = copy.deepcopy(cert)
        bad["upper"] = "log(N/T)/2"
        assert not check_certificate(bad).ok


def test_class_size_divergence_by_brute_force():
    import random
    rng = random.Random(42)
    for _ in range(300):
        n = rng.randint(2, 6)
        rows, classes = brute.random_rows(rng, n, rng.randint(2, 3)), brute.random_labels(rng, n)
        k = brute.k_anonymity(classes)
        assert brute.kl_level_float(rows, "class", classes) <= math.log(F(n, k)) + 1e-12
        assert brute.renyi_level_sum(rows, 2, "class", classes) <= F(n, k)
    for n, k in ((4, 2), (5, 2), (6, 3)):          # k records at (1, 0), n - k at (0, 1): log(n/k) exactly
        rows, classes = [[F(1), F(0)]] * k + [[F(0), F(1)]] * (n - k), ["E1"] * k + ["E2"] * (n - k)
        assert brute.k_anonymity(classes) == k and brute.renyi_level_sum(rows, 2, "class", classes) == F(n, k)
        assert abs(brute.kl_level_float(rows, "class", classes) - math.log(n / k)) < 1e-12


# -- KL (pairs or removal) against Renyi-2 of record removal: the KL family, chi^2(P || y) = chi^2(x || y)/N^2 --------

@pytest.mark.parametrize("a", ["kl-ldp", "kl-dp"])
def test_kl_against_removal_renyi_refuted(a):
    r = check_implication(a, "renyi-dp", b_params=TWO, max_n=3)
    assert r.verdict == "refuted" and r.method == "divergence-family"
    cert = r.details["certificate"]
    assert check_certificate(cert).ok
    bad = copy.deepcopy(cert)
    bad["family"]["A_bound"] = "1/2"            # the family's KL is not below 1/2
    assert not check_certificate(bad).ok
    bad = copy.deepcopy(cert)
    bad["B"]["params"] = {"alpha": "3/2"}
    assert not check_certificate(bad).ok


def test_kl_family_removal_by_brute_force():
    for K in (2, 3, 5, 10):
        for n in (2, 3, 4):
            rows = [[F(1, K), 1 - F(1, K)]] + [[F(1, K ** 3), 1 - F(1, K ** 3)]] * (n - 1)
            assert brute.kl_level_float(rows, "removal") < 2
            assert brute.renyi_level_sum(rows, 2, "removal") >= 1 + F(K - 1, n * n)   # hand: chi^2(x || y)/N^2


# -- a support family against a divergence whose order is a parameter ---------------------------------------------------

def test_slack_support_family_against_a_parametric_order():
    from implgraph.definitions import get
    from implgraph.prover.divergence_witness import support_certificate
    for b in ("renyi-ldp", "renyi-dp"):
        found = support_certificate(get("eps-delta-ldp"), {"delta": sympy.Rational(1, 10)}, get(b), TWO)
        assert found is not None, b
        cert, _ = found
        assert check_certificate(cert).ok
        bad = copy.deepcopy(cert)
        bad["family"]["rows"][0]["values"] = ["0", "1"]        # every record alike: B is 0, not infinite
        assert not check_certificate(bad).ok
    # by hand and brute force: x = (1/10, 9/10), N - 1 at (0, 1); e^eps = 1 (1 <= 9/10 + 1/10), D_2(x || y) = oo
    for n in (2, 3, 5):
        rows = [[F(1, 10), F(9, 10)]] + [[F(0), F(1)]] * (n - 1)
        assert brute.eps_delta_ldp(rows, F(1, 10)) == 1
        assert brute.renyi_level_sum(rows, 2, "pairs") is None and brute.renyi_level_sum(rows, 2, "removal") is None


# -- a subset level against a class divergence: the subset chord, at most the composition through record removal ------

@pytest.mark.parametrize("a, b, bp", [("kdp", "kl-closeness", {}), ("kt-closeness", "renyi-closeness", TWO)])
def test_subset_level_below_the_removal_ceiling(a, b, bp):
    """The subset chord (tight for every N) is at most the composition's old bound log(N - (N - 1)/T) (a class's ratio
    to the table within [0, N - (N - 1)/T], by hand), and equal to it where the range is [0, N - (N - 1)/T]."""
    r = check_implication(a, b, a_params={"k": sympy.Integer(2)}, b_params=bp, max_n=3)
    assert r.verdict == "proved" and r.method == "subset-chord" and r.tight is not None
    assert check_certificate(r.details["certificate"]).ok and r.details["certificate"]["min_classes"] == 1
    n, t, eps = sympy.Symbol("N", integer=True), sympy.Symbol("t", positive=True), sympy.Symbol("eps", positive=True)
    f = sympy.sympify(str(r.tight), locals={"N": n, "t": t, "eps": eps})
    for N_, T_ in ((5, F(3, 2)), (6, F(2)), (7, F(3, 2)), (8, F(5))):
        at = {n: N_, t: T_, eps: sympy.log(T_)}
        old = math.log(N_ - (N_ - 1) / T_)
        assert float(f.subs(at)) <= old + 1e-12
    # kt(2) and kdp(2) at N = 8, T = 5: lo = 0 and hi = N - (N - 1)/T, the old bound exactly (Renyi 2: log hi)
    assert abs(float(f.subs({n: 8, t: 5, eps: sympy.log(5)})) - math.log(8 - 7 / 5)) < 1e-12


def test_subset_level_composition_by_brute_force():
    import random
    rng, finite = random.Random(43), 0
    for _ in range(300):
        n = rng.randint(3, 6)
        rows, classes = brute.random_rows(rng, n, 2), brute.random_labels(rng, n)
        for T in (brute.kdp(rows, 2), brute.kt(rows, 2)):
            if T == brute.INF:
                continue
            finite += 1
            cap = n - F(n - 1) / T
            assert brute.kl_level_float(rows, "class", classes) <= math.log(cap) + 1e-12
            assert brute.renyi_level_sum(rows, 2, "class", classes) <= cap      # exp(D_2) <= the largest ratio
    assert finite > 50


def test_a_symbolic_class_size_against_a_divergence_is_decided_not_crashed():
    """The matrix's symbols mode: kt-closeness(k=k1) against Renyi privacy of order 2. The divergence families need
    a table's numbers, so they step aside where a parameter is a symbol; the pair is still decided: a table whose
    records all differ in support has renyi-ldp infinite while any (k1, t)-closeness level is finite (here the
    one-table witness of the bounded search), never 'the check failed'."""
    from implgraph.map.matrix import decide_pair
    cells = decide_pair("kt-closeness(k=k1)", "renyi-ldp(alpha=2)", when=["1 <= k1", "k1 <= N - 1"])
    assert all(not (c.reason or "").startswith("the check failed") for c in cells)
    forward = next(c for c in cells if c.a == "kt-closeness(k=k1)")
    assert forward.relation == "non-implication"
