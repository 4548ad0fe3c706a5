"""The zero-concentrated witness-family lemma: a family in N and j on which A's zCDP level stays at most 1 while B's
ratio level grows without bound.

A certificate of method ``zcdp-family`` refutes A => B for every f, A a zero-concentrated level between every two
records (kind ``zcdp``, compares ``pairs``: rho*(x || y) = sup_{alpha > 1} D_alpha(x || y)/alpha, both ways) or
between the table and the table without one record (compares ``removal``: P against Q_i, both ways; two averages of
records, (P, Q_i) the uniform average of pairs of records, and exp((alpha - 1) D_alpha) jointly convex, so each
D_alpha, and rho*, at most the largest over pairs of records: van Erven and Harremoes 2014, Theorem 11, cited). Its
``family`` is two blocks of equal records ``{"count", "values", "class"}``: ``1`` record at x = (K b, 1 - K b) and
``N - 1`` at y = (b, 1 - b), for every N >= ``n0`` and integer j >= ``J0``, where the values are powers of 2 with
exponents polynomial in j: K = x_1/y_1 = 2^p(j) and K b = x_1 = 2^(-q(j)). Re-derived here from the certificate's
values (never its words):

- the table: counts integers >= 1 adding up to N; x_2 = 1 - x_1, y_2 = 1 - y_1; p >= 0 and q >= 1 for every
  j >= J0 (polynomials in u = j - J0 with nonnegative coefficients), so 0 < b <= K b <= 1/2 (each record a
  distribution, K >= 1);
- A's level at most 1: the library's lemma ``ZcdpFamily.zcdp_family`` (coq/theories/ZcdpFamily.v, proved in Coq),
  for real K >= 1 and b > 0 with K b <= 1/2 and ln K (ln K + 1) <= -ln(K b), gives rho*(x || y) <= 1 and
  rho*(y || x) <= 1. Its hypothesis holds here: ln K = p ln 2, -ln(K b) = q ln 2 and, as 0 < ln 2 <= 1,
  p ln 2 (p ln 2 + 1) <= (p^2 + p) ln 2 <= q ln 2 where q - p^2 - p >= 0 for every j >= J0 (checked as a polynomial).
  Two records of one block are equal: level 0. The proof (docs/arguments/zcdp-family.md): with t = alpha - 1,
  x's Renyi sum is K b K^t + (1 - K b) s^(1 + t) <= 1 - K b + K b K^t (s = (1 - K b)/(1 - b) <= 1), and
  g(t) = e^(t + t^2) - K b e^(t ln K) is nondecreasing (g' >= e^(t + t^2) - e^(ln K - 1 + t ln K + ln(K b)) >= 0 by
  L <= e^(L - 1) and a quadratic in t), so the sum is at most e^(t (1 + t)): D_alpha/alpha <= 1; y's sum is
  b K^(-t) + (1 - b)(1 + d)^t <= (1 + d)^t, d = (K - 1) b/(1 - K b) <= 1, so D_alpha/alpha <= ln 2 < 1;
- B's raw level grows without bound: the family's ratio in bucket 1 depends on K alone (x_1/y_1 = K; the table
  against a set of records at y, or their class, (K + N - 1)/N), re-derived by the divergence-family lemma's own
  reading of B (:func:`implgraph.certify.lemmas.divergence_family._b_unbounded` on the rows (K b, 1 - K b),
  (b, 1 - b), b a symbol), and K = 2^p grows without bound with j (p of degree >= 1, a positive leading
  coefficient);
- exact spot checks: the registry's exact levels of the two records (both ways) at j = J0 and J0 + 1 are <= 1
  where the values have at most 24 binary digits.

So for every f the family's table at a j where B's ratio passes f's value at A's bound 1 satisfies A and not B:
no f works at any N >= n0. A forged family (another exponent, another count) fails the re-computation.
"""

from __future__ import annotations

import sympy

from implgraph.certify.lemmas import lemma
from implgraph.certify.lemmas.divergence_family import _b_unbounded, _rows, _side, count_steps, rows_text
from implgraph.certify.lemmas.divergence_family_domain import nonnegative_over, parameter_domain
from implgraph.certify.report import lemma_steps, steps_report as _report
from implgraph.core import methods

__all__ = ["check", "exponent_of_two"]

