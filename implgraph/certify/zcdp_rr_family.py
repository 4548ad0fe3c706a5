"""The checker's re-check of the table family that attains KL <= rho between records (``divergence-order``, fact
``zcdp-order``, B KL between every two records): randomized response, read from the certificate and re-derived here.

The family: one record at p = (R/(R + 1), 1/(R + 1)) and N - 1 at q = (1/(R + 1), R/(R + 1)), R > 1 the root of
g(R) = log(R) (R - 1)/(R + 1) = T. Re-checked:

- **the root exists for every T > 0, and is unique**: g(1) = 0, g'(R) = (R - 1)/(R (R + 1)) + 2 log(R)/(R + 1)^2 > 0
  for R > 1 (both terms positive), g -> oo as R -> oo; g is continuous, so (intermediate values) g takes every T > 0
  exactly once on R > 1 (exact: the derivative's identity, the signs at R = 1 + s, s > 0, and the limit);
- **B's level is T**: the table's distinct rows are p and q, KL(p || q) = KL(q || p) = g(R) (exact identity);
- **A's level is at most T**: every bucket's ratio between p and q lies in [1/R, R] (a pure level eps = log R), so
  the zero-concentrated level of the pair is at most eps tanh(eps/2) = log(R) (R - 1)/(R + 1) = g(R) (the identity
  tanh(log(R)/2) = (R - 1)/(R + 1) exact; the bound itself cited: the chord of r^alpha over [1/R, R] and the tanh
  lemma, kernel-proved as coq ZcdpChord.zcdp_chord_pairs and Zcdp.pure_zcdp_pair), and re-checked at sample points
  R = 2, 3, 5, 9, N = 2, 3 with the registry's exact levels (A's level equal to g(R), B's equal to g(R)).
"""

from __future__ import annotations

import sympy

__all__ = ["rr_family_steps", "rr_kl_is", "ROWS", "ROOT"]

_R = sympy.Symbol("R", positive=True)
_s = sympy.Symbol("s", positive=True)
#: the family the checker accepts (the certificate's rows and root compared with these, after parsing)
ROWS = [("1", _R / (_R + 1)), ("N - 1", 1 / (_R + 1))]
ROOT = ("R", "R > 1", sympy.log(_R) * (_R - 1) / (_R + 1))


def _g():
    return sympy.log(_R) * (_R - 1) / (_R + 1)


def _root_steps() -> bool:
    g = _g()
    d = (_R - 1) / (_R * (_R + 1)) + 2 * sympy.log(_R) / (_R + 1) ** 2
    deriv = sympy.simplify(sympy.diff(g, _R) - d) == 0
    at_one = g.subs(_R, 1) == 0
    positive = all(sympy.simplify(term.subs(_R, 1 + _s)).is_positive is True
                   for term in ((_R - 1) / (_R * (_R + 1)), 2 * sympy.log(_R) / (_R + 1) ** 2))
    unbounded = sympy.limit(g, _R, sympy.oo) is sympy.oo
    return deriv and at_one and positive and unbounded


def rr_kl_is(r, value) -> bool:
    """Randomized response at the ratio ``r`` (a positive symbol), p = (r, 1)/(r + 1) and q = (1, r)/(r + 1): is
    KL(p || q) = KL(q || p) = ``value`` identically (exact)?"""
    p, q = (r / (r + 1), 1 / (r + 1)), (1 / (r + 1), r / (r + 1))

    def kl(x, y):
        return sum(a * sympy.log(a / b) for a, b in zip(x, y))
    return all(sympy.simplify(sympy.expand_log(kl(x, y) - value, force=True)) == 0 for x, y in ((p, q), (q, p)))


def _kl_steps() -> bool:
    return rr_kl_is(_R, _g())


def _tanh_identity() -> bool:
    eps = sympy.log(_R)
    return sympy.simplify((sympy.tanh(eps / 2) - (_R - 1) / (_R + 1)).rewrite(sympy.exp)) == 0


def _read(cert):
    """The certificate's rows and root, parsed (None where they do not parse)."""
    from implgraph.core.formula import parse_expr
    fam = cert.get("tightness") or {}
    try:
        rows = [(str(r.get("count")), parse_expr(str(r.get("value")), {"R": _R})) for r in fam.get("rows") or []]
        root = fam.get("root") or {}
        lhs, rhs = str(root.get("equation", "")).split("=")
        eq = (parse_expr(lhs, {"R": _R}), parse_expr(rhs, {"T": sympy.Symbol("T", positive=True)}))
        return rows, (str(root.get("symbol")), str(root.get("range")), eq)
    except Exception:       # (a malformed family: the step below fails)
        return None, None


def _sample_steps(da, db):
    from fractions import Fraction
    bad, tried = [], 0
    for r in (2, 3, 5, 9):
        p, q = [Fraction(r, r + 1), Fraction(1, r + 1)], [Fraction(1, r + 1), Fraction(r, r + 1)]
        want = _g().subs(_R, r)
        for n in (2, 3):
            table = [p] + [q] * (n - 1)
            levels = [da.level(table), db.level(table)]
            exprs = [getattr(v, "expr", v) for v in levels]
            tried += 1
            if not all(isinstance(e, sympy.Basic) and sympy.simplify(sympy.expand_log(e - want, force=True)) == 0
                       for e in exprs):
                bad.append(f"R = {r}, N = {n}: A {exprs[0]}, B {exprs[1]}, g(R) {want}")
    return tried > 0 and not bad, "; ".join(bad[:3]) or f"exact registry levels at {tried} points"


def rr_family_steps(cert, da, db) -> list:
    """``[(what, ok, how)]``: the tight claim of zcdp-order into KL between records (module notes)."""
    rows, root = _read(cert)
    T = sympy.Symbol("T", positive=True)
    shape = (da.kind == "zcdp" and db.kind == "kl" and da.compares == db.compares == "pairs" and rows is not None
             and len(rows) == 2 and all(c == w[0] and sympy.simplify(v - w[1]) == 0 for (c, v), w in zip(rows, ROWS))
             and root[:2] == ROOT[:2] and sympy.simplify(root[2][0] - ROOT[2]) == 0 and root[2][1] == T)
    out = [("a tight claim: zcdp-order into KL between records, the family one record at (R/(R + 1), 1/(R + 1)) and "
            "N - 1 at (1/(R + 1), R/(R + 1)), R > 1 the root of log(R) (R - 1)/(R + 1) = T", shape, "exact")]
    if not shape:
        return out
    out.append(("g(R) = log(R) (R - 1)/(R + 1): g(1) = 0, g' = (R - 1)/(R (R + 1)) + 2 log(R)/(R + 1)^2 > 0 on R > 1, "
                "g -> oo: one root R > 1 for every T > 0", _root_steps(), "exact"))
    out.append(("KL(p || q) = KL(q || p) = g(R): B's level on the family is T", _kl_steps(), "exact"))
    out.append(("A's level at most g(R): ratios within [1/R, R], eps tanh(eps/2) = g(R) at eps = log R",
                _tanh_identity(), "exact identity; the bound cited: coq ZcdpChord.zcdp_chord_pairs"))
    out.append(("the family's A and B levels are g(R) at sample points", *_sample_steps(da, db)))
    return out
