"""The Coq theorems of ``composition`` certificates through two intermediates (the first part a composition of its
own): kl-dp and renyi-dp(alpha=2) => delta-ldp(eps=log(2)), through tv-dp and tv-ldp.

The generated file states the nested part's parts (``certificate_part1_part1``, ``_part1_part2``), the nested part
(``certificate_part1``), the second part and the whole; each composition applies its second part at T = h. The
prover's certificates check with coqc and a clean axiom audit; a forgery edits Pinsker's bound in the innermost part
(halved, false) with every U above it edited to follow, and coqc rejects its file in the innermost theorem. The coqc
tests are slow and skip where Debian's ``coq`` is not installed.
"""

from __future__ import annotations

import re

import pytest

from _coq import assert_kernel_checked, coq, load_certs
from _forge import edited

from implgraph.kernel_coq.check import run_coqc
from implgraph.kernel_coq.registry import generate

CERTS = load_certs("compose_two.json")
NAMES = sorted(CERTS)


def _forged(cert):
    out = edited(cert, ["parts", 0, "parts", 0, "upper"], "sqrt(2)*sqrt(T)/4")
    out = edited(out, ["parts", 0, "upper"], "Min(1, sqrt(2)*sqrt(T)*(N - 1)/2)")
    return edited(out, ["upper"], "Min(1, sqrt(2)*sqrt(T)*(N - 1)/2)")


@pytest.mark.parametrize("name", NAMES)
def test_the_nested_theorems_are_stated_in_order(name):
    text = generate(CERTS[name])
    order = [text.index(f"Theorem certificate{s} :") for s in ("_part1_part1", "_part1_part2", "_part1", "_part2", "")]
    assert order == sorted(order)
    # the library's modules once each, before the first theorem
    assert text.count("Require Import MinSplit.") == 1 and text.index("MinSplit") < order[0]


@pytest.mark.parametrize("name", NAMES)
def test_the_forgery_is_stated(name):
    assert "sqrt 2) * (sqrt T)) / 4" in generate(_forged(CERTS[name]))


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name", NAMES)
def test_two_intermediates_check(name, library, tmp_path):
    assert_kernel_checked(CERTS[name], library, tmp_path, name)


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name", NAMES)
def test_a_forged_nested_part_fails_in_its_theorem(name, library, tmp_path):
    text = generate(_forged(CERTS[name]))
    (tmp_path / "forged.v").write_text(text)
    ok, out, _, _ = run_coqc(["coqc", "-q", "-Q", library, "Implgraph", "forged.v"], str(tmp_path))
    assert not ok
    line = int(re.search(r'File "[^"]*", line (\d+)', out).group(1))
    theorems = [m.group(1) for ln in text.splitlines()[:line] if (m := re.match(r"Theorem (\w+) :", ln))]
    assert theorems[-1] == "certificate_part1_part1", out


#: the same upper bounds with the weakest-pair family attached (attained-family): the theorem is the part's, stated
#: under the whole's name (the family is the checker's: tests/test_attained_weakest_pair.py)
ATTAINED = load_certs("weakest_pair.json")


@pytest.mark.parametrize("name", sorted(ATTAINED))
def test_the_attained_family_states_its_part(name):
    text = generate(ATTAINED[name])
    assert "Theorem certificate :" in text and "Theorem certificate_part1 :" in text


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name", sorted(ATTAINED))
def test_the_attained_family_checks(name, library, tmp_path):
    assert_kernel_checked(ATTAINED[name], library, tmp_path, name)
