"""The Coq generators of the divergences' other certificates (``Divergence.v``): the order between two kinds on the
same distributions (KL <= Renyi of order 2; the hockey stick below total variation, both stated as the additive slacks
on every event they are, not with the domination the library's divergence predicate asks), the joint convexity from
pairs of records to a class against the table or to record removal, and the chord lemma against record removal or
against each class from a removal level. The prover's certificates for these matrix cells check with coqc and a clean
axiom audit, and so do the divergence ceiling of a class size (k-anonymity against KL), the chord of a one-sided class
level and of a pairwise level against each class; forged certificates (an edited number) give files coqc rejects.

Each forgery's reason is written beside it. The coqc tests are slow and skip where Debian's ``coq`` is not installed.
"""

from __future__ import annotations


import pytest

from _forge import edited

from implgraph.kernel_coq.coqexpr import Untranslatable
from implgraph.kernel_coq.registry import COVERED, generate

from _coq import assert_kernel_checked, coq, kernel_accepts, load_certs

CERTS = load_certs("divergence.json")


def _edit(name, path, value):
    return edited(CERTS[name], path, value)


FORGERIES = [
    # U = T/2: false, two records (9/10, 1/10) and (1/10, 9/10) have KL (4/5) log 9 = 1.76 > D_2/2 = log(73/9)/2 = 1.05
    ("order U", _edit("renyi-ldp(alpha=2) => kl-ldp", ["upper"], "T/2")),
    # U = T - 1/2 < 0 for T < 1/2: false, every divergence is >= 0 (two equal records: A at 0 <= T)
    ("joint convexity U", _edit("kl-ldp => kl-closeness", ["upper"], "T - 1/2")),
    ("removal order U", _edit("renyi-dp(alpha=2) => kl-dp", ["upper"], "T - 1/2")),
    # the chord on [1/(2T), T] is larger than U: the identity chord = U fails
    ("removal chord lo", _edit("ldp => kl-dp", ["upper_certificate", "lo"], "1/(2*T)")),
    # hi = T/2: A's ratios reach T, not inside [1/T, T/2]
    ("subset removal hi", _edit("dp => kl-dp", ["upper_certificate", "hi"], "T/2")),
    # hi = N - (N - 1)/(2 T): log hi is not U (the identity fails)
    ("subset class hi", _edit("dp => renyi-closeness(alpha=2)", ["upper_certificate", "hi"], "N - (N - 1)/(2*T)")),
    # log(N/(2 T)): false where 2 T <= N, T records at (1, 0) in one class and N - T at (0, 1) reach log(N/T)
    ("ceiling U", _edit("k-anonymity => kl-closeness", ["upper"], "log(N/(2*T))")),
    # hi = N T/(N + T) (below A's N T/(N + T - 1)): a class of one record reaches the ratio N T/(N + T - 1)
    ("pairwise class hi", _edit("ldp => kl-closeness", ["upper_certificate", "hi"], "N*T/(N + T)")),
    # log(T/2) < 0 at T = 1: false, every divergence is >= 0
    ("one-sided chord U", _edit("basic-beta-likeness => renyi-closeness(alpha=2)", ["upper"], "log(T/2)")),
    # T/2: false, records (1, 0) and (0, 1) have total variation 1 and hockey stick (gamma = 2) 1
    ("tv to hockey U", _edit("tv-ldp => delta-ldp(eps=log(2))", ["upper"], "T/2")),
]


def test_divergence_order_is_covered_and_states_removal():
    assert "divergence-order" in COVERED
    text = generate(CERTS["renyi-dp(alpha=2) => kl-dp"])
    assert "div_removal_le (Renyi 2) N K x (T)" in text and "div_removal_le KL N K x (T)" in text


def test_total_variation_as_a_is_stated_as_its_slack():
    # the library's divergence predicate asks domination, more than total variation: a theorem assuming it would
    # claim less; A's total variation and B's hockey stick are stated as the slacks on every event they are
    text = generate(CERTS["tv-ldp => delta-ldp(eps=log(2))"])
    assert "slack_pairs_le N K x (T) (1) ->" in text and "slack_pairs_le N K x (T) (2)." in text
    assert "div_pairs_le" not in text


def test_pinsker_is_refused_with_its_reason():
    cert = _edit("renyi-ldp(alpha=2) => kl-ldp", ["upper_certificate", "fact"], "pinsker")
    with pytest.raises(Untranslatable):
        generate(cert)



@pytest.mark.slow
@coq
@pytest.mark.parametrize("name", sorted(CERTS))
def test_real_divergence_certificates_check(name, library, tmp_path):
    assert_kernel_checked(CERTS[name], library, tmp_path, name)


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name,cert", FORGERIES, ids=[n for n, _ in FORGERIES])
def test_forged_divergence_certificates_fail(name, cert, library, tmp_path):
    assert not kernel_accepts(cert, library, tmp_path, name)


def test_a_ceiling_whatever_a_states_a_divergence_a_with_its_module():
    # one-sided-ceiling holds whatever A is, but its theorem states A's level as a hypothesis: with a divergence A
    # (kl-ldp) that is Divergence.div_pairs_le, so the file must require Divergence (coqc: "div_pairs_le was not
    # found" before)
    from implgraph.kernel_coq.registry import theorem
    text, _ = theorem(CERTS["kl-ldp => basic-beta-likeness (B's ceiling, whatever A)"])
    requires = [line for line in text.splitlines() if line.startswith("From Implgraph Require Import")]
    assert any("Divergence" in line.rstrip(".").split() for line in requires) and "div_pairs_le" in text
