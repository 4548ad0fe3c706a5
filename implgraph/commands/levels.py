"""``implgraph levels FILE [--k K] [--json]``: every definition's optimal level for a table."""

from __future__ import annotations

from pathlib import Path

import sympy

from implgraph.definitions import all_definitions
from implgraph.core.errors import InputError
from implgraph.core.levels import all_levels
from implgraph.io.output import print_json
from implgraph.core.table import load_csv, load_table_file

NAME = "levels"
HELP = "print every definition's optimal level for a table (YAML data file or CSV)"
ORDER = 10


def add_arguments(p):
    p.add_argument("file", help="a table data file (.yaml) or a CSV (optional `class` column, one column per bucket)")
    p.add_argument("--id", help="the table id when the data file holds several tables")
    p.add_argument("--k", type=int, help="group size for kt-closeness and kdp (default 2, or the file's `show:`)")
    p.add_argument("--ground", choices=["equal", "ordered"], default=None,
                   help="EMD ground distance for emd-t-closeness (default equal)")
    p.add_argument("--json", action="store_true", help="print JSON")


def load_any(path: str, table_id=None):
    suffix = Path(path).suffix.lower()
    if suffix == ".csv":
        return load_csv(path), {}
    if suffix in (".yaml", ".yml"):
        table = load_table_file(path, table_id)
        show = {}
        for name, params in (table.meta.get("show") or {}).items():
            show[name] = {k: _parse(v, table) for k, v in (params or {}).items()}
        return table, show
    raise InputError(f"unknown file type {suffix or '(none)'}", file=path, fix="give a .csv or .yaml file")


def _parse(v, table):
    from implgraph.core.formula import parse_expr
    if isinstance(v, str) and v in ("equal", "ordered"):
        return v
    return parse_expr(v, table.symbols)


def _check_k(k: int, n, file) -> None:
    """``--k`` must lie in [1, N - 1] (N concrete) or be at least 1 (N symbolic)."""
    concrete = isinstance(n, int) or (isinstance(n, sympy.Basic) and n.is_Integer)
    if concrete and not 1 <= k <= int(n) - 1:
        raise InputError(f"--k {k} is out of range for N = {n}", file=file, fix=f"choose 1 <= k <= {int(n) - 1}")
    if k < 1:
        raise InputError(f"--k {k} is out of range", file=file, fix="choose k >= 1 (and at most N - 1)")


def run(args) -> int:
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
    print(f"{args.file}: N = {n}, buckets = {', '.join(table.buckets)}")
    labels = {}
    for name, lv in levels.items():
        params = ", ".join(f"{k}={v}" for k, v in lv.params.items())
        labels[name] = f"{name}({params})" if params else name
    width = max(len(label) for label in labels.values())
    for name, lv in levels.items():
        sym = lv.definition.level_symbol
        print(f"  {labels[name]:<{width}}  {sym} = {lv}")
    return 0
