"""``verify``: run every claim of ``theorems/*.yaml`` and ``counterexamples/*.yaml``.

:func:`run_verify` validates the theorem files (bad input raises
:class:`~implgraph.errors.InputError`), collects every claim, dispatches each to its checker
(:func:`implgraph.verdict.check_claim`), adds a row for the proof's reading of claims that have
one (id ``<id>#reading``), judges the implication maps last (they use the other verdicts), and
compares every verdict with the ``expect:`` recorded in the data (a difference is a regression).
"""

from __future__ import annotations

import time

from .errors import InputError
from .theorems import load_claims, load_theorems
from .verdict import Verdict, check_claim

__all__ = ["collect_claims", "run_verify", "regressions", "DEFAULT_MAX_N"]

DEFAULT_MAX_N = 8


def _matches(cid: str, ids) -> bool:
    if not ids:
        return True
    return any(cid == i or cid.startswith(i.rstrip("/") + "/") or cid.startswith(i + "#") for i in ids)


def collect_claims(ids=None) -> list:
    """Every claim node (theorems first, then table claims, maps last), filtered by ``ids``."""
    load_theorems()  # validation: raises InputError on bad input
    claims = load_claims()
    chosen = [c for c in claims if _matches(str(c.get("id")), ids)]
    if ids:
        missing = [i for i in ids if not any(_matches(str(c.get("id")), [i]) for c in claims)]
        if missing:
            raise InputError(f"no claim with id {missing[0]!r}", fix="see `implgraph verify` for the ids")
    maps = [c for c in chosen if c.get("kind") == "map"]
    rest = [c for c in chosen if c.get("kind") != "map"]
    return rest + maps


def run_verify(ids=None, max_n: int = DEFAULT_MAX_N, progress=None) -> list:
    """Verdicts of every (chosen) claim, in order; reading rows follow their claim."""
    claims = collect_claims(ids)
    context = {"max_n": max_n, "verdicts": {}}
    out = []
    for c in claims:
        cid = str(c.get("id"))
        if progress is not None:
            progress.step(cid)
        start = time.perf_counter()
        try:
            v = check_claim(c, context)
        except InputError as exc:
            if exc.file:
                raise
            v = Verdict(id=cid, verdict="unknown", printed=str(c.get("printed", "")),
                        evidence=f"checker reported: {exc.format()}", expect=c.get("expect"))
        except Exception as exc:  # a checker bug must not hide the other verdicts
            v = Verdict(id=cid, verdict="unknown", printed=str(c.get("printed", "")),
                        evidence=f"checker error: {type(exc).__name__}: {exc}", expect=c.get("expect"))
        v.seconds = round(time.perf_counter() - start, 3)
        if v.expect is None and c.get("expect"):
            v.expect = str(c.get("expect"))
        context["verdicts"][cid] = v
        out.append(v)
        for extra in context.pop("extra_rows", []):
            out.append(extra)
    return out


def regressions(verdicts) -> list:
    """Verdicts that differ from the expectation recorded in the data."""
    return [v for v in verdicts if v.expect is not None and str(v.expect) != v.verdict]
