"""CPU seconds to kernel-check every certificate and witness with Coq (target: at most 10 minutes of CPU).

    python benchmarks/bench_coq.py [--certs CERTS.json] [--witnesses WITNESSES.json] [--jobs 2] [--per-file 40]
        [--out DIR] [--no-tightness]

Builds the Coq library (``coq/``) in a fresh copy, then generates a theorem for each certificate (``--certs``: a
harvest of :mod:`implgraph.kernel_coq.harvest`; harvested here when not given: ``implgraph verify``, the pair
matrices, bench_prover's pairs), each witness table of the matrices (``--witnesses``: :mod:`implgraph.kernel_coq.witness`;
harvested when not given) and each tightness family :mod:`implgraph.kernel_coq.tightness` states, and checks them
with ``coqc`` many to a file on ``--jobs`` processes (:mod:`implgraph.kernel_coq.check`). Every time is CPU
seconds (user + system) of the processes themselves, read with ``os.wait4``/``getrusage``: other load on the machine
does not count; the wall seconds are printed beside. Needs Debian's ``coq`` (with ``libcoq-flocq``); prints and exits
0 without it. Asserts only that every generated theorem checks with the axiom audit.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

TARGET_CPU = 600.0


def _children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def build_library(where):
    """``(theories path, CPU seconds, wall seconds)`` of ``make`` on a fresh copy of ``coq/``."""
    shutil.copytree(os.path.join(ROOT, "coq"), os.path.join(where, "coq"),
                    ignore=shutil.ignore_patterns("*.vo", "*.vok", "*.vos", "*.glob", ".*.aux", "Makefile.coq*"))
    c0, t0 = _children_cpu(), time.perf_counter()
    subprocess.run(["make", "-C", os.path.join(where, "coq")], check=True, capture_output=True)
    return os.path.join(where, "coq", "theories"), _children_cpu() - c0, time.perf_counter() - t0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--certs", default=None)
    p.add_argument("--witnesses", default=None)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--per-file", type=int, default=40)
    p.add_argument("--out", default=None, help="keep the generated files there")
    p.add_argument("--no-tightness", action="store_true")
    args = p.parse_args(argv)
    if shutil.which("coqc") is None or shutil.which("coq_makefile") is None:
        print("bench_coq: Coq is not installed (Debian: apt-get install coq libcoq-flocq); nothing measured")
        return 0
    from implgraph.kernel_coq import check, harvest, witness
    work = tempfile.mkdtemp(prefix="bench-coq-")
    out = args.out or os.path.join(work, "out")
    os.makedirs(out, exist_ok=True)
    lib, lib_cpu, lib_wall = build_library(work)
    print(f"== library (coq/theories): CPU {lib_cpu:.1f} s (wall {lib_wall:.1f} s)")
    t = time.perf_counter()
    if args.certs:
        with open(args.certs) as fh:
            items = json.load(fh)
    else:
        items = harvest.harvest(ROOT)
    items = [d if "certificate" in d else {"sources": [], "certificate": d} for d in items]
    if args.witnesses:
        with open(args.witnesses) as fh:
            wits = json.load(fh)
    else:
        wits = witness.harvest(ROOT)
    print(f"== inputs: {len(items)} certificates, {len(wits)} witness tables (read in {time.perf_counter() - t:.1f} s)")
    t = time.perf_counter()
    rows, blocks = check.certificate_blocks(items)
    if not args.no_tightness:
        from implgraph.kernel_coq.tightness import tightness_blocks
        trows, tblocks = tightness_blocks(items)
        rows += trows
        blocks += tblocks
    wrows, wblocks = witness.witness_blocks(wits)
    rows += wrows
    blocks += wblocks
    gen_s = time.perf_counter() - t
    t = time.perf_counter()
    runs = check.check_all(rows, blocks, out, lib, args.jobs, args.per_file)
    wall = time.perf_counter() - t
    print(check.report(rows, runs))
    cpu = sum(r["cpu_seconds"] for r in runs)
    print(f"== generation (Python): {gen_s:.1f} s wall")
    print(f"== coqc: CPU {cpu:.1f} s in {len(runs)} runs on {args.jobs} processes (wall {wall:.1f} s); with the "
          f"library {cpu + lib_cpu:.1f} s; target <= {TARGET_CPU:.0f} s: {'met' if cpu + lib_cpu <= TARGET_CPU else 'NOT met'}")
    with open(os.path.join(out, "summary.json"), "w") as fh:
        json.dump({"theorems": rows, "files": runs, "library_cpu": lib_cpu}, fh, indent=1)
    bad = [r["name"] for r in rows if r.get("generated") and not (r.get("ok") and r.get("audit_ok"))]
    assert not bad, f"theorems that do not check: {bad}"
    return 0


if __name__ == "__main__":
    sys.exit(main())
