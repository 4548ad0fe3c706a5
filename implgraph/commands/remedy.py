"""``implgraph remedy DATA --qi ... --sensitive ... --require ... [--suppress classes|records] [--out FILE]``.

The fewest records to suppress so that every requirement holds (:mod:`implgraph.io.remedy`): whole classes, or
records within classes; the cost (records suppressed, classes touched), whether it is the fewest (exact) or an
upper bound on the fewest, the exact levels after. With ``--out``, the records kept, re-checked, are written
(the named columns only; never over the input; a temporary file renamed).
"""

from __future__ import annotations

from implgraph.core.errors import InputError, printable
from implgraph.io.output import print_json

NAME = "remedy"
HELP = "the fewest records to suppress (whole classes or records within classes) so that --require holds"
ORDER = 11


def add_arguments(p):
    from implgraph.commands.levels import add_microdata_arguments
    p.add_argument("file", help="microdata (.csv, .tsv, .data, .txt, compressed, .parquet, .arrow: one record per row)")
    add_microdata_arguments(p)
    p.add_argument("--require", metavar="NAME=VALUE[,...]", required=True,
                   help="the requirements the remedied records must meet, e.g. k=5,distinct-l-diversity=2")
    p.add_argument("--suppress", choices=["classes", "records"], default="classes",
                   help="classes: leave out whole equivalence classes (default); records: leave out records within "
                        "classes (one sensitive column)")
    p.add_argument("--out", metavar="FILE",
                   help="write the records kept (.csv, .tsv, .parquet, .arrow), only the --qi and --sensitive "
                        "columns, after re-checking their exact levels; never the input file")
    p.add_argument("--json", action="store_true", help="print JSON")


def run(args) -> int:
    from implgraph.commands.levels import _named_params, read_args
    from implgraph.io.remedy import remedy
    from implgraph.io.remedy_write import check_out, write_records
    from implgraph.io.requirements import parse_requirements
    requirements = parse_requirements(args.require)
    if args.out is not None:
        check_out(args.out, [args.file])
    df, qi, sensitive, options, dropped = read_args(args)
    if not qi:
        raise InputError("a remedy by suppression needs equivalence classes", file=args.file,
                         fix="give --qi COLUMNS")
    params = _named_params(args)
    plan = remedy(df, qi, sensitive, requirements, params=params, mode=args.suppress, file=args.file)
    written = None
    if args.out is not None:
        from implgraph.io.remedy_search import recheck_file
        written = write_records(df.loc[plan.keep], qi + sensitive, args.out, [args.file],
                                check=lambda tmp: recheck_file(tmp, qi, sensitive, requirements, params, args.file))
    out = {"file": args.file, "N": len(df), "qi": qi, "sensitive": sensitive,
           **({"dropped": dropped} if options.na == "drop" else {}),
           "requirements": [r.text for r in requirements], **plan.to_json(),
           "written": None if written is None else {"file": str(written), "records": int(plan.keep.sum()),
                                                    "columns": qi + sensitive}}
    if args.json:
        print_json(out)
    else:
        _print(out, requirements)
    return 0


def _percent(part, whole) -> str:
    return f"{100 * part / whole:.3g}%" if whole else "0%"


def _print(out, requirements) -> None:
    n = out["N"]
    print(printable(f"{out['file']}: N = {n} records, {out['of_classes']} equivalence classes on "
                    f"{', '.join(out['qi'])}"))
    if out.get("dropped"):
        print(f"dropped {out['dropped']} record(s) with a missing value (--na drop; not counted below)")
    how = "whole classes" if out["mode"] == "classes" else "records within classes"
    if out["records_suppressed"] == 0:
        print("nothing to suppress: every requirement holds")
    else:
        print(f"suppress {how}: {out['records_suppressed']} of {n} records ({_percent(out['records_suppressed'], n)}), "
              f"{out['classes_touched']} of {out['of_classes']} classes touched ({out['classes_removed']} left out "
              f"whole)")
        if out["fewest"] == "exact":
            print(printable("  the fewest (exact" + (f"; {out['assumes']}" if out.get("assumes") else "") + ")"))
        else:
            print(f"  an upper bound on the fewest (at least {out['lower_bound']}); method: {out['method']}")
    for col, levels in out["levels_after"].items():
        for r in requirements:
            value = levels[r.definition.name]
            print(printable(f"  after, on {col}: {r.text} holds ({r.definition.name}: "
                            f"{r.definition.level_symbol} = {value})"))
    if out["written"]:
        w = out["written"]
        print(printable(f"wrote {w['file']}: {w['records']} records, columns {', '.join(w['columns'])}"))
    else:
        print("nothing written (give --out FILE to write the records kept)")