_N = sympy.Symbol("N", positive=True, integer=True)
_J = sympy.Symbol("j", integer=True)
_K = sympy.Symbol("K", positive=True)
_B = sympy.Symbol("b", positive=True)
_U = sympy.Symbol("u", nonnegative=True)

#: the largest exponent of 2 at which the exact levels are spot-checked
_SPOT_BITS = 24


def exponent_of_two(expr):
    """The exponent e (a polynomial in j with rational coefficients) of ``expr`` = 2^e, or None."""
    e = sympy.powsimp(sympy.sympify(expr), force=True)
    if e == 1:
        return sympy.Integer(0)
    if e.is_Integer and e > 0 and (int(e) & (int(e) - 1)) == 0:
        return sympy.Integer(int(e).bit_length() - 1)
    if e.is_Rational and e > 0 and e.p == 1:
        ex = exponent_of_two(e.q)
        return None if ex is None else -ex
    if isinstance(e, sympy.Pow) and e.base == 2:
        ex = sympy.expand(e.exp)
        if ex.free_symbols <= {_J} and ex.is_polynomial(_J):
            return ex
    return None


def _nonneg_j(expr, j0) -> bool:
    """Is the polynomial ``expr`` in j >= 0 for every integer j >= j0 (coefficients >= 0 in u = j - j0)?"""
    return nonnegative_over(expr, {_J: j0 + _U}, (_U,))


def _a_bounded(x, y, j0):
    """``[(what, ok, how)]``: the hypotheses of ``ZcdpFamily.zcdp_family`` for every j >= j0."""
    steps = []
    same = (sympy.simplify(x[1] - (1 - x[0])) == 0 and sympy.simplify(y[1] - (1 - y[0])) == 0)
    steps.append(("the records are x = (K b, 1 - K b) and y = (b, 1 - b)", same, f"x = {x}, y = {y}"))
    p, q = exponent_of_two(x[0] / y[0]), exponent_of_two(x[0])
    steps.append(("K = x_1/y_1 = 2^p and K b = x_1 = 2^(-q), p and q polynomials in j", p is not None and q is not None,
                  f"p = {p}, q = {None if q is None else -q}"))
    if p is None or q is None:
        return steps, None
    q = -q
    steps.append((f"K >= 1 and K b <= 1/2 for every j >= {j0}: p >= 0, q >= 1", _nonneg_j(p, j0) and
                  _nonneg_j(q - 1, j0), f"p = {p}, q - 1 = {sympy.expand(q - 1)}"))
    steps.append((f"ln K (ln K + 1) <= -ln(K b) for every j >= {j0}: p ln 2 (p ln 2 + 1) <= (p^2 + p) ln 2 "
                  "(0 < ln 2 <= 1) <= q ln 2", _nonneg_j(q - p ** 2 - p, j0), f"q - p^2 - p = {sympy.expand(q - p**2 - p)}"))
    steps.append(("rho*(x || y) <= 1 and rho*(y || x) <= 1 (ZcdpFamily.zcdp_family, proved in Coq: x's Renyi sum "
                  "<= 1 - K b + K b K^t <= e^(t (1 + t)); y's <= (1 + d)^t, d = (K - 1) b/(1 - K b) <= 1); two equal "
                  "records: 0", True, "the library's lemma at the hypotheses above"))
    return steps, (p, q)


def _spot(x, y, j0, pq):
    """The registry's exact levels, both ways, at j = j0 and j0 + 1 (where the values are small enough)."""
    from fractions import Fraction

    from implgraph.definitions._zcdp_values import zcdp_between
    p, q = pq
    out = []
    for j in (j0, j0 + 1):
        if int(p.subs(_J, j) + q.subs(_J, j)) > _SPOT_BITS:
            continue
        xs = [Fraction(str(sympy.nsimplify(v.subs(_J, j)))) for v in x]
        ys = [Fraction(str(sympy.nsimplify(v.subs(_J, j)))) for v in y]
        for u, v in ((xs, ys), (ys, xs)):
            level = zcdp_between(tuple(u), tuple(v))
            hi = getattr(level, "hi", None)
            hi = Fraction(hi) if hi is not None else None
            ok = (hi is not None and hi <= 1) or (hi is None and bool(sympy.sympify(getattr(level, "expr", level))
                                                                      <= 1))
            out.append((f"the exact level at j = {j}, {u} || {v}, is <= 1", ok, str(level)))
    return out


