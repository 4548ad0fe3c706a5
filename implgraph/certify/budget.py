"""A re-check within a time budget: past it, the certificate is not accepted."""

from __future__ import annotations

from implgraph.certify.report import CertificateReport

__all__ = ["within_budget"]


def within_budget(run, budget) -> CertificateReport:
    """``run()`` (a :class:`CertificateReport`) within ``budget`` seconds, else a report "not accepted: time budget
    exceeded". A deadline (:func:`implgraph.core.deadline.deadline`) interrupts the re-check when the budget passes;
    where no timer can be armed (off the main thread), the time taken is compared with the budget afterwards. A
    deadline of an enclosing block that passes first is that block's: it is raised on."""
    import time
    from implgraph.core.deadline import as_timeout, deadline
    if not budget > 0:
        return _over_budget(budget)
    start = time.monotonic()
    try:
        with deadline(budget):
            rep = run()
    except BaseException as exc:
        timeout = as_timeout(exc)
        if timeout is None:
            raise
        if time.monotonic() - start < budget:       # an enclosing deadline's, not the budget's
            raise timeout from None
        return _over_budget(budget)
    if time.monotonic() - start > budget:
        return _over_budget(budget)
    return rep


def _over_budget(budget) -> CertificateReport:
    return CertificateReport(False, [("time budget", False, f"not accepted: time budget exceeded ({budget:g} s)")])
