"""The Coq generator of the ``chord`` certificates of one record against the table at most T (pml) into a class's KL
and Renyi-2 divergence on its narrowed pieces (``RecordClassChord.v``: ``chord_onesub_low`` / ``onesub_one`` on
[N - (N - 1) T, T] where T < N/(N - 1), ``cmean_le_N`` with ``Divergence.chord_class_upper`` on [0, N] where T > N;
``implgraph/kernel_coq/gen_chord_record_class.py``).

The prover's certificates (``tests/data/coq/chord_one_record.json``) check with coqc and a clean axiom audit; a forged
certificate (an edited end or U) gives a file coqc rejects at the step that reads the edit. Each forgery states a false
implication: a lower end above a record's ratio N - (N - 1) T, an upper end N - 1 below a record's ratio N (one record
at (1, 0) alone, the others at (0, 1), is a table at A's level N <= T), or U below the chord's value a table attains.
"""

from __future__ import annotations

import pytest

from _coq import assert_kernel_checked, coq, failing_step, load_certs
from _forge import edited
from implgraph.kernel_coq.registry import generate

CERTS = load_certs("chord_one_record.json")

LOW_KL, TOP_KL = "pml => kl-closeness on [N - T*(N - 1), T]", "pml => kl-closeness on [0, N]"
LOW_R2, TOP_R2 = "pml => renyi-closeness(alpha=2) on [N - T*(N - 1), T]", "pml => renyi-closeness(alpha=2) on [0, N]"
FORGERIES = [
    ("KL lo", edited(CERTS[LOW_KL], ["upper_certificate", "lo"], "N - T*(N - 1) + T - 1"), "Hlo"),
    ("Renyi lo", edited(CERTS[LOW_R2], ["upper_certificate", "lo"], "N - T*(N - 1) + T - 1"), "Hlo"),
    ("KL hi", edited(CERTS[TOP_KL], ["upper_certificate", "hi"], "N - 1"), "Hhi"),
    ("Renyi hi", edited(CERTS[TOP_R2], ["upper_certificate", "hi"], "N - 1"), "Hhi"),
    ("KL U", edited(CERTS[LOW_KL], ["upper"], CERTS[LOW_KL]["upper"] + "*9/10"), "value"),
    ("top KL U", edited(CERTS[TOP_KL], ["upper"], CERTS[TOP_KL]["upper"] + "*9/10"), "value"),
]


@pytest.mark.parametrize("name", sorted(CERTS))
def test_the_theorem_reads_the_piece(name):
    text = generate(CERTS[name])
    assert "subset_le OneSided N K x (1) (T) ->" in text
    if "[0, N]" in name:
        assert "T > (INR N) ->" in text and "cmean_le_N" in text
    elif "[0, T]" in name:
        assert "onesub_upper" in text
    else:
        assert "T < ((INR N) / ((INR N) - 1)) ->" in text
        assert "chord_onesub_low" in text and "onesub_one" in text


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name", sorted(CERTS))
def test_real_certificates_check(name, library, tmp_path):
    assert_kernel_checked(CERTS[name], library, tmp_path, name)


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name,cert,step", FORGERIES, ids=[n for n, _, _ in FORGERIES])
def test_forged_certificates_fail_at_their_step(name, cert, step, library, tmp_path):
    assert failing_step(cert, library, tmp_path, name, value_line="apply Req_le") == step
