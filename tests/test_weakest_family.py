"""``weakest-family``: B's weakest level is the tight f under A, attained by a family (docs/arguments/).

The family's levels are derived by hand and by tests/brute.py. The lone-record family at N = 3, m = 2: one record
uniform over buckets 0, 1, two records uniform over buckets 2..5, all in one class: the class is uniform over 6 values
(each 1/6), so distinct = frequency = entropy = 6 (>= 2), alpha = 1/6; the first record's support is disjoint from the
others', so the total variation between it and another is 1 (no slack below 1 is met at any ratio), the hockey-stick
at gamma = 2 is 1 (slack 1 at ratio 1), and on removal P - Q_1 = (x_1 - Q_1)/3, the total variation 1/3. The
singleton family at N = 3, m = 2: three records uniform over the same 2 values, each its own class: distinct = 2,
k-anonymity = 1.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy

from _forge import edited

from implgraph.certify import check_certificate
from implgraph.core.verdict import trivial_open
from implgraph.engines.checkedge import check_edge
from implgraph.engines.prove import check_implication
from implgraph.prover.arguments.weakest_family import family_blocks, family_rows

import brute

INF = float("inf")
N_ = sympy.Symbol("N", positive=True, integer=True)
A = [("distinct-l-diversity", {}), ("frequency-l-diversity", {}), ("entropy-l-diversity", {}),
     ("alpha-k-anonymity", {"k": 2}), ("recursive-cl-diversity", {"l": 2})]
#: B, its weakest level by hand (a total variation or hockey-stick between records 1, on removal 1/N; a class size 1)
B = [("tv-ldp", {}, "1"), ("delta-ldp", {"eps": "log(2)"}, "1"), ("tv-dp", {}, "1/N"),
     ("delta-dp", {"eps": "log(2)"}, "1/N"), ("k-anonymity", {}, "1")]
#: alpha-k-anonymity(k=2) => k-anonymity is the class-size floor's (2), not this argument's
CELLS = [(a, pa, b, pb, w) for a, pa in A for b, pb, w in B if not (a == "alpha-k-anonymity" and b == "k-anonymity")]


def _ids(cells):
    return [f"{c[0]}=>{c[2]}" for c in cells]


@pytest.fixture(scope="module")
def proofs():
    return {(a, b): check_implication(a, b, a_params=pa, b_params=pb) for a, pa, b, pb, _ in CELLS}


def _one_class(N, m):
    rows, classes = family_rows(family_blocks("lone-record", sympy.Integer(m), sympy.Integer(N)))
    return rows, classes


# -- the family, by hand and by brute force --------------------------------------------------------------------------

def test_one_class_family_by_hand():
    rows, classes = _one_class(3, 2)
    h, q = Fraction(1, 2), Fraction(1, 4)
    assert rows == [[h, h, 0, 0, 0, 0], [0, 0, q, q, q, q], [0, 0, q, q, q, q]] and classes == ["E1"] * 3
    assert brute.distinct_l(rows, classes) == 6 and brute.frequency_l(rows, classes) == 6
    assert brute.alpha_k(rows, classes, 2) == Fraction(1, 6)
    assert brute.recursive_cl(rows, classes, 2) <= 1
    assert sympy.N(brute.entropy_l(rows, classes) - 6, 30) == 0


@pytest.mark.parametrize("N, m", [(2, 1), (2, 3), (3, 2), (4, 1)])
def test_one_class_family_attains_each_weakest_level(N, m):
    rows, _ = _one_class(N, m)
    # between records: no slack below 1 is met at any ratio (the supports are disjoint), slack 1 at ratio 1
    assert brute.eps_delta_ldp(rows, Fraction(99, 100)) == INF and brute.eps_delta_ldp(rows, 1) == 1
    # on removal: the total variation is 1/N (slack 1/N at ratio 1, none just below), the hockey-stick at 2 too
    assert brute.eps_delta_dp(rows, Fraction(1, N)) == 1 < brute.eps_delta_dp(rows, Fraction(1, N) - Fraction(1, 100))
    assert brute.eps_delta_dp(rows, Fraction(1, N) - Fraction(1, 100)) > 2


def test_singleton_family_by_hand():
    rows, classes = family_rows(family_blocks("singletons", sympy.Integer(2), sympy.Integer(3)))
    assert rows == [[Fraction(1, 2)] * 2] * 3 and len(set(classes)) == 3
    assert brute.distinct_l(rows, classes) == 2 and brute.k_anonymity(classes) == 1


# -- the verdicts ----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("a, pa, b, pb, weakest", CELLS, ids=_ids(CELLS))
def test_each_cell_is_tight_at_b_weakest(proofs, a, pa, b, pb, weakest):
    r = proofs[(a, b)]
    assert r.verdict == "proved" and r.method == "weakest-family" and r.tightness == "tight"
    assert sympy.simplify(sympy.sympify(str(r.tight), locals={"N": N_}) - sympy.sympify(weakest,
                                                                                       locals={"N": N_})) == 0
    assert check_certificate(r.details["certificate"]).ok


def test_the_cell_is_decided_with_its_tight_f():
    # before: distinct-l-diversity => tv-ldp was "undecided beyond a trivial f" (the grid's 2 buckets cannot meet
    # distinct l = 3); now its tight f 1 is known for every N: trivial, no implication between the two
    r = check_edge("distinct-l-diversity", "tv-ldp", N=3)
    d = r.forward
    assert d.relation == "implication" and d.verdict == "proved" and str(d.tight_all_n) == "1"
    assert d.trivial and not trivial_open(d) and "undecided" not in r.summary


# -- forgeries -------------------------------------------------------------------------------------------------------

def _rejected(cert, step_text):
    rep = check_certificate(cert)
    assert not rep.ok
    assert any(step_text in s[0] and not s[1] for s in rep.steps), [s for s in rep.steps if not s[1]]


@pytest.mark.parametrize("b, upper", [("tv-ldp", "1/2"), ("tv-dp", "1/(2*N)"), ("k-anonymity", "2")])
def test_forged_upper_rejected(proofs, b, upper):
    cert = proofs[("distinct-l-diversity", b)].details["certificate"]
    _rejected(edited(cert, ["upper"], upper), "U is B's weakest raw level")


def test_forged_count_rejected(proofs):
    # two records in the first block and N - 2 in the second: no second block at N = 2
    cert = proofs[("frequency-l-diversity", "tv-dp")].details["certificate"]
    forged = edited(edited(cert, ["family", "blocks", 0, "count"], "2"), ["family", "blocks", 1, "count"], "N - 2")
    _rejected(forged, "the counts add up to N")        # N - 2 is 0 at N = 2
    blocks = cert["family"]["blocks"]
    assert check_certificate(edited(cert, ["family", "blocks"], blocks[::-1])).ok     # the same family, blocks swapped
    forged = edited(edited(cert, ["family", "blocks", 0, "count"], "N - 1"), ["family", "blocks", 1, "count"], "1")
    _rejected(forged, "the class is uniform")          # N - 1 records over m values, one over (N - 1) m: not uniform


def test_forged_values_rejected(proofs):
    # each record over one value: the class holds N values, fewer than T = 10 at N = 2
    cert = proofs[("entropy-l-diversity", "tv-ldp")].details["certificate"]
    forged = edited(edited(cert, ["family", "blocks", 0, "values"], "1"), ["family", "blocks", 1, "values"], "N - 1")
    _rejected(forged, "A meets T")


def test_forged_kind_and_domain_rejected(proofs):
    cert = proofs[("distinct-l-diversity", "tv-ldp")].details["certificate"]
    _rejected(edited(cert, ["family", "kind"], "singletons"), "the family's kind")
    _rejected(edited(cert, ["family", "domain"], ["T <= 2"]), "the registry's conditions")
    cert = proofs[("distinct-l-diversity", "k-anonymity")].details["certificate"]
    _rejected(edited(cert, ["family", "blocks", 0, "class"], "E1"), "each record its own class")


def test_two_records_per_block_miss_the_removal_weakest():
    # by hand: removing one of 2 records of a block, TV(P, Q) = (N - 2)/(N (N - 1)) (the research's 1/6 at N = 4), and
    # the same for a record of the other block: never 1/N, so a family without a lone record is refused
    from implgraph.certify.lemmas.weakest_family import _n, b_witness
    from implgraph.definitions import get
    from implgraph.definitions.divergences import divergence_of
    found = b_witness(divergence_of(get("tv-dp"), {}), [sympy.Integer(2), N_ - 2])
    at4 = {v.subs(_n, 2) for _, v in found}
    assert at4 == {sympy.Rational(1, 6)} and all(sympy.simplify(v - 1 / (_n + 2)) != 0 for _, v in found)


def test_a_record_outside_the_class_rejected(proofs):
    cert = proofs[("alpha-k-anonymity", "delta-dp")].details["certificate"]
    _rejected(edited(cert, ["family", "blocks", 0, "class"], "E2"), "one class holds every record")
