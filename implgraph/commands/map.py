"""``implgraph map [--N n] [--level definitions|groups] --out FILE [--json]``: the implication map.

Builds the map of the encoded theorems (verdicts computed by the engine: cached by content, recomputed
with ``--verify``, or read from ``--verdicts FILE``; never the data's ``expect:``), closes it under the implication and propagation rules at ``N``
records, and writes the diagram (SVG, PDF, PNG, TikZ or DOT text by the suffix; one layout computed in
Python, Graphviz never called).  The summary names every conflict
with both traces, every figure arrow the theorems do not support and every supported arrow the figures
omit, and counts the open pairs; ``--json`` exports all of it.
"""

from __future__ import annotations

import time

from implgraph.commands._data import add_data_arguments, data_sources
from implgraph.core.errors import InputError
from implgraph.io.console import Progress
from implgraph.io.output import print_json

NAME = "map"
HELP = "draw the implication map (Fig. 1 with --N, Fig. 2 with --level definitions); conflicts, figure check, open pairs"
ORDER = 30

DEFAULT_N = 10


MAX_N = 100
"""Largest ``--N`` of the map (one node per definition and group size k < N)."""

def add_arguments(p):
    p.add_argument("--N", type=int, default=None, help=f"number of records (groups level; default {DEFAULT_N} for the analysis)")
    p.add_argument("--level", choices=["definitions", "groups"], default=None,
                   help="one node per definition (Fig. 2) or per definition and group size k (Fig. 1); "
                        "default: groups when --N is given")
    p.add_argument("--out", help="diagram to write: .svg, .pdf, .png, .tex (TikZ) or .dot")
    p.add_argument("--json", action="store_true", help="print the map as JSON (nodes, edges, f, verdicts, traces)")
    p.add_argument("--verify", action="store_true", help="recompute the verdicts of the edge claims now (default: "
                   "computed once and cached by content)")
    p.add_argument("--verdicts", metavar="FILE", help="verdicts from a saved `implgraph verify --json`")
    p.add_argument("--labels", choices=["plain", "latex", "none"], default="plain", help="edge labels (default plain)")
    p.add_argument("--full", action="store_true", help="draw every edge (no transitive reduction)")
    add_data_arguments(p)
    p.add_argument("--max-list", type=int, default=20, help="items listed per section of the summary (default 20)")


def read_verdicts(path) -> dict:
    """Verdicts from a file written by ``implgraph verify --json`` (``{"claims": [...]}``), read and checked
    row by row (:func:`implgraph.map.verdicts.read_verdict_file`): ``{claim id: verdict word}``."""
    from implgraph.map.verdicts import read_verdict_file, verdict_lookup
    return verdict_lookup(read_verdict_file(path))


def verify_edges(paths=None, max_n: int | None = None, progress=None, fresh: bool = False) -> dict:
    """Computed verdicts of the edge claims: ``{id: verdict}`` (readings as ``id#reading``).

    Runs ``implgraph verify`` on the edge claims of ``paths`` (default: the bundled theorems): each claim's rows
    are replayed from the verify cache when their keyed checksum holds and their certificates are accepted
    (:mod:`implgraph.io.verdict_cache`), unless ``fresh``; there is no other copy of the verdicts.
    """
    from implgraph.checks.verify import DEFAULT_MAX_N, run_verify
    from implgraph.map.rules import load_edges
    from implgraph.map.verdicts import verdict_lookup
    ids = [e.id for e in load_edges(paths)]
    rows = run_verify(ids, max_n=max_n or DEFAULT_MAX_N, progress=progress, jobs=1 if paths else 2, paths=paths,
                      fresh=fresh)
    return verdict_lookup(rows)


def load_verdicts(args):
    """``(verdicts, where from)`` for the map commands: ``--verdicts FILE``, else computed (cached)."""
    from implgraph.map.rules import load_edges
    if args.verdicts:
        return read_verdicts(args.verdicts), "verdicts file"
    # computing the verdicts (when the cache has none) is the long part: show it on a terminal
    progress = Progress(len(load_edges(args.theorems)), "verdicts of the edge claims")
    try:
        verdicts = verify_edges(args.theorems, fresh=args.verify, progress=progress)
    finally:
        if progress.done:
            progress.close()
    return verdicts, ("verify" if args.verify else "verify (cached)")


