"""The binary-program lemma: a Renyi-2 level between records bounds an (eps, delta) slack
(docs/proofs/binary-program.md).

A certificate of method ``binary-program`` states that B's raw level (the least e^eps >= 1 with
x(E) <= e^eps y(E) + delta on every event) is at most ``upper``, a Piecewise in A's level T, on every table whose
Renyi divergence of order 2 between every two records is at most T both ways. Re-derived here, from the registry and
the slack delta in (0, 1/2), never from the prover's words (c = e^T - 1, d = delta, s = a - b, q(p) = p (1 - p)):

- **sides**: A declares Renyi of order 2 between pairs of records (or KL, or another order: the helpers
  :mod:`~implgraph.certify.lemmas.binary_program_kl` and the cited monotonicity in the order); B an additive slack
  between pairs of records, or on record removal (then the removal pair's chi^2 is at most c/(N (N - 1)) both ways
  and U = 1 where N d >= 1: :mod:`~implgraph.certify.lemmas.binary_program_removal`; no tightness claimed);
- **reduction to two buckets**: x1^2/y1 + x2^2/y2 - (x1 + x2)^2/(y1 + y2) = (x1 y2 - x2 y1)^2/(y1 y2 (y1 + y2))
  (merging buckets does not raise sum x^2/y = exp(D_2)), and on two buckets exp(D_2) - 1 = s^2/q(b);
- **U is the program's**: the Piecewise the lemma builds from d (pieces flat, middle, top and their conditions);
- **top** (valid for every c): U b - a + d = M - s with M = d (1 - b) + c b/(4 d), M^2 - c q(b) =
  (d (1 - b) - c b/(4 d))^2, M >= 0 on 0 <= b <= 1 (affine, positive at both ends): s^2 <= c q(b) gives s <= M;
- **flat** (c <= c0 = 4 d^2/(1 - d^2)): c - (4 + c) s^2 = 2 (c q(a) - s^2) + 2 (c q(b) - s^2) + c (1 - a - b)^2 >= 0
  and d^2 (4 + c) - c = 4 d^2 - (1 - d^2) c >= 0 there, so s <= d: a - d <= b;
- **middle** (c0 <= c <= c1 = 4 d^2/(1 - 2 d)), the symmetric pair p* = (1/2 + m, 1/2 - m), c = 16 m^2/(1 - 4 m^2):
  both chi^2 equal c at p*; chi^2 is convex on (0, 1)^2 (a sum of (u - v)^2/v at affine arguments, whose Hessian is
  (2/v^3)(v, -u)(v, -u)^T); grad(a - V b) = lambda_1 grad chi^2(x||y) + lambda_2 grad chi^2(y||x) at p* with
  lambda_1, lambda_2 >= 0 for every m in [d/2, d/(2 (1 - d))] (no root of their numerators or denominators inside,
  the sign at the midpoint; exact real roots); a* - V b* = d. KKT with convex constraints: for a feasible q,
  (a - V b)(q) - d = grad . (q - p*) <= sum lambda_i (chi_i(q) - c) <= 0. The piece's condition maps to that
  interval: c/(4 + c) = 4 m^2, m = d/2 at c0 and d/(2 (1 - d)) at c1;
- **A on record removal** (A bounds D(P || Q_i) and D(Q_i || P), B's slack the same pair): U = 1 where N d >= 1, as
  P(E) - Q_i(E) = (x_i(E) - Q_i(E))/N; elsewhere the program (chi-square, or the KL bound) at T applies to the pair
  (P, Q_i) itself (:func:`~implgraph.certify.lemmas.binary_program_removal.same_pair_steps`); no tightness claimed;
- **tightness** (pairs only): each piece's family (one record at x, N - 1 at y; equal records on the flat piece) has
  both chi^2 <= c on the piece (symbolic) and (x - d)/y = U, and at sample points of rational tables the registry's
  own levels (A's exp(level) = 1 + c, B's raw level = U) at N = 2, 3, 5.
"""

from __future__ import annotations

import sympy

from implgraph.certify.lemmas import lemma
from implgraph.certify.report import lemma_steps, steps_report as _report
from implgraph.core import methods
from implgraph.core.formula import parse_expr

