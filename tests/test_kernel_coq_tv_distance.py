"""The Coq theorems of ``tv-distance`` certificates whose A is the total variation or a hockey stick
(:mod:`implgraph.kernel_coq.gen_tv_distance`): A at most T is stated as the additive slack on every event it is
(``slack_pairs_le`` between two records, ``slack_removal_le`` under record removal, both ways; not the library's
divergence predicate, which would also ask domination), and B, each class's total variation distance from the table,
follows by ``DistanceLemmas.slack_pairwise_distance`` / ``slack_removal_distance`` with their obligations proved by
``nra``. (Pinsker's inequality and the chi-square bound: tests/test_kernel_coq_b_pinsker.py.)

The prover's certificates check with coqc and a clean axiom audit; each forgery (reason beside it) states something
false and coqc rejects its file. The coqc tests are slow and skip where Debian's ``coq`` is not installed.
"""

from __future__ import annotations

import pytest

from _forge import edited

from implgraph.kernel_coq.registry import COVERED, generate

from _coq import assert_kernel_checked, coq, kernel_accepts, load_certs

CERTS = load_certs("tv_distance.json")
B = " => emd-t-closeness(ground=equal)"
SLACK = [n for n in CERTS if not n.startswith("kl-")]
#: delta-ldp => kl-closeness: tv-distance (A a hockey stick, as its slack), then the ceiling chord at T = its bound
COMPOSED = "delta-ldp => kl-closeness [composition]"


def _edit(a, path, value):
    return edited(CERTS[a + B], path, value)


FORGERIES = [
    # T (N - 1)/(2 N): false, records (1, 0) alone in a class and N - 1 at (1 - T, T) (TV T): the class's TV is
    # T (N - 1)/N
    ("pairs tv U", _edit("tv-ldp", ["upper"], "T*(N - 1)/(2*N)")),
    # (N - 1)(2 T/3)/N: false at T -> 0, the pair (1/2 + m, 1/2 - m), (1/2 - m, 1/2 + m) with 2 m = 1/3 has hockey
    # stick (gamma = 2) 0 both ways, TV 1/3, so a class of one of them against N - 1 of the other has (N - 1)/(3 N)
    ("pairs hockey U", _edit("delta-ldp", ["upper"], "(N - 1)*(2*T/3)/N")),
    # gamma = 3 (eps = log 3) with gamma = 2's U: false, (3/4, 1/4) and (1/4, 3/4) have hockey stick 0 at gamma = 3
    # both ways (3/4 <= 3 * 1/4) and TV 1/2: a class of one against N - 1 of the other has (N - 1)/(2 N), above
    # (N - 1)(2 T/3 + 1/3)/N for T < 1/4
    ("pairs hockey gamma", _edit("delta-ldp", ["A", "params", "eps"], "log(3)")),
    # Min(1/2, T/2) = 1/4 at N = 2, T = 1/2: false, records (1, 0), (0, 1), the first a class of its own: tv-dp's
    # level is 1/2 (P = (1/2, 1/2) against either record) and the class's TV from P is 1/2
    ("removal tv U", _edit("tv-dp", ["upper"], "Min((N - 1)/N, T*(N - 1)/2)")),
    # (2 T + 1) log(N)/6 through the ceiling chord: false at T = 1/2, one record at (T, 1 - T, 0) in a class of its
    # own and N - 1 at (0, 1 - T, T) have hockey stick (gamma = 2) T both ways, and the lone class's KL from the
    # table is T log N (its ratios (N, 1, 0)) > (2 T + 1) log(N)/6
    ("composition into the ceiling chord U", edited(CERTS[COMPOSED], ["upper"], "(2*T + 1)*log(N)/6")),
]


def test_tv_distance_is_covered_and_states_a_as_its_slack():
    assert "tv-distance" in COVERED
    assert "slack_pairs_le N K x (T) (1) ->" in generate(CERTS["tv-ldp" + B])
    assert "slack_pairs_le N K x (T) (2) ->" in generate(CERTS["delta-ldp" + B])
    assert "slack_removal_le N K x (T) (1) ->" in generate(CERTS["tv-dp" + B])
    assert "slack_removal_le N K x (T) (2) ->" in generate(CERTS["delta-dp" + B])


def test_a_composition_through_tv_distance_states_a_as_its_slack():
    assert "slack_pairs_le N K x (T) (2) ->" in generate(CERTS[COMPOSED])



@pytest.mark.slow
@coq
@pytest.mark.parametrize("name", sorted(SLACK))
def test_real_tv_distance_certificates_check(name, library, tmp_path):
    assert_kernel_checked(CERTS[name], library, tmp_path, name)


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name,cert", FORGERIES, ids=[n for n, _ in FORGERIES])
def test_forged_tv_distance_certificates_fail(name, cert, library, tmp_path):
    generate(cert)      # stated: the kernel, not the generator, rejects it
    assert not kernel_accepts(cert, library, tmp_path, name)
