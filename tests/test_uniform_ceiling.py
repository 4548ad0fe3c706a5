"""The l-diversities say nothing of how far a class lies from the table: distinct, frequency and entropy l-diversity
=> EMD t-closeness (equal ground distance), hierarchical EMD and basic beta-likeness, each tight at B's ceiling.

By hand: one record uniform over m values in class E1, N - 1 records uniform over m other values in E2 (2 m
buckets). Each class is uniform over m values, so its distinct count, its 1/max frequency and its exp(entropy) are
m: every l-diversity holds at l = m. The table gives each of E1's values 1/(m N): E1 is (N - 1)/N from the table in
total variation (its m values hold 1 - 1/N more than the table, the others 1 - 1/N less, halved), and E1's
frequency 1/m is N times the table's, beta = N - 1. These are the ceilings every table of N records respects (a class
of e >= 1 records holds at most the table's mass: q <= N p / e; the other records hold N P - e x >= 0 where the class
lies above the table), so at every l >= 1 (m = ceiling(l)) the tight f is (N - 1)/N, and N - 1 for beta.
"""

import copy
import random
import math
from fractions import Fraction

import pytest
import sympy

import brute
from implgraph.certify import certificates_in, check_certificate
from implgraph.engines.prove import check_implication

N = sympy.Symbol("N", integer=True)
A_DEFS = ["distinct-l-diversity", "frequency-l-diversity", "entropy-l-diversity"]
B_DEFS = [("emd-t-closeness", {"ground": "equal"}, (N - 1) / N), ("hierarchical-emd-t-closeness", {"ground": "equal"},
                                                                   (N - 1) / N), ("basic-beta-likeness", {}, N - 1)]
LEVELS = (Fraction(1), Fraction(5, 4), Fraction(2), Fraction(5, 2), Fraction(4))
BRUTE = {"distinct-l-diversity": brute.distinct_l, "frequency-l-diversity": brute.frequency_l,
         "entropy-l-diversity": brute.entropy_l}


def _family(n, level):
    m = math.ceil(level)
    one, other = [Fraction(1, m)] * m + [Fraction(0)] * m, [Fraction(0)] * m + [Fraction(1, m)] * m
    return [one] + [other] * (n - 1), ["E1"] + ["E2"] * (n - 1)


@pytest.mark.parametrize("n", range(2, 13))
def test_the_family_attains_the_ceilings_by_brute_force(n):
    for level in LEVELS:
        rows, labels = _family(n, level)
        for a, levels in BRUTE.items():
            assert sympy.sympify(levels(rows, labels)) == math.ceil(level) >= level, a
        assert brute.emd_t(rows, labels) == Fraction(n - 1, n)
        assert brute.basic_beta_likeness(rows, labels) == n - 1


def test_the_brute_force_l_diversities_by_hand():
    # class (1/2, 1/4, 1/4): distinct 3, frequency 2, entropy 2^(1/2) 4^(1/2) = 2 sqrt(2); the table's is its worst class
    rows = [[Fraction(1, 2), Fraction(1, 4), Fraction(1, 4)], [Fraction(1), Fraction(0), Fraction(0)]]
    assert brute.distinct_l(rows, ["E", "E"]) == 3           # one class, mean (3/4, 1/8, 1/8): three values
    assert brute.distinct_l(rows, ["E", "F"]) == 1           # the class (1, 0, 0) holds one value
    assert brute.frequency_l(rows, ["E", "E"]) == Fraction(4, 3)
    assert brute.frequency_l(rows[:1], ["E"]) == 2
    assert sympy.simplify(brute.entropy_l(rows[:1], ["E"]) - 2 * sympy.sqrt(2)) == 0
    assert brute.entropy_l(rows, ["E", "F"]) == 1            # the class (1, 0, 0)


@pytest.mark.parametrize("a", A_DEFS)
@pytest.mark.parametrize("b, b_params, by_hand", B_DEFS, ids=[b for b, _, _ in B_DEFS])
def test_prover_tight_f_and_certificate(a, b, b_params, by_hand):
    r = check_implication(a, b, b_params=b_params)
    assert r.verdict == "proved" and r.tightness == "tight"
    assert sympy.simplify(sympy.sympify(str(r.tight), locals={"N": N}) - by_hand) == 0
    assert "the attaining table has 2*ceiling(l) buckets" in r.evidence
    (cert,) = certificates_in(r.details)
    rep = check_certificate(cert, ns=range(2, 9))
    assert rep.ok, rep.failures()
    assert any(h.startswith("A >= T and B = U exactly") for w, _, h in rep.steps if "family" in w)


