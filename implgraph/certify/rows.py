"""The re-check of one verdict's evidence (``implgraph verify --recheck``): its certificates and its statement."""

from __future__ import annotations

from implgraph.certify.report import CertificateReport
from implgraph.certify.size import MAX_SECONDS

__all__ = ["recheck_row", "certificates_in", "CONDITIONAL_MIN_CLASSES"]


def recheck_row(claim, row, budget=MAX_SECONDS, ns=range(2, 13), timeout_ms=4000) -> list:
    """The re-check of one verdict's evidence (``verify --recheck``): a report per certificate (each within
    ``budget`` seconds, :func:`check_certificate`) and one on the statement: do the certificates prove the row's claim
    (:func:`implgraph.certify.statement.check_statement`; ``claim`` is the row's claim node from the claim data, None
    when there is none)? ``[]`` for a row that carries no certificate and needs none; one rejected report for a row
    whose evidence is a proof for every value (``proved``, or ``refuted`` by a proof of the opposite) without one.

    ``row`` is a :class:`implgraph.core.verdict.Verdict` or its JSON (``id``, ``verdict``, ``strength``,
    ``evidence``, ``tight``, ``details``, ``refuted_by``)."""
    from implgraph.certify import check_certificate
    from implgraph.certify.statement import check_statement
    get = (lambda k: row.get(k)) if isinstance(row, dict) else (lambda k: getattr(row, k, None))     # noqa: E731
    certs = certificates_in(get("details"))
    if not certs:
        if get("strength") != "proved":
            return _conditional_reports(claim, get, budget, ns, timeout_ms)
        what = "refuted by a proof" if get("verdict") == "refuted" else "proved"
        return [CertificateReport(False, [("certificate", False, f"{what} without a certificate")])]
    reports = [check_certificate(c, ns, timeout_ms, budget) for c in certs]
    return reports + [check_statement(claim, row, certs)] + _conditional_reports(claim, get, budget, ns, timeout_ms)


#: the assumption of a conditional verdict, and the ``min_classes`` its certificate must state
CONDITIONAL_MIN_CLASSES = {"partitions into at least 2 classes": 2}


def _conditional_reports(claim, get, budget, ns, timeout_ms) -> list:
    """The re-check of the verdict a row gives under an assumption (``details.conditional``), where a proof carries
    it: its certificate accepted, stating the row's claim, for the partitions the assumption names."""
    cond = (get("details") or {}).get("conditional")
    if not isinstance(cond, dict) or not cond.get("certificate"):
        return []
    cert = cond["certificate"]
    want = CONDITIONAL_MIN_CLASSES.get(str(cond.get("assumption")))
    mc = cert.get("min_classes") if isinstance(cert, dict) else None
    fits = want is not None and mc == want
    fit = CertificateReport(fits, [(f"the conditional certificate is for the assumption {cond.get('assumption')!r}",
                                    fits, f"min_classes {mc!r}")], "conditional")
    sub = {"id": get("id"), "verdict": cond.get("verdict"), "refuted_by": cond.get("refuted_by"),
           "strength": "proved", "evidence": cond.get("evidence"), "tight": cond.get("tight"),
           "details": {"certificate": cert}}
    return [fit] + recheck_row(claim, sub, budget, ns, timeout_ms)


def certificates_in(details) -> list:
    """The certificates a verdict's ``details`` carries (``certificate`` and ``certificates``)."""
    details = details or {}
    out = [details.get("certificate")] + list(details.get("certificates") or [])
    return [c for c in out if c]
