"""The tv-distance lemma: a declared divergence bounds a class's total variation distance from the table
(docs/proofs/tv-distance.md, docs/proofs/pinsker.md).

A certificate of method ``tv-distance`` states that B's level (the largest total variation distance TV(P_E, P) of a
class's mean P_E from the table's P, over classes of >= s records, no maximum) is at most ``upper`` on every table
whose A level (a registered divergence) is at most T. Re-derived here from the registry (A's divergence and what it
compares, B's declared distance and s), never from the prover's words:

- **the pair fact** named by the certificate applies to A's kind and order, and gives g(T), a bound of TV(x, y) for
  two distributions with A's divergence <= T (both ways where A compares pairs or a removal):
  ``tv`` g = T; ``hockey-stick`` at gamma >= 1, g = (2 T + gamma - 1)/(gamma + 1) (the identity
  (a - gamma b - T) + ((1 - b) - gamma (1 - a) - T) = (gamma + 1)(a - b) - (2 T + gamma - 1), exact);
  ``chi-square`` (Renyi of order >= 2, both ways) g = sqrt(c/(4 + c)), c = e^T - 1 (merging buckets does not raise
  sum x^2/y, the identity x1^2/y1 + x2^2/y2 - (x1 + x2)^2/(y1 + y2) = (x1 y2 - x2 y1)^2/(y1 y2 (y1 + y2)); on two
  buckets c - (4 + c) s^2 = 2 (c q(a) - s^2) + 2 (c q(b) - s^2) + c (1 - a - b)^2, q(p) = p (1 - p); an order above
  2 through D_2 <= D_alpha, cited); ``pinsker`` (KL, Renyi or the zero-concentrated level, any direction; A's
  KL <= T, for the zero-concentrated level by :mod:`implgraph.certify.zcdp_facts`) g = sqrt(T/2): Pinsker's inequality,
  cited with its statement (Tsybakov 2009, Lemma 2.5: TV(x, y) <= sqrt(KL(x || y)/2)) and re-checked between two
  buckets (f(p, q) = kl(p || q) - 2 (p - q)^2 has f(p, p) = 0 and df/dq = (q - p)(1 - 2 q)^2/(q (1 - q))), with
  KL <= D_2 re-checked and KL <= D_alpha cited (van Erven and Harremoes 2014, Theorems 3 and 5);
- **the composition** to B, by what A compares (re-checked identities in exact algebra): the class against the
  others, P_E - P = (N - e)(P_E - P_O)/N (so TV(P_E, P) <= (N - e)/N <= (N - s)/N); record removal,
  x_i - P = (N - 1)(P - Q_i) for P = (x_i + (N - 1) Q_i)/N; TV is half an L1 norm, so the TV of a mean of differences
  is at most the mean of their TVs (the triangle inequality);
- **U** is the composition's: ``pairs`` (N - s) g/N (g capped at 1 where the pair fact is not tight), ``class`` min((N - s)/N, g),
  ``removal`` min((N - s)/N, (N - 1) g), compared by exact algebra;
- **tightness** (A between pairs, a tight pair fact only): the family s records at x in class E1, N - s at y in E2
  (binary rows): A's divergence is T both ways and TV(x, y) = g symbolically, and the registry's exact levels of A and
  B agree at sample points (N = 2, 3, 5); the domain states 2 s <= N.

The argument reads no other class than the one it bounds and holds on every partition (a class of e = N records has
TV 0 <= U).
"""

from __future__ import annotations

from fractions import Fraction

import sympy

from implgraph.certify.lemmas import lemma
from implgraph.certify.report import lemma_steps, steps_report as _report
from implgraph.core import methods
from implgraph.core.formula import parse_expr

__all__ = ["check", "pair_bound", "composed"]

_T = sympy.Symbol("T", positive=True)
_N = sympy.Symbol("N", integer=True, positive=True)
_a, _b, _c, _m = sympy.symbols("a b c m", positive=True)


def _zero(expr) -> bool:
    return sympy.simplify(sympy.cancel(sympy.together(expr))) == 0


def _order(div):
    if div.kind == "kl":
        return sympy.Integer(1)
    if div.kind == "renyi" and (div.order is sympy.oo or div.order.is_Rational):
        return div.order
    return None


