"""Unbounded families between two divergences of records: KL bounded both ways, Renyi of order >= 2 not.

A helper of :mod:`implgraph.certify.lemmas.divergence_family` (kind ``unbounded``, B a declared divergence): the
family's rows are values in K (K >= K0). Re-checked here:

- **A's KL level is at most the certificate's ``A_bound``** (a rational number) for every K >= K0: for each ordered
  pair of distinct records (x, y) and each bucket l, x_l log(x_l/y_l) <= 0 where x_l <= y_l for every K >= K0, and
  elsewhere x_l log r_l <= n x_l (r_l^(1/n) - 1) (log u <= u - 1 at u = r^(1/n), re-checked: u - 1 - log u is 0 at 1
  with derivative (u - 1)/u) for the largest n in 1..4 at which r_l^(1/n) is a rational function of K; the sum of
  these bounds is at most A_bound for every K >= K0 (numerator and denominator with coefficients of one sign after
  K = K0 + u);
- **B's level grows without bound**: B compares pairs of records, or the table P with the table Q without one record
  (a removal), by Renyi of order beta >= 2 (oo included); for some ordered pair of the family's records, or some P
  and Q (a record of a block of >= 1 records removed, for every N >= n0), chi^2 = sum_l x_l^2/y_l - 1 tends to oo
  with K (its leading coefficient in K positive for every N >= n0), and D_beta >= D_2 =
  log(1 + chi^2) (the definition at beta = 2; the monotonicity in the order otherwise, cited: van Erven and
  Harremoes, IEEE Trans. Inf. Theory 60(7), 2014, Theorem 3).

A side comparing pairs of records: a table of one record at x and N - 1 at y has only the ordered pairs (x, y),
(y, x) and equal records, so its level is the pair's for every N >= 2. A's KL of a removal is at most the largest
over pairs (joint convexity, cited), B's removal level at least the one P, Q re-derived.
"""

from __future__ import annotations

import sympy

from implgraph.certify.lemmas.divergence_family_table import mean, nonnegative_from, tends_to_oo
from implgraph.certify.log_facts import log_below_chord

__all__ = ["divergence_steps"]

_K = sympy.Symbol("K", positive=True)


def _root_rational(r):
    """``(n, r^(1/n))`` for the largest n in 1..4 at which r^(1/n) is a rational function of K (the tightest of the
    bounds n (r^(1/n) - 1)); n = 1 always is."""
    for n in (4, 3, 2, 1):
        root = sympy.factor(sympy.powdenest(sympy.root(sympy.factor(r), n), force=False))
        if not any(p.is_Pow and not p.exp.is_Integer for p in sympy.preorder_traversal(root)):
            return n, root
    return None


def _kl_pair_bound(x, y, k0):
    """An upper bound (rational in K) of KL(x || y) for every K >= k0, or None."""
    total = sympy.Integer(0)
    for xl, yl in zip(x, y):
        if xl == 0 or nonnegative_from(yl - xl, {_K: k0}):
            continue            # x_l log(x_l/y_l) <= 0
        found = _root_rational(sympy.cancel(xl / yl))
        if found is None:
            return None
        n, root = found
        total += n * xl * (root - 1)
    return total


def _kl_steps(a_div, rows, k0, cap):
    if a_div.kind != "kl" or a_div.compares not in ("pairs", "removal"):
        return [("A is KL between pairs of records (or a removal)", False, f"{a_div.kind}, {a_div.compares}")]
    distinct = list(dict.fromkeys(v for _, v, _ in rows))
    bounds = [_kl_pair_bound(x, y, k0) for x in distinct for y in distinct if x != y]
    ok = bool(bounds) and all(b is not None and nonnegative_from(cap - b, {_K: k0}) for b in bounds)
    steps = [("log u <= n (u^(1/n) - 1) (log u <= u - 1 at u^(1/n): u - 1 - log u is 0 at 1, derivative (u - 1)/u)",
              log_below_chord(), "exact"),
             (f"KL <= {cap} between every two distinct records, both ways, for every K >= {k0}", ok,
              "; ".join(str(None if b is None else sympy.factor(b)) for b in bounds))]
    if a_div.compares == "removal":
        steps.append(("a removal compares two averages of records with the same weights 1/(N (N - 1)) on the pairs "
                      "(x_j, x_k), k != i: at most the largest over pairs (cited: joint convexity, van Erven and "
                      "Harremoes 2014, Theorem 11)", True, "cited"))
    return steps


def _b_steps(b_div, rows, n0):
    order = b_div.order if b_div.kind == "renyi" else None
    if order is None or b_div.compares not in ("pairs", "removal") or not (order is sympy.oo or order >= 2):
        return [("B is Renyi of order >= 2 between pairs of records (or a removal)", False,
                 f"{b_div.kind} {b_div.order} {b_div.compares}")]
    distinct = list(dict.fromkeys(v for _, v, _ in rows))
    if b_div.compares == "removal":
        distinct = _removal_pairs(rows, n0)
    else:
        distinct = [(x, y) for x in distinct for y in distinct if x != y]
    grows = [(x, y) for x, y in distinct if all(v != 0 for v in y)
             and tends_to_oo(sympy.Add(*[p ** 2 / q for p, q in zip(x, y)]) - 1, n0)]
    steps = [("chi^2 between two of the family's records tends to oo with K", bool(grows),
              "; ".join(f"chi^2({x} || {y})" for x, y in grows[:1]) or "none")]
    steps.append(("D_2 = log(1 + chi^2)", True, "the definition") if order == 2 else
                 (f"D_{order} >= D_2 = log(1 + chi^2)", True, "cited: van Erven and Harremoes 2014, Theorem 3"))
    return steps


def _removal_pairs(rows, n0):
    """``[(P, Q)]``: the table's mean P against the mean Q of the others after removing one record of a block of
    >= 1 records (for every N >= n0), in K and N."""
    N = sympy.Symbol("N", integer=True, positive=True)
    table = mean(rows, N)
    return [(table, tuple(sympy.cancel((N * p - v) / (N - 1)) for p, v in zip(table, vals)))
            for count, vals, _ in rows if nonnegative_from(count - 1, {N: n0})]


def divergence_steps(a_div, b_div, rows, k0, n0, fam):
    """``[(what, ok, how)]`` of an unbounded family with B a declared divergence (module notes)."""
    if any(v.has(sympy.Symbol("N", integer=True, positive=True)) for _, vals, _ in rows for v in vals):
        return [("the records' values do not depend on N", False, "they do")]
    try:
        cap = sympy.Rational(str(fam.get("A_bound")))
    except (TypeError, ValueError):
        return [("the family states A's bound (a rational number)", False, str(fam.get("A_bound")))]
    return _kl_steps(a_div, rows, k0, cap) + _b_steps(b_div, rows, n0)
