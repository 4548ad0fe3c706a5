"""``implgraph verify [IDS...] [--json] [--max-n N]``: machine-check every claim of the papers."""

from __future__ import annotations

import sys

from implgraph.io.output import Progress, print_json
from implgraph.checks.verify import DEFAULT_MAX_N, collect_claims, regressions, run_verify

MAX_MAX_N = 16
"""Largest ``--max-n`` (the bounded checks grow quickly with N)."""

NAME = "verify"
HELP = "check every claim (or the ones named): proved / verified-bounded / refuted / confirmed / holds / unknown"
ORDER = 5
TIMEOUT_PER_CLAIM = True
DEFAULT_TIMEOUT = 300


def add_arguments(p):
    p.add_argument("ids", nargs="*", help="claim ids (or id prefixes, e.g. ekenstedt2022/table-III)")
    p.add_argument("--json", action="store_true", help="print JSON {\"claims\": [...]}")
    p.add_argument("--max-n", type=int, default=DEFAULT_MAX_N,
                   help=f"largest N of the bounded checks, 2 to {MAX_MAX_N} (default {DEFAULT_MAX_N})")
    p.add_argument("--jobs", type=int, default=2, help="processes, 1 to 64 (default 2; 1 = no parallelism)")
    p.add_argument("--progress", action="store_true", help="force the progress bar on stderr")


def _short(text, n):
    text = " ".join(str(text or "").split())
    return text if len(text) <= n else text[: n - 3] + "..."


def run(args) -> int:
    from implgraph.core.errors import InputError
    if not 2 <= args.max_n <= MAX_MAX_N:
        raise InputError(f"--max-n {args.max_n} is out of range", fix=f"give 2 <= --max-n <= {MAX_MAX_N}")
    total = len(collect_claims(args.ids))
    progress = Progress(total, "verify", enabled=True if args.progress else None)
    verdicts = run_verify(args.ids, max_n=args.max_n, progress=progress, jobs=args.jobs, timeout=args.timeout)
    progress.close()
    regs = regressions(verdicts)
    if args.json:
        rows = []
        for v in verdicts:
            d = v.to_json()
            d["regression"] = v.expect is not None and v.expect != v.verdict
            rows.append(d)
        print_json({"claims": rows, "max_n": args.max_n,
                    "regressions": [{"id": v.id, "expect": v.expect, "verdict": v.verdict} for v in regs]})
    else:
        w = max(len(v.id) for v in verdicts) if verdicts else 10
        for v in verdicts:
            mark = "" if v.expect is None or v.expect == v.verdict else f"  [expected {v.expect}]"
            print(f"{v.id:<{w}}  {v.verdict:<16} {v.seconds:6.2f}s  {_short(v.printed, 70)}{mark}")
            if v.evidence:
                print(f"{'':<{w}}  {_short(v.evidence, 230)}")
            if v.witness and v.witness.get("rows"):
                ps = ", ".join(f"{k} = {x}" for k, x in v.witness.get("params", {}).items())
                lv = ", ".join(f"{k} = {x}" for k, x in v.witness.items() if k not in ("params", "rows", "buckets",
                                                                                        "classes"))
                rows = " ".join("(" + ", ".join(r) + ")" for r in v.witness["rows"])
                cls = f" classes {' '.join(v.witness['classes'])}" if v.witness.get("classes") else ""
                print(f"{'':<{w}}  witness [{ps}{'; ' + lv if lv else ''}]: {_short(rows, 150)}{cls}")
            if v.tight:
                print(f"{'':<{w}}  tight f = {v.tight}")
            if v.bound:
                print(f"{'':<{w}}  bound: {v.bound}")
        counts = {}
        for v in verdicts:
            counts[v.verdict] = counts.get(v.verdict, 0) + 1
        print(f"{len(verdicts)} verdicts: " + ", ".join(f"{n} {k}" for k, n in sorted(counts.items())))
    if regs:
        for v in regs:
            print(f"implgraph: regression: {v.id}: expected {v.expect}, got {v.verdict}", file=sys.stderr)
        return 1
    return 0
