"""sei2019's timing figures (Figs. 5 and 6) on a **synthetic** data set of the US Census shape.

The paper times its anonymization and reconstruction on US Census (2,458,285 records x 68 attributes), which the
project does not ship. This benchmark writes a synthetic CSV of that shape (``bench_sei2019_scale.census``: 68
categorical attributes of 2 to 20 values with skewed, seeded distributions; not the Census data) and runs the
commands a publisher runs, each in a process of its own:

- Fig. 5: ``implgraph anonymize`` of all records and all 68 attributes at ``--l`` in ``--levels`` (frequency
  diversity, ``p = 1, eta = l_j``, ``l_j = d_j - 1`` where ``d_j <= l``, the paper's rule), release written as
  Parquet and re-checked exactly before it is written;
- Fig. 6: ``implgraph reconstruct`` (Bayes, eq. 26-27, and ValueAdding, eq. 18) of ``--queries`` random sets of
  q' = 1..4 attributes of the ``l = 5`` release.

Figures are CPU seconds (user + system of the child, ``resource.getrusage``) and peak memory: the 2 cores are
shared, so wall time would measure the other jobs. The paper's machine (Xeon E5-2687W v2, 128 GB) and data
differ; its statements are "several tens of seconds" (Fig. 5) and "less than 10 min on average" even at q' = 4
(Fig. 6).

``python benchmarks/bench_sei2019_census.py [--levels 2 5 10] [--queries 3] [--figures docs/sei2019] [--folder DIR]``
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_sei2019_scale import CENSUS, census, measure  # noqa: E402

DOMAINS = [2 + (j * 2) % 19 for j in range(CENSUS[1])]
"""The attributes' domain sizes, as :func:`bench_sei2019_scale.census` draws them."""


def anonymize_times(py, env, data, folder, levels) -> dict:
    """``{l: measure(...)}`` of anonymizing every attribute at each ``l``; the releases stay in ``folder``."""
    qids = ",".join(f"q{j}" for j in range(CENSUS[1]))
    out = {}
    for level in levels:
        per_column = ",".join(str(level if d > level else d - 1) for d in DOMAINS)     # the paper's rule
        r = measure(py + ["anonymize", str(data), "--qid", qids, "--l", per_column, "--seed", "1",
                          "--out", str(folder / f"release-l{level}.parquet")], env)
        out[level] = r
        print(f"  anonymize, l = {level}: " + _shown(r), flush=True)
    return out


def reconstruct_times(py, env, release, queries, seed=2019) -> dict:
    """``{method: {q': [measure(...)]}}`` over ``queries`` random attribute sets of each size q' = 1..4."""
    rng = np.random.default_rng(seed)
    out = {}
    for q in (1, 2, 3, 4):
        for _ in range(queries):
            attrs = ",".join(f"q{j}" for j in sorted(rng.choice(CENSUS[1], q, replace=False)))
            for method in ("bayes", "value-adding"):
                r = measure(py + ["reconstruct", str(release), "--attributes", attrs, "--method", method, "--json"],
                            env)
                out.setdefault(method, {}).setdefault(q, []).append(r)
                print(f"  reconstruct q' = {q} ({attrs}), {method}: " + _shown(r), flush=True)
    return out


def _shown(r) -> str:
    if r.get("rc") != 0:
        return f"failed (exit {r.get('rc')}): {r.get('err', '')[-200:]}"
    return f"{r['cpu']:.2f} CPU s, {r['rss_mib']:.0f} MiB peak"


def plot(path, title, series, xlabel) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(5, 3.5))
    for label, (xs, ys) in series.items():
        ax.plot(xs, ys, marker="o", label=label)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("CPU seconds")
    ax.set_title(title, fontsize=9)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--levels", type=int, nargs="+", default=[2, 5, 10])
    ap.add_argument("--queries", type=int, default=3, help="random attribute sets per q' (default 3)")
    ap.add_argument("--figures", default=str(Path(__file__).resolve().parents[1] / "docs" / "sei2019"))
    ap.add_argument("--folder", help="where the data and the releases go (default: a temporary folder)")
    args = ap.parse_args(argv)
    folder = Path(args.folder or tempfile.mkdtemp(prefix="bench-sei2019-census-"))
    folder.mkdir(parents=True, exist_ok=True)
    data = folder / "census-shape.csv"
    if not data.exists():
        census(data, *CENSUS)
    print(f"synthetic data of the US Census shape: {CENSUS[0]:,} records x {CENSUS[1]} attributes, "
          f"CSV {data.stat().st_size / 2 ** 20:.0f} MiB (not the Census data)")
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    py = [sys.executable, "-m", "implgraph"]
    levels = sorted(set(args.levels) | {5})
    anon = anonymize_times(py, env, data, folder, levels)
    recon = reconstruct_times(py, env, folder / "release-l5.parquet", args.queries)
    print("  load average: " + " ".join(f"{x:.1f}" for x in os.getloadavg()))
    out = Path(args.figures)
    out.mkdir(parents=True, exist_ok=True)
    ok = [level for level in levels if anon[level].get("rc") == 0]
    plot(out / "fig5_census_synthetic.png", "Anonymization, all records and attributes\n(synthetic data of the "
         "US Census shape, 2,458,285 x 68)", {"proposed (p = 1, eta = l)": (ok, [anon[v]["cpu"] for v in ok])}, "l")
    series = {}
    for method, by_q in recon.items():
        qs = [q for q, rs in by_q.items() if all(r.get("rc") == 0 for r in rs)]
        series["proposed (Bayes)" if method == "bayes" else "ValueAdding"] = (
            qs, [float(np.mean([r["cpu"] for r in by_q[q]])) for q in qs])
        for q in qs:
            print(f"reconstruction {method} q' = {q}: mean {np.mean([r['cpu'] for r in by_q[q]]):.2f} CPU s, "
                  f"max {max(r['cpu'] for r in by_q[q]):.2f}")
    plot(out / "fig6_census_synthetic.png", "Reconstruction, l = 5 (mean CPU s per query)\n(synthetic data of the "
         "US Census shape)", series, "q'")
    print(f"figures in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
