"""The prover reads the declarations, not the names (issue 12): two definitions declaring the same raw
level are one level; a subset of one record fixed by the condition is a subset of one record; every
argument bounds one bucket at a time, so it holds for any number of buckets.

Hand facts: multiplicative t-closeness (Definition 4 of ekenstedt2022) and delta-disclosure privacy
(Brickell and Shmatikov 2008) both bound max(q/p, p/q) over every class and value, the first as t, the
second as e^delta, so t = e^delta on every table: delta = ln t is the tight f both ways. (k, eps)-DP with
k = 3 at N = 4 compares one remaining record with the whole table, the product argument gives the pairwise
ratio <= min(T^2, N (T - 1) + 1) with T = e^eps. ldp => (1, t)-closeness has the tight raw level
((N - 1) T + 1) / N (ekenstedt2022 Theorem 2).
"""

import random
from fractions import Fraction as Fr

import pytest
import sympy

import brute
from implgraph.certify import certificates_in, check_certificate
from implgraph.engines.prove import check_implication

eps = sympy.Symbol("eps", positive=True)


def _random_rows(rng, n, p):
    rows = []
    for _ in range(n):
        w = [rng.randint(0, 4) for _ in range(p)]
        if not any(w):
            w[0] = 1
        rows.append([Fr(x, sum(w)) for x in w])
    return rows


def test_brute_force_agrees_the_two_levels_are_one():
    rng = random.Random(12)
    for _ in range(80):
        n, p = rng.randint(2, 6), rng.choice([2, 3])
        rows = _random_rows(rng, n, p)
        classes = [rng.randint(1, 3) for _ in range(n)]
        assert brute.mult_t(rows, classes) == brute.delta_disclosure_ratio(rows, classes)


@pytest.mark.parametrize("a, b, f_tight", [
    ("mult-t-closeness", "delta-disclosure-privacy", "log(t)"),
    ("delta-disclosure-privacy", "mult-t-closeness", "exp(delta)"),
])
def test_same_declared_level_is_proved_with_a_certificate(a, b, f_tight):
    r = check_implication(a, b)
    assert r.verdict == "proved" and r.method == "same-level"
    assert sympy.simplify(sympy.sympify(str(r.tight)) - sympy.sympify(f_tight)) == 0
    assert "any number of buckets" in r.evidence
    certs = certificates_in(r.details)
    assert certs and all(check_certificate(c, ns=range(2, 9)).ok for c in certs)


def test_a_weaker_class_description_is_not_the_same_level():
    r = check_implication("mult-t-closeness", "delta-disclosure-privacy")
    cert = dict(certificates_in(r.details)[0])
    cert["B"] = dict(cert["B"], min_class="2")
    assert not check_certificate(cert, ns=range(2, 7)).ok


def test_same_level_f_below_is_refuted():
    r = check_implication("mult-t-closeness", "delta-disclosure-privacy", "log(t)/2")
    assert r.verdict == "refuted"


def test_a_subset_of_one_record_fixed_by_the_condition():
    r = check_implication("kdp", "ldp", a_params={"k": "3"}, when=["N == 4"])
    assert r.verdict == "proved" and r.method == "product"
    got = sympy.sympify(str(r.tight), locals={"eps": eps, "N": sympy.Symbol("N")}).subs(sympy.Symbol("N"), 4)
    want = sympy.log(sympy.Min(4 * (sympy.exp(eps) - 1) + 1, sympy.exp(2 * eps)))
    for e in (sympy.Rational(1, 2), 1, sympy.log(3), 2):
        assert sympy.simplify(got.subs(eps, e) - want.subs(eps, e)) == 0
    assert all(check_certificate(c, ns=range(2, 9)).ok for c in certificates_in(r.details))


def test_three_buckets_never_beat_the_binary_bound():
    """The bounds of the vertex and product arguments on random tables of three and four buckets."""
    rng = random.Random(5)
    for _ in range(60):
        n, p = rng.randint(2, 5), rng.choice([3, 4])
        rows = _random_rows(rng, n, p)
        T = brute.ldp(rows)
        if T != brute.INF:
            assert brute.kt(rows, 1) <= ((n - 1) * T + 1) / n
        if n >= 3:
            Tk = brute.kdp(rows, n - 1)
            if Tk != brute.INF:
                assert brute.ldp(rows) <= min(Tk ** 2, n * (Tk - 1) + 1)


def test_a_family_on_a_partition_the_sides_exclude_is_rejected():
    # ldp => mult-t-closeness with singleton classes (classes of at most 1 record): the vertex table is one
    # record at 1/(T+1) and N - 1 at T/(T+1), each record its own class; the same blocks read as two classes
    # (1 and N - 1 records) are a partition the certificate's B excludes
    r = check_implication("ldp", "mult-t-closeness", b_classes={"min_size": 1, "max_size": 1})
    (cert,) = certificates_in(r.details)
    assert check_certificate(cert, ns=range(2, 8)).ok
    cert = dict(cert, tightness=dict(cert["tightness"], singleton_classes=False))
    assert not check_certificate(cert, ns=range(2, 8)).ok


def test_a_class_size_that_is_not_a_count_gets_no_class_to_subset_argument():
    # classes of >= 3/2 records are classes of >= 2: (N - 1) T / 2, so f = ln((N - 1) t / 2) is true; the
    # argument must not build a table with a class of one record and refute it
    # (the argument is for partitions into >= 2 classes: over every partition one class of 4 records refutes it)
    r = check_implication("mult-t-closeness", "dp", "log((N-1)*t/2)", a_classes={"min_size": sympy.Rational(3, 2)},
                          when=["N == 4"], max_n=4, min_classes=2)
    assert r.verdict != "refuted"


def test_an_instance_outside_the_parameter_ranges_refutes_nothing():
    # kt-closeness(k) =/=> ldp on 2 <= k, N <= 3: at k = 3 no table exists (k <= N - 1), so the product
    # argument's "proof" there is vacuous; the claim is true at k = 2, N = 3
    from implgraph.checks.not_implies import _implication_at_an_instance
    from implgraph.io.theorems import edge_from_node, load_claims, witness_ids
    import copy
    node = copy.copy(next(c for c in load_claims() if c.get("id") == "ekenstedt2022/theorem-3b"))
    node.update(when=["2 <= k", "N <= 3"])
    node.pop("when_sources", None)
    assert _implication_at_an_instance(edge_from_node(node, witness_ids())) is None
