"""``implgraph levels FILE [--k K] [--json]``: every definition's optimal level for a table.

``FILE`` is a table (a YAML data file, or a CSV of probabilities with an optional ``class`` column),
or microdata (a CSV or Parquet file of records) read with ``--qi`` and ``--sensitive``
(:mod:`implgraph.io.microdata`): one result per sensitive column.
"""

from __future__ import annotations

from pathlib import Path

import sympy

from implgraph.definitions import all_definitions, get as get_definition
from implgraph.core.errors import InputError, printable
from implgraph.definitions.levels import all_levels
from implgraph.io.output import print_json
from implgraph.io.tablefile import load_csv, load_table_file

NAME = "levels"
HELP = "print every definition's optimal level for a table (YAML data file or CSV) or for microdata (--qi, --sensitive)"
ORDER = 10


def add_arguments(p):
    p.add_argument("file", help="a table data file (.yaml), a CSV (optional `class` column, one column per bucket), "
                                "or microdata (.csv, .parquet: one record per row) with --qi and --sensitive")
    p.add_argument("--id", help="the table id when the data file holds several tables")
    p.add_argument("--k", type=int, help="group size of the definitions with a parameter k "
                                         "(default 2, or the file's `show:`)")
    p.add_argument("--ground", choices=["equal", "ordered"], default=None,
                   help="EMD ground distance of the definitions with a parameter ground (default equal; for "
                        "microdata: ordered for a numeric sensitive column, equal otherwise)")
    p.add_argument("--qi", help="microdata: the quasi-identifier columns, comma-separated (records with equal "
                                "values form an equivalence class)")
    p.add_argument("--sensitive", help="microdata: the sensitive column(s), comma-separated (one result each)")
    p.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="microdata: a parameter for every definition declaring it, e.g. delta=1/100 or l=2 "
                        "(repeatable)")
    p.add_argument("--json", action="store_true", help="print JSON")


def load_any(path: str, table_id=None):
    suffix = Path(path).suffix.lower()
    if suffix == ".csv":
        try:
            return load_csv(path), {}
        except InputError as exc:
            if "not a number" not in exc.reason:
                raise
            raise InputError(exc.reason, file=exc.file, line=exc.line,
                             fix=f"{exc.fix}; or, for microdata (one record per row), give --qi COLUMNS "
                                 f"--sensitive COLUMN") from None
    if suffix in (".yaml", ".yml"):
        table = load_table_file(path, table_id)
        show = {}
        for name, params in (table.meta.get("show") or {}).items():
            words = get_definition(str(name)).words        # (the names are checked when the file is read)
            show[name] = {k: str(v) if k in words else _parse(v, table) for k, v in (params or {}).items()}
        return table, show
    if suffix in (".parquet", ".pq"):
        raise InputError("a Parquet file holds microdata", file=path, fix="give --qi COLUMNS --sensitive COLUMN")
    raise InputError(f"unknown file type {suffix or '(none)'}", file=path, fix="give a .csv or .yaml file")


def _parse(v, table):
    from implgraph.core.formula import parse_expr
    return parse_expr(v, table.symbols)


def _check_k(k: int, n, file) -> None:
    """``--k`` must lie in [1, N - 1] (N concrete) or be at least 1 (N symbolic)."""
    concrete = isinstance(n, int) or (isinstance(n, sympy.Basic) and n.is_Integer)
    if concrete and not 1 <= k <= int(n) - 1:
        raise InputError(f"--k {k} is out of range for N = {n}", file=file, fix=f"choose 1 <= k <= {int(n) - 1}")
    if k < 1:
        raise InputError(f"--k {k} is out of range", file=file, fix="choose k >= 1 (and at most N - 1)")


def run(args) -> int:
    if args.qi is not None or args.sensitive is not None:
        return run_microdata(args)
    table, show = load_any(args.file, args.id)
    n = table.N if hasattr(table, "N") else table.size
    if args.k is not None:
        _check_k(args.k, n, args.file)
        show = {name: {**params, "k": args.k} for name, params in show.items()}
        for d in all_definitions():          # every definition with a group-size parameter k
            if "k" in d.params:
                show.setdefault(d.name, {"k": args.k})
    if args.ground:
        for d in all_definitions():          # every definition with a ground distance
            if "ground" in d.params:
                show[d.name] = {"ground": args.ground}
    levels = all_levels(table, k=args.k, show=show)
    if args.json:
        print_json({"file": args.file, "N": str(n), "definitions": {name: lv.to_json() for name, lv in levels.items()}})
        return 0
    print(printable(f"{args.file}: N = {n}, buckets = {', '.join(table.buckets)}"))
    _print_levels(levels)
    return 0


