"""The Coq theorems of Pinsker's inequality and the chi-square bound of Renyi's divergence of order 2
(``coq/theories/Pinsker.v``, ``ChiSquare.v``; :mod:`implgraph.kernel_coq.gen_tv_distance`, ``gen_divergence``).

A's KL (Renyi of order 2 read as KL first) between records, of each class against the table or of record removal at
most T gives the additive slack sqrt(T/2) on every event of the same distributions; Renyi of order 2 both ways gives
sqrt(c/(4 + c)), c = exp(T) - 1; the library's total variation lemmas compose it to a class's distance. A total
variation B of a Pinsker divergence order (and of a composition through one) is stated as its slack, as the theorem
concludes it.

The prover's certificates check with coqc and a clean axiom audit; each forgery (reason beside it) states something
false and coqc rejects its file. The coqc tests are slow and skip where Debian's ``coq`` is not installed.
"""

from __future__ import annotations

import pytest

from _forge import edited

from implgraph.kernel_coq.coqexpr import Translator, Untranslatable
from implgraph.kernel_coq.registry import generate

from _coq import assert_kernel_checked, coq, kernel_accepts, load_certs

CERTS = load_certs("pinsker.json")
B = " => emd-t-closeness(ground=equal)"
ORDER = "kl-ldp => tv-ldp"
CHI_COMPOSED = "renyi-dp(alpha=2) => kl-closeness [composition]"


def _edit(name, path, value):
    return edited(CERTS[name], path, value)


FORGERIES = [
    # sqrt(T/2)/2 between records: false as T -> 0, s records at (1/2 + m, 1/2 - m) in a class and N - s at
    # (1/2 - m, 1/2 + m): KL 4 m log((1 + 2 m)/(1 - 2 m)) ~ 8 m^2 = T both ways, TV 2 m ~ sqrt(T/2), so the class's
    # TV from the table (N - 1)/N 2 m is above (N - 1) sqrt(T/2)/(2 N)
    ("pairs pinsker U", _edit("kl-ldp" + B, ["upper"], "(N - 1)*Min(1, sqrt(2)*sqrt(T)/4)/N")),
    # a class against the table at half Pinsker's bound: false at N = 2, classes of one record at (1/2 + d, 1/2 - d)
    # and (1/2 - d, 1/2 + d): each class's KL from (1/2, 1/2) is ~ 2 d^2 = T and its TV d ~ sqrt(T/2)
    ("class pinsker U", _edit("kl-closeness" + B, ["upper"], "Min(sqrt(2)*sqrt(T)/4, (N - 1)/N)")),
    # record removal at half: false at N = 2 (records as above; the table is (1/2, 1/2), each record's removal
    # leaves the other: KL ~ 2 d^2 = T both ways, the class's TV d)
    ("removal pinsker U", _edit("kl-dp" + B, ["upper"], "Min((N - 1)/N, sqrt(2)*sqrt(T)*(N - 1)/4)")),
    # the divergence order at sqrt(T/2)/(3/2): false as T -> 0 (the pair above: KL ~ 8 m^2 = T, TV 2 m)
    (ORDER + " U", _edit(ORDER, ["upper"], "sqrt(2)*sqrt(T)/3")),
    # from records to record removal (joint convexity, then Pinsker) at sqrt(T/2)/3: false as T -> 0 at N = 2,
    # records (1/2 + d, 1/2 - d) and (1/2 - d, 1/2 + d): KL 2 d log((1 + 2 d)/(1 - 2 d)) ~ 8 d^2 = T between them,
    # and the table (1/2, 1/2) against the other record at TV d ~ sqrt(T/8) = sqrt(T/2)/2
    ("kl-ldp => tv-dp U", _edit("kl-ldp => tv-dp", ["upper"], "sqrt(2)*sqrt(T)/6")),
    # the chi-square bound between records halved: false, it is tight (the certificate's family: s records at
    # (1/2 + m, 1/2 - m), N - s at (1/2 - m, 1/2 + m), chi-square c both ways and TV 2 m = sqrt(c/(4 + c)))
    ("pairs chi-square U", _edit("renyi-ldp(alpha=2)" + B, ["upper"],
                                 "(N - 1)*sqrt(exp(T) - 1)/(2*N*sqrt(exp(T) + 3))")),
    # record removal's chi-square bound halved, in a composition's first part: false at N = 2 (records as above:
    # chi-square 4 d^2/(1 - 4 d^2) and 4 d^2 between the table and each record, TV d ~ sqrt(c/(4 + c)))
    ("composition's chi-square part", _edit(CHI_COMPOSED, ["parts", 0, "upper"],
                                            "Min((N - 1)/N, (N - 1)*sqrt(exp(T) - 1)/(2*sqrt(exp(T) + 3)))")),
]


def test_square_roots_are_translated():
    assert Translator({"T": "real"}).expr("sqrt(2)*sqrt(T)/2") == "(((sqrt 2) * (sqrt T)) / 2)"


def test_pinsker_and_chi_square_generate_their_lemmas():
    assert "pinsker_pairs_slack" in generate(CERTS["kl-ldp" + B])
    assert "renyi2_kl_class" in generate(CERTS["renyi-closeness(alpha=2)" + B])
    assert "chi_removal_slack" in generate(CERTS["renyi-dp(alpha=2)" + B])


def test_a_pinsker_order_states_b_as_its_slack():
    text = generate(CERTS[ORDER])
    assert "slack_pairs_le N K x ((((sqrt 2) * (sqrt T)) / 2)) (1)." in text and "div_pairs_le TV" not in text
    assert "slack_pairs_le N K x ((((sqrt 2) * (sqrt T)) / 2)) (2)." in generate(
        CERTS["kl-ldp => delta-ldp(eps=log(2)) [composition]"])


def test_chi_square_needs_renyi_of_order_2():
    with pytest.raises(Untranslatable):
        generate(_edit("renyi-dp(alpha=2)" + B, ["A", "params", "alpha"], "3"))



@pytest.mark.slow
@coq
@pytest.mark.parametrize("name", sorted(CERTS))
def test_real_pinsker_certificates_check(name, library, tmp_path):
    assert_kernel_checked(CERTS[name], library, tmp_path, name)


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name,cert", FORGERIES, ids=[n for n, _ in FORGERIES])
def test_forged_pinsker_certificates_fail(name, cert, library, tmp_path):
    generate(cert)      # stated: the kernel, not the generator, rejects it
    assert not kernel_accepts(cert, library, tmp_path, name)
