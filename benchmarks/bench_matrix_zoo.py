"""CPU seconds of `implgraph matrix` over the zoo's divergence and syntactic additions (or any definitions).

    python benchmarks/bench_matrix_zoo.py [--jobs 2] [--definitions NAME ... | --all] [--parameters stated|symbols]
                                          [--repeat R]

Runs ``implgraph matrix --json --quiet --jobs J --definitions ...`` in a child process with a fresh cache and reports
the user + sys CPU seconds of the child and its workers (``resource.RUSAGE_CHILDREN``), the CPU seconds per pair, the
wall seconds, the relations' counts and the open cells with their reasons. The default set is the definitions added
with the zoo (every one whose module is ``implgraph.definitions.zoo_*``) with ``ldp`` and ``k-anonymity``; ``--all``
takes every registered definition (the whole matrix, the target: at most 120 s of CPU on 2 cores, printed met or
missed). ``--repeat R`` runs it R times, each with a fresh cache, and prints each run's CPU seconds, the fastest and
the median: on a shared machine repeated runs of one version spread by a tenth or more (the fastest is the least
disturbed; the target is judged at both). Before each run the CPU seconds of a fixed sympy workload
(:data:`CALIBRATION`, about 2 s) are printed beside it: a slower machine (another tenant, a slower host) shows there
too, so that two runs on different days can be compared. Asserts nothing.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time


#: CPU seconds of the whole matrix (every pair, both modes), on 2 cores
TARGET = 120.0


#: a fixed workload (sympy's simplify and factor, as the engine uses them) whose CPU seconds calibrate a run
CALIBRATION = """
import time
start = time.process_time()
import sympy
x, y = sympy.symbols("x y", positive=True)
for k in range(1, 25):
    sympy.simplify((x**k - y**k) / (x - y) + sympy.log(x**k) - k * sympy.log(x))
    sympy.factor(sympy.expand((x + y + k) ** 6))
print(time.process_time() - start)
"""


def _calibration() -> float:
    """CPU seconds of :data:`CALIBRATION` in a child process."""
    out = subprocess.run([sys.executable, "-c", CALIBRATION], capture_output=True, text=True, check=True).stdout
    return float(out)


def _default_names() -> list:
    from implgraph.definitions import all_definitions
    return [d.name for d in all_definitions() if type(d).__module__.startswith("implgraph.definitions.zoo_")] + \
        ["ldp", "k-anonymity"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--definitions", nargs="+", default=None)
    parser.add_argument("--all", action="store_true", help="every registered definition (the whole matrix)")
    parser.add_argument("--parameters", choices=("stated", "symbols"), default="stated")
    parser.add_argument("--repeat", type=int, default=1, help="runs, each with a fresh cache (fastest and median)")
    args = parser.parse_args()
    if args.all:
        from implgraph.definitions import all_definitions
        names = [d.name for d in all_definitions()]
    else:
        names = args.definitions or _default_names()
    command = [sys.executable, "-m", "implgraph", "matrix", "--json", "--quiet", "--jobs", str(args.jobs),
               "--parameters", args.parameters] + ([] if args.all else ["--definitions", *names])
    cpus = []
    for run in range(max(1, args.repeat)):
        calibration = _calibration()
        cpu, wall, out = _run(command)
        cpus.append(cpu)
        print(f"run {run + 1}: {cpu:.1f} s CPU, {wall:.1f} s wall (calibration just before: {calibration:.2f} s CPU)",
              flush=True)
    m = json.loads(out)
    pairs = len(m["cells"]) // 2
    print(f"{len(names)} definitions, {pairs} pairs: {cpu:.1f} s CPU ({cpu / max(pairs, 1):.2f} s per pair), "
          f"{wall:.1f} s wall on --jobs {args.jobs}; load average {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if len(cpus) > 1:
        print(f"{len(cpus)} runs: fastest {min(cpus):.1f} s CPU, median {statistics.median(cpus):.1f} s")
    if args.all:
        for what, value in (("fastest run", min(cpus)), ("median", statistics.median(cpus))):
            print(f"the whole matrix ({args.parameters} parameters), {what}: {value:.1f} s CPU; target <= {TARGET:g} "
                  f"s CPU: {'meets' if value <= TARGET else 'misses'} it")
    print("relations:", dict(collections.Counter(c["relation"] for c in m["cells"])))
    slow = sorted(m.get("pair_seconds", {}).items(), key=lambda kv: -kv[1])[:8]
    print("slowest pairs (wall s):", ", ".join(f"{k} {v:.1f}" for k, v in slow))
    for c in m["cells"]:
        if c["relation"] == "open":
            print(f"  open: {c['a']} => {c['b']}: {c['reason']}")


def _run(command):
    """``(cpu, wall, stdout)`` of one run of ``command`` with a fresh cache: the user + sys CPU seconds of the child
    and its workers."""
    env = dict(os.environ, IMPLGRAPH_CACHE_DIR=tempfile.mkdtemp())
    before, wall = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    out = subprocess.run(command, capture_output=True, text=True, env=env, check=True).stdout
    after, wall = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter() - wall
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall, out


if __name__ == "__main__":
    main()
