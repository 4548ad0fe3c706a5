"""The Coq theorems of ``ceiling-chord`` certificates (``CeilingChord.v``, :mod:`implgraph.kernel_coq.gen_ceiling_chord`):
a class's total variation distance from the table bounds its KL divergence by ``N ln N/(N - 1) TV`` and its Renyi
divergence of order 2 by ``log(1 + N TV)`` (the ratios lie in [0, N]; phi below its chords on [0, 1] and [1, N]),
from a class's total variation (the EMD t-closeness over the equal ground distance) or from the total variation
between every two records (tv-ldp, stated as its slack on every event: the classes' TV is at most (N - 1) T/N).

The prover's certificates check with coqc and a clean axiom audit; each forgery (reason beside it) states something
false and coqc rejects its file. The coqc tests are slow and skip where Debian's ``coq`` is not installed.
"""

from __future__ import annotations

import pytest

from _forge import edited

from implgraph.kernel_coq.registry import COVERED, generate

from _coq import assert_kernel_checked, coq, kernel_accepts, load_certs

CERTS = load_certs("ceiling_chord.json")

# Each U below is half the true supremum, which the family of the certificate attains where t = N c T/(N - 1) <= 1
# (c = 1 for a class's TV, (N - 1)/N between records): one record at (t, 1 - t, 0) in a class of its own and N - 1
# at (0, 1 - t, t) in another satisfy A at T, and the lone class's ratios to the table are (N, 1, 0): its KL is
# t ln N, its exp(D_2) is 1 + N t (t = N T/(N - 1), or T).
FORGERIES = [
    ("class TV to KL", edited(CERTS["emd-t-closeness => kl-closeness"], ["upper"], "N*T*log(N)/(2*(N - 1))")),
    ("class TV to Renyi", edited(CERTS["emd-t-closeness => renyi-closeness"], ["upper"], "log(N*T/2 + 1)")),
    ("pairs TV to KL", edited(CERTS["tv-ldp => kl-closeness"], ["upper"], "T*log(N)/2")),
    ("pairs TV to Renyi", edited(CERTS["tv-ldp => renyi-closeness"], ["upper"], "log(T*(N - 1)/2 + 1)")),
]


def test_ceiling_chord_is_covered_and_states_its_sides():
    assert "ceiling-chord" in COVERED
    text = generate(CERTS["tv-ldp => kl-closeness"])
    assert "slack_pairs_le N K x (T) (1) ->" in text and "div_class_le KL N K x cls" in text
    assert "tv_le N K x cls (T) ->" in generate(CERTS["emd-t-closeness => renyi-closeness"])



@pytest.mark.slow
@coq
@pytest.mark.parametrize("name", sorted(CERTS))
def test_real_ceiling_chord_certificates_check(name, library, tmp_path):
    assert_kernel_checked(CERTS[name], library, tmp_path, name)


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name,cert", FORGERIES, ids=[n for n, _ in FORGERIES])
def test_forged_ceiling_chord_certificates_fail(name, cert, library, tmp_path):
    generate(cert)      # stated: the kernel, not the generator, rejects it
    assert not kernel_accepts(cert, library, tmp_path, name)