@pytest.fixture(scope="module")
def cert():
    r = check_implication("frequency-l-diversity", "basic-beta-likeness")
    return certificates_in(r.details)[0]


def _forged(cert, change):
    c = copy.deepcopy(cert)
    change(c)
    return check_certificate(c, ns=range(2, 6)).ok


def test_forgeries_are_rejected(cert):
    assert check_certificate(cert, ns=range(2, 6)).ok
    blocks = lambda c: c["tightness"]["uniform_blocks"]         # noqa: E731
    # one value fewer: A's level ceiling(T) - 1 is below T
    assert not _forged(cert, lambda c: blocks(c)[0].update(values="ceiling(T) - 1"))
    # a block over a number of values that is no integer
    assert not _forged(cert, lambda c: blocks(c)[0].update(values="T"))
    # two records in the lone class: B's level is N/2, not U = N
    assert not _forged(cert, lambda c: (blocks(c)[0].update(count="2"), blocks(c)[1].update(count="N - 2")))
    # a U the family does not attain
    assert not _forged(cert, lambda c: c.update(upper="N + 1"))
    # a definition that does not count a uniform class's values (basic beta-likeness as A)
    assert not _forged(cert, lambda c: c["A"].update(definition="basic-beta-likeness"))
    # the claim that A counts a uniform class's values, dropped: A's level is then read as a ratio
    assert not _forged(cert, lambda c: c["A"].pop("uniform_class_level"))


def test_a_family_with_too_many_buckets_is_rejected_quickly(cert):
    # its rows are written out: past UNIFORM_MAX_BUCKETS buckets the checker refuses the family (review: 10**7 values
    # ran out of memory)
    import time
    from implgraph.certify.levels import UNIFORM_MAX_BUCKETS
    c = copy.deepcopy(cert)
    for block in c["tightness"]["uniform_blocks"]:
        block["values"] = "ceiling(T) + 10**7"
    start = time.perf_counter()
    rep = check_certificate(c, ns=range(2, 4))
    assert not rep.ok and time.perf_counter() - start < 30
    assert any(f"more than {UNIFORM_MAX_BUCKETS} buckets" in h for _, _, h in rep.failures())


def test_the_attaining_tables_buckets_are_shown_beside_the_tight_f():
    # the bounded check's tables are binary: check-edge and the matrix say how many buckets the attaining table has
    from implgraph.engines.checkedge import check_edge
    from implgraph.map.matrix import cell_of
    fw = check_edge("entropy-l-diversity", "emd-t-closeness", N=3).forward
    assert fw.tight_all_n == "(N - 1)/N" and "2*ceiling(l) buckets" in fw.tight_attained
    assert "2*ceiling(l) buckets" in fw.evidence
    assert cell_of(fw, "generalisation").tight_at.startswith("every N; the attaining table has 2*ceiling(l) buckets")


# recursive (c,l)-diversity: its level is max(1, max_E r_1/(r_l + ... + r_m)); a class uniform over l values has
# r_1 = 1/l and r_l + ... = 1/l, level 1 (the strongest). The same two classes with m = l values each (2 l buckets)
# satisfy it at every c and reach B's ceilings.
@pytest.mark.parametrize("n", range(2, 13))
@pytest.mark.parametrize("l", [2, 3])
def test_recursive_diversity_family_by_brute_force(n, l):
    rows, labels = _family(n, l)
    assert brute.recursive_cl(rows, labels, l) == 1
    assert brute.emd_t(rows, labels) == Fraction(n - 1, n)
    assert brute.basic_beta_likeness(rows, labels) == n - 1


@pytest.mark.parametrize("l", ["2", "3"])
@pytest.mark.parametrize("b, b_params, by_hand", B_DEFS, ids=[b for b, _, _ in B_DEFS])
def test_recursive_diversity_prover_tight_f_and_certificate(l, b, b_params, by_hand):
    r = check_implication("recursive-cl-diversity", b, a_params={"l": l}, b_params=b_params)
    assert r.verdict == "proved" and r.tightness == "tight"
    assert sympy.simplify(sympy.sympify(str(r.tight), locals={"N": N}) - by_hand) == 0
    assert f"the attaining table has {2 * int(l)} buckets" in r.evidence
    (c,) = certificates_in(r.details)
    assert check_certificate(c, ns=range(2, 8)).ok


