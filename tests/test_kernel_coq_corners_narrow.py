"""The Coq proofs of the ``corners`` certificates on the narrowed box (``CornersNarrow.v``, the piece T > N - 1 of
lip => KL, Renyi of order 2 and delta-ldp(log 2)): every record's ratio lies in [1/T, N - (N - 1)/T]
(``record_class_xconf``), and the corner bound on any box around it (``corners_conf``).

The prover's certificates (``tests/data/coq/corners_narrow.json``) check with coqc and a clean axiom audit; each U is
attained at N = 4, T = 5 by the corner family (tests/test_corners_narrow.py, by brute force), so a smaller U is a false
claim. A forged certificate (an edited U or box end) gives a file coqc rejects at the step the edit concerns.

The coqc tests are slow and skip where Debian's ``coq`` is not installed.
"""

from __future__ import annotations

import pytest

from _coq import assert_kernel_checked, coq, failing_step, load_certs
from _forge import edited

from implgraph.kernel_coq.registry import generate

CERTS = load_certs("corners_narrow.json")
KL, RENYI, HOCKEY = "lip => kl-ldp", "lip => renyi-ldp(alpha=2)", "lip => delta-ldp(eps=log(2))"

FORGERIES = [
    # half the value: below the (4/5) log 17 the family attains at N = 4, T = 5; Hc's identity (apply Req_le) fails
    ("kl U", edited(CERTS[KL], ["upper"], "(1 - 1/T)*log(N*T - N + 1)/2"), "value"),
    # hi = N - N/T: below a record's N - (N - 1)/T (the end the lemma derives)
    ("kl hi", edited(CERTS[KL], ["upper_certificate", "hi"], "N - N/T"), "Hhi"),
    # lo = 2/T: above a record's 1/T
    ("renyi lo", edited(CERTS[RENYI], ["upper_certificate", "lo"], "2/T"), "Hlo"),
    # max(0, N T - N - 2)/(N T): below the value 3/4 the family attains at N = 4, T = 5
    ("hockey U", edited(CERTS[HOCKEY], ["upper"], "Max(0, N*T - N - 2)/(N*T)"), "Hc"),
]


def test_the_narrowed_box_is_stated():
    text = generate(CERTS[KL])
    assert "corners_narrow_kl" in text and "Require Import" in text and "CornersNarrow" in text
    assert "corners_narrow_hockey (2)" in generate(CERTS[HOCKEY])
    assert "corners_narrow_renyi2" in generate(CERTS[RENYI])


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name", sorted(CERTS))
def test_narrowed_certificates_check(name, library, tmp_path):
    assert_kernel_checked(CERTS[name], library, tmp_path, name)


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name,cert,step", FORGERIES, ids=[n for n, _, _ in FORGERIES])
def test_forged_narrowed_certificates_fail_at_their_step(name, cert, step, library, tmp_path):
    failed = failing_step(cert, library, tmp_path, name, value_line="apply Req_le")
    assert failed is not None and failed.startswith(step), failed
