"""The lemma ``composition``: A => C with h, then C => B at every threshold, so A => B with g(h).

A ``composition`` certificate holds two parts and ``via`` (C's side). It is accepted when

- each part is re-checked as a certificate of its own (:func:`implgraph.certify.check_certificate`);
- the parts link: the first's A is the certificate's, its B is ``via`` and the second's A, the second's B the
  certificate's;
- the first part is stated on the certificate's domain (its conditions among the certificate's), the second on the
  certificate's conditions that do not mention T and conditions ``T >= r`` (r a number): it holds at every
  threshold T = t >= r of C's raw level;
- on the certificate's domain h = the first's U is >= r for each such r (so t = h(T) is a threshold the second part
  covers): :func:`at_least`, a polynomial inequality for a rational h, read through Min, Max, sums, products,
  square roots, exp and log otherwise;
- U = g(h): the second's U with T replaced by h, equal as rational functions (or identical after sympy's own
  evaluation, or with a difference sympy simplifies to 0).

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

__all__ = ["check", "at_least"]

UNREADABLE = (Unreadable, KeyError, TypeError, ValueError, AttributeError, SyntaxError, ZeroDivisionError)


def _thresholds(second, cert, T, domain=None, timeout_ms=4000):
    """``(ok, [(r, strict)])``: the second part's conditions are the certificate's that do not mention T (or implied
    by its domain), and ``T >= r`` or ``T > r`` with r a rational number."""
    mine = {str(c) for c in cert.get("domain", [])}
    symbols = {name: sympy.Symbol(name) for name in (second.get("symbols") or {})}
    rs, ok = [], True
    for text in second.get("domain", []):
        rel = read_sympy(text, symbols)
        if T.name not in {s.name for s in rel.free_symbols}:
            ok = ok and (str(text) in mine or (domain is not None and _implied(rel, domain, timeout_ms)[0]))
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
    from implgraph.certify.accepted import part_report
    parts = cert.get("parts") or []
    steps = [("two parts", len(parts) == 2, f"{len(parts)} parts"),
             ("no tightness claimed", not cert.get("tight"), "exact")]
    if len(parts) != 2:
        return CertificateReport(False, steps)
    first, second = parts
    for i, part in enumerate(parts, 1):
        rep = part_report(part, ns, timeout_ms)
        steps.append((f"part {i} ({part.get('method')}) re-checked", rep.ok,
                      "; ".join(w for w, _, _ in rep.failures()) or "every step holds"))
    steps.append(("the parts link A => C => B", first.get("A") == cert.get("A") and first.get("B") == cert.get("via")
                  and second.get("A") == cert.get("via") and second.get("B") == cert.get("B"), "exact"))
    try:
        steps.append(_on_domain(cert, first, timeout_ms))
        steps += _compose_steps(cert, first, second, timeout_ms)
    except UNREADABLE as exc:
        steps.append(("certificate readable", False, f"{exc.__class__.__name__}: {exc}"))
    return CertificateReport(all(s[1] for s in steps), steps)


def _on_domain(cert, first, timeout_ms):
    """The step: the first part has the certificate's symbols and each of its conditions is one of the certificate's
    or a rational inequality without T that the certificate's domain implies (e.g. a class premise 2 <= N)."""
    from implgraph.certify.domain import Domain
    mine = {str(c) for c in cert.get("domain", [])}
    if first.get("symbols") != cert.get("symbols"):
        return "the first part is on the certificate's domain", False, "other symbols"
    domain, hows, ok = Domain(cert), [], True
    symbols = {name: sympy.Symbol(name) for name in (cert.get("symbols") or {})}
    for text in first.get("domain", []):
        if str(text) in mine:
            continue
        good, how = _implied(read_sympy(str(text), symbols), domain, timeout_ms)
        ok = ok and good
        hows.append(f"{text}: {how}")
    return "the first part is on the certificate's domain", ok, "; ".join(hows) or "exact"


