"""The domain of a witness-family certificate (:mod:`implgraph.certify.lemmas.divergence_family`): N >= n0, and each
parameter stated by a symbol within the range its side's registered definition declares.

A subset level's size may be a parameter symbol (``kdp(k=k2)``: the sets of N - k2 records, for every k2 with
1 <= k2 <= N - 1). The range is read from the registry (the definition's ``ranges`` and ``param_kinds``), never from
the certificate, which must state exactly it in its ``domain`` (a narrower or wider claim than the one checked is
rejected). A sign over the domain is decided by substitution: k = lo + p and, for a range lo <= k <= N - c,
N = k + c + q (else N = n0 + q), with p, q >= 0; an expression whose numerator and denominator then have coefficients
of one sign, the same, is >= 0 on every point of the range (and more: sufficient, never a guess).
"""

from __future__ import annotations

import sympy

from implgraph.core.formula import parse_expr

__all__ = ["nonnegative_over", "side_names", "ParameterDomain", "parameter_domain"]

_N = sympy.Symbol("N", positive=True, integer=True)
_K = sympy.Symbol("K", positive=True)
_Q = sympy.Symbol("q", nonnegative=True)


def nonnegative_over(expr, shift, variables) -> bool:
    """Is the rational function ``expr`` >= 0 wherever its symbols are ``shift`` ({symbol: a polynomial in the
    ``variables``}) at ``variables`` >= 0? Decided by numerator and denominator, after the substitution, having
    coefficients of one sign each, the same sign (sufficient, never a guess)."""
    variables = tuple(variables)
    num, den = sympy.fraction(sympy.cancel(sympy.together(sympy.sympify(expr).subs(shift))))
    signs = []
    for p in (num, den):
        p = sympy.expand(p)
        if p.free_symbols - set(variables):
            return False
        coeffs = sympy.Poly(p, *variables).coeffs() if p.free_symbols else [p]
        if all(c >= 0 for c in coeffs):
            signs.append(1)
        elif all(c <= 0 for c in coeffs):
            signs.append(-1)
        else:
            return False
    return sympy.expand(num) == 0 or signs[0] == signs[1]


def side_names(cert):
    """The symbols a side's parameters may use: N, and each integer symbol the certificate declares (a parameter
    stated by a symbol, ``kdp(k=k2)``, whose range the registry declares: :func:`parameter_domain`)."""
    names = {"N": _N}
    for name, kind in (cert.get("symbols") or {}).items():
        if str(name) not in ("N", "K") and kind == "integer":
            names[str(name)] = sympy.Symbol(str(name), integer=True)
    return names


class ParameterDomain:
    """Where the certificate claims the family: N >= n0, and each parameter stated by a symbol within the range its
    side's registered definition declares. A sign is decided over it by :func:`nonnegative_over`: an expression
    without a parameter symbol for every N >= n0; one with, at the shift (``k = lo + p``, and ``N = k + c + q`` for
    a range ``lo <= k <= N - c``, ``N = n0 + q`` without an upper bound in N) with p, q >= 0, which covers every
    point of the range (and more: sufficient)."""

    def __init__(self, n0, symbols=(), shift=None, variables=()):
        self.n0, self.symbols, self.shift, self.variables = n0, frozenset(symbols), shift, tuple(variables)

    def nonneg(self, expr) -> bool:
        expr = sympy.sympify(expr)
        if not expr.free_symbols & self.symbols:
            return nonnegative_over(expr, {_N: self.n0 + _Q}, (_Q,))
        return self.shift is not None and nonnegative_over(expr, self.shift, self.variables)


def _as_nonneg(rel):
    """A relation ``a <= b`` (or ``b >= a``) as the expression b - a >= 0; None for another relation."""
    if isinstance(rel, (sympy.LessThan, sympy.GreaterThan)):
        return sympy.expand(rel.gts - rel.lts)
    return None


def parameter_domain(cert, n0):
    """``(domain, steps)``: the :class:`ParameterDomain` of the certificate, read from the registry: each side's
    parameter stated by a symbol (an integer symbol of the certificate's ``symbols``) has its definition's declared
    range ``lo <= k <= hi`` (lo a number, hi ``N - c`` or oo, at most one symbol bounded in N), and the certificate's
    ``domain`` states exactly those conditions on it (neither a narrower nor a wider claim than the one checked)."""
    from implgraph.certify.expr import read_sympy
    from implgraph.certify.registered import registered
    from implgraph.definitions._params import range_bound
    names = side_names(cert)
    declared, ranges, free = {}, [], []
    for label in ("A", "B"):
        side = cert.get(label) or {}
        d = registered(side.get("definition"))
        for name, text in (side.get("params") or {}).items():
            value = parse_expr(str(text), names)
            if not value.free_symbols - {_N}:
                continue
            ok = (d is not None and isinstance(value, sympy.Symbol) and value.name in names and value not in declared
                  and name in getattr(d, "ranges", {}) and (getattr(d, "param_kinds", {}) or {}).get(name) == "integer")
            if not ok:
                return None, [(f"{label}'s parameter {name} = {text}: a symbol of the certificate, once, with a "
                               "declared integer range", False, "registry")]
            lo, hi = (range_bound(x, _N) for x in d.ranges[name])
            c = None if hi is sympy.oo else sympy.expand(_N - hi)
            if not lo.is_Integer or (c is not None and not c.is_Integer):
                return None, [(f"{label}'s parameter {name}: a declared range lo <= {name} <= N - c or oo", False,
                               f"{lo} .. {hi}")]
            declared[value] = (lo, c)
            ranges += [sympy.Le(lo, value)] + ([] if c is None else [sympy.Le(value, hi)])
            free.append(f"{lo} <= {value}" + ("" if c is None else f" <= {hi}")
                        + f" ({d.name}'s declared range of {name})")
    if not declared:
        return ParameterDomain(n0), []
    bounded = [s for s, (_, c) in declared.items() if c is not None]
    if len(bounded) > 1:
        return None, [("at most one parameter symbol bounded in N", False, ", ".join(map(str, bounded)))]
    variables = [sympy.Symbol(f"p{i}", nonnegative=True) for i in range(len(declared))]
    q = _Q
    shift = {s: lo + p for (s, (lo, _)), p in zip(declared.items(), variables)}
    shift[_N] = (shift[bounded[0]] + declared[bounded[0]][1] + q) if bounded else n0 + q
    stated = []
    for text in cert.get("domain") or ():
        rel = read_sympy(str(text), {**names, "K": _K})
        if rel.free_symbols & set(declared):
            stated.append(_as_nonneg(rel))
    wanted = [_as_nonneg(r) for r in ranges]
    same = (all(w is not None for w in stated) and all(any(sympy.expand(w - x) == 0 for x in stated) for w in wanted)
            and all(any(sympy.expand(w - x) == 0 for x in wanted) for w in stated))
    return ParameterDomain(n0, declared, shift, [*variables, q]), [
        ("the certificate's domain states each parameter symbol's declared range, no other condition on it", same,
         "; ".join(free))]
