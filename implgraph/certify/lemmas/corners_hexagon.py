"""The corners lemma at three records: the hexagon (a helper of :mod:`implgraph.certify.lemmas.corners`).

**Lemma.** Let three records each be within [1/T, T] of the table's mean m, 1 <= T <= 2, and phi convex on (0, oo).
Bucket by bucket two records' ratios (a, b) lie in [1/T, T]^2 with a + b in [3 - T, 3 - 1/T] (the third's ratio,
3 - a - b, in [1/T, T]): a hexagon whose vertices are the orderings (a, b) of (T, 1/T, k), k = 3 - T - 1/T. If an
affine h is at least g(a, b) = b phi(a/b) at the six vertices, then D(x_i || x_j) = sum_l m_l g(a_l, b_l) <= h(1, 1).
*Proof.* g is jointly convex, so below h on the hexagon (the convex hull of the vertices); sum m a = sum m b = sum m
= 1.

What the checker re-derives: the domain states T < N - 1 and N T < 2 T + 2 (with T >= 1 and the integer N >= 2 they
give N = 3 and T < 2: N >= 4 has N T >= 4 T >= 2 T + 2, N = 2 has T < 1); the certificate's support is three of the
six vertices; h is the affine function through g at them (solved here), and h - g at each vertex is a rational
function of T of one sign on [1, 2] (its numerator's and denominator's Bernstein coefficients on [1, 2], after at most
eight degree elevations, all of one sign: a gap whose sign is not so derived is refused); a gap with logarithms (KL)
is A log(T) + B log(x) + C, x = 3 T - T^2 - 1 >= 1, with A and B of one sign on [1, 2] each: each logarithm is
replaced by its bound on the side the sign asks for, (5 r^2 - 4 r - 1)/(2 r^2 + 4 r) <= ln r <= (r^2 + 4 r - 5)/
(4 r + 2) for r > 0 (the lower one is Pinsker's ``ln_lower``, the upper one the lower at 1/r), and the rest must be
>= 0 as above; the value h(1, 1) is returned for U's step and the family's.
"""

from __future__ import annotations

import sympy

__all__ = ["VERTICES", "hexagon_steps", "split_logs"]

_T = sympy.Symbol("T", positive=True)
_N = sympy.Symbol("N", integer=True, positive=True)
_R = sympy.Symbol("r", positive=True)
_S = sympy.Symbol("s")
_K = 3 - _T - 1 / _T

#: the hexagon's vertices (a, b): the orderings of (T, 1/T, k)
VERTICES = ((_T, 1 / _T), (_T, _K), (_K, _T), (1 / _T, _T), (1 / _T, _K), (_K, 1 / _T))


def _conditions(domain):
    out = []
    for c in domain:
        out += list(c.args) if isinstance(c, sympy.And) else [c]
    return out


def _three_records(domain) -> bool:
    """The domain states T < N - 1 and N T < 2 T + 2 (each either way round)."""
    wanted = [(_T, _N - 1), (_N * _T, 2 * _T + 2)]
    found = []
    for c in _conditions(domain):
        if isinstance(c, (sympy.StrictLessThan, sympy.StrictGreaterThan)):
            lo, hi = (c.lhs, c.rhs) if isinstance(c, sympy.StrictLessThan) else (c.rhs, c.lhs)
            found.append((lo, hi))
    return all(any(sympy.simplify(lo - a) == 0 and sympy.simplify(hi - b) == 0 for lo, hi in found) for a, b in wanted)


def _bernstein_sign(p, strict, end=2) -> int:
    """+1 or -1 where every Bernstein coefficient of the polynomial p(T) on [1, end] (degree elevated at most eight
    times) has that sign (strictly, where ``strict``), else 0."""
    q = sympy.Poly(sympy.expand(p.subs(_T, 1 + (end - 1) * _S)), _S)
    d0 = max(q.degree(), 0)
    a = [q.coeff_monomial(_S ** i) for i in range(d0 + 1)]
    for d in range(d0, d0 + 9):
        coeffs = [sum(sympy.binomial(j, i) / sympy.binomial(d, i) * a[i] for i in range(min(j, d0) + 1))
                  for j in range(d + 1)]
        for sign in (1, -1):
            if all((sign * c > 0) if strict else (sign * c >= 0) for c in coeffs):
                return sign
    return 0


def _nonneg_on(gap) -> bool:
    """``gap`` (a rational function of T) is >= 0 on [1, 2]: its denominator of one strict sign there, its numerator
    of the same weak sign."""
    gap = sympy.cancel(sympy.together(gap))
    if gap.has(sympy.log, sympy.exp) or gap.free_symbols - {_T}:
        return False
    if gap == 0:
        return True
    P, Q = sympy.fraction(gap)
    sq = _bernstein_sign(Q, strict=True)
    return sq != 0 and _bernstein_sign(P, strict=False) == sq


