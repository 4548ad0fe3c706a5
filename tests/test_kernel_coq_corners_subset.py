"""The Coq generator of the ``subset-corners`` certificates (``CornersSubset.v``): a two-sided subset level of size j
bounds the hockey stick of order 2 between every two records (stated as its slack on every event) by
max(hi - 2 lo, 0) min(1 - lo, hi - 1)/(hi - lo) on one record's ratio range [lo, hi].

The prover's certificates of dp, kdp(2), kt-closeness(2), and of the symbols matrix's kdp(k2), kt-closeness(k1) =>
delta-ldp(eps=log(2)) (``tests/data/coq/corners_subset.json``; the numbers' values at points are worked by hand in
tests/test_corners_subset.py, and dp's at N = 4, T = 6/5 is attained by a table, so a smaller U is a false claim) check with coqc and a clean axiom audit. A forged
certificate (an edited U, end, size, order or domain) gives a file the generator writes and coqc rejects at the step
the edit concerns: the failing step is named beside each forgery (``value``: the last step, ``box_close``, the
library's bound against U).

The coqc tests are slow and skip where Debian's ``coq`` is not installed.
"""

from __future__ import annotations

import pytest

from _forge import edited

from implgraph.kernel_coq.coqexpr import Untranslatable
from implgraph.kernel_coq.registry import COVERED, generate

from _coq import assert_kernel_checked, coq, failing_step, load_certs

CERTS = load_certs("corners_subset.json")
DP, KDP, KT = ("dp => delta-ldp(eps=log(2))", "kdp(k=2) => delta-ldp(eps=log(2))",
               "kt-closeness(k=2) => delta-ldp(eps=log(2))")


def _edit(name, path, fn):
    node = CERTS[name]
    for key in path:
        node = node[key]
    out = edited(CERTS[name], path, fn(node))
    assert out != CERTS[name]
    return out


FORGERIES = [
    # gamma 3 in U against B's order 2: a smaller U, which the library's bound does not meet
    ("gamma in U", _edit(DP, ["upper"], lambda u: u.replace("-2*Max", "-3*Max")), "value"),
    # B of order 3 (eps = log(3)) with U's 2: the bound of order 3 is not U's
    ("B's order", _edit(DP, ["B", "params"], lambda p: {"eps": "log(3)"}), "value"),
    # the certificate's hi with its second end (N T - N - 2 T)/(N - 2) in place of (2 N T - N - 2 T)/(N - 2): below
    # the library's end, so not an upper end of a record's ratio
    ("hi", _edit(KT, ["upper_certificate", "hi"], lambda h: h.replace("2*N*T", "N*T")), "Hchi"),
    # the size N - 2 for dp's N - 1
    ("size", _edit(DP, ["upper_certificate", "size"], lambda s: "N - 2"), "Hj"),
    # the domain without T >= 1: the clause T <= 1 no longer gives T = 1
    ("domain", _edit(DP, ["domain"], lambda d: ["T > 0", "N >= 2"]), "E1"),
]


def test_subset_corners_states_the_slack_on_every_event():
    assert "subset-corners" in COVERED
    text = generate(CERTS[DP])
    assert "subset_le TwoSided N K x (((INR N) - 1)) (T) ->" in text
    assert "slack_pairs_le N K x" in text and "div_pairs_le" not in text
    assert "corners_subset_hockey (2)" in text and "corners_subset_one (2)" in text
    assert "Require Import CornersSubset" in text


@pytest.mark.parametrize("path,value", [(["A", "family"], "pairwise"), (["A", "sides"], "one-sided")])
def test_subset_corners_refuses_another_a(path, value):
    with pytest.raises(Untranslatable):
        generate(edited(CERTS[KT], path, value))


def test_subset_corners_refuses_another_b():
    with pytest.raises(Untranslatable):
        generate(edited(CERTS[KT], ["B"], {"definition": "tv-ldp", "params": {}, "family": None, "sides": None}))


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name", sorted(CERTS))
def test_subset_corners_certificates_check(name, library, tmp_path):
    assert_kernel_checked(CERTS[name], library, tmp_path, name)


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name,cert,step", FORGERIES, ids=[n for n, _, _ in FORGERIES])
def test_forged_subset_corners_certificates_fail_at_their_step(name, cert, step, library, tmp_path):
    failed = failing_step(cert, library, tmp_path, name, value_line="box_close")
    assert failed is not None and failed.startswith(step), failed
