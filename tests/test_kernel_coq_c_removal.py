"""The Coq generator of the ``chord`` certificates on record removal both ways and of the hockey stick's chord with a
maximum (``RemovalChord.v``): A's interval of Q_i/P (a pairwise level's narrowed [N/(N - 1 + T), N T/((N - 1) T +
1)], each record against the table, the subset level of size N - 1 with its ends T, N/(N - 1) and 2 - 1/T at N = 2),
B both ways (the chord of phi on [lo, hi] and on [1/hi, 1/lo], the larger of the two in U), the removal level against
a class with its lower end above 0, domains with a conjunction or a denominator, one record against the table (pml)
against the class divergences. The prover's certificates for these matrix cells (``tests/data/coq/
chord_removal.json``) check with coqc and a clean axiom audit; a forged certificate (an edited number) gives a file
the generator writes and coqc rejects.

Each forgery's reason is written beside it. The coqc tests are slow and skip where Debian's ``coq`` is not installed.
"""

from __future__ import annotations

import pytest

from _forge import edited

from implgraph.kernel_coq.registry import generate

from _coq import assert_kernel_checked, check_generated, coq, load_certs

CERTS = load_certs("chord_removal.json")


def _edit(name, path, value):
    return edited(CERTS[name], path, value)


def _upper(name, old, new):
    text = CERTS[name]["upper"]
    assert old in text
    return _edit(name, ["upper"], text.replace(old, new))


FORGERIES = [
    # (T - 2)/(T + 2): false, two records (T, 1)/(T + 1) and (1, T)/(T + 1) (LDP level T) have the hockey stick
    # (gamma = 2) (T - 2)/(T + 1) > (T - 2)/(T + 2) where T > 2
    ("hockey pairs U", _edit("ldp => delta-ldp(eps=log(2))", ["upper"], "Max(0, T - 2)/(T + 2)")),
    # the chord's value on [1/T, T] is (T - 2)/(T + 1) where T > 2: no argument of U's maximum is it
    ("hockey removal U", _edit("dp => delta-dp(eps=log(2))", ["upper"], "Max(0, T - 2)/(T + 2)")),
    # hi = 3/2 - 1/(2 T): at N = 2, Q_1/P = 2 - Q_2/P reaches 2 - 1/T > hi where T > 1 (A's end is not inside)
    ("removal N = 2 hi", _edit("dp => kl-dp where N <= 2", ["upper_certificate", "hi"], "3/2 - 1/(2*T)")),
    # below the chord's value (T - 1) log T/(T + 1): the identity fails
    ("removal conjunction U", _edit("dp => kl-dp where (N >= 3) & (T <= N/(N - 1))", ["upper"],
                                    "(T - 1)*log(T)/(T + 2)")),
    # lo = 1/(2 T): U is not the chord's value on the wider interval (either way)
    ("removal N/(N - 1) lo", _edit("dp => renyi-dp(alpha=2) where (N >= 3) & (T >= N/(N - 1))",
                                   ["upper_certificate", "lo"], "1/(2*T)")),
    # the perspective's chord is T^2/(2 T - 1), not T^2/(2 T): no argument of the maximum is its value
    ("removal N = 2 Renyi U", _upper("dp => renyi-dp(alpha=2) where N <= 2", "T**2/(2*T - 1)", "T**2/(2*T)")),
    # the chord's weight is T/(T + 1), not T/(T + 2): the identity fails
    ("class lo above 0 U", _upper("dp => kl-closeness where T < N/(N - 1)", "/(T + 1)", "/(T + 2)")),
    # hi = N - (N - 1)/(2 T): U is not the chord's value on the wider interval
    ("class lo above 0 hi", _edit("dp => renyi-closeness(alpha=2) where T < N/(N - 1)", ["upper_certificate", "hi"],
                                  "N - (N - 1)/(2*T)")),
    # hi = N T/((N - 1) T + 2): one record at (T, 1)/(T + 1) and N - 1 at (1, T)/(T + 1) put Q_i/P at
    # N T/((N - 1) T + 1) > hi (A's end is not inside)
    ("narrowed hi", _edit("ldp => kl-dp", ["upper_certificate", "hi"], "N*T/(T*(N - 1) + 2)")),
    # lo = N/(N + T): U is not the chord's value on the wider interval
    ("narrowed Renyi lo", _edit("ldp => renyi-dp(alpha=2)", ["upper_certificate", "lo"], "N/(N + T)")),
    # (T - 1)/(N (T + 2)): below the chord's value (T - 1)/(N (T + 1)): the identity fails
    ("narrowed tv U", _upper("ldp => tv-dp", "(T + 1)", "(T + 2)")),
    # hi = N T/((N - 1) T + 2): as "narrowed hi"
    ("narrowed hockey hi", _edit("ldp => delta-dp(eps=log(2))", ["upper_certificate", "hi"], "N*T/(T*(N - 1) + 2)")),
    # log(T/2) < 0 at T = 1: false, every divergence is >= 0
    ("pml class U", _edit("pml => kl-closeness", ["upper"], "log(T/2)")),
    # hi = T/2: a class's ratio to the table reaches T (every record at T), not inside [0, T/2]
    ("pml class hi", _edit("pml => renyi-closeness(alpha=2)", ["upper_certificate", "hi"], "T/2")),
    # hi = (N - 1/T)/(N - 1/2) < (N - 1/T)/(N - 1), the end a record at P/T reaches
    ("single record hi", _edit("lip => tv-dp", ["upper_certificate", "hi"], "(N - 1/T)/(N - 1/2)")),
    # lo = (N - T/2)/(N - 1) > (N - T)/(N - 1), the end a record at T P reaches
    ("single record lo", _edit("lip => tv-dp where T <= N - 1", ["upper_certificate", "lo"], "(N - T/2)/(N - 1)")),
    # (T - 2)/(N T + 1) is not the chord's value (T - 2)/(N T): no argument of the maximum is it
    ("single record hockey U", _upper("lip => delta-dp(eps=log(2))", "(T - 2)/(N*T)", "(T - 2)/(N*T + 1)")),
]


def test_removal_chords_are_stated_both_ways():
    text = generate(CERTS["ldp => kl-dp"])
    assert "pairwise_le N K x (T) ->" in text and "div_removal_le KL N K x" in text
    assert "chord_rconf" in text and "pairwise_rconf" in text


def test_a_conjunction_in_the_domain_is_two_hypotheses():
    text = generate(CERTS["dp => kl-dp where (N >= 3) & (T <= N/(N - 1))"])
    assert "(INR N) >= 3 ->\n  T <= ((INR N) / ((INR N) - 1)) ->" in text


def test_pml_states_one_record_against_the_table():
    text = generate(CERTS["pml => kl-closeness"])
    assert "subset_le OneSided N K x (1) (T) ->" in text and "onesub_upper" in text



@pytest.mark.slow
@coq
@pytest.mark.parametrize("name", sorted(CERTS))
def test_real_removal_chord_certificates_check(name, library, tmp_path):
    assert_kernel_checked(CERTS[name], library, tmp_path, name)


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name,cert", FORGERIES, ids=[n for n, _ in FORGERIES])
def test_forged_removal_chord_certificates_fail(name, cert, library, tmp_path):
    # the generator writes the file; the kernel rejects it
    assert not check_generated(cert, library, tmp_path, name)["ok"]
