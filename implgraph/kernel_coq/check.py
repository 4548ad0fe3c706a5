"""Generate a Coq file for each certificate, check each with ``coqc`` and audit its axioms.

    python -m implgraph.kernel_coq.check CERTS.json OUT_DIR [--lib coq/theories] [--jobs 2]

``CERTS.json`` is :mod:`implgraph.kernel_coq.harvest`'s list (``[{"sources", "certificate"}]``) or a plain list of
certificates. Each certificate the generator covers becomes ``OUT_DIR/cert_NNN.v``; ``coqc`` checks it against the
compiled library (``make -C coq`` first) and its ``Print Assumptions`` must list only the standard axioms of Coq's
real numbers (:data:`STANDARD_AXIOMS`). ``OUT_DIR/summary.json`` holds, per certificate, its method, whether it was
generated (or why not), whether coqc accepted it, the seconds coqc took and the axioms it printed. Exit status 1
when a generated file fails to check or uses another axiom.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

from implgraph.kernel_coq.generate import Untranslatable, generate

__all__ = ["STANDARD_AXIOMS", "audit_axioms", "check_file", "main"]

#: the axioms the standard library's real numbers rest on in Coq 8.16 (Reals over ClassicalDedekindReals; the
#: standard library's ``ln`` adds excluded middle: ``Print Assumptions ln``)
STANDARD_AXIOMS = frozenset({
    "ClassicalDedekindReals.sig_forall_dec",
    "ClassicalDedekindReals.sig_not_dec",
    "FunctionalExtensionality.functional_extensionality_dep",
    "Classical_Prop.classic",
})

#: a line of Print Assumptions naming an axiom: at column 0 (its type follows on the line, after " :", or on the next,
#: indented, lines)
_AXIOM_LINE = re.compile(r"^([A-Za-z_][\w.']*)(?:\s+:.*)?$")


def audit_axioms(output: str):
    """``(axioms, closed)``: the names ``Print Assumptions`` listed, and whether it said the theorem is closed."""
    if "Closed under the global context" in output:
        return [], True
    if "Axioms:" not in output:
        return None, False
    tail = output.split("Axioms:", 1)[1]
    return [m.group(1) for line in tail.splitlines() if (m := _AXIOM_LINE.match(line))], False


def run_coqc(cmd, cwd, timeout=600):
    """``(ok, output, wall seconds, CPU seconds)`` of one coqc run (CPU: user + system of that process alone, read
    with ``os.wait4``, so that other load on the machine does not count)."""
    with tempfile.TemporaryFile() as log:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=log, stderr=subprocess.STDOUT)
        deadline = t0 + timeout
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline:
                proc.kill()
                pid, status, usage = os.wait4(proc.pid, 0)
                status = -1
                break
            time.sleep(0.02)
        proc.returncode = 0 if status == 0 else 1
        secs = time.perf_counter() - t0
        log.seek(0)
        out = log.read().decode(errors="replace")
    if status == -1:
        out += f"\ncoqc timeout after {timeout} s"
    return status == 0, out, secs, usage.ru_utime + usage.ru_stime


def check_file(path, lib, timeout=600):
    """``{"ok", "seconds", "axioms", "audit_ok", "error"}`` of ``coqc`` on one file."""
    ok, out, secs, cpu = run_coqc(["coqc", "-q", "-Q", lib, "Implgraph", os.path.basename(path)],
                                  os.path.dirname(path), timeout)
    axioms, closed = audit_axioms(out) if ok else (None, False)
    audit_ok = ok and axioms is not None and set(axioms) <= STANDARD_AXIOMS
    return {"ok": ok, "seconds": round(secs, 3), "cpu_seconds": round(cpu, 3), "axioms": axioms, "closed": closed,
            "audit_ok": audit_ok,
            "error": None if ok else out.strip()[-2000:]}


def audit_library(lib, audit_file):
    """``(ok, axioms)``: ``Print Assumptions`` of every lemma named in ``audit_file`` (coq/audit/Library.v) lists only
    :data:`STANDARD_AXIOMS` (each block is read; any other name, an Admitted lemma among them, fails)."""
    ok, out, _, _ = run_coqc(["coqc", "-q", "-Q", lib, "Implgraph", os.path.basename(audit_file)],
                             os.path.dirname(os.path.abspath(audit_file)))
    if not ok:
        return False, None
    names = sorted({m.group(1) for block in out.split("Axioms:")[1:] for line in block.splitlines()
                    if (m := _AXIOM_LINE.match(line)) and m.group(1) != "Closed"})
    return set(names) <= STANDARD_AXIOMS, names


def _items(path):
    with open(path) as fh:
        data = json.load(fh)
    return [d if "certificate" in d else {"sources": [], "certificate": d} for d in data]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("certs")
    p.add_argument("out")
    p.add_argument("--lib", default=os.path.join(os.getcwd(), "coq", "theories"))
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--audit", default=None, help="the library's audit file (default: coq/audit/Library.v beside --lib)")
    args = p.parse_args(argv)
    lib = os.path.abspath(args.lib)
    audit = args.audit or os.path.join(os.path.dirname(lib), "audit", "Library.v")
    lib_ok = True
    if os.path.exists(audit):
        lib_ok, names = audit_library(lib, audit)
        print(f"library audit ({os.path.basename(audit)}): {'ok' if lib_ok else 'FAILED'}; axioms: {names}")
    os.makedirs(args.out, exist_ok=True)
    rows, todo = [], []
    for i, item in enumerate(_items(args.certs)):
        cert = item["certificate"]
        row = {"index": i, "method": cert.get("method"), "sources": item.get("sources", [])}
        try:
            text = generate(cert, item.get("sources", []))
        except (Untranslatable, KeyError, ValueError) as exc:
            row.update(generated=False, reason=f"{exc.__class__.__name__}: {exc}")
            rows.append(row)
            continue
        path = os.path.abspath(os.path.join(args.out, f"cert_{i:03d}.v"))
        with open(path, "w") as fh:
            fh.write(text)
        row.update(generated=True, file=os.path.basename(path))
        rows.append(row)
        todo.append((row, path))
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for row, res in zip([r for r, _ in todo], pool.map(lambda rp: check_file(rp[1], lib), todo)):
            row.update(res)
    fd, tmp = tempfile.mkstemp(dir=args.out)
    with os.fdopen(fd, "w") as fh:
        json.dump(rows, fh, indent=1)
    os.replace(tmp, os.path.join(args.out, "summary.json"))
    gen = [r for r in rows if r.get("generated")]
    ok = [r for r in gen if r.get("ok")]
    audited = [r for r in ok if r.get("audit_ok")]
    by = collections.Counter((r["method"], "ok" if r.get("ok") else ("failed" if r.get("generated") else "not covered"))
                             for r in rows)
    for (m, st), n in sorted(by.items()):
        print(f"{m:<30} {st:<12} {n}")
    cpu = sum(r["cpu_seconds"] for r in gen)
    print(f"{len(rows)} certificates; {len(gen)} generated; {len(ok)} checked by coqc; {len(audited)} pass the axiom "
          f"audit; coqc CPU {cpu:.1f} s in all" + (f", {cpu / len(gen):.2f} s per file, slowest "
                                                     f"{max(r['cpu_seconds'] for r in gen):.2f} s" if gen else ""))
    return 0 if lib_ok and len(audited) == len(gen) else 1


if __name__ == "__main__":
    sys.exit(main())