__all__ = ["check", "program_pieces"]

_T = sympy.Symbol("T", positive=True)
_N = sympy.Symbol("N", integer=True, positive=True)
_c, _m = sympy.symbols("c m", positive=True)
_a, _b = sympy.symbols("a b", positive=True)


def _zero(expr) -> bool:
    return sympy.simplify(sympy.cancel(sympy.together(expr))) == 0


def _chi(x, y):
    """chi^2 of the binary pairs (x, 1 - x) against (y, 1 - y)."""
    return (x - y) ** 2 / y + (y - x) ** 2 / (1 - y)


def program_pieces(d, N=None, same_pair=False):
    """``[(name, condition on T, U)]``: the chi-square program's value at slack d (the module notes), in T; with
    ``N`` (record removal) U = 1 where N d >= 1, then the program at the removal pair's level c/(N (N - 1)), or at c
    itself where A bounds the removal pair (``same_pair``)."""
    scale = 1 if (N is None or same_pair) else N * (N - 1)
    c0, c1 = 4 * d ** 2 / (1 - d ** 2), 4 * d ** 2 / (1 - 2 * d)
    c = (sympy.exp(_T) - 1) / scale
    m = sympy.sqrt(c / (c + 4)) / 2
    head = [] if N is None else [("removal-tv", N * d >= 1, sympy.Integer(1))]
    half = sympy.Rational(1, 2)
    return head + [("flat", _T <= sympy.log(1 + scale * c0), sympy.Integer(1)),
                   ("middle", _T <= sympy.log(1 + scale * c1), (half + m - d) / (half - m)),
                   ("top", sympy.true, 1 - d + c / (4 * d))]


def _sides(cert):
    """``(A's divergence, B's slack records, delta)`` from the registry and the certificate's B side."""
    from implgraph.certify.kernel import registered
    from implgraph.definitions.capabilities import AdditiveSlack
    from implgraph.definitions.divergences import divergence_of
    a, b = (registered((cert.get(k) or {}).get("definition") or "") for k in ("A", "B"))
    div = divergence_of(a, (cert.get("A") or {}).get("params")) if a is not None else None
    slack = b.declared(AdditiveSlack) if b is not None else None
    d = sympy.Rational(str(((cert.get("B") or {}).get("slack") or {}).get("delta")))
    return div, (None if slack is None else slack.compares), d


def _order(div):
    """KL as the order 1, Renyi its order (a rational number or oo); None for another kind or a symbolic order."""
    if div is None or div.kind not in ("kl", "renyi"):
        return None
    if div.kind == "kl":
        return sympy.Integer(1)
    return div.order if (div.order is sympy.oo or div.order.is_Rational) else None


def _same_piecewise(upper, pieces) -> bool:
    """Is ``upper`` the Piecewise of ``pieces`` (as sympy builds it: equal neighbouring values merged), piece by piece:
    the same conditions, values equal by exact algebra?"""
    want = sympy.Piecewise(*[(u, cond) for _, cond, u in pieces])
    if not isinstance(upper, sympy.Piecewise) or not isinstance(want, sympy.Piecewise) \
            or len(upper.args) != len(want.args):
        return False
    for (u, cond), (w, wcond) in zip(upper.args, want.args):
        if cond != wcond and sympy.simplify(cond) != sympy.simplify(wcond):
            return False
        if not _zero(u - w):
            return False
    return True


def _merge_step():
    x1, x2, y1, y2 = sympy.symbols("x1 x2 y1 y2", positive=True)
    gap = x1 ** 2 / y1 + x2 ** 2 / y2 - (x1 + x2) ** 2 / (y1 + y2) - (x1 * y2 - x2 * y1) ** 2 / (y1 * y2 * (y1 + y2))
    two = _a ** 2 / _b + (1 - _a) ** 2 / (1 - _b) - 1 - (_a - _b) ** 2 / (_b * (1 - _b))
    return _zero(gap) and _zero(two) and _zero(_chi(_a, _b) - (_a - _b) ** 2 / (_b * (1 - _b)))


