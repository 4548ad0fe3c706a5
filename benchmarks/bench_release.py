"""Mechanisms on microdata: seconds to build the grouped release and every definition's exact level.

Synthetic records (8 ages x 2 sexes as quasi-identifiers, 4 diseases, a numeric income) at
10^5 and 10^6 records; ``python benchmarks/bench_release.py [N ...]``.
"""

from __future__ import annotations

import sys
import time

import numpy as np
import pandas as pd

from implgraph.io.microdata import table_levels
from implgraph.mechanisms.on_data import release

RUNS = [("randomised-response", "disease", {"p": "1/2"}), ("empirical-response", "disease", {"p": "1/3"}),
        ("set-channel", "disease", {"p": "1/2", "eta": 2}), ("bucketization", "income", {"t": 2, "k": 50})]


def synthetic(n: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    return pd.DataFrame({"age": rng.integers(0, 8, n), "sex": rng.choice(["F", "M"], n),
                         "disease": rng.choice(["flu", "hiv", "cancer", "cold"], n),
                         "income": rng.integers(0, 1000, n)})


def main(sizes) -> None:
    print(f"{'N':>9}  {'mechanism':<20} {'rows':>6} {'release s':>9} {'levels s':>9}")
    for n in sizes:
        df = synthetic(n)
        for mech, col, kw in RUNS:
            start = time.perf_counter()
            rel = release(df, ["age", "sex"], col, mech, **kw)
            mid = time.perf_counter()
            table_levels(rel, {"k": 2})
            end = time.perf_counter()
            print(f"{n:>9}  {mech:<20} {len(rel.counts):>6} {mid - start:>9.2f} {end - mid:>9.2f}")


if __name__ == "__main__":
    main([int(x) for x in sys.argv[1:]] or [100_000, 1_000_000])
