"""``implgraph claims [ID-OR-PREFIX...] [--kind KIND] [--paper KEY] [--json]``: list the claims.

Every claim of the bundled data (``theorems/*.yaml`` and the table claims of
``counterexamples/*.yaml``, as :func:`implgraph.io.theorems.load_claims` reads them) with its id, kind,
paper, source, printed statement, ``expect:`` and the definitions it relates. A claim with a proof's
reading (``reading:``) gets a second row ``ID#reading``, as in ``implgraph verify``. Ids and id
prefixes select as in ``implgraph verify`` (``ekenstedt2022/table-III`` selects the table's claims,
``ekenstedt2022`` the paper's). Nothing is checked: no checker runs, the data is only loaded (with
the load-time validation of :func:`implgraph.io.validate.load_yaml`).
"""

from __future__ import annotations

import difflib

from implgraph.io.datafile import TABLE_CLAIM_KINDS, THEOREM_CLAIM_KINDS
from implgraph.core.errors import InputError
from implgraph.io.console import QUIET, emit, emit_row, results_console, verbosity
from implgraph.io.output import print_json
from implgraph.io.datafile import EDGE_KINDS

NAME = "claims"
HELP = "list the claims of the data (id, kind, source, statement, expect, definitions); nothing is checked"
PRINTS_VERDICTS = True
"""Its output carries verdict words: its ``--help`` explains them."""
ORDER = 4

KINDS = tuple(dict.fromkeys(EDGE_KINDS + THEOREM_CLAIM_KINDS + TABLE_CLAIM_KINDS))
"""Every claim kind the data files accept."""

def add_arguments(p):
    p.add_argument("ids", nargs="*", metavar="ID-OR-PREFIX",
                   help="claim ids or id prefixes, e.g. ekenstedt2022/table-III or ekenstedt2022 (default: all)")
    p.add_argument("--kind", metavar="KIND", help="only claims (and readings) of this kind: " + ", ".join(KINDS))
    p.add_argument("--paper", metavar="KEY", help="only the claims of this paper (the id's first part, e.g. sei2019)")
    p.add_argument("--json", action="store_true", help='print JSON {"claims": [...]}, statements in full')


def _text(value) -> str:
    return " ".join(str(value or "").split())


def side_label(spec) -> str | None:
    """``NAME(k=1)``, ``NAME[classes min_size=k]``, ``NAME@class`` for a ``from``/``to``."""
    if not isinstance(spec, dict) or not spec.get("definition"):
        return None
    params = spec.get("params") or {}
    label = str(spec["definition"])
    if isinstance(params, dict) and params:
        label += "(" + ", ".join(f"{k}={_text(v)}" for k, v in params.items()) + ")"
    classes = spec.get("classes")
    if isinstance(classes, dict) and classes:
        label += "[classes " + ", ".join(f"{k}={_text(v)}" for k, v in classes.items()) + "]"
    if spec.get("scope") == "class":
        label += "@class"
    return label


def _relates(row) -> str:
    """What the claim relates, in one phrase: ``A -> B``, a definition at a level, a map's size."""
    if row.get("from") and row.get("to"):
        return f"{row['from']} -> {row['to']}" + (f", f = {row['f']}" if row.get("f") else "")
    if row.get("definition"):
        return f"{row['definition']} at level {row['level']}" if row.get("level") else row["definition"]
    return row.get("about") or ""


def _row(c, reading: bool = False) -> dict:
    """One listing row of the claim node ``c`` (its reading's row with ``reading=True``)."""
    cid = str(c.get("id"))
    pick = (lambda key: c.get(f"reading_{key}") or c.get(key)) if reading else c.get
    kind = str(pick("kind") or "")
    row = {
        "id": cid + "#reading" if reading else cid,
        "kind": kind,
        "paper": cid.split("/")[0],
        "source": _text(c.get("source")) or None,
        "printed": _text(c.get("reading") if reading else c.get("printed")),
        "expect": c.get("reading_expect") if reading else c.get("expect"),
        "from": side_label(pick("from")),
        "to": side_label(pick("to")),
        "f": _text(pick("f")) or None,
        "table": c.get("_table"),
        "file": getattr(c, "file", None),
        "line": getattr(c, "line", None),
    }
    if reading or c.get("reading_of"):
        row["reading_of"] = cid if reading else str(c.get("reading_of"))
    if c.get("expect_confidence") and not reading:
        row["expect_confidence"] = str(c["expect_confidence"])
    if c.get("definition"):
        row["definition"] = side_label({"definition": c["definition"], "params": c.get("params"),
                                        "scope": c.get("scope")})
        row["level"] = _text(c.get("level")) or None
        row["bound"] = c.get("bound") or ("satisfies" if c.get("level") is not None else None)
    if kind == "map":
        row["about"] = f"{len(c.get('arrows') or [])} arrows between {len(c.get('nodes') or [])} nodes"
    elif kind == "reachability":
        row["about"] = (f"{', '.join(map(str, c.get('from_families') or []))} reach "
                        f"{', '.join(map(str, c.get('to_families') or []))}")
    return {k: v for k, v in row.items() if v is not None}


