"""An independent checker of the prover's certificates.

A certificate (JSON, ``format: implgraph-certificate/1``) says that B's raw level is at most
``upper`` = U(T, N, parameters) on every table whose A raw level is at most T, for every point of
``domain`` (sympy relations over ``symbols``), and, when ``tight``, gives a table family attaining
U. This package re-checks both without importing the prover or the refuter:

- the **upper bound**: the lemma registered for ``method`` (one module of :mod:`implgraph.certify.lemmas` per lemma;
  the common re-check of a bound between two levels in :mod:`implgraph.certify.kernel`) turns into
  polynomial obligations over the rationals (:mod:`implgraph.certify.expr`); identities are checked
  exactly, inequalities by nonnegative coefficients after a shift of the variables
  (:mod:`implgraph.certify.positive`, exact and printed) or else by z3 and cvc5
  (:mod:`implgraph.certify.solve`; each step names the solvers' answers), multipliers
  as ``target = sum(lambda_i * fact_i)`` with every ``lambda_i >= 0``;
- the **tightness family**: blocks of equal binary rows ``{"count", "value", "class"}`` (expressions
  in N, T and the parameters), or blocks of records uniform over values of their own ``{"count", "values",
  "class"}`` (``uniform_blocks``: as many buckets as the blocks' values), evaluated at every point of the domain
  with N = 2..12, every integer
  parameter and a grid of levels; the exact levels (:mod:`implgraph.certify.levels`, from the
  definitions, computed on the blocks without expanding them; :mod:`implgraph.certify.family`) must give A <= T (A >= T for a level that is
  a class size or a uniform class's number of values, larger is stronger) and B = U;
- an ``inequality-lemmas`` certificate (definitions outside the ratio families, e.g. the l-diversities) is a
  chain of textbook inequalities between class levels, re-checked by :mod:`implgraph.certify.lemma_chain`;
- a ``class-size-floor`` certificate (B's level the smallest class's size, at least A's declared minimum class size:
  a *lower* bound, larger is stronger) is re-checked by :mod:`implgraph.certify.lemmas.class_size_floor`;
- a ``min`` certificate (the smaller of its parts' bounds) and a ``chain`` certificate (A => X with U = T, A's level
  being X's where finite, then X => B) re-check their parts and how they combine; either may claim tightness with a
  family checked with the certificate's own sides. A family may ``split`` each bucket into m equal buckets (an
  expression, e.g. ``3**ceiling(T)``): ratios and distances do not change, and a level with an ``increase_cap``
  (enhanced beta-likeness: each increase q/p - 1 at most -ln p) reads the smaller masses, decided exactly.

Examples
--------
>>> cert = {"format": "implgraph-certificate/1", "method": "same-level",
...         "symbols": {"N": "integer", "T": "real"}, "domain": ["N >= 2", "T >= 1"],
...         "A": {"family": "pairwise", "sides": "two-sided"}, "B": {"family": "pairwise", "sides": "two-sided"},
...         "upper": "T", "tight": True,
...         "tightness": {"blocks": [{"count": "1", "value": "1/(T + 1)"},
...                                  {"count": "N - 1", "value": "T/(T + 1)"}]}}
>>> check_certificate(cert, ns=range(2, 5)).ok
True
"""

from __future__ import annotations

from implgraph.certify.budget import within_budget
from implgraph.certify.expr import Unreadable
# (the names lemma modules written before the split import: the family check and the sides' registry steps)
from implgraph.certify.family import check_family as _check_family  # noqa: F401
from implgraph.certify.registered import registered_steps as _registered  # noqa: F401
from implgraph.certify.report import CertificateReport
from implgraph.certify.rows import certificates_in, recheck_row
from implgraph.certify.size import MAX_SECONDS, size_fault

__all__ = ["check_certificate", "certificates_in", "recheck_row", "within_budget", "CertificateReport", "FORMAT",
           "MAX_SECONDS"]

FORMAT = "implgraph-certificate/1"
#: what a certificate the checker cannot read raises
UNREADABLE = (Unreadable, KeyError, TypeError, ValueError, AttributeError, SyntaxError, ZeroDivisionError)


def check_certificate(cert, ns=range(2, 13), timeout_ms=4000, budget=MAX_SECONDS) -> CertificateReport:
    """Re-check a certificate; see the module notes.

    Parameters
    ----------
    cert : dict
        The JSON certificate.
    ns : range
        The N at which the tightness family is evaluated.
    timeout_ms : int
        Per solver query, when one is needed (a timeout is no proof: the step fails).
    budget : float or None
        Seconds the whole re-check may take (:data:`implgraph.certify.size.MAX_SECONDS` unless given): past it the
        certificate is not accepted ("time budget exceeded"), whatever its steps had shown; 0 (or less) accepts
        nothing. None: no budget of its own (a part of a certificate, re-checked within its whole's budget).

    Returns
    -------
    CertificateReport
    """
    if budget is None:
        return _with_partitions(cert, ns, timeout_ms)
    return within_budget(lambda: _with_partitions(cert, ns, timeout_ms), budget)


def _with_partitions(cert, ns, timeout_ms) -> CertificateReport:
    """:func:`_check`, and the partitions a certificate with a class side is for
    (:func:`implgraph.certify.partitions.partition_steps`), read only once the certificate's size is accepted."""
    rep = _check(cert, ns, timeout_ms)
    if not isinstance(cert, dict) or size_fault(cert):
        return rep
    from implgraph.certify.partitions import partition_steps
    try:
        extra = partition_steps(cert, ns, timeout_ms)
    except UNREADABLE as exc:
        extra = [("partitions readable", False, f"{exc.__class__.__name__}: {exc}")]
    if not extra:
        return rep
    return CertificateReport(rep.ok and all(s[1] for s in extra), extra + rep.steps)


def _check(cert, ns, timeout_ms) -> CertificateReport:
    """The re-check of :func:`check_certificate`, without its time budget: the lemma registered for the certificate's
    method (:mod:`implgraph.certify.lemmas`) checks it, by its own check or, for a bound between two levels, by the
    common one (:func:`implgraph.certify.kernel.check_bound`, which rejects a method without a lemma)."""
    if not isinstance(cert, dict):
        return CertificateReport(False, [("certificate readable", False, f"a {type(cert).__name__}, not a mapping")])
    too_large = size_fault(cert)
    if too_large:       # refused before anything in it is read (implgraph.certify.size)
        return CertificateReport(False, [("certificate size", False, f"too large: {too_large}")])
    if cert.get("format") != FORMAT:
        return CertificateReport(False, [("format", False, f"expected {FORMAT}, got {cert.get('format')!r}")])
    from implgraph.certify.lemmas import get
    lm = get(cert.get("method"))
    if lm is not None and lm.check is not None:
        return lm.check(cert, ns, timeout_ms)
    from implgraph.certify.kernel import check_bound
    return check_bound(cert, ns, timeout_ms)