def _implied(rel, domain, timeout_ms):
    """``(ok, how)``: the relation (without T) holds on the certificate's domain."""
    if "T" in {s.name for s in rel.free_symbols}:
        return False, "mentions T"
    if rel is sympy.true:
        return True, "true"
    if isinstance(rel, (sympy.GreaterThan, sympy.StrictGreaterThan)):
        diff = rel.lhs - rel.rhs
    elif isinstance(rel, (sympy.LessThan, sympy.StrictLessThan)):
        diff = rel.rhs - rel.lhs
    else:
        return False, "not an inequality"
    return at_least(sympy.together(diff), 0, domain, timeout_ms,
                    strict=isinstance(rel, (sympy.StrictGreaterThan, sympy.StrictLessThan)))


def _compose_steps(cert, first, second, timeout_ms):
    from implgraph.certify.domain import Domain
    domain = Domain(cert)
    T = sympy.Symbol("T")
    ok, rs = _thresholds(second, cert, T, domain, timeout_ms)
    steps = [("the second part holds at every threshold T >= r (its other conditions the certificate's)",
              ok and bool(rs), ", ".join(f"T {'>' if s else '>='} {r}" for r, s in rs) or "no threshold")]
    for r, strict in rs:
        good, how = at_least(first["upper"], r, domain, timeout_ms, strict=strict)
        steps.append((f"h {'>' if strict else '>='} {r} on the domain (h = {first['upper']})", good, how))
    symbols = {name: sympy.Symbol(name) for name in (cert.get("symbols") or {})}
    symbols.setdefault("T", T)
    U, g, h = (read_sympy(x, symbols) for x in (cert["upper"], second["upper"], first["upper"]))
    composed = g.subs(symbols["T"], h)
    same = U == composed or _zero(U - composed)
    steps.append(("U = g(h): the second part's U at T = h", bool(same), "exact (rational functions)"))
    return steps


def _zero(diff):
    """Is ``diff`` 0: as a rational function, else by sympy's simplification."""
    try:
        if sympy.cancel(sympy.together(diff)) == 0:
            return True
    except sympy.PolynomialError:
        pass
    return sympy.simplify(diff) == 0


def at_least(text, r, domain, timeout_ms=4000, strict=False):
    """``(ok, how)``: the expression ``text`` is >= r (> r with ``strict``) on the certificate's domain, r rational.

    A rational function P/Q: Q > 0 and P - r Q >= 0 (> 0), a polynomial inequality. Otherwise by its form: a Min
    where every argument is, a Max where one is; c + X where X >= r - c, c X (c > 0) where X >= r/c; for r <= 0
    (r < 0 read as r = 0, not strict): a sum or product of terms >= 0 (> 0), a square root or power (positive
    exponent) of a term >= 0 (> 0), exp(X), and log(X) where X >= 1 (> 1). Anything else is not proved."""
    e = text if isinstance(text, sympy.Basic) else _read(text, domain)
    r = sympy.Rational(r)
    rational = _rational_at_least(e, r, domain, timeout_ms, strict)
    if rational is not None:
        return rational
    if isinstance(e, sympy.Min):
        found = [at_least(x, r, domain, timeout_ms, strict) for x in e.args]
        return all(ok for ok, _ in found), "each argument of the Min: " + "; ".join(h for _, h in found)
    if isinstance(e, sympy.Max):
        found = [at_least(x, r, domain, timeout_ms, strict) for x in e.args]
        return any(ok for ok, _ in found), "one argument of the Max: " + "; ".join(h for _, h in found)
    c, rest = e.as_independent(*e.free_symbols, as_Add=True)
    if e.is_Add and c.is_Rational and c != 0:
        return at_least(rest, r - c, domain, timeout_ms, strict)
    c, rest = e.as_independent(*e.free_symbols, as_Add=False)
    if e.is_Mul and c.is_Rational and c > 0 and c != 1:
        return at_least(rest, r / c, domain, timeout_ms, strict)
    if isinstance(e, sympy.exp) and 0 < r <= 1:      # exp(X) >= 1 >= r where X >= 0 (> 1 where X > 0)
        ok, how = at_least(e.args[0], 0, domain, timeout_ms, strict and r == 1)
        return ok, f"{e} {'>' if strict else '>='} {r}: its exponent >= 0 ({how})"
    if r < 0:       # (e >= 0 is enough)
        r, strict = sympy.Integer(0), False
    if r > 0:
        return False, f"{e} {'>' if strict else '>='} {r}: not read"
    sign = ">" if strict else ">="
    if e.is_Add or e.is_Mul:
        found = [at_least(x, 0, domain, timeout_ms, strict) for x in e.args]
        if e.is_Add and not all(ok for ok, _ in found) and e.has(sympy.log):
            tangent = _log_tangents(e, domain, timeout_ms, strict)
            if tangent is not None:
                return tangent
        return all(ok for ok, _ in found), f"{e}: each term {sign} 0 (" + "; ".join(h for _, h in found) + ")"
    if e.is_Pow and e.exp.is_Rational and e.exp > 0:
        ok, how = at_least(e.base, 0, domain, timeout_ms, strict)
        return ok, f"{e}: a positive power of {e.base} {sign} 0 ({how})"
    if e.is_Pow and e.exp.is_Rational and e.exp < 0:       # (a power of a base > 0: > 0)
        ok, how = at_least(e.base, 0, domain, timeout_ms, True)
        return ok, f"{e}: a negative power of {e.base} > 0 ({how})"
    if isinstance(e, sympy.exp):
        return True, f"{e} > 0"
    if isinstance(e, sympy.log):
        ok, how = at_least(e.args[0], 1, domain, timeout_ms, strict)
        return ok, f"{e}: log of {e.args[0]} {sign} 1 ({how})"
    if e.is_number and e.is_real:
        ok = bool(e > r) if strict else bool(e >= r)
        return ok, f"{e} >= {r}: {'exact' if ok else 'false'}"
    return False, f"{e} >= {r}: not read"


