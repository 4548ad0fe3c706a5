"""The lemma ``class-size-floor``: B's level, the smallest class's size, is at least A's
declared minimum class size.

A certificate of this kind says that B's raw level is at least ``lower`` on every table whose A raw level is at
most T (a finite T), for every point of ``domain``. The checker trusts two declarations of the registry, as
the other lemmas trust theirs, and reads them from the registry, not from the certificate:

- A declares a parameter a minimum class size (``MinClassSize``): A's level is infinite on a table with a class
  of fewer records than that parameter's value s, so every table satisfying A at a finite T has classes of
  >= s records;
- B declares its level the size of the smallest class (``ClassSizeLevel()``, larger is stronger, no parameters).

Hence B's level is >= s on every such table; the certificate's ``lower`` must be s (the sides' class sizes are s
too). Where it claims tightness, its family (blocks of records uniform over values of their own, in classes) is
evaluated exactly at every sampled point like any other family (:func:`implgraph.certify.family.check_family`): A <= T and
B = ``lower``, on the family's own domain where it has one (only the registry's conditions: where A's uniform class
meets T, and 2 s <= N).
"""

from __future__ import annotations

from implgraph.certify.family import check_family
from implgraph.certify.lemmas import lemma
from implgraph.certify.registered import declared_min_class, registered, registered_steps
from implgraph.certify.report import CertificateReport
from implgraph.core import methods

__all__ = ["check"]


def _statement_bound(cert, direction, names):
    """The statement's reading: ``lower`` bounds B's raw level from below."""
    from implgraph.certify.claim import parse_expr
    return None if cert.get("lower") is None else (parse_expr(cert["lower"], names), False)


@lemma(methods.CLASS_SIZE_FLOOR, bound=_statement_bound, own_partitions=True)
def check(cert, ns=range(2, 13), timeout_ms=4000):
    """Re-check a ``class-size-floor`` certificate; a :class:`implgraph.certify.CertificateReport`."""
    from implgraph.certify import UNREADABLE
    from implgraph.certify.domain import Domain
    from implgraph.definitions.capabilities import ClassSizeLevel
    steps = []
    try:
        A, B = cert["A"], cert["B"]
        steps += registered_steps(cert)
        domain = Domain(cert)
        rd = domain.reader
        declared = declared_min_class(A, B, rd)
        steps += [(what, bool(ok), "the registry") for what, ok in declared] or [
            ("A declares a parameter a minimum class size (min_class_param)", False, "none named")]
        d = registered(B.get("definition"))
        steps.append(("B's registered definition declares its level the smallest class's size, without parameters",
                      d is not None and d.has(ClassSizeLevel) and not getattr(d, "params", None)
                      and bool(B.get("class_size_level")) and not B.get("params"), "the registry"))
        name = A.get("min_class_param")
        value = (A.get("params") or {}).get(name) if name else None
        steps.append(("lower is A's minimum class size", value is not None
                      and rd.poly(str(cert["lower"])) == rd.poly(str(value)), "exact"))
        if cert.get("tight"):
            ok, how = check_family({**cert, "upper": cert["lower"]}, domain, ns)
            where = (cert.get("tightness") or {}).get("domain")
            steps.append(("tightness family attains the lower bound" + (
                f" where {' and '.join(map(str, where))}" if where else ""), ok, how))
    except UNREADABLE as exc:
        steps.append(("certificate readable", False, f"{exc.__class__.__name__}: {exc}"))
    return CertificateReport(bool(steps) and all(s[1] for s in steps), steps)