def pair_bound(fact, div):
    """``(applies, g)``: does ``fact`` apply to A's divergence ``div``, and its g(T) (module notes)."""
    both = div.compares in ("pairs", "removal")
    order = _order(div)
    if fact == "tv":
        return div.kind == "tv", _T
    if fact == "hockey-stick":
        ok = div.kind == "hockey-stick" and both and div.order.is_number and bool(div.order >= 1)
        return ok, ((2 * _T + div.order - 1) / (div.order + 1) if ok else None)
    if fact == "chi-square":
        c = sympy.exp(_T) - 1
        return (order is not None and both and bool(order >= 2)), sympy.sqrt(c / (c + 4))
    if fact == "pinsker":       # A's KL <= T: KL itself, KL <= D_alpha, or a zero-concentrated level (zcdp_facts)
        return order is not None or div.kind == "zcdp", sympy.sqrt(_T / 2)
    return False, None


def composed(compares, g, s, tight):
    """U from g by what A compares (module notes); g capped at 1 between pairs where it is not ``tight``."""
    ceiling = (_N - s) / _N
    if compares == "pairs":
        return ceiling * (g if tight else sympy.Min(1, g))
    if compares == "class":
        return sympy.Min(ceiling, g)
    return sympy.Min(ceiling, (_N - 1) * g)


def _hockey_step() -> bool:
    g = sympy.Symbol("g", positive=True)
    lhs = (_a - g * _b - _T) + ((1 - _b) - g * (1 - _a) - _T)
    return _zero(lhs - ((g + 1) * (_a - _b) - (2 * _T + g - 1)))


def _chi_steps() -> bool:
    x1, x2, y1, y2 = sympy.symbols("x1 x2 y1 y2", positive=True)
    merge = x1 ** 2 / y1 + x2 ** 2 / y2 - (x1 + x2) ** 2 / (y1 + y2) - (x1 * y2 - x2 * y1) ** 2 / (y1 * y2 * (y1 + y2))
    two = _a ** 2 / _b + (1 - _a) ** 2 / (1 - _b) - 1 - (_a - _b) ** 2 / (_b * (1 - _b))
    s, qa, qb = _a - _b, _a * (1 - _a), _b * (1 - _b)
    summed = _c - (4 + _c) * s ** 2 - (2 * (_c * qa - s ** 2) + 2 * (_c * qb - s ** 2) + _c * (1 - _a - _b) ** 2)
    return _zero(merge) and _zero(two) and _zero(summed)


def _pinsker_steps(order, zcdp=False) -> list:
    from implgraph.certify.lemmas.divergence_order import _binary_pinsker, _order_fact
    out = [("Pinsker's inequality (Tsybakov 2009, Lemma 2.5): TV(x, y) <= sqrt(KL(x || y)/2) for distributions x, y; "
            "re-checked between two buckets: f(p, q) = kl(p || q) - 2 (p - q)^2 has f(p, p) = 0 and "
            "df/dq = (q - p)(1 - 2 q)^2/(q (1 - q))", _binary_pinsker(), "exact"),
           ("Pinsker's reduction to two buckets (the event {x > y}: TV unchanged, KL not raised by the log-sum "
            "inequality); TV is symmetric, so either direction of KL bounds it", True, "cited: Tsybakov 2009, Lemma 2.5")]
    if zcdp:
        from implgraph.certify.zcdp_facts import zcdp_kl_steps
        out += zcdp_kl_steps()
    elif order != 1:
        out.append((f"KL <= D_{order}", *_order_fact(sympy.Integer(1), order)))
    return out


def _compose_steps(compares) -> list:
    e, X, Y, x, Q = sympy.symbols("e X Y x Q", positive=True)
    P = (e * X + (_N - e) * Y) / _N
    steps = [("a class against the table: P_E - P = (N - e)(P_E - P_O)/N, so TV(P_E, P) <= (N - e)/N <= (N - s)/N",
              _zero((X - P) - (_N - e) * (X - Y) / _N), "exact identity")]
    if compares == "pairs":
        steps.append(("P_E - P_O is the mean of x_i - x_j (i in E, j not); TV is half an L1 norm: the triangle "
                      "inequality gives TV(P_E, P_O) <= max TV(x_i, x_j) <= g", True, "exact (norm)"))
    if compares == "removal":
        Pr = (x + (_N - 1) * Q) / _N
        steps.append(("record removal: x_i - P = (N - 1)(P - Q_i), so TV(x_i, P) = (N - 1) TV(P, Q_i) <= (N - 1) g; "
                      "P_E - P is the mean of x_i - P over E (triangle inequality)",
                      _zero((x - Pr) - (_N - 1) * (Pr - Q)), "exact identity"))
    return steps


