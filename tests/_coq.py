"""Shared by the Coq tests: the skip mark without Debian's Coq, a real certificate, the library built once, a
certificate's generated file checked by coqc."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess

import pytest

from implgraph.kernel_coq.check import check_file
from implgraph.kernel_coq.export import coq_available
from implgraph.kernel_coq.registry import generate

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

coq = pytest.mark.skipif(not coq_available(), reason="Coq (Debian's coq package) is not installed")

#: ldp => kt-closeness(k=1) by the vertex argument, as the prover certifies it
VERTEX = {
    "format": "implgraph-certificate/1", "method": "vertex", "symbols": {"N": "integer", "T": "real"},
    "domain": ["T > 0", "N >= 2", "T >= 1", "N >= 2", "1 <= N - 1"],
    "A": {"definition": "ldp", "params": {}, "family": "pairwise", "sides": "two-sided"},
    "B": {"definition": "kt-closeness", "params": {"k": "1"}, "family": "subset", "sides": "two-sided", "size": "1"},
    "upper": "(T*(N - 1) + 1)/N", "tight": False,
    "upper_certificate": {"lemma": "linear-fractional-vertex", "multipliers": {
        "mean_S/mean_D": {"m-u>=0": "N*T**2 - N*T - T**2 + 2*T - 1", "j-u>=0": "N**2*T - N**2 - N*T + N",
                          "u>=0": "N*T**2 - 2*N*T + N - T**2 + 2*T - 1"},
        "mean_D/mean_S": {"u>=0": "N**2*T**2 - N**2*T - N*T**2 + N*T", "N-j-(m-u)>=0": "N*T - N"}}},
}


def build_library(tmp_path_factory) -> str:
    """The Coq library (``coq/``) built afresh in a copy of its sources; its ``theories`` folder."""
    where = tmp_path_factory.mktemp("coq")
    shutil.copytree(os.path.join(ROOT, "coq"), where / "coq",
                    ignore=shutil.ignore_patterns("*.vo", "*.vok", "*.vos", "*.glob", ".*.aux", "Makefile.coq*"))
    subprocess.run(["make", "-C", str(where / "coq")], check=True, capture_output=True)
    return str(where / "coq" / "theories")


def check_generated(cert, library, tmp_path, name) -> dict:
    """``cert``'s Coq file (:func:`implgraph.kernel_coq.registry.generate`) checked by coqc against ``library``."""
    path = tmp_path / f"{re.sub(r'[^A-Za-z0-9]', '_', name)}.v"
    path.write_text(generate(cert))
    return check_file(str(path), library)


def assert_kernel_checked(cert, library, tmp_path, name) -> None:
    """``cert``'s Coq file checks, and its theorem's Print Assumptions lists only Coq's standard real-number axioms."""
    from implgraph.kernel_coq.check import STANDARD_AXIOMS
    res = check_generated(cert, library, tmp_path, name)
    assert res["ok"], res["error"]
    assert res["audit_ok"] and set(res["axioms"]) <= STANDARD_AXIOMS


def failing_step(cert, library, tmp_path, name, value_line=None):
    """coqc on ``cert``'s file: None where it checks, else the step at the error: ``"value"`` where the error's line
    holds ``value_line`` (e.g. ``"apply Req_le"``, a chord's identity), else the name of the nearest line
    ``assert (NAME :`` at or above the error's line (``"?"`` where there is none)."""
    from implgraph.kernel_coq.check import run_coqc
    text = generate(cert)
    path = tmp_path / f"{re.sub(r'[^A-Za-z0-9]', '_', name)}.v"
    path.write_text(text)
    ok, out, _, _ = run_coqc(["coqc", "-q", "-Q", library, "Implgraph", path.name], str(tmp_path))
    if ok:
        return None
    line = int(re.search(r'File "[^"]*", line (\d+)', out).group(1))
    lines = text.splitlines()
    if value_line is not None and value_line in lines[line - 1]:
        return "value"
    for ln in reversed(lines[:line]):
        m = re.match(r"\s*assert \((\w+) :", ln)
        if m:
            return m.group(1)
    return "?"


def kernel_accepts(cert, library, tmp_path, name) -> bool:
    """Does coqc accept ``cert``'s Coq file? False too where the generator refuses the certificate (Untranslatable):
    a certificate it cannot state is not kernel-checked either."""
    from implgraph.kernel_coq.coqexpr import Untranslatable
    try:
        return check_generated(cert, library, tmp_path, name)["ok"]
    except Untranslatable:
        return False


def load_certs(filename) -> dict:
    """The test certificates of ``tests/data/coq/FILENAME`` (JSON, by name)."""
    with open(os.path.join(ROOT, "tests", "data", "coq", filename)) as fh:
        return json.load(fh)
