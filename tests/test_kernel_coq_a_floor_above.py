"""The Coq theorems of B's ceilings where A's class floor holds above A's weakest level only (p-sensitive
k-anonymity's k: a class of fewer than k records puts p at 0, its weakest level): A is stated as
``FloorAbove.floor_above_level`` (above the weakest level, classes of >= k records), the domain's T >= 1 puts A
above it, and B's ceiling follows (a one-sided class ratio at most N/k, a class divergence at most log(N/k), and the
compositions through them); and a composition whose first part's bound is a Min and whose U and g are Mins
(pointwise maximal leakage into the EMD t-closeness).

The prover's certificates check with coqc and a clean axiom audit; each forgery (reason beside it) gives a false
statement, and coqc rejects its file. The coqc tests are slow and skip where Debian's ``coq`` is not installed.
"""

from __future__ import annotations

import pytest

from _forge import edited

from implgraph.kernel_coq.registry import generate

from _coq import assert_kernel_checked, coq, kernel_accepts, load_certs

CERTS = load_certs("floor_above.json")
KL = "p-sensitive-k-anonymity(k=2) => kl-closeness [divergence-ceiling]"
RATIO = "p-sensitive-k-anonymity(k=2) => basic-beta-likeness [one-sided-ceiling]"
EMD = "p-sensitive-k-anonymity(k=2) => emd-t-closeness(ground=equal) [composition]"

FORGERIES = [
    # log(N/3): false, a class of 2 records at (1, 0) and N - 2 others at (0, 1) (p = 1) has KL log(N/2)
    ("U of the divergence", edited(CERTS[KL], ["upper"], "log(N/3)")),
    # N/3: false, the same table's first class has the ratio N/2
    ("U of the ratio", edited(CERTS[RATIO], ["upper"], "N/3")),
    # T >= 0 in place of T > 0 and T >= 1: at T = 0 (the weakest level) A says nothing of the classes, and a class
    # of one record at (1, 0) has the ratio N
    ("T at the weakest level", edited(CERTS[RATIO], ["domain"], ["T >= 0", "N >= 2", "2 <= N", "(2) >= 1",
                                                                  "(2) <= N"])),
    # (N - 3)/N in place of (N - 2)/N: false, the class of 2 records at (1, 0) has the distance (N - 2)/N
    ("U of the composition", edited(CERTS[EMD], ["upper"], CERTS[EMD]["upper"].replace("(N - 2)/N", "(N - 3)/N"))),
]


def test_a_is_stated_by_its_floor_above_the_weakest_level():
    assert "floor_above_level N cls (2) (0) (T) Arest ->" in generate(CERTS[KL])


def test_the_forgeries_are_stated():
    for _, cert in FORGERIES:
        generate(cert)      # the generator states each: the kernel, not the generator, rejects it



@pytest.mark.slow
@coq
@pytest.mark.parametrize("name", sorted(CERTS))
def test_real_floor_above_certificates_check(name, library, tmp_path):
    assert_kernel_checked(CERTS[name], library, tmp_path, name)


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name,cert", FORGERIES, ids=[n for n, _ in FORGERIES])
def test_forged_floor_above_certificates_fail(name, cert, library, tmp_path):
    assert not kernel_accepts(cert, library, tmp_path, name)
