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
eight degree elevations, all of one sign: a gap whose sign is not so derived, or one with a logarithm, is refused);
the value h(1, 1) is returned for U's step and the family's.
"""

from __future__ import annotations

import sympy

__all__ = ["VERTICES", "hexagon_steps"]

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


def _bernstein_sign(p, strict) -> int:
    """+1 or -1 where every Bernstein coefficient of the polynomial p(T) on [1, 2] (degree elevated at most eight
    times) has that sign (strictly, where ``strict``), else 0."""
    q = sympy.Poly(sympy.expand(p.subs(_T, 1 + _S)), _S)
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
    known = len(support) == 3 and all(any(sympy.simplify(a - va) == 0 and sympy.simplify(b - vb) == 0
                                          for va, vb in VERTICES) for a, b in support)
    steps.append(("the support is three vertices of the hexagon (orderings of (T, 1/T, 3 - T - 1/T))", known, "exact"))
    if not (three and known):
        return steps, None
    phi = div.phi(_R)

    def g(a, b):
        return b * phi.subs(_R, sympy.cancel(a / b))
    c = sympy.symbols("c0:3")
    sol = sympy.solve([c[0] + c[1] * a + c[2] * b - g(a, b) for a, b in support], c, dict=True)
    if len(sol) != 1 or len(sol[0]) != 3:
        steps.append(("the affine h through g at the support is unique", False, "exact"))
        return steps, None
    h = [sympy.cancel(sol[0][x]) for x in c]
    ok = all(_nonneg_on(h[0] + h[1] * a + h[2] * b - g(a, b)) for a, b in VERTICES)
    steps.append(("h, the affine function through g at the support, is >= g at the six vertices for 1 <= T <= 2 "
                  "(one sign on [1, 2] by Bernstein coefficients)", ok, "exact"))
    return steps, (sympy.cancel(h[0] + h[1] + h[2]) if ok else None)
