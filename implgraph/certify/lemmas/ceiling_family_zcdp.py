"""The ceiling-family lemma's ``approach`` family under a zero-concentrated A (docs/proofs/ceiling-family.md, 1b).

A the zero-concentrated level between every two records (Divergence kind ``zcdp``, compares ``pairs``: rho*(x || y) =
sup_{alpha > 1} D_alpha(x || y)/alpha, both ways), or under record removal (compares ``removal``: at most the level
between records on every table, P and Q_i being averages of records and exp((alpha - 1) D_alpha) jointly convex; van
Erven and Harremoes 2014, Theorem 11, cited), at level T = rho > 0. The family is two blocks of equal records
``{"count", "values", "class"}``, counts in N, values in K and T: ``1`` record at x = (x_1, 1 - x_1) and ``N - 1``
at y = (y_1, 1 - y_1). Re-derived here from the certificate's values (never its words):

- the table: counts integers >= 1 adding up to N for every N >= n0; the second value of each record is 1 minus its
  first; x_1/y_1 = K identically (so x = (K b, 1 - K b), y = (b, 1 - b) with b = y_1); with K = e^L (L >= 0, K >= 1)
  and T > 0, -ln x_1 = E(L, T) is a polynomial in L whose coefficients are >= 0 for every T > 0 (so 0 < K b <= 1
  and 0 < b <= K b: each record a distribution);
- A's level at most T: the library's lemma ``ZcdpCeiling.fam_rho_zcdp`` (coq/theories/ZcdpCeiling.v, proved in
  Coq) gives, for real rho > 0, K >= 1 and b > 0 with K b <= 1/2, 2 K b <= rho and
  ln K (ln K + 1) <= -rho ln(K b), a zero-concentrated level at most rho between every two records of this table,
  for every N. Its hypotheses, at rho = T: the tail is T E - L (L + 1) >= 0 (a polynomial in L and T with
  coefficients >= 0, re-checked); and E has degree >= 1 in L with a leading coefficient > 0 for every T > 0, so
  K b = e^(-E) tends to 0 as K grows: for every T > 0 every K large enough has K b <= 1/2 and 2 K b <= T;
- B: the divergence-family reading of the ceiling-family lemma (:func:`implgraph.certify.lemmas.ceiling_family.
  _b_steps`) on the rows (K b, 1 - K b), (b, 1 - b) with b a symbol (B's class or record ratio does not depend on
  b): one class's (one record's) ratio to the table tends to U as K grows.

So for every T > 0 the family's tables at large K satisfy A at T with B as close to U as asked. A forged family
(another tail, a ratio x_1/y_1 other than K, another count) fails the re-derivation.
"""

from __future__ import annotations

import sympy

from implgraph.certify.lemmas.divergence_family import count_steps
from implgraph.core.formula import parse_expr

__all__ = ["zcdp_approach_steps"]

_N = sympy.Symbol("N", positive=True, integer=True)
_K = sympy.Symbol("K", positive=True)
_T = sympy.Symbol("T", positive=True)
_L = sympy.Symbol("L", nonnegative=True)
_BETA = sympy.Symbol("b", positive=True)


def _nonneg_poly(expr, gens) -> bool:
    """A polynomial in ``gens`` (nonnegative symbols) with every coefficient >= 0 (a number, or an expression in
    positive symbols that sympy knows to be >= 0)."""
    expr = sympy.expand(expr)
    if expr == 0:
        return True
    try:
        poly = sympy.Poly(expr, *gens)
    except sympy.PolynomialError:
        return False
    return all(c.is_nonnegative is True for c in poly.coeffs())


def _rows(fam):
    out = []
    for row in fam.get("rows") or []:
        names = {"N": _N, "K": _K, "T": _T}
        out.append((parse_expr(str(row["count"]), names), tuple(parse_expr(str(v), names) for v in row["values"]),
                    str(row.get("class") or "E1")))
    return out


def _tail(x1):
    """``E(L, T) = -ln x_1`` at K = e^L, expanded (None where it is not a polynomial in L)."""
    e = sympy.expand(sympy.expand_log(-sympy.log(x1.subs(_K, sympy.exp(_L))), force=True))
    e = sympy.expand(sympy.simplify(e))
    return e if e.is_polynomial(_L) and not e.has(_K, _N) else None


