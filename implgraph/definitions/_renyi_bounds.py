"""How a declared divergence at level T bounds the Renyi divergences of the same two distributions (one place per
fact; :meth:`implgraph.definitions.divergences.Divergence.renyi_bound` reads this table).

D_beta is the Renyi divergence of order beta, D_1 the Kullback-Leibler divergence (its limit as beta -> 1,
van Erven and Harremoes, IEEE Trans. Inf. Theory 60(7), 2014, Theorem 5).

- ``kl`` at T: D_1 <= T (itself);
- ``renyi`` of order alpha (oo included) at T: D_beta <= D_alpha <= T for 1 <= beta <= alpha (D_beta is
  nondecreasing in beta, ibid. Theorem 3; KL the order 1, the largest log ratio the order oo, Theorem 6);
- ``zcdp`` at rho (the least rho with D_alpha <= rho alpha at every order alpha > 1; Bun and Steinke, Concentrated
  differential privacy: simplifications, extensions, and lower bounds, TCC 2016, Definition 1.1): D_beta <= beta rho
  at every finite beta > 1 by definition, and D_1 = KL <= rho: KL <= D_beta <= beta rho for every beta > 1 (Jensen:
  ln u <= u - 1 at u_l = r_l^(beta - 1)/S, S = sum_l x_l r_l^(beta - 1); coq ZcdpOrder.kl_le_rdiv), so KL <= the
  infimum over beta > 1 of beta rho, which is rho (the limit beta -> 1; coq ZcdpOrder.zcdp_kl);
- the others (total variation, the hockey-stick): no bound (None).

Each kind that bounds some D_beta names the fact its arguments cite (:data:`RENYI_FACT`).
"""

from __future__ import annotations

import sympy

__all__ = ["renyi_bound", "RENYI_FACT"]

#: the fact an argument cites for a kind's bound on D_beta
RENYI_FACT = {"kl": "monotone-order", "renyi": "monotone-order", "zcdp": "zcdp-order"}


def _numeric(v) -> bool:
    return v is sympy.oo or (isinstance(v, sympy.Basic) and v.is_number and v.is_real is True)


def renyi_bound(div, beta, T):
    """The bound on D_beta (beta >= 1, 1 for KL, ``sympy.oo`` for the largest log ratio) of two distributions whose
    divergence ``div`` is at most T, or None where ``div`` gives none (module notes)."""
    beta = sympy.sympify(beta)
    if not _numeric(beta) or not bool(beta >= 1):
        return None
    if div.kind == "kl":
        return T if beta == 1 else None
    if div.kind == "renyi":
        return T if _numeric(div.order) and bool(beta <= div.order) else None
    if div.kind == "zcdp":
        return beta * T if beta.is_finite else None
    return None
