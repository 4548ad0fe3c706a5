"""The lemma ``min``: the smaller of two or more proved bounds is a bound.

If B's raw level is at most U_i on every table whose A raw level is at most T, for each part i (each re-checked
on its own, each stating the certificate's claim: its sides and symbols, its domain among the certificate's
conditions), it is at most ``Min(U_1, ..., U_n)``: U must be that ``Min`` (its components, compared as quotients).
Where the certificate claims tightness, its family attains U (checked with the certificate's own sides).
"""

from __future__ import annotations

from implgraph.certify.composite import recheck_parts, same_quotients
from implgraph.certify.family import family_step
from implgraph.certify.lemmas import lemma
from implgraph.certify.report import CertificateReport
from implgraph.core import methods

__all__ = ["check"]


@lemma(methods.MIN)
def check(cert, ns=range(2, 13), timeout_ms=4000) -> CertificateReport:
    """Re-check a ``min`` certificate (module notes)."""
    from implgraph.certify import UNREADABLE
    from implgraph.certify.domain import Domain
    parts = cert.get("parts") or []
    steps = [("two or more parts", len(parts) >= 2, f"{len(parts)} parts")]
    steps += recheck_parts(cert, parts, ns, timeout_ms, lambda i, part: (
        f"part {i} states the certificate's claim (sides, symbols, domain)",
        part.get("A") == cert.get("A") and part.get("B") == cert.get("B")))
    try:
        rd = Domain(cert).reader
        ok = same_quotients(rd.ratio_components(cert["upper"]),
                            [q for part in parts for q in rd.ratio_components(part["upper"])])
    except UNREADABLE as exc:
        ok = False
        steps.append(("certificate readable", False, f"{exc.__class__.__name__}: {exc}"))
    steps.append(("U = Min of the parts' bounds", ok, "exact"))
    if cert.get("tight"):       # the parts bound B from above; a family with the certificate's sides attains U
        steps.append(family_step(cert, ns))
    return CertificateReport(all(s[1] for s in steps), steps)
