"""The Coq generator of the ``weakest-family`` certificates (``WeakestFamily.v``,
``implgraph/kernel_coq/gen_weakest_family.py``): the upper bound, B's weakest level on every table whatever A.

Five of the prover's certificates (``tests/data/coq/weakest_family.json``: B a total variation and a hockey-stick at 2
between records, on record removal, and the smallest class's size) check with coqc and a clean axiom audit. A smaller
U is a false claim: the family attains the weakest level (by hand and by brute force in
``tests/test_weakest_family.py``: two records with disjoint supports have total variation 1; a lone record's removal,
1/N; a class of one record, size 1), and a forged U gives a file the generator writes and coqc rejects at the step
``Hd`` (U at least the lemma's bound, or at most 1 for a class size). B stated with domination (the library's divergence predicate) would be false:
the family's records have disjoint supports.

The coqc tests are slow and skip where Debian's ``coq`` is not installed.
"""

from __future__ import annotations

import pytest

from _forge import edited

from implgraph.kernel_coq.coqexpr import Untranslatable
from implgraph.kernel_coq.registry import COVERED, generate

from _coq import assert_kernel_checked, coq, failing_step, load_certs

CERTS = load_certs("weakest_family.json")
TV, HS, TVDP, HSDP, KA = ("distinct-l-diversity => tv-ldp", "entropy-l-diversity => delta-ldp",
                          "alpha-k-anonymity => tv-dp", "recursive-cl-diversity => delta-dp",
                          "frequency-l-diversity => k-anonymity")

FORGERIES = [
    ("tv half", edited(CERTS[TV], ["upper"], "1/2"), "Hd"),           # two disjoint records: total variation 1
    ("hockey 9/10", edited(CERTS[HS], ["upper"], "9/10"), "Hd"),      # the hockey-stick at 2 of disjoint records: 1
    ("removal 1/(2N)", edited(CERTS[TVDP], ["upper"], "1/(2*N)"), "Hd"),  # a lone record's removal: 1/N
    ("class size 2", edited(CERTS[KA], ["upper"], "2"), "Hd"),        # a class of one record
]


def test_b_is_stated_as_its_slack_whatever_a():
    assert "weakest-family" in COVERED
    text = generate(CERTS[TV])
    assert "slack_pairs_le N K x (1) (1)." in text and "div_pairs_le" not in text
    assert "whatever A is: no hypothesis on A" in text and "weakest_pairs N K x" in text
    assert "slack_removal_le N K x ((1 / (INR N))) (1)." in generate(CERTS[TVDP])
    assert "slack_pairs_le N K x (1) (2)." in generate(CERTS[HS])
    assert "class_size_ge N cls (1)." in generate(CERTS[KA])


def test_a_b_of_another_kind_is_refused():
    with pytest.raises(Untranslatable):
        generate(edited(CERTS[TV], ["B"], {"definition": "kl-ldp", "params": {}, "family": None, "sides": None}))


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name", sorted(CERTS))
def test_weakest_family_certificates_check(name, library, tmp_path):
    assert_kernel_checked(CERTS[name], library, tmp_path, name)


@pytest.mark.slow
@coq
@pytest.mark.parametrize("label, cert, step", FORGERIES, ids=[f[0] for f in FORGERIES])
def test_forged_certificates_fail_at_their_step(label, cert, step, library, tmp_path):
    assert failing_step(cert, library, tmp_path, label) == step


@pytest.mark.parametrize("name", sorted(CERTS))
def test_the_stored_certificates_are_the_checkers(name):
    from implgraph.certify import check_certificate
    assert check_certificate(CERTS[name]).ok