_X = sympy.Symbol("x", positive=True)    # T k = 3 T - T^2 - 1, >= 1 on [1, 2]
_XT = 3 * _T - _T ** 2 - 1
#: :data:`VERTICES` with k written x/T (a logarithm of a ratio then splits into log(T) and log(x))
_VERTICES_X = tuple((a.subs(_K, _X / _T), b.subs(_K, _X / _T)) for a, b in VERTICES)


def _low(r):        # ln r >= this for r > 0 (Pinsker.ln_lower)
    return (5 * r * r - 4 * r - 1) / (2 * r * r + 4 * r)


def _up(r):         # ln r <= this for r > 0 (ln_lower at 1/r)
    return (r * r + 4 * r - 5) / (4 * r + 2)


def _sign_on(expr) -> int:
    """+1 or -1 where the rational function ``expr`` of T has that weak sign on [1, 2] (its denominator strictly),
    else 0."""
    P, Q = sympy.fraction(sympy.cancel(sympy.together(expr)))
    sq = _bernstein_sign(Q, strict=True)
    sp_ = _bernstein_sign(P, strict=False)
    return sq * sp_


def _gap_ok(gap) -> bool:
    """``gap`` = A log(T) + B log(x) + C >= 0 on [1, 2] (A, B, C rational): each logarithm replaced by its rational
    bound on the side A's (B's) sign asks for, the rest >= 0."""
    gap = sympy.expand(gap)
    A, B = gap.coeff(sympy.log(_T)), gap.coeff(sympy.log(_X))
    C = sympy.expand(gap - A * sympy.log(_T) - B * sympy.log(_X))
    A, B, C = (sympy.cancel(e.subs(_X, _XT)) for e in (A, B, C))
    if C.has(sympy.log):
        return False
    total = C
    for coeff, r in ((A, _T), (B, _XT)):
        if coeff == 0:
            continue
        sign = _sign_on(coeff)
        if sign == 0:
            return False
        total += coeff * (_low(r) if sign > 0 else _up(r))
    return _nonneg_on(total)


def hexagon_steps(cert, data, div, read_expr, read_domain):
    """``(steps, value)``: the re-checked steps and h(1, 1) (None where a step fails)."""
    domain = read_domain(cert, cert.get("domain") or [])
    three = _three_records(domain)
    steps = [("the domain states T < N - 1 and N T < 2 T + 2 (N = 3 and 1 <= T < 2 for an integer N >= 2, T >= 1)",
              three, "exact")]
    try:
        support = [(read_expr(a), read_expr(b)) for a, b in data.get("hexagon") or []]
    except (TypeError, ValueError):
        support = []
    at = [next((i for i, (va, vb) in enumerate(VERTICES) if sympy.simplify(a - va) == 0
                and sympy.simplify(b - vb) == 0), None) for a, b in support]
    known = len(at) == 3 and None not in at and len(set(at)) == 3
    steps.append(("the support is three vertices of the hexagon (orderings of (T, 1/T, 3 - T - 1/T))", known, "exact"))
    if not (three and known):
        return steps, None
    phi = div.phi(_R)

    def g(a, b):
        return sympy.expand_log(b * phi.subs(_R, a / b), force=True)
    c = sympy.symbols("c0:3")
    sol = sympy.solve([c[0] + c[1] * a + c[2] * b - g(a, b) for a, b in (_VERTICES_X[i] for i in at)], c, dict=True)
    if len(sol) != 1 or len(sol[0]) != 3:
        steps.append(("the affine h through g at the support is unique", False, "exact"))
        return steps, None
    h = [sol[0][x] for x in c]
    ok = all(_gap_ok(h[0] + h[1] * a + h[2] * b - g(a, b)) for a, b in _VERTICES_X)
    steps.append(("h, the affine function through g at the support, is >= g at the six vertices for 1 <= T <= 2 "
                  "(one sign on [1, 2] by Bernstein coefficients; a logarithm by its rational bounds)", ok, "exact"))
    value = sympy.expand(h[0] + h[1] + h[2]).subs(_X, _XT)
    return steps, (value if ok else None)


def split_logs(expr, end):
    """``expr`` with each logarithm of a rational function of T split into the logarithms of its irreducible
    factors, each factor taken with the sign that makes it positive on [1, end] (where some factor's sign there is not
    one strict sign by Bernstein coefficients: None)."""
    out = {}
    for node in expr.atoms(sympy.log):
        arg = sympy.cancel(node.args[0])
        if arg.free_symbols - {_T}:
            return None
        P, Q = sympy.fraction(arg)
        cp, fp = sympy.factor_list(P)
        cq, fq = sympy.factor_list(Q)
        c, facs = cp / cq, [*fp, *[(f, -m) for f, m in fq]]
        parts = []
        for f, m in facs:
            sign = _bernstein_sign(f, strict=True, end=end)
            if sign == 0:
                return None
            c = c * sign ** m
            parts.append(m * sympy.log(sign * f))
        if c <= 0:
            return None
        out[node] = sympy.log(c) + sympy.Add(*parts)
    return expr.xreplace(out)
