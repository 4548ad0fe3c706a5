"""The Coq generator of ``attained-family`` certificates (``gen_attained_family``): the upper bound is the part's
theorem under the whole's name, the part claiming what the whole claims; the family's tightness theorem where the
library's two-block lemmas state it (``Tight.v``: ldp => pml). The prover's certificates for the matrix cells
(``tests/data/coq/attained_family.json``) check with coqc and a clean axiom audit; a forged one fails.

The coqc tests are slow and skip where Debian's ``coq`` is not installed.
"""

from __future__ import annotations

import pytest

from _forge import edited

from implgraph.kernel_coq.coqexpr import Untranslatable
from implgraph.kernel_coq.registry import theorem
from implgraph.kernel_coq.tightness import tight_theorem

from _coq import assert_kernel_checked, check_generated, coq, load_certs

CERTS = load_certs("attained_family.json")


def test_the_theorem_is_the_parts():
    cert = CERTS["tv-dp => emd-t-closeness(ground=equal)"]
    whole, _ = theorem(cert, "c")
    part, _ = theorem(cert["parts"][0], "c")
    assert part.split("Theorem", 1)[1] == whole.split("Theorem", 1)[1]


def test_a_part_claiming_another_bound_is_not_stated():
    # the whole's U differs from its part's: the part's theorem would not be the whole's claim
    cert = edited(CERTS["ldp => pml"], ["upper"], "N*T/(N + T)")
    with pytest.raises(Untranslatable):
        theorem(cert, "c")


def test_only_two_block_families_without_min_get_a_tightness_theorem():
    assert "Theorem t" in tight_theorem(CERTS["ldp => pml"], "t")
    with pytest.raises(Untranslatable):
        tight_theorem(CERTS["pml => emd-t-closeness(ground=equal)"], "t")


#: U below the part's lemma's value, in the whole and the part alike
FORGED = [
    # (N - 1) T/2: TV(x_i, P) <= (N - 1) T, not half of it (tv-distance's lemma)
    ("tv-distance U", edited(edited(CERTS["tv-dp => emd-t-closeness(ground=equal)"], ["upper"],
                                    "Min((N - 1)/N, T*(N - 1)/2)"),
                             ["parts", 0, "upper"], "Min((N - 1)/N, T*(N - 1)/2)")),
]


@coq
@pytest.mark.parametrize("name", ["ldp => pml", "tv-dp => emd-t-closeness(ground=equal)"])
def test_real_certificates_check(name, library, tmp_path):
    assert_kernel_checked(CERTS[name], library, tmp_path, name)


@coq
@pytest.mark.parametrize("name, cert", FORGED, ids=[n for n, _ in FORGED])
def test_forged_certificates_fail(name, cert, library, tmp_path):
    assert not check_generated(cert, library, tmp_path, name)["ok"]


def test_forged_family_tightness_not_stated():
    # the lone record at T/(T + 2): no constraint of B attains U on the family, so no tightness theorem is written
    cert = edited(CERTS["ldp => pml"], ["tightness", "blocks", 0, "value"], "T/(T + 2)")
    with pytest.raises(Untranslatable):
        tight_theorem(cert, "t")
