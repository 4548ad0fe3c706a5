"""``implgraph definitions [NAME...] [--json]``: every registered privacy definition, described.

For each definition of the registry (:mod:`implgraph.definitions`, plugins of the entry-point group
``implgraph.definitions`` included): its title, the name of its level and how the level relates to
the raw quantity the definition computes (``scale``), which direction is stronger, its parameters
with their ranges, whether it needs equivalence classes, which exact paths the engine has for it
and its reference. Nothing is computed on a table.
"""

from __future__ import annotations

import sys

from implgraph.core.errors import InputError
from implgraph.io.output import print_json
from implgraph.definitions.capabilities import family_of

NAME = "definitions"
HELP = "list the registered privacy definitions (plugins included): level, scale, parameters, reference"
ORDER = 3

FAMILY_TEXT = {
    "pairwise": "pairs of records (family pairwise)",
    "subset": "subsets of subset_size(N) records, against the whole table (family subset)",
    "class": "the equivalence classes (family class)",
}
"""The record sets a definition's level is taken over, per declared ``family``."""

CLASS_PARAM_TEXT = {
    "k": "minimum class size, k >= 1: only partitions whose classes have at least k records "
         "(check-edge, discover, path: NAME(k=3))",
    "max": "maximum class size: only partitions whose classes have at most max records (NAME(max=4))",
}
"""The class-size parameters a class-based definition accepts on the command line (see
:func:`implgraph.definitions.nodes.class_params`)."""


def add_arguments(p):
    p.add_argument("names", nargs="*", metavar="NAME", help="definitions to describe (default: all)")
    p.add_argument("--json", action="store_true", help='print JSON {"definitions": [...]}')


def _doc(d) -> str:
    """The first paragraph of the definition's class docstring, else of its module's docstring."""
    cls = type(d)
    text = cls.__doc__ or getattr(sys.modules.get(cls.__module__), "__doc__", None) or ""
    return " ".join(text.strip().split("\n\n")[0].split())


def _scale_text(d) -> str:
    from implgraph.definitions.base import Definition
    if type(d).level_from_raw is not Definition.level_from_raw:
        return (f"{d.scale}: the definition converts the raw quantity to its level itself "
                f"(its own level_from_raw; see its description)")
    return f"{d.scale}: {d.level_scale.text}"


def _parameters(d) -> dict:
    """``{name: description}``: the definition's own parameters, then its class-size parameters."""
    from implgraph.definitions.nodes import class_params
    out = {str(k): str(v) for k, v in (d.params or {}).items()}
    for k in class_params(d):
        out[k] = CLASS_PARAM_TEXT.get(k, "class-size parameter")
    return out


def _check_edge_engine(d) -> str:
    """Whether check-edge has the exact linear-fractional form of ``d`` (asked on a 3-record table)."""
    from implgraph.definitions.families import lf_model, param_grid
    grid = param_grid(d, 3) or [{}]
    try:
        model = lf_model(d, 3, (1, 2) if d.needs_classes else (), 2, **grid[0])
    except Exception as exc:  # a plugin's own lf_terms may fail; the listing goes on
        return f"lf_terms failed ({type(exc).__name__}: {exc})"
    return "exact (max of linear-fractional forms)" if model is not None else "grid probing (unknown where undecided)"


def _engine(d) -> dict:
    """Which exact paths the engine has for ``d``: a concrete fast path, the refuter's z3 shape, the
    check-edge form."""
    from implgraph.definitions.levels import has_fast_path
    return {
        "concrete": bool(has_fast_path(d)),
        "refuter": d.z3_shape or ("own z3_satisfies" if hasattr(d, "z3_satisfies") else None),
        "check_edge": _check_edge_engine(d),
    }


def describe(d) -> dict:
    """A JSON-ready description of one registered definition."""
    return {
        "name": d.name, "title": d.title or d.name, "level_symbol": d.level_symbol, "scale": d.scale,
        "scale_meaning": _scale_text(d), "stronger": d.stronger, "parameters": _parameters(d),
        "needs_classes": bool(d.needs_classes), "reference": d.reference or None,
        "family": family_of(d), "model": d.model,
        "description": _doc(d), "module": type(d).__module__, "engine": _engine(d),
    }


def _chosen(names) -> list:
    from implgraph import definitions
    known = definitions.names()
    for n in names:
        if n not in known:
            raise InputError(f"unknown definition {n!r}", fix="give one of " + ", ".join(known))
    return [definitions.get(n) for n in (names or known)]


def _print_text(rows) -> None:
    from implgraph.io.console import quiet
    for r in rows:
        better = "smaller" if r["stronger"] == "smaller" else "larger"
        print(f"{r['name']}  ({r['title']})")
        if quiet():             # -q: one line per definition
            continue
        print(f"  level        {r['level_symbol']}; {better} is stronger")
        print(f"  scale        {r['scale_meaning']}")
        print(f"  classes      {'needs equivalence classes (undefined without)' if r['needs_classes'] else 'no'}")
        params = r["parameters"]
        if not params:
            print("  parameters   none")
        for i, (k, text) in enumerate(params.items()):
            print(f"  {'parameters' if i == 0 else '':<12} {k}: {text}")
        eng = r["engine"]
        print(f"  engine       exact concrete path: {'yes' if eng['concrete'] else 'no (symbolic only)'}; refuter: "
              f"{eng['refuter'] or 'none (unknown)'}; check-edge: {eng['check_edge']}")
        if r["family"]:
            print(f"  record sets  {FAMILY_TEXT.get(r['family'], r['family'])}")
        print(f"  reference    {r['reference'] or '(none given)'}")
        if r["description"]:
            print(f"  about        {r['description']}")
        print(f"  module       {r['module']}")
    print(f"{len(rows)} definition(s)")


def run(args) -> int:
    from implgraph import definitions
    rows = [describe(d) for d in _chosen(list(args.names))]
    errors = definitions.load_errors()
    if args.json:
        print_json({"definitions": rows, "plugin_errors": errors})
        return 0
    _print_text(rows)
    for e in errors:
        print(f"implgraph: {e} (skipped)", file=sys.stderr)
    return 0