def _top_step(d):
    s, q = _a - _b, _b * (1 - _b)
    U, M = 1 - d + _c / (4 * d), d * (1 - _b) + _c * _b / (4 * d)
    ends = [M.subs(_b, 0), M.subs(_b, 1)]
    return (_zero((U * _b - _a + d) - (M - s)) and _zero(M ** 2 - _c * q - (d * (1 - _b) - _c * _b / (4 * d)) ** 2)
            and all(e.is_positive for e in ends))


def _flat_step(d):
    s, qa, qb = _a - _b, _a * (1 - _a), _b * (1 - _b)
    ident = _zero(_c - (4 + _c) * s ** 2 - (2 * (_c * qa - s ** 2) + 2 * (_c * qb - s ** 2) + _c * (1 - _a - _b) ** 2))
    c0 = 4 * d ** 2 / (1 - d ** 2)
    lin = sympy.expand(d ** 2 * (4 + _c) - _c)
    return ident and lin.subs(_c, c0) == 0 and sympy.Poly(lin, _c).LC() < 0


def _convex_step():
    u, v = sympy.symbols("u v", positive=True)
    g = (u - v) ** 2 / v
    H = sympy.hessian(g, (u, v))
    w = sympy.Matrix([v, -u])
    return all(_zero(e) for e in (H - 2 / v ** 3 * w * w.T)) and _zero(_chi(_a, _b) - g.subs({u: _a, v: _b})
                                                                       - g.subs({u: 1 - _a, v: 1 - _b}))


def _sign_on(expr, lo, hi) -> bool:
    """Is the rational function ``expr`` of m >= 0 on [lo, hi]: no real root of its numerator or denominator strictly
    inside, the denominator none on the closed interval, and a positive value at the midpoint."""
    num, den = sympy.fraction(sympy.cancel(sympy.together(expr)))
    for p, closed in ((num, False), (den, True)):
        poly = sympy.Poly(p, _m)
        if poly.is_zero:
            return p is num
        for r in sympy.real_roots(poly):
            if (lo <= r <= hi) if closed else (lo < r < hi):
                return False
    return bool(expr.subs(_m, (lo + hi) / 2) > 0)


def _kkt_step(d):
    """``(ok, multipliers)``: the symmetric pair meets the KKT conditions with multipliers >= 0 (module notes)."""
    a, b = sympy.Rational(1, 2) + _m, sympy.Rational(1, 2) - _m
    c = 16 * _m ** 2 / (1 - 4 * _m ** 2)
    V = (a - d) / b
    h1, h2 = _chi(_a, _b), _chi(_b, _a)
    at = {_a: a, _b: b}
    g1 = [sympy.diff(h1, v).subs(at) for v in (_a, _b)]
    g2 = [sympy.diff(h2, v).subs(at) for v in (_a, _b)]
    l1, l2 = sympy.symbols("l1 l2")
    sol = sympy.solve([l1 * g1[0] + l2 * g2[0] - 1, l1 * g1[1] + l2 * g2[1] + V], [l1, l2], dict=True)
    if len(sol) != 1:
        return False, None
    lam = [sympy.factor(sympy.cancel(sol[0][l1])), sympy.factor(sympy.cancel(sol[0][l2]))]
    lo, hi = d / 2, d / (2 * (1 - d))
    ok = (_zero(h1.subs(at) - c) and _zero(h2.subs(at) - c) and _zero(a - V * b - d)
          and all(_sign_on(x, lo, hi) for x in lam))
    cc = 16 * _m ** 2 / (1 - 4 * _m ** 2)
    maps = _zero(sympy.cancel(cc / (4 + cc)) - 4 * _m ** 2)
    for cv, mv in ((4 * d ** 2 / (1 - d ** 2), lo), (4 * d ** 2 / (1 - 2 * d), hi)):
        maps = maps and sympy.sqrt(cv / (4 + cv)) / 2 - mv == 0
    return ok and maps, lam


