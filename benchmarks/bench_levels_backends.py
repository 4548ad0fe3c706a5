"""Benchmark: ``implgraph levels`` on synthetic microdata, the counting in pandas against DuckDB.

Run: ``python benchmarks/bench_levels_backends.py [--records 100000 1000000 10000000] [--kinds csv parquet]``

Each size is written once (CSV and Parquet) to a temporary folder: records of age (17-90), a generalised zip
(20 values), sex and a sensitive disease (10 values). ``script`` is the yardstick: a plain pandas/numpy script
computing k, distinct l and EMD t in floats. Then each backend runs ``implgraph levels FILE --qi
age,zip,sex --sensitive disease --require k=5 --json`` end to end (read, count, every registered definition's
exact level) in a process of its own, and the figures are that process's CPU time (user + system) and peak
resident memory (``os.wait4``'s rusage). The data are synthetic (uniform draws), stated as such; floats only
here (timings), never in a verdict.

Needs pandas, pyarrow and duckdb (``pip install -e '.[microdata]'``).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

ARGS = ["--qi", "age,zip,sex", "--sensitive", "disease", "--require", "k=5", "--json"]


def synthetic(n: int, seed: int = 1) -> pd.DataFrame:
    """``n`` uniform synthetic records (age, zip, sex, disease)."""
    rng = np.random.default_rng(seed)
    zips = np.array([f"{130 + i}**" for i in range(20)])
    diseases = np.array([f"d{i}" for i in range(10)])
    return pd.DataFrame({"age": rng.integers(17, 91, n), "zip": zips[rng.integers(0, 20, n)],
                         "sex": np.where(rng.integers(0, 2, n) == 1, "F", "M"),
                         "disease": diseases[rng.integers(0, 10, n)]})


def baseline(path: Path) -> None:
    """A plain pandas/numpy script computing k, distinct l and EMD t (equal ground) in floats: the yardstick."""
    qi, s = ["age", "zip", "sex"], "disease"
    df = pd.read_parquet(path) if path.suffix == ".parquet" else pd.read_csv(path, engine="pyarrow")
    counts = df.groupby(qi + [s], observed=True).size().unstack(fill_value=0)
    sizes = counts.sum(axis=1).to_numpy()
    shares = counts.to_numpy() / sizes[:, None]
    table = counts.sum(axis=0).to_numpy() / sizes.sum()
    k, l_ = int(sizes.min()), int((counts.to_numpy() > 0).sum(axis=1).min())
    t = float((np.abs(shares - table).sum(axis=1) / 2).max())
    print(k, l_, t)


def run(path: Path, backend: str) -> tuple:
    """``(cpu seconds, peak RSS MiB, wall seconds, exit code)`` of one ``implgraph levels`` process (``script``: the
    plain pandas script :func:`baseline`)."""
    cmd = [sys.executable, "-m", "implgraph", "levels", str(path), *ARGS, "--backend", backend]
    if backend == "script":
        cmd = [sys.executable, __file__, "--baseline", str(path)]
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    err = proc.stderr.read().decode()
    proc.stderr.close()
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        raise SystemExit(f"{backend} on {path.name} failed ({code}): {err.strip()[:300]}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, wall, code


def write(n: int, kind: str, path: Path) -> None:
    """Write ``n`` synthetic records to ``path`` (run in a process of its own: the measuring process stays
    small, since a child's peak memory counts the parent's pages it was forked with)."""
    df = synthetic(n)
    df.to_csv(path, index=False) if kind == "csv" else df.to_parquet(path, index=False)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--records", type=int, nargs="+", default=[100_000, 1_000_000])
    p.add_argument("--kinds", nargs="+", default=["csv", "parquet"], choices=["csv", "parquet"])
    p.add_argument("--backends", nargs="+", default=["pandas", "duckdb", "script"],
                   choices=["pandas", "duckdb", "script"],
                   help="script: a plain pandas/numpy script computing k, l and t (the yardstick)")
    p.add_argument("--write", nargs=3, metavar=("N", "KIND", "PATH"), help=argparse.SUPPRESS)
    p.add_argument("--baseline", metavar="PATH", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.baseline:
        baseline(Path(args.baseline))
        return 0
    if args.write:
        write(int(args.write[0]), args.write[1], Path(args.write[2]))
        return 0
    print(f"{'records':>10} {'file':>8} {'MiB':>7} {'backend':>8} {'CPU s':>7} {'peak RSS MiB':>13} {'wall s':>7}")
    with tempfile.TemporaryDirectory(prefix="bench-levels-") as folder:
        for n in args.records:
            for kind in args.kinds:
                path = Path(folder) / f"records-{n}.{kind}"
                subprocess.run([sys.executable, __file__, "--write", str(n), kind, str(path)], check=True)
                size = path.stat().st_size / 2 ** 20
                for backend in args.backends:
                    cpu, rss, wall, _ = run(path, backend)
                    print(f"{n:>10} {kind:>8} {size:>7.1f} {backend:>8} {cpu:>7.2f} {rss:>13.0f} {wall:>7.2f}",
                          flush=True)
                path.unlink()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