def zcdp_approach_steps(cert, fam, wa, wb, U, b_steps):
    """``[(what, ok, how)]``: the zero-concentrated approach family re-derived (module notes); ``b_steps`` the
    ceiling-family lemma's reading of B on rows (passed in: that module imports this one)."""
    from implgraph.certify.registered import registered
    div = wa[1]
    steps = [("A declares the zero-concentrated level between every two records (or under record removal)",
              div.kind == "zcdp" and div.compares in ("pairs", "removal"), f"{div.kind} {div.compares}")]
    if div.compares == "removal":
        steps.append(("under record removal A compares P and Q_i, averages of records: each D_alpha at most the largest "
                      "over pairs of records (exp((alpha - 1) D_alpha) jointly convex), so A's level at most its level "
                      "between records", True, "cited: van Erven and Harremoes 2014, Theorem 11"))
    d = registered((cert.get("A") or {}).get("definition"))
    x_ = sympy.Symbol("x", positive=True)
    steps.append(("A's raw level is its divergence (the registry's level of a raw value is that value)",
                  d is not None and sympy.simplify(d.level_from_raw(x_) - x_) == 0, "registry"))
    try:
        n0, k0 = int(fam.get("n0")), sympy.Rational(str(fam.get("K0")))
        rows = _rows(fam)
    except (TypeError, ValueError, KeyError, SyntaxError):
        return steps + [("a family of two blocks with n0 and K0", False, "unreadable")]
    shape = (len(rows) == 2 and all(len(v) == 2 for _, v, _ in rows) and sympy.expand(rows[0][0] - 1) == 0
             and rows[0][2] != rows[1][2] and not any(v.has(_N) for _, vals, _ in rows for v in vals) and k0 >= 1)
    steps.append(("one record at x in a class of its own, N - 1 at y in another, two buckets, values in K and T, "
                  "K0 >= 1", shape, f"K0 = {k0}"))
    if not shape:
        return steps
    steps += count_steps(rows, n0)
    steps.append((f"the domain is within N >= {n0}", f"N >= {n0}" in (cert.get("domain") or []), "exact"))
    (_, x, _), (_, y, _) = rows
    pairs = sympy.simplify(x[1] - (1 - x[0])) == 0 and sympy.simplify(y[1] - (1 - y[0])) == 0
    ratio = sympy.simplify(x[0] / y[0] - _K) == 0
    steps.append(("x = (K b, 1 - K b) and y = (b, 1 - b): second values 1 minus the first, x_1/y_1 = K", pairs and ratio,
                  f"x = {x}, y = {y}"))
    E = _tail(x[0]) if pairs and ratio else None
    steps.append(("-ln(K b) at K = e^L is a polynomial E in L (L >= 0: K >= 1) with coefficients >= 0 for T > 0: "
                  "0 < b <= K b <= 1, each record a distribution", E is not None and _nonneg_poly(E, (_L,)),
                  f"E = {E}"))
    if E is None:
        return steps
    steps.append(("the scaled tail ln K (ln K + 1) <= -T ln(K b): T E - L (L + 1) >= 0 for every L >= 0, T > 0",
                  _nonneg_poly(_T * E - _L * (_L + 1), (_L, _T)), f"T E - L (L + 1) = {sympy.expand(_T * E - _L * (_L + 1))}"))
    poly = sympy.Poly(E, _L)
    grows = poly.degree() >= 1 and poly.LC().is_positive is True
    steps.append(("K b = e^(-E) tends to 0 as K grows (E of degree >= 1 in L, leading coefficient > 0 for every "
                  "T > 0): every K large enough has K b <= 1/2 and 2 K b <= T", grows, f"E = {E}"))
    steps.append(("A's level at most T between every two records wherever K >= 1, b > 0, K b <= 1/2, 2 K b <= T and "
                  "the tail hold (ZcdpCeiling.fam_rho_zcdp, proved in Coq: gauss_tail_rho, zcdp_family_rho; two equal "
                  "records: 0)", True, "the library's lemma at the hypotheses above"))
    generic = [(rows[0][0], (_K * _BETA, 1 - _K * _BETA), rows[0][2]), (rows[1][0], (_BETA, 1 - _BETA), rows[1][2])]
    steps += b_steps(cert, wb, generic, U)
    attained = fam.get("attained")
    steps.append(("not attained ('no': B = N needs a record positive in a bucket where every other record is 0, where "
                  "D_alpha is infinite) or not claimed", attained in ("no", "not claimed"), str(attained)))
    return steps
