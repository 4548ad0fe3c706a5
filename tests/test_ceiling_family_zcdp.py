"""The ``ceiling-family`` approach family under a zero-concentrated A (zcdp-ldp => basic-beta-likeness, pml): the
family's level by tests/brute.py, B's level by hand, the certificate re-checked, tamperings rejected, the Coq lemma
it cites (coq/theories/ZcdpCeiling.v) and the generated theorem checked by coqc (slow)."""

from __future__ import annotations

import copy
import math
from fractions import Fraction as F

import mpmath
import pytest

from implgraph.certify import check_certificate
from implgraph.engines.prove import check_implication

import brute


def _m(rho, K):
    """The least integer m with K b = 1/m meeting ZcdpCeiling's hypotheses: m >= 2 (K b <= 1/2), m >= 2/rho
    (2 K b <= rho) and ln m >= ln K (ln K + 1)/rho (the tail), the last at 60 digits plus one for safety."""
    with mpmath.workdps(60):
        L = mpmath.log(K)
        tail = int(mpmath.ceil(mpmath.exp(L * (L + 1) / (mpmath.mpf(rho.numerator) / rho.denominator)))) + 1
    return max(2, math.ceil(2 / rho), tail)


def _records(rho, K):
    b = F(1, K * _m(rho, K))
    return (K * b, 1 - K * b), (b, 1 - b)


# -- the family's values: brute force and by hand --------------------------------------------------------------------

@pytest.mark.parametrize("rho, K", [(F(1, 10), 3), (F(1, 10), 8), (F(1, 2), 3), (F(1, 2), 20), (F(1), 8),
                                    (F(1), 50), (F(5), 20), (F(20), 50)])
def test_family_level_at_most_rho(rho, K):
    # D_alpha/alpha evaluated at actual orders (50 digits), both ways: at most rho (ZcdpCeiling.zcdp_family_rho)
    x, y = _records(rho, K)
    for u, v in ((x, y), (y, x)):
        level = brute.zcdp_mp(u, v)
        assert level is not None and level <= mpmath.mpf(rho.numerator) / rho.denominator


@pytest.mark.parametrize("rho, K", [(F(1, 10), 3), (F(1), 8)])
def test_tail_condition_by_hand(rho, K):
    # ln K (ln K + 1) <= -rho ln(K b), K b <= 1/2, 2 K b <= rho: the lemma's hypotheses on the rational instance
    x, y = _records(rho, K)
    L = math.log(K)
    assert L * (L + 1) <= -float(rho) * math.log(x[0]) + 1e-9
    assert x[0] <= F(1, 2) and 2 * x[0] <= rho and x[0] == K * y[0]


def test_the_old_family_is_not_enough():
    # b = 1/(K (K - 1)^2 + 1): at K = 2^10 the zCDP level is about 0.1 ln K (above 0.69), not -> 0
    K = 2 ** 10
    b = F(1, K * (K - 1) ** 2 + 1)
    assert brute.zcdp_mp((K * b, 1 - K * b), (b, 1 - b)) > mpmath.mpf("0.69")


@pytest.mark.parametrize("N, K", [(2, 3), (3, 10), (5, 20)])
def test_beta_and_pml_by_hand(N, K):
    # the lone class's first bucket: K b against (K b + (N - 1) b)/N: ratio N K/(K + N - 1), whatever b
    x, y = _records(F(1, 2), K)
    rows = [list(x)] + [list(y)] * (N - 1)
    classes = ["E1"] + ["E2"] * (N - 1)
    assert brute.basic_beta_likeness(rows, classes) == F(N * K, K + N - 1) - 1
    table = [sum(r[l] for r in rows) / N for l in range(2)]
    pml = max(r[l] / table[l] for r in rows for l in range(2))
    assert pml == F(N * K, K + N - 1)


# -- the certificates -------------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def beta():
    return check_implication("zcdp-ldp", "basic-beta-likeness", a_params={}, b_params={})


@pytest.fixture(scope="module")
def pml():
    return check_implication("zcdp-ldp", "pml", a_params={}, b_params={})


def test_zcdp_to_beta_likeness_is_vacuous_at_the_ceiling(beta):
    assert beta.verdict == "proved" and beta.method == "ceiling-family"
    assert str(beta.tight) == "N - 1" and beta.tightness == "tight"
    cert = beta.details["certificate"]
    assert cert["family"]["kind"] == "approach" and cert["family"]["attained"] == "no"
    assert "T" in cert["family"]["rows"][0]["values"][0]
    assert check_certificate(cert).ok


