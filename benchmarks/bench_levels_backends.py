"""Benchmark: ``implgraph levels`` on synthetic microdata, the counting in pandas against DuckDB.

Run: ``python benchmarks/bench_levels_backends.py [--records 100000 1000000 10000000] [--kinds csv parquet]
[--repeat 3]``; 10^8 records: ``--records 100000000 --kinds duckdb-parquet --backends duckdb --tmp DIR``

Each size is written once (CSV and Parquet) to a temporary folder: records of age (17-90), a generalised zip
(20 values), sex and a sensitive disease (10 values). ``script`` is the yardstick: a plain pandas/numpy script
computing k, distinct l and EMD t in floats. Then each backend runs ``implgraph levels FILE --qi
age,zip,sex --sensitive disease --require k=5 --definitions k-anonymity,distinct-l-diversity,emd-t-closeness
--json`` end to end (read, count, the exact levels of the definitions the script computes) in a process of its own, and the figures are that process's CPU time (user + system) and peak
resident memory (``os.wait4``'s rusage). ``--repeat R`` runs each R times, in turn (script, then each
backend), and prints the least and the median; the load average (``os.getloadavg``) is printed with each
size, since the machine is shared. The last column, ``x script``, is the CPU and the memory of the least run
over those of the script's least run; every run's N, k, l and t are checked against the script's. ``imports``
is no computation: a process importing what ``implgraph levels`` imports before it reads a record (pandas,
pyarrow, and the count-table levels of :mod:`implgraph.io.level_cards`: k, distinct l and EMD t need neither sympy
nor the registry of definitions), the floor of its CPU time. One run of ``implgraph levels`` before the first
measured one stores the definitions' cards in the levels cache (``$IMPLGRAPH_CACHE_DIR``), as any earlier run does. ``pandas-all`` runs the
same command with ``--definitions all`` (every registered definition's level, not only k, l and t). ``--kinds
duckdb-parquet`` writes the file with DuckDB itself, streaming, for 10^8 records (``--backends duckdb --tmp
DIR``). The data are synthetic (uniform draws), stated as such; floats only here (timings), never in a
verdict.

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

IMPORTS = ("import pandas, pyarrow.parquet, implgraph.cli, implgraph.commands.levels, implgraph.io.microdata, "
           "implgraph.io.counting, implgraph.io.requirements, implgraph.io.level_cards, implgraph.io.microdata_fast")
"""What ``implgraph levels`` imports before it reads a record (the ``imports`` row: the floor of its CPU time)."""

ARGS = ["--qi", "age,zip,sex", "--sensitive", "disease", "--require", "k=5", "--definitions",
        "k-anonymity,distinct-l-diversity,emd-t-closeness", "--json"]
"""The levels the script computes (k, distinct l, EMD t): ``implgraph levels`` computes those asked for only."""


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
    """``(cpu seconds, peak RSS MiB, wall seconds, exit code, (N, k, l, t))`` of one ``implgraph levels`` process
    (``script``: the plain pandas script :func:`baseline`, N not given); k, l and t are read from its output, so
    that every backend's answer is compared with the script's."""
    cmd = [sys.executable, "-m", "implgraph", "levels", str(path), *ARGS, "--backend", backend]
    if backend == "pandas-all":             # every registered definition's level, counted by pandas
        cmd = [*cmd[:-2], "--definitions", "all", "--backend", "pandas"]
    if backend == "script":
        cmd = [sys.executable, __file__, "--baseline", str(path)]
    elif backend == "imports":
        cmd = [sys.executable, "-c", IMPORTS]
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)         # the child's own rusage (communicate() would reap it)
        wall = time.perf_counter() - start
        proc.returncode = code = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        text, problem = out.read().decode(), err.read().decode()
    if code not in (0, 1):
        raise SystemExit(f"{backend} on {path.name} failed ({code}): {problem.strip()[:300]}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, wall, code, _answer(backend, text)


def _answer(backend, out) -> tuple:
    """``(N, k, l, t)`` from the output of a run (t as a float, for the comparison only)."""
    if backend == "imports":
        return None, None, None, None
    if backend == "script":
        k, l_, t = out.split()
        return None, int(k), int(l_), float(t)
    import json
    doc = json.loads(out)
    defs = doc["sensitive"]["disease"]["definitions"]
    return (int(doc["N"]), int(defs["k-anonymity"]["level"]), int(defs["distinct-l-diversity"]["level"]),
            float(defs["emd-t-closeness"]["float"]))


def write(n: int, kind: str, path: Path) -> None:
    """Write ``n`` synthetic records to ``path`` (run in a process of its own: the measuring process stays
    small, since a child's peak memory counts the parent's pages it was forked with)."""
    if kind == "duckdb-parquet":
        write_duckdb(n, path)
        return
    df = synthetic(n)
    df.to_csv(path, index=False) if kind == "csv" else df.to_parquet(path, index=False)


def write_duckdb(n: int, path: Path, seed: float = 0.25) -> None:
    """Write ``n`` synthetic records of the same shape as :func:`synthetic` (uniform draws, other values) to the
    Parquet file ``path`` with DuckDB itself (``COPY ... TO``), streaming: no DataFrame of ``n`` rows is held,
    so 10^8 records fit (about 0.5 GiB of Parquet)."""
    import duckdb
    con = duckdb.connect()
    con.execute(f"SELECT setseed({seed})")
    con.execute(f"""COPY (SELECT 17 + CAST(floor(random() * 74) AS BIGINT) AS age,
                               CAST(130 + CAST(floor(random() * 20) AS INTEGER) AS VARCHAR) || '**' AS zip,
                               CASE WHEN random() < 0.5 THEN 'F' ELSE 'M' END AS sex,
                               'd' || CAST(CAST(floor(random() * 10) AS INTEGER) AS VARCHAR) AS disease
                        FROM range({int(n)})) TO '{path}' (FORMAT parquet)""")
    con.close()


def _line(n, kind, size, backend, runs, script, load) -> None:
    """One row of the table: least and median CPU and peak memory, the least run's wall time, and the ratios of
    the least to the script's least."""
    cpu, rss = sorted(r[0] for r in runs), sorted(r[1] for r in runs)
    for r in (r for r in runs if r[4][1] is not None):   # every run gives the script's k, l and t, and N records
        if (r[4][0] is not None and r[4][0] != n) or (script and (r[4][1:3] != script[0][4][1:3]
                                                                  or abs(r[4][3] - script[0][4][3]) > 1e-12)):
            raise SystemExit(f"{backend} on {n} records: (N, k, l, t) = {r[4]}, the script's {script[0][4]}")
    wall = min(runs, key=lambda r: r[0])[2]
    ratio = f"{cpu[0] / min(r[0] for r in script):>10.2f} {rss[0] / min(r[1] for r in script):>9.2f}" if script \
        else f"{'':>20}"
    print(f"{n:>10} {kind:>8} {size:>7.1f} {backend:>8} {cpu[0]:>10.2f} {cpu[len(cpu) // 2]:>11.2f} "
          f"{rss[0]:>12.0f} {rss[len(rss) // 2]:>12.0f} {wall:>7.1f} {ratio}  {load}", flush=True)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--records", type=int, nargs="+", default=[100_000, 1_000_000])
    p.add_argument("--kinds", nargs="+", default=["csv", "parquet"], choices=["csv", "parquet", "duckdb-parquet"],
                   help="duckdb-parquet: a Parquet file written by DuckDB (streaming; for 10^8 records, with "
                        "--backends duckdb: a pandas DataFrame of them would not fit)")
    p.add_argument("--backends", nargs="+", default=["pandas", "duckdb", "script", "imports"],
                   choices=["pandas", "duckdb", "script", "imports", "pandas-all"],
                   help="script: a plain pandas/numpy script computing k, l and t (the yardstick); imports: only "
                        "the modules implgraph levels imports (its floor); pandas-all: every registered "
                        "definition's level (--definitions all), not only k, l and t")
    p.add_argument("--tmp", help="the folder of the temporary data files (default: the system's)")
    p.add_argument("--repeat", type=int, default=3, help="runs of each (the least and the median are printed)")
    p.add_argument("--write", nargs=3, metavar=("N", "KIND", "PATH"), help=argparse.SUPPRESS)
    p.add_argument("--baseline", metavar="PATH", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.baseline:
        baseline(Path(args.baseline))
        return 0
    if args.write:
        write(int(args.write[0]), args.write[1], Path(args.write[2]))
        return 0
    print(f"{'records':>10} {'file':>8} {'MiB':>7} {'backend':>8} {'CPU s (least, median)':>22} "
          f"{'peak MiB (least, median)':>25} {'wall s':>7} {'x script (CPU, MiB)':>20}  load")
    backends = (["script"] if "script" in args.backends else []) + [b for b in args.backends if b != "script"]
    with tempfile.TemporaryDirectory(prefix="bench-levels-", dir=args.tmp) as folder:
        for n in args.records:
            for kind in args.kinds:
                path = Path(folder) / f"records-{n}.{kind.replace('duckdb-', '')}"
                subprocess.run([sys.executable, __file__, "--write", str(n), kind, str(path)], check=True)
                size = path.stat().st_size / 2 ** 20
                runs = {b: [] for b in backends}
                if n == args.records[0] and kind == args.kinds[0]:
                    run(path, "pandas")         # not measured: stores the definitions' cards (levels cache)
                for _ in range(args.repeat):
                    for backend in backends:
                        runs[backend].append(run(path, backend))
                load = " ".join(f"{x:.1f}" for x in os.getloadavg())
                for backend in backends:
                    _line(n, kind, size, backend, runs[backend], runs.get("script"), load)
                path.unlink()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
