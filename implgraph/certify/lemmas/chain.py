"""The lemma ``chain``: a declared finite level, then that definition's bound.

Two parts, A => X with U = T (method ``finite-level-of``: A's level is X's wherever finite) and X => B, each
re-checked; the parts' sides link (the first's A is the certificate's, its B the second's A, the second's B the
certificate's), their symbols are the certificate's and their domains among its conditions, and U is the second
part's bound (as quotients, or by exact algebra where it is a log): a table with A <= T has X <= T, hence B <= U. A
tightness family is checked with the certificate's own sides (A's level exactly, e.g. a capped level on a family split
over many buckets).
"""

from __future__ import annotations

from implgraph.certify.composite import recheck_parts, same_quotients
from implgraph.certify.family import family_step
from implgraph.certify.lemmas import lemma
from implgraph.certify.report import CertificateReport
from implgraph.core import methods

__all__ = ["check"]


@lemma(methods.CHAIN)
def check(cert, ns=range(2, 13), timeout_ms=4000) -> CertificateReport:
    """Re-check a ``chain`` certificate (module notes)."""
    from implgraph.certify import UNREADABLE
    from implgraph.certify.domain import Domain
    parts = cert.get("parts") or []
    steps = [("two parts", len(parts) == 2, f"{len(parts)} parts")]
    if len(parts) != 2:
        return CertificateReport(False, steps)
    first, second = parts
    steps += recheck_parts(cert, parts, ns, timeout_ms,
                           lambda i, part: (f"part {i}'s symbols and domain are the certificate's", True))
    steps.append(("the parts link A => X => B", first.get("A") == cert.get("A") and first.get("B") == second.get("A")
                  and second.get("B") == cert.get("B"), "exact"))
    try:
        rd = Domain(cert).reader
        steps.append(("the first part's U is T (X's level at most A's)",
                      first.get("method") == methods.FINITE_LEVEL_OF.name
                      and same_quotients(rd.ratio_components(first.get("upper")), rd.ratio_components("T")), "exact"))
        steps.append(("U is the second part's bound", _same_upper(rd, cert.get("upper"), second.get("upper")),
                      "exact"))
    except UNREADABLE as exc:
        steps.append(("certificate readable", False, f"{exc.__class__.__name__}: {exc}"))
    if cert.get("tight"):
        steps.append(family_step(cert, ns))
    return CertificateReport(all(s[1] for s in steps), steps)


def _same_upper(rd, one, other) -> bool:
    """Are two bounds the same: as quotients where both are rational functions, else (a log, e.g. the chord's
    log T) their difference simplifies to 0 in exact algebra."""
    import sympy

    from implgraph.certify import UNREADABLE
    from implgraph.core.formula import parse_expr
    try:
        return same_quotients(rd.ratio_components(one), rd.ratio_components(other))
    except UNREADABLE:
        names = {"N": sympy.Symbol("N", integer=True, positive=True), "T": sympy.Symbol("T", positive=True)}
        x, y = (parse_expr(str(t), names) for t in (one, other))
        return sympy.simplify(sympy.expand_log(x - y, force=True)) == 0
