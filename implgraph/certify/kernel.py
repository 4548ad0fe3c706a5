"""The common re-check of a certificate bounding one level by another, through the lemma its method names.

A certificate of a bound between two levels says that B's raw level is at most ``upper`` = U(T, N, parameters) on
every table whose A raw level is at most T, for every point of ``domain``. The checker trusts a few textbook facts
about these levels, one lemma per module of :mod:`implgraph.certify.lemmas` (each states its lemma with its proof),
and nothing the prover computed. :func:`check_bound` re-checks such a certificate:

1. each side naming a registered definition is described as the registry declares it
   (:func:`implgraph.certify.registered.registered_steps`);
2. the lemma's ``structure``: what the certificate must contain (its sides, U, the integers it relies on), and the
   lemma it names (``upper_certificate["lemma"]``, :attr:`implgraph.core.methods.Method.lemma`);
3. the lemma's ``obligations`` (:class:`implgraph.certify.obligation.Obligation`), each decided exactly or by the
   solvers (:func:`implgraph.certify.solve.discharge`);
4. where it claims tightness, its table family attains U (:func:`implgraph.certify.family.check_family`).

A method without a registered lemma fails step 2 ("known lemma for method ...") and has no obligation.
"""

from __future__ import annotations

from implgraph.certify.obligation import Obligation
from implgraph.certify.registered import declared_min_class, registered, registered_steps
from implgraph.certify.report import CertificateReport

__all__ = ["check_bound", "structural_checks", "obligations", "Obligation", "registered"]


def _bound_lemma(method):
    """The lemma of a bound between two levels registered for ``method``, or None."""
    from implgraph.certify.lemmas import get
    lm = get(method)
    return lm if lm is not None and lm.kind == "bound" else None


def structural_checks(cert, rd):
    """``[(what, ok)]``: the shape conditions of the lemma the certificate invokes, the lemma it names, and a
    minimum class size A's registered definition declares."""
    A, B, method = cert["A"], cert["B"], cert["method"]
    lm = _bound_lemma(method)
    checks = lm.structure(cert, A, B, rd) if lm else [(f"known lemma for method {method!r}", False)]
    named = (cert.get("upper_certificate") or {}).get("lemma")
    if named is not None:       # the lemma the certificate names is the method's (its multipliers are read by name)
        checks.append((f"the certificate names the method's lemma ({lm.name if lm else None})",
                       lm is not None and named == lm.name))
    return checks + declared_min_class(A, B, rd)


def obligations(cert, rd):
    """The :class:`Obligation` list of the certificate's upper bound (its lemma's inequalities), over the ring of
    ``rd`` (an :class:`implgraph.certify.expr.Reader`); none for an unknown method (its structure fails)."""
    lm = _bound_lemma(cert["method"])
    if lm is None or lm.obligations is None:
        return []
    return lm.obligations(cert, cert["A"], cert["B"], rd, cert.get("upper_certificate") or {})


def check_bound(cert, ns, timeout_ms) -> CertificateReport:
    """Re-check a certificate of a bound between two levels (module notes): a :class:`CertificateReport`."""
    from implgraph.certify import UNREADABLE
    from implgraph.certify.domain import Domain
    from implgraph.certify.family import check_family
    from implgraph.certify.size import MAX_OBLIGATIONS
    from implgraph.certify.solve import discharge
    steps = []
    try:
        steps += registered_steps(cert)
        domain = Domain(cert)
        for what, ok in structural_checks(cert, domain.reader):
            steps.append((what, bool(ok), "exact"))
        obs = obligations(cert, domain.reader)
        if len(obs) > MAX_OBLIGATIONS:
            return CertificateReport(False, [("certificate size", False, f"too large: {len(obs)} obligations "
                                                                         f"(at most {MAX_OBLIGATIONS})")])
        for ob in obs:
            ok, how = discharge(ob, domain, timeout_ms)
            steps.append((ob.name, ok, how))
        if cert.get("tight"):
            ok, how = check_family(cert, domain, ns)
            where = (cert.get("tightness") or {}).get("domain")
            # (a family checked only on its own domain: the step says where tightness is claimed)
            steps.append(("tightness family attains U" + (f" where {' and '.join(map(str, where))}" if where else ""),
                          ok, how))
    except UNREADABLE as exc:
        steps.append(("certificate readable", False, f"{exc.__class__.__name__}: {exc}"))
    ok = bool(steps) and all(s[1] for s in steps)
    return CertificateReport(ok, steps)
