"""The Coq generator of ``extreme-points`` certificates (and their composite ``extreme-points-pieces``): the two
matrix cells the argument proves (eps-LDP and (eps,delta)-LDP => (eps,delta)-DP, delta = 1/10) check with coqc and a
clean axiom audit; forged certificates (an edited number or inequality) give files coqc rejects.

The certificates (``tests/data/coq/extreme_points.json``) are the prover's for the two cells. Each forgery edits one
number or relation; why the file must fail is written beside it (the statement false, shown by hand, or the proof
data no longer fitting the lemma). The coqc tests are slow and skip where Debian's ``coq`` is not installed.
"""

from __future__ import annotations


import pytest

from _forge import edited

from implgraph.kernel_coq.coqexpr import Untranslatable
from implgraph.kernel_coq.registry import COVERED, generate

from _coq import assert_kernel_checked, check_generated, coq, load_certs

_CERTS = load_certs("extreme_points.json")
LDP = _CERTS["ldp => eps-delta-dp(delta=1/10)"]
SLACK = _CERTS["eps-delta-ldp(delta=1/10) => eps-delta-dp(delta=1/10)"]


def _edit(cert, path, value):
    return edited(cert, path, value)


def _every(cert, path, value):
    """``path`` set to ``value`` in the certificate and in each of its parts."""
    out = _edit(cert, path, value)
    for k in range(len(out["parts"])):
        out = _edit(out, ["parts", k] + path, value)
    return out


_MULT = ["upper_certificate", "requirements"]

FORGERIES = [
    # U's first piece lowered by 1/10: false, the piece is attained (N = 2, T = 2: one record at 2/3, one at 1/3;
    # the event of bucket 1: P = 1/2, Q_1 = 1/3, (P - 1/10)/Q_1 = 6/5, not <= 11/10); no part has that bound
    ("U lowered", _edit(LDP, ["upper"], LDP["upper"].replace("9/10", "8/10", 1))),
    # a multiplier of the first part off: D (P den - Q n) = sum mu_k g_k no longer holds (ring)
    ("multiplier", _edit(LDP, ["parts", 0] + _MULT + ["(P - delta)/Q_1", "multipliers", "x_k <= T x_1, bucket 2"],
                         "N**2 + 1")),
    # the first part's condition N <= 9 (T - 1) reversed: its statement is false at T = 1 (every record equal; U =
    # 4/5, the event of every bucket: 1 <= 4/5 * 1 + 1/10 fails), its multipliers' signs fail
    ("inequality", _edit(LDP, ["parts", 0, "domain", 4], "-N + 9*T - 9 <= 0")),
    # the scale of a requirement edited: the identity fails
    ("scale", _edit(LDP, ["parts", 2] + _MULT + ["(P - delta)/Q_1", "scale"], "T - 2")),
    # B's slack 1/20 for 1/10 everywhere: false (N = 2, T = 2, records at 2/3 and 1/3: P = 1/2, Q_1 = 1/3, and
    # 1/2 <= 6/5 * 1/3 + 1/20 fails); the pieces' identities fail
    ("B's slack", _every(LDP, ["B", "slack", "delta"], "1/20")),
    # A's slack 1/5 for 1/10 everywhere: a weaker hypothesis, the first piece's bound is false (N = 2, T = 2, records
    # at 11/15 and 4/15 meet A at slack 1/5; P = 1/2, Q_1 = 4/15 and 1/2 <= 4/3 * 4/15 + 1/10 fails); the identities fail
    ("A's slack", _every(SLACK, ["A", "slack", "delta"], "1/5")),
]


def test_generated_theorem_states_the_piecewise_bound():
    text = generate(LDP)
    assert "extreme-points" in COVERED and "extreme-points-pieces" in COVERED
    # a theorem per part, then the whole; the library's lemma for a pairwise ratio level
    assert text.count("Theorem ") == 4
    assert text.count("apply (extreme_points_ratio N K x T ((1 / 10))") == 3
    # U = Piecewise((U1, c1), (1, True)): U1 where c1 holds, 1 where it does not, as the certificate writes them
    c1 = ("(((INR N) - (9 * T)) <= (- 9) /\\ (((T - 1) ^ 2) * (((((INR N) * T) + (INR N)) - (10 * T)) + 10)) <= 0)")
    u1 = "(((((- T) / 10) + (9 / 10)) + (T / (INR N))) - (1 / (INR N)))"
    assert f"({c1} -> slack_removal_le N K x ((1 / 10)) (({u1})))" in text
    assert f"(~ {c1} -> slack_removal_le N K x ((1 / 10)) ((1)))." in text
    assert "  pairwise_le N K x (T) ->\n  (" in text
    # an additive slack between two records: the lemma for slacks, with delta_A
    assert "apply (extreme_points N K x T ((1 / 10)) ((1 / 10))" in generate(SLACK)


def test_generator_refuses_what_its_lemma_does_not_state():
    # A a subset level: its polygon has other sides than the library's
    subset = {"definition": "dp", "params": {}, "family": "subset", "sides": "two-sided", "size": "N - 1"}
    with pytest.raises(Untranslatable, match="pairwise ratio level"):
        generate(_every(LDP, ["A"], subset))
    # a multiplier naming a side the polygon does not have
    bad = _edit(LDP, ["parts", 1] + _MULT + ["(P - delta)/Q_1", "multipliers"], {"w >= 0": "1"})
    with pytest.raises(Untranslatable, match="unknown side"):
        generate(bad)



@pytest.mark.slow
@coq
@pytest.mark.parametrize("name,cert", [("ldp", LDP), ("slack", SLACK)], ids=["ldp", "eps-delta-ldp"])
def test_real_certificates_check(name, cert, library, tmp_path):
    assert_kernel_checked(cert, library, tmp_path, name)


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name,cert", FORGERIES, ids=[n for n, _ in FORGERIES])
def test_forged_certificates_fail(name, cert, library, tmp_path):
    # each forgery gives a file (the generator does not judge), which coqc rejects
    assert not check_generated(cert, library, tmp_path, name)["ok"]
