"""The corners lemma: two distributions each within [1/T, T] of a third bound an f-divergence between them.

**Lemma.** Let m, x, y be distributions over the buckets with x_l/m_l and y_l/m_l in [1/T, T] (T >= 1) wherever
m_l > 0 (x_l = y_l = 0 where m_l = 0), and phi convex on (0, oo). Then sum_l y_l phi(x_l/y_l) <= V with
g(a, b) = b phi(a/b) and V = (g(T, 1/T) + g(1/T, T))/(T + 1) + g(1/T, 1/T) (T - 1)/(T + 1).
*Proof.* With a_l = x_l/m_l, b_l = y_l/m_l the sum is sum_l m_l g(a_l, b_l), sum_l m_l a_l = sum_l m_l b_l =
sum_l m_l = 1. g, the perspective of phi, is jointly convex on the box [1/T, T]^2. The affine h through g's values at
c1 = (T, 1/T), c2 = (1/T, T), c4 = (1/T, 1/T) has h(c3) = h(c1) + h(c2) - h(c4) at c3 = (T, T) (c1 + c2 = c3 + c4), and
g(c3) + g(c4) = 2 g(M) <= g(c1) + g(c2) with M the common midpoint ((T + 1/T)/2 twice; g(t, t) = t phi(1) is linear on
the diagonal, then convexity): g <= h at the four corners, so on the box (g - h convex). Summing with the weights m_l,
sum_l m_l g(a_l, b_l) <= h(1, 1) = V, as (1, 1) = c1/(T + 1) + c2/(T + 1) + c4 (T - 1)/(T + 1).

What the checker re-derives from the certificate's statement, not from its data:

- A's side is a registered two-sided subset ratio of size 1 (each record's distribution against the table's mean,
  bucket by bucket, within [1/T, T]: m is the table's mean, x and y two records);
- B's side names a registered definition declaring a divergence between every two records (``compares`` pairs) with
  a generator phi (KL, Renyi of a finite order, total variation, the hockey-stick at a number gamma >= 1); the
  certificate's kind, order, phi must be those; phi is convex (phi'' >= 0 for r > 0, or a max of affine functions of
  r times a nonnegative number);
- the domain states T >= 1;
- U is V in B's level (for Renyi of order alpha, exp((alpha - 1) U) = V), by exact algebra (a maximum resolved at
  T = 1 + u, u >= 0);
- at three records (the certificate's ``hexagon``: the domain states T < N - 1 and N T < 2 T + 2) U is instead the
  value at (1, 1) of the affine function through g at three vertices of the hexagon the two records' ratios fill,
  at least g at all six (:mod:`implgraph.certify.lemmas.corners_hexagon`);
- where the certificate claims tightness: its family (three blocks of rows over three buckets, in T and N) sums to 1
  row by row and gives D(E1 row || E2 row) = V symbolically in T (for T in [1, c) where the family's own domain
  states T <= c, a number: the family is claimed there only); at each sampled N and T in {1, 5/4, 3/2, 2, 3, 5}
  where its domain and the certificate's hold, it is a table of N records, A's registered exact level is <= T and
  B's registered exact level (the largest divergence over every ordered pair of distinct records) equals U.
"""

from __future__ import annotations

from fractions import Fraction

import sympy

from implgraph.certify.family import sampled_family_step
from implgraph.certify.lemmas import lemma
from implgraph.certify.lemmas.chord_family import _at
from implgraph.certify.lemmas.chord import _convex, _divergence, _read_domain, _report
from implgraph.certify.pointwise import level_number
from implgraph.certify.report import lemma_steps
from implgraph.core import methods
from implgraph.core.formula import parse_expr

__all__ = ["check", "corner_value"]

_R = sympy.Symbol("r", positive=True)
_T = sympy.Symbol("T", positive=True)
_N = sympy.Symbol("N", integer=True, positive=True)
_U = sympy.Symbol("u", nonnegative=True)


def _expr(text):
    return parse_expr(str(text), {"T": _T, "N": _N, "r": _R})


def corner_value(phi, hi=_T):
    """V of the lemma for the generator ``phi`` (in r) on the box [1/T, hi], in T (and N): the affine function through
    g at (hi, 1/T), (1/T, hi), (1/T, 1/T), at (1, 1): g(lo, lo) + (g(hi, lo) + g(lo, hi) - 2 g(lo, lo)) L,
    L = (1 - lo)/(hi - lo)."""
    lo = 1 / _T

    def g(a, b):
        return b * phi.subs(_R, sympy.cancel(a / b))
    L = sympy.cancel((1 - lo) / (hi - lo))
    return g(lo, lo) + (g(hi, lo) + g(lo, hi) - 2 * g(lo, lo)) * L


