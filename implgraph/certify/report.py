"""The checker's answer on one certificate: accepted or not, and every step it took."""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["CertificateReport"]


@dataclass
class CertificateReport:
    """The checker's answer: ``ok`` and every step ``(what, ok, how)``; ``of``: what was re-checked (``certificate``,
    or ``statement``: whether a row's certificates state its claim, :mod:`implgraph.certify.statement`)."""

    ok: bool
    steps: list = field(default_factory=list)
    of: str = "certificate"

    def to_json(self):
        return {"ok": self.ok, "of": self.of, "steps": [{"step": w, "ok": o, "how": h} for w, o, h in self.steps]}

    def failures(self):
        return [s for s in self.steps if not s[1]]
