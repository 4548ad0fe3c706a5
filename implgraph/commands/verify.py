"""``implgraph verify [IDS...] [--json] [--max-n N]``: machine-check every claim of the papers.

Each claim's row is printed as soon as the claim is decided (flushed, also into a pipe); a
piecewise exact level is printed with its conditions simplified on the table's region. ``--json``
prints one document at the end (the same content as always: CI parses it).
"""

from __future__ import annotations

import sys

from implgraph.certify.size import MAX_SECONDS
from implgraph.checks.verify import DEFAULT_MAX_N, collect_claims, regressions, run_verify
from implgraph.commands._data import add_data_arguments, data_sources
from implgraph.core.errors import InputError
from implgraph.core.assumption_order import unshuffled
from implgraph.core.gc_batch import fewer_collections
from implgraph.io.console import (QUIET, VERBOSE, Progress, emit, emit_row, results_console, verbosity, verdict_text,
                                   with_decimal)
from implgraph.io.output import print_json
from implgraph.io.pieces_text import pieces_text, simplified_pieces, tidy_conditions

MAX_MAX_N = 16
"""Largest ``--max-n`` (the bounded checks grow quickly with N)."""
MAX_RECHECK_BUDGET = 3600.0
"""Largest ``--recheck-budget`` (seconds per certificate)."""

NAME = "verify"
HELP = "check every claim (or the ones named): proved / verified-bounded / refuted / confirmed / holds / unknown"
PRINTS_VERDICTS = True
"""Its output carries verdict words: its ``--help`` explains them."""
ORDER = 5
TIMEOUT_PER_CLAIM = True
DEFAULT_TIMEOUT = 300
VERDICT_WIDTH = 16


def add_arguments(p):
    p.add_argument("ids", nargs="*", help="claim ids (or id prefixes, e.g. ekenstedt2022/table-III)")
    p.add_argument("--json", action="store_true", help="print JSON {\"claims\": [...]} (at the end)")
    p.add_argument("--max-n", type=int, default=DEFAULT_MAX_N,
                   help=f"largest N of the bounded checks, 2 to {MAX_MAX_N} (default {DEFAULT_MAX_N})")
    p.add_argument("--jobs", type=int, default=2, help="processes, 1 to 64 (default 2; 1 = no parallelism)")
    p.add_argument("--progress", action="store_true", help="force the progress bar on stderr")
    p.add_argument("--recheck", action="store_true", help="re-check the certificate of every proved claim (and every "
                   "refutation by a proof) with the independent checker implgraph.certify, and that it states the "
                   "row's claim as the claim data give it (exit status 1 if one is rejected or missing)")
    p.add_argument("--recheck-budget", type=float, default=MAX_SECONDS, metavar="SECONDS",
                   help=f"with --recheck: seconds each certificate's re-check may take; past it the certificate is "
                   f"not accepted (default {MAX_SECONDS:g})")
    add_data_arguments(p)


def _table_of(claims) -> dict:
    """``{claim id: table id}`` for the table claims (their region simplifies the printed pieces)."""
    return {str(c.get("id")): str(c["_table"]) for c in claims if c.get("_table") is not None}


def _pieces(v, table_id):
    """The verdict's exact piecewise level, simplified on its table's region (None if it has none)."""
    level = (v.details or {}).get("level") if isinstance(v.details, dict) else None
    if not table_id or not isinstance(level, dict) or len(level.get("pieces") or []) < 2:
        return None
    from implgraph.io.counterexamples import get_table
    try:
        table = get_table(table_id)
    except InputError:
        return None
    return simplified_pieces(level["pieces"], table.region, table.symbols)


def _witness_line(w) -> str:
    ps = ", ".join(f"{k} = {x}" for k, x in w.get("params", {}).items())
    lv = ", ".join(f"{k} = {with_decimal(x)}" for k, x in w.items()
                   if k not in ("params", "rows", "buckets", "classes"))
    rows = " ".join("(" + ", ".join(r) + ")" for r in w["rows"])
    cls = f" classes {' '.join(w['classes'])}" if w.get("classes") else ""
    return f"witness [{ps}{'; ' + lv if lv else ''}]: {rows}{cls}"


def print_verdict(v, width: int, table_id=None, console=None) -> None:
    """One verdict: its row (id, verdict, seconds, the printed claim), then evidence, witness, tight f,
    bound (and, with ``-v``, the exact level piece by piece and the source)."""
    evidence = " ".join(str(v.evidence or "").split())
    shown = verbosity() >= VERBOSE or (v.exact and v.exact in evidence)
    pieces = _pieces(v, table_id) if shown else None
    if pieces and v.exact and v.exact in evidence:
        evidence = evidence.replace(v.exact, pieces_text(pieces))
    details = [tidy_conditions(evidence)] if evidence else []
    if v.witness and v.witness.get("rows"):
        details.append(_witness_line(v.witness))
    if v.tight_str:
        details.append(f"tight f = {tidy_conditions(v.tight_str)}")
    if v.bound:
        details.append(f"bound: {tidy_conditions(v.bound)}")
    if verbosity() >= VERBOSE:
        if pieces:
            details.append("exact level:")
            details += [f"  {level}   if {cond}" for level, cond in pieces]
        elif v.exact:
            details.append(f"exact: {tidy_conditions(v.exact)}")
        if v.source:
            details.append(f"source: {v.source}")
    if v.expect is not None and v.expect != v.verdict:
        details.append(f"[expected {v.expect}]")
    cells = [v.id.ljust(width), verdict_text(v.verdict, VERDICT_WIDTH), f"{v.seconds:6.2f}s"]
    emit_row(cells, " ".join(str(v.printed or "").split()), details, indent=width + 2, console=console)


