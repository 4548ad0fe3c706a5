"""The pair matrix's reuse of work: a certificate accepted once is not re-checked in the process
(:mod:`implgraph.certify.accepted`), and with two or more jobs a few pairs are decided in the parent before its
workers fork (:func:`implgraph.map.matrix._warm_pairs`, :func:`implgraph.map.matrix._decide_here`), each as a worker
decides it."""

from __future__ import annotations

import os
import time

import implgraph.certify as certify
from implgraph.certify import accepted as acc
from implgraph.map import matrix as mm
from implgraph.map.matrix_cells import Cell

#: U = T for two definitions of the same two-sided pairwise ratio: one record at 1/(T + 1), N - 1 at T/(T + 1) has
#: ratio T between the two rows on each bucket (by hand), so the family attains U at every N
SAME_LEVEL = {"format": "implgraph-certificate/1", "method": "same-level",
              "symbols": {"N": "integer", "T": "real"}, "domain": ["N >= 2", "T >= 1"],
              "A": {"family": "pairwise", "sides": "two-sided"}, "B": {"family": "pairwise", "sides": "two-sided"},
              "upper": "T", "tight": True,
              "tightness": {"blocks": [{"count": "1", "value": "1/(T + 1)"},
                                       {"count": "N - 1", "value": "T/(T + 1)"}]}}


def _counting(monkeypatch):
    calls = []
    real = certify.check_certificate
    monkeypatch.setattr(certify, "check_certificate", lambda c, *a, **k: calls.append(c) or real(c, *a, **k))
    monkeypatch.setattr(acc, "_ACCEPTED", {})
    return calls


def test_an_accepted_certificate_is_checked_once(monkeypatch):
    calls = _counting(monkeypatch)
    assert acc.accepted(SAME_LEVEL) and acc.accepted(dict(SAME_LEVEL))
    assert len(calls) == 1


def test_a_forged_certificate_is_rejected_and_checked_every_time(monkeypatch):
    """U = T/2 is below B's level T on the family (forged): rejected, also after the true one was accepted; a
    rejection is never remembered."""
    calls = _counting(monkeypatch)
    forged = dict(SAME_LEVEL, upper="T/2")
    assert acc.accepted(SAME_LEVEL)
    assert not acc.accepted(forged) and not acc.accepted(forged)
    assert len(calls) == 3
    # an edited number inside the family is another certificate too
    blocks = [{"count": "1", "value": "1/(T + 2)"}, {"count": "N - 1", "value": "T/(T + 1)"}]
    assert not acc.accepted(dict(SAME_LEVEL, tightness={"blocks": blocks}))


def test_a_certificate_that_is_not_plain_json_is_checked_every_time(monkeypatch):
    import sympy
    calls = _counting(monkeypatch)
    odd = dict(SAME_LEVEL, upper=sympy.Symbol("T"))
    acc.accepted(odd)
    acc.accepted(odd)
    assert len(calls) == 2 and not acc._ACCEPTED


def test_a_part_accepted_before_is_not_rechecked_and_a_forged_part_is(monkeypatch):
    """A composite certificate's part (``part_report``): one accepted before (as a whole) is one remembered step; a
    forged part (U = T/2, below B's level on the family) is checked and rejected, however often it comes; at other
    settings than the defaults nothing is read from the memo."""
    calls = _counting(monkeypatch)
    assert acc.accepted(SAME_LEVEL)
    rep = acc.part_report(dict(SAME_LEVEL), range(2, 13), 4000)
    assert rep.ok and len(calls) == 1 and rep.steps[0][0] == "accepted before in this process"
    forged = dict(SAME_LEVEL, upper="T/2")
    assert not acc.part_report(forged, range(2, 13), 4000).ok
    assert not acc.part_report(forged, range(2, 13), 4000).ok
    assert len(calls) == 3
    assert acc.part_report(SAME_LEVEL, range(2, 5), 4000).ok and len(calls) == 4


