"""The Coq theorems of B's own ceilings (``one-sided-ceiling``, ``divergence-ceiling``) and of ``ceiling-family``
(the upper bound of a supremum: its one part's theorem, the part claiming what the whole claims).

- a class divergence's ceiling log(N/s) with s a minimum class size A's registered definition declares
  ((alpha,k)-anonymity's k: ``min_class_level``), or the partition's whatever A is (the l-diversities);
- where the lemma holds whatever A is and A is total variation or the hockey stick (whose library predicate asks
  domination, more than they ask), the theorem states B's bound on every table, without A.

The prover's certificates check with coqc and a clean axiom audit; each forgery (reason beside it) gives a false
statement, and coqc rejects its file. The coqc tests are slow and skip where Debian's ``coq`` is not installed.
"""

from __future__ import annotations

import pytest

from _forge import edited

from implgraph.kernel_coq.coqexpr import Untranslatable
from implgraph.kernel_coq.registry import COVERED, generate

from _coq import assert_kernel_checked, coq, kernel_accepts, load_certs

CERTS = load_certs("ceiling.json")
ALPHA = "alpha-k-anonymity(k=2) => kl-closeness [ceiling-family]"
TV = "tv-ldp => basic-beta-likeness [ceiling-family]"
HOCKEY = "delta-dp(eps=log(2)) => basic-beta-likeness [ceiling-family]"
LDIV = "distinct-l-diversity => renyi-closeness(alpha=2) [divergence-ceiling]"


def _upper(name, value):
    """The certificate with U edited, in the whole and in its part alike (so that the generator states it)."""
    cert = edited(CERTS[name], ["upper"], value)
    return edited(cert, ["parts", 0, "upper"], value) if cert.get("parts") else cert


FORGERIES = [
    # log(N/3): false, a class of k = 2 records at (1, 0) and N - 2 others at (0, 1) has KL log(N/2) from the table
    ("class floor U", _upper(ALPHA, "log(N/3)")),
    # N/2: false, a class of one record at (1, 0) and the others at (0, 1): its ratio to the table is N (TV <= 1)
    ("whatever-A ratio U", _upper(TV, "N/2")),
    # log(N/2): false, a class of one record at (1, 0), the others at (0, 1): D_2 = log(N)
    ("whatever-A divergence U", _upper(LDIV, "log(N/2)")),
]


def test_ceiling_family_is_covered():
    assert "ceiling-family" in COVERED


def test_a_class_floor_is_stated_as_a_declared_minimum_class_size():
    text = generate(CERTS[ALPHA])
    assert "min_class_level N cls (2) Arest ->" in text and "div_class_le KL N K x cls ((ln ((INR N) / 2)))" in text


def test_a_total_variation_or_hockey_a_is_left_out_of_a_whatever_a_theorem():
    for name in (TV, HOCKEY):
        text = generate(CERTS[name])
        assert "whatever A is: no hypothesis on A" in text and "div_pairs_le" not in text \
            and "div_removal_le" not in text


def test_an_undeclared_class_floor_is_refused():
    # l is no parameter of alpha-k-anonymity declared a minimum class size: A has no predicate then
    cert = edited(CERTS[ALPHA], ["parts", 0, "upper_certificate", "class_floor"], "l")
    with pytest.raises(Untranslatable):
        generate(cert)


def test_a_class_floor_only_above_the_weakest_level_is_refused():
    # p-sensitive k-anonymity's k bounds the classes only where p >= 1 (MinClassSizeAboveWeakest): the library has
    # no such predicate, so the generator must refuse rather than state B's bound whatever A is (log N, not log(N/k))
    cert = edited(CERTS[LDIV], ["upper_certificate", "class_floor_above_weakest"], "k")
    with pytest.raises(Untranslatable, match="weakest"):
        generate(cert)


def test_a_part_claiming_another_implication_is_refused():
    cert = edited(CERTS[ALPHA], ["upper"], "log(N/3)")
    with pytest.raises(Untranslatable, match="part claims another implication"):
        generate(cert)



@pytest.mark.slow
@coq
@pytest.mark.parametrize("name", sorted(CERTS))
def test_real_ceiling_certificates_check(name, library, tmp_path):
    assert_kernel_checked(CERTS[name], library, tmp_path, name)


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name,cert", FORGERIES, ids=[n for n, _ in FORGERIES])
def test_forged_ceiling_certificates_fail(name, cert, library, tmp_path):
    generate(cert)      # stated: the kernel, not the generator, rejects it
    assert not kernel_accepts(cert, library, tmp_path, name)
