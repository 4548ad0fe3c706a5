"""The binary-program lemma on record removal: the removal pair's chi^2 from the records'.

A helper of :mod:`implgraph.certify.lemmas.binary_program` (A Renyi-2 between pairs of records, B a slack on record
removal). With x = x_i, Q = Q_i the mean of the N - 1 other records and P = (x + (N - 1) Q)/N the table's mean,
re-checked here bucket by bucket in exact algebra:

- P - Q = (x - Q)/N, so (P - Q)^2/Q = (x - Q)^2/(N^2 Q): chi^2(P || Q) = chi^2(x || Q)/N^2;
- (x - Q)^2/(N (N - 1) Q) - (Q - P)^2/P = (x - Q)^2 x/(N^2 (N - 1) Q P) >= 0:
  chi^2(Q || P) <= chi^2(x || Q)/(N (N - 1));
- x^2/y is convex in y > 0 (second derivative 2 x^2/y^3), so chi^2(x || Q) <= the largest chi^2(x || x_k) <= c
  (Q the mean of the x_k, k != i; a bucket where Q is 0 has x = 0 there, A being finite);
- so both of the removal pair's chi^2 are <= c/(N (N - 1)) (N^2 >= N (N - 1)), and the two-bucket program at that
  level bounds B; and for an event E, P(E) - Q(E) = (x(E) - Q(E))/N lies in [-1/N, 1/N]: U = 1 where N d >= 1.
"""

from __future__ import annotations

import sympy

__all__ = ["removal_steps", "same_pair_steps"]


def _zero(expr) -> bool:
    return sympy.simplify(sympy.cancel(sympy.together(expr))) == 0


def _scaling() -> bool:
    x, Q, N = sympy.symbols("x Q N", positive=True)
    P = (x + (N - 1) * Q) / N
    forward = _zero((P - Q) ** 2 / Q - (x - Q) ** 2 / (N ** 2 * Q))
    reverse = _zero((x - Q) ** 2 / (N * (N - 1) * Q) - (Q - P) ** 2 / P - (x - Q) ** 2 * x / (N ** 2 * (N - 1) * Q * P))
    y = sympy.Symbol("y", positive=True)
    convex = _zero(sympy.diff(x ** 2 / y, y, 2) - 2 * x ** 2 / y ** 3)
    tv = _zero((P - Q) - (x - Q) / N)
    return forward and reverse and convex and tv


def removal_steps() -> list:
    """``[(what, ok, how)]``: the removal pair's chi^2 is at most c/(N (N - 1)) both ways, and U = 1 where
    N delta >= 1 (module notes)."""
    return [("record removal: chi^2(P || Q_i) = chi^2(x_i || Q_i)/N^2, "
             "chi^2(Q_i || P) <= chi^2(x_i || Q_i)/(N (N - 1)), "
             "chi^2(x_i || Q_i) <= c (x^2/y convex in y), P(E) - Q_i(E) = (x_i(E) - Q_i(E))/N", _scaling(),
             "exact identities")]


def _removal_tv() -> bool:
    x, Q, N = sympy.symbols("x Q N", positive=True)
    P = (x + (N - 1) * Q) / N
    return _zero((P - Q) - (x - Q) / N)


def same_pair_steps() -> list:
    """``[(what, ok, how)]`` where A and B both compare the removal pair (P, Q_i): U = 1 where N delta >= 1, and the
    two-bucket program applies to (P, Q_i) itself."""
    return [("record removal: P(E) - Q_i(E) = (x_i(E) - Q_i(E))/N lies in [-1/N, 1/N], so P(E) <= Q_i(E) + delta and "
             "Q_i(E) <= P(E) + delta where N delta >= 1 (U = 1)", _removal_tv(), "exact identity"),
            ("A bounds the divergence of the pair (P, Q_i) both ways, the pair B's slack compares: the program's bound "
             "at T applies to it", True, "the sides' declarations (registry)")]
