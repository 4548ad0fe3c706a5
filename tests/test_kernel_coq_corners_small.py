"""The Coq proofs of the ``corners`` pieces where the corner family of [1/T, T] is no table: the narrowed box from
T = N - 1 on (its family now claimed for N >= 2), the hockey stick's box [1/T, T] at N = 3, T < 2 (its V attained
by the cycle family) and Renyi 2's and KL's hexagon there (``CornersHexagon.v``, ``CornersHexagonKL.v``;
tests/test_corners_small.py).
The other upper bounds are ``Corners.v``'s and ``CornersNarrow.v``'s theorems; the certificates' domains now state
T >= N - 1 or T < N - 1 with N T < 2 T + 2.

A forged certificate (U below what the families attain: at N = 3, T = 3/2 the hockey stick's 1/15, at N = 2, T = 3 KL's
(2/3) log 5) gives a file coqc rejects at the step the edit concerns. Slow; skipped where Debian's ``coq`` is absent.
"""

from __future__ import annotations

import pytest

from _coq import assert_kernel_checked, coq, failing_step, load_certs
from _forge import edited

from implgraph.kernel_coq.registry import generate

CERTS = load_certs("corners_small.json")
CYCLE, KL = "lip => delta-ldp(eps=log(2)) cycle", "lip => kl-ldp"

FORGERIES = [
    # half of V: below the 1/15 the cycle family attains at N = 3, T = 3/2
    ("cycle U", edited(CERTS[CYCLE], ["upper"], "Max(0, T**2 - 2)/(2*T*(T + 1))"), "Hc"),
    # (1 - 1/T) log(N T - N + 1) - 1/10: below the (2/3) log 5 two records attain at N = 2, T = 3
    ("kl U", edited(CERTS[KL], ["upper"], "(1 - 1/T)*log(N*T - N + 1) - 1/10"), "value"),
]


def test_the_pieces_are_stated():
    assert "corners_hockey (2)" in generate(CERTS[CYCLE])
    assert "corners_narrow_kl" in generate(CERTS[KL])


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name", sorted(CERTS))
def test_small_pieces_check(name, library, tmp_path):
    assert_kernel_checked(CERTS[name], library, tmp_path, name)


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name,cert,step", FORGERIES, ids=[n for n, _, _ in FORGERIES])
def test_forged_small_pieces_fail_at_their_step(name, cert, step, library, tmp_path):
    failed = failing_step(cert, library, tmp_path, name, value_line="apply Req_le")
    assert failed is not None and failed.startswith(step), failed


HEXAGON = "lip => renyi-ldp(alpha=2) hexagon"
HEX_FORGERIES = [
    # U at the box's V, above the supremum W2 but not the hexagon's value: the identity W2 T = X fails
    ("hexagon U", edited(CERTS[HEXAGON], ["upper"], "log((T**3 + 1/T**3 + (T - 1)/T)/(T + 1))"), "Hc"),
    # the domain without N T < 2 T + 2: N = 3 is not derived
    ("hexagon domain", edited(CERTS[HEXAGON], ["domain"], ["T > 0", "T >= 1", "N >= 2", "T < N - 1"]), "HNb"),
    # KL at the box's V, above the hexagon's value: the identity WK T = U fails
    ("kl hexagon U", edited(CERTS["lip => kl-ldp hexagon"], ["upper"], "2*(T - 1)*log(T)/T"), "Hc"),
]


def test_the_hexagon_is_stated():
    assert "corners_hexagon_renyi2" in generate(CERTS[HEXAGON]) and "CornersHexagon" in generate(CERTS[HEXAGON])
    assert "corners_hexagon_kl" in generate(CERTS["lip => kl-ldp hexagon"])


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name,cert,step", HEX_FORGERIES, ids=[n for n, _, _ in HEX_FORGERIES])
def test_forged_hexagon_certificates_fail_at_their_step(name, cert, step, library, tmp_path):
    failed = failing_step(cert, library, tmp_path, name)
    assert failed is not None and failed.startswith(step), failed