def _b_grows(wb, rows, n0, dom, p):
    """B's raw level on the rows (K b, 1 - K b), (b, 1 - b) at the family's counts grows without bound in K, and
    K = 2^p grows with j."""
    counts = [c for c, _, _ in rows]
    generic = [(counts[0], (_K * _B, 1 - _K * _B), rows[0][2]), (counts[1], (_B, 1 - _B), rows[1][2])]
    ok, how = _b_unbounded(wb, generic, n0, dom)
    poly = sympy.Poly(p, _J)
    grows = poly.degree() >= 1 and poly.LC() > 0
    return [(f"B's raw level grows without bound in K, for every N >= {n0}", ok, how),
            ("K = 2^p grows without bound with j (p of degree >= 1, leading coefficient > 0)", grows, f"p = {p}")]


def describe(cert) -> list:
    fam = cert.get("family") or {}
    rows = rows_text(fam)
    return [f"{(cert.get('A') or {}).get('definition')} =/=> {(cert.get('B') or {}).get('definition')} for every f: "
            f"the zero-concentrated family {rows}, every N >= {fam.get('n0')} and j >= {fam.get('J0')}"]


@lemma(methods.ZCDP_FAMILY, own_partitions=True, describe=describe)
def check(cert, ns=range(2, 13), timeout_ms=4000):
    """Re-check a zero-concentrated witness-family certificate (see the module notes)."""
    with lemma_steps(cert) as steps:
        _, wa = _side(cert, "A")
        _, wb = _side(cert, "B")
        a_ok = wa is not None and wa[0] == "div" and wa[1].kind == "zcdp" and wa[1].compares in ("pairs", "removal")
        steps.append(("A declares the zero-concentrated level between every two records, or on record removal", a_ok,
                      "registry"))
        if a_ok and wa[1].compares == "removal":
            steps.append(("on record removal A compares P and Q_i, two averages of records ((P, Q_i) the uniform "
                          "average of pairs of records): each D_alpha at most the largest over pairs (exp((alpha - 1) "
                          "D_alpha) jointly convex), so rho* too: A's removal level <= its level between records",
                          True, "cited: van Erven and Harremoes 2014, Theorem 11"))
        steps.append(("B declares a two-sided ratio of averages", wb is not None and wb[0] == "ratio"
                       and wb[2] == "two-sided", "registry"))
        if not a_ok or wb is None:
            return _report(steps)
        steps.append(("a non-implication (no f), nothing else claimed", cert.get("claim") == "no-f"
                      and not cert.get("tight") and cert.get("upper") is None, "exact"))
        side = cert.get("B") or {}
        if side.get("family") == "class":
            steps.append(("B's classes: every partition (no minimum class size above 1, no maximum)",
                          str(side.get("min_class") or "1") == "1" and side.get("max_class") is None, "exact"))
        fam = cert.get("family") or {}
        try:
            n0, j0 = int(fam.get("n0")), int(fam.get("J0"))
            rows = _rows(fam, {"N": _N, "j": _J})
        except (TypeError, ValueError, KeyError, SyntaxError):
            steps.append(("a family of two blocks with n0 and J0", False, "unreadable"))
            return _report(steps)
        shape = (fam.get("kind") == "unbounded" and len(rows) == 2 and len(rows[0][1]) == 2 and j0 >= 1 and n0 >= 2
                 and sympy.expand(rows[0][0] - 1) == 0 and not any(v.has(_N) for _, vals, _ in rows for v in vals))
        steps.append(("one record at x, N - 1 at y, two buckets, values in j alone, J0 >= 1", shape, "exact"))
        if not shape:
            return _report(steps)
        domain = {str(d).replace(" ", "") for d in cert.get("domain") or ()}
        steps.append(("the domain states N >= n0 and j >= J0", {f"N>={n0}", f"j>={j0}"} <= domain, str(domain)))
        steps += count_steps(rows, n0)
        x, y = rows[0][1], rows[1][1]
        a_steps, pq = _a_bounded(x, y, j0)
        steps += a_steps
        if pq is None:
            return _report(steps)
        dom, dom_steps = parameter_domain(cert, n0)
        steps += dom_steps
        if dom is None:
            return _report(steps)
        steps += _b_grows(wb, rows, n0, dom, pq[0])
        steps += _spot(x, y, j0, pq)
    return _report(steps)
