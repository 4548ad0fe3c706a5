"""``implgraph table ID|FILE [--json]``: a counterexample table, its exact levels and its claims' verdicts."""

from __future__ import annotations

import time
from pathlib import Path

import sympy

from implgraph import definitions
from implgraph.checks.level import judge_level_claim
from implgraph.checks.symbolic_level import find_level
from implgraph.checks.unbounded import judge_unbounded, public_family
from implgraph.io.counterexamples import get_table, load_tables_file, table_claims
from implgraph.core.errors import InputError
from implgraph.core.formula import parse_expr
from implgraph.io.output import print_json
from implgraph.io.pieces_text import simplified_pieces, tidy_conditions

NAME = "table"
HELP = "show a counterexample table, every definition's exact level on its region, and judge its claims"
PRINTS_VERDICTS = True
"""Its output carries verdict words: its ``--help`` explains them."""
ORDER = 12


def add_arguments(p):
    p.add_argument("table", help="a bundled table id (e.g. ekenstedt2022/table-VII) or a path to a YAML table file")
    p.add_argument("--id", help="the table id when the YAML file holds several tables")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--claims-only", action="store_true",
                   help="compute only the levels the claims need (faster)")


def _tables(args):
    arg = args.table
    path = Path(arg)
    if path.suffix.lower() in (".yaml", ".yml") or path.exists():
        return load_tables_file(path, args.id)
    return [get_table(arg)]


def display_params(table):
    """``{definition: params}`` for the level display: the file's ``show:``, else k = 2 where needed."""
    show = table.meta.get("show") or {}
    out = {}
    for d in definitions.all_definitions():
        params = {}
        spec = show.get(d.name) if isinstance(show, dict) else None
        if spec:
            for k, v in spec.items():
                params[k] = str(v) if k in d.words else parse_expr(str(v), table.symbols)
        elif "k" in d.params:
            params["k"] = sympy.Integer(2)
        out[d.name] = params
    return out


def table_report(table, claims_only=False) -> dict:
    """Everything ``implgraph table`` shows, as plain data (levels, verdicts, witness families)."""
    start = time.perf_counter()
    cache: dict = {}
    levels = {}
    if not claims_only:
        for name, params in display_params(table).items():
            try:
                lv = find_level(table, name, params)
                levels[name] = lv.to_json()
                levels[name]["symbol"] = lv.definition.level_symbol
            except InputError as exc:
                levels[name] = {"level": None, "pieces": [], "note": exc.reason,
                                "params": {k: str(v) for k, v in params.items()},
                                "symbol": definitions.get(name).level_symbol}
    verdicts, families = [], []
    for claim in table_claims(table):
        kind = claim.get("kind")
        if kind == "level":
            v = judge_level_claim(table, claim, cache)
        elif kind == "unbounded":
            v = judge_unbounded(table, claim)
            fam = public_family(v.details.get("family", []))
            v.details["family"] = fam
            families.append({"claim": v.id, "free": v.details.get("free"), "rows": fam})
        else:
            continue
        verdicts.append(v)
    return {
        "id": table.id,
        "source": table.source,
        "caption": table.meta.get("caption"),
        "file": table.file,
        "symbols": {n: table.region.kinds.get(s, "real") for n, s in table.symbols.items()},
        "region": [str(c) for c in table.region.constraints],
        "buckets": list(table.buckets),
        "N": str(table.size),
        "rows": [{"count": str(b.count), "probs": [str(v) for v in b.probs], "class": b.cls} for b in table.blocks],
        "levels": levels,
        "claims": [{"id": v.id, "printed": v.printed, "verdict": v.verdict, "exact": v.exact,
                    "evidence": v.evidence, "witness": v.witness, "expect": v.expect, "source": v.source}
                   for v in verdicts],
        "family": families,
        "seconds": round(time.perf_counter() - start, 2),
    }


def _print(rep, table=None):
    from implgraph.io.console import quiet
    print(f"{rep['id']}  ({rep['source']})")
    if quiet():                 # -q: the table's size and one line per claim (its verdict)
        print(f"N = {rep['N']}; buckets: {', '.join(rep['buckets'])}")
        for c in rep["claims"]:
            flag = "" if not c.get("expect") or c["expect"] == c["verdict"] else f"  (data expects {c['expect']})"
            print(f"  [{c['verdict']}] {c['id']}{flag}")
        return
    if rep.get("caption"):
        print(f"caption: {rep['caption']}")
    syms = ", ".join(f"{n} ({k})" for n, k in rep["symbols"].items()) or "none"
    print(f"symbols: {syms}")
    print(f"region: {' and '.join(rep['region']) or 'everywhere'}")
    print(f"N = {rep['N']}; buckets: {', '.join(rep['buckets'])}")
    print("rows (blocks):")
    width = max([len(r["count"]) for r in rep["rows"]] + [5])
    head = "  " + "count".ljust(width) + "  " + "  ".join(f"Pr({b})" for b in rep["buckets"])
    print(head + ("  class" if any(r["class"] for r in rep["rows"]) else ""))
    for r in rep["rows"]:
        cls = f"  {r['class']}" if r["class"] else ""
        print("  " + r["count"].ljust(width) + "  " + "  ".join(r["probs"]) + cls)
    if rep["levels"]:
        print("exact optimal levels on the region:")
        for name, lv in rep["levels"].items():
            params = ", ".join(f"{k}={v}" for k, v in lv.get("params", {}).items())
            label = f"{name}({params})" if params else name
            sym = lv.get("symbol", "level")
            if lv.get("level") is None:
                print(f"  {label}: undefined ({lv.get('note', '')})")
                continue
            pieces = [(pc["level"], pc["when"]) for pc in lv["pieces"]]
            if len(pieces) > 1 and table is not None:   # conditions simplified on the region, none contradicting it
                pieces = simplified_pieces(lv["pieces"], table.region, table.symbols)
            if len(pieces) <= 1:
                print(f"  {label}: {sym} = {pieces[0][0] if pieces else lv['level']}")
            else:
                print(f"  {label}: piecewise")
                for i, (level, when) in enumerate(pieces, 1):
                    print(f"    piece {i}: {sym} = {level}")
                    print(f"             where {when}")
    print("claims:")
    for c in rep["claims"]:
        flag = "" if not c.get("expect") or c["expect"] == c["verdict"] else f"  (data expects {c['expect']})"
        print(f"  [{c['verdict']}] {c['id']}{flag}")
        print(f"      printed: {c['printed']}")
        if c.get("exact"):
            print(f"      exact: {tidy_conditions(c['exact'])}")
        print(f"      {c['evidence']}")
        if c.get("witness"):
            w = c["witness"]
            print(f"      witness: {w.get('params')}; optimal level {w.get('optimal_level')} "
                  f"vs printed {w.get('printed_level')}")
    for fam in rep["family"]:
        print(f"witness family of {fam['claim']}:")
        for r in fam["rows"]:
            print(f"  {fam['free']} = {r['value']}: A = {r.get('A')}, B = {r.get('B')}")
    print(f"({rep['seconds']} s)")


def run(args) -> int:
    tables = _tables(args)
    reports = [table_report(t, claims_only=args.claims_only) for t in tables]
    if args.json:
        print_json(reports[0] if len(reports) == 1 else reports)
        return 0
    for i, (rep, table) in enumerate(zip(reports, tables)):
        if i:
            print()
        _print(rep, table)
    return 0
