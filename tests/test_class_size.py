"""The ``class-size`` argument: A's level is its smallest class's size (k-anonymity, declared
``class_size_level``), B a one-sided class ratio (basic beta-likeness) or a class's total variation distance
(EMD t-closeness with the equal ground distance).

By hand: at k-anonymity level k every class has e >= k records. A class other than the whole table leaves
N - e >= k records to the others, so k <= e <= N - k: a partition into two or more classes (the tables
check-edge and the checker consider) exists only where 2 k <= N.
- basic beta: in each bucket e * q_E <= N * p (the class holds at most the table's mass), so
  q_E / p <= N / e <= N / k and beta <= N/k - 1; k records at (1, 0) in one class and N - k at (0, 1)
  in another give q_E / p = 1 / (k/N): beta = N/k - 1.
- total variation: on the buckets S where E lies above the table, N P - e x >= 0 (the others' mass), so
  x - P <= (N - e) x / N <= (N - k)/N; the same table gives 1 - k/N.
"""

import copy
import random
from fractions import Fraction

import pytest
import sympy

import brute
from implgraph.certify import certificates_in, check_certificate
from implgraph.definitions import get
from implgraph.definitions.capabilities import ClassSizeLevel
from implgraph.engines.checkedge import check_edge
from implgraph.engines.prove import check_implication

N, k = sympy.Symbol("N", integer=True), sympy.Symbol("k", real=True)


def _beta(n, kk):
    return Fraction(n, kk) - 1


def _tv(n, kk):
    return Fraction(n - kk, n)


CASES = [("basic-beta-likeness", {}, _beta), ("emd-t-closeness", {"ground": "equal"}, _tv),
         ("hierarchical-emd-t-closeness", {"ground": "equal"}, _tv)]


def _prove(b, params):
    return check_implication("k-anonymity", b, b_params=params, b_classes={"min_size": 1})


def test_k_anonymity_declares_a_class_size_level_and_brute_agrees():
    assert get("k-anonymity").has(ClassSizeLevel)
    assert not any(getattr(get(n), "class_size_level", False) for n in
                   ("alpha-k-anonymity", "distinct-l-diversity", "frequency-l-diversity", "mult-t-closeness"))
    rng = random.Random(5)
    d = get("k-anonymity")
    for _ in range(30):
        n = rng.randint(2, 9)
        labels = [f"E{rng.randint(1, 3)}" for _ in range(n)]
        rows = [[Fraction(1, 2), Fraction(1, 2)]] * n
        from implgraph.core.concrete import ConcreteTable
        ct = ConcreteTable.from_fractions(rows, classes=labels)
        assert d.concrete(ct) == brute.k_anonymity(labels) == min(labels.count(x) for x in set(labels))


