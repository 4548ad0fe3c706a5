"""``implgraph certificate --coq OUT``: the Coq files of proved claims and edges, with the library to check them.

:func:`plan` reads the command's rows (a claim or an edge each, with its certificates) into one Coq file per row:
a theorem per certificate the generator covers (:mod:`implgraph.kernel_coq.registry`), and the reason for each one
it does not. :func:`write` writes, into a new folder ``OUT``:

- ``lib/``: a copy of the Coq library's sources (``coq/``: ``theories/*.v``, ``_CoqProject``, its ``Makefile``);
- ``certificates/claimNN_<claim>.v``: one file per row, ending with ``Print Assumptions`` of all its theorems;
- ``Makefile``: ``make -C OUT`` builds the library, then runs ``coqc`` on every certificate file (Debian's ``coq``);
- ``coq.json``: per row, its file and theorems, and with ``check`` what ``coqc`` and the axiom audit said.

Everything is written to a temporary folder beside ``OUT`` and renamed at the end, so a bad input or an interrupted
run leaves nothing behind. With ``check`` and ``coqc`` on PATH the library is built and each file checked
(:func:`implgraph.kernel_coq.check.check_file`): a theorem counts as kernel-checked only when ``coqc`` accepted its
file and ``Print Assumptions`` listed only :data:`implgraph.kernel_coq.check.STANDARD_AXIOMS`.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile

from implgraph.core.errors import InputError

__all__ = ["find_library", "plan", "write", "coq_available"]

_SOURCES = ("_CoqProject", "Makefile", "README.md")

MAKEFILE = """# Check the certificates' Coq files against the library (Debian: apt-get install coq libcoq-interval).
COQC ?= coqc
FILES := $(sort $(wildcard certificates/*.v))

all: lib
\t@for f in $(FILES); do echo "coqc $$f"; $(COQC) -q -Q lib/theories Implgraph $$f || exit 1; done

lib:
\t$(MAKE) -C lib

.PHONY: all lib
"""


def coq_available() -> bool:
    """Whether ``coqc`` and ``coq_makefile`` (Debian's ``coq``) are on PATH."""
    return shutil.which("coqc") is not None and shutil.which("coq_makefile") is not None


def find_library(given=None) -> str:
    """The Coq library's folder (holding ``_CoqProject`` and ``theories/``): ``given``, else ``coq/`` beside the
    package (a source checkout), else the copy installed with the package (``implgraph/coq``, its package data),
    else ``coq/`` in the current folder. Raises :class:`InputError`."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    candidates = [given] if given else [os.path.join(os.path.dirname(package), "coq"), os.path.join(package, "coq"),
                                        os.path.join(os.getcwd(), "coq")]
    for c in candidates:
        if c and os.path.isfile(os.path.join(c, "_CoqProject")) and os.path.isdir(os.path.join(c, "theories")):
            return os.path.abspath(c)
    if given:
        raise InputError(f"--coq-lib {given}: no Coq library there (no _CoqProject and theories/)",
                         fix="give the repository's coq/ folder")
    raise InputError("the Coq library (coq/ of implgraph's repository, installed with the package as implgraph/coq) "
                     "is not found", fix="reinstall implgraph, run from a checkout of the repository or give "
                     "--coq-lib DIR")


def check_out(out) -> str:
    """``out`` as an absolute path that may be created: it must not exist (or be an empty folder) and its parent must
    be a folder. Raises :class:`InputError`."""
    path = os.path.abspath(out)
    if os.path.exists(path) and not (os.path.isdir(path) and not os.listdir(path)):
        raise InputError(f"--coq {out} exists and is not an empty folder",
                         fix="give a new folder (nothing is overwritten)")
    parent = os.path.dirname(path)
    if not os.path.isdir(parent):
        raise InputError(f"--coq {out}: its parent folder {parent} does not exist", fix="create it first")
    return path


def _slug(text) -> str:
    """A file name coqc accepts (a Coq identifier: letters, digits, underscores)."""
    return re.sub(r"[^A-Za-z0-9]+", "_", str(text)).strip("_")[:60]


def plan(rows) -> list:
    """``[{"id", "file", "text", "theorems": [{"name", "method", "generated", "reason"}]}]``: one Coq file per row
    with at least one certificate (rows without one are left out)."""
    from implgraph.kernel_coq.registry import Untranslatable, bundle, theorem
    out = []
    for i, row in enumerate(rows, 1):
        certs = row.get("certificates") or []
        if not certs:
            continue
        blocks, thms = [], []
        for j, cert in enumerate(certs, 1):
            name = f"c{j}"
            entry = {"name": name, "method": cert.get("method") if isinstance(cert, dict) else None}
            try:
                text, mods = theorem(cert, name)
            except (Untranslatable, KeyError, ValueError, TypeError, AttributeError) as exc:
                entry.update(generated=False, reason=f"{exc.__class__.__name__}: {exc}")
            else:
                comment = f"(* {row['id']}: certificate {j} [{entry['method']}] *)\n"
                blocks.append((name, text, mods, comment))
                entry.update(generated=True)
            thms.append(entry)
        fname = f"claim{i:02d}_{_slug(row['id'])}".rstrip("_") + ".v"
        out.append({"id": row["id"], "file": f"certificates/{fname}", "theorems": thms,
                    "text": bundle(blocks) if blocks else None})
    return out


def _copy_library(lib, dest):
    os.makedirs(os.path.join(dest, "theories"))
    for name in _SOURCES:
        if os.path.isfile(os.path.join(lib, name)):
            shutil.copy2(os.path.join(lib, name), os.path.join(dest, name))
    for name in sorted(os.listdir(os.path.join(lib, "theories"))):
        if name.endswith(".v"):
            shutil.copy2(os.path.join(lib, "theories", name), os.path.join(dest, "theories", name))


def _check(tmp, files):
    """Build the copied library, then ``coqc`` each file: fills each file's ``check``; returns the library's error
    (None when it built)."""
    from implgraph.kernel_coq.check import check_file
    build = subprocess.run(["make", "-C", os.path.join(tmp, "lib")], capture_output=True, text=True)
    if build.returncode:
        return (build.stdout + build.stderr).strip()[-2000:]
    lib = os.path.join(tmp, "lib", "theories")
    for f in files:
        if f["text"] is None:
            continue
        res = check_file(os.path.join(tmp, f["file"]), lib)
        f["check"] = {k: res[k] for k in ("ok", "audit_ok", "axioms", "cpu_seconds", "error")}
    return None


def write(out, rows, lib, check=False) -> dict:
    """Write the Coq files of ``rows`` into the new folder ``out`` (module notes); ``check``: run ``coqc`` (when it
    is on PATH). Returns ``{"folder", "files", "checked", "library_error", "failed"}`` (``failed``: the number of
    files ``coqc`` or the audit rejected)."""
    path = check_out(out)
    files = plan(rows)
    tmp = tempfile.mkdtemp(prefix=".coq-", dir=os.path.dirname(path))
    try:
        _copy_library(lib, os.path.join(tmp, "lib"))
        os.makedirs(os.path.join(tmp, "certificates"))
        with open(os.path.join(tmp, "Makefile"), "w") as fh:
            fh.write(MAKEFILE)
        for f in files:
            if f["text"] is not None:
                with open(os.path.join(tmp, f["file"]), "w") as fh:
                    fh.write(f["text"])
        checked = bool(check and coq_available())
        lib_error = _check(tmp, files) if checked else None
        failed = sum(1 for f in files if f["text"] is not None and checked
                     and not (f.get("check") or {}).get("audit_ok"))
        if lib_error:
            failed = max(failed, 1)
        summary = {"folder": path, "checked": checked, "library_error": lib_error, "failed": failed,
                   "files": [{k: v for k, v in f.items() if k != "text"} for f in files]}
        import json
        with open(os.path.join(tmp, "coq.json"), "w") as fh:
            json.dump(summary, fh, indent=1)
        if os.path.isdir(path):         # an empty folder the user made
            os.rmdir(path)
        os.replace(tmp, path)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return summary
