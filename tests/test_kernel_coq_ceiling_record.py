"""The Coq theorems of ``ceiling-family`` certificates whose B is a one-sided ratio of one record against the table
(pointwise maximal leakage): the upper bound is the part's ``one-sided-ceiling`` theorem (``Mass.set_mass_subset``,
a set of one record holds at most the table's mass: B <= N whatever A is); the approach family (a limit) is the
Python checker's (tests/test_ceiling_family_record.py).

The prover's certificates check with coqc and a clean axiom audit; each forgery (reason beside it) gives a false
statement, and coqc rejects its file. The coqc tests are slow and skip where Debian's ``coq`` is not installed.
"""

from __future__ import annotations

import pytest

from _forge import edited

from implgraph.kernel_coq.coqexpr import Untranslatable
from implgraph.kernel_coq.registry import generate

from _coq import assert_kernel_checked, coq, failing_step, load_certs

CERTS = load_certs("ceiling_record.json")
KL = "kl-ldp => pml [ceiling-family]"
TV = "tv-dp => pml [ceiling-family]"


def _upper(name, value):
    """The certificate with U edited, in the whole and in its part alike (so that the generator states it)."""
    return edited(edited(CERTS[name], ["upper"], value), ["parts", 0, "upper"], value)


FORGERIES = [
    # N - 1: false, one record at (1, 0) and the others at (0, 1): its ratio to the table in bucket 1 is N
    ("record ratio U", _upper(KL, "N - 1")),
    # N/2: false, the same table (B <= N/2 is a subset of 2 records' ceiling, not one's)
    ("whatever-A record ratio U", _upper(TV, "N/2")),
]


def test_the_theorem_states_one_record_against_the_table():
    text = generate(CERTS[KL])
    assert "subset_le OneSided N K x (1) ((INR N))" in text and "set_mass_subset" in text


def test_a_part_claiming_another_record_count_is_refused():
    # the whole says one record, the part two: the part would prove another implication
    cert = edited(CERTS[KL], ["parts", 0, "B", "size"], "2")
    with pytest.raises(Untranslatable, match="part claims another implication"):
        generate(cert)


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name", sorted(CERTS))
def test_real_record_ceiling_certificates_check(name, library, tmp_path):
    assert_kernel_checked(CERTS[name], library, tmp_path, name)


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name,cert", FORGERIES, ids=[n for n, _ in FORGERIES])
def test_forged_record_ceiling_certificates_fail(name, cert, library, tmp_path):
    text = generate(cert)      # stated: the kernel, not the generator, rejects it
    assert "set_mass_subset" in text
    # the false U fails where the theorem's level is rewritten to the lemma's N/1 (field: U = N/1 is false)
    assert failing_step(cert, library, tmp_path, name, value_line="level_eq") == "value"
