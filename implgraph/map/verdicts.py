"""Verdicts on the map: which verdict words make a rule a fact, and how chains weaken them.

The map never computes a verdict: its callers hand it ``{claim id: verdict}`` (from ``implgraph
verify``, computed or cached, or from a saved ``verify --json``; see :mod:`implgraph.commands.map`),
and :func:`verdict_lookup` reads any of those shapes.  Only rules whose verdict is *established*
(:data:`ESTABLISHED`) are used as facts; the status of a chain is its weakest link
(:func:`weakest`).
"""

from __future__ import annotations

__all__ = ["ESTABLISHED", "STATUS_ORDER", "is_established", "weakest", "verdict_lookup"]

#: verdicts under which a rule is a fact (``verified-bounded`` is weaker and is carried as such).
ESTABLISHED = ("proved", "confirmed", "holds", "holds-not-tight", "verified-bounded")
#: status order, strongest first (the status of a chain is its weakest link).
STATUS_ORDER = ("proved", "confirmed", "holds", "holds-not-tight", "verified-bounded")


def is_established(verdict) -> bool:
    """True when ``verdict`` makes a rule a fact (:data:`ESTABLISHED`)."""
    return verdict in ESTABLISHED


def weakest(statuses) -> str:
    """The weakest of several established statuses (``proved`` for none).

    Examples
    --------
    >>> weakest(["proved", "holds"])
    'holds'
    >>> weakest([])
    'proved'
    """
    worst = 0
    for s in statuses:
        worst = max(worst, STATUS_ORDER.index(s) if s in STATUS_ORDER else len(STATUS_ORDER))
    return STATUS_ORDER[worst] if worst < len(STATUS_ORDER) else "unknown"


def verdict_lookup(verdicts) -> dict:
    """``{claim id or id#reading: verdict string}`` from verify results.

    Accepts a dict (id -> Verdict / dict / str) or a list of Verdicts / dicts with ``id`` and
    ``verdict`` (the JSON of ``implgraph verify --json``).  A reading's verdict is looked up under
    ``ID#reading`` or in a verdict's ``details["reading_verdict"]``.

    Examples
    --------
    >>> verdict_lookup([{"id": "p/t-1", "verdict": "proved", "details": {"reading_verdict": "refuted"}}])
    {'p/t-1': 'proved', 'p/t-1#reading': 'refuted'}
    """
    out: dict = {}
    if not verdicts:
        return out
    items = verdicts.items() if isinstance(verdicts, dict) else ((None, v) for v in verdicts)
    for key, v in items:
        if isinstance(v, str):
            out[str(key)] = v
            continue
        vid = getattr(v, "id", None) if not isinstance(v, dict) else v.get("id")
        verdict = getattr(v, "verdict", None) if not isinstance(v, dict) else v.get("verdict")
        details = (getattr(v, "details", None) if not isinstance(v, dict) else v.get("details")) or {}
        vid = str(vid or key)
        if verdict:
            out[vid] = str(verdict)
        rv = details.get("reading_verdict") if isinstance(details, dict) else None
        if rv and f"{vid}#reading" not in out:
            out[f"{vid}#reading"] = str(rv)
    return out
