"""The ``ceiling-family`` argument: B's own ceiling is its supremum under A (a witness family), re-checked by the
checker; the values asserted are derived by hand or by tests/brute.py."""

from __future__ import annotations

import copy
import math
from fractions import Fraction

import pytest

from implgraph.certify import check_certificate
from implgraph.engines.prove import check_implication
from implgraph.prover.arguments.ceiling_family import approach_rows

import brute


def _proof(a, b, a_params=None, b_params=None):
    return check_implication(a, b, a_params=a_params or {}, b_params=b_params or {})


@pytest.fixture(scope="module")
def kl_ldp_beta():
    return _proof("kl-ldp", "basic-beta-likeness")


@pytest.fixture(scope="module")
def diversity_kl():
    return _proof("distinct-l-diversity", "kl-closeness")


# -- the family's values, by hand and by brute force -----------------------------------------------------------------

@pytest.mark.parametrize("K", [3, 4, 10, 50])
def test_approach_family_chi_square_is_one_over_K(K):
    # b = 1/(K (K - 1)^2 + 1): chi^2(x || y) = (K - 1)^2 b^2 (1/b + 1/(1 - b)) = (K - 1)^2 b/(1 - b) = 1/K
    x, y = approach_rows(K, 2)
    chi = sum((p - q) ** 2 / q for p, q in zip(x, y))
    assert chi == Fraction(1, K)
    back = sum((p - q) ** 2 / p for p, q in zip(x, y))
    assert back <= Fraction(1, K)
    assert brute.kl_float(x, y) <= 1 / K and brute.kl_float(y, x) <= 1 / K


@pytest.mark.parametrize("N, K", [(2, 3), (3, 10), (4, 100), (5, 1000)])
def test_approach_family_beta_tends_to_the_ceiling(N, K):
    # the lone class's first bucket: K b against (K b + (N - 1) b)/N, a ratio N K/(K + N - 1): beta = that - 1
    rows = approach_rows(K, N)
    classes = ["E1"] + ["E2"] * (N - 1)
    assert brute.basic_beta_likeness(rows, classes) == Fraction(N * K, K + N - 1) - 1
    # A's levels between records: the total variation (K - 1) b, and every one tends to 0 with K
    tv = max(sum(abs(p - q) for p, q in zip(rows[0], rows[1])) / 2, 0)
    assert tv == Fraction(K - 1, K * (K - 1) ** 2 + 1)


def test_uniform_family_divergence_is_log_N():
    # one record uniform over m = 3 values in a class of its own, N - 1 = 4 uniform over 3 others: KL(E1 || P) = log 5
    m, N = 3, 5
    rows = [[Fraction(1, m)] * m + [Fraction(0)] * m] + [[Fraction(0)] * m + [Fraction(1, m)] * m] * (N - 1)
    classes = ["E1"] + ["E2"] * (N - 1)
    assert brute.kl_level_float(rows, "class", classes) == pytest.approx(math.log(N))
    assert brute.renyi_level_sum(rows, 2, "class", classes) == N        # log(5)/(2 - 1)
    assert brute.distinct_l(rows, classes) == m


# -- the verdicts ----------------------------------------------------------------------------------------------------

def test_kl_ldp_to_beta_likeness_is_vacuous_at_the_ceiling(kl_ldp_beta):
    r = kl_ldp_beta
    assert r.verdict == "proved" and r.method == "ceiling-family" and r.tightness == "tight"
    assert str(r.tight) == "N - 1"                  # beta = N - 1: B's own ceiling
    assert r.details["vacuous"].startswith("vacuous: f = N - 1")
    assert "not attained" in r.evidence
    assert check_certificate(r.details["certificate"]).ok


def test_delta_ldp_does_not_claim_non_attainment():
    # the hockey-stick is finite on a record positive where the others are 0 (one record at (d, 1 - d), the others
    # at (0, 1): delta-level d): whether the supremum is attained is not claimed
    r = _proof("delta-ldp", "basic-beta-likeness", {"eps": "log(2)"})
    assert r.method == "ceiling-family" and str(r.tight) == "N - 1"
    assert r.details["certificate"]["family"]["attained"] == "not claimed"


def test_diversity_to_kl_closeness_attained(diversity_kl):
    r = diversity_kl
    assert r.verdict == "proved" and r.method == "ceiling-family" and str(r.tight) == "log(N)"
    assert r.details["vacuous"].startswith("vacuous: f = log(N)")
    assert check_certificate(r.details["certificate"]).ok


