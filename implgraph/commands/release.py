"""``implgraph release DATA --mechanism M --sensitive COL [--qi ...] [--p P] [--json]``: exact levels of a
mechanism's release of microdata.

The mechanism (:data:`implgraph.mechanisms.on_data.MECHANISMS`) is applied to the sensitive column of
the records; the release is kept grouped (one row per class and value with its count,
:func:`implgraph.mechanisms.on_data.release`) and every registered definition's exact level of it is
printed, as ``implgraph levels`` prints the data's own.
"""

from __future__ import annotations

from implgraph.commands.levels import _columns, _named_params, _print_levels
from implgraph.core.errors import InputError, printable
from implgraph.core.formula import parse_number
from implgraph.io.output import print_json

NAME = "release"
HELP = "apply a mechanism (randomised response, set channel, bucketization) to microdata and print the exact levels of the release"
ORDER = 11

#: the options each mechanism reads
OPTIONS = {"randomised-response": "--p", "empirical-response": "--p", "set-channel": "--p, --eta",
           "bucketization": "--t, --class-size for k"}


def add_mechanism_arguments(p, required: bool = True) -> None:
    """``--mechanism`` and its parameters (shared with ``implgraph guarantees``)."""
    from implgraph.mechanisms.on_data import MECHANISMS
    p.add_argument("--mechanism", required=required, choices=list(MECHANISMS),
                   help="; ".join(f"{k}: {v} ({OPTIONS[k]})" for k, v in MECHANISMS.items()))
    p.add_argument("--p", help="keep probability of a channel mechanism (exact, e.g. 1/2)")
    p.add_argument("--eta", type=int, help="set-channel: size of the released sets")
    p.add_argument("--t", type=int, help="bucketization: the multiplicative t (t + 1 buckets)")
    p.add_argument("--class-size", type=int, dest="class_size",
                   help="bucketization: the smallest class size k of the construction")


def add_arguments(p):
    p.add_argument("file", help="microdata: a .csv or .parquet file, one record per row")
    p.add_argument("--sensitive", required=True, help="the sensitive column the mechanism releases (one)")
    p.add_argument("--qi", help="the quasi-identifier columns, comma-separated (the classes of a channel's "
                                "release; bucketization makes its own classes)")
    add_mechanism_arguments(p)
    p.add_argument("--k", type=int, help="group size of the definitions with a parameter k (default 2)")
    p.add_argument("--ground", choices=["equal", "ordered"], default=None,
                   help="EMD ground distance (default equal)")
    p.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="a parameter for every definition declaring it, e.g. delta=1/100 (repeatable)")
    p.add_argument("--json", action="store_true", help="print JSON")


def released_table(args):
    """The grouped release the arguments describe (one sensitive column)."""
    from implgraph.mechanisms.on_data import release
    sensitive = _columns(args.sensitive, "--sensitive")
    if len(sensitive) != 1:
        raise InputError(f"--sensitive {args.sensitive!r}: a mechanism releases one column", file=args.file,
                         fix="give one column, e.g. --sensitive disease")
    p = None if args.p is None else parse_number(args.p, "--p")        # bounded, exact: never evaluated
    return release(args.file, _columns(args.qi), sensitive[0], args.mechanism, p=p, eta=args.eta,
                   t=args.t, k=args.class_size, file=args.file)


def run(args) -> int:
    from implgraph.io.microdata import table_levels
    table = released_table(args)
    if args.k is not None and not 1 <= args.k <= table.N - 1:
        raise InputError(f"--k {args.k} is out of range for N = {table.N}", file=args.file,
                         fix=f"choose 1 <= k <= {table.N - 1}")
    levels = table_levels(table, _named_params(args))
    n_classes = len(table.class_labels or [])
    if args.json:
        print_json({"file": args.file, "release": table.id, "N": table.N, "classes": n_classes,
                    "distinct_rows": len(table.counts), "buckets": table.buckets,
                    "definitions": {name: lv.to_json() for name, lv in levels.items()}})
        return 0
    print(printable(f"{args.file}: {table.id}; N = {table.N} records, {n_classes} classes, "
                    f"{len(table.counts)} distinct (class, row) groups"))
    shown = ", ".join(table.buckets[:6]) + (", ..." if len(table.buckets) > 6 else "")
    print(printable(f"released values: {len(table.buckets)} ({shown})"))
    _print_levels(levels)
    return 0
