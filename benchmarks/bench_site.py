"""Benchmark: CPU seconds of `implgraph site` cold, with the bundled data; prints figures, asserts nothing.

Target: ``implgraph site --out DIR`` (the published pair matrix shipped in the package, the claims' verdicts,
levels on the bundled tables and certificates computed) at most 30 s of CPU, cold: a fresh cache folder
(``IMPLGRAPH_CACHE_DIR``) for every run, the package's bytecode written first (as ``pip install`` does).

Every time is CPU seconds (user + system) of the command and of the processes it starts (the verdicts are
computed in a second process), read with ``getrusage(RUSAGE_CHILDREN)``, so other load on the machine counts
little; the wall seconds and the load average are printed beside.  ``--phases`` adds the CPU seconds of each
part of the build, run in this process (cold too): the verdicts, the certificates, the levels on the tables, the
k-expanded map, the Hasse diagram and the pages by kind.

Run: python benchmarks/bench_site.py [--repeat N] [--phases]
"""

from __future__ import annotations

import argparse
import compileall
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = 30.0


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_site(work: str) -> tuple:
    """``(CPU seconds, wall seconds)`` of one cold ``implgraph site`` into ``work/site``."""
    env = dict(os.environ, IMPLGRAPH_CACHE_DIR=os.path.join(work, "cache"),
               PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    cpu, start = _children_cpu(), time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "implgraph.cli", "-q", "site", "--out", os.path.join(work, "site")],
                          capture_output=True, text=True, env=env)
    if proc.returncode:
        sys.exit(f"implgraph site failed ({proc.returncode}): {proc.stderr.strip()}")
    return _children_cpu() - cpu, time.perf_counter() - start


def phases(work: str) -> list:
    """``[(phase, CPU seconds)]`` of the build's parts, run one after the other in this process (cold)."""
    os.environ["IMPLGRAPH_CACHE_DIR"] = os.path.join(work, "phases-cache")
    sys.path.insert(0, ROOT)
    from implgraph.site import build, matrix_view, model, pages
    out = []

    def timed(name, fn, *args):
        start = time.process_time()
        value = fn(*args)
        out.append((name, time.process_time() - start))
        return value

    m = timed("read the matrix", model.read_matrix, None)
    rows = timed("verdicts (verify)", model.read_verdict_rows, None)
    certs = timed("certificates (prover)", model.certificates, m["cells"])
    levels = timed("levels on the tables", model.table_levels, None)
    svg = timed("k-expanded map", model.groups_svg, rows, 4)
    from implgraph import definitions as registry
    from implgraph.commands.claims import all_rows
    from implgraph.commands.definitions import describe
    by_id = {r["id"]: r for r in rows}
    claims = [{**c, **{k: by_id.get(c["id"], {}).get(k) for k in ("verdict", "evidence", "witness", "tight")}}
              for c in all_rows()]
    data = {"matrix": m, "definitions": [describe(d) for d in registry.all_definitions()], "claims": claims,
            "certificates": certs, "tables": levels, "groups_svg": svg, "groups_n": 4}
    data["hasse"] = timed("Hasse graph", build.hasse, m["cells"])
    timed("page: matrix", matrix_view.matrix_page, data)
    timed("page: Hasse diagram", pages.hasse_page, data)
    timed("pages: definitions", lambda: [pages.definition_page(data, d) for d in data["definitions"]])
    timed("pages: pairs", lambda: [pages.edge_page(data, c) for c in m["cells"]])
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--phases", action="store_true", help="also the CPU seconds of each part of the build")
    args = p.parse_args(argv)
    compileall.compile_dir(os.path.join(ROOT, "implgraph"), quiet=1)
    cpus, walls = [], []
    for i in range(args.repeat):
        work = tempfile.mkdtemp(prefix="bench-site-")
        try:
            cpu, wall = run_site(work)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        cpus.append(cpu)
        walls.append(wall)
        print(f"run {i + 1}: {cpu:.1f} s CPU, {wall:.1f} s wall, load {os.getloadavg()[0]:.2f}", flush=True)
    median = statistics.median(cpus)
    print(f"implgraph site, cold: median {median:.1f} s CPU (min {min(cpus):.1f}) over {len(cpus)} runs; "
          f"target {TARGET:.0f} s: {'met' if median <= TARGET else 'NOT met'}")
    if args.phases:
        work = tempfile.mkdtemp(prefix="bench-site-phases-")
        try:
            for name, cpu in phases(work):
                print(f"  {name:28s} {cpu:6.1f} s CPU")
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