def build(args):
    """Rules, the drawn map, the groups map at N, its analysis and the figure check."""
    from implgraph.map.deduce import analyse, asserted_conflicts
    from implgraph.map.figures import figure_check
    from implgraph.map.arrows import load_arrows
    from implgraph.map.graph import definitions_map, groups_map
    from implgraph.map.rules import load_rules
    if args.N is not None and not 2 <= args.N <= MAX_N:
        raise InputError(f"--N {args.N} is out of range", fix=f"give 2 <= --N <= {MAX_N} (one node per group size)")
    level = args.level or ("groups" if args.N is not None else "definitions")
    N = args.N if args.N is not None else DEFAULT_N
    verdicts, vsource = load_verdicts(args)
    start = time.perf_counter()
    rules = load_rules(args.theorems, verdicts)
    groups = groups_map(rules, N)
    an = analyse(groups)
    asserted = asserted_conflicts(groups)
    shown = groups if level == "groups" else definitions_map(rules)
    arrows = load_arrows(args.theorems)
    check = figure_check(an, arrows) if arrows else {"N": N, "arrows": [], "omitted": []}
    seconds = time.perf_counter() - start
    return dict(level=level, N=N, rules=rules, groups=groups, an=an, shown=shown, check=check,
                verdict_source=vsource, seconds=seconds, asserted=asserted)


def export(m, traces: bool = True) -> dict:
    """The JSON document of a map (see the module docstring)."""
    from implgraph.map.instantiate import edge_f
    G, an = m["shown"], m["an"]
    nodes = [{"id": n, "label": d.get("label", n).replace("\n", " "), "family": d.get("family"),
              "params": d.get("params", {})} for n, d in G.nodes(data=True)]
    edges = []
    for u, v, key, d in G.edges(keys=True, data=True):
        f = edge_f(d) if m["level"] == "groups" else d.get("f")
        edges.append({"from": u, "to": v, "key": key, "kind": d["kind"], "claim": d["claim"], "basis": d["basis"],
                      "f": None if f is None else str(f), "verdict": d["verdict"], "verdict_from": d["verdict_from"],
                      "established": d["established"], "paper": d["paper"], "dashed": d["dashed"],
                      "witness": d.get("witness"), "conditions": [str(c) for c in d.get("when", ())],
                      "binding": d.get("binding"),
                      "params": {"from": {k: str(x) for k, x in (d.get("a_params") or {}).items()},
                                 "to": {k: str(x) for k, x in (d.get("b_params") or {}).items()}}
                      if m["level"] == "definitions" else None})
    out = {"level": m["level"], "N": m["N"], "verdicts_from": m["verdict_source"], "nodes": nodes, "edges": edges,
           "analysis": {"N": m["N"], "summary": an.summary(), "conflicts": an.conflicts(),
                        "conflicts_as_printed": m["asserted"]["printed"],
                        "conflicts_under_readings": m["asserted"]["reading"],
                        "open_pairs": [list(p) for p in an.open_pairs()], "figure_check": m["check"]}}
    if traces:
        out["analysis"]["derived_non_implications"] = [
            {"from": x, "to": y, **an.non_implication_trace(x, y)} for x, y in an.derived_non_implications()]
        out["analysis"]["derived_implications"] = [
            {"from": x, "to": y, **an.implication_trace(x, y)} for x, y in an.derived_implications()]
    return out


