"""The Coq generator of the ``one-sided-pairs`` certificates (``OneSidedPairs.v``,
``implgraph/kernel_coq/gen_one_sided_pairs.py``): a one-sided subset level of size j (pml: j = 1) bounds the total
variation between two records (tv-ldp), and the hockey-stick at gamma = 2 there (delta-ldp(eps=log(2))), by
U = min(1, j (T - 1)); B stated as its additive slack on every event (``slack_pairs_le N K x U gamma``).

The prover's two certificates (``tests/data/coq/one_sided_pairs.json``) check with coqc and a clean axiom audit. U is
attained (by hand): at N = 2, T = 3/2 the records (3/4, 1/4), (1/4, 3/4) have pml level 3/2 (table (1/2, 1/2)) and
total variation 1/2 = T - 1; at N = 3, T = 2 the records (1, 0), (0, 1), (1/2, 1/2) have level 2 and total variation
and hockey-stick at gamma = 2 both 1. So a smaller U is a false claim, and a forged certificate gives a file the
generator writes and coqc rejects at the step the edit concerns (named beside each forgery).

The coqc tests are slow and skip where Debian's ``coq`` is not installed.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from _forge import edited

from implgraph.kernel_coq.coqexpr import Untranslatable
from implgraph.kernel_coq.registry import COVERED, generate

from _coq import assert_kernel_checked, coq, failing_step, load_certs

CERTS = load_certs("one_sided_pairs.json")
TV, HS = "pml => tv-ldp", "pml => delta-ldp(eps=log(2))"


def _upper(name, old, new):
    text = CERTS[name]["upper"]
    assert old in text
    return edited(CERTS[name], ["upper"], text.replace(old, new))


FORGERIES = [
    # T - 1 - 1/10: 2/5 at N = 2, T = 3/2, below the 1/2 the family attains; T - 1 is above it
    ("tv U", _upper(TV, "T - 1", "T - 1 - 1/10"), "Hu1"),
    # the cap 9/10: at N = 3, T = 2 the family's records (1, 0) and (0, 1) have hockey-stick 1 at gamma = 2
    ("hs cap", _upper(HS, "Min(1,", "Min(9/10,"), "Hu0"),
    # the certificate's size 2 for A's 1: not A's size
    ("data size", edited(CERTS[TV], ["upper_certificate", "size"], "2"), "Hj"),
]


def test_one_sided_pairs_states_b_as_its_slack():
    assert "one-sided-pairs" in COVERED
    text = generate(CERTS[TV])
    assert "subset_le OneSided N K x (1) (T) ->" in text
    assert "slack_pairs_le N K x ((Rmin 1 (T - 1))) (1)." in text and "div_pairs_le" not in text
    assert "onesided_pairs N K x (1) T Htab HA" in text and "slack_pairs_one N K x Htab" in text
    hs = generate(CERTS[HS])
    assert "slack_pairs_le N K x ((Rmin 1 (T - 1))) (2)." in hs and "slack_pairs_ratio N K x _ (2) Htab" in hs


def test_the_family_has_level_t_and_attains_u():
    import brute
    rows = [[Fraction(3, 4), Fraction(1, 4)], [Fraction(1, 4), Fraction(3, 4)]]
    assert brute.subset_upper(rows, 1) == Fraction(3, 2)
    half, below = Fraction(1, 2), Fraction(1, 2) - Fraction(1, 1000)
    assert brute.eps_delta_ldp(rows, half) == 1 < brute.eps_delta_ldp(rows, below)


@pytest.mark.parametrize("path,value", [(["A", "sides"], "two-sided"), (["A", "family"], "pairwise"),
                                        (["B", "definition"], "tv-dp")])
def test_other_sides_are_refused(path, value):
    with pytest.raises(Untranslatable):
        generate(edited(CERTS[TV], path, value))


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name", sorted(CERTS))
def test_one_sided_pairs_certificates_check(name, library, tmp_path):
    assert_kernel_checked(CERTS[name], library, tmp_path, name)


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name,cert,step", FORGERIES, ids=[n for n, _, _ in FORGERIES])
def test_forged_one_sided_pairs_certificates_fail_at_their_step(name, cert, step, library, tmp_path):
    failed = failing_step(cert, library, tmp_path, name)
    assert failed is not None and failed.startswith(step), failed
