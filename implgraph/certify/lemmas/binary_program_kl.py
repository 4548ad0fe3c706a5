"""The binary-program lemma for a KL level between records: an upper bound of the (eps, delta) slack.

A helper of :mod:`implgraph.certify.lemmas.binary_program` (A declares KL between pairs of records). The certificate's
``upper`` must be Piecewise((1, T <= 2 d^2), ((d/T)(e^(T/d) - 1), True)) at B's slack d; it is an upper bound
(no tightness may be claimed). Re-checked here, in exact algebra:

- **reduction to two buckets**: x1 log(x1/y1) + x2 log(x2/y2) - (x1 + x2) log((x1 + x2)/(y1 + y2)) =
  (x1 + x2) kl(p || q) with p = x1/(x1 + x2), q = y1/(y1 + y2) (the log-sum inequality), and kl >= 0 by
  log u <= u - 1 (Gibbs): sum_l p_l log(q_l/p_l) <= sum_l (q_l - p_l) = 0;
- **Pinsker piece** (T <= 2 d^2): for two buckets f(p, q) = kl(p || q) - 2 (p - q)^2 has f(p, p) = 0 and
  df/dq = (q - p)(1 - 2 q)^2/(q (1 - q)), so a - b <= sqrt(T/2) <= d and a - d <= b;
- **log-sum piece** (every T): (1 - a) log((1 - a)/(1 - b)) >= b - a (log u >= 1 - 1/u, i.e. log(1/u) <= 1/u - 1),
  so KL >= a log(a/b) + b - a = b phi(u), u = a/b, phi(u) = u log u - u + 1 (an identity), phi >= 0 (phi(1) = 0,
  phi' = log u); hence 1/b >= phi(u)/T and (a - d)/b = u - d/b <= g(u) = u - d phi(u)/T; g'' = -d/(T u) < 0,
  g'(e^(T/d)) = 0 and g(e^(T/d)) = (d/T)(e^(T/d) - 1): the maximum. (u <= 1 gives (a - d)/b < 1 <= U.)

On record removal P and Q_i are a mix of pairs of records and KL is jointly convex (cited: van Erven and Harremoes
2014, Theorem 11), so the same bound holds.
"""

from __future__ import annotations

import sympy

__all__ = ["kl_pieces", "kl_steps"]

_T = sympy.Symbol("T", positive=True)


def kl_pieces(d):
    """``[(name, condition on T, U)]``: the upper bound the lemma proves at slack d."""
    return [("pinsker", _T <= 2 * d ** 2, sympy.Integer(1)), ("log-sum", sympy.true, d / _T * (sympy.exp(_T / d) - 1))]


def _zero(expr) -> bool:
    return sympy.simplify(sympy.expand_log(expr, force=True)) == 0


def _log_sum_step() -> bool:
    x1, x2, y1, y2 = sympy.symbols("x1 x2 y1 y2", positive=True)
    p, q = x1 / (x1 + x2), y1 / (y1 + y2)
    kl = p * sympy.log(p / q) + (1 - p) * sympy.log((1 - p) / (1 - q))
    gap = x1 * sympy.log(x1 / y1) + x2 * sympy.log(x2 / y2) - (x1 + x2) * sympy.log((x1 + x2) / (y1 + y2))
    u = sympy.Symbol("w", positive=True)
    chord = u - 1 - sympy.log(u)
    gibbs = chord.subs(u, 1) == 0 and sympy.simplify(sympy.diff(chord, u) - (u - 1) / u) == 0
    return _zero(gap - (x1 + x2) * kl) and gibbs


def _pinsker_step() -> bool:
    p, q = sympy.symbols("p q", positive=True)
    f = p * sympy.log(p / q) + (1 - p) * sympy.log((1 - p) / (1 - q)) - 2 * (p - q) ** 2
    return _zero(f.subs(q, p)) and sympy.simplify(sympy.diff(f, q) - (q - p) * (1 - 2 * q) ** 2 / (q * (1 - q))) == 0


def _log_sum_piece(d) -> bool:
    a, b, u, r = sympy.symbols("a b u r", positive=True)
    phi = u * sympy.log(u) - u + 1
    ident = _zero((a * sympy.log(a / b) + b - a) - b * phi.subs(u, a / b))
    phi_ok = phi.subs(u, 1) == 0 and sympy.simplify(sympy.diff(phi, u) - sympy.log(u)) == 0
    lower = (1 - a) * (1 - (1 - b) / (1 - a)) - (b - a)   # log w >= 1 - 1/w (Gibbs at 1/w) at w = (1 - a)/(1 - b)
    g = u - d * phi / r
    star = sympy.exp(r / d)
    return (ident and phi_ok and sympy.simplify(lower) == 0
            and sympy.simplify(sympy.diff(g, u, 2) + d / (r * u)) == 0
            and _zero(sympy.diff(g, u).subs(u, star)) and _zero(g.subs(u, star) - d / r * (sympy.exp(r / d) - 1)))


def kl_steps(d, compares) -> list:
    """``[(what, ok, how)]``: the KL bound's proof (module notes)."""
    steps = [("merging buckets does not raise KL: the log-sum gap is (x1 + x2) kl(p || q) >= 0 (Gibbs)",
              _log_sum_step(), "exact")]
    if compares == "removal":
        steps.append(("record removal: P and Q_i are a mix of pairs of records; KL is jointly convex", True,
                      "cited: van Erven and Harremoes 2014, Theorem 11"))
    steps.append(("Pinsker for two buckets (f(p, p) = 0, df/dq = (q - p)(1 - 2 q)^2/(q (1 - q))): a - b <= sqrt(T/2) "
                  "<= delta where T <= 2 delta^2", _pinsker_step(), "exact"))
    steps.append(("KL >= b phi(a/b), and u - delta phi(u)/T is concave with maximum (delta/T)(e^(T/delta) - 1)",
                  _log_sum_piece(d), "exact"))
    return steps
