"""The Coq generator of ``chord`` certificates (``Divergence.v``'s chord lemma): the prover's certificates for five
matrix cells (eps-LDP against KL, Renyi of order 2 and total variation between every two records;
multiplicative t-closeness against KL and Renyi of order 2 between each class and the table) check with coqc and a
clean axiom audit (the hockey stick's, the sixth, is refused: its U is a maximum); forged certificates (an edited
number) give files coqc rejects.

Each forgery makes the certificate's statement false or its data no longer fit the lemma; why is written beside it.
The coqc tests are slow and skip where Debian's ``coq`` is not installed.
"""

from __future__ import annotations


import pytest

from _forge import edited

from implgraph.kernel_coq.coqexpr import Untranslatable
from implgraph.kernel_coq.registry import COVERED, generate

from _coq import assert_kernel_checked, coq, kernel_accepts, load_certs

CERTS = load_certs("chord.json")


def _edit(name, path, value):
    return edited(CERTS[name], path, value)


FORGERIES = [
    # U's denominator T + 2 for T + 1: false, two records at (T, 1)/(T + 1) and (1, T)/(T + 1) have KL (T - 1) log T /
    # (T + 1) each way (for T = 2: log(2)/3 > log(2)/4)
    ("kl pairs U", _edit("ldp => kl-ldp", ["upper"], "(T - 1)*log(T)/(T + 2)")),
    # lo = 1/(2 T) for 1/T: the chord on the wider interval is larger than U, the identity chord = U fails
    ("kl pairs lo", _edit("ldp => kl-ldp", ["upper_certificate", "lo"], "1/(2*T)")),
    # U = log((T^2 - T + 1)/(2 T)): false at T = 1 (log(1/2) < 0 <= every divergence)
    ("renyi pairs U", _edit("ldp => renyi-ldp(alpha=2)", ["upper"], "log((T**2 - T + 1)/(2*T))")),
    # TV (T - 1)/(T + 2) for (T - 1)/(T + 1): false, the same two records are at TV (T - 1)/(T + 1)
    ("tv pairs U", _edit("ldp => tv-ldp", ["upper"], "(T - 1)/(T + 2)")),
    # hi = T/2: A's ratios reach T, not inside [lo, T/2] (T <= T/2 fails for T > 0)
    ("tv pairs hi", _edit("ldp => tv-ldp", ["upper_certificate", "hi"], "T/2")),
    # a class against the table, U halved: false, one record at (T, 1)/(T + 1) in a class of its own and the rest
    # at the table's complement reach the chord's value
    ("kl class U", _edit("mult-t-closeness => kl-closeness", ["upper"], "(T - 1)*log(T)/(2*T + 2)")),
]


def test_chord_is_covered_and_states_the_divergence():
    assert "chord" in COVERED
    text = generate(CERTS["ldp => kl-ldp"])
    assert "div_pairs_le KL N K x" in text and "pairwise_le N K x (T)" in text
    text = generate(CERTS["mult-t-closeness => renyi-closeness(alpha=2)"])
    assert "div_class_le (Renyi 2) N K x cls" in text and "class_le TwoSided N K x cls (T)" in text


def test_a_case_the_library_does_not_state_is_refused():
    with pytest.raises(Untranslatable):         # Renyi of order 3: its chord's value is not proved in Coq yet
        generate(_edit("ldp => renyi-ldp(alpha=2)", ["B", "params"], {"alpha": "3"}))
    cert = _edit("ldp => kl-ldp", ["A"], {"definition": "dp", "params": {}, "family": "subset",
                                           "sides": "two-sided", "size": "N - 1"})
    with pytest.raises(Untranslatable):
        generate(cert)



@pytest.mark.slow
@coq
@pytest.mark.parametrize("name", sorted(CERTS))
def test_real_chord_certificates_check(name, library, tmp_path):
    assert_kernel_checked(CERTS[name], library, tmp_path, name)


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name,cert", FORGERIES, ids=[n for n, _ in FORGERIES])
def test_forged_chord_certificates_fail(name, cert, library, tmp_path):
    assert not kernel_accepts(cert, library, tmp_path, name)
