"""``implgraph matrix [--json] [--N n] [--timeout s] [--jobs J] [--definitions NAME ...]``: every ordered pair decided."""

from __future__ import annotations

from collections import Counter

from implgraph.commands._definition_names import add_definitions_argument
from implgraph.core.errors import InputError
from implgraph.io.console import emit_row, quiet, results_console, with_decimal
from implgraph.io.output import print_json
from implgraph.map.matrix import not_proved_reason, pair_matrix

NAME = "matrix"
HELP = "decide every ordered pair of registered definitions (implication with tight f, witness, or open)"
PRINTS_VERDICTS = True
"""Its output carries verdict words: its ``--help`` explains them."""
DESCRIPTION = (HELP + ". Each pair is checked by check-edge (both directions, N = 2..--N, tables of --p buckets (a "
               "definition without linear-fractional level is also probed on tables of 3 buckets: such a witness "
               "says so), every "
               "partition into classes; the prover for every N where it has an argument) in one of --jobs worker "
               "processes (each decides pair after pair), stopped after --timeout seconds (the pair is then open: unknown (timeout)). Parameters take "
               "stated values (a size k = 2, ground distance equal, otherwise the definition's own first "
               "param_values), or with --parameters symbols each integer parameter with a declared range is a "
               "symbol of its own over that range (k1, k2, ...; the bounded search tries every value at each N, "
               "the prover argues for every value). "
               "Under each implication not proved for every N, the reason (trivial: B's weakest level; a side "
               "outside the prover's families, two-sided ratios of averages; or no argument for those families). "
               "Progress on stderr. "
               "The JSON is the published dataset implgraph/data/matrix.json.")
ORDER = 45
TIMEOUT_PER_CLAIM = True        # --timeout (added by the CLI) is per pair
DEFAULT_TIMEOUT = 120


def add_arguments(p):
    p.add_argument("--N", type=int, default=4, help="check every N from 2 to this (default 4)")
    p.add_argument("--p", type=int, default=2, help="number of buckets of the tables searched (default 2)")
    p.add_argument("--jobs", type=int, default=1, help="pairs checked at once (default 1)")
    add_definitions_argument(p, "decide only the pairs of these definitions (default every registered one)")
    p.add_argument("--parameters", choices=("stated", "symbols"), default="stated",
                   help="stated values (default; implgraph/data/matrix.json) or symbols over their declared ranges "
                        "(implgraph/data/matrix-symbols.json)")
    p.add_argument("--json", action="store_true", help="print JSON (the dataset of implgraph/data/matrix.json)")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")


def _line(c) -> str:
    if c["relation"] == "implication":
        how = "proved for every N" if c["proved_every_n"] else f"bounded: {c['bound']}"
        if c["proved_every_n"] and c["tight"] and c.get("proved_f"):
            how = f"exact at the N checked; proved for every N: f = {c['proved_f']}"
        f = c["tight"] or c.get("proved_f") or ("B's weakest level; the tight f is not known" if c["trivial"]
                                                else "(no closed form)")
        upto = f" for level <= {c['tight_upto']}" if c["tight_upto"] else ""
        upto += f" at {c['tight_at']}" if c["tight_at"] else ""
        triv = ", trivial: not counted" if c["trivial"] else ", vacuous: not counted" if c.get("vacuous") else ""
        eq = ", equivalent" if c["equivalent"] else ""
        why = "" if c["proved_every_n"] else f"\n    not for every N: {c.get('not_proved') or not_proved_reason(c['a'], c['b'], c['trivial'])}"
        return f"=> f = {f}{upto} ({how}{triv}{eq}){why}"
    if c["relation"] == "non-implication":
        w = c["witness"] or {}
        rows = "; ".join(f"[{', '.join(map(str, r))}]" + (f" {w['classes'][i]}" if w.get("classes") else "")
                         for i, r in enumerate(w.get("rows") or []))
        out = (f"=/=> witness: {rows} (levels {with_decimal(w.get('level_a'))}, {with_decimal(w.get('level_b'))})")
        if c.get("conditional"):
            out += f"\n    under the assumption ({c['conditional']['assumption']}): {_line(c['conditional'])}"
        return out
    return f"open: {c['reason']}"


MAX_N = 16
"""Largest --N (every pair is checked at every N up to it; the published matrix uses 4)."""
MAX_P = 4
"""Largest --p (buckets of the tables searched, as check-edge)."""


def run(args) -> int:
    if not 2 <= args.N <= MAX_N:
        raise InputError(f"--N {args.N} is out of range", fix=f"give 2 <= --N <= {MAX_N}")
    if not 2 <= args.p <= MAX_P:
        raise InputError(f"--p {args.p} is out of range", fix=f"give 2 <= --p <= {MAX_P}")
    timeout = args.timeout if args.timeout and args.timeout > 0 else float("inf")
    m = pair_matrix(args.definitions or None, N=args.N, p=args.p, timeout=timeout, jobs=args.jobs,
                    progress=not (args.quiet or quiet()), parameters=args.parameters)
    if args.json:
        print_json(m)
        return 0
    cells = [] if quiet() else m["cells"]       # -q: the counts alone
    wa, wb = (max((len(c[k]) for c in cells), default=0) for k in ("a", "b"))
    console = results_console()
    for c in cells:                 # one aligned row per ordered pair: A, B, =>, =/=> or open, then what decides it
        head, *more = _line(c).split("\n")
        mark, _, body = head.partition(" ")
        emit_row([c["a"].ljust(wa), c["b"].ljust(wb), mark.ljust(5)], body.strip(),
                 [line.strip() for line in more], indent=wa + wb + 11, console=console)
    counts = m["counts"]
    print(f"{counts['pairs']} ordered pairs: {counts['decided']} decided ({counts['implication']} implications, "
          f"{counts['implication_proved_every_n']} proved for every N"
          + (f" ({counts['implication_proved_upper_only']} of them with an f not shown tight everywhere)"
             if counts.get("implication_proved_upper_only") else "")
          + f"; {counts['implication_trivial']} trivial"
          + (f" ({counts['implication_trivial_open']} of them with the tight f not known: undecided beyond B's weakest "
             "level)" if counts.get("implication_trivial_open") else "")
          + f" and {counts.get('implication_vacuous', 0)} vacuous, not counted as implications; "
          f"{counts['non_implication']} non-implications; {counts['equivalent']} cells of equivalent pairs), "
          f"{counts['open']} open ({counts['open_timeout']} timeouts); {m['seconds']} s")
    if quiet():
        return 0
    if m.get("pair_seconds"):
        slowest = max(m["pair_seconds"].items(), key=lambda kv: kv[1])
        print(f"seconds per pair (both directions, wall): median "
              f"{sorted(m['pair_seconds'].values())[len(m['pair_seconds']) // 2]}, slowest {slowest[1]} ({slowest[0]})")
    why = Counter(not_proved_reason(c["a"], c["b"], c["trivial"]).split(":")[0] for c in m["cells"]
                  if c["relation"] == "implication" and not c["proved_every_n"])
    if why:
        print("implications not proved for every N: " + ", ".join(f"{n} {w}" for w, n in sorted(why.items())))
    for node, kept in (m["settings"].get("kept") or {}).items():
        print(f"not a symbol in {node}: " + "; ".join(f"{p} {why}" for p, why in kept.items()))
    return 0