def _proof_steps(d, compares):
    steps = [("merging buckets does not raise exp(D_2) = sum x^2/y; on two buckets exp(D_2) - 1 = s^2/q(b)",
              _merge_step(), "exact identities")]
    if compares == "removal":
        from implgraph.certify.lemmas.binary_program_removal import removal_steps
        steps += removal_steps()
    steps.append(("top: U b - a + d = M - s, M^2 - c q(b) a square, M >= 0 on [0, 1]", _top_step(d), "exact"))
    steps.append(("flat: c - (4 + c) s^2 = 2 (c q(a) - s^2) + 2 (c q(b) - s^2) + c (1 - a - b)^2, and s <= d for "
                  "c <= 4 d^2/(1 - d^2)", _flat_step(d), "exact"))
    steps.append(("chi^2 is convex on (0, 1)^2: Hessian of (u - v)^2/v is (2/v^3) w w^T", _convex_step(), "exact"))
    ok, lam = _kkt_step(d)
    steps.append(("middle: KKT at (1/2 + m, 1/2 - m) with multipliers >= 0 on [d/2, d/(2 (1 - d))]", ok,
                  f"lambda = {lam}"))
    return steps


def _family_steps(cert, d, ns):
    fam = {p.get("piece"): p for p in ((cert.get("tightness") or {}).get("pieces") or [])}
    steps = []
    c1 = 4 * d ** 2 / (1 - 2 * d)
    for name, _, U in program_pieces(d):
        rows = (fam.get(name) or {}).get("rows") or []
        vals = [parse_expr(str(r.get("value")), {"T": _T, "N": _N}).subs(sympy.exp(_T), 1 + _c) for r in rows]
        counts = [str(r.get("count")) for r in rows]
        Uc = U.subs(sympy.exp(_T), 1 + _c)
        if name == "flat":
            ok = counts == ["N"] and len(vals) == 1
        elif counts != ["1", "N - 1"]:
            ok = False
        elif name == "middle":
            x, y = (v.subs(_c, 16 * _m ** 2 / (1 - 4 * _m ** 2)) for v in vals)
            cm = 16 * _m ** 2 / (1 - 4 * _m ** 2)
            ok = _zero(_chi(x, y) - cm) and _zero(_chi(y, x) - cm) and _zero((x - d) / y - Uc.subs(_c, cm))
        else:
            x, y = vals
            rev = sympy.cancel(sympy.together(_c - _chi(y, x))).subs(_c, c1 + _c)
            ok = _zero(_chi(x, y) - _c) and _zero((x - d) / y - Uc) and _nonneg_poly_ratio(rev)
        steps.append((f"{name}: the family's chi^2 <= c both ways and (x - d)/y = U (symbolic)", ok, "exact"))
    steps.append(_samples_step(cert, d, ns))
    return steps


def _nonneg_poly_ratio(expr) -> bool:
    """A rational function of c >= 0 whose numerator and denominator have coefficients of one sign each, alike."""
    num, den = sympy.fraction(sympy.cancel(expr))
    signs = []
    for p in (num, den):
        co = sympy.Poly(sympy.expand(p), _c).all_coeffs()
        signs.append(1 if all(x >= 0 for x in co) else -1 if all(x <= 0 for x in co) else 0)
    return signs[0] != 0 and signs[0] == signs[1]


