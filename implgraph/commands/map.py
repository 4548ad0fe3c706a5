"""``implgraph map [--N n] [--level definitions|groups] --out FILE [--width single|double|CM] [--overlay claims]``:
the implication map as a figure for a paper.

Builds the map of the encoded theorems (verdicts computed by the engine: cached by content, recomputed
with ``--verify``, or read from ``--verdicts FILE``; never the data's ``expect:``), closes it under the
implication and propagation rules at ``N`` records, and writes the figure (SVG, PDF, PNG, TikZ or DOT by
the suffix) at a journal's column width, laid out by Graphviz: by default what the engine established,
with f on each arrow; ``--overlay claims`` adds the papers' claims it refutes or leaves undecided.  It
prints the file written (nothing with ``-q``); ``--summary`` prints the analysis (every conflict with both
traces, every figure arrow the theorems do not support and every supported arrow the figures omit, the
open pairs) and ``--json`` exports all of it.
"""

from __future__ import annotations

import sys
import time

from implgraph.commands._data import add_data_arguments, data_sources
from implgraph.core.errors import InputError
from implgraph.io.console import QUIET, VERBOSE, Progress, verbosity
from implgraph.io.output import print_json
from implgraph.map.typeset import SCRIPT_RATIO, TEXT_PT

NAME = "map"
HELP = ("draw the implication map as a paper's figure (Fig. 1 with --N, Fig. 2 with --level definitions); "
        "--summary: conflicts, figure check, open pairs")
PRINTS_VERDICTS = True
"""Its output carries verdict words: its ``--help`` explains them."""
ORDER = 30

DEFAULT_N = 10


MAX_N = 100
"""Largest ``--N`` of the map (one node per definition and group size k < N)."""


def add_arguments(p):
    p.add_argument("--N", type=int, default=None,
                   help=f"number of records (groups level; default {DEFAULT_N} for the analysis)")
    p.add_argument("--level", choices=["definitions", "groups"], default=None,
                   help="one node per definition (Fig. 2) or per definition and group size k (Fig. 1); "
                        "default: groups when --N is given")
    p.add_argument("--out", help="the figure to write: .svg, .pdf, .png, .tex (TikZ) or .dot")
    p.add_argument("--width", default="single", metavar="single|double|CM",
                   help="the figure's width: a journal's single column (8.5 cm, the default), its double column "
                        f"(17.8 cm) or centimetres; text stays at {TEXT_PT:g} pt (its scripts "
                        f"{TEXT_PT * SCRIPT_RATIO:g} pt) unless the map is wider than that")
    p.add_argument("--overlay", choices=["claims"], default=None,
                   help="also draw the papers' claims the engine refutes (red) or leaves undecided (grey), with "
                        "a legend (default: only what the engine established)")
    p.add_argument("--labels", choices=["f", "claims", "none"], default="f",
                   help="what an arrow says: its f and conditions (default), also the claim's name, or nothing")
    p.add_argument("--json", action="store_true", help="print the map as JSON (nodes, edges, f, verdicts, traces)")
    p.add_argument("--summary", action="store_true",
                   help="print the analysis: conflicts, the figures' arrows against the theorems, open pairs")
    p.add_argument("--verify", action="store_true", help="recompute the verdicts of the edge claims now (default: "
                   "computed once and cached by content)")
    p.add_argument("--verdicts", metavar="FILE", help="verdicts from a saved `implgraph verify --json`")
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


def _print_summary(m, limit):
    an, check = m["an"], m["check"]
    s = an.summary()
    print(f"map: level {m['level']}, verdicts from {m['verdict_source']}; analysis at N = {m['N']} "
          f"({s['nodes']} nodes) in {m['seconds']:.2f} s")
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
    if not (args.out or args.json or args.summary):
        raise InputError("nothing to do", fix="give --out FILE (.svg, .pdf, .png, .tex, .dot), --summary or --json")
    if args.out:
        from implgraph.map.render import width_cm
        width_cm(args.width)        # a bad width is refused before the map is computed
    with data_sources(args) as args.theorems:   # --theorems / --tables add to the bundled data; --only replaces it
        return _map(args)


def input_files(args) -> list:
    """The files a map command reads (``--verdicts``, ``--theorems``, ``--tables``): never overwritten."""
    return [p for p in [getattr(args, "verdicts", None), *(getattr(args, "theorems", None) or []),
                        *(getattr(args, "tables", None) or [])] if p]


def figure(m, out, width="single", overlay=None, labels="f", full=False, inputs=()) -> dict:
    """Write the map ``m`` (from :func:`build`) as a figure: :func:`implgraph.map.render.render`'s report."""
    from implgraph.map.drawing import drawing
    from implgraph.map.render import render
    D = drawing(m["shown"], m["an"] if m["level"] == "groups" else None, reduce=not full, labels=labels,
                overlay=overlay)
    return render(D, out, width=width, inputs=inputs)


def _map(args) -> int:
    from implgraph.map.render import check_output
    if args.out:
        check_output(args.out, input_files(args))
    m = build(args)
    report = None
    if args.out:
        report = figure(m, args.out, args.width, args.overlay, args.labels, args.full, input_files(args))
        if report.get("shrunk"):
            print(f"implgraph map: the map is wider than {report['width_cm']} cm at {TEXT_PT:g} pt: its text is "
                  f"{report['text_pt']} pt; fix: give --width double or a larger --width in cm", file=sys.stderr)
    if args.json:
        print_json(export(m) if report is None else {**export(m), "figure": {"out": str(args.out), **report}})
        return 0
    if report is not None and verbosity() > QUIET:
        size = (f", {report['width_cm']} x {report['height_cm']} cm, text {report['text_pt']} pt"
                if report.get("width_cm") else "")
        print(f"wrote {args.out}{size}")
    if args.summary or verbosity() >= VERBOSE:
        _print_summary(m, args.max_list)
    return 0
