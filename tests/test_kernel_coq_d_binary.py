"""The Coq generator of the ``binary-program`` certificates (``BinaryProgram.v``): Renyi of order 2 or KL between
records or of record removal into the (eps, delta) slack between records or on record removal, the Piecewise U
stated clause by clause (a merged condition as a disjunction). The prover's certificates for these matrix cells
(``tests/data/coq/binary_program.json``) check with coqc and a clean axiom audit; a forged certificate (an edited
number in U, a condition or delta) gives a file the generator writes and coqc rejects.

Each forgery is a false claim, its reason (a table, derived by hand) written beside it. The coqc tests are slow and
skip where Debian's ``coq`` is not installed.
"""

from __future__ import annotations

import pytest

from _forge import edited

from implgraph.kernel_coq.registry import generate

from _coq import assert_kernel_checked, check_generated, coq, load_certs

CERTS = load_certs("binary_program.json")

LDP = "renyi-ldp(alpha=2) => eps-delta-ldp(delta=1/10)"
DP_FROM_PAIRS = "renyi-ldp(alpha=2) => eps-delta-dp(delta=1/10)"
KL_LDP = "kl-ldp => eps-delta-ldp(delta=1/10)"
KL_DP = "kl-dp => eps-delta-dp(delta=1/10)"


def _upper(name, old, new):
    text = CERTS[name]["upper"]
    assert text.count(old) == 1
    return edited(CERTS[name], ["upper"], text.replace(old, new))


def _delta(name, value):
    cert = edited(CERTS[name], ["B", "slack", "delta"], value)
    return edited(cert, ["B", "params", "delta"], value)


FORGERIES = [
    # U = 1 up to c = e^T - 1 = 5/99 > 4/99: the two records (1 + g, 1 - g)/2 and (1 - g, 1 + g)/2, g^2 = c/(4 + c)
    # = 5/401, have chi^2 = 4 g^2/(1 - g^2) = c both ways, and x(E) - 1/10 = (1 + g)/2 - 1/10 > (1 - g)/2 = y(E)
    # (g > 1/10) on the first bucket E
    ("flat piece widened", _upper(LDP, "T <= log(103/99)", "T <= log(104/99)")),
    # the same pair on the middle piece: (x(E) - 1/10)/y(E) = (g + 4/5)/(1 - g) > (g + 3/4)/(1 - g)
    ("middle piece numerator", _upper(LDP, "+ 4/5)/", "+ 3/4)/")),
    # the pair b = 4 d^2/(4 d^2 + c), a = (4 d^2 + 2 d c)/(4 d^2 + c) (reverse chi^2 <= c where c >= 1/20) has
    # (a - 1/10)/b = 1 - d + c/(4 d) = 5 e^T/2 - 8/5 > 5 e^T/2 - 17/10
    ("top piece constant", _upper(LDP, "- 8/5", "- 17/10")),
    # delta = 1/20 with U = 1 up to c = 4/99: g^2 = c/(4 + c) = 1/100, the records (11/20, 9/20) and (9/20, 11/20)
    # have chi^2 = 4/99 both ways and 11/20 > 9/20 + 1/20
    ("delta halved", _delta(LDP, "1/20")),
    # at T = 1/10 (the log-sum piece) U = (e - 1)/2 < 9/10: the event of every bucket needs 1 <= U + 1/10
    ("log-sum denominator", _upper(KL_LDP, "/(10*T)", "/(20*T)")),
    # U = 1 up to T = 1/25: the records (0.555, 0.445) and (0.445, 0.555) have KL = 0.11 ln(0.555/0.445) < 0.0243
    # both ways and 0.555 > 0.445 + 1/10
    ("Pinsker piece widened", _upper(KL_LDP, "T <= 1/50", "T <= 1/25")),
    # U = 1 for N >= 5: at N = 5, one record (99/100, 1/100) and four (1/100, 99/100) (every divergence finite) have
    # P(E) = 103/500 > Q(E) + 1/10 = 11/100 on the first bucket
    ("removal N lowered", _upper(KL_DP, "(N >= 10)", "(N >= 5)")),
    # delta = 1/100 with U = 1 for N >= 10: at N = 10, one record (99/100, 1/100) and nine (1/100, 99/100) have
    # P(E) = 27/250 > Q(E) + 1/100 = 1/50 on the first bucket
    ("removal delta", _delta(DP_FROM_PAIRS, "1/100")),
]


def test_the_piecewise_u_is_stated_clause_by_clause():
    text = generate(CERTS[LDP])
    assert "div_pairs_le (Renyi 2) N K x (T) ->" in text
    assert text.count("slack_pairs_le N K x ((1 / 10))") == 3
    assert "~ (T <= (ln (103 / 99))) -> (T <= (ln (21 / 20))) ->" in text
    assert "middle_piece" in text and "flat_piece" in text and "top_piece" in text


def test_a_merged_condition_is_a_disjunction():
    text = generate(CERTS[KL_DP])
    assert "(((INR N) >= 10) \\/ (T <= (1 / 50)))" in text
    assert "div_removal_le KL N K x (T) ->" in text and "bp_removal_tv" in text


def test_removal_from_records_scales_c():
    text = generate(CERTS[DP_FROM_PAIRS])
    assert "bp_removal_pairs" in text and "(INR N * (INR N - 1))" in text


@pytest.mark.parametrize("name,cert", FORGERIES, ids=[n for n, _ in FORGERIES])
def test_forged_certificates_are_written(name, cert):
    # the generator does not judge: it writes the file, which coqc must reject (the slow test below)
    assert "Theorem certificate" in generate(cert)



@pytest.mark.slow
@coq
@pytest.mark.parametrize("name", sorted(CERTS))
def test_real_binary_program_certificates_check(name, library, tmp_path):
    assert_kernel_checked(CERTS[name], library, tmp_path, name)


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name,cert", FORGERIES, ids=[n for n, _ in FORGERIES])
def test_forged_binary_program_certificates_fail(name, cert, library, tmp_path):
    assert not check_generated(cert, library, tmp_path, name)["ok"]
