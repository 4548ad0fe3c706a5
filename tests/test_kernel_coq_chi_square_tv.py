"""The Coq generator of the ``chi-square-tv`` certificates (``ChiSquareTV.v``; ``ChiSquare.chi_pairs_slack`` and
``RemovalScaling.removal_scaling`` between records and on removal): the prover's certificates of the three cells
and two compositions through the pair bound (``tests/data/coq/chi_square_tv.json``) check with coqc and a clean axiom audit; a forged certificate (an edited
number in U) gives a file the generator writes and coqc rejects.

Each forgery's reason is written beside it. The coqc tests are slow and skip where Debian's ``coq`` is not installed.
"""

from __future__ import annotations

import pytest

from _forge import edited

from implgraph.kernel_coq.registry import generate

from _coq import assert_kernel_checked, check_generated, coq, load_certs

CERTS = load_certs("chi_square_tv.json")
PAIRS, REMOVAL = "renyi-ldp(alpha=2) => tv-ldp", "renyi-ldp(alpha=2) => tv-dp"
CLASS = "renyi-closeness(alpha=2) => emd-t-closeness(ground=equal)"
#: compositions through the pair bound: tv-ldp, then the hockey stick below it (delta-ldp) or removal scaling (delta-dp)
VIA_LDP, VIA_DP = "renyi-ldp(alpha=2) => delta-ldp(eps=log(2))", "renyi-ldp(alpha=2) => delta-dp(eps=log(2))"


def _upper(name, old, new):
    text = CERTS[name]["upper"]
    assert old in text
    return edited(CERTS[name], ["upper"], text.replace(old, new))


FORGERIES = [
    # sqrt(c/(c + 5)) < sqrt(c/(c + 4)): the pair (3/4, 1/4), (1/4, 3/4) at c = 4/3 has TV 1/2 above it
    ("pairs U", _upper(PAIRS, "exp(T) + 3", "exp(T) + 4")),
    # half the bound on removal: the same pair with N - 1 copies of the mirror has TV(P, Q_1) = sqrt(c/(c + 4))/N
    ("removal U", _upper(REMOVAL, "N*sqrt", "2*N*sqrt")),
    # max(1/3, 1 - e^-T) is below the lone record's TV sqrt(c)/2 where 1 - e^-T < 1/3 < sqrt(c)/2 (c = 1/4: 1/4)
    ("class max", _upper(CLASS, "Max(1/2", "Max(1/3")),
    # sqrt(c)/3 is below sqrt(c)/2, the lone record's TV at c = 1/4 (N = 2: 1/4)
    ("class sqrt", _upper(CLASS, "sqrt(exp(T) - 1)/2", "sqrt(exp(T) - 1)/3")),
    # an edited number in a composition's U: U is not g(h) (the second part's bound at the pair bound), the
    # identity fails in coqc
    ("composition ldp U", _upper(VIA_LDP, "exp(T) + 3", "exp(T) + 4")),
    ("composition dp U", _upper(VIA_DP, "N*sqrt", "2*N*sqrt")),
]


def test_sides_are_stated_as_their_levels():
    assert "slack_pairs_le N K x (((sqrt ((exp T) - 1)) / (sqrt ((exp T) + 3)))) (1)" in generate(CERTS[PAIRS])
    assert "slack_removal_le N K x" in generate(CERTS[REMOVAL]) and "removal_scaling" in generate(CERTS[REMOVAL])
    text = generate(CERTS[CLASS])
    assert "div_class_le (Renyi 2) N K x cls (T) ->" in text and "chi_class_tv" in text


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name", sorted(CERTS))
def test_real_chi_square_tv_certificates_check(name, library, tmp_path):
    assert_kernel_checked(CERTS[name], library, tmp_path, name)


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name,cert", FORGERIES, ids=[n for n, _ in FORGERIES])
def test_forged_chi_square_tv_certificates_fail(name, cert, library, tmp_path):
    # the generator writes the file; the kernel rejects it
    assert not check_generated(cert, library, tmp_path, name)["ok"]
