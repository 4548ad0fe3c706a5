"""CPU seconds of `implgraph matrix` over the zoo's divergence and syntactic additions (or any definitions).

    python benchmarks/bench_matrix_zoo.py [--jobs 2] [--definitions NAME ... | --all] [--parameters stated|symbols]

Runs ``implgraph matrix --json --quiet --jobs J --definitions ...`` in a child process with a fresh cache and reports
the user + sys CPU seconds of the child and its workers (``resource.RUSAGE_CHILDREN``), the CPU seconds per pair, the
wall seconds, the relations' counts and the open cells with their reasons. The default set is the definitions added
with the zoo (every one whose module is ``implgraph.definitions.zoo_*``) with ``ldp`` and ``k-anonymity``; ``--all``
takes every registered definition (the whole matrix, the target: at most 120 s of CPU on 2 cores, printed met or
missed). Asserts nothing.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import resource
import subprocess
import sys
import tempfile
import time


#: CPU seconds of the whole matrix (every pair, both modes), on 2 cores
TARGET = 120.0


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
    args = parser.parse_args()
    if args.all:
        from implgraph.definitions import all_definitions
        names = [d.name for d in all_definitions()]
    else:
        names = args.definitions or _default_names()
    env = dict(os.environ, IMPLGRAPH_CACHE_DIR=tempfile.mkdtemp())
    before, wall = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    command = [sys.executable, "-m", "implgraph", "matrix", "--json", "--quiet", "--jobs", str(args.jobs),
               "--parameters", args.parameters] + ([] if args.all else ["--definitions", *names])
    out = subprocess.run(command, capture_output=True, text=True, env=env, check=True).stdout
    after, wall = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter() - wall
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    m = json.loads(out)
    pairs = len(m["cells"]) // 2
    print(f"{len(names)} definitions, {pairs} pairs: {cpu:.1f} s CPU ({cpu / max(pairs, 1):.2f} s per pair), "
          f"{wall:.1f} s wall on --jobs {args.jobs}; load average {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.all:
        print(f"the whole matrix ({args.parameters} parameters): {cpu:.1f} s CPU; target <= {TARGET:g} s CPU: "
              f"{'meets' if cpu <= TARGET else 'misses'} it")
    print("relations:", dict(collections.Counter(c["relation"] for c in m["cells"])))
    slow = sorted(m.get("pair_seconds", {}).items(), key=lambda kv: -kv[1])[:8]
    print("slowest pairs (wall s):", ", ".join(f"{k} {v:.1f}" for k, v in slow))
    for c in m["cells"]:
        if c["relation"] == "open":
            print(f"  open: {c['a']} => {c['b']}: {c['reason']}")


if __name__ == "__main__":
    main()
