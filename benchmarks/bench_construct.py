"""Benchmark: the bucketization construction (domingo-ferrer2015 Sec. 6) and the mechanism levels.

Run: ``python benchmarks/bench_construct.py [--max-rows 1000000]``. Prints one line per case: rows, t, k,
seconds, achieved t (exact, by the core) and whether it meets t.
"""

from __future__ import annotations

import argparse
import random
import time

import sympy

from implgraph.mechanisms.construct import construct
from implgraph.definitions.levels import optimal_level
from implgraph.mechanisms.channels import empirical_response, randomised_response
from implgraph.mechanisms.datasets import worst_case_dataset


def bench_construct(max_rows: int) -> None:
    print(f"{'rows':>9} {'t':>3} {'k':>6} {'seconds':>8}  achieved t")
    n = 1000
    while n <= max_rows:
        rng = random.Random(n)
        values = [rng.randint(0, 10 * n) for _ in range(n)]
        for t, k in ((2, 5), (3, 100), (5, 50)):
            if k > n:
                continue
            start = time.perf_counter()
            r = construct(values, t, k)
            sec = time.perf_counter() - start
            print(f"{n:>9} {t:>3} {k:>6} {sec:>8.2f}  {r.t} ({float(r.t):.5f}) meets={r.meets}")
        n *= 10


def bench_levels() -> None:
    print("\nmechanism levels by the core (exact)")
    p = sympy.Symbol("p_LDP", real=True)
    for n in (2, 4, 6):
        start = time.perf_counter()
        from implgraph.mechanisms.datasets import Dataset
        lv = optimal_level(randomised_response(n, p).apply(Dataset.from_counts({None: [1] * n})), "ldp")
        print(f"  Fig. 4 LDP, n = {n}, symbolic p: {time.perf_counter() - start:.2f} s  ({len(lv.pieces)} pieces)")
    for N in (100, 10_000, 100_000):
        counts = [N // 10, N - N // 10]
        start = time.perf_counter()
        m = empirical_response([sympy.Rational(c, N) for c in counts], sympy.Rational(1, 2))
        lv = optimal_level(m.apply(worst_case_dataset(counts, 5)), "mult-t-closeness")
        print(f"  Fig. 5 mult-t, N = {N}: {time.perf_counter() - start:.2f} s  t = {lv.value}")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--max-rows", type=int, default=100_000)
    args = ap.parse_args()
    bench_construct(args.max_rows)
    bench_levels()
