"""Record removal against a subset level of size N - 1: the interval of Q_i/P piece by piece in N and T, the larger
chord of phi and of its perspective there, and the table attaining it (helpers of
:mod:`implgraph.prover.arguments.chord`, whose module notes give the proof; docs/arguments/chord.md).
"""

from __future__ import annotations

import functools

import sympy

from implgraph.core import methods
from implgraph.core.point_values import not_identically_zero
from implgraph.prover.chord_value import chord_upper

__all__ = ["removal_pieces", "psi", "removal_upper", "removal_rows", "narrows_pairwise_removal", "hockey_both_ways",
           "both_ways", "removal_supremum", "piece_of"]

_R = sympy.Symbol("r", positive=True)


def removal_pieces(N):
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


@functools.lru_cache(maxsize=1024)
def removal_upper(div, lo, hi):
    """The larger of the two chords' values on [lo, hi], as B's divergence (one value where they are equal)."""
    phi = div.phi(_R)
    fwd, rev = _mean(phi, lo, hi), _mean(psi(phi), lo, hi)
    # (a point where the chords differ answers before the symbolic test; either answer leaves a valid bound)
    same = not not_identically_zero(fwd - rev) and sympy.simplify(sympy.expand_log(fwd - rev, force=True)) == 0
    return div.from_phi_mean(fwd if same else sympy.Max(fwd, rev))


def removal_rows(lo, hi, N):
    """The attaining table's rows ``[(count, first bucket's value, class)]``: one record at N P - (N - 1) Q, N - 1
    at Q."""
    L = sympy.cancel((1 - lo) / (hi - lo))
    return [("1", sympy.cancel(L * (N - (N - 1) * hi)), "E1"), ("N - 1", sympy.cancel(hi * L), "E2")]


def narrows_pairwise_removal(div) -> bool:
    """Is ``div`` a removal divergence whose both-ways bound on a narrowed interval is written here: KL and Renyi of a
    finite order (the larger of the chords of phi and of its perspective), total variation (its own perspective)?"""
    return div.compares == "removal" and (div.kind in ("kl", "tv") or (div.kind == "renyi"
                                                                       and div.order is not sympy.oo)
                                          or _numeric_hockey(div))


def _numeric_hockey(div) -> bool:
    """The hockey-stick at a number gamma >= 1 (its chords both ways are written in :func:`hockey_both_ways`)."""
    return div.kind == "hockey-stick" and getattr(div.order, "is_number", False) and bool(div.order >= 1)


def hockey_both_ways(div, lo, hi):
    """The hockey-stick's bound both ways on [lo, hi] (lo <= 1 <= hi, gamma >= 1): the chord of phi(q) =
    max(q - gamma, 0) is L max(hi - gamma, 0) (phi(lo) = 0 as lo <= 1 <= gamma), the chord of its perspective
    psi(q) = max(1 - gamma q, 0) is (1 - L) max(1 - gamma lo, 0) (psi(hi) = 0 as gamma hi >= 1): their larger is
    max(0, L (hi - gamma), (1 - L)(1 - gamma lo))."""
    g = div.order
    L = sympy.cancel((1 - lo) / (hi - lo))
    return sympy.Max(0, sympy.factor(sympy.cancel(L * (hi - g))), sympy.factor(sympy.cancel((1 - L) * (1 - g * lo))))


def both_ways(div, lo, hi, subset=False):
    """B's bound both ways on [lo, hi] (lo <= 1 <= hi): the larger chord of phi and of its perspective psi (total
    variation is its own perspective; the hockey-stick's in :func:`hockey_both_ways`). ``subset``: the ends are a
    subset level's maximum and minimum (:func:`implgraph.prover.removal_chords.subset_removal_interval`), for which
    total variation's chord is written (hi - 1)(1 - lo)/(hi - lo) (phi(hi) = (hi - 1)/2, phi(lo) = (1 - lo)/2): no
    maximum to resolve."""
    if div.kind == "tv" and subset:
        return (hi - 1) * (1 - lo) / (hi - lo)
    if div.kind == "tv":
        return chord_upper(div, lo, hi)
    return hockey_both_ways(div, lo, hi) if div.kind == "hockey-stick" else removal_upper(div, lo, hi)


def removal_supremum(div, N, argument):
    """The tight bound of a subset level of size N - 1 against a removal divergence (KL, Renyi of a finite order, total
    variation, the hockey-stick at a number gamma >= 1), piece by piece in N and T (module notes)."""
    from implgraph.prover.answer import Bound
    if not narrows_pairwise_removal(div):
        return None
    parts = []
    for cond, lo, hi in removal_pieces(N):
        u = both_ways(div, lo, hi)
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
    """``(lo, hi)`` of the piece whose bound is ``upper``, or None (also for a divergence with no pieces)."""
    if not narrows_pairwise_removal(div):
        return None
    for _, lo, hi in removal_pieces(N):
        if upper == both_ways(div, lo, hi):
            return lo, hi
    return None
