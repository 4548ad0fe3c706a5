"""The chord argument on record removal, tight for every N (docs/proofs/chord-removal.md).

B is a divergence between the table's mean P and the mean Q_i of the table without record i, both ways; A is the
subset level of size N - 1 (``dp``) at raw level T: every ratio q = Q_i/P, bucket by bucket, lies in [1/T, T]. Two
more facts narrow the interval:

- x_i = N P - (N - 1) Q_i >= 0, so q <= N/(N - 1);
- at N = 2, Q_1 = x_2 and Q_2 = x_1 with x_1 + x_2 = 2 P, so Q_1/P = 2 - Q_2/P <= 2 - 1/T.

So q lies in [1/T, h] with h = 2 - 1/T at N = 2, T where N >= 3 and T <= N/(N - 1), N/(N - 1) where N >= 3 and
T >= N/(N - 1). D(Q_i || P) = sum_l P_l phi(q_l) and D(P || Q_i) = sum_l P_l psi(q_l) with psi(q) = q phi(1/q), the
perspective, also convex (-log q for KL, q^(1 - alpha) for Renyi); sum_l P_l q_l = 1. The chord of each on [1/T, h]
bounds it (:mod:`implgraph.prover.arguments.chord`), so B <= max of the two chords' values. Both are attained by one
table: P = (L, 1 - L) with L = (1 - 1/T)/(h - 1/T), N - 1 records at Q = (h L, (1 - L)/T) and one at
N P - (N - 1) Q (its ratios Q/P are h and 1/T; the other removals' ratios lie in [1/T, T], proof page).
"""

from __future__ import annotations

import sympy

from implgraph.core import methods

__all__ = ["pieces", "psi", "removal_upper", "removal_supremum", "removal_rows"]

_R = sympy.Symbol("r", positive=True)


def pieces(N):
    """``[(condition, lo, hi)]``: the interval of Q_i/P piece by piece in N and T (module notes)."""
    from implgraph.prover.answer import T
    cut = N / (N - 1)
    return [(sympy.Le(N, 2), 1 / T, 2 - 1 / T),
            (sympy.And(sympy.Ge(N, 3), sympy.Le(T, cut)), 1 / T, T),
            (sympy.And(sympy.Ge(N, 3), sympy.Ge(T, cut)), 1 / T, cut)]


def psi(phi):
    """The perspective q phi(1/q): D(P || Q) = sum_l P_l psi(Q_l/P_l)."""
    return sympy.simplify(_R * phi.subs(_R, 1 / _R))


def _mean(g, lo, hi):
    L = sympy.cancel((1 - lo) / (hi - lo))
    return sympy.factor(sympy.cancel(L * g.subs(_R, hi) + (1 - L) * g.subs(_R, lo)))


def removal_upper(div, lo, hi):
    """The larger of the two chords' values on [lo, hi], as B's divergence (one value where they are equal)."""
    phi = div.phi(_R)
    fwd, rev = _mean(phi, lo, hi), _mean(psi(phi), lo, hi)
    both = fwd if sympy.simplify(sympy.expand_log(fwd - rev, force=True)) == 0 else sympy.Max(fwd, rev)
    return div.from_phi_mean(both)


def removal_rows(lo, hi, N):
    """The attaining table's rows ``[(count, first bucket's value, class)]``: one record at N P - (N - 1) Q, N - 1 at Q."""
    L = sympy.cancel((1 - lo) / (hi - lo))
    return [("1", sympy.cancel(L * (N - (N - 1) * hi)), "E1"), ("N - 1", sympy.cancel(hi * L), "E2")]


def removal_supremum(div, N, argument):
    """The tight bound of ``dp`` against a removal divergence (KL or Renyi of a finite order), piece by piece."""
    from implgraph.prover.answer import Bound
    if div.kind not in ("kl", "renyi") or div.order is sympy.oo:
        return None
    parts = []
    for cond, lo, hi in pieces(N):
        u = removal_upper(div, lo, hi)
        text = (argument + f"; where {cond}, every ratio Q_i/P lies in [{lo}, {hi}] (x_i >= 0 gives Q_i/P <= "
                "N/(N - 1); at N = 2, Q_1/P = 2 - Q_2/P <= 2 - 1/T): B <= the larger chord of phi and of its "
                "perspective psi(q) = q phi(1/q) there, attained by one record at N P - (N - 1) Q and N - 1 at Q "
                "with ratios Q/P in {lo, hi}")
        parts.append((cond, Bound(u, True, methods.CHORD.name, text,
                                  checks=[f"phi'' >= 0 and psi'' >= 0 on [{lo}, {hi}]: True"])))
    upper = sympy.Piecewise(*[(b.upper, c) for c, b in parts[:-1]], (parts[-1][1].upper, True))
    return Bound(upper, True, methods.CHORD.name, argument + "; tight for every N, piece by piece in N and T",
                 checks=[c for _, b in parts for c in b.checks], parts=parts)


def piece_of(div, N, upper):
    """``(lo, hi)`` of the piece whose bound is ``upper``, or None."""
    for _, lo, hi in pieces(N):
        if upper == removal_upper(div, lo, hi):
            return lo, hi
    return None
