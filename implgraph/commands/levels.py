"""``implgraph levels FILE [--k K] [--json]``: every definition's optimal level for a table.

``FILE`` is a table (a YAML data file, or a CSV of probabilities with an optional ``class`` column),
or microdata (a CSV or Parquet file of records) read with ``--qi`` and ``--sensitive``
(:mod:`implgraph.io.microdata`): one result per sensitive column.
"""

from __future__ import annotations

from pathlib import Path

from implgraph.core.errors import InputError, printable
from implgraph.io.console import level_with_decimal, quiet
from implgraph.io.output import print_json

NAME = "levels"
HELP = "print every definition's optimal level for a table (YAML data file or CSV) or for microdata (--qi, --sensitive)"
ORDER = 10


def add_arguments(p):
    p.add_argument("file", help="a table data file (.yaml), a CSV (optional `class` column, one column per bucket), "
                                "or microdata (.csv, .parquet: one record per row) with --qi and --sensitive")
    p.add_argument("--id", help="the table id when the data file holds several tables")
    add_microdata_arguments(p)
    p.add_argument("--convention", choices=["definition", "pycanon"], default=None,
                   help="microdata: 'pycanon' gives pyCANON's values where its convention differs from the "
                        "definition (delta-disclosure skips the values a class lacks; enhanced beta-likeness is "
                        "min(beta, -ln min p)), labelled, the definition's level beside them (default: definition)")
    p.add_argument("--require", metavar="NAME=VALUE[,...]",
                   help="microdata: requirements, e.g. k=5,emd-t-closeness=1/5 (a definition's name, or its level "
                        "symbol when only one definition has it): each is reported pass or fail with the violating "
                        "classes; exit 1 when one fails")
    p.add_argument("--definitions", metavar="NAME[,NAME...]|all",
                   help="microdata: the definitions whose levels are computed and printed (names, or level symbols "
                        "only one definition has; default: the required ones with --require, else all)")
    p.add_argument("--report", metavar="FILE.html|FILE.pdf",
                   help="microdata: also write a report (HTML, self-contained, with the class-size and per-class "
                        "level distributions as plots; PDF through Chromium when installed)")
    p.add_argument("--backend", choices=["auto", "pandas", "duckdb", "spark"], default=None,
                   help="microdata: who counts the records per class and value: pandas (in memory), duckdb "
                        "(embedded, out of core), spark (pyspark, for data beyond one machine), or auto (default: "
                        "duckdb for a file over a quarter of the memory available, when installed)")
    p.add_argument("--json", action="store_true", help="print JSON")


def add_microdata_arguments(p) -> None:
    """The options of ``levels`` and ``remedy`` that read microdata: the columns, the parameters, the reader's."""
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
    g = p.add_argument_group("reading microdata")
    g.add_argument("--sep", help="microdata: the separator of a text file, one character optionally followed by "
                                 "spaces (e.g. ';' or ', ' or '\\t'; default: sniffed, a tab for .tsv)")
    g.add_argument("--names", help="microdata: the column names, comma-separated (replacing the header's, or naming "
                                   "a file without one with --no-header)")
    g.add_argument("--no-header", action="store_true",
                   help="microdata: the first line is a record (columns are named by --names, else 1, 2, ...)")
    g.add_argument("--na", default=None, metavar="refuse|drop|LABEL",
                   help="microdata: a missing value in a used column is refused (default; the error names its "
                        "line), its records dropped, or read as the label LABEL")
    g.add_argument("--na-values", metavar="MARKER[,MARKER...]",
                   help="microdata: cells read as missing besides pandas' markers ('', NA, nan, ...), e.g. '?'")


