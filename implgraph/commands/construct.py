"""``implgraph construct --t T --k K FILE.csv --attribute NAME --out OUT.csv``: the bucketization
construction of domingo-ferrer2015 Section 6 on a CSV.

The output holds every input record with two more columns, ``bucket`` (B1..B{t+1}) and ``class``
(E1..Em); the achieved multiplicative t is computed exactly by the core and printed.
"""

from __future__ import annotations

import csv
import io
import json
import os

from implgraph.mechanisms.construct import check_t, construct, read_attribute
from implgraph.core.errors import InputError
from implgraph.core.formula import parse_number
from implgraph.io.output import check_output_path, write_output

NAME = "construct"
HELP = "bucketize a numeric attribute into t+1 buckets and partition into k-classes reaching multiplicative t-closeness"
ORDER = 70


def add_arguments(p):
    p.add_argument("file", help="the input CSV (with a header)")
    p.add_argument("--t", required=True, help="the requested multiplicative t-closeness level (integer >= 1)")
    p.add_argument("--k", required=True, type=int, help="the minimum class size")
    p.add_argument("--attribute", required=True, help="the numeric confidential attribute's column")
    p.add_argument("--out", required=True, help="the output CSV")
    p.add_argument("--definition", metavar="NAME", default=None,
                   help="the definition whose level is reached and checked (default: the registered class-based "
                        "definition whose level is the raw ratio, t >= 1)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")


def check_not_input(infile, out):
    """InputError if ``out`` is the input file (any spelling, a symlink or a hard link to it)."""
    try:
        same = os.path.exists(out) and os.path.samefile(infile, out)
    except OSError:
        same = False
    if same:
        raise InputError(f"--out {out} is the input file", file=str(infile),
                         fix="write the output to another file")


def run(args) -> int:
    t = check_t(parse_number(args.t, "--t"))       # bounded and exact (1e999999999 is refused, not computed)
    check_output_path(args.out)
    check_not_input(args.file, args.out)
    header, rows, values = read_attribute(args.file, args.attribute)
    if args.k > len(rows):
        raise InputError(f"k = {args.k} is larger than the data ({len(rows)} records)", file=args.file,
                         fix=f"choose k <= {len(rows)}")
    for extra in ("bucket", "class"):
        if extra in header:
            raise InputError(f"the input already has a column {extra!r}", file=args.file, line=1,
                             fix="rename that column")
    r = construct(values, t, args.k, args.definition)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header + ["bucket", "class"])
    for rec, b, c in zip(rows, r.bucket, r.cls):
        w.writerow(list(rec) + [f"B{b + 1}", f"E{c + 1}"])
    write_output(args.out, buf.getvalue())
    summary = {
        "file": args.file, "out": args.out, "N": len(rows), "requested_t": t, "k": args.k,
        "achieved_t": str(r.t), "achieved_t_float": float(r.t), "meets_t": r.meets,
        "buckets": [{"name": f"B{i + 1}", "size": s, "min": str(lo), "max": str(hi)}
                    for i, (s, (lo, hi)) in enumerate(zip(r.sizes, r.ranges))],
        "classes": len(r.compositions), "min_class_size": r.min_class,
    }
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(f"{args.file}: N = {len(rows)}, t + 1 = {t + 1} buckets of sizes {r.sizes}, "
              f"{len(r.compositions)} classes (smallest {r.min_class} >= k = {args.k})")
        print(f"achieved multiplicative t = {r.t} ({float(r.t):.6g}) <= requested t = {t}: {r.meets}")
        print(f"wrote {args.out}")
    return 0 if r.meets else 1
