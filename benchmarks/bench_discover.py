"""Benchmark: check-edge and discover (exact witness search and tight f by exact LPs).

Run: ``python benchmarks/bench_discover.py [--N 3 4 5] [--workers W]``

Prints the seconds of ``discover`` over every built-in definition (each parameter value, every
partition into classes, two buckets) at each N, with and without the pairs encoded in theorems/,
and of a few check-edge calls over N = 2..5.
"""

from __future__ import annotations

import argparse
import os
import time

from implgraph.engines.direction import check_direction
from implgraph.engines.discover import discover

PAIRS = [("ldp", "kt-closeness(k=1)"), ("kt-closeness(k=1)", "ldp"), ("mult-t-closeness", "ldp"),
         ("ldp", "dp"), ("mult-t-closeness", "kdp(k=1)"), ("kt-closeness(k=2)", "emd-t-closeness")]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--N", type=int, nargs="+", default=[3, 4, 5])
    ap.add_argument("--workers", type=int, default=os.cpu_count())
    args = ap.parse_args()
    print(f"cores: {os.cpu_count()}, workers: {args.workers}")
    for a, b in PAIRS:
        start = time.perf_counter()
        d = check_direction(a, b, N=5, prover=False)
        print(f"check-edge {a} => {b} (N = 2..5): {d.relation}, {time.perf_counter() - start:.2f} s")
    for n in args.N:
        for known in (False, True):
            r = discover(N=n, include_known=known, workers=args.workers, progress=False)
            label = "all pairs" if known else "new pairs"
            print(f"discover --N {n} ({label}): {r.pairs_checked} ordered pairs, {r.seconds:.1f} s, "
                  f"{len(r.errors)} errors")


if __name__ == "__main__":
    main()
