"""The ``ceiling-family`` approach family for B a one-sided ratio of ONE record against the table (pointwise maximal
leakage): B's supremum under a divergence A at every level T > 0 is its ceiling N (f = log N), re-checked by the
checker; the values asserted are derived by hand or by tests/brute.py."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy

from _forge import edited

from implgraph.certify import check_certificate
from implgraph.certify.lemmas.ceiling_family import _K, _N, _b_steps, _rows
from implgraph.core.verdict import trivial_open
from implgraph.engines.checkedge import check_edge
from implgraph.engines.prove import check_implication
from implgraph.map.matrix_cells import cell_of, counts_of
from implgraph.prover.arguments.ceiling_family import approach_rows

import brute

#: A's nodes of the eight cells, with whether the supremum N is attained (KL, Renyi: never; TV, hockey-stick: the
#: certificate does not claim it)
CELLS = [("kl-ldp", {}, "no"), ("kl-dp", {}, "no"), ("renyi-ldp", {"alpha": 2}, "no"),
         ("renyi-dp", {"alpha": 2}, "no"), ("tv-ldp", {}, "not claimed"),
         ("delta-ldp", {"eps": "log(2)"}, "not claimed"), ("tv-dp", {}, "not claimed"),
         ("delta-dp", {"eps": "log(2)"}, "not claimed")]


@pytest.fixture(scope="module")
def proofs():
    return {a: check_implication(a, "pml", a_params=p, b_params={}) for a, p, _ in CELLS}


# -- the family's values, by hand and by brute force -----------------------------------------------------------------

@pytest.mark.parametrize("N, K", [(2, 3), (3, 3), (3, 10), (4, 100), (5, 1000)])
def test_lone_record_ratio_tends_to_N(N, K):
    # b = 1/(K (K - 1)^2 + 1); bucket 1: the lone record K b against the table's (K b + (N - 1) b)/N: N K/(K + N - 1);
    # the others' bucket 1, b against it: N/(K + N - 1) < 1; bucket 2 (values near 1): close to 1, below N K/(K + N - 1)
    rows = approach_rows(K, N)
    hand = Fraction(N * K, K + N - 1)
    assert brute.subset_upper(rows, 1) == hand
    assert N - hand == Fraction(N * (N - 1), K + N - 1)      # -> 0 as K grows


@pytest.mark.parametrize("N, K", [(2, 3), (3, 10), (4, 50)])
def test_a_levels_on_the_family_are_at_most_one_over_K(N, K):
    # chi^2(x || y) = 1/K (hand: (K - 1)^2 b^2 (1/b + 1/(1 - b)) = (K - 1)^2 b/(1 - b) = 1/K); KL <= log(1 + chi^2)
    # <= 1/K; D_2 = log(1 + chi^2): the power sum is 1 + 1/K at most; the total variation is (K - 1) b
    rows = approach_rows(K, N)
    for compares in ("pairs", "removal"):
        assert brute.kl_level_float(rows, compares) <= 1 / K
        assert brute.renyi_level_sum(rows, 2, compares) <= 1 + Fraction(1, K)
    tv = sum(abs(p - q) for p, q in zip(rows[0], rows[1])) / 2
    assert tv == Fraction(K - 1, K * (K - 1) ** 2 + 1)


@pytest.mark.parametrize("N, e", [(2, Fraction(1, 10)), (4, Fraction(1, 3)), (5, Fraction(1, 1000))])
def test_total_variation_attains_N(N, e):
    # one record at (e, 1 - e), N - 1 at (0, 1): total variation e between records (<= T for e <= T), and the lone
    # record's first bucket e against e/N: ratio N exactly (pml's ceiling: attained for TV, not for KL)
    rows = [[e, 1 - e]] + [[Fraction(0), Fraction(1)]] * (N - 1)
    assert brute.subset_upper(rows, 1) == N
    assert sum(abs(p - q) for p, q in zip(rows[0], rows[1])) / 2 == e
    assert brute.kl_float(rows[0], rows[1]) == brute.INF      # KL infinite there: the KL supremum is not attained


# -- the verdicts ----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("a, params, attained", CELLS, ids=[c[0] for c in CELLS])
def test_each_divergence_to_pml_is_tight_at_log_N(proofs, a, params, attained):
    r = proofs[a]
    assert r.verdict == "proved" and r.method == "ceiling-family" and r.tightness == "tight"
    assert str(r.tight) == "log(N)"           # pml's ceiling N, its weakest level
    cert = r.details["certificate"]
    assert cert["family"]["kind"] == "approach" and cert["family"]["attained"] == attained
    assert "T > 0" in cert["domain"] and "at T = 0 every record is the same" in r.evidence
    assert "lone record's first bucket" in r.evidence
    assert r.details["vacuous"].startswith("vacuous: f = log(N)")
    assert check_certificate(cert).ok


# -- forgeries -------------------------------------------------------------------------------------------------------

def _rejected(cert, step_text):
    """The checker rejects ``cert``, failing a step whose text holds ``step_text``."""
    rep = check_certificate(cert)
    assert not rep.ok
    assert any(step_text in s[0] and not s[1] for s in rep.steps), [s for s in rep.steps if not s[1]]


def test_forged_count_rejected(proofs):
    # two records at x: the ratio becomes 2 K b/((2 K + N - 2) b/N) -> N/2, not N
    cert = proofs["kl-ldp"].details["certificate"]
    forged = edited(edited(cert, ["family", "rows", 0, "count"], "2"), ["family", "rows", 1, "count"], "N - 2")
    _rejected(forged, "mean over the table's tends to U")


def test_forged_value_rejected(proofs):
    # the lone record at (K^2 b, 1 - K^2 b): chi^2 against y grows with K (no longer tends to 0)
    cert = proofs["kl-dp"].details["certificate"]
    b = "1/(K*(K - 1)**2 + 1)"
    forged = edited(cert, ["family", "rows", 0, "values"], [f"K**2*{b}", f"1 - K**2*{b}"])
    _rejected(forged, "tend to 0 as K grows")


def test_forged_upper_rejected(proofs):
    # U = N - 1 in the whole and its part: the part's set-mass step fails, and the ratio tends to N, not N - 1
    cert = proofs["tv-ldp"].details["certificate"]
    forged = edited(edited(cert, ["upper"], "N - 1"), ["parts", 0, "upper"], "N - 1")
    assert not check_certificate(forged).ok


def test_forged_non_attainment_rejected(proofs):
    # the total variation is finite where a record is positive and the others 0: "not attained" is false there
    cert = proofs["tv-dp"].details["certificate"]
    _rejected(edited(cert, ["family", "attained"], "no"), "not attained")


def test_a_two_sided_b_of_one_record_rejected(proofs):
    # kt-closeness(k=1) is a TWO-sided ratio of one record: unbounded (a zero against a positive value), no ceiling
    cert = proofs["kl-ldp"].details["certificate"]
    B = {"definition": "kt-closeness", "params": {"k": "1"}, "family": "subset", "sides": "two-sided", "size": "1"}
    forged = edited(edited(cert, ["B"], B), ["parts", 0, "B"], B)
    assert not check_certificate(forged).ok


def test_a_one_sided_b_of_two_records_is_not_a_lone_record(proofs):
    # a one-sided ratio of 2 records against the table is at most N/2: the lone record's ratio says nothing of it
    fam = proofs["kl-ldp"].details["certificate"]["family"]
    rows = _rows(fam, {"N": _N, "K": _K})
    steps = _b_steps({"B": {"family": "subset", "sides": "one-sided", "size": "2"}},
                     ("ratio", "subset", "one-sided", sympy.Integer(2)), rows, _N)
    assert not steps[0][1]
    ok = _b_steps({"B": {"family": "subset", "sides": "one-sided", "size": "1"}},
                  ("ratio", "subset", "one-sided", sympy.Integer(1)), rows, _N)
    assert all(s[1] for s in ok)


# -- how the cell is reported ----------------------------------------------------------------------------------------

def test_the_cell_is_decided_with_its_tight_f():
    # at N = 3 the bounded check sees pml at its weakest level log 3 on every table (trivial); the prover's family
    # makes log N the tight f for every N (A's level T > 0), so the cell is decided: not "undecided beyond a trivial f"
    r = check_edge("kl-ldp", "pml", N=3)
    d = r.forward
    assert d.relation == "implication" and d.verdict == "proved" and str(d.tight_all_n) == "log(N)"
    assert not trivial_open(d) and "undecided" not in r.summary
    assert "kl-ldp => pml only" in r.summary       # no implication between the two (B's ceiling, its weakest level)
    cell = cell_of(d, r.kind)
    assert cell.tight == "log(N)" and not cell.counted
    c = counts_of([cell])
    assert (c["implication"], c["implication_trivial_open"], c["decided"]) == (0, 0, 1)
