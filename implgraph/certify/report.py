"""The checker's answer on one certificate: accepted or not, and every step it took."""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field

__all__ = ["CertificateReport", "lemma_steps", "steps_report"]


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


def steps_report(steps) -> CertificateReport:
    """The report on a lemma's steps ``[(what, ok, how)]``: accepted where there is at least one and every one holds."""
    return CertificateReport(bool(steps) and all(s[1] for s in steps), steps)


def _unreadable(exc) -> tuple:
    return ("certificate readable", False, f"{exc.__class__.__name__}: {exc}")


@contextmanager
def lemma_steps(cert):
    """The steps of one lemma's re-check, opened with the sides' registration steps
    (:func:`implgraph.certify.registered.registered_steps`); a certificate that cannot be read (a missing or malformed
    field, an expression outside the safe parser, a value outside a definition's range) inside the block ends the
    block with the failed step "certificate readable" instead of an error. Use as
    ``with lemma_steps(cert) as steps: ...`` then ``return steps_report(steps)``."""
    from implgraph.certify import UNREADABLE
    from implgraph.certify.registered import registered_steps
    from implgraph.core.errors import InputError
    steps = []
    try:
        steps += registered_steps(cert)
    except (*UNREADABLE, InputError) as exc:
        steps.append(_unreadable(exc))
    try:
        yield steps
    except (*UNREADABLE, InputError) as exc:
        steps.append(_unreadable(exc))
