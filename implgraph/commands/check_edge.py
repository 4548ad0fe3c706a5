"""``implgraph check-edge A B [--f EXPR] [--when COND] [--N n] [--jobs J] [--json]``: a conjectured edge, both ways."""

from __future__ import annotations

import sympy

from implgraph.core.errors import InputError
from implgraph.definitions.nodes import Node
from implgraph.definitions.base import shown
from implgraph.engines.checkedge import check_edge
from implgraph.io.console import Progress, quiet, with_decimal
from implgraph.io.output import print_json

NAME = "check-edge"
HELP = "check a conjectured implication A => B (and the reverse) with exact evidence"
PRINTS_VERDICTS = True
"""Its output carries verdict words: its ``--help`` explains them."""
DESCRIPTION = (HELP + ". A and B are definition names, with parameters as NAME(k=2) or NAME(k=k) bound by "
               "--when (NAME[k=2] is accepted as an alias). A class-based definition takes the minimum class "
               "size, e.g. NAME(k=3) (and max=): the partitions searched then have every class of "
               "at least k records. Checks every N from 2 to --N on binary tables and every partition into classes.")
ORDER = 40


def add_arguments(p):
    p.add_argument("a", metavar="A", help="definition, e.g. NAME or 'NAME(k=2)' (`implgraph definitions` lists them)")
    p.add_argument("b", metavar="B", help="definition, e.g. 'NAME(k=N-1)'")
    p.add_argument("--f", help="B's level as a function of A's level, e.g. '(exp(eps)*(N-1)+1)/N'")
    p.add_argument("--g", help="a conjectured function for the reverse direction B => A")
    p.add_argument("--when", action="append", default=[], help="condition on N and parameters, e.g. 'k >= 2' "
                   "(repeatable)")
    p.add_argument("--N", type=int, default=4, help="check every N from 2 to this (default 4)")
    p.add_argument("--p", type=int, default=2, help="number of buckets of the tables searched (default 2)")
    p.add_argument("--jobs", type=int, default=1, help="processes, 1 to 64 (default 1; 2 checks both directions "
                   "side by side)")
    p.add_argument("--json", action="store_true", help="print JSON")


def _show_witness(w, indent="      "):
    lines = []
    for i, r in enumerate(w["rows"]):
        cls = f"  class {w['classes'][i]}" if w.get("classes") else ""
        lines.append(f"{indent}row {i + 1}: [{', '.join(r)}]{cls}")
    return lines


def _direction(d):
    out = [f"  {d.a} => {d.b}: {d.relation} ({d.verdict}{', ' + d.bound if d.bound else ''})"]
    if d.f_trivial:
        out = [f"  {d.a} => {d.b}: {d.relation} (for some finite f); the conjectured f holds trivially (every table "
               "meets it: no implication)"]
    if d.f:
        out.append(f"    conjectured f = {d.f}: {d.f_verdict}")
    if d.tight_all_n:
        out.append(f"    tight f for every N (implgraph.engines.prove): {d.tight_all_n}"
                   + (f" ({d.tight_attained})" if d.tight_attained else ""))
    elif d.proved_f:
        out.append(f"    f proved for every N (implgraph.engines.prove): {d.proved_f}")
    elif d.tight_in_N:
        out.append(f"    tight f fitted through every N checked: {d.tight_in_N}")
    if d.tight:
        extra = f" for level <= {d.tight_upto} (piecewise beyond)" if d.tight_upto else ""
        triv = "  (trivial: the weakest level of " + d.b + ")" if d.trivial else ""
        out.append(f"    tight f at the largest N: {d.tight}{extra}{triv}")
    out.append(f"    evidence: {d.evidence}")
    if d.witness:
        out.append(f"    witness ({d.a} level {with_decimal(d.witness['level_a'])}, {d.b} level "
                   f"{with_decimal(d.witness['level_b'])}):")
        out += _show_witness(d.witness)
    if d.degenerate_witness:
        w = d.degenerate_witness
        out.append(f"    witness at a degenerate level (f = {w['f_at_level']} is no valid level of {d.b}; "
                   f"{d.a} level {w['level_a']}, {d.b} level {w['level_b']}):")
        out += _show_witness(w)
    if d.conditional is not None:
        out.append(f"    under the assumption ({d.conditional.assumption}):")
        out += ["    " + line for line in _direction(d.conditional)]
    return out