def load_any(path: str, table_id=None):
    from implgraph.io.tablefile import load_csv, load_table_file      # (not imported on the microdata path)
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
        from implgraph.definitions import get as get_definition
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
    import sympy
    concrete = isinstance(n, int) or (isinstance(n, sympy.Basic) and n.is_Integer)
    if concrete and not 1 <= k <= int(n) - 1:
        raise InputError(f"--k {k} is out of range for N = {n}", file=file, fix=f"choose 1 <= k <= {int(n) - 1}")
    if k < 1:
        raise InputError(f"--k {k} is out of range", file=file, fix="choose k >= 1 (and at most N - 1)")


def run(args) -> int:
    if args.qi is not None or args.sensitive is not None:
        return run_microdata(args)
    from implgraph.definitions import all_definitions
    from implgraph.definitions.levels import all_levels
    used = [opt for opt, value in (("--sep", args.sep), ("--names", args.names), ("--no-header", args.no_header),
                                   ("--na", args.na), ("--na-values", args.na_values), ("--require", args.require),
                                   ("--convention", args.convention), ("--report", args.report),
                                   ("--definitions", getattr(args, "definitions", None)),
                                   ("--backend", args.backend))
            if value]
    if used:
        raise InputError(f"{used[0]} reads microdata", file=args.file,
                         fix="give --qi COLUMNS --sensitive COLUMN (or leave the option out for a table file)")
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


def read_args(args):
    """``(df, qi, sensitive, options, dropped)``: the records of ``levels DATA`` / ``remedy DATA`` read with the
    reading options, the used columns checked, the missing-value policy applied."""
    from implgraph.io.microdata import apply_missing, check_names, read_microdata
    qi, sensitive, options = _reading(args)
    df = read_microdata(args.file, options=options)
    qi, sensitive = check_names(df, qi, sensitive, args.file)
    df, dropped = apply_missing(df, qi + sensitive, options.na, args.file)
    return df, qi, sensitive, options, dropped


def _reading(args):
    """``(qi, sensitive, reading options)`` of the command line, checked."""
    from implgraph.io.read_options import ReadOptions
    if getattr(args, "id", None):
        raise InputError("--id names a table of a YAML data file", file=args.file, fix="leave --id out for microdata")
    qi, sensitive = _columns(args.qi), _columns(args.sensitive, "--sensitive")
    options = ReadOptions.from_text(sep=args.sep, names=args.names, header=not args.no_header, na=args.na,
                                    na_values=args.na_values)
    return qi, sensitive, options


def count_args(args):
    """``(tables, N, qi, sensitive, options, dropped, grounds)``: the count tables of ``levels DATA``, counted by
    the backend ``--backend`` chooses (:mod:`implgraph.io.counting`)."""
    from implgraph.io.counting import choose_backend, count_tables
    from implgraph.io.microdata import count_records, default_ground, read_microdata
    backend = choose_backend(getattr(args, "backend", None), args.file)
    if backend in ("duckdb", "spark"):
        qi, sensitive, options = _reading(args)
        tables, n, dropped, numeric = count_tables(args.file, qi, sensitive, options, args.file, engine=backend)
        grounds = {col: "ordered" if numeric[col] else "equal" for col in sensitive}
        return tables, n, qi, sensitive, options, dropped, grounds
    qi, sensitive, options = _reading(args)
    df = read_microdata(args.file, options=options)
    tables, n, dropped = count_records(df, qi, sensitive, args.file, options.na)
    return tables, n, qi, sensitive, options, dropped, {col: default_ground(df, col) for col in sensitive}


def column_results(tables, n, grounds, args, requirements) -> dict:
    """``{column: (table, levels, why infinite, requirement checks, the definition's levels where a convention
    differs)}`` of every sensitive column."""
    from implgraph.io.microdata import infinite_reason, table_levels
    from implgraph.io.requirements import check_requirement
    if args.k is not None:
        _check_k(args.k, n, args.file)
    params = _named_params(args)
    only = selected(args, requirements)
    pycanon = getattr(args, "convention", None) == "pycanon"
    results = {}
    for col, ct in tables.items():
        levels = table_levels(ct, params, ground=grounds[col], only=_with_needed(only) if pycanon else only)
        why = {name: infinite_reason(lv, ct) for name, lv in levels.items()}
        literal = {}
        if pycanon:
            levels, literal = _convention(levels, ct, why)
            if only is not None:            # the levels a convention reads, computed for it, not shown
                levels = {name: lv for name, lv in levels.items() if name in only}
        for req in requirements:
            if req.definition.name not in levels:
                raise InputError(f"--require {req.text}: {req.definition.name} has no level here", file=args.file,
                                 fix="require a definition `implgraph definitions` lists")
        checks = [check_requirement(req, levels[req.definition.name], ct) for req in requirements]
        results[col] = (ct, levels, why, checks, literal)
    return results


