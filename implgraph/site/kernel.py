"""The explorer's Coq files: each proved pair's certificates as one Coq file (:mod:`implgraph.kernel_coq`), written
beside the pair's page and linked from it; with ``kernel_check``, every file checked by ``coqc`` against the Coq
library (built afresh in a temporary folder) and its ``Print Assumptions`` audited.

A pair is **kernel-checked** only when every one of its certificates became a theorem, ``coqc`` accepted the file
and its axioms are the standard ones of Coq's real numbers; a pair whose file was not checked in this build is said
so, never marked.
"""

from __future__ import annotations

import os
import shutil
import tempfile

from implgraph.core.errors import InputError

__all__ = ["coq_files", "status", "coq_file"]


def coq_file(edge_page: str) -> str:
    """The Coq file beside a pair's page (``edges/a--b.html`` -> ``edges/a--b.v``)."""
    return edge_page[: -len(".html")] + ".v"


def _check(files, lib):
    """``coqc`` on every file of ``files`` (:func:`implgraph.kernel_coq.export.plan`'s): fills each one's ``check``."""
    from implgraph.kernel_coq import export
    tmp = tempfile.mkdtemp(prefix="implgraph-coq-")
    try:
        export._copy_library(lib, os.path.join(tmp, "lib"))
        os.makedirs(os.path.join(tmp, "certificates"))
        for f in files:
            if f["text"] is not None:
                with open(os.path.join(tmp, f["file"]), "w") as fh:
                    fh.write(f["text"])
        error = export._check(tmp, files)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if error:
        raise InputError(f"--kernel-check: the Coq library did not build: {error.splitlines()[-1][:200]}",
                         fix="check the Coq installation (Debian: apt-get install coq libcoq-interval)")


def status(entry) -> str:
    """``kernel-checked``, ``rejected`` (coqc or the audit refused the file), ``partial`` (a certificate without a
    Coq theorem) or ``not-checked`` (the file was not checked in this build)."""
    if not entry or entry.get("text") is None or not all(t["generated"] for t in entry["theorems"]):
        return "partial"
    check = entry.get("check")
    if check is None:
        return "not-checked"
    return "kernel-checked" if check.get("audit_ok") else "rejected"


def coq_files(certs, kernel_check=False, lib=None) -> dict:
    """``{(a, b): {"text", "theorems", "check", "status"}}`` for the pairs of ``certs`` (:func:`implgraph.site.model
    .certificates`); ``kernel_check``: run ``coqc`` (it must be on PATH, else :class:`InputError`)."""
    from implgraph.kernel_coq import export
    if kernel_check and not export.coq_available():
        raise InputError("--kernel-check: coqc is not on PATH",
                         fix="install Debian's coq (apt-get install coq libcoq-interval) or leave out --kernel-check")
    keys = [k for k, cs in certs.items() if cs]
    files = export.plan([{"id": f"{a} => {b}", "certificates": certs[a, b]} for a, b in keys])
    if kernel_check and files:
        _check(files, export.find_library(lib))
    out = {}
    for key, f in zip(keys, files):
        entry = {"text": f["text"], "theorems": f["theorems"], "check": f.get("check")}
        entry["status"] = status(entry)
        out[key] = entry
    return out