def test_a_declared_minimum_class_size_caps_the_divergence():
    # (alpha,k)-anonymity with k = 2: classes of >= 2 records, so a class holds at most N/2 times the table's mass:
    # log(N/2), below B's own ceiling log N (a real implication), attained by two classes of 2 and N - 2 records
    # uniform over m values each where N >= 4
    r = _proof("alpha-k-anonymity", "kl-closeness", {"k": 2})
    assert r.verdict == "proved" and r.method == "ceiling-family" and str(r.tight) == "log(N/2)"
    assert "vacuous" not in r.details
    assert "N >= 4" in r.details["attained"]
    assert check_certificate(r.details["certificate"]).ok


def test_two_uniform_classes_of_two_by_brute_force():
    # N = 6, two classes of 2 and 4 records uniform over m = 2 values each: alpha = 1/2 in both classes, KL of the
    # class of 2 from the table log(6/2) = log 3 (the class of 4: log(6/4))
    m, N = 2, 6
    rows = [[Fraction(1, m)] * m + [Fraction(0)] * m] * 2 + [[Fraction(0)] * m + [Fraction(1, m)] * m] * (N - 2)
    classes = ["E1"] * 2 + ["E2"] * (N - 2)
    assert brute.kl_level_float(rows, "class", classes) == pytest.approx(math.log(3))
    assert brute.alpha_k(rows, classes, 2) == Fraction(1, 2)


def test_forged_floor_rejected():
    r = _proof("alpha-k-anonymity", "kl-closeness", {"k": 2})

    def edit(c):      # a family with a class of one record: below A's minimum class size
        blocks = c["family"]["uniform_blocks"]
        blocks[0]["count"], blocks[1]["count"] = "1", "N - 1"
        c["upper"] = c["parts"][0]["upper"] = "log(N)"
    assert not _forged(r.details["certificate"], edit).ok


def test_not_for_renyi_of_order_above_two():
    # D_oo between records is the largest log ratio, log K on the family: not bounded, not this argument's case
    r = _proof("renyi-ldp", "basic-beta-likeness", {"alpha": "oo"})
    assert r.method != "ceiling-family"


# -- forged certificates ---------------------------------------------------------------------------------------------

def _forged(cert, edit):
    bad = copy.deepcopy(cert)
    edit(bad)
    return check_certificate(bad)


def test_forged_approach_value_rejected(kl_ldp_beta):
    def edit(c):      # b = 1/((K - 1)^2 + 1): chi^2(x || y) = 1 for every K, A's level no longer tends to 0
        old = "1/(K*(K - 1)**2 + 1)"
        for row in c["family"]["rows"]:
            row["values"] = [v.replace(old, "1/((K - 1)**2 + 1)") for v in row["values"]]
    rep = _forged(kl_ldp_beta.details["certificate"], edit)
    assert not rep.ok
    assert any("tend to 0" in what for what, ok, _ in rep.steps if not ok)


def test_forged_approach_count_rejected(kl_ldp_beta):
    def edit(c):
        c["family"]["rows"][0]["count"] = "2"      # then N - 1 + 2 records
    assert not _forged(kl_ldp_beta.details["certificate"], edit).ok


def test_forged_upper_rejected(kl_ldp_beta):
    def edit(c):
        c["upper"] = "N - 1"      # below the ceiling N: neither the part's U nor the family's limit
    assert not _forged(kl_ldp_beta.details["certificate"], edit).ok


def test_forged_non_attainment_rejected():
    r = _proof("tv-ldp", "basic-beta-likeness")
    assert r.method == "ceiling-family"

    def edit(c):      # the total variation is finite where a record is positive and the others 0
        c["family"]["attained"] = "no"
    assert not _forged(r.details["certificate"], edit).ok


def test_forged_uniform_count_rejected(diversity_kl):
    def edit(c):      # two records in the lone class: its divergence is log(N/2), not U = log N
        blocks = c["family"]["uniform_blocks"]
        blocks[0]["count"], blocks[1]["count"] = "2", "N - 2"
    rep = _forged(diversity_kl.details["certificate"], edit)
    assert not rep.ok


def test_forged_part_rejected(diversity_kl):
    def edit(c):      # the ceiling's part claiming a smaller U
        c["parts"][0]["upper"] = "log(N/2)"
    assert not _forged(diversity_kl.details["certificate"], edit).ok