def test_zcdp_to_pml_is_its_weakest_level(pml):
    assert pml.verdict == "proved" and pml.method == "ceiling-family" and str(pml.tight) == "log(N)"
    assert check_certificate(pml.details["certificate"]).ok


_KB = "exp(-log(K)*(log(K) + 1)/T)"


def _forged(cert, edit):
    bad = copy.deepcopy(cert)
    edit(bad)
    return check_certificate(bad)


def _values(x1, y1):
    def edit(c):
        c["family"]["rows"][0]["values"] = [x1, f"1 - ({x1})"]
        c["family"]["rows"][1]["values"] = [y1, f"1 - ({y1})"]
    return edit


@pytest.mark.parametrize("name, edit", [
    # the tail at 2 T: T E - L (L + 1) = -(L^2 + L)/2 < 0
    ("half the tail", _values("exp(-log(K)*(log(K) + 1)/(2*T))", "exp(-log(K)*(log(K) + 1)/(2*T))/K")),
    # x_1/y_1 = K^2, not K
    ("another ratio", _values(_KB, f"{_KB}/K**2")),
    # a tail that does not grow with K: E = 1/T, below L (L + 1)/T
    ("a constant tail", _values("exp(-1/T)", "exp(-1/T)/K")),
    # the old family's b: not of the form exp(-E(ln K))
    ("the chi-square family", _values("K/(K*(K - 1)**2 + 1)", "1/(K*(K - 1)**2 + 1)")),
])
def test_forged_family_rejected(beta, name, edit):
    assert not _forged(beta.details["certificate"], edit).ok, name


def test_forged_count_rejected(beta):
    def edit(c):
        c["family"]["rows"][1]["count"] = "N - 2"
    assert not _forged(beta.details["certificate"], edit).ok


def test_forged_attainment_rejected(beta):
    def edit(c):
        c["family"]["attained"] = "yes"
    assert not _forged(beta.details["certificate"], edit).ok


def test_forged_upper_rejected(beta):
    def edit(c):
        c["upper"] = "N/2"
    assert not _forged(beta.details["certificate"], edit).ok


# -- Coq -------------------------------------------------------------------------------------------------------------

#: the statement of the lemma the checker cites, with the hypotheses it re-checks
STATEMENT = ("forall (rho K b : R) (N : nat), 0 < rho -> 1 <= K -> 0 < b -> K * b <= 1 / 2 -> 2 * (K * b) <= rho -> "
             "ln K * (ln K + 1) <= - (rho * ln (K * b)) -> "
             "table N 2 (fam_rho K b) /\\ zcdp_pairs_le N (fam_rho K b) rho")


def _check_statement(library, tmp_path, statement):
    from implgraph.kernel_coq.check import run_coqc
    path = tmp_path / "Cited.v"
    path.write_text("From Coq Require Import Reals.\nFrom Implgraph Require Import Tables ZcdpFamily ZcdpCeiling.\n"
                    f"Open Scope R_scope.\nCheck (fam_rho_zcdp : {statement}).\n")
    ok, _, _, _ = run_coqc(["coqc", "-q", "-Q", library, "Implgraph", path.name], str(tmp_path))
    return ok


@pytest.mark.slow
@pytest.mark.skipif(not __import__("implgraph.kernel_coq.export", fromlist=["coq_available"]).coq_available(),
                    reason="Coq (Debian's coq package) is not installed")
def test_the_cited_lemma_and_the_theorem_check(beta, pml, library, tmp_path):
    from _coq import assert_kernel_checked, failing_step
    from _forge import edited
    assert _check_statement(library, tmp_path, STATEMENT)
    # without the hypothesis 2 K b <= rho the statement is another (and false for small rho): not the lemma's type
    assert not _check_statement(library, tmp_path, STATEMENT.replace("2 * (K * b) <= rho -> ", ""))
    assert_kernel_checked(beta.details["certificate"], library, tmp_path, "zcdp_beta")
    assert_kernel_checked(pml.details["certificate"], library, tmp_path, "zcdp_pml")
    cert = beta.details["certificate"]
    bad = edited(edited(cert, ["upper"], "N/2"), ["parts", 0, "upper"], "N/2")
    assert failing_step(bad, library, tmp_path, "zcdp_beta_edited") is not None
