"""sei2019's anonymization at scale: CPU seconds and peak memory of `implgraph anonymize` and `implgraph reconstruct`.

The data are **synthetic** (generated here, seeded): ``N`` records of 15 attributes, 10 sensitive QIDs with
domains of 2 to 20 values (skewed distributions) randomized for ``--l 2 --t 1/4`` together, and 5 columns kept
as they are (one of them with about ``N/10`` distinct values, like Adult's ``fnlwgt``). Each command runs in a
fresh process; its user+sys CPU seconds and peak resident memory are read from ``resource.getrusage`` of the
child (the machine is shared, so CPU seconds, not wall time, are the figure).

Targets (issue "the data publisher's path", item 4): at ``N = 10^6``, anonymize and write in at most 10 CPU s
and 1 GiB; reconstruct in at most 5 CPU s.

With ``--census``, a synthetic data set of the US Census shape of the paper's timing figures (2,458,285 records x
68 categorical attributes of 2 to 20 values, all randomized at ``--l 2``).

``--repeat R`` runs each command R times and prints the least and the median CPU and peak memory, with the
load average (``os.getloadavg``: the 2 cores are shared).

``python benchmarks/bench_sei2019_scale.py [--n 1000000 | --census] [--repeat 3] [--keep-files DIR] [--repo PATH]``
(``--repo`` runs another checkout's implgraph, e.g. to measure the code before a change).
"""

from __future__ import annotations

import argparse
import csv
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

QIDS = [f"q{j}" for j in range(10)]
KEPT = [f"k{j}" for j in range(5)]
RECONSTRUCT = ["q0", "q1", "q2"]
CENSUS = (2_458_285, 68)
"""The shape of the US Census data set of sei2019's timing figures (Figs. 5-6): records, attributes."""


def census(path: Path, n: int, q: int, seed: int = 0) -> None:
    """Write a synthetic CSV of the US Census shape: ``q`` categorical attributes of 2 to 20 values (skewed),
    written by pyarrow."""
    import pyarrow as pa
    import pyarrow.csv as pacsv
    rng = np.random.default_rng(seed)
    cols = {}
    for j in range(q):
        d = 2 + (j * 2) % 19
        cols[f"q{j}"] = pa.array(rng.choice(d, size=n, p=rng.dirichlet(np.ones(d))).astype(np.int16)).cast(pa.string())
    pacsv.write_csv(pa.table(cols), str(path), pacsv.WriteOptions(quoting_style="none"))


