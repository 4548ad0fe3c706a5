"""Generate the Coq theorems of many certificates, check them with ``coqc`` and audit their axioms.

    python -m implgraph.kernel_coq.check CERTS.json OUT_DIR [--lib coq/theories] [--jobs 2] [--per-file 40]
        [--witnesses WITNESSES.json]

``CERTS.json`` is :mod:`implgraph.kernel_coq.harvest`'s list (``[{"sources", "certificate"}]``) or a plain list of
certificates; ``WITNESSES.json`` the witness tables of refutations (:mod:`implgraph.kernel_coq.witness`). Each
certificate the generator covers becomes a theorem ``cNNN`` (a witness ``wNNN``, a tightness proof ``tNNN``), and the
theorems are written many to a file (``OUT_DIR/bundle_NN.v``: the real numbers' library is loaded once per file);
``coqc`` checks each file against the compiled library (``make -C coq`` first) and every theorem's ``Print
Assumptions`` must list only the standard axioms of Coq's real numbers (:data:`STANDARD_AXIOMS`). Where a file fails,
the theorem at the error is marked failed and the ones after it are checked again in a new file, so every theorem gets
its own answer. ``OUT_DIR/summary.json`` holds, per theorem, its kind, method, whether it was generated (or why not),
whether coqc accepted it and the axioms it printed, and per file the CPU seconds of its ``coqc`` (user + system of
that process alone). Exit status 1 when a generated theorem fails to check or uses another axiom.
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

from implgraph.kernel_coq.registry import Untranslatable, bundle, generate, theorem

__all__ = ["STANDARD_AXIOMS", "audit_axioms", "check_file", "check_blocks", "run_coqc", "audit_library", "main",
           "sources_checked"]

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
_CLOSED = "Closed under the global context"


def audit_axioms(output: str):
    """``(axioms, closed)``: the names ``Print Assumptions`` listed, and whether it said the theorem is closed."""
    if _CLOSED in output:
        return [], True
    if "Axioms:" not in output:
        return None, False
    tail = output.split("Axioms:", 1)[1]
    return [m.group(1) for line in tail.splitlines() if (m := _AXIOM_LINE.match(line))], False


def run_coqc(cmd, cwd, timeout=1800):
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


def _coqc(path, lib, timeout=1800):
    return run_coqc(["coqc", "-q", "-Q", lib, "Implgraph", os.path.basename(path)], os.path.dirname(path), timeout)


def check_file(path, lib, timeout=1800):
    """``{"ok", "seconds", "cpu_seconds", "axioms", "closed", "audit_ok", "error"}`` of ``coqc`` on one file (one
    theorem)."""
    ok, out, secs, cpu = _coqc(path, lib, timeout)
    axioms, closed = audit_axioms(out) if ok else (None, False)
    audit_ok = ok and axioms is not None and set(axioms) <= STANDARD_AXIOMS
    return {"ok": ok, "seconds": round(secs, 3), "cpu_seconds": round(cpu, 3), "axioms": axioms, "closed": closed,
            "audit_ok": audit_ok, "error": None if ok else out.strip()[-2000:]}


_ERROR_LINE = re.compile(r'File "[^"]*", line (\d+)')


def check_blocks(blocks, out_dir, lib, stem, timeout=1800):
    """Check theorems ``blocks`` (``[(name, text, modules, comment)]``) in files ``out_dir/stem*.v``: ``(results,
    runs)``, ``results`` ``{name: {"ok", "axioms", "closed", "audit_ok", "error", "file"}}`` (the axioms are those of
    the file's theorems together: one ``Print Assumptions`` per file), ``runs`` the files checked with their CPU
    seconds. A file that fails marks the theorem at the error failed and checks the others again without it."""
    results, runs, todo, k = {}, [], list(blocks), 0
    while todo:
        path = os.path.join(out_dir, f"{stem}{'' if k == 0 else f'_retry{k}'}.v")
        text = bundle(todo)
        with open(path, "w") as fh:
            fh.write(text)
        starts, pos = [], 0         # the line where each theorem's text starts
        for name, body, _, comment in todo:
            i = text.index(comment + body, pos)
            starts.append(text.count("\n", 0, i) + 1)
            pos = i + 1
        ok, out, secs, cpu = _coqc(path, lib, timeout)
        runs.append({"file": os.path.basename(path), "theorems": len(todo), "ok": ok, "seconds": round(secs, 3),
                     "cpu_seconds": round(cpu, 3)})
        if ok:
            axioms, closed = audit_axioms(out)
            for name, *_ in todo:
                results[name] = {"ok": True, "axioms": axioms, "closed": closed, "file": os.path.basename(path),
                                 "audit_ok": axioms is not None and set(axioms) <= STANDARD_AXIOMS, "error": None}
            break
        m = _ERROR_LINE.search(out)
        bad_line = int(m.group(1)) if m else None
        idx = -1 if bad_line is None else max((i for i, start in enumerate(starts) if start <= bad_line), default=-1)
        if idx < 0:         # an error outside every theorem (the header, or no location): all fail
            for name, *_ in todo:
                results[name] = {"ok": False, "axioms": None, "closed": False, "audit_ok": False,
                                 "file": os.path.basename(path), "error": out.strip()[-2000:]}
            break
        results[todo[idx][0]] = {"ok": False, "axioms": None, "closed": False, "audit_ok": False,
                                 "file": os.path.basename(path), "error": out.strip()[-2000:]}
        todo = todo[:idx] + todo[idx + 1:]
        k += 1
    return results, runs


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


def certificate_blocks(items):
    """``(rows, blocks)`` of certificates: a row per certificate (its method, sources, and why it was not generated),
    a theorem block ``cNNN`` per one the generator covers."""
    rows, blocks = [], []
    for i, item in enumerate(items):
        cert = item["certificate"]
        name = f"c{i:03d}"
        row = {"kind": "certificate", "name": name, "index": i, "method": cert.get("method"),
               "sources": item.get("sources", [])}
        try:
            text, mods = theorem(cert, name)
        except (Untranslatable, KeyError, ValueError, TypeError) as exc:
            row.update(generated=False, reason=f"{exc.__class__.__name__}: {exc}")
            rows.append(row)
            continue
        comment = "(* " + "; ".join(item.get("sources", [])[:3]) + f" [{cert.get('method')}] *)\n"
        blocks.append((name, text, mods, comment))
        row.update(generated=True)
        rows.append(row)
    return rows, blocks


def _chunks(blocks, per_file):
    """Files of at most ``per_file`` theorems, each file's theorems needing the same library modules (a file of
    certificates does not load the witnesses' rationals)."""
    groups = {}
    for b in blocks:
        groups.setdefault(tuple(sorted(b[2])), []).append(b)
    return [g[i:i + per_file] for g in groups.values() for i in range(0, len(g), per_file)]


def check_all(rows, blocks, out_dir, lib, jobs=2, per_file=40):
    """Check ``blocks`` in files of ``per_file`` theorems on ``jobs`` processes; fills ``rows`` (by ``name``) with
    the answers; returns the runs (files and CPU seconds)."""
    chunks = _chunks(blocks, per_file)
    by_name = {r["name"]: r for r in rows}
    runs = []
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = [pool.submit(check_blocks, chunk, out_dir, lib, f"bundle_{k:02d}") for k, chunk in enumerate(chunks)]
        for fut in futures:
            results, r = fut.result()
            runs += r
            for name, res in results.items():
                by_name[name].update(res)
    return runs


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("certs")
    p.add_argument("out")
    p.add_argument("--lib", default=os.path.join(os.getcwd(), "coq", "theories"))
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--per-file", type=int, default=40, help="theorems per generated file")
    p.add_argument("--witnesses", default=None, help="witness tables (implgraph.kernel_coq.witness's JSON)")
    p.add_argument("--no-tightness", action="store_true", help="do not state the tightness families' theorems")
    p.add_argument("--audit", default=None, help="the library's audit file (default: coq/audit/Library.v beside --lib)")
    p.add_argument("--require-all", action="store_true",
                   help="fail (exit 1) also when a certificate has no Coq theorem (every source must be kernel-checked)")
    args = p.parse_args(argv)
    lib = os.path.abspath(args.lib)
    audit = args.audit or os.path.join(os.path.dirname(lib), "audit", "Library.v")
    lib_ok = True
    if os.path.exists(audit):
        lib_ok, names = audit_library(lib, audit)
        print(f"library audit ({os.path.basename(audit)}): {'ok' if lib_ok else 'FAILED'}; axioms: {names}")
    os.makedirs(args.out, exist_ok=True)
    items = _items(args.certs)
    rows, blocks = certificate_blocks(items)
    if not args.no_tightness:
        from implgraph.kernel_coq.tightness import tightness_blocks
        trows, tblocks = tightness_blocks(items)
        rows += trows
        blocks += tblocks
    if args.witnesses:
        from implgraph.kernel_coq.witness import witness_blocks
        with open(args.witnesses) as fh:
            wrows, wblocks = witness_blocks(json.load(fh))
        rows += wrows
        blocks += wblocks
    runs = check_all(rows, blocks, os.path.abspath(args.out), lib, args.jobs, args.per_file)
    fd, tmp = tempfile.mkstemp(dir=args.out)
    with os.fdopen(fd, "w") as fh:
        json.dump({"theorems": rows, "files": runs}, fh, indent=1)
    os.replace(tmp, os.path.join(args.out, "summary.json"))
    print(report(rows, runs))
    bad = [r for r in rows if r.get("generated") and not (r.get("ok") and r.get("audit_ok"))]
    missing = [r for r in rows if r["kind"] == "certificate" and not r.get("generated")] if args.require_all else []
    for r in missing:
        print(f"not kernel-checked (no Coq theorem): {r.get('method')} from {', '.join(r.get('sources') or [])}")
    return 0 if lib_ok and not bad and not missing else 1


def report(rows, runs) -> str:
    """The summary lines: per kind and method, checked / generated / total; the CPU seconds."""
    lines = []
    by = collections.defaultdict(lambda: [0, 0, 0])
    for r in rows:
        key = (r["kind"], r.get("method") or "")
        by[key][2] += 1
        if r.get("generated"):
            by[key][1] += 1
            if r.get("ok") and r.get("audit_ok"):
                by[key][0] += 1
    for (kind, method), (ok, gen, total) in sorted(by.items()):
        lines.append(f"{kind:<12} {method:<30} {ok:>4} checked / {gen:>4} generated / {total:>4}")
    cpu = sum(r["cpu_seconds"] for r in runs)
    gen = [r for r in rows if r.get("generated")]
    good = [r for r in gen if r.get("ok") and r.get("audit_ok")]
    lines.append(f"{len(rows)} theorems; {len(gen)} generated; {len(good)} checked by coqc with the axiom audit; "
                 f"{len(runs)} coqc runs, CPU {cpu:.1f} s in all")
    lines += [f"{where}: {ok} of {total} kernel-checked (every certificate of each checked)"
              for where, (ok, total) in sources_checked(rows).items()]
    return "\n".join(lines)


def sources_checked(rows) -> dict:
    """Per place a certificate came from (``verify``, ``matrix.json``, ``matrix-symbols.json``, ``bench``: the text
    before a source's first colon), ``(kernel-checked, total)``: a source (a claim, a matrix entry) counts as
    kernel-checked only when every certificate it carries was generated, accepted by coqc and passed the audit."""
    per = collections.defaultdict(list)
    for r in rows:
        if r["kind"] != "certificate":
            continue
        good = bool(r.get("generated") and r.get("ok") and r.get("audit_ok"))
        for src in r.get("sources") or []:
            per[src].append(good)
    out = collections.defaultdict(lambda: [0, 0])
    for src, goods in per.items():
        where = src.split(":", 1)[0]
        out[where][1] += 1
        out[where][0] += all(goods)
    return {k: tuple(v) for k, v in sorted(out.items())}


if __name__ == "__main__":
    sys.exit(main())
