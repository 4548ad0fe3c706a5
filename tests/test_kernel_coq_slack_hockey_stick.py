"""The Coq generator of the ``slack-hockey-stick`` certificates (``SlackHockeyStick.v``): an additive slack delta at
the ratio T between records bounds the hockey-stick at gamma by max(delta, (T - gamma + (1 + gamma) delta)/(T + 1))
between records, and by max(delta, (T - r + (1 + r) delta)/(T + 1))/N on record removal, r = 1 + N (gamma - 1).

The prover's two certificates (``tests/data/coq/slack_hockey_stick.json``: eps-delta-ldp(delta=1/10) into
delta-ldp(eps=log(2)) and delta-dp(eps=log(2))) check with coqc and a clean axiom audit. Their U is attained (by hand;
tests/test_slack_hockey_stick.py checks the tables with tests/brute.py): between records at T = 4 by (41/50, 9/50),
(9/50, 41/50) (hockey-stick 23/50 = (4 - 17/10)/5) and at T = 1 by (1/10, 9/10), (0, 1) (1/10); on removal at
N = 3, T = 1 by (1/10, 9/10), (0, 1), (0, 1) (1/30 = delta/N).

So a smaller U is a false claim; a forged certificate (an edited U, delta or gamma) gives a file the generator writes
and coqc rejects at the step the edit concerns (named beside each forgery). The coqc tests are slow and skip where
Debian's ``coq`` is not installed.
"""

from __future__ import annotations

import pytest

from _forge import edited

from implgraph.kernel_coq.coqexpr import Untranslatable
from implgraph.kernel_coq.registry import COVERED, generate

from _coq import assert_kernel_checked, coq, failing_step, load_certs

CERTS = load_certs("slack_hockey_stick.json")
PAIRS = "eps-delta-ldp(delta=1/10) => delta-ldp(eps=log(2))"
REMOVAL = "eps-delta-ldp(delta=1/10) => delta-dp(eps=log(2))"


def test_slack_hockey_stick_states_a_and_b_as_their_slacks():
    assert "slack-hockey-stick" in COVERED
    text = generate(CERTS[PAIRS])
    assert "slack_pairs_le N K x ((1 / 10)) (T) ->" in text and "SlackHockeyStick" in text
    assert "slack_pairs_le N K x ((Rmax (1 / 10) ((T - (17 / 10)) / (T + 1)))) (2)." in text
    assert "slack_hockey_pairs_at" in text and "div_pairs_le" not in text
    text = generate(CERTS[REMOVAL])
    assert "slack_removal_le N K x ((Rmax " in text and ") (2)." in text and "slack_hockey_removal_at" in text
    assert "div_removal_le" not in text


@pytest.mark.parametrize("path,value", [
    (["B", "definition"], "tv-ldp"),                                   # B not a hockey stick
    (["upper_certificate", "slack"], None),                            # no delta in the data
    (["upper"], "1/10"),                                               # U not a Max
])
def test_slack_hockey_stick_refuses_other_certificates(path, value):
    with pytest.raises(Untranslatable):
        generate(edited(CERTS[PAIRS], path, value))


#: U's arguments in the other order: the generator swaps them (Rmax_comm) and the theorem checks
SWAPPED = edited(CERTS[PAIRS], ["upper"], "Max((T - 17/10)/(T + 1), 1/10)")

FORGERIES = [
    # delta dropped from K: 2/5 at T = 4, below the 23/50 the dominating pair attains
    ("pairs K", edited(CERTS[PAIRS], ["upper"], "Max(1/10, (T - 2)/(T + 1))"), "HU1"),
    # in the other order, delta 1/20 for 1/10: 1/20 at T = 1, below the 1/10 of (1/10, 9/10), (0, 1)
    ("pairs delta swapped", edited(CERTS[PAIRS], ["upper"], "Max((T - 17/10)/(T + 1), 1/20)"), "HU1"),
    ("data delta", edited(CERTS[PAIRS], ["upper_certificate", "slack", "delta"], "1/20"), "Hd"),
    ("data gamma", edited(CERTS[PAIRS], ["upper_certificate", "b_divergence", "gamma"], "3"), "Hg"),
    # delta/(N + 1): 1/40 at N = 3, T = 1, below the 1/30 of (1/10, 9/10), (0, 1), (0, 1)
    ("removal delta/N", edited(CERTS[REMOVAL], ["upper"],
                                CERTS[REMOVAL]["upper"].replace("1/(10*N)", "1/(10*(N + 1))")), "HU0"),
    ("removal gamma", edited(CERTS[REMOVAL], ["upper_certificate", "b_divergence", "gamma"], "3"), "Hg"),
]


def test_the_forgeries_are_edits():
    for _, cert, _ in FORGERIES:
        assert cert != CERTS[PAIRS] and cert != CERTS[REMOVAL]


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name", [PAIRS, REMOVAL])
def test_slack_hockey_stick_certificates_check(name, library, tmp_path):
    assert_kernel_checked(CERTS[name], library, tmp_path, name)


@pytest.mark.slow
@coq
def test_the_swapped_max_checks(library, tmp_path):
    assert "max_swap" in generate(SWAPPED)
    assert_kernel_checked(SWAPPED, library, tmp_path, "swapped")


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name,cert,step", FORGERIES, ids=[n for n, _, _ in FORGERIES])
def test_forged_slack_hockey_stick_certificates_fail_at_their_step(name, cert, step, library, tmp_path):
    assert failing_step(cert, library, tmp_path, name) == step
