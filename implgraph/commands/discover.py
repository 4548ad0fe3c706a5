"""``implgraph discover [--N n] [--definitions NAME ...] [--jobs J] [--json]``: check every pair of registered
definitions without an edge."""

from __future__ import annotations

from implgraph.commands._definition_names import add_definitions_argument
from implgraph.engines.discover import discover
from implgraph.engines.discover_compare import compare_with_theorems
from implgraph.engines.discover_yaml import check_write_dir, set_expects, write_data, yaml_snippet
from implgraph.core.errors import InputError
from implgraph.io.console import quiet
from implgraph.io.output import print_json

NAME = "discover"
HELP = "check every pair of registered definitions that has no edge in theorems/ and print the findings"
PRINTS_VERDICTS = True
"""Its output carries verdict words: its ``--help`` explains them."""
DESCRIPTION = (HELP + ", as YAML ready to paste into theorems/ and counterexamples/. Parallel across pairs; "
               "plugins (entry-point group implgraph.definitions) are included.")
ORDER = 45


def add_arguments(p):
    p.add_argument("--N", type=int, default=4, help="number of records of the tables searched (default 4)")
    p.add_argument("--from-N", dest="from_n", type=int, default=None, metavar="M",
                   help="check every N from M to --N (parameters k = 1..M-1) and fit the tight f in N")
    add_definitions_argument(p, "check only the pairs of these definitions")
    p.add_argument("--all", action="store_true",
                   help="also check the pairs encoded in theorems/ and say which claims discover re-finds")
    p.add_argument("--jobs", "--workers", dest="jobs", type=int, default=None,
                   help="processes, 1 to 64 (default: all cores; --workers is the former name)")
    p.add_argument("--yaml", action="store_true", help="print the YAML snippets of every finding")
    p.add_argument("--write", metavar="DIR", help="write the new findings to DIR/theorems/ and "
                   "DIR/counterexamples/ (for `implgraph map --theorems`)")
    p.add_argument("--json", action="store_true", help="print JSON")


#: the largest --N (N = 1000 takes minutes on two cores; --timeout bounds any run)
MAX_N = 10_000


def _verify_written(tpath, args) -> int:
    """Verify the written claims (the written file alone) and set each ``expect:`` to the verdict."""
    from implgraph.checks.verify import collect_claims, run_verify
    from implgraph.io.console import Progress, verbosity, QUIET
    claims = collect_claims(paths=[str(tpath)])
    with Progress(len(claims), "verify the written claims", enabled=None if verbosity() > QUIET else False,
                  delay=1.0) as bar:
        verdicts = run_verify(paths=[str(tpath)], progress=bar, claims=claims)
    return set_expects(tpath, {v.id: v.verdict for v in verdicts})


def _rows_text(witness) -> str:
    """A witness's rows, each with its class, a run of equal rows written once with its count (``29 x [1/2, 1/2]``)."""
    items = [f"[{', '.join(row)}]" + (f" {witness['classes'][i]}" if witness.get("classes") else "")
             for i, row in enumerate(witness["rows"])]
    runs = []
    for item in items:
        if runs and runs[-1][0] == item:
            runs[-1][1] += 1
        else:
            runs.append([item, 1])
    return "; ".join(item if n == 1 else f"{n} x {item}" for item, n in runs)


def run(args) -> int:
    if not 2 <= args.N <= MAX_N:
        raise InputError(f"--N {args.N} is out of range", fix=f"use 2 <= N <= {MAX_N} (every size k up to N = 7; "
                                                                "above, sampled sizes and tables of blocks of equal rows)")
    if args.write:
        check_write_dir(args.write)          # before the search: a folder that cannot be written is said at once
    r = discover(N=args.N, names=args.definitions, include_known=args.all, workers=args.jobs, n_min=args.from_n)
    compare = compare_with_theorems(r) if args.all else None
    written = write_data(r, args.write) if args.write else None
    rewritten = _verify_written(written[0], args) if written else None
    if args.json:
        out = r.to_json()
        if compare is not None:
            out["theorems"] = compare
        out["yaml"] = [yaml_snippet(d, r.N, n_min=r.n_min) for f in r.findings if not f.known
                       for d in (f.forward, f.backward) if d is not None and d.relation != "unknown"]
        print_json(out)
        return 0
    where = f"N = {r.N}" if (r.n_min or r.N) == r.N else f"N = {r.n_min}..{r.N}"
    print(f"discover at {where}: {r.pairs_checked} ordered pairs checked in {r.seconds} s")
    for s in r.skipped:
        print(f"  skipped {s}")
    for e in r.errors:
        print(f"  error (pair skipped): {e}")
    for f in r.findings:
        mark = " [encoded in theorems/]" if f.known else ""
        print(f"  {f.kind:<16} {f.summary}{mark}")
        if quiet():             # -q: one line per relation found
            continue
        for d in (f.forward, f.backward):
            if d is not None and d.tight_in_N and (r.n_min or r.N) < r.N:
                print(f"  {'':<16}   tight f of {d.a} => {d.b} fitted through N = {r.n_min}..{r.N}: {d.tight_in_N}")
        for d in (f.forward, f.backward):
            if d is not None and d.witness and d.relation == "non-implication":
                rows = _rows_text(d.witness)
                print(f"  {'':<16}   witness {d.a} =/=> {d.b}: {rows}")
    if compare is not None:
        print("\nclaims of theorems/ at this N:")
        for c in compare:
            note = f"  ({c['note']})" if c.get("note") else ""
            extra = {k: v for k, v in c["point"].items() if k != "N"}
            at = " at " + ", ".join(f"{k}={v}" for k, v in extra.items()) if extra else ""
            print(f"  {c['claim'] + at:<48} {c['instance']:<44} claimed {c['claimed']:<14} -> {c['status']}{note}")
    if written:
        print(f"\nwrote {written[0]} and {written[1]}")
        print(f"checked the written claims with implgraph verify: {rewritten} expect: set from its verdicts "
              "(a fitted f between the sampled levels is what verify establishes)")
    if args.yaml:
        print("\n# ---- ready to paste ----")
        for f in r.findings:
            if f.known:
                continue
            for d in (f.forward, f.backward):
                if d is not None and d.relation != "unknown":
                    print(yaml_snippet(d, r.N, n_min=r.n_min))
    return 0