def selected(args, requirements):
    """The names of the definitions whose levels ``levels DATA`` computes (None: every one): ``--definitions``
    (``all``: every one) and the required ones; without ``--definitions``, the required ones when ``--require``
    is given, else every one."""
    from implgraph.io.requirements import parse_definitions
    text = getattr(args, "definitions", None)
    if text is None:
        return {r.definition.name for r in requirements} or None
    names = parse_definitions(text)
    return None if names is None else set(names) | {r.definition.name for r in requirements}


def _with_needed(only):
    """``only`` with the definitions whose level a selected definition's declared finite level reads
    (:class:`~implgraph.definitions.capabilities.FiniteLevelOf`: pyCANON's enhanced beta-likeness reads basic
    beta-likeness); None stays None (every definition)."""
    if only is None:
        return None
    from implgraph.definitions import get
    from implgraph.definitions.capabilities import FiniteLevelOf
    needed = {get(name).declared(FiniteLevelOf) for name in only}
    return set(only) | {f.name for f in needed if f is not None}


def run_microdata(args) -> int:
    """``levels DATA --qi ... --sensitive ...``: the exact levels of microdata, per sensitive column; with
    ``--require``, each requirement's pass or fail and exit 1 when one fails."""
    from implgraph.io import microdata_fast
    from implgraph.io.requirements import parse_requirements
    fast = microdata_fast.plan(args)        # every level a count or a ratio of counts: no sympy, no registry
    requirements = fast.requirements if fast else parse_requirements(args.require) if args.require is not None \
        else []
    if args.report:
        from implgraph.io.report import check_report_path
        check_report_path(args.report, [args.file])
    tables, n, qi, sensitive, options, dropped, grounds = count_args(args)
    results = microdata_fast.column_results(fast, tables, grounds, args) if fast else None
    if results is None:
        if fast:
            requirements = parse_requirements(args.require) if args.require is not None else []
        results = column_results(tables, n, grounds, args, requirements)
    n_classes = len(next(iter(results.values()))[0].class_labels or []) if qi else 0
    failed = any(c["holds"] is not True for _, _, _, checks, _ in results.values() for c in checks)
    summary = {"file": args.file, "N": n, "qi": qi, "classes": n_classes, "dropped": dropped,
               "na": options.na, "requirements": bool(requirements), "failed": failed,
               "selected": fast is not None or selected(args, requirements) is not None}
    if getattr(args, "report", None):
        from implgraph.io.report import write_report
        write_report(args.report, summary, results, args.file)
    if args.json:
        print_json(_json(summary, results, args.convention))
    else:
        _print_microdata(summary, results)
    return 1 if failed else 0


def _json(summary, results, convention) -> dict:
    """The JSON of ``levels DATA``."""
    def definitions(levels, why, literal):
        return {name: {**lv.to_json(),
                       **({"infinite_because": why[name]} if why[name] and name not in literal else {}),
                       **({"convention": "pycanon", "note": why[name], "definition_level": literal[name]}
                          if name in literal else {})}
                for name, lv in levels.items()}
    return {"file": summary["file"], "N": summary["N"], "qi": summary["qi"], "classes": summary["classes"],
            "deterministic": True, **({"dropped": summary["dropped"]} if summary["na"] == "drop" else {}),
            "sensitive": {col: {"buckets": ct.buckets, "definitions": definitions(levels, why, literal),
                                **({"requirements": checks} if summary["requirements"] else {})}
                          for col, (ct, levels, why, checks, literal) in results.items()},
            **({"convention": convention} if convention else {}),
            **({"requirements_hold": not summary["failed"]} if summary["requirements"] else {})}


