"""``implgraph path A B [--N n] [--k k] [--json]``: the composed level function from A to B.

Every chain of established implications from A to B is composed with sympy (parameters unified at
each junction, conditions conjoined); the command prints each composed f, simplified, with its
conditions and the chain of claim ids that justifies it (the why-trace), then says which one is the
tightest on the common region, or that neither dominates.  Without a chain it says whether a
non-implication is known (with ``--N`` and concrete group sizes) or the pair is open.
"""

from __future__ import annotations

from implgraph.commands._data import add_data_arguments, data_sources
from implgraph.core.errors import InputError
from implgraph.io.console import Progress
from implgraph.io.output import print_json

NAME = "path"
HELP = "compose the level functions along the implication paths from A to B, with the why-trace"
PRINTS_VERDICTS = True
"""Its output carries verdict words: its ``--help`` explains them."""
ORDER = 31


MAX_N = 10000
"""Largest ``--N`` (compositions substitute N; the non-implication search builds the map at N)."""
MAX_LENGTH = 10
"""Longest chain ``--max-length`` may ask for."""
MAX_MAP_N = 100
"""Largest N at which an open pair is looked up on the map (the map has one node per group size)."""

def add_arguments(p):
    p.add_argument("source", metavar="A", help="a definition, e.g. NAME or 'NAME(k=3)' (the grammar of check-edge; NAME[k=3] is accepted as an alias)")
    p.add_argument("target", metavar="B", help="a definition, e.g. 'NAME(k=3)' (for a class-based definition: classes of >= 3 records)")
    p.add_argument("--N", type=int, default=None, help="number of records (substituted into f and the conditions)")
    p.add_argument("--k", type=int, default=None, help="group size (minimum class size for a class-based definition) for A and B where it is not given as NAME(k=..)")
    p.add_argument("--max-length", type=int, default=5, help="longest chain considered (default 5)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--verify", action="store_true", help="recompute the verdicts of the edge claims now (default: "
                   "computed once and cached by content)")
    p.add_argument("--verdicts", metavar="FILE", help="verdicts from a saved `implgraph verify --json`")
    add_data_arguments(p)


def run(args) -> int:
    with data_sources(args) as args.theorems:   # --theorems / --tables add to the bundled data; --only replaces it
        return _path(args)


def _path(args) -> int:
    from implgraph.map.compose import compositions, tightest
    from implgraph.map.graph import node_name, read_node
    from implgraph.map.rules import load_rules
    from implgraph.commands.map import load_verdicts
    if args.N is not None and not 2 <= args.N <= MAX_N:
        raise InputError(f"--N {args.N} is out of range", fix=f"give 2 <= --N <= {MAX_N}")
    if not 1 <= args.max_length <= MAX_LENGTH:
        raise InputError(f"--max-length {args.max_length} is out of range", fix=f"give 1 <= --max-length <= {MAX_LENGTH}")
    src, sp = read_node(args.source, args.k, args.N)
    dst, tp = read_node(args.target, args.k, args.N)
    verdicts, vsource = load_verdicts(args)
    with Progress(None, f"path {args.source} => {args.target}"):
        rules = load_rules(args.theorems, verdicts)
        comps = compositions(rules, src, dst, sp or None, tp or None, N=args.N, max_length=args.max_length)
        best = tightest(comps, dst)
    a_name, b_name = node_name(src, sp), node_name(dst, tp)
    known = None
    if not comps and args.N is not None and args.N <= MAX_MAP_N:
        from implgraph.map.deduce import analyse
        from implgraph.map.graph import groups_map
        an = analyse(groups_map(rules, args.N))
        if a_name in an.index and b_name in an.index:
            known = an.non_implication_trace(a_name, b_name)
    if args.json:
        print_json({"from": a_name, "to": b_name, "N": args.N, "verdicts_from": vsource,
                    "compositions": [c.to_json() for c in comps], "tightest": [i + 1 for i in best["best"]],
                    "note": best["note"], "non_implication": known,
                    "order": {f"{i + 1}<={j + 1}": v for (i, j), v in best["order"].items()}})
        return 0
    if not comps:
        print(f"{a_name} => {b_name}: no chain of established implications (max length {args.max_length})")
        if known:
            kind = "derived" if known["derived"] else "claimed"
            print(f"  {a_name} =/=> {b_name} ({kind}, {known['status']}; witness {known.get('witness')}): "
                  f"{' -> '.join(known['trace'])}")
        elif args.N is not None:
            print("  and no non-implication is known: an open pair")
        return 0
    print(f"{a_name} => {b_name}: {len(comps)} composition(s); verdicts from {vsource}")
    from implgraph.io.console import quiet
    for i, c in enumerate(comps, 1):
        mark = " *" if i - 1 in best["best"] else ""
        if quiet() and not mark:        # -q: the tightest compositions, one line each, and the verdict on them
            continue
        print(f"{i}.{mark} {node_name(src, c.source)} at level {c.level} => {node_name(dst, c.target)} at level {c.f}")
        if quiet():
            continue
        if c.conditions:
            print(f"     when {' and '.join(str(x) for x in c.conditions)}")
        print(f"     why: {' -> '.join(c.trace)}  ({c.status}"
              + ("; feasibility not decided" if c.feasible is None else "") + ")")
        if c.alternatives:
            print(f"     ({c.alternatives} longer chain(s) give the same f on part of this region)")
    print(f"tightest: {best['note']}")
    return 0
