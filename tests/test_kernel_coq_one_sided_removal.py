"""The Coq generator of the ``one-sided-removal`` certificates (``OneSidedRemoval.v``,
``implgraph/kernel_coq/gen_one_sided_removal.py``): pml bounds the total variation on record removal (tv-dp) by
U = min((T - 1)/N, (T - 1)/(T (N - 1)), 1/N), and the hockey-stick at gamma = 2 there (delta-dp(eps=log(2))) by
min(1/N, max(0, (2T - N - 1)/(T (N - 1)))); B stated as its additive slack on every event, both ways
(``slack_removal_le N K x U gamma``). The hockey-stick's W is attained at N = 3, T = 5/2 (1/5) and N = 4, T = 3 (1/9),
by hand in tests/test_one_sided_removal.py: a smaller W is false, and coqc rejects its step ``Hu1``.

The prover's certificate (``tests/data/coq/one_sided_removal.json``) checks with coqc and a clean axiom audit. Each of
U's three arguments is attained somewhere (by hand, tests/test_one_sided_removal.py): (T - 1)/N at N = 3, T = 5/4
(1/12); (T - 1)/(T (N - 1)) at N = 3, T = 2 (1/4); 1/N at N = 4, T = 5 (1/4). So lowering any argument is a false
claim, and coqc rejects the forged file at the step of that argument (named beside each forgery).

The coqc tests are slow and skip where Debian's ``coq`` is not installed.
"""

from __future__ import annotations

import pytest

from _forge import edited

from implgraph.kernel_coq.coqexpr import Untranslatable
from implgraph.kernel_coq.registry import COVERED, generate

from _coq import assert_kernel_checked, coq, failing_step, load_certs

CERTS = load_certs("one_sided_removal.json")
TVDP, DDP = "pml => tv-dp", "pml => delta-dp(eps=log(2))"


def _upper(old, new):
    text = CERTS[TVDP]["upper"]
    assert old in text
    return edited(CERTS[TVDP], ["upper"], text.replace(old, new))


FORGERIES = [
    # 1/(N + 1): 1/5 at N = 4, T = 5, below the 1/4 attained
    ("weakest", _upper("1/N", "1/(N + 1)"), "Hu0"),
    # (T - 1)/(N + 1): 1/16 at N = 3, T = 5/4, below the 1/12 attained
    ("first", _upper("(T - 1)/N,", "(T - 1)/(N + 1),"), "Hu1"),
    # (T - 1)/(T*N): 1/6 at N = 3, T = 2, below the 1/4 attained
    ("second", _upper("(T - 1)/(T*(N - 1))", "(T - 1)/(T*N)"), "Hu2"),
    # W - 1/100 for the hockey-stick: below the 1/5 attained at N = 3, T = 5/2
    ("hockey W", edited(CERTS[DDP], ["upper"], CERTS[DDP]["upper"].replace("(T*(N - 1))", "(T*(N - 1)) - 1/100")),
     "Hu1"),
]


def test_one_sided_removal_states_b_as_its_slack():
    assert "one-sided-removal" in COVERED
    text = generate(CERTS[TVDP])
    assert "subset_le OneSided N K x (1) (T) ->" in text and "slack_removal_le N K x ((Rmin" in text
    assert "onesided_removal_n N K x T Htab HA HN2 HT1" in text and "onesided_removal_weakest N K x Htab HN2" in text


def test_a_forged_argument_is_matched_to_the_nearest_value():
    # 1/(N + 1) is none of the lemma's values: the file still states it, against the nearest (its step fails in coqc)
    lines = [ln for ln in generate(_upper("1/N", "1/(N + 1)")).splitlines() if "assert (Hu0 :" in ln]
    assert len(lines) == 1 and lines[0].endswith("<= (1 / ((INR N) + 1))).")


@pytest.mark.parametrize("path,value", [(["A", "sides"], "two-sided"), (["B", "definition"], "tv-ldp")])
def test_other_sides_are_refused(path, value):
    with pytest.raises(Untranslatable):
        generate(edited(CERTS[TVDP], path, value))


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name", sorted(CERTS))
def test_one_sided_removal_certificates_check(name, library, tmp_path):
    assert_kernel_checked(CERTS[name], library, tmp_path, name)


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name,cert,step", FORGERIES, ids=[n for n, _, _ in FORGERIES])
def test_forged_one_sided_removal_certificates_fail_at_their_step(name, cert, step, library, tmp_path):
    failed = failing_step(cert, library, tmp_path, name)
    assert failed is not None and failed.startswith(step), failed
