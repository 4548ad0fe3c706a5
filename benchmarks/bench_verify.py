"""Benchmark of `implgraph verify` and the refuter; prints figures (no assertions).

Targets: the whole `implgraph verify` <= 15 s cold (a fresh cache folder) and <= 10 s warm
(the same folder again: every claim's rows are replayed from the claim cache, io/verdict_cache, when
no source or data file changed between the two runs; an edit in between makes the warm run a cold one) on 2 cores; refuting a false f-claim at N <= 30 < 1 s; bounded
checks of true f-claims up to N = 50 < 10 s per claim.

Run: python benchmarks/bench_verify.py [--skip-verify] [--verify-only] [--save DIR] [--repeat N]

The package's bytecode is written first (as ``pip install`` does), so the figures are those of an
installed copy.

``--skip-verify`` skips the whole-verify runs, ``--verify-only`` skips the refuter figures, ``--save DIR``
writes the JSON of the cold and warm runs to ``DIR/cold.json`` and ``DIR/warm.json``; ``--repeat N``
makes N cold runs and prints their min and median (the machine's speed moves between runs).
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def whole_verify(cache_dir: str):
    """One `implgraph verify --json --jobs 2` with ``IMPLGRAPH_CACHE_DIR=cache_dir``:
    (wall seconds, CPU seconds of all its processes, exit status, rows, stdout)."""
    env = dict(os.environ, IMPLGRAPH_CACHE_DIR=cache_dir)
    start, cpu = time.perf_counter(), _children_cpu()
    proc = subprocess.run([sys.executable, "-m", "implgraph.cli", "verify", "--json", "--jobs", "2"],
                          capture_output=True, text=True, env=env)
    wall, cpu = time.perf_counter() - start, _children_cpu() - cpu
    try:
        rows = json.loads(proc.stdout)["claims"]
    except Exception:
        rows = []
    return wall, cpu, proc.returncode, rows, proc.stdout


def report_verify(save=None, repeat: int = 1):
    """``repeat`` cold runs (each with a fresh cache folder; min and median when more than one: this
    machine's speed moves by +-20 % between runs of the same work), then the warm run (the last cold
    run's folder again)."""
    colds = []
    with tempfile.TemporaryDirectory(prefix="implgraph-bench-") as top:
        for i in range(repeat):
            cache = os.path.join(top, f"run{i}")
            wall, cpu, rc, rows, out = whole_verify(cache)
            colds.append((wall, cpu))
            _report("cold", 15, wall, cpu, rc, rows, out, save)
        if repeat > 1:
            walls, cpus = sorted(w for w, _ in colds), sorted(c for _, c in colds)
            print(f"cold, {repeat} runs: wall min {walls[0]:.1f} s, median {statistics.median(walls):.1f} s, "
                  f"max {walls[-1]:.1f} s; CPU min {cpus[0]:.1f} s, median {statistics.median(cpus):.1f} s")
        _report("warm", 10, *whole_verify(cache), save)


def _report(label, target, wall, cpu, rc, rows, out, save):
    if save:
        os.makedirs(save, exist_ok=True)
        with open(os.path.join(save, f"{label}.json"), "w") as fh:
            fh.write(out)
    print(f"whole `implgraph verify --jobs 2`, {label} cache: {wall:.1f} s wall (target <= {target} s), "
          f"{cpu:.1f} s CPU (a loaded machine: wall > CPU / 2), exit {rc}, {len(rows)} verdicts")
    for r in sorted(rows, key=lambda r: -r["seconds"])[:8]:
        print(f"   {r['seconds']:6.2f} s  {r['id']}  {r['verdict']}")
    print(f"   sum of per-claim seconds: {sum(r['seconds'] for r in rows):.1f} s")


def _compile_package():
    """Write the package's bytecode first, as ``pip install`` does for an installed package: an
    editable checkout under ``PYTHONDONTWRITEBYTECODE=1`` (as on this machine) would otherwise compile
    every module again in every run, which no user's installed copy does."""
    import compileall

    import implgraph
    compileall.compile_dir(os.path.dirname(implgraph.__file__), quiet=1)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    from implgraph.engines.refute import find_witness

    print(f"cpus: {os.cpu_count()}, load average: {os.getloadavg()[0]:.2f}")
    _compile_package()
    if "--skip-verify" not in argv:
        save = argv[argv.index("--save") + 1] if "--save" in argv[:-1] else None
        repeat = int(argv[argv.index("--repeat") + 1]) if "--repeat" in argv[:-1] else 1
        report_verify(save, repeat)
    if "--verify-only" in argv:
        return 0

    print("refuting false f-claims (alpha free; target < 1 s at N <= 30):")
    cases = [
        ("theorem-3a printed", "ldp", "kt-closeness", "(k/N)*(1 + ((N - k - 1)/k)*exp(eps))", {}, {"k": 2}, {"k": 2}),
        ("theorem-2b with N-1", "ldp", "kt-closeness", "(exp(eps)*(N - 2) + 1)/(N - 1)", {}, {"k": 1}, {}),
        ("theorem-2a scaled 9/10", "kt-closeness", "ldp", "ln((9/10)*t**2)", {"k": 1}, {}, {}),
    ]
    for label, a, b, f, ap, bp, vals in cases:
        for N in (10, 20, 30):
            t0 = time.perf_counter()
            r = find_witness(a, b, f, N=N, a_params=ap, b_params=bp, values=vals)
            print(f"   {label:<24} N = {N:2d}: {r.status:<10} {time.perf_counter() - t0:6.2f} s")

    print("bounded checks of true f-claims (every level of A; target < 10 s per claim at N = 50):")
    cases = [
        ("theorem-2b printed", "ldp", "kt-closeness", "(exp(eps)*(N - 1) + 1)/N", {}, {"k": 1}),
        ("theorem-2a printed", "kt-closeness", "ldp", "ln(t**2)", {"k": 1}, {}),
        ("lemma-2.1 (k0=2,k1=3)", "kt-closeness", "kt-closeness", "t", {"k": 2}, {"k": 3}),
    ]
    for label, a, b, f, ap, bp in cases:
        for N in (20, 50):
            t0 = time.perf_counter()
            r = find_witness(a, b, f, N=N, a_params=ap, b_params=bp, timeout_ms=10000)
            print(f"   {label:<24} N = {N:2d}: {r.status:<10} {time.perf_counter() - t0:6.2f} s")
    print("bounded checks at a fixed level of A (linear problems):")
    for label, a, b, f, ap, bp in cases:
        for alpha in (("2", "ln(2)"),):
            value = alpha[1] if a in ("ldp", "dp", "kdp") else alpha[0]
            import sympy
            for N in (20, 50):
                t0 = time.perf_counter()
                r = find_witness(a, b, f, N=N, a_params=ap, b_params=bp, alpha_value=sympy.sympify(value.replace("ln", "log")),
                                 timeout_ms=10000)
                print(f"   {label:<24} N = {N:2d}, level {value}: {r.status:<10} {time.perf_counter() - t0:6.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
