"""Closed forms of the tight function: exact rational fits through sampled levels, and over N.

:func:`fit_rational` fits ``P(a)/Q(a)`` of low degree through exact points and confirms it on the
others; :func:`generalise_over_N` fits the coefficients of every N's fit as rational functions of
N; :func:`to_level` turns a raw fit into the definitions' own level units. Fitted forms are
bounded evidence (the points checked), never a proof.
"""

from __future__ import annotations

from fractions import Fraction

import sympy

from implgraph.definitions.nodes import N_SYM

__all__ = ["fit_rational", "generalise_over_N", "level_symbol", "to_level"]


_A = sympy.Symbol("a", positive=True)


_FORMS = [(1, 0, "c"), (2, 0, "c"), (2, 1, "c"), (2, 1, "m"), (3, 0, "c"), (3, 1, "c"), (3, 1, "m"), (4, 0, "c")]
# (numerator terms, denominator degree, normalisation: "c" Q = 1 + d1 a + ..., "m" Q = d0 + a)


def fit_rational(points, var=None):
    """Fit ``P(a)/Q(a)`` (low degrees) through exact points, confirmed on the rest.

    Q is normalised either as ``1 + d1 a + ...`` or as ``d0 + a``. Returns (sympy expression in
    ``var`` (default the symbol ``a``), None) when one form fits every point, (expr, a_max) when it
    fits only the points up to a_max (piecewise beyond), or (None, None).
    """
    var = _A if var is None else var
    pts = [(Fraction(a), Fraction(v)) for a, v in points]
    for upto in range(len(pts), 2, -1):
        sub = pts[:upto]
        for nnum, dden, norm in _FORMS:
            unknowns = nnum + dden
            if unknowns + 1 > len(sub):
                continue
            coef = _solve_form(sub[:unknowns], nnum, dden, norm)
            if coef is None:
                continue
            cs, ds = coef[:nnum], coef[nnum:]
            num = lambda a: sum(c * a ** i for i, c in enumerate(cs))                 # noqa: E731
            if norm == "c":
                den = lambda a: 1 + sum(d * a ** (j + 1) for j, d in enumerate(ds))  # noqa: E731
            else:
                den = lambda a: ds[0] + a                                              # noqa: E731
            if all(den(a) != 0 and num(a) == v * den(a) for a, v in sub):
                q = lambda x: sympy.Rational(x.numerator, x.denominator)               # noqa: E731
                e_num = sum(q(c) * var ** i for i, c in enumerate(cs))
                if norm == "c":
                    e_den = 1 + sum(q(d) * var ** (j + 1) for j, d in enumerate(ds))
                else:
                    e_den = q(ds[0]) + var
                expr = sympy.factor(sympy.cancel(e_num / e_den))
                return expr, (None if upto == len(pts) else str(sub[-1][0]))
    return None, None


def _solve_form(pts, nnum, dden, norm="c"):
    """Exact Gaussian elimination for the coefficients of P and Q through ``pts``."""
    rows = []
    for a, v in pts:
        if norm == "c":     # sum c_i a^i - v sum_j d_j a^j = v
            rows.append([a ** i for i in range(nnum)] + [-v * a ** (j + 1) for j in range(dden)] + [v])
        else:               # sum c_i a^i - v d0 = v a
            rows.append([a ** i for i in range(nnum)] + [-v] + [v * a])
    n = nnum + dden
    for col in range(n):
        piv = next((r for r in range(col, n) if rows[r][col] != 0), None)
        if piv is None:
            return None
        rows[col], rows[piv] = rows[piv], rows[col]
        pv = rows[col][col]
        rows[col] = [x / pv for x in rows[col]]
        for r in range(n):
            if r != col and rows[r][col] != 0:
                factor = rows[r][col]
                rows[r] = [x - factor * y for x, y in zip(rows[r], rows[col])]
    return [rows[i][n] for i in range(n)]


def generalise_over_N(instances):
    """Fit the tight raw F_N(a) of every N into one expression in N and a, or None.

    Needs instances that differ only in N, each with a closed form on the whole sampled range, of
    the same shape; every coefficient is fitted as a rational function of N through the exact
    values and confirmed on the others (bounded evidence: the N checked).
    """
    Nsym = N_SYM
    groups = {}
    for inst in instances:
        if inst.relation != "implication" or inst.raw_fit is None or inst.fit_upto is not None:
            return None
        rest = tuple(sorted((k, v) for k, v in inst.point.items() if k != "N"))
        groups.setdefault(rest, []).append(inst)
    if len(groups) != 1:
        return None
    insts = sorted(next(iter(groups.values())), key=lambda i: i.N)
    if len(insts) < 3:
        return None
    shapes, data = set(), []
    for inst in insts:
        expr = sympy.sympify(inst.raw_fit, locals={"a": _A})
        num, den = sympy.fraction(sympy.cancel(expr))
        pn, pd = sympy.Poly(num, _A), sympy.Poly(den, _A)
        lead = pd.LC()
        cn = [c / lead for c in reversed(pn.all_coeffs())]
        cd = [c / lead for c in reversed(pd.all_coeffs())]
        shapes.add((len(cn), len(cd)))
        data.append((inst.N, cn, cd))
    if len(shapes) != 1:
        return None
    nn, nd = shapes.pop()
    coeffs = []
    for idx in range(nn + nd):
        pts = []
        for n, cn, cd in data:
            c = (cn + cd)[idx]
            pts.append((Fraction(n), Fraction(int(sympy.Rational(c).p), int(sympy.Rational(c).q))))
        if all(v == pts[0][1] for _, v in pts):
            coeffs.append(sympy.Rational(pts[0][1].numerator, pts[0][1].denominator))
            continue
        fit, upto = fit_rational(pts, var=Nsym)
        if fit is None or upto is not None:
            return None
        coeffs.append(fit)
    num = sum(c * _A ** i for i, c in enumerate(coeffs[:nn]))
    den = sum(c * _A ** i for i, c in enumerate(coeffs[nn:]))
    return sympy.factor(sympy.cancel(num / den))


def level_symbol(d):
    return sympy.Symbol(d.level_symbol, positive=True)


def to_level(raw_expr, a_def, b_def):
    """F(a) on raw levels -> f(alpha) on the definitions' own levels."""
    alpha = level_symbol(a_def)
    F = sympy.factor(sympy.sympify(raw_expr).subs(_A, a_def.raw_from_level(alpha)))
    level = b_def.level_from_raw(F)          # the definition's own units (a plugin may override them)
    if level.has(sympy.log):
        expanded = sympy.expand_log(level)
        if "log(-" not in str(expanded) and len(str(expanded)) < len(str(level)):
            return expanded
        return level
    return sympy.factor(level)