def _box_hi(cert, data):
    """The box's upper end: T, or N - (N - 1)/T (each record's ratio is also at most that, the others' N - 1 ratios
    each >= 1/T) where the domain states T >= N - 1 (or >) and N >= 2 (there it is the smaller end); None for any
    other end or a lower end other than 1/T."""
    from implgraph.certify.lemmas.chord_narrowed import _states_le
    if str(data.get("lo")).replace(" ", "") != "1/T" or data.get("hi") is None:
        return None
    hi = _expr(data["hi"])
    if sympy.simplify(hi - _T) == 0:
        return _T
    domain = _read_domain(cert, cert.get("domain") or [])
    narrow = _N - (_N - 1) / _T
    ok = sympy.simplify(hi - narrow) == 0 and _states_le(domain, _N - 1, _T) and _states_le(domain, 2, _N)
    return narrow if ok else None


def _zero(expr, cap=None) -> bool:
    """``expr`` is 0 for every T >= 1, or every T in [1, cap) (exact algebra; a maximum resolved at T = 1 + u, or
    T = 1 + (cap - 1) u/(1 + u), u >= 0)."""
    if cap is not None and expr.has(sympy.log):      # logarithms of factors positive on [1, cap]
        from implgraph.certify.lemmas.corners_hexagon import split_logs
        expr = split_logs(expr, cap)
        if expr is None:
            return False
    expr = sympy.expand_log(expr, force=True)
    if expr.has(sympy.Max, sympy.Min, sympy.Abs):
        expr = expr.subs(_T, 1 + (_U if cap is None else (cap - 1) * _U / (1 + _U)))
    return sympy.simplify(expr) == 0


def _cap(cert, fam):
    """The number c of a condition T <= c (a number > 1) in the family's own domain, or None."""
    for c in _read_domain(cert, fam.get("domain") or []):
        if isinstance(c, (sympy.LessThan, sympy.GreaterThan)):
            lhs, rhs = (c.lhs, c.rhs) if isinstance(c, sympy.LessThan) else (c.rhs, c.lhs)
            if lhs == _T and rhs.is_Rational and rhs > 1:
                return rhs
    return None


def _size_one(A) -> bool:
    return A.get("size") is not None and sympy.simplify(_expr(A["size"]) - 1) == 0


def _value_ok(div, upper, hi=_T, value=None) -> bool:
    V = corner_value(div.phi(_R), hi) if value is None else value
    if div.kind == "renyi":
        return _zero(sympy.exp((div.order - 1) * upper) - V)
    return _zero(upper - V)


@lemma(methods.CORNERS)
def check(cert, ns=range(2, 13), timeout_ms=4000):
    """Re-check a corners certificate (see the module notes)."""
    with lemma_steps(cert) as steps:
        A, data = cert.get("A") or {}, cert.get("upper_certificate") or {}
        steps.append(("A is a two-sided subset level of size 1 (each record against the table's mean)",
                      A.get("family") == "subset" and A.get("sides") == "two-sided" and _size_one(A),
                      "declared families"))
        _, div = _divergence(cert)
        phi = None if div is None else div.phi(_R)
        steps.append(("B's registered definition declares a divergence between every two records, with a generator",
                      div is not None and div.compares == "pairs" and phi is not None, "registry"))
        if div is None or phi is None or div.compares != "pairs":
            return _report(steps)
        declared = {"lemma": methods.CORNERS.lemma, "kind": div.kind, "compares": div.compares,
                    "order": None if div.order is None else str(div.order)}
        steps.append(("the certificate's divergence is B's declared one",
                      all(data.get(k) == v for k, v in declared.items()), "exact"))
        steps.append(("phi is the kind's generator", sympy.simplify(_expr(data.get("phi")) - phi) == 0, "exact"))
        steps.append(("phi is convex for r > 0 (so its perspective b phi(a/b) is jointly convex)", _convex(phi),
                      "phi'' >= 0 for r > 0, or a max of affine"))
        if div.kind == "hockey-stick":
            steps.append(("gamma >= 1", bool(div.order.is_number and div.order >= 1), "exact"))
        steps.append(("the domain has T >= 1", any(str(c).replace(" ", "") in ("T>=1", "1<=T")
                                                   for c in cert.get("domain") or []), "exact"))
        hi = _box_hi(cert, data)
        steps.append(("the box is [1/T, T], or [1/T, N - (N - 1)/T] where the domain states T >= N - 1 and N >= 2",
                      hi is not None, "exact"))
        if hi is None:
            return _report(steps)
        value = None
        if data.get("hexagon") is not None:      # three records (corners_hexagon)
            from implgraph.certify.lemmas.corners_hexagon import hexagon_steps
            more, value = hexagon_steps(cert, data, div, _expr, _read_domain)
            steps += more
            if value is None:
                return _report(steps)
        steps.append(("U is the corners' value V on the box (exact algebra)" if value is None else
                      "U is h(1, 1) on the hexagon (exact algebra)",
                      _value_ok(div, _expr(cert.get("upper")), hi, value), "exact"))
        if cert.get("tight"):
            steps += _tightness_steps(cert, div, ns, hi, value)
    return _report(steps)


