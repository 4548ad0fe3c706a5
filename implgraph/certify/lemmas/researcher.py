"""The checker of ``researcher-lemma`` certificates: lemmas a researcher registered, chained with built-in ones.

Such a certificate says that on every table with equivalence classes (every N, every number of buckets, every
partition) B's optimal level is at least as strong as ``f`` of A's (``f`` in ``x``, A's level), by a chain of
steps, each a statement ``X(x) => Y(g(x))`` with ``g`` preserving strength:

- ``{"kind": "class-inequality", ...}``: a researcher's lemma between two declared class levels, re-checked by
  :mod:`.class_inequality` (its obligations decided exactly here);
- ``{"kind": "built-in", "certificate": {...}}``: an ``inequality-lemmas`` certificate, re-checked by
  :mod:`implgraph.certify.lemma_chain` (the textbook facts the checker trusts), whose ``f`` is ``x`` or
  ``ceiling(x)``.

The checker checks every step, that they link (each step's B is the next one's A, the first A and the last B the
certificate's) and that the certificate's ``f`` is the composition of the steps' maps (compared exactly): if
``Y >= g(X)`` and ``Z >= h(Y)`` in strength on every table, with ``h`` preserving strength, then
``Z >= h(g(X))``. Nothing the prover computed is trusted: a forged lemma (a false inequality, obligations that do
not hold, a certificate for another pair of definitions or another ``f``) fails a step.

Examples
--------
>>> cert = {"format": "implgraph-certificate/1", "method": "researcher-lemma",
...         "A": {"definition": "frequency-l-diversity"}, "B": {"definition": "distinct-l-diversity"},
...         "f": "ceiling(x)", "steps": [{"kind": "class-inequality", "A": "frequency-l-diversity",
...         "B": "distinct-l-diversity", "f": "ceiling(x)", "factor": "top", "term": "top - q", "constant": "0"}]}
>>> check(cert).ok
True
"""

from __future__ import annotations

import sympy

from implgraph.certify.lemmas import lemma
from implgraph.certify.lemmas.class_inequality import check_part
from implgraph.certify.report import CertificateReport
from implgraph.core import methods

__all__ = ["check", "describe", "statement_bound"]

#: the most steps a chain may have
MAX_STEPS = 6
#: the maps of an ``inequality-lemmas`` step that compose (``capped(x)`` does not)
BUILT_IN_MAPS = ("x", "ceiling(x)")


def _step_ends(step):
    """``(A, B, f text)`` of one step."""
    if step.get("kind") == "built-in":
        inner = step.get("certificate") or {}
        return (inner.get("A") or {}).get("definition"), (inner.get("B") or {}).get("definition"), inner.get("f")
    return step.get("A"), step.get("B"), step.get("f")


def _step_report(i, step, ns, timeout_ms):
    """The steps of re-checking the chain's ``i``-th step."""
    kind = step.get("kind") if isinstance(step, dict) else None
    if kind == "class-inequality":
        return [(f"step {i}: {w}", ok, how) for w, ok, how in check_part(step, timeout_ms)]
    if kind == "built-in":
        from implgraph.certify import lemma_chain
        inner = step.get("certificate") or {}
        rep = lemma_chain.check(inner) if inner.get("method") == methods.INEQUALITY_LEMMAS.name else CertificateReport(
            False, [("an inequality-lemmas certificate", False, f"method {inner.get('method')!r}")])
        return [(f"step {i} (built-in lemmas): re-checked", rep.ok,
                 "; ".join(w for w, _, _ in rep.failures()) or "every step holds"),
                (f"step {i}: its map composes ({', '.join(BUILT_IN_MAPS)})", inner.get("f") in BUILT_IN_MAPS,
                 str(inner.get("f")))]
    return [(f"step {i}: a known kind (class-inequality, built-in)", False, f"kind {kind!r}")]


def _composed(steps):
    """The composition of the steps' maps (sympy, in ``x``), read by the checker's reader."""
    from implgraph.certify.expr import read_sympy
    x = sympy.Symbol("x", real=True)
    g = x
    for step in steps:
        g = sympy.sympify(read_sympy(str(_step_ends(step)[2]), {"x": x})).xreplace({x: g})
    return g, x


def statement_bound(cert, direction, names):
    """The statement's reading (:mod:`implgraph.certify.statement`): B's level at least as strong as ``f`` of A's
    level (``f`` in ``x``, read by the whitelist parser), as B's raw level in T (A's raw level): ``(bound, upper)``,
    an upper bound where B is smaller-is-stronger, a lower bound where larger is stronger; None without an ``f``."""
    from implgraph.certify.claim import parse_expr
    if cert.get("f") is None:
        return None
    x = sympy.Symbol("x", real=True)
    f = parse_expr(cert["f"], {"x": x})
    a, b = direction.a.definition, direction.b.definition
    return b.raw_from_level(f.xreplace({x: a.level_from_raw(names["T"])})), b.stronger == "smaller"


@lemma(methods.RESEARCHER_LEMMA, describe=lambda cert: describe(cert), bound=statement_bound)
def check(cert, ns=None, timeout_ms=4000) -> CertificateReport:
    """Re-check a ``researcher-lemma`` certificate: a :class:`~implgraph.certify.CertificateReport`."""
    steps = cert.get("steps") if isinstance(cert.get("steps"), list) else []
    out = [("one to six steps", 1 <= len(steps) <= MAX_STEPS and all(isinstance(s, dict) for s in steps),
            f"{len(steps)} steps")]
    if not out[0][1]:
        return CertificateReport(False, out)
    for i, step in enumerate(steps, 1):
        out += _step_report(i, step, ns, timeout_ms)
    ends = [_step_ends(s) for s in steps]
    a, b = ((cert.get(k) or {}).get("definition") for k in ("A", "B"))
    linked = ends[0][0] == a and ends[-1][1] == b and all(x[1] == y[0] for x, y in zip(ends, ends[1:]))
    out.append(("the steps link A => ... => B", linked, " => ".join([str(ends[0][0])] + [str(e[1]) for e in ends])))
    try:
        g, x = _composed(steps)
        from implgraph.certify.expr import read_sympy
        given = sympy.sympify(read_sympy(str(cert.get("f")), {"x": x}))
        same = sympy.simplify(g - given) == 0
        out.append(("f is the composition of the steps' maps", same, f"composed {g}; certificate says {given}"))
    except Exception as exc:        # an unreadable map: no proof
        out.append(("f is the composition of the steps' maps", False, f"{exc.__class__.__name__}: {exc}"))
    return CertificateReport(all(s[1] for s in out), out)


def describe(cert) -> list:
    """The certificate as lines of text (``implgraph certificate --text``)."""
    a, b = ((cert.get(k) or {}).get("definition") for k in ("A", "B"))
    lines = [f"{b}'s level >= f({a}'s level), f(x) = {cert.get('f')}, on every table with classes"]
    for lm in cert.get("lemmas") or []:
        lines.append(f"  lemma '{lm.get('name')}' ({lm.get('origin', 'registered')}): {lm.get('statement', '')}")
    return lines
