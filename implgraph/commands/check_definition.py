"""``implgraph check-definition NAME [--param NAME=VALUE] [--tables n] [--seed s] [--json]``: test a definition.

Runs :func:`implgraph.checks.definition_check.check_definition` on a registered definition (a plugin installed
through the entry-point group ``implgraph.definitions``, or a built-in): its symbolic level equals its concrete
level on random tables (exact arithmetic), every level lies in the declared range, the declared shape (order of
records, ``needs_classes``, ``class_level_formula``) agrees with the computed levels, and the weakest and
strongest levels are as declared. Prints one line per check; exit status 0 when every check passes, 1 when one
fails (with the table it failed on), 2 on bad input.
"""

from __future__ import annotations

from implgraph.core.errors import InputError
from implgraph.io.console import quiet

NAME = "check-definition"
HELP = "test a (new) definition: symbolic = concrete levels, declared range, shape and extreme levels"
ORDER = 4
#: the most random tables a run may ask for
MAX_TABLES = 500


def add_arguments(p):
    from implgraph.commands._definition_names import registered_names
    p.add_argument("name", metavar="NAME", help="a registered definition").completer = registered_names
    p.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="a parameter of the definition (repeat for several), e.g. --param k=2")
    p.add_argument("--tables", type=int, default=20, metavar="n",
                   help=f"random tables to check (default %(default)s; at most {MAX_TABLES})")
    p.add_argument("--seed", type=int, default=0, help="seed of the random tables (default %(default)s)")
    p.add_argument("--json", action="store_true", help='print JSON {"definition", "ok", "checks": [...]}')


def _params(items) -> dict:
    out = {}
    for item in items:
        name, sep, value = str(item).partition("=")
        if not sep or not name.strip() or not value.strip():
            raise InputError(f"check-definition: --param {item!r} is not NAME=VALUE", fix="write e.g. --param k=2")
        out[name.strip()] = value.strip()
    return out


def run(args) -> int:
    from implgraph.checks.definition_check import check_definition, table_text
    if not 1 <= args.tables <= MAX_TABLES:
        raise InputError(f"check-definition: --tables {args.tables} is out of range",
                         fix=f"give 1 <= --tables <= {MAX_TABLES}")
    report = check_definition(args.name, _params(args.param), tables=args.tables, seed=args.seed)
    if args.json:
        from implgraph.io.output import print_json
        print_json({"definition": report.name, "ok": report.ok, "checks": [
            {"check": c.name, "ok": c.ok, "detail": c.detail,
             **({"table": table_text(c.table)} if c.table is not None else {})} for c in report.checks]})
        return 0 if report.ok else 1
    print(f"{report.name}: {'every check passes' if report.ok else 'a check fails'}")
    for c in report.checks:
        if quiet() and c.ok:    # -q: the verdict line and the checks that fail
            continue
        print(f"  {'ok  ' if c.ok else 'FAIL'} {c.name}: {c.detail}")
        if not c.ok and c.table is not None:
            print(f"       table (class: probabilities per record): {table_text(c.table)}")
    return 0 if report.ok else 1