def test_a_composition_whose_part_is_forged_is_rejected_after_its_true_part_was_accepted(monkeypatch):
    """The composition lemma re-checks its parts through the memo: the true part accepted first changes nothing for
    a composition whose first part is forged."""
    from implgraph.certify.lemmas.composition import check
    _counting(monkeypatch)
    assert acc.accepted(SAME_LEVEL)
    forged = dict(SAME_LEVEL, upper="T/2", tight=False)
    cert = {"format": "implgraph-certificate/1", "method": "composition", "symbols": SAME_LEVEL["symbols"],
            "domain": SAME_LEVEL["domain"], "A": SAME_LEVEL["A"], "B": SAME_LEVEL["B"], "via": SAME_LEVEL["B"],
            "upper": "T/2", "tight": False, "parts": [forged, SAME_LEVEL], "tightness": None}
    rep = check(cert)
    assert not rep.ok
    assert ("part 1 (same-level) re-checked", False) in [(w, ok) for w, ok, _ in rep.steps]


def test_the_warm_pairs_share_no_node_and_take_each_node_of_a_full_matrix():
    nodes = [f"n{i}" for i in range(7)]
    pairs = [(a, b) for i, a in enumerate(nodes) for b in nodes[i + 1:]]
    warm = mm._warm_pairs(pairs)
    assert warm == [("n0", "n1"), ("n2", "n3"), ("n4", "n5")]      # n6 is left: 7 nodes, pairs of two
    assert mm._warm_pairs([("a", "x"), ("b", "x"), ("c", "x")]) == [("a", "x")]     # one row: one pair


def _fake(a, b, N, p, when):
    if a == "k-anonymity":
        time.sleep(30)
    if a == "dp":
        raise RuntimeError("broken")
    return [Cell(a, b, "implication", "proved", "implication", reason=str(os.getpid())),
            Cell(b, a, "non-implication", "refuted", "non-implication")]


def test_a_pair_decided_here_is_reported_as_a_worker_reports_it(monkeypatch):
    monkeypatch.setattr(mm, "decide_pair", _fake)
    cells, _ = mm._decide_here(("ldp", "mult-t-closeness"), 4, 2, 10, {})
    assert [c.relation for c in cells] == ["implication", "non-implication"]
    cells, _ = mm._decide_here(("dp", "ldp"), 4, 2, 10, {})
    assert cells[0].relation == "open" and cells[0].reason == "the check failed: RuntimeError: broken"
    start = time.monotonic()
    cells, secs = mm._decide_here(("k-anonymity", "ldp"), 4, 2, 0.5, {})
    assert time.monotonic() - start < 10 and secs > 0.5
    assert [c.verdict for c in cells] == ["timeout", "timeout"] and cells[0].reason == "unknown (timeout after 0.5 s)"


def test_two_jobs_decide_the_warm_pairs_here_and_the_rest_in_workers(monkeypatch):
    """Every pair answered once; the warm pairs (dp ? ldp, mult-t-closeness ? k-anonymity: no node shared) in the
    parent (a failure there open with the worker's reason), the others by the forked workers."""
    monkeypatch.setattr(mm, "decide_pair", _fake)
    pairs = [("dp", "ldp"), ("kdp(k=2)", "ldp"), ("mult-t-closeness", "k-anonymity"), ("basic-beta-likeness", "ldp")]
    results, seconds = mm._run_pairs(pairs, 4, 2, timeout=10, jobs=2, progress=False)
    assert set(results) == set(pairs) == set(seconds)
    assert results[("dp", "ldp")][0].reason == "the check failed: RuntimeError: broken"
    for key in pairs[1:]:
        assert [c.relation for c in results[key]] == ["implication", "non-implication"]
    here = {key for key in pairs[1:] if results[key][0].reason == str(os.getpid())}
    assert here == {("mult-t-closeness", "k-anonymity")}       # the other warm pair; the rest forked