@pytest.mark.parametrize("seed", range(3))
def test_the_checkers_tail_ratio_level_is_the_brute_force_one(seed):
    from implgraph.certify.levels import level
    rng = random.Random(seed)
    for _ in range(40):
        n, m, l = rng.randint(2, 6), rng.randint(2, 4), rng.randint(1, 3)
        rows, labels = brute.random_rows(rng, n, m), brute.random_labels(rng, n)
        got = level({"family": "class", "tail_ratio": str(l)}, [(1, row, lab) for row, lab in zip(rows, labels)])
        assert got == brute.recursive_cl(rows, labels, l), (rows, labels, l)


def test_recursive_diversity_forgeries_are_rejected():
    r = check_implication("recursive-cl-diversity", "basic-beta-likeness", a_params={"l": "2"})
    cert = certificates_in(r.details)[0]
    blocks = lambda c: c["tightness"]["uniform_blocks"]         # noqa: E731
    assert check_certificate(cert, ns=range(2, 6)).ok
    # one value per class: the tail r_2 + ... is 0 and the level infinite
    assert not _forged(cert, lambda c: [b.update(values="1") for b in blocks(c)])
    # another l than A's parameter, or the tail ratio dropped from A's description: not A as registered
    assert not _forged(cert, lambda c: c["A"].update(tail_ratio="3"))
    assert not _forged(cert, lambda c: c["A"].pop("tail_ratio"))


def test_check_edge_shows_the_binary_tight_f_beside_the_four_bucket_one():
    # with two buckets (the linear programs) the tight f at N = 4 is lower; the prover's f needs 4 buckets and is not
    # compared with them
    from implgraph.engines.checkedge import check_edge
    fw = check_edge("recursive-cl-diversity(l=2)", "basic-beta-likeness", N=3).forward
    assert fw.verdict == "proved" and fw.tight_all_n == "N - 1" and "4 buckets" in fw.tight_attained


def test_a_proved_f_of_wider_tables_still_bounds_the_instances_from_above():
    # (third review: skipping the comparison whenever the attaining table is wider could hide a prover bug) an
    # instance's exact value must be at most the proved f where its table is wider than the instance's p, and equal
    # where it is not
    from implgraph.engines.instance import Instance, _below_proved
    inst = Instance(4, {"N": 4}, "implication")
    samples = [(Fraction(2), Fraction(3))]
    four = lambda a: 4      # noqa: E731
    _below_proved(inst, samples, (None, lambda a: sympy.Integer(4), four), 2)            # 3 <= 4: wider tables
    with pytest.raises(RuntimeError):
        _below_proved(inst, samples, (None, lambda a: sympy.Integer(2), four), 2)        # 3 > 2: a wrong f
    with pytest.raises(RuntimeError):
        _below_proved(inst, samples, (None, lambda a: sympy.Integer(4), lambda a: 2), 2)  # binary: must be equal


def test_at_l_1_the_attaining_table_is_binary_and_compared_exactly():
    r = check_implication("recursive-cl-diversity", "basic-beta-likeness", a_params={"l": "1"})
    assert r.verdict == "proved" and r.tightness == "tight" and "attained" not in r.details
    assert "the attaining table is binary" in r.evidence


# (alpha,k)-anonymity: its level is the largest frequency of a value in a class (infinite under a class of fewer than
# k records). By hand: k records uniform over m = ceiling(1/alpha) values in E1 and N - k uniform over m other values in
# E2 (2 m buckets, 2 k <= N) have level 1/m <= alpha; E1's values hold k/(m N) each in the table, so E1 is (N - k)/N
# from the table and its frequency N/k times the table's (beta = N/k - 1): the ceilings over classes of >= k records.
# At alpha = 0 no table satisfies it (a class's largest frequency is > 0), and with N < 2 k there is one class.
AK_B = [("emd-t-closeness", {"ground": "equal"}, lambda n, k: Fraction(n - k, n)),
        ("hierarchical-emd-t-closeness", {"ground": "equal"}, lambda n, k: Fraction(n - k, n)),
        ("basic-beta-likeness", {}, lambda n, k: Fraction(n, k) - 1)]


def _ak_family(n, k, alpha):
    m = math.ceil(1 / alpha)
    one, other = [Fraction(1, m)] * m + [Fraction(0)] * m, [Fraction(0)] * m + [Fraction(1, m)] * m
    return [one] * k + [other] * (n - k), ["E1"] * k + ["E2"] * (n - k)


