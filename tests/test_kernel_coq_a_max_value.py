"""The Coq theorems of ``subset-to-one-sided`` certificates (``max-value``) with pointwise maximal leakage on either
side: B one record against the table (``MaxValueSets.max_value_subset``: a set is the class of its records under
labels of its own) and A one record against the table (``MaxValueSets.max_value_one``: the largest value is at most
T and N times the table's mean); and a composition through one whose second part's condition on its size follows
from the certificate's domain.

The prover's certificates check with coqc and a clean axiom audit; each forgery (reason beside it) gives a false
statement, and coqc rejects its file. The coqc tests are slow and skip where Debian's ``coq`` is not installed.
"""

from __future__ import annotations

import pytest

from _forge import edited

from implgraph.kernel_coq.registry import generate

from _coq import assert_kernel_checked, coq, kernel_accepts, load_certs

CERTS = load_certs("max_value.json")
DP = "dp => pml [subset-to-one-sided]"
PML = "pml => basic-beta-likeness [subset-to-one-sided]"
KT = "kt-closeness(k=2) => pml [subset-to-one-sided]"

FORGERIES = [
    # N - N/T: below the supremum N - (N - 1)/T, attained by one record at U c and N - 1 at c (N - U)/(N - 1)
    ("U, B one record", edited(CERTS[DP], ["upper"], "N - N/T")),
    # Min(N, T/2): false, one record at T times the table's mean in a class of its own has the class ratio T
    ("U, A one record", edited(CERTS[PML], ["upper"], "Min(N, T/2)")),
    # A of size 3: its supremum (3 T (N - 1) - 2 N)/(N - 3) grows faster in T than U's (2 T (N - 1) - N)/(N - 2)
    ("A's size", edited(edited(CERTS[KT], ["A", "size"], "3"), ["A", "params", "k"], "3")),
]


def test_pml_sides_are_stated():
    assert "subset_le OneSided N K x (1) (" in generate(CERTS[DP]).split("Proof.")[0].splitlines()[-1]
    assert "subset_le OneSided N K x (1) (T) ->" in generate(CERTS[PML])


def test_the_forgeries_are_stated():
    for _, cert in FORGERIES:
        generate(cert)      # the generator states each: the kernel, not the generator, rejects it



@pytest.mark.slow
@coq
@pytest.mark.parametrize("name", sorted(CERTS))
def test_real_max_value_certificates_check(name, library, tmp_path):
    assert_kernel_checked(CERTS[name], library, tmp_path, name)


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name,cert", FORGERIES, ids=[n for n, _ in FORGERIES])
def test_forged_max_value_certificates_fail(name, cert, library, tmp_path):
    assert not kernel_accepts(cert, library, tmp_path, name)
