"""``implgraph reconstruct OUT --attributes COLS``: the cross tabulation of a release (sei2019 Section V-D).

Reads a release written by ``implgraph anonymize`` and estimates the number of original records in every
cell of ``D(S'_1) x ... x D(S'_q')``, by the Bayes reconstruction (eq. 19-27, default) or ValueAdding
(eq. 17-18). With ``--truth DATA`` (the original CSV) it also prints the L1, L2 and Hellinger distances
(Definitions 7-9) between the true and the reconstructed counts.
"""

from __future__ import annotations

import itertools
import time

import numpy as np

from implgraph.core.errors import InputError, printable
from implgraph.io.console import Progress
from implgraph.io.output import print_json
from implgraph.mechanisms.randomized_anonymization.distances import hellinger, l1, l2
from implgraph.mechanisms.randomized_anonymization.reconstruct import bayes, true_counts, value_adding
from implgraph.mechanisms.randomized_anonymization.columns import coded, read_header, read_table
from implgraph.mechanisms.randomized_anonymization.release import Release

NAME = "reconstruct"
HELP = "reconstruct a cross tabulation from a release of `implgraph anonymize` (Bayes or ValueAdding)"
ORDER = 76

MAX_CELLS = 1_000_000
"""Largest cross tabulation the command builds."""


def add_arguments(p):
    p.add_argument("release", help="the release (Parquet, or JSON) written by `implgraph anonymize --out`")
    p.add_argument("--attributes", required=True, help="comma-separated attributes S' to cross-tabulate")
    p.add_argument("--method", choices=["bayes", "value-adding"], default="bayes",
                   help="reconstruction (default bayes)")
    p.add_argument("--truth", metavar="DATA", help="the original CSV: also print L1, L2 and Hellinger distances")
    p.add_argument("--tol", type=float, default=1e-2,
                   help="Bayes: stop when no cell moves by more than this many records (default 1e-2)")
    p.add_argument("--json", action="store_true", help="print JSON")


def _truth_codes(path, release, attrs) -> list:
    """The original data's value indices of ``attrs`` in the release's domains (a kept column's cells as they
    are, a randomized one's stripped, as `implgraph anonymize` read them)."""
    header = read_header(path)
    for a in attrs:
        if a not in header:
            raise InputError(f"no column {a!r} (columns: {', '.join(header)})", file=path, line=1,
                             fix="give the CSV the release was made from")
    table = read_table(path, header, attrs)
    if table.num_rows != release.N:
        raise InputError(f"{table.num_rows} records, the release has {release.N}", file=path,
                         fix="give the CSV the release was made from")
    out = []
    for a in attrs:
        j = release.index(a)
        codes, values = coded(table.column(a), strip=not release.is_kept(j))
        pos = {v: k for k, v in enumerate(release.domains[j])}
        missing = next((v for v in values if v not in pos), None)
        if missing is not None:
            raise InputError(f"value {missing[:40]!r} of {a} is not in the release's domain", file=path,
                             fix="give the CSV the release was made from")
        out.append(np.array([pos[v] for v in values], dtype=np.int64)[codes])
    return out


def run(args) -> int:
    if not 0 < args.tol < float("inf"):
        raise InputError(f"--tol {args.tol} is out of range", fix="give a finite --tol > 0 (records)")
    attrs = [a.strip() for a in args.attributes.split(",") if a.strip()]
    if not attrs or len(set(attrs)) != len(attrs):
        raise InputError(f"--attributes {args.attributes!r} names no attribute or one twice",
                         fix="give distinct attribute names")
    release = Release.load(args.release, columns=attrs)        # a Parquet release: only these columns are read
    idx = [release.index(a) for a in attrs]
    shape = tuple(len(release.domains[j]) for j in idx)
    cells = int(np.prod(shape))
    if cells > MAX_CELLS:
        raise InputError(f"the cross tabulation has {cells} cells", file=args.release,
                         fix=f"choose attributes with at most {MAX_CELLS} cells together")
    bar = Progress(1, "reconstruct")
    start = time.perf_counter()
    if args.method == "bayes":
        est = bayes(release, attrs, tol=args.tol)
        iterations, converged = est.iterations, est.converged
    else:
        est, iterations, converged = value_adding(release, attrs), 0, True
    seconds = time.perf_counter() - start
    bar.step(args.method)
    bar.close()
    truth = None
    if args.truth:
        truth = true_counts(_truth_codes(args.truth, release, attrs), shape)
    rows = []
    for cell in itertools.product(*(range(n) for n in shape)):
        row = {"cell": [release.domains[j][c] for j, c in zip(idx, cell)], "estimate": float(est[cell])}
        if truth is not None:
            row["true"] = int(truth[cell])
        rows.append(row)
    dist = None
    if truth is not None:
        x, xh = truth.ravel().astype(float), np.asarray(est, dtype=float).ravel()
        dist = {"L1": l1(x, xh), "L2": l2(x, xh), "Hellinger": hellinger(x, xh)}
    if args.json:
        print_json({"release": args.release, "attributes": attrs, "method": args.method, "N": release.N,
                    "iterations": iterations, "converged": converged, "seconds": seconds, "cells": rows,
                    "distances": dist})
        return 0
    # names and values come from the release file: shown with control characters escaped
    print(f"{printable(args.release)}: N = {release.N}, {args.method} over {printable(', '.join(attrs))} "
          f"({cells} cells, {iterations} iterations{'' if converged else ', stopped before --tol was met'}, "
          f"{seconds:.2f} s)")
    for row in rows:
        true = f"  true {row['true']}" if "true" in row else ""
        print(f"  {printable(' x '.join(row['cell']))}: {row['estimate']:.1f}{true}")
    if dist:
        print("  " + ", ".join(f"{k} = {v:.2f}" for k, v in dist.items()))
    return 0