@pytest.mark.parametrize("n", range(2, 13))
def test_alpha_k_family_by_brute_force(n):
    for k in range(1, n // 2 + 1):
        for alpha in (Fraction(1, 5), Fraction(1, 3), Fraction(1, 2), Fraction(2, 3), Fraction(1)):
            rows, labels = _ak_family(n, k, alpha)
            assert brute.alpha_k(rows, labels, k) == Fraction(1, math.ceil(1 / alpha)) <= alpha
            assert brute.emd_t(rows, labels) == Fraction(n - k, n)
            assert brute.basic_beta_likeness(rows, labels) == Fraction(n, k) - 1


@pytest.mark.parametrize("k", ["2", "k"])
@pytest.mark.parametrize("b, b_params, by_hand", AK_B, ids=[b for b, _, _ in AK_B])
def test_alpha_k_prover_tight_f_and_certificate(k, b, b_params, by_hand):
    r = check_implication("alpha-k-anonymity", b, a_params={"k": k}, b_params=b_params)
    assert r.verdict == "proved" and r.tightness == "tight"
    K = sympy.Symbol("k", integer=True)
    f = sympy.sympify(str(r.tight), locals={"N": N, "k": K})
    for n in range(4, 13):
        for kv in ([2] if k == "2" else range(1, n // 2 + 1)):
            assert f.subs({N: n, K: kv}) == by_hand(n, kv)
    assert "2*ceiling(1/alpha) buckets" in r.evidence and "alpha > 0" in r.details["attained"]
    (c,) = certificates_in(r.details)
    assert c["A"]["uniform_class_level"] == "(m + 1)/m"
    rep = check_certificate(c, ns=range(2, 10))
    assert rep.ok, rep.failures()
    assert any(h.startswith("A <= T and B = U exactly") and "T > 1" in h for w, _, h in rep.steps if "family" in w)


def test_alpha_k_forgeries_are_rejected():
    r = check_implication("alpha-k-anonymity", "emd-t-closeness", a_params={"k": "2"}, b_params={"ground": "equal"})
    cert = certificates_in(r.details)[0]
    blocks = lambda c: c["tightness"]["uniform_blocks"]         # noqa: E731
    assert check_certificate(cert, ns=range(2, 7)).ok
    # the family at alpha = 0 too: no number of values gives a largest frequency of 0
    assert not _forged(cert, lambda c: c["tightness"].pop("domain"))
    # (review) a family domain the registry does not give hides levels or N from the check: rejected
    assert not _forged(cert, lambda c: c["tightness"].update(domain=["T >= 2"]))
    assert not _forged(cert, lambda c: c["tightness"]["domain"].append("N >= 6"))
    rep = check_certificate(cert, ns=range(2, 7))
    assert any(w == "tightness family attains U where 4 <= N and T > 1" and ok for w, ok, _ in rep.steps)
    # one value fewer: the largest frequency 1/(m - 1) exceeds alpha
    assert not _forged(cert, lambda c: [b.update(values="ceiling(1/(T - 1)) - 1") for b in blocks(c)])
    # one record in E1: a class smaller than k
    assert not _forged(cert, lambda c: (blocks(c)[0].update(count="1"), blocks(c)[1].update(count="N - 1")))
    # A read as a count of values (larger is stronger), or without its uniform level: not A as registered
    assert not _forged(cert, lambda c: c["A"].update(uniform_class_level="m"))
    assert not _forged(cert, lambda c: c["A"].pop("uniform_class_level"))


@pytest.mark.parametrize("seed", range(2))
def test_the_checkers_uniform_level_of_alpha_k_is_the_brute_force_one(seed):
    # on tables whose classes are uniform over the values they hold (where the checker computes it)
    from implgraph.certify.levels import level
    rng = random.Random(seed)
    for _ in range(30):
        labels = brute.random_labels(rng, rng.randint(2, 7))
        p = 6
        rows, support = [], {}
        for lab in labels:
            if lab not in support:
                support[lab] = rng.sample(range(p), rng.randint(1, 3))
            rows.append([Fraction(1, len(support[lab])) if j in support[lab] else Fraction(0) for j in range(p)])
        got = level({"family": "class", "uniform_class_level": "(m + 1)/m"}, [(1, r, lab) for r, lab in zip(rows, labels)])
        assert got == 1 + brute.alpha_k(rows, labels, 1), (rows, labels)


def test_check_edge_compares_the_alpha_k_f_from_above_where_no_table_attains_it():
    # N = 3 < 2 k: one class, EMD 0; the proved (N - 2)/N is compared from above only there
    from implgraph.engines.checkedge import check_edge
    fw = check_edge("alpha-k-anonymity(k=2)", "emd-t-closeness(ground=equal)", N=4).forward
    assert fw.verdict == "proved" and fw.tight_all_n == "(N - 2)/N" and "alpha > 0" in fw.tight_attained
