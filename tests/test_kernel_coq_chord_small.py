"""The Coq generator of the pieces where a divergence cell's supremum was missing (``RecordClassChord.v``:
``chord_removal_two``, ``chord_oneclass_low``, ``oneclass_one``; record removal against total variation and the
hockey-stick through ``RemovalChord.v``; ``implgraph/kernel_coq/gen_chord_record_class.py``).

The prover's certificates (``tests/data/coq/chord_small.json``) check with coqc and a clean axiom audit. A forged
certificate gives a file coqc rejects at the step that reads the edit: an upper end below the interval A confines to
(dp at N = 2: a record's ratio reaches 2 - 1/T, e.g. x_1 = (1 - 1/(2T), 1/(2T)) against x_2 = (1/(2T), ...); basic
beta-likeness beyond T = N: one record at (1, 0) alone reaches N), the piece N <= 2 claimed without N <= 2 in its
domain, or U below the chord's value (which the piece's family attains).
"""

from __future__ import annotations

import pytest

from _coq import assert_kernel_checked, coq, failing_step, load_certs
from _forge import edited
from implgraph.kernel_coq.registry import generate

CERTS = load_certs("chord_small.json")

DP_KL2 = "dp => kl-closeness on [1/T, 2 - 1/T]"
DP_R22 = "dp => renyi-closeness(alpha=2) on [1/T, 2 - 1/T]"
BBL_KL_LOW = "basic-beta-likeness => kl-closeness on [N - T*(N - 1), T]"
BBL_R2_N = "basic-beta-likeness => renyi-closeness(alpha=2) on [0, N]"


def _scaled(name):
    return edited(CERTS[name], ["upper"], f"({CERTS[name]['upper']})*9/10")


FORGERIES = [
    ("dp N = 2 hi", edited(CERTS[DP_KL2], ["upper_certificate", "hi"], "2 - 2/T"), "Hhi"),
    ("dp N = 2 without N <= 2", edited(CERTS[DP_R22], ["domain"], [d for d in CERTS[DP_R22]["domain"]
                                                                    if d != "N <= 2"]), "HNle2"),
    ("dp N = 2 KL U", _scaled(DP_KL2), "value"),
    ("bbl low KL U", _scaled(BBL_KL_LOW), "value"),
    ("bbl beyond N hi", edited(CERTS[BBL_R2_N], ["upper_certificate", "hi"], "N - 1/2"), "Hhi"),
]


def test_the_theorems_use_the_new_lemmas():
    assert "chord_removal_two" in generate(CERTS[DP_KL2]) and "one_subset_class" in generate(CERTS[DP_KL2])
    text = generate(CERTS[BBL_KL_LOW])
    assert "class_le OneSided N K x cls (T) ->" in text
    assert "chord_oneclass_low" in text and "oneclass_one" in text
    assert "cmean_le_N" in generate(CERTS[BBL_R2_N])


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