def _rows(fam):
    """``[(count, [values], class)]`` of the family, as expressions in T and N."""
    return [(_expr(r["count"]), [_expr(v) for v in r["values"]], str(r.get("class"))) for r in fam.get("rows") or []]


def _family_symbolic(rows, div, hi, cap=None, target=None) -> bool:
    """Every row sums to 1 and D(E1 row || E2 row) is V, in T (and N; T below ``cap`` where the family's domain
    states T <= cap)."""
    if len(rows) < 2 or any(sympy.simplify(sympy.Add(*vals) - 1) != 0 for _, vals, _ in rows):
        return False
    x, y = rows[0][1], rows[1][1]
    phi = div.phi(_R)
    value = sympy.Add(*[b * phi.subs(_R, sympy.cancel(a / b)) for a, b in zip(x, y)])
    return _zero(value - (corner_value(phi, hi) if target is None else target), cap)


def _family_at(cert, rows, t, n, div):
    """``(ok, how)``: at (T, N) = (t, n) the family is a table of N records, A's level <= T, B's = U."""
    from implgraph.certify.kernel import registered
    from implgraph.core.concrete import INF, ConcreteTable
    table = []
    for count, vals, _ in rows:
        c = count.subs({_T: t, _N: n})
        xs = [sympy.cancel(v.subs({_T: t, _N: n})) for v in vals]
        if not (c.is_Integer and c >= 0 and all(x.is_Rational and 0 <= x <= 1 for x in xs)):
            return False, f"at T = {t}, N = {n}: a row is no record ({c} x {xs})"
        table += [[Fraction(int(x.p), int(x.q)) for x in xs]] * int(c)
    if len(table) != n or any(sum(r) != 1 for r in table):
        return False, f"at T = {t}, N = {n}: {len(table)} records, or a row not summing to 1"
    a = registered(cert["A"]["definition"])
    params = {k: parse_expr(str(v), {}) for k, v in (cert["A"].get("params") or {}).items()}
    ra = a.concrete(ConcreteTable.from_fractions(table), **params)
    rb = div.level([list(r) for r in table], None)
    upper = _at(_expr(cert["upper"]), t, n)        # (0 log 0 at an end of the interval: its limit)
    if ra is None or ra == INF or rb is None or rb == INF:
        return False, f"at T = {t}, N = {n}: a level is undefined or infinite ({ra}, {rb})"
    rb_s = level_number(rb)
    same = _zero(rb_s - upper) or abs(sympy.N(rb_s - upper, 50)) < 1e-40
    ok = sympy.Rational(ra.numerator, ra.denominator) <= t and same
    return bool(ok), f"at T = {t}, N = {n}: A's raw level {ra}, B's {rb_s} against U = {upper}"


def _tightness_steps(cert, div, ns, hi, target=None):
    fam = cert.get("tightness") or {}
    rows, cap = _rows(fam), _cap(cert, fam)
    where = "" if cap is None else f" for 1 <= T < {cap}, its domain's T <= {cap}"
    return [(f"the family's rows sum to 1 and its first two rows' divergence is V (symbolic in T{where})",
             _family_symbolic(rows, div, hi, cap, target), "exact"),
            sampled_family_step(cert, fam, ns, lambda t, n: _family_at(cert, rows, t, n, div), _read_domain)]
