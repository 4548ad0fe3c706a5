"""``implgraph check-edge A B [--f EXPR] [--when COND] [--N n] [--jobs J] [--json]``: a conjectured edge, both ways."""

from __future__ import annotations

from implgraph.engines.checkedge import check_edge
from implgraph.core.errors import InputError
from implgraph.io.console import Progress
from implgraph.io.output import print_json

NAME = "check-edge"
HELP = "check a conjectured implication A => B (and the reverse) with exact evidence"
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
        out.append(f"    witness ({d.a} level {d.witness['level_a']}, {d.b} level {d.witness['level_b']}):")
        out += _show_witness(d.witness)
    if d.degenerate_witness:
        w = d.degenerate_witness
        out.append(f"    witness at a degenerate level (f = {w['f_at_level']} is no valid level of {d.b}; "
                   f"{d.a} level {w['level_a']}, {d.b} level {w['level_b']}):")
        out += _show_witness(w)
    return out


def read_nodes(a, b, N):
    """The nodes A and B of a check up to ``N`` records: read by the node grammar, their numeric parameters
    within the declared ranges at some N in 2..N (InputError otherwise)."""
    from implgraph.core.nodes import check_ranges, parse_node
    nodes = [parse_node(x) for x in (a, b)]
    for node in nodes:
        check_ranges(node, range(2, N + 1) if N <= 64 else [*range(2, 65), N])
    return nodes


def run(args) -> int:
    if args.N < 2 or args.N > 100_000:
        raise InputError(f"--N {args.N} is out of range",
                         fix="use 2 <= N <= 100000 (exhaustive up to N = 8; above, tables of blocks of equal rows)")
    if args.p < 2 or args.p > 4:
        raise InputError(f"--p {args.p} is out of range", fix="use 2 <= p <= 4")
    a, b = read_nodes(args.a, args.b, args.N)
    # a bar with the time left (one step per direction) once the check has taken a second
    with Progress(2, f"check-edge {a.label()} ? {b.label()} (N = 2..{args.N})", delay=1.0) as bar:
        r = check_edge(a, b, f=args.f, when=args.when, N=args.N, p=args.p, g=args.g, jobs=args.jobs,
                       progress=bar.step)
    if args.json:
        print_json(r.to_json())
        return 0
    print(f"{r.a} ? {r.b}: {r.kind}")
    print(f"  {r.summary}")
    for d in (r.forward, r.backward):
        print("\n".join(_direction(d)))
    print(f"  ({r.seconds} s)")
    return 0
