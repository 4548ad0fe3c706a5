"""The checker's own statement of what a zero-concentrated level bounds (independent of the prover's table,
:mod:`implgraph.definitions._renyi_bounds`): each step re-checked here by exact algebra, or cited.

A zero-concentrated level rho between two distributions x, y is the least rho with D_alpha(x || y) <= rho alpha at
every order alpha > 1 (Bun and Steinke, Concentrated differential privacy: simplifications, extensions, and lower
bounds, TCC 2016, Definition 1.1 with xi = 0). Then:

- **D_n <= n rho** for every finite order n > 1: the definition at alpha = n (:func:`zcdp_renyi_steps`);
- **KL <= rho** (:func:`zcdp_kl_steps`): with r_l = x_l/y_l and S = sum_l y_l r_l^beta = sum_l x_l r_l^(beta - 1)
  (bucket by bucket y r^beta = x r^(beta - 1)), log u <= u - 1 at u_l = r_l^(beta - 1)/S gives
  (beta - 1) KL - log S = sum_l x_l log(r_l^(beta - 1)/S) <= sum_l x_l r_l^(beta - 1)/S - sum_l x_l = 0 (the identity
  re-checked for m buckets, m a symbol), so KL <= D_beta <= beta rho for every beta > 1; were KL > rho, the order
  beta = 1 + (KL - rho)/(2 rho) (rho > 0; beta = 2 at rho = 0) would have beta rho = (rho + KL)/2 < KL: so KL <= rho,
  the limit beta -> 1 (the Coq library proves the same: ZcdpOrder.kl_le_rdiv, zcdp_kl).

Examples
--------
>>> all(ok for _, ok, _ in zcdp_kl_steps())
True
>>> [ok for _, ok, _ in zcdp_renyi_steps(2)]
[True]
"""

from __future__ import annotations

import functools

import sympy

from implgraph.certify.log_facts import log_below_chord

__all__ = ["zcdp_kl_steps", "zcdp_renyi_steps", "zcdp_renyi_upper"]


def zcdp_renyi_upper(beta, T):
    """The checker's bound on D_beta from a zero-concentrated level T: beta T for a finite beta > 1, T at beta = 1
    (KL), None otherwise."""
    beta = sympy.sympify(beta)
    if beta.is_number is not True or beta.is_finite is not True or not bool(beta >= 1):
        return None
    return beta * T


@functools.lru_cache(maxsize=None)
def _jensen_identities() -> bool:
    """y (x/y)^beta = x (x/y)^(beta - 1) for x, y > 0; and sum_l x_l w_l/S - sum_l x_l = 0 with S = sum_l x_l w_l and
    sum_l x_l = 1, for m buckets (m a symbol)."""
    x, y, beta = sympy.symbols("x y beta", positive=True)
    bucket = sympy.simplify(y * (x / y) ** beta - x * (x / y) ** (beta - 1)) == 0
    l, m = sympy.symbols("l m", integer=True, positive=True)
    X, W = sympy.IndexedBase("x"), sympy.IndexedBase("w")
    S = sympy.Sum(X[l] * W[l], (l, 1, m))
    summed = sympy.simplify(sympy.Sum(X[l] * W[l] / S, (l, 1, m)) - 1) == 0
    return bucket and summed


@functools.lru_cache(maxsize=None)
def _limit_step() -> bool:
    """beta = 1 + (K - rho)/(2 rho) > 1 and beta rho = (rho + K)/2 < K where K > rho > 0; and lim_{beta -> 1+}
    beta rho = rho."""
    rho, gap, beta = sympy.symbols("rho g beta", positive=True)       # K = rho + g, g > 0
    K = rho + gap
    b = 1 + (K - rho) / (2 * rho)
    above_one = sympy.simplify(b - 1).is_positive is True
    value = sympy.simplify(b * rho - (rho + K) / 2) == 0
    below = sympy.simplify(K - (rho + K) / 2).is_positive is True
    limit = sympy.limit(beta * rho, beta, 1, "+") == rho
    return above_one and value and below and limit


def zcdp_kl_steps() -> list:
    """``[(what, ok, how)]``: KL <= rho for a zero-concentrated level rho (module notes)."""
    return [("KL <= D_beta for every beta > 1: y r^beta = x r^(beta - 1) bucket by bucket, log u <= u - 1 at "
             "u_l = r_l^(beta - 1)/S, and sum_l x_l r_l^(beta - 1)/S - sum_l x_l = 0",
             log_below_chord() and _jensen_identities(), "exact"),
            ("KL <= beta rho for every beta > 1 gives KL <= rho: were KL > rho > 0, beta = 1 + (KL - rho)/(2 rho) > 1 "
             "has beta rho = (rho + KL)/2 < KL (at rho = 0, beta = 2 gives KL <= 0); lim_{beta -> 1+} beta rho = rho",
             _limit_step(), "exact; Bun and Steinke 2016, Definition 1.1 (coq ZcdpOrder.zcdp_kl)")]


def zcdp_renyi_steps(order) -> list:
    """``[(what, ok, how)]``: D_order <= order rho, the definition at a finite order > 1."""
    o = sympy.sympify(order)
    ok = o.is_number is True and o.is_finite is True and bool(o > 1)
    return [(f"D_{o} <= {o} rho: the zero-concentrated definition at the order alpha = {o} > 1", ok,
             "exact; Bun and Steinke 2016, Definition 1.1 (coq ZcdpOrder.zcdp_renyi at a natural order)")]