def _print_microdata(summary, results) -> None:
    """The text of ``levels DATA``."""
    qi = summary["qi"]
    where = f"{summary['classes']} equivalence classes on {', '.join(qi)}" if qi else \
        "no quasi-identifiers (no classes)"
    print(printable(f"{summary['file']}: N = {summary['N']} records, {where}; deterministic (every record holds its "
                    "value with probability 1)"))
    if summary["dropped"]:
        print(printable(f"dropped {summary['dropped']} record(s) with a missing value in "
                        f"{', '.join(qi + list(results))} (--na drop)"))
    for col, (ct, levels, why, checks, _) in results.items():
        shown = ", ".join(ct.buckets[:8]) + (", ..." if len(ct.buckets) > 8 else "")
        print(printable(f"sensitive {col}: {len(ct.buckets)} values ({shown})"))
        if summary.get("selected") and not quiet():
            print("  (the levels of the definitions required or named by --definitions; --definitions all gives "
                  "every one)")
        _print_levels(levels, why)
        if checks:
            _print_checks(checks, levels)
    if summary["requirements"]:
        print("requirements: " + ("FAIL (exit 1)" if summary["failed"] else "all hold"))


def _convention(levels, ct, why):
    """The levels with pyCANON's values where its convention differs (:mod:`implgraph.io.conventions`), the
    reason in ``why`` (the definition's level named there), and ``{name: the definition's level as text}``."""
    import sympy
    from implgraph.core.pieces import Piece
    from implgraph.definitions.levels import Level
    from implgraph.io.conventions import pycanon_levels
    out, literal = dict(levels), {}
    for name, (value, note) in pycanon_levels(levels, ct).items():
        lv = levels[name]
        literal[name] = str(lv.value)
        out[name] = Level(lv.definition, dict(lv.params), [Piece(sympy.true, lv.definition.raw_from_level(value))])
        why[name] = f"{note}; the definition's level is {lv.value}"
    return out, literal


def _records(n: int) -> str:
    return f"{n} record" + ("" if n == 1 else "s")


def _print_checks(checks, levels) -> None:
    """Each requirement's pass or fail on one sensitive column, with the violating classes."""
    print("  requirements:")
    for c in checks:
        lv = levels[c["definition"]]
        sym = lv.definition.level_symbol
        verdict = {True: "pass", False: "FAIL", None: "undecided"}[c["holds"]]
        print(printable(f"    {verdict:<9} {c['requirement']:<16} ({c['definition']}: {sym} = {level_with_decimal(lv)})"))
        if c.get("note"):
            print(printable(f"              {c['note']}"))
        v = c.get("violating")
        if v:
            print(printable(f"              {v['classes']} of {v['of_classes']} classes violate it, holding "
                            f"{_records(v['records'])}" + (":" if len(v["worst"]) == v["classes"]
                                                              else f"; the worst {len(v['worst'])}:")))
            for w in v["worst"]:
                print(printable(f"                {w['class']}: {_records(w['records'])}, {sym} = {w['level']}"))


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
    if quiet():         # -q: the headings and the requirements only, no row per definition
        return
    labels = {}
    for name, lv in levels.items():
        params = ", ".join(f"{k}={v}" for k, v in lv.params.items())
        labels[name] = f"{name}({params})" if params else name
    width = max(len(label) for label in labels.values())
    for name, lv in levels.items():
        sym = lv.definition.level_symbol
        note = f"  ({why[name]})" if why and why.get(name) else ""
        print(f"  {labels[name]:<{width}}  {sym} = {level_with_decimal(lv)}{note}")
