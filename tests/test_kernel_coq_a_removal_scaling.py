"""The Coq theorems of ``removal-scaling`` certificates: a removal total variation or hockey stick from A's between
every two records (slack T/N: ``RemovalScaling.removal_scaling``, the averaging identity N (P - g Q_i) = x_i - (g N -
N + 1) Q_i) or from A's own removal slack at a ratio no larger (``SlackOrder.slack_removal_ratio``).

The prover's certificates check with coqc and a clean axiom audit; each forgery (reason beside it) gives a false
statement, and coqc rejects its file. The coqc tests are slow and skip where Debian's ``coq`` is not installed.
"""

from __future__ import annotations

import pytest

from _forge import edited

from implgraph.kernel_coq.registry import COVERED, generate

from _coq import assert_kernel_checked, coq, kernel_accepts, load_certs

CERTS = load_certs("removal_scaling.json")
TV = "tv-ldp => tv-dp [removal-scaling]"
HOCKEY = "delta-ldp(eps=log(2)) => delta-dp(eps=log(2)) [removal-scaling]"
REMOVAL = "tv-dp => delta-dp(eps=log(2)) [removal-scaling]"

FORGERIES = [
    # T/(N + 1): false, one record at (T, 1 - T) and N - 1 at (0, 1) have tv-ldp T and tv-dp T/N
    ("U of pairs", edited(CERTS[TV], ["upper"], "T/(N + 1)")),
    # B's ratio 1 below A's 2: false, (2/3, 1/3) and (1/3, 2/3) have E_2 = 0 both ways (A at any T > 0) and a
    # total variation 1/6 between the table and the table without one of them
    ("B's ratio", edited(CERTS[HOCKEY], ["B", "params", "eps"], "0")),
    # T/2: false, one record at (N T, 1 - N T) and N - 1 at (0, 1) (N T <= 1) have both levels T
    ("U of removal", edited(CERTS[REMOVAL], ["upper"], "T/2")),
]


def test_removal_scaling_is_covered():
    assert "removal-scaling" in COVERED


def test_a_and_b_are_stated_as_their_slacks():
    text = generate(CERTS[HOCKEY])
    assert "slack_pairs_le N K x (T) (2) ->" in text and "slack_removal_le N K x ((T / (INR N))) (2)." in text


def test_the_forgeries_are_stated():
    for _, cert in FORGERIES:
        generate(cert)      # the generator states each: the kernel, not the generator, rejects it



@pytest.mark.slow
@coq
@pytest.mark.parametrize("name", sorted(CERTS))
def test_real_removal_scaling_certificates_check(name, library, tmp_path):
    assert_kernel_checked(CERTS[name], library, tmp_path, name)


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name,cert", FORGERIES, ids=[n for n, _ in FORGERIES])
def test_forged_removal_scaling_certificates_fail(name, cert, library, tmp_path):
    assert not kernel_accepts(cert, library, tmp_path, name)
