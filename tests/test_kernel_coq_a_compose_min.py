"""The Coq theorems of ``composition`` certificates whose first part's bound h is a ``Min`` (the second part applied
at T = h: each threshold of its domain holds for every argument of the Min, and U's Mins are h with their arguments
written otherwise, equal by ``field`` and in any order).

The prover's certificates check with coqc and a clean axiom audit; each forgery (reason beside it) edits one number
and coqc rejects its file. The coqc tests are slow and skip where Debian's ``coq`` is not installed.
"""

from __future__ import annotations

import pytest

from _forge import edited

from implgraph.kernel_coq.registry import generate

from _coq import assert_kernel_checked, coq, kernel_accepts, load_certs

CERTS = load_certs("compose_min.json")
EPS = "eps-delta-dp(delta=1/10) => kl-closeness [composition]"
LIP = "lip => eps-delta-ldp(delta=1/10) [composition]"
RENYI = "lip => renyi-ldp(alpha=2) [composition]"
BARE_T = "kt-closeness(k=k) => basic-beta-likeness(k=k) [composition]"

FORGERIES = [
    # the third argument of U's Min 4/5 -> 1 (smaller U): false, and not the first part's (N - 1)(T - 4/5)/(T + 1)
    ("Min argument of U", edited(CERTS[EPS], ["upper"], CERTS[EPS]["upper"].replace("(5*T - 4)", "(5*T - 5)"))),
    # U = Min(T**2, N*(T - 1)): smaller than the second part's bound at h, false at T = 1 (B's level is >= 1)
    ("Min of U with an edited argument", edited(CERTS[LIP], ["upper"], "Min(T**2, N*(T - 1))")),
    # the second part asks T >= 2 of its threshold: h = Min(T**2, N (T - 1) + 1) is 1 at T = 1, below it
    ("threshold of the second part", edited(CERTS[RENYI], ["parts", 1, "domain", 2], "T >= 2")),
]


def test_the_min_is_split_into_its_arguments():
    text = generate(CERTS[EPS])
    # a threshold per argument of h's Min, then h's; U's Min rewritten into h
    assert text.count("min_threshold") == 1 and "E0_2 :" in text and "EM0 :" in text and "rewrite EM0" in text


def test_a_bare_T_argument_is_rewritten_last():
    # U = Min(T, (N T - N + k)/(T k)): rewriting T = hv first would change the T inside the second argument, whose
    # equation then finds nothing to rewrite; the longer argument's equation comes first
    text = generate(CERTS[BARE_T])
    assert "rewrite EA1, EA0; min_split" in text


def test_the_forgeries_are_stated():
    for _, cert in FORGERIES:
        generate(cert)      # the generator states each: the kernel, not the generator, rejects it



@pytest.mark.slow
@coq
@pytest.mark.parametrize("name", sorted(CERTS))
def test_real_min_compositions_check(name, library, tmp_path):
    assert_kernel_checked(CERTS[name], library, tmp_path, name)


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name,cert", FORGERIES, ids=[n for n, _ in FORGERIES])
def test_forged_min_compositions_fail(name, cert, library, tmp_path):
    assert not kernel_accepts(cert, library, tmp_path, name)
