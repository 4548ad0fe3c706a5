"""The explorer's Coq files (:mod:`implgraph.site.kernel`): each proved pair's certificates as a Coq file beside its
page and linked from it; a pair is marked kernel-checked only when ``implgraph site --kernel-check`` had coqc accept
its file with a clean axiom audit.

The matrix is one cell written by hand (ldp => kt-closeness(k=1), proved); its certificate is the vertex certificate
of tests/_coq.py (the prover's for that edge), given to the site without a prover run; a forgery of it (U lowered to
T/2, false at T = 1: a subset of one record against the table is then at most 1/2 of the mean, on a table of equal
records 1 <= 1/2 fails) must not be marked.
"""

from __future__ import annotations

import copy
import json

import pytest

from implgraph.site import model
from implgraph.site.build import build_site
from implgraph.site.html import edge_file
from implgraph.site.kernel import coq_file, status

from _coq import VERTEX, coq

A, B = "ldp", "kt-closeness(k=1)"
CELL = {"a": A, "b": B, "relation": "implication", "verdict": "proved", "kind": "generalisation",
        "tight": "log((N + exp(eps) - 1)/N)", "tight_at": "every N", "tight_upto": None, "tight_in_N": None,
        "proved_every_n": True, "bound": "every N", "trivial": False, "equivalent": False, "witness": None,
        "reason": ""}
FORGED = {**copy.deepcopy(VERTEX), "upper": "T/2"}


def _build(tmp_path, monkeypatch, cert, kernel_check=False):
    matrix = tmp_path / "matrix.json"
    matrix.write_text(json.dumps({"settings": {}, "nodes": [A, B], "counts": {}, "cells": [CELL]}))
    verdicts = tmp_path / "verify.json"
    verdicts.write_text(json.dumps({"claims": []}))
    monkeypatch.setattr(model, "certificates", lambda cells: {(A, B): [cert]})
    out = tmp_path / "site"
    build_site(out, matrix=matrix, verdicts=verdicts, tables=[], groups_n=None, kernel_check=kernel_check)
    page = (out / edge_file(A, B)).read_text(encoding="utf-8")
    return out, page, (out / "matrix.html").read_text(encoding="utf-8")


def test_coq_file_written_and_linked_not_marked_unchecked(tmp_path, monkeypatch):
    out, page, matrix = _build(tmp_path, monkeypatch, VERTEX)
    v = out / coq_file(edge_file(A, B))
    text = v.read_text()
    # the certificate's theorem, its lemma and the axiom audit's command
    assert "Theorem c1 :" in text and "vertex_subset" in text and "Print Assumptions" in text
    assert f'<a href="{v.name}">The Coq file</a>' in page
    assert "was not checked when this site was built" in page and "kernel-checked</span>" not in page
    assert "kernel-checked by Coq" not in matrix and "cell proved kernel" not in matrix


def test_status_of_an_entry():
    gen = {"name": "c1", "generated": True}
    assert status({"text": "x", "theorems": [gen], "check": {"audit_ok": True}}) == "kernel-checked"
    assert status({"text": "x", "theorems": [gen], "check": {"audit_ok": False}}) == "rejected"
    assert status({"text": "x", "theorems": [gen], "check": None}) == "not-checked"
    # a certificate without a Coq theorem: never marked, whatever coqc said of the others
    assert status({"text": "x", "theorems": [gen, {"name": "c2", "generated": False}],
                   "check": {"audit_ok": True}}) == "partial"


def test_kernel_check_without_coqc_is_refused(tmp_path, monkeypatch, capsys):
    from implgraph.cli import main
    from implgraph.kernel_coq import export
    monkeypatch.setattr(export, "coq_available", lambda: False)
    monkeypatch.setattr(model, "certificates", lambda cells: {(A, B): [VERTEX]})
    matrix = tmp_path / "matrix.json"
    matrix.write_text(json.dumps({"settings": {}, "nodes": [A, B], "counts": {}, "cells": [CELL]}))
    (tmp_path / "v.json").write_text(json.dumps({"claims": []}))
    code = main(["site", "--out", str(tmp_path / "s"), "--matrix", str(matrix), "--verdicts", str(tmp_path / "v.json"),
                 "--no-levels", "--groups-n", "0", "--kernel-check"])
    err = capsys.readouterr().err
    assert code == 2 and "--kernel-check: coqc is not on PATH" in err and "Traceback" not in err
    assert not (tmp_path / "s").exists()


@pytest.mark.slow
@coq
def test_kernel_checked_pair_is_marked(tmp_path, monkeypatch):
    _, page, matrix = _build(tmp_path, monkeypatch, VERTEX, kernel_check=True)
    assert '<span class="kernel">kernel-checked</span>' in page and "ClassicalDedekindReals.sig_forall_dec" in page
    assert "cell proved kernel" in matrix and "kernel-checked by Coq (1 pairs)" in matrix


@pytest.mark.slow
@coq
def test_forged_certificate_is_not_marked(tmp_path, monkeypatch):
    _, page, matrix = _build(tmp_path, monkeypatch, FORGED, kernel_check=True)
    assert "not kernel-checked: coqc or the axiom audit rejected" in page
    assert "cell proved kernel" not in matrix
