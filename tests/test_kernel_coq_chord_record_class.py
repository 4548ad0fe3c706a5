"""The Coq generator of the ``chord`` certificates of each record against the table (lip) into a class's KL and
Renyi-2 divergence on the piece T > N - 1, where the interval's upper end is N - (N - 1)/T, and of the class level
mult-t-closeness on B's partition into the same (``RecordClassChord.v``, ``implgraph/kernel_coq/gen_chord_record_class.py``).

The prover's certificates (``tests/data/coq/chord_record_class.json``) check with coqc and a clean axiom audit; a
forged certificate (an edited end or U) gives a file the generator writes and coqc rejects at the step that reads
the edit. Each forgery states a false implication: an upper end N - N/T below a record's (a class's) ratio
N - (N - 1)/T (one record at (h/N, (N - 1)/(N T)) alone, the others at (1/(N T), ...), is a table at A's level T), or
U below the chord's value the same table attains.
"""

from __future__ import annotations

import pytest

from _coq import assert_kernel_checked, coq, failing_step, load_certs
from _forge import edited
from implgraph.kernel_coq.registry import generate

CERTS = load_certs("chord_record_class.json")

MT_KL, MT_R2 = "mult-t-closeness => kl-closeness", "mult-t-closeness => renyi-closeness(alpha=2)"
FORGERIES = [
    ("KL hi", edited(CERTS["lip => kl-closeness"], ["upper_certificate", "hi"], "N - N/T"), "Hhi"),
    ("Renyi hi", edited(CERTS["lip => renyi-closeness(alpha=2)"], ["upper_certificate", "hi"], "N - N/T"), "Hhi"),
    ("KL U", edited(CERTS["lip => kl-closeness"], ["upper"], CERTS["lip => kl-closeness"]["upper"] + "*9/10"),
     "value"),
    ("class KL hi", edited(CERTS[MT_KL], ["upper_certificate", "hi"], "N - N/T"), "Hhi"),
    ("class Renyi hi", edited(CERTS[MT_R2], ["upper_certificate", "hi"], "N - N/T"), "Hhi"),
    ("class KL U", edited(CERTS[MT_KL], ["upper"], CERTS[MT_KL]["upper"] + "*9/10"), "value"),
]


@pytest.mark.parametrize("name", sorted(CERTS))
def test_the_theorem_reads_the_narrowed_end(name):
    text = generate(CERTS[name])
    assert "T > ((INR N) - 1) ->" in text
    if name.startswith("lip"):
        assert "subset_le TwoSided N K x (1) (T) ->" in text
        assert "chord_record_class" in text and "record_class_one" in text
    else:       # the class level on B's partition
        assert "class_le TwoSided N K x cls (T) ->" in text
        assert "chord_class_narrow" in text and "one_class" in text
    assert "Hhi : ((INR N) - (((INR N) - 1) / T)) <= ((INR N) - (((INR N) - 1) / T))" in text


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