def synthetic(path: Path, n: int, seed: int = 0) -> None:
    """Write the synthetic CSV (header, ``n`` records, 15 columns)."""
    rng = np.random.default_rng(seed)
    cols = {}
    for j, q in enumerate(QIDS):
        d = 2 + (j * 2) % 19                      # 2, 4, ..., 20, ...
        weights = rng.dirichlet(np.ones(d))
        cols[q] = rng.choice(d, size=n, p=weights).astype(str)
    cols["k0"] = rng.integers(10_000, 10_000 + max(n // 10, 1), size=n).astype(str)   # many distinct values
    cols["k1"] = rng.choice(["a", "b", "c"], size=n)
    cols["k2"] = rng.integers(0, 100, size=n).astype(str)
    cols["k3"] = np.char.add("0", rng.integers(0, 10, size=n).astype(str))              # leading zeros kept
    cols["k4"] = rng.choice(["x y", " z", "w,v"], size=n)                              # spaces and a comma
    with open(path, "w", newline="") as fh:
        out = csv.writer(fh)
        out.writerow(QIDS + KEPT)
        out.writerows(zip(*(cols[c] for c in QIDS + KEPT)))


def measure(argv, env) -> dict:
    """Run ``argv`` in a child process; its CPU seconds (user + sys) and peak RSS (MiB)."""
    code = ("import resource, subprocess, sys, json; r = subprocess.run(sys.argv[1:]); "
            "u = resource.getrusage(resource.RUSAGE_CHILDREN); "
            "print(json.dumps({'rc': r.returncode, 'cpu': u.ru_utime + u.ru_stime, 'rss_mib': u.ru_maxrss / 1024}))")
    res = subprocess.run([sys.executable, "-c", code, *argv], env=env, capture_output=True, text=True)
    import json
    line = res.stdout.strip().splitlines()[-1] if res.stdout.strip() else "{}"
    try:
        return json.loads(line) | ({"err": res.stderr.strip()[-300:]} if res.stderr.strip() else {})
    except ValueError:
        return {"rc": None, "err": res.stderr[-300:] + res.stdout[-300:]}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1_000_000)
    ap.add_argument("--keep-files", help="write the data and the release in this folder (default: a temporary one)")
    ap.add_argument("--repo", default=str(Path(__file__).resolve().parents[1]), help="the implgraph checkout to run")
    ap.add_argument("--drop-wide", action="store_true",
                    help="drop the kept column of N/10 values (the code before this benchmark refused it)")
    ap.add_argument("--census", action="store_true",
                    help="the US Census shape instead (2,458,285 records x 68 attributes, all --qid at --l 2; "
                         "synthetic), the paper's timing figures")
    ap.add_argument("--repeat", type=int, default=1, help="runs of each command (least and median printed)")
    ap.add_argument("--out-name", default="release.parquet", help="the release's file name (its suffix picks the format)")
    args = ap.parse_args(argv)
    folder = Path(args.keep_files or tempfile.mkdtemp(prefix="bench-sei2019-"))
    folder.mkdir(parents=True, exist_ok=True)
    data, out = folder / "synthetic.csv", folder / args.out_name
    if args.census:
        data = folder / "census-shape.csv"
    if not data.exists() or data.stat().st_size == 0 or args.keep_files is None:
        census(data, *CENSUS) if args.census else synthetic(data, args.n)
    env = dict(os.environ, PYTHONPATH=args.repo)
    py = [sys.executable, "-m", "implgraph"]
    kept = [] if args.census else KEPT[1:] if args.drop_wide else KEPT
    drop = ["--drop", KEPT[0]] if args.drop_wide and not args.census else []
    qids = [f"q{j}" for j in range(CENSUS[1])] if args.census else QIDS
    levels = ["--l", "2"] if args.census else ["--l", "2", "--t", "1/4"]
    keep = ["--keep", ",".join(kept)] if kept else []
    anon_argv = py + ["anonymize", str(data), "--qid", ",".join(qids), *keep, *drop, *levels, "--seed", "1",
                      "--out", str(out)]
    recon_argv = py + ["reconstruct", str(out), "--attributes", ",".join(RECONSTRUCT), "--json"]
    anon, recon = [], []
    for _ in range(max(args.repeat, 1)):
        anon.append(measure(anon_argv, env))
        recon.append(measure(recon_argv, env))
    n = CENSUS[0] if args.census else args.n
    print(f"synthetic data: N = {n}, {len(qids)} sensitive QIDs ({' '.join(levels)}), {len(kept)} kept; "
          f"CSV {data.stat().st_size / 2**20:.0f} MiB; implgraph from {args.repo}")
    targets = (("paper, Fig. 5: several tens of seconds", "paper, Fig. 6: under 10 min") if args.census else
               ("target <= 10 CPU s, <= 1024 MiB", "target <= 5 CPU s"))
    for what, runs, target in (("anonymize + write", anon, targets[0]),
                               (f"reconstruct {','.join(RECONSTRUCT)}", recon, targets[1])):
        bad = [r for r in runs if r.get("rc") != 0]
        if bad:
            print(f"  {what:<24} failed (exit {bad[0].get('rc')}): {bad[0].get('err', '')[-300:]}")
            continue
        cpu, rss = sorted(r["cpu"] for r in runs), sorted(r["rss_mib"] for r in runs)
        print(f"  {what:<24} {cpu[0]:7.2f} (median {cpu[len(cpu) // 2]:.2f}) CPU s  {rss[0]:6.0f} (median "
              f"{rss[len(rss) // 2]:.0f}) MiB peak RSS, {len(runs)} run(s)   ({target})")
    print("  load average: " + " ".join(f"{x:.1f}" for x in os.getloadavg()))
    if out.exists():
        print(f"  release: {out.stat().st_size / 2**20:.1f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
