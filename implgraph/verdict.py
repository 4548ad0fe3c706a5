"""Verdicts: the one result type every checker returns, and the registry of claim checkers.

A verdict is three-valued in spirit (sympy assumptions style): a claim is established
(``proved``, ``verified-bounded``, ``confirmed``, ``holds``, ``holds-not-tight``), refuted
(``refuted``, with an exact witness re-checked in exact arithmetic), or ``unknown`` (a solver's
unknown or timeout, or nothing applies) -- never silently "proved".

Checkers register per claim ``kind`` with :func:`checker`; :func:`check_claim` dispatches.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field

__all__ = ["Verdict", "VERDICTS", "checker", "check_claim", "CHECKERS"]

VERDICTS = ("proved", "verified-bounded", "refuted", "confirmed", "holds", "holds-not-tight", "unknown")


@dataclass
class Verdict:
    """The engine's answer on one claim, with its evidence.

    Attributes
    ----------
    id, printed, reading : str
        The claim's id, its printed statement, and the proof's reading where it differs.
    verdict : str
        One of :data:`VERDICTS`.
    exact : str
        The exact quantity behind the verdict (the optimal level, the tight f, ...).
    evidence : str
        One human sentence: why.
    bound : str or None
        For bounded checks: what was checked, e.g. "N <= 12".
    witness : dict or None
        Exact rationals as strings: {"params": {...}, "rows": [[...], ...], "classes": [...]}.
    tight : str or None
        The tight function as a sympy string (implications with an explicit f).
    seconds : float
    expect : str or None
        The expectation recorded in the data (for regression detection).
    details : dict
        Anything else worth exporting (pieces, limits, witness families).
    """

    id: str
    verdict: str
    printed: str = ""
    reading: str | None = None
    exact: str | None = None
    evidence: str = ""
    bound: str | None = None
    witness: dict | None = None
    tight: str | None = None
    seconds: float = 0.0
    expect: str | None = None
    details: dict = field(default_factory=dict)
    source: str | None = None

    def __post_init__(self):
        if self.verdict not in VERDICTS:
            raise ValueError(f"unknown verdict {self.verdict!r}")

    @property
    def regression(self) -> bool:
        return self.expect is not None and self.expect != self.verdict

    def to_json(self) -> dict:
        return asdict(self)


CHECKERS: dict = {}


CHECKER_MODULES = ("implgraph.claims", "implgraph.theorem_checks", "implgraph.mechanism_claims")


def load_checkers() -> None:
    """Import the modules that register checkers (missing optional modules are skipped)."""
    import importlib
    for name in CHECKER_MODULES:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise


def checker(*kinds):
    """Register ``func(claim, context) -> Verdict`` for claim kinds or claim ids.

    A key containing ``/`` is a claim id (e.g. ``ekenstedt2022/eq-1``) and wins over the kind.
    """
    def deco(func):
        for kind in kinds:
            CHECKERS[kind] = func
        return func
    return deco


def check_claim(claim, context=None) -> Verdict:
    """Dispatch a claim (a data-file mapping with ``kind``) to its checker; time it."""
    load_checkers()
    kind = claim.get("kind")
    func = CHECKERS.get(str(claim.get("id"))) or CHECKERS.get(kind)
    start = time.perf_counter()
    if func is None:
        v = Verdict(id=str(claim.get("id")), verdict="unknown", printed=str(claim.get("printed", "")),
                    evidence=f"no checker for claim kind {kind!r}")
    else:
        v = func(claim, context)
    v.seconds = round(time.perf_counter() - start, 3)
    if v.expect is None and claim.get("expect"):
        v.expect = str(claim.get("expect"))
    if not v.source and claim.get("source"):
        v.source = str(claim.get("source"))
    return v