def _samples_step(cert, d, ns):
    """The families at rational points, with the registry's exact levels."""
    from implgraph.certify.kernel import registered
    from implgraph.core.concrete import ConcreteTable
    from fractions import Fraction

    from implgraph.definitions.divergences import divergence_of
    b_def = registered(cert["B"]["definition"])
    div = divergence_of(registered(cert["A"]["definition"]), cert["A"].get("params"))
    lo, hi, c1 = d / 2, d / (2 * (1 - d)), 4 * d ** 2 / (1 - 2 * d)
    points = [((sympy.Rational(1, 2) + m, sympy.Rational(1, 2) - m), 16 * m ** 2 / (1 - 4 * m ** 2),
               (sympy.Rational(1, 2) + m - d) / (sympy.Rational(1, 2) - m)) for m in (lo + (hi - lo) * k / 3
                                                                                       for k in (1, 2))]
    for c in (c1, 2 * c1, sympy.Integer(3)):
        points.append((((4 * d ** 2 + 2 * d * c) / (4 * d ** 2 + c), 4 * d ** 2 / (4 * d ** 2 + c)), c,
                       1 - d + c / (4 * d)))
    bad, tried = [], 0
    for (x, y), c, U in points:
        for n in [k for k in ns if k in (2, 3, 5)]:
            rows = [[Fraction(str(x)), 1 - Fraction(str(x))]] + [[Fraction(str(y)), 1 - Fraction(str(y))]] * (n - 1)
            level = div.level(rows)
            got_a = sympy.exp(level.expr) if hasattr(level, "expr") else None
            got_b = b_def.concrete(ConcreteTable.from_fractions(rows), delta=d)     # B's registered exact level
            tried += 1
            if got_a is None or not _zero(got_a - (1 + c)) or Fraction(str(got_b)) != Fraction(str(U)):
                bad.append(f"N = {n}, c = {c}")
    return (f"the families attain U at {tried} rational points (registry levels)", tried > 0 and not bad,
            "; ".join(bad[:3]) or "exact")


@lemma(methods.BINARY_PROGRAM, own_partitions=True)
def check(cert, ns=range(2, 13), timeout_ms=4000):
    """Re-check a binary-program certificate (see the module notes)."""
    with lemma_steps(cert) as steps:
        div, compares, d = _sides(cert)
        zcdp = div is not None and div.kind == "zcdp"     # KL <= T (certify.zcdp_facts): the KL program
        order = sympy.Integer(1) if zcdp else _order(div)
        kl = order is not None and order < 2
        same_pair = div is not None and div.compares == "removal"
        sides_ok = (order is not None and (div.compares == "pairs" and compares in ("pairs", "removal")
                                           or div.compares == compares == "removal")
                    and 0 < d < sympy.Rational(1, 2))
        steps.append(("A declares KL, Renyi of a numeric order or the zero-concentrated level between pairs of "
                      "records, B a slack delta in (0, 1/2) between pairs of records or on record removal; or both "
                      "compare the removal pair (P, Q_i)", sides_ok, "registry"))
        if not sides_ok:
            return _report(steps)
        if zcdp:
            from implgraph.certify.zcdp_facts import zcdp_kl_steps
            steps += zcdp_kl_steps()
            steps.append(("a zero-concentrated A through its KL: no tightness claimed", not cert.get("tight"),
                          "exact"))
        elif order not in (1, 2):
            steps.append((f"D_{order} >= {'KL' if kl else 'D_2'}: the bound of the lower order holds; no tightness "
                          "claimed", not cert.get("tight"), "cited: van Erven and Harremoes 2014, Theorems 3 and 5"))
        upper = parse_expr(str(cert.get("upper")), {"T": _T, "N": _N})
        if same_pair:   # A and B on the same removal pair: U = 1 where N d >= 1, the program elsewhere
            from implgraph.certify.lemmas.binary_program_removal import same_pair_steps
            steps += same_pair_steps()
            steps.append(("no tightness claimed", not cert.get("tight"), "exact"))
        if kl:          # an upper bound only (binary_program_kl)
            from implgraph.certify.lemmas.binary_program_kl import kl_pieces, kl_steps
            want = kl_pieces(d)
            if same_pair:
                want = [("removal-tv", _N * d >= 1, sympy.Integer(1))] + want
            steps.append(("U is the KL bound's Piecewise at this delta", _same_piecewise(upper, want), "exact"))
            steps += kl_steps(d, "pairs" if same_pair else compares)
            steps.append(("no tightness claimed", not cert.get("tight"), "exact"))
            return _report(steps)
        steps.append(("U is the chi-square program's Piecewise at this delta",
                      _same_piecewise(upper, program_pieces(d, _N if compares == "removal" else None, same_pair)),
                      "exact"))
        steps += _proof_steps(d, "pairs" if same_pair else compares)
        if cert.get("tight"):
            steps.append(("a tight claim compares pairs of records", compares == "pairs" and not same_pair,
                          "registry"))
            steps += _family_steps(cert, d, ns)
    return _report(steps)
