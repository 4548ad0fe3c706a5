"""Benchmark: exact optimal levels on large concrete tables, and the brute force for small N.

Run: ``python benchmarks/bench_levels.py [--sizes 10000 100000 1000000] [--brute-max 12]``

Prints, per table size, the seconds of the exact (k,t)-closeness, (k,eps)-DP, eps-DP, eps-LDP and
multiplicative t-closeness (integer numerators over a common denominator; sums with numpy, levels
as exact Fractions), the time to load the same table from a CSV, and the float path (for
comparison only; verdicts never use it). Then every registered definition's level, one by one,
with 100 and with N/10 classes (the class grouping, done once per table, is timed on its own; the
entropy l-diversity level is irrational and printed with its stated precision). Then the brute
force straight from Definition 7 (all C(N, k) subsets) for N = 6..12, so the growth is visible.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from implgraph.core.concrete import ConcreteTable  # noqa: E402
from implgraph.definitions.levels import optimal_level  # noqa: E402
from implgraph.io.tablefile import load_csv  # noqa: E402

DENOM = 1000


def random_table(n: int, seed: int = 0, classes: int | None = None) -> ConcreteTable:
    rng = np.random.default_rng(seed)
    a1 = rng.integers(1, DENOM, size=n, dtype=np.int64)
    numer = np.stack([a1, DENOM - a1], axis=1)
    labels = None
    if classes:
        labels = (rng.integers(0, classes, size=n)).astype(str)
    return ConcreteTable.from_numerators(numer, DENOM, classes=labels)


def timed(fn, repeat=1):
    best = math.inf
    out = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def float_kt(ct: ConcreteTable, k: int) -> float:
    """Float path (benchmark only): the same extreme-subset formula in float64."""
    x = ct.numer.astype(np.float64) / ct.denom
    n = len(x)
    best = 1.0
    for l in range(ct.p):
        col = x[:, l]
        mean = col.mean()
        lo = np.partition(col, k - 1)[:k].mean()
        hi = np.partition(col, n - k)[n - k:].mean()
        best = max(best, mean / lo if lo > 0 else math.inf, hi / mean if mean > 0 else math.inf)
    return best


def bench_large(sizes):
    print("Exact optimal levels on random concrete tables (2 buckets, Pr = i/1000, 100 classes)")
    print(f"{'rows':>9} {'kt(k=10)':>9} {'kt(k=N/2)':>10} {'kdp(k=10)':>10} {'dp':>7} {'ldp':>7} "
          f"{'mult-t':>7} {'csv load':>9} {'float kt':>9}")
    for n in sizes:
        ct = random_table(n, classes=100)
        t_kt, lv = timed(lambda: optimal_level(ct, "kt-closeness", k=10))
        t_kt2, _ = timed(lambda: optimal_level(ct, "kt-closeness", k=n // 2))
        t_kdp, _ = timed(lambda: optimal_level(ct, "kdp", k=10))
        t_dp, _ = timed(lambda: optimal_level(ct, "dp"))
        t_ldp, _ = timed(lambda: optimal_level(ct, "ldp"))
        t_mt, _ = timed(lambda: optimal_level(ct, "mult-t-closeness"))
        t_fl, fl = timed(lambda: float_kt(ct, 10))
        exact = lv.pieces[0].value
        assert abs(float(exact) - fl) <= 1e-9 * fl, (exact, fl)
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "t.csv")
            a1 = ct.numer[:, 0]
            with open(path, "w") as fh:
                fh.write("class,a1,a2\n")
                fh.write("\n".join(f"{c},{v / DENOM:.3f},{(DENOM - v) / DENOM:.3f}"
                                   for c, v in zip(ct.classes, a1.tolist())))
                fh.write("\n")
            t_csv, loaded = timed(lambda: load_csv(path))
            assert loaded.N == n
        print(f"{n:>9} {t_kt:>9.3f} {t_kt2:>10.3f} {t_kdp:>10.3f} {t_dp:>7.3f} {t_ldp:>7.3f} "
              f"{t_mt:>7.3f} {t_csv:>9.3f} {t_fl:>9.3f}", flush=True)


def bench_every_definition(sizes):
    from implgraph import definitions
    from implgraph.definitions.levels import all_levels  # noqa: F401  (registers the built-ins)
    print("\nEvery definition's exact level (s), random 2-bucket tables, Pr = i/1000, k = 10")
    for n in sizes:
        for classes in (100, max(n // 10, 1)):
            ct = random_table(n, classes=classes)
            t_g, _ = timed(ct.class_sums)
            print(f"N = {n}, {classes} classes: grouping {t_g:.3f} s", flush=True)
            for d in definitions.all_definitions():
                grounds = ["equal", "ordered"] if d.name == "emd-t-closeness" else [None]
                for g in grounds:
                    params = {"k": 10} if "k" in d.params else {}
                    if g:
                        params["ground"] = g
                    t, lv = timed(lambda: optimal_level(ct, d, **params))
                    label = d.name + (f"({g})" if g else "")
                    print(f"  {label:<32} {t:>7.3f} s  {d.level_symbol} = {str(lv)[:90]}", flush=True)


def bench_brute(max_n):
    import brute
    print("\nBrute force of (k,t)-closeness straight from Definition 7 (k = N/2: all C(N,k) subsets)")
    print(f"{'N':>4} {'subsets':>8} {'brute s':>9} {'engine s':>9}")
    rng = np.random.default_rng(1)
    for n in range(6, max_n + 1):
        rows = [[Fraction(int(v), 12), Fraction(12 - int(v), 12)] for v in rng.integers(0, 13, size=n)]
        k = n // 2
        t_b, b = timed(lambda: brute.kt(rows, k))
        ct = ConcreteTable.from_fractions(rows)
        t_e, lv = timed(lambda: optimal_level(ct, "kt-closeness", k=k))
        got = lv.pieces[0].value
        assert (b == brute.INF and got.is_infinite) or got == b, (b, got)
        print(f"{n:>4} {math.comb(n, k):>8} {t_b:>9.4f} {t_e:>9.5f}", flush=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="*", default=[10_000, 100_000, 1_000_000])
    ap.add_argument("--brute-max", type=int, default=12)
    args = ap.parse_args(argv)
    print(f"python {sys.version.split()[0]}, numpy {np.__version__}, cpus {os.cpu_count()}")
    bench_large(args.sizes)
    bench_every_definition(args.sizes)
    bench_brute(args.brute_max)


if __name__ == "__main__":
    main()