def _log_tangents(e, domain, timeout_ms, strict):
    """``(ok, how)`` for a sum ``e`` >= 0 (> 0 with ``strict``) with terms c log(X) (c and X free of log), or None
    where it has another shape: X > 0 on the domain, and log(X) >= 1 - 1/X where c >= 0, log(X) <= X - 1 where
    c <= 0 (the tangents of log at 1, from above and below), so e is at least the rational function with each log
    replaced so, which is then compared with 0."""
    lower, notes, coefficients = sympy.Integer(0), [], {}
    for term in sympy.Add.make_args(sympy.expand(e)):
        logs = [f for f in sympy.Mul.make_args(term) if isinstance(f, sympy.log)]
        if not logs:
            lower += term
            continue
        if len(logs) != 1 or logs[0].args[0].has(sympy.log) or (term / logs[0]).has(sympy.log):
            return None
        coefficients[logs[0]] = coefficients.get(logs[0], 0) + term / logs[0]
    for log_x, c in coefficients.items():
        x, c = log_x.args[0], sympy.factor(sympy.cancel(c))
        positive, how_x = at_least(x, 0, domain, timeout_ms, True)
        up, how_c = at_least(c, 0, domain, timeout_ms)
        down, how_d = (False, "") if up else at_least(-c, 0, domain, timeout_ms)
        if not (positive and (up or down)):
            return False, f"{c}*{log_x}: {how_x}; {how_c}; {how_d}"
        lower += c * (1 - 1 / x) if up else c * (x - 1)
        notes.append(f"log({x}) {'>= 1 - 1/X' if up else '<= X - 1'} (X > 0: {how_x})")
    ok, how = at_least(sympy.cancel(lower), 0, domain, timeout_ms, strict)
    return ok, f"{e} >= {sympy.factor(lower)} by " + "; ".join(notes) + f": {how}"


def _read(text, domain):
    """``text`` read by the checker's reader, its names the domain's symbols (and T)."""
    return read_sympy(str(text), {name: sympy.Symbol(name) for name in [*domain.kinds, "T"]})


def _rational_at_least(e, r, domain, timeout_ms, strict):
    """As :func:`at_least` for a rational function (None where ``e`` is not one)."""
    try:
        P, Q = domain.reader.ratio(str(e))
    except UNREADABLE:      # (NotPolynomial among them: not a rational function)
        return None
    good_q, how_q = prove_nonnegative(Q, [], domain, strict=True, timeout_ms=timeout_ms)
    good, how = prove_nonnegative(P * int(r.q) - Q * int(r.p), [(">", Q)], domain, strict=strict,
                                  timeout_ms=timeout_ms)
    return good_q and good, f"{e}: denominator > 0 ({how_q}); compared with {r}: {how}"