def all_rows() -> list:
    """Every claim's row, each followed by its ``#reading`` row where it has a reading."""
    from implgraph.io.theorems import load_claims
    rows = []
    for c in load_claims():
        rows.append(_row(c))
        if c.get("reading") is not None:
            rows.append(_row(c, reading=True))
    return rows


def _no_match(wanted: str, rows) -> InputError:
    """The error for an id or prefix that selects nothing, with the nearest ids as the fix."""
    names = sorted({r["id"] for r in rows} | {r["paper"] for r in rows} |
                   {r["table"] for r in rows if r.get("table")})
    near = difflib.get_close_matches(wanted, names, n=3, cutoff=0.6)
    fix = (f"did you mean {', '.join(near)}? " if near else "") + \
        f"give a claim id or an id prefix such as a paper key ({', '.join(sorted({r['paper'] for r in rows}))}); " \
        "`implgraph claims` lists every id"
    return InputError(f"no claim with id or id prefix {wanted!r}", fix=fix)


def select(rows, ids=(), kind=None, paper=None) -> list:
    """The rows chosen by ids / id prefixes (as ``implgraph verify``), ``kind`` and ``paper``.

    Raises
    ------
    InputError
        An id or prefix matching no claim, an unknown paper key, or filters that leave nothing.
    """
    from implgraph.checks.verify import id_matches
    papers = sorted({r["paper"] for r in rows})
    if kind is not None and kind not in KINDS:
        raise InputError(f"no claim kind {kind!r}", fix="give one of " + ", ".join(KINDS))
    if paper is not None and paper not in papers:
        raise InputError(f"no paper {paper!r} in the data", fix="give one of " + ", ".join(papers))
    for wanted in ids:
        if not any(id_matches(r["id"], [wanted]) for r in rows):
            raise _no_match(wanted, rows)
    chosen = [r for r in rows if id_matches(r["id"], list(ids))
              and (kind is None or r["kind"] == kind) and (paper is None or r["paper"] == paper)]
    if not chosen:
        what = " ".join(list(ids) + ([f"--kind {kind}"] if kind else []) + ([f"--paper {paper}"] if paper else []))
        raise InputError(f"no claim matches {what}", fix="drop a filter; `implgraph claims` lists every claim "
                         "with its kind")
    return chosen


def _print_text(rows) -> None:
    """One row per claim (id, kind, expect, the definitions it relates), its source and statement in full
    under it (wrapped on a terminal); ``-q``: the counts only."""
    w = max(len(r["id"]) for r in rows)
    kw = max(len(r["kind"]) for r in rows)
    console = results_console()
    if verbosity() > QUIET:
        for r in rows:
            expect = r.get("expect") or "-"
            if r.get("expect_confidence"):
                expect += f" ({r['expect_confidence']} confidence)"
            lead = f"{r['source']}: " if r.get("source") else ""
            emit_row([r["id"].ljust(w), r["kind"].ljust(kw), f"expect {expect:<16}"], _relates(r),
                     [lead + r["printed"]], indent=w + 2, console=console)
    counts: dict = {}
    for r in rows:
        counts[r["kind"]] = counts.get(r["kind"], 0) + 1
    readings = sum(1 for r in rows if r["id"].endswith("#reading"))
    emit(f"{len(rows) - readings} claims and {readings} readings: "
         + ", ".join(f"{n} {k}" for k, n in sorted(counts.items())), console)


def run(args) -> int:
    rows = select(all_rows(), args.ids, kind=args.kind, paper=args.paper)
    if args.json:
        print_json({"claims": rows, "count": len(rows)})
    else:
        _print_text(rows)
    return 0