def _print_summary(m, out_info, limit):
    an, check = m["an"], m["check"]
    s = an.summary()
    print(f"map: level {m['level']}, verdicts from {m['verdict_source']}; analysis at N = {m['N']} "
          f"({s['nodes']} nodes) in {m['seconds']:.2f} s")
    if out_info:
        print(f"  wrote {out_info[0]} ({out_info[1]})")
    print(f"  implications (closure): {s['implications']}, non-implications: {s['claimed_non_implications']} claimed "
          f"+ {s['derived_non_implications']} derived, conflicts: {s['conflicts']}, open pairs: {s['open_pairs']}")
    conflicts = an.conflicts()
    for c in conflicts[:limit]:
        a, b = c["pair"]
        print(f"  CONFLICT {a} => {b} via {' -> '.join(c['implication']['claims'])}"
              f"  vs  {a} =/=> {b} by {', '.join(c['non_implication']['trace'])}"
              + (f" (+{c['consequences']} derived conflicts)" if c["consequences"] else ""))
    for basis, title in (("printed", "as printed"), ("reading", "under the proofs' readings")):
        found = m["asserted"][basis]
        print(f"  conflicts among the papers' claims {title} (every claim taken as asserted): {len(found)}")
        for c in found[:limit]:
            a, b = c["pair"]
            print(f"    {a} => {b} via {' -> '.join(c['implication']['claims'])}"
                  f"  vs  {a} =/=> {b} by {', '.join(c['non_implication']['trace'])}")
    bad = [a for a in check["arrows"] if a["verdict"] != "supported"]
    if check["arrows"]:
        print(f"  figure arrows not supported by the theorems (N = {check['N']}): {len(bad)} of {len(check['arrows'])}")
    for a in bad[:limit]:
        sym = "=/=>" if a["kind"] == "not-implies" else "=>"
        ex = (a["examples"]["contradicted"] or a["examples"]["unsupported"])[:1]
        detail = ""
        if ex:
            e = ex[0]
            detail = f"; e.g. {e['from']} {sym} {e['to']}" + (f" contradicted by {', '.join(e['trace'])}" if e["trace"] else "")
            if e.get("note"):
                detail += f" ({e['note']})"
        print(f"    {a['figure']} #{a['index']} {a['label']} [{a['basis']}: {a['from']} {sym} {a['to']}]: {a['verdict']} "
              f"({a['supported']} supported, {a['contradicted']} contradicted, {a['unsupported']} unsupported of "
              f"{a['instances']}){detail}")
    if check["omitted"]:
        print(f"  supported facts the figures omit: {len(check['omitted'])} claim(s)")
    for o in check["omitted"][:limit]:
        sym = "=/=>" if o["kind"] == "not-implies" else "=>"
        e = o["examples"][0]
        print(f"    {o['figure']}: {o['claim']} ({o['instances']} instance(s), e.g. {e[0]} {sym} {e[1]})")
    opens = an.open_pairs()
    if opens:
        shown = ", ".join(f"{a} ? {b}" for a, b in opens[:min(limit, 8)])
        print(f"  open pairs: {len(opens)}, e.g. {shown}")


def run(args) -> int:
    if args.max_list < 0:
        raise InputError(f"--max-list {args.max_list} is negative", fix="give --max-list >= 0")
    if not args.out and not args.json:
        raise InputError("nothing to do", fix="give --out FILE (.svg, .pdf, .png, .tex, .dot) or --json")
    with data_sources(args) as args.theorems:   # --theorems / --tables add to the bundled data; --only replaces it
        return _map(args)


def input_files(args) -> list:
    """The files a map command reads (``--verdicts``, ``--theorems``, ``--tables``): never overwritten."""
    return [p for p in [getattr(args, "verdicts", None), *(getattr(args, "theorems", None) or []),
                        *(getattr(args, "tables", None) or [])] if p]


def _map(args) -> int:
    from implgraph.map.drawing import drawing
    from implgraph.map.render import check_output, render
    if args.out:
        check_output(args.out, input_files(args))
    m = build(args)
    out_info = None
    if args.out:
        D = drawing(m["shown"], m["an"] if m["level"] == "groups" else None, reduce=not args.full, labels=args.labels)
        if m["level"] == "groups":
            title = f"Implication map at N = {m['N']}: each definition at each group size k (cf. Fig. 1 of ekenstedt2022)"
        else:
            title = "Implication map between the definitions (cf. Fig. 2 of ekenstedt2022)"
        engine = render(D, args.out, title=title, labels=args.labels, inputs=input_files(args))
        out_info = (args.out, engine)
    if args.json:
        print_json(export(m))
    else:
        _print_summary(m, out_info, args.max_list)
    return 0
