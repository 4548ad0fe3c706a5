"""The lemma ``composition``: A => C with h, then C => B at every threshold, so A => B with g(h).

A ``composition`` certificate holds two parts and ``via`` (C's side). It is accepted when

- each part is re-checked as a certificate of its own (:func:`implgraph.certify.check_certificate`);
- the parts link: the first's A is the certificate's, its B is ``via`` and the second's A, the second's B the
  certificate's;
- the first part is stated on the certificate's domain (its conditions among the certificate's), the second on the
  certificate's conditions that do not mention T and conditions ``T >= r`` (r a number): it holds at every
  threshold T = t >= r of C's raw level;
- on the certificate's domain h = the first's U is a rational function with h >= r for each such r (so t = h(T) is
  a threshold the second part covers), checked as a polynomial inequality;
- U = g(h): the second's U with T replaced by h, equal as rational functions.

A table with A's raw level <= T then has C's raw level <= h(T) (first part) and B's <= g(h(T)) (second part at
t = h(T)). The certificate claims no tightness.
"""

from __future__ import annotations

import sympy

from implgraph.certify.expr import Unreadable, read_sympy
from implgraph.certify.lemmas import lemma
from implgraph.certify.report import CertificateReport
from implgraph.certify.solve import prove_nonnegative
from implgraph.core import methods

__all__ = ["check"]

UNREADABLE = (Unreadable, KeyError, TypeError, ValueError, AttributeError, SyntaxError, ZeroDivisionError)


def _thresholds(second, cert, T):
    """``(ok, [(r, strict)])``: the second part's conditions are the certificate's that do not mention T, and
    ``T >= r`` or ``T > r`` with r a rational number."""
    mine = {str(c) for c in cert.get("domain", [])}
    symbols = {name: sympy.Symbol(name) for name in (second.get("symbols") or {})}
    rs, ok = [], True
    for text in second.get("domain", []):
        rel = read_sympy(text, symbols)
        if T.name not in {s.name for s in rel.free_symbols}:
            ok = ok and str(text) in mine
            continue
        lower = _lower_bound_on(rel, T.name)
        if lower is None:
            ok = False
        else:
            rs.append(lower)
    return ok, rs


def _lower_bound_on(rel, name):
    """``(r, strict)`` where ``rel`` is ``name >= r`` / ``name > r`` (either way round), r rational; else None."""
    flip = {sympy.GreaterThan: (False, False), sympy.StrictGreaterThan: (True, False),
            sympy.LessThan: (False, True), sympy.StrictLessThan: (True, True)}
    if type(rel) not in flip:
        return None
    strict, reverse = flip[type(rel)]
    var, r = (rel.rhs, rel.lhs) if reverse else (rel.lhs, rel.rhs)
    if not (isinstance(var, sympy.Symbol) and var.name == name and r.is_Rational):
        return None
    return r, strict


@lemma(methods.COMPOSITION)
def check(cert, ns=range(2, 13), timeout_ms=4000) -> CertificateReport:
    """Re-check a ``composition`` certificate (module notes)."""
    from implgraph.certify import check_certificate
    parts = cert.get("parts") or []
    steps = [("two parts", len(parts) == 2, f"{len(parts)} parts"),
             ("no tightness claimed", not cert.get("tight"), "exact")]
    if len(parts) != 2:
        return CertificateReport(False, steps)
    first, second = parts
    for i, part in enumerate(parts, 1):
        rep = check_certificate(part, ns, timeout_ms, budget=None)
        steps.append((f"part {i} ({part.get('method')}) re-checked", rep.ok,
                      "; ".join(w for w, _, _ in rep.failures()) or "every step holds"))
    steps.append(("the parts link A => C => B", first.get("A") == cert.get("A") and first.get("B") == cert.get("via")
                  and second.get("A") == cert.get("via") and second.get("B") == cert.get("B"), "exact"))
    steps.append(("the first part is on the certificate's domain", first.get("symbols") == cert.get("symbols")
                  and {str(c) for c in first.get("domain", [])} <= {str(c) for c in cert.get("domain", [])}, "exact"))
    try:
        steps += _compose_steps(cert, first, second, timeout_ms)
    except UNREADABLE as exc:
        steps.append(("certificate readable", False, f"{exc.__class__.__name__}: {exc}"))
    return CertificateReport(all(s[1] for s in steps), steps)


def _compose_steps(cert, first, second, timeout_ms):
    from implgraph.certify.domain import Domain
    domain = Domain(cert)
    rd = domain.reader
    T = sympy.Symbol("T")
    ok, rs = _thresholds(second, cert, T)
    steps = [("the second part holds at every threshold T >= r (its other conditions the certificate's)",
              ok and bool(rs), ", ".join(f"T {'>' if s else '>='} {r}" for r, s in rs) or "no threshold")]
    P, Q = rd.ratio(first["upper"])         # h = P/Q, a rational function (ValueError otherwise)
    good, how = prove_nonnegative(Q, [], domain, strict=True, timeout_ms=timeout_ms)
    steps.append(("h's denominator > 0 on the domain", good, how))
    for r, strict in rs:
        num, den = int(r.p), int(r.q)
        good, how = prove_nonnegative(P * den - Q * num, [(">", Q)], domain, strict=strict, timeout_ms=timeout_ms)
        steps.append((f"h {'>' if strict else '>='} {r} on the domain (h = {first['upper']})", good, how))
    symbols = {name: sympy.Symbol(name) for name in (cert.get("symbols") or {})}
    symbols.setdefault("T", T)
    U, g, h = (read_sympy(x, symbols) for x in (cert["upper"], second["upper"], first["upper"]))
    same = sympy.cancel(sympy.together(U - g.subs(symbols["T"], h))) == 0
    steps.append(("U = g(h): the second part's U at T = h", bool(same), "exact (rational functions)"))
    return steps