def _recheck(verdicts, claims, budget=MAX_SECONDS) -> dict:
    """``{row id: [CertificateReport]}`` for every verdict carrying certificates or needing one (``--recheck``,
    :func:`implgraph.certify.recheck_row`): each certificate re-checked within ``budget`` seconds, and whether they
    state the row's claim, read from ``claims`` (the claim nodes of the data files; a ``#reading`` row's is its
    claim's). A row whose evidence is a proof for every value without a certificate gets one rejected report."""
    from implgraph.certify import recheck_row
    by_id = {str(c.get("id")): c for c in claims if isinstance(c, dict)}
    out = {}
    for v in verdicts:
        reports = recheck_row(by_id.get(str(v.id).split("#")[0]), v, budget=budget)
        if reports:
            out[v.id] = reports
    return out


def _recheck_text(reports) -> str:
    """The re-check of one row as text: ``accepted`` / ``REJECTED: step: how`` per certificate, then the statement."""
    def one(r):
        return "accepted" if r.ok else "REJECTED: " + "; ".join(f"{w}: {h}" for w, _, h in r.failures())
    certs = [one(r) for r in reports if r.of != "statement"]
    stated = [one(r) for r in reports if r.of == "statement"]
    return ", ".join(certs) + "".join(f"; statement {s}" for s in stated)


def summary(verdicts) -> str:
    """``N verdicts: n1 word1, n2 word2, ...``."""
    counts: dict = {}
    for v in verdicts:
        counts[v.verdict] = counts.get(v.verdict, 0) + 1
    return f"{len(verdicts)} verdicts: " + ", ".join(f"{n} {k}" for k, n in sorted(counts.items()))


@fewer_collections()
@unshuffled()
def run(args) -> int:
    if not 2 <= args.max_n <= MAX_MAX_N:
        raise InputError(f"--max-n {args.max_n} is out of range", fix=f"give 2 <= --max-n <= {MAX_MAX_N}")
    if not 0 <= args.recheck_budget <= MAX_RECHECK_BUDGET:     # (nan is out of range too)
        raise InputError(f"--recheck-budget {args.recheck_budget:g} is out of range",
                         fix=f"give 0 <= --recheck-budget <= {MAX_RECHECK_BUDGET:g} (seconds; 0 accepts no certificate)")
    with data_sources(args, with_tables=True) as paths:     # --theorems / --tables add; --only replaces
        return _verify(args, paths)


def _verify(args, paths) -> int:
    collected = collect_claims(args.ids) if paths is None else collect_claims(args.ids, paths)
    claims = [c for c in collected if isinstance(c, dict)]
    tables = _table_of(claims)
    width = max((len(str(c.get("id"))) for c in claims), default=10)
    console = results_console()
    stream = not args.json and verbosity() > QUIET

    # rows are printed in the claims' order, each as soon as the claims before it are printed (the processes of
    # --jobs finish in any order: the output is the same on every run)
    order = [str(c.get("id")) for c in claims]
    waiting, printed = {}, [0]

    with Progress(len(claims), "verify", enabled=True if args.progress else None) as bar:
        def show(rows):
            for v in rows:
                print_verdict(v, width, tables.get(v.id.split("#")[0]), console)

        def on_rows(rows):
            bar.step(rows[0].id)
            if not stream:
                return
            if rows[0].id not in order[printed[0]:]:
                show(rows)
                return
            waiting[rows[0].id] = rows
            while printed[0] < len(order) and order[printed[0]] in waiting:
                show(waiting.pop(order[printed[0]]))
                printed[0] += 1

        verdicts = run_verify(args.ids, max_n=args.max_n, jobs=args.jobs, timeout=args.timeout, paths=paths,
                              on_rows=on_rows, claims=collected)
        for cid in order[printed[0]:]:          # (a claim that gave no rows holds none back)
            show(waiting.pop(cid, []))
    regs = regressions(verdicts)
    rechecks = _recheck(verdicts, collected, args.recheck_budget) if args.recheck else {}
    if args.json:
        rows = []
        for v in verdicts:
            d = v.to_json()
            d["regression"] = v.expect is not None and v.expect != v.verdict
            if v.id in rechecks:
                d["recheck"] = [r.to_json() for r in rechecks[v.id]]
            rows.append(d)
        print_json({"claims": rows, "max_n": args.max_n,
                    "regressions": [{"id": v.id, "expect": v.expect, "verdict": v.verdict} for v in regs]})
    else:
        emit(summary(verdicts), console)
        for cid, reps in rechecks.items():
            emit(f"recheck {cid}: {_recheck_text(reps)}", console)
    return _exit_status(regs, rechecks)


def _exit_status(regs, rechecks) -> int:
    """One line on standard error for each regression, each claim stopped by --timeout and each rejected certificate;
    the exit status: 1 for a regression (a verdict differing from the data's, the timeout's apart) or a rejected
    certificate, else 3 where a claim's --timeout passed, else 0."""
    timed_out = [v for v in regs if (v.details or {}).get("timeout") is not None]
    for v in regs:
        if v in timed_out:      # not the engine's answer changing: the check was stopped (exit status 3)
            print(f"implgraph: {v.id}: {v.evidence}; fix: raise --timeout (0: no limit)", file=sys.stderr)
        else:
            print(f"implgraph: regression: {v.id}: expected {v.expect}, got {v.verdict}", file=sys.stderr)
    rejected = [cid for cid, reps in rechecks.items() if any(not r.ok for r in reps)]
    for cid in rejected:
        why = "; ".join(f"{w}: {h}" for r in rechecks[cid] for w, _, h in r.failures()[:1])
        print(f"implgraph: recheck: {cid}: {' '.join(why.split())}", file=sys.stderr)
    return 1 if rejected or len(regs) > len(timed_out) else 3 if timed_out else 0
