"""``implgraph guarantees DATA --qi ... --sensitive ... [--mechanism M ...] [--json] [--html OUT]``: what
follows from a dataset.

The exact levels of the data (or, with ``--mechanism``, of a mechanism's release of it) are measured
(:mod:`implgraph.io.microdata`); every chain of established implications of the map at this N then
gives an implied level for the other definitions (:func:`implgraph.map.guarantees.guarantees`). Per
definition the command prints the measured level, the strongest implied one with its why-trace (the
chain of claim ids) and the best of the two. ``--html OUT`` writes the same as a static page.
"""

from __future__ import annotations

from pathlib import Path

from implgraph.commands._data import add_data_arguments, data_sources
from implgraph.commands.levels import _check_k, _columns, _named_params
from implgraph.commands.release import add_mechanism_arguments
from implgraph.core.errors import InputError, printable
from implgraph.io.output import print_json

NAME = "guarantees"
HELP = "the levels of a dataset (or of a mechanism's release of it) and every level they imply through the map, with the why-trace"
PRINTS_VERDICTS = True
"""Its output carries verdict words: its ``--help`` explains them."""
ORDER = 13


def add_arguments(p):
    p.add_argument("file", help="microdata: a .csv or .parquet file, one record per row")
    p.add_argument("--qi", help="the quasi-identifier columns, comma-separated")
    p.add_argument("--sensitive", required=True, help="the sensitive column(s), comma-separated (one result each; "
                                                      "one with --mechanism)")
    p.add_argument("--k", type=int, help="group size of the definitions with a parameter k (default 2)")
    p.add_argument("--ground", choices=["equal", "ordered"], default=None,
                   help="EMD ground distance (default: ordered for a numeric column, equal otherwise)")
    p.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="a parameter for every definition declaring it, e.g. delta=1/100 (repeatable)")
    add_mechanism_arguments(p, required=False)
    p.add_argument("--max-length", type=int, default=5, help="longest chain of implications (default 5)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--html", metavar="OUT", help="also write a static HTML report to OUT")
    p.add_argument("--verify", action="store_true", help="recompute the verdicts of the edge claims now")
    p.add_argument("--verdicts", metavar="FILE", help="verdicts from a saved `implgraph verify --json`")
    add_data_arguments(p)


def _tables(args):
    """``{label: (grouped table, ground)}``: the data's tables per sensitive column, or the release."""
    from implgraph.io.microdata import default_ground, microdata_tables, read_microdata
    if args.mechanism:
        from implgraph.commands.release import released_table
        table = released_table(args)
        return {table.id: (table, None)}
    df = read_microdata(args.file)
    tables = microdata_tables(df, _columns(args.qi), _columns(args.sensitive, "--sensitive"), file=args.file)
    return {col: (t, default_ground(df, col)) for col, t in tables.items()}


def compute(args) -> dict:
    """``{label: (table, [Guarantee])}`` and the verdicts' source (``args.theorems``: the theorem files
    :func:`implgraph.commands._data.data_sources` gives)."""
    from implgraph.commands.map import load_verdicts
    from implgraph.io.microdata import infinite_reason, table_levels
    from implgraph.map.guarantees import class_sizes, guarantees
    from implgraph.map.rules import load_rules
    tables = _tables(args)
    first = next(iter(tables.values()))[0]
    if args.k is not None:
        _check_k(args.k, first.N, args.file)
    params = _named_params(args)
    verdicts, vsource = load_verdicts(args)
    rules = load_rules(args.theorems, verdicts)
    out, memo = {}, {}
    for label, (table, ground) in tables.items():
        levels = table_levels(table, params, ground=ground)
        gs = guarantees(rules, levels, table.N, class_sizes(table), max_length=args.max_length, memo=memo)
        if not args.mechanism:                 # the data: say where an infinite level comes from
            for g in gs:
                g.note = g.note or infinite_reason(levels[g.definition.name], table)
        out[label] = (table, gs)
    return out, vsource


def _check_options(args, inputs=()) -> None:
    """Refuse options that cannot be met before any work: --max-length out of 1..MAX_LENGTH, an --html path
    that is one of the ``inputs``, or not an .html file in an existing folder."""
    from implgraph.commands.path import MAX_LENGTH
    from implgraph.io.output import check_output_path
    if not 1 <= args.max_length <= MAX_LENGTH:
        raise InputError(f"--max-length {args.max_length} is out of range", fix=f"give 1 <= --max-length <= {MAX_LENGTH}")
    if args.html is not None:
        check_output_path(args.html, "--html", inputs)        # an input is named as such first
        from implgraph.io.output import _device
        if Path(args.html).suffix.lower() not in (".html", ".htm") and not _device(args.html):   # /dev/stdout
            raise InputError(f"--html {args.html}: the report is an HTML page", fix="give a file name ending in .html")


def run(args) -> int:
    from implgraph.commands.map import input_files
    from implgraph.io.guarantees_report import html_report, text_lines
    from implgraph.io.output import check_output_path, write_output
    inputs = [args.file, *input_files(args)]
    _check_options(args, inputs)
    with data_sources(args) as args.theorems:   # --theorems / --tables add to the bundled data; --only replaces it
        results, vsource = compute(args)
    if args.html:                   # all at once: a failed write leaves no truncated report
        write_output(args.html, html_report(args.file, results, vsource), "--html", inputs)
    if args.json:
        print_json({"file": args.file, "verdicts_from": vsource,
                    "tables": {label: {"N": t.N, "classes": len(t.class_labels or []), "buckets": t.buckets,
                                       "definitions": {g.definition.name: g.to_json() for g in gs}}
                               for label, (t, gs) in results.items()}})
        return 0
    from implgraph.io.console import quiet
    for line in text_lines(args.file, results, vsource):
        if not (quiet() and line.startswith(" ")):      # -q: the heading of each table, not its rows
            print(printable(line))
    if args.html:
        print(f"HTML report written to {args.html}")
    return 0