def _family_steps(cert, fact, div, g, s, params_b, ns) -> list:
    """The tight family: s records at x in E1, N - s at y in E2; symbolic and at sample points."""
    rows = [(r.get("count"), r.get("value"), r.get("class")) for r in (cert.get("tightness") or {}).get("rows") or []]
    ok = (div.compares == "pairs" and fact in ("tv", "hockey-stick", "chi-square") and len(rows) == 2
          and rows[0][2] == "E1" and rows[1][2] == "E2"
          and [r[0] for r in rows] == [f"({cert['B'].get('min_class', '1')})", f"N - ({cert['B'].get('min_class', '1')})"])
    domain_ok = any(str(d).replace(" ", "") == f"2*({s})<=N" for d in cert.get("domain") or [])
    out = [("a tight claim: A between pairs, a tight pair fact, the family s records in E1 and N - s in E2, "
            "the domain 2 s <= N", ok and domain_ok, "exact")]
    if not (ok and domain_ok):
        return out
    x, y = (parse_expr(str(r[1]), {"T": _T}) for r in rows)
    half = sympy.Rational(1, 2)
    if fact == "tv":
        sym_ok = _zero(x - _T) and y == 0
    elif fact == "hockey-stick":
        gam = div.order
        m = (2 * _T + gam - 1) / (2 * (gam + 1))
        # E_gamma(x || y) = (x - gamma y) + 0 on the other bucket: (1 - x) - gamma (1 - y) = (1 - gamma) - T <= 0
        sym_ok = (_zero(x - half - m) and _zero(y - half + m) and _zero((x - gam * y) - _T)
                  and _zero(((1 - x) - gam * (1 - y)) - ((1 - gam) - _T)))
    else:
        c = sympy.exp(_T) - 1
        chi = (x - y) ** 2 / y + (x - y) ** 2 / (1 - y)
        chi_rev = (x - y) ** 2 / x + (x - y) ** 2 / (1 - x)
        sym_ok = (_zero(x + y - 1) and _zero((x - y) - g) and _zero(chi - c) and _zero(chi_rev - c))
    out.append(("the family's pair: A's divergence T both ways and TV(x, y) = g (symbolic)", sym_ok, "exact"))
    out.append(_samples(cert, fact, div, s, params_b, ns))
    return out


def _samples(cert, fact, div, s, params_b, ns):
    from implgraph.certify.registered import registered
    from implgraph.core.concrete import ConcreteTable
    b_def = registered(cert["B"]["definition"])
    points = []       # (x, y, A level expected (as a test), B level expected)
    for k in (Fraction(1, 5), Fraction(1, 2)):
        if fact == "tv":
            points.append((k, Fraction(0), lambda lv, k=k: lv == k, k))
        elif fact == "hockey-stick":
            if not div.order.is_Rational:
                continue
            gam = Fraction(int(div.order.p), int(div.order.q))
            m = (2 * k + gam - 1) / (2 * (gam + 1))
            points.append((Fraction(1, 2) + m, Fraction(1, 2) - m, lambda lv, k=k: lv == k, 2 * m))
        else:
            m = k / 2                        # TV = 2 m = k, c = 16 m^2/(1 - 4 m^2)
            c = 16 * m ** 2 / (1 - 4 * m ** 2)
            points.append((Fraction(1, 2) + m, Fraction(1, 2) - m,
                           lambda lv, c=c: hasattr(lv, "expr") and _zero(sympy.exp(lv.expr) - 1
                                                                         - sympy.Rational(c.numerator, c.denominator)),
                           2 * m))
    if not points:          # an irrational gamma: no rational attaining pair; the symbolic check above stands alone
        return ("the family at sample points: gamma is irrational, no rational table attains U (the symbolic check "
                "of the family is the proof)", fact == "hockey-stick", "not sampled")
    bad, tried = [], 0
    for x, y, a_ok, want_b in points:
        for n in [k for k in ns if k in (2, 3, 5)]:
            if 2 * s > n:
                continue
            rows = [[x, 1 - x]] * s + [[y, 1 - y]] * (n - s)
            labels = ["E1"] * s + ["E2"] * (n - s)
            a_level = div.level(rows)
            b_level = b_def.concrete(ConcreteTable.from_fractions(rows, classes=labels), **params_b)
            tried += 1
            want = Fraction(n - s, n) * want_b
            if not a_ok(a_level) or Fraction(str(b_level)) != want:
                bad.append(f"N = {n}, x = {x}: A {a_level}, B {b_level} (want {want})")
    return (f"the family attains U at {tried} rational points (registry levels)", tried > 0 and not bad,
            "; ".join(bad[:3]) or "exact")


