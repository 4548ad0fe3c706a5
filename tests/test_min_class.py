"""B's ceiling over the classes A allows: (alpha,k)-anonymity declares k a minimum class size
(``min_class_param``), and a class's total variation distance has the ceiling (N - s)/N (``distance-ceiling``).

By hand: (alpha,k)-anonymity is infinite on a table with a class of fewer than k records, so every table where it
is finite has classes of e >= k records. In each bucket such a class holds at most the table's mass, so its
frequency is at most N/e <= N/k times the table's (basic beta <= N/k - 1); on the buckets S where it lies above the
table the other records hold N P - e x >= 0, so its distance from the table is x - P <= (N - e) x/N <= (N - k)/N.
Both are attained at alpha = 1: k records at (1, 0) in one class, N - k at (0, 1) in another (2 k <= N), and at
every alpha > 0 with 2 ceiling(1/alpha) buckets (tests/test_uniform_ceiling.py).
Without a minimum class size (k = 1, or any A) the distance ceiling is (N - 1)/N.
"""

import copy
import random
from fractions import Fraction

import pytest
import sympy

import brute
from implgraph.certify import certificates_in, check_certificate
from implgraph.core.concrete import ConcreteTable
from implgraph.definitions import get
from implgraph.definitions.capabilities import MinClassSize
from implgraph.engines.prove import check_implication

N = sympy.Symbol("N", integer=True)


def _random_table(rng, n, m):
    return brute.random_rows(rng, n, m), brute.random_labels(rng, n)


def test_the_declaration_agrees_with_the_brute_force():
    d = get("alpha-k-anonymity")
    assert d.declared(MinClassSize) == MinClassSize("k")
    assert not any(getattr(get(n), "min_class_param", None) for n in ("k-anonymity", "distinct-l-diversity", "dp"))
    rng = random.Random(2)
    for _ in range(200):
        n, m, k = rng.randint(2, 8), rng.randint(2, 3), rng.randint(1, 4)
        rows, labels = _random_table(rng, n, m)
        small = min(labels.count(x) for x in set(labels)) < k
        assert (brute.alpha_k(rows, labels, k) == brute.INF) == small
        level = d.concrete(ConcreteTable.from_fractions(rows, classes=labels), k)
        assert (level == brute.INF) == small
        if not small:
            assert level == 1 + brute.alpha_k(rows, labels, k)        # affine scale: raw 1 + alpha


def test_no_random_table_where_a_is_finite_exceeds_the_ceilings():
    rng = random.Random(9)
    for _ in range(400):
        n, m, k = rng.randint(2, 8), rng.randint(2, 4), rng.randint(1, 3)
        rows, labels = _random_table(rng, n, m)
        if brute.alpha_k(rows, labels, k) == brute.INF:
            continue
        assert brute.basic_beta_likeness(rows, labels) <= Fraction(n, k) - 1
        assert brute.emd_t(rows, labels) <= Fraction(n - k, n)


@pytest.mark.parametrize("n, k", [(n, k) for n in range(2, 11) for k in range(1, n // 2 + 1)])
def test_both_ceilings_are_attained_at_alpha_one(n, k):
    rows = [[Fraction(1), Fraction(0)]] * k + [[Fraction(0), Fraction(1)]] * (n - k)
    labels = ["E1"] * k + ["E2"] * (n - k)
    assert brute.alpha_k(rows, labels, k) == 1
    assert brute.basic_beta_likeness(rows, labels) == Fraction(n, k) - 1
    assert brute.emd_t(rows, labels) == Fraction(n - k, n)


CASES = [("basic-beta-likeness", {}, "one-sided-ceiling", lambda k: N / k - 1),
         ("emd-t-closeness", {"ground": "equal"}, "distance-ceiling", lambda k: (N - k) / N),
         ("hierarchical-emd-t-closeness", {"ground": "equal"}, "distance-ceiling", lambda k: (N - k) / N)]


@pytest.mark.parametrize("b, params, method, f", CASES)
@pytest.mark.parametrize("k", [1, 2, 3])
def test_prover_f_and_certificates(b, params, method, f, k):
    r = check_implication("alpha-k-anonymity", b, a_params={"k": k}, b_params=params)
    # tight at every alpha > 0 since stop 28 (tests/test_uniform_ceiling.py: k records uniform over ceiling(1/alpha)
    # values in one class, N - k over as many others in another)
    assert r.verdict == "proved" and r.method == method and r.tightness == "tight"
    assert sympy.simplify(sympy.sympify(str(r.tight), locals={"N": N}) - f(k)) == 0
    (cert,) = certificates_in(r.details)
    assert check_certificate(cert, ns=range(2, 7)).ok
    assert cert["A"]["min_class_param"] == "k" and cert["B"]["min_class"] == str(k)
    forged = copy.deepcopy(cert)        # another A: its registered definition declares no minimum class size
    forged["A"]["definition"] = "mult-t-closeness"
    forged["A"]["params"] = {"k": str(k)}
    assert not check_certificate(forged, ns=range(2, 5)).ok
    if k > 1:
        forged = copy.deepcopy(cert)    # the sides' classes larger than A's k: a narrower claim than A allows
        forged["A"]["params"]["k"] = "1"
        rep = check_certificate(forged, ns=range(2, 5))
        assert not rep.ok and any("minimum class size" in w for w, _, _ in rep.failures())


@pytest.mark.parametrize("a", ["distinct-l-diversity", "entropy-l-diversity", "enhanced-beta-likeness"])
def test_the_distance_ceiling_whatever_a_is(a):
    r = check_implication(a, "emd-t-closeness", b_params={"ground": "equal"})
    if a == "enhanced-beta-likeness":
        # since stop 28 basic beta-likeness's tight f, through finite-level-of (tests/test_ceiling.py)
        assert r.verdict == "proved" and r.method == "chain" and r.tightness == "tight"
        return
    assert r.verdict == "proved" and r.method == "distance-ceiling"
    # tight where A counts a uniform class's values (the l-diversities: tests/test_uniform_ceiling.py)
    assert r.tightness == "tight"
    assert sympy.simplify(sympy.sympify(str(r.tight), locals={"N": N}) - (N - 1) / N) == 0
    (cert,) = certificates_in(r.details)
    assert check_certificate(cert, ns=range(2, 6)).ok
    bad = copy.deepcopy(cert)           # a multiplier changed
    bad["upper_certificate"]["multipliers"]["mass"]["1 - x >= 0"] = "N"
    assert not check_certificate(bad, ns=range(2, 5)).ok
    bad = copy.deepcopy(cert)           # a smaller U: (N - 2)/N is not implied by classes of >= 1 record
    bad["upper"] = "(N - 2)/N"
    assert not check_certificate(bad, ns=range(2, 5)).ok
    rng = random.Random(4)
    for _ in range(200):
        n = rng.randint(2, 8)
        rows, labels = _random_table(rng, n, rng.randint(2, 4))
        assert brute.emd_t(rows, labels) <= Fraction(n - 1, n)