@pytest.mark.parametrize("b, params, by_hand", CASES)
def test_tight_f_for_every_n_is_the_hand_derived_one(b, params, by_hand):
    r = _prove(b, params)
    assert r.verdict == "proved" and r.tightness == "tight" and r.method == "class-size"
    f = sympy.sympify(str(r.tight), locals={"N": N, "k": k})
    for n in range(2, 13):
        for kk in range(1, n // 2 + 1):
            level = f.subs({N: n, k: kk})
            want = by_hand(n, kk)
            # the prover's f is in B's units: beta (basic beta-likeness) or the distance
            assert sympy.Rational(want.numerator, want.denominator) == level, (b, n, kk)


@pytest.mark.parametrize("b, params, by_hand", CASES)
def test_the_family_attains_f_by_brute_force(b, params, by_hand):
    # k records at (1, 0) in one class, N - k at (0, 1) in another (2 k <= N); beyond, the whole table as one
    # class (not a partition check-edge considers) is at B's best level, below f
    level = {"basic-beta-likeness": brute.basic_beta_likeness, "emd-t-closeness": brute.emd_t,
             "hierarchical-emd-t-closeness": brute.emd_t}[b]
    for n in range(2, 13):
        for kk in range(1, n + 1):
            if 2 * kk <= n:
                rows = [[Fraction(1), Fraction(0)]] * kk + [[Fraction(0), Fraction(1)]] * (n - kk)
                labels = ["E1"] * kk + ["E2"] * (n - kk)
            else:
                rows, labels = [[Fraction(1, 3), Fraction(2, 3)]] * n, ["E1"] * n
            assert brute.k_anonymity(labels) >= kk
            assert level(rows, labels) == (by_hand(n, kk) if 2 * kk <= n else 0) <= by_hand(n, kk)


@pytest.mark.parametrize("b, params, by_hand", CASES)
def test_no_random_table_exceeds_f(b, params, by_hand):
    level = {"basic-beta-likeness": brute.basic_beta_likeness, "emd-t-closeness": brute.emd_t,
             "hierarchical-emd-t-closeness": brute.emd_t}[b]
    rng = random.Random(11)
    for _ in range(300):
        n, m = rng.randint(2, 8), rng.randint(2, 3)
        rows, labels = brute.random_rows(rng, n, m), brute.random_labels(rng, n)
        kk = brute.k_anonymity(labels)
        assert level(rows, labels) <= by_hand(n, kk)


@pytest.mark.parametrize("b, params, by_hand", CASES)
def test_certificates_rechecked_and_corruptions_rejected(b, params, by_hand):
    certs = certificates_in(_prove(b, params).details)
    assert len(certs) == 1
    cert = certs[0]
    assert check_certificate(cert, ns=range(2, 9)).ok
    assert "2*(T) <= N" in cert["domain"] and cert["symbols"]["T"] == "integer"
    # a multiplier changed
    bad = copy.deepcopy(cert)
    mass = bad["upper_certificate"]["multipliers"]["mass"]
    key = next(iter(mass))
    mass[key] = f"({mass[key]}) + 1"
    assert not check_certificate(bad, ns=range(2, 6)).ok
    # a smaller U (the identity no longer holds, the family no longer attains it)
    bad = copy.deepcopy(cert)
    bad["upper"] = "(N - T)/(2*N)" if "distance" in bad["B"] else "N/(2*T)"
    assert not check_certificate(bad, ns=range(2, 6)).ok
    # the domain without 2 T <= N (the family is no partition beyond)
    bad = copy.deepcopy(cert)
    bad["domain"] = [c for c in bad["domain"] if c != "2*(T) <= N"]
    assert not check_certificate(bad, ns=range(2, 6)).ok
    # A not a class-size level (the registry is read, not the certificate's word)
    bad = copy.deepcopy(cert)
    bad["A"]["definition"] = "distinct-l-diversity"
    assert not check_certificate(bad, ns=range(2, 6)).ok


def test_check_edge_exact_values_are_the_hand_derived_ones():
    # check-edge's bounded engine (every partition into classes, linear programs) at N = 6: the raw ratio N/k where
    # 2 k <= N; beyond, only the table of one class has classes of >= 4 records, and there a class is the table: raw 1
    r = check_edge("k-anonymity", "basic-beta-likeness", N=6)
    fw = r.forward
    assert fw.relation == "implication" and fw.verdict == "proved" and fw.tight_all_n is not None
    six = next(i for i in fw.instances if i.N == 6)
    assert dict(six.samples) == {"1": "6", "2": "3", "3": "2", "4": "1", "5": "1", "6": "1"}


def test_a_false_f_is_refuted_with_a_table():
    # f = N/k - 2 is below the tight N/k - 1 wherever 2 k <= N
    r = check_implication("k-anonymity", "basic-beta-likeness", "N/k - 2", b_classes={"min_size": 1})
    assert r.verdict == "refuted" and r.witness is not None


@pytest.mark.parametrize("a_classes", [{"min_size": 3}, {"min_size": 1, "max_size": 3}])
def test_not_claimed_when_a_restricts_the_partition(a_classes):
    # with classes of >= 3 records whatever k is, the tight value is N/max(k, 3) - 1, not N/k - 1; with a
    # maximum class size the family's class of N - k records is no table of the claim
    r = check_implication("k-anonymity", "basic-beta-likeness", a_classes=a_classes, b_classes={"min_size": 1})
    assert r.method != "class-size"
    cert = certificates_in(_prove("basic-beta-likeness", {}).details)[0]
    bad = copy.deepcopy(cert)
    bad["A"].update({k.replace("_size", "_class"): str(v) for k, v in a_classes.items()})
    rep = check_certificate(bad, ns=range(2, 6))
    assert not rep.ok and any("on any partition" in w for w, _, _ in rep.failures())


def test_the_proved_f_is_compared_with_the_linear_programs():
    # k-anonymity has tables only for 2 k <= N, so the first three compared levels rarely have two: every level is
    # then computed and compared with the proved f (N/k - 1) where two have a table; a wrong f is an error
    # (beyond N/2 only the table of one class satisfies A, where the proof is tight nowhere: each instance is compared
    # with it from above and fitted)
    fw = check_edge("k-anonymity", "basic-beta-likeness", N=6).forward
    assert [i.proved_checked for i in fw.instances if i.N >= 4] == [False] * 3
    from implgraph.engines import direction
    real = direction._prover_answer

    def wrong(*args):
        r = real(*args)
        r.tight = N / k - 2
        return r
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(direction, "_prover_answer", wrong)
        with pytest.raises(RuntimeError, match="N = 4.* level 1 is 4, the tight f proved for every N gives 3"):
            check_edge("k-anonymity", "basic-beta-likeness", N=4)


@pytest.mark.parametrize("when", [["2*k > N"], ["k > N"]])
def test_no_proof_where_no_partition_into_two_classes_exists(when):
    # at level k with 2 k > N every class has > N/2 records: no partition into two or more classes exists, so no
    # table satisfies k-anonymity there and a tight f would be of no table (it was "proved, tight (N - k)/k" with a
    # certificate on an empty domain, which the checker rejected)
    r = check_implication("k-anonymity", "basic-beta-likeness", None, when=when)
    assert r.verdict == "unknown" and r.tight is None
    assert "2*(T) <= N" in r.evidence and "nothing to prove" in r.evidence
    # beside a part where tables exist, the claim is proved (the rest holds for want of tables)
    r = check_implication("k-anonymity", "basic-beta-likeness", None, when=["k <= 3", "N >= 2"])
    assert r.verdict == "proved"