@lemma(methods.TV_DISTANCE, own_partitions=True)
def check(cert, ns=range(2, 13), timeout_ms=4000):
    """Re-check a tv-distance certificate (see the module notes)."""
    from implgraph.certify.registered import registered
    from implgraph.definitions.divergences import divergence_of
    with lemma_steps(cert) as steps:
        A, B = cert.get("A") or {}, cert.get("B") or {}
        a_def, b_def = registered(A.get("definition") or ""), registered(B.get("definition") or "")
        div = divergence_of(a_def, A.get("params")) if a_def is not None else None
        s = sympy.Integer(int(str(B.get("min_class") or "1")))
        b_ok = (b_def is not None and B.get("distance") == "total-variation" and B.get("max_class") is None
                and s >= 1)
        steps.append(("A declares a registered divergence; B a class's total variation distance from the table "
                      "(classes of >= s records, no maximum)", div is not None and b_ok, "registry"))
        if div is None or not b_ok:
            return _report(steps)
        data = cert.get("upper_certificate") or {}
        fact = str(data.get("fact"))
        applies, g = pair_bound(fact, div)
        steps.append((f"the pair fact ({fact}) applies to A's kind, order and direction", applies, "registry"))
        if not applies:
            return _report(steps)
        steps.append(("the certificate's 'compares' is A's", data.get("compares") == div.compares, "registry"))
        if fact == "hockey-stick":
            steps.append(("hockey-stick both ways: (a - gamma b - T) + ((1 - b) - gamma (1 - a) - T) = "
                          "(gamma + 1)(a - b) - (2 T + gamma - 1)", _hockey_step(), "exact identity"))
        elif fact == "chi-square":
            steps.append(("merging buckets does not raise sum x^2/y; on two buckets c - (4 + c) s^2 = "
                          "2 (c q(a) - s^2) + 2 (c q(b) - s^2) + c (1 - a - b)^2 >= 0", _chi_steps(), "exact"))
            if _order(div) != 2:
                from implgraph.certify.lemmas.divergence_order import _order_fact
                steps.append((f"D_2 <= D_{_order(div)}", *_order_fact(sympy.Integer(2), _order(div))))
        elif fact == "pinsker":
            steps += _pinsker_steps(_order(div), zcdp=div.kind == "zcdp")
        steps += _compose_steps(div.compares)
        upper = parse_expr(str(cert.get("upper")), {"T": _T, "N": _N})
        tight_fact = fact in ("tv", "hockey-stick") or (fact == "chi-square" and _order(div) == 2)
        want = composed(div.compares, g, s, tight_fact)
        steps.append(("U is the composition's", _zero(upper - want) or upper == want, f"want {want}"))
        steps.append(("every partition: a class of e = N records has TV 0; the argument reads only the class it "
                      "bounds", True, "exact"))
        if cert.get("tight"):
            steps.append(("a tight claim: the pair fact is tight", tight_fact, "exact"))
            if tight_fact:
                params_b = {k: str(v) for k, v in (B.get("params") or {}).items()}
                steps += _family_steps(cert, fact, div, g, s, params_b, ns)
        else:
            steps.append(("no tightness claimed", True, "exact"))
    return _report(steps)