def _columns(text, option="--qi"):
    """The column names of a comma-separated option (``--qi age,zip``); None (the option not given) is none.

    Raises
    ------
    InputError
        An empty name (``--qi ''``, ``--qi age,,zip``): leave the option out for no columns.
    """
    if text is None:
        return []
    names = [c.strip() for c in str(text).split(",")]
    if not all(names):
        raise InputError(f"{option} {text[:80]!r} has an empty column name",
                         fix=f"give column names separated by commas, e.g. {option} age,zip"
                             + (" (or leave --qi out for no classes)" if option == "--qi" else ""))
    return names


def run_microdata(args) -> int:
    """``levels DATA --qi ... --sensitive ...``: the exact levels of microdata, per sensitive column."""
    from implgraph.io.microdata import default_ground, infinite_reason, microdata_tables, read_microdata, \
        table_levels
    if args.id:
        raise InputError("--id names a table of a YAML data file", file=args.file, fix="leave --id out for microdata")
    qi, sensitive = _columns(args.qi), _columns(args.sensitive, "--sensitive")
    df = read_microdata(args.file)
    tables = microdata_tables(df, qi, sensitive, file=args.file)
    n = len(df)
    if args.k is not None:
        _check_k(args.k, n, args.file)
    params = _named_params(args)
    results = {}
    for col, ct in tables.items():
        levels = table_levels(ct, params, ground=default_ground(df, col))
        results[col] = (ct, levels, {name: infinite_reason(lv, ct) for name, lv in levels.items()})
    n_classes = len(next(iter(tables.values())).class_labels or []) if qi else 0
    if args.json:
        print_json({"file": args.file, "N": n, "qi": qi, "classes": n_classes, "deterministic": True,
                    "sensitive": {col: {"buckets": ct.buckets,
                                        "definitions": {name: {**lv.to_json(),
                                                               **({"infinite_because": why[name]} if why[name] else {})}
                                                        for name, lv in levels.items()}}
                                  for col, (ct, levels, why) in results.items()}})
        return 0
    where = f"{n_classes} equivalence classes on {', '.join(qi)}" if qi else "no quasi-identifiers (no classes)"
    print(printable(f"{args.file}: N = {n} records, {where}; deterministic (every record holds its value with "
                    "probability 1)"))
    for col, (ct, levels, why) in results.items():
        shown = ", ".join(ct.buckets[:8]) + (", ..." if len(ct.buckets) > 8 else "")
        print(printable(f"sensitive {col}: {len(ct.buckets)} values ({shown})"))
        _print_levels(levels, why)
    return 0


def _named_params(args) -> dict:
    """``--param NAME=VALUE`` (with ``--k`` and ``--ground``) as ``{name: value}``."""
    params = {}
    for item in args.param:
        name, sep, value = item.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise InputError(f"--param {item!r} is not NAME=VALUE", file=args.file, fix="write e.g. --param delta=1/100")
        if name.strip() in params:
            raise InputError(f"--param {name.strip()[:40]!r} is given twice", fix="give each parameter once")
        params[name.strip()] = value.strip()
    for key, value in (("k", args.k), ("ground", args.ground)):
        if value is None or value == "":
            continue
        if key in params:
            raise InputError(f"{key} is given by both --{key} and --param {key}=...", fix=f"give --{key} once")
        params[key] = value
    return params


def _print_levels(levels, why=None):
    labels = {}
    for name, lv in levels.items():
        params = ", ".join(f"{k}={v}" for k, v in lv.params.items())
        labels[name] = f"{name}({params})" if params else name
    width = max(len(label) for label in labels.values())
    for name, lv in levels.items():
        sym = lv.definition.level_symbol
        note = f"  ({why[name]})" if why and why.get(name) else ""
        print(f"  {labels[name]:<{width}}  {sym} = {lv}{note}")