MAX_N = 100_000
"""Largest --N (exhaustive up to N = 8; above, tables of blocks of equal rows)."""


def read_check(a, b, f=None, g=None, when=(), N=4, p=2, jobs=1):
    """Every input of a check read before any work: ``N``, ``p``, ``jobs`` integers in range, the nodes A and B
    by the node grammar with their numeric parameters in the declared ranges at some N in 2..N, ``f``, ``g`` and
    ``when`` by the formula reader in the symbols they may use. Returns the nodes (InputError otherwise)."""
    from implgraph.core.formula import parse_condition, parse_expr
    from implgraph.definitions.nodes import N_SYM, check_ranges, parse_node, symbols_for
    from implgraph.engines.fit import level_symbol
    for name, value, low, high in (("--N", N, 2, MAX_N), ("--p", p, 2, 4), ("--jobs", jobs, 1, 64)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise InputError(f"{name} {shown(repr(value))} is not an integer", fix=f"give an integer {low} <= {name} <= {high}")
        if not low <= value <= high:
            raise InputError(f"{name} {value} is out of range", fix=f"use {low} <= {name[2:]} <= {high}"
                             + (" (exhaustive up to N = 8; above, tables of blocks of equal rows)" if name == "--N" else ""))
    nodes = [x if isinstance(x, Node) else parse_node(x) for x in (a, b)]
    for node in nodes:
        check_ranges(node, range(2, N + 1) if N <= 64 else [*range(2, 65), N])
    if when is not None and not isinstance(when, (str, list, tuple)):
        raise InputError(f"--when {shown(repr(when))} is not a condition or a list of conditions",
                         fix="write e.g. 'k >= 2' (or a list of such texts)")
    when = [when] if isinstance(when, str) else list(when or ())
    symbols = {s.name: s for node in nodes for s in node.free_symbols()}
    symbols["N"] = N_SYM
    # the names a condition may use: N, the parameters left free in A and B, and their level symbols
    allowed = set(symbols) | {node.definition.level_symbol for node in nodes}
    for w in when:
        if isinstance(w, str):
            used = parse_condition(w, symbols_for(w, symbols.values())).free_symbols
            unknown = sorted(s.name for s in used if s.name not in allowed)
            if unknown:
                raise InputError(f"--when {shown(repr(w))} uses {', '.join(unknown)}, which is neither N nor a "
                                 f"parameter left free in {nodes[0].label()} or {nodes[1].label()}",
                                 fix="write conditions on N and the parameters written as symbols, e.g. "
                                     "kdp(k=k) --when 'k >= 2'")
            symbols.update({s.name: s for s in used})
        elif not isinstance(w, sympy.Basic):
            raise InputError(f"--when {shown(repr(w))} is not a condition", fix="write e.g. 'k >= 2'")
    for option, text, node in (("--f", f, nodes[0]), ("--g", g, nodes[1])):
        if text is None or isinstance(text, sympy.Basic):
            continue
        if not isinstance(text, str):
            raise InputError(f"{option} {shown(repr(text))} is not a formula", fix="write e.g. '2*eps'")
        own = {**symbols, node.definition.level_symbol: level_symbol(node.definition)}
        parse_expr(text, own)
    return nodes


def run(args) -> int:
    a, b = read_check(args.a, args.b, args.f, args.g, args.when, args.N, args.p, args.jobs)
    # a bar with the time left (one step per direction) once the check has taken a second
    with Progress(2, f"check-edge {a.label()} ? {b.label()} (N = 2..{args.N})", delay=1.0) as bar:
        r = check_edge(a, b, f=args.f, when=args.when, N=args.N, p=args.p, g=args.g, jobs=args.jobs,
                       progress=bar.step)
    if args.json:
        print_json(r.to_json())
        return 0
    print(f"{r.a} ? {r.b}: {r.kind}")
    print(f"  {r.summary}")
    if quiet():                 # -q: the relation and its one-line summary
        return 0
    for d in (r.forward, r.backward):
        print("\n".join(_direction(d)))
    print(f"  ({r.seconds} s)")
    return 0
