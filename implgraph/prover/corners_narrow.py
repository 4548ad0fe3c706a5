"""The ``corners`` bound of each record within [1/T, T] of the table on its narrowed box, piece by piece in T (a helper
of :mod:`implgraph.prover.arguments.corners`; docs/arguments/corners.md).

A record's ratio a = x_i(l)/m_l is N minus the others' N - 1 ratios, each >= 1/T, so a <= h = N - (N - 1)/T as well
as a <= T; h is the smaller where T >= N - 1 ((T - 1)(T - (N - 1)) >= 0). The corners lemma holds on any box
[lo, hi] holding every record's ratio (0 < lo <= 1 <= hi): D <= h(1, 1) = g(lo, lo) + (g(hi, lo) + g(lo, hi) -
2 g(lo, lo)) L, L = (1 - lo)/(hi - lo). On [1/T, h], L = (1 - 1/T)/(N (1 - 1/T)) = 1/N, so

    D <= (g(h, 1/T) + g(1/T, h) + (N - 2) g(1/T, 1/T))/N.

Pieces: T < N - 1, the box [1/T, T] (the corners module's V, attained where N >= 2 + 2/T); T >= N - 1, the box
[1/T, h] (at T = N - 1, h = T: the two agree), attained for every N >= 2 by the corner family: m = (1, 1, N - 2)/N
over three buckets, x_i = m (h, 1/T, 1/T), x_j = m (1/T, h, 1/T) and the N - 2 others at m (1/T, 1/T,
(N - 2/T)/(N - 2)); their last ratio is <= T where (N - 2) T^2 - N T + 2 = ((N - 2) T - 2)(T - 1) >= 0, i.e.
T >= 2/(N - 2), which T >= N - 1 >= 2 gives; h <= T there; A's level is T and D(x_i || x_j) is the bound (module notes
of :mod:`~implgraph.prover.arguments.corners`). At N = 2 there are no others (the third bucket holds nothing) and
the bound is the supremum for every T >= 1; where N T < 2 T + 2 below T = N - 1 (N = 3, T < 2) the hockey stick's V
is attained by the cycle family (:func:`cycle_rows`), and KL's and Renyi 2's suprema are the hexagon's value
(:func:`hexagon_upper`), attained by the same family; the derivations are the corners module's notes ("Few
records").

The kinds narrowed here are those the kernel states on a general box: KL, Renyi of order 2 and the hockey stick at a
rational gamma >= 1 (total variation's corner value 1 - lo does not change).
"""

from __future__ import annotations

import sympy

from implgraph.core import methods
from implgraph.prover.answer import Bound, T

__all__ = ["narrows", "narrow_end", "narrow_upper", "narrow_rows", "cycle_rows", "CYCLE_DOMAIN", "SUPPORT",
           "hexagons", "hexagon_upper", "supremum"]

_R = sympy.Symbol("r", positive=True)


def narrows(div) -> bool:
    """KL, Renyi of order 2, or the hockey stick at a rational gamma >= 1."""
    return div.kind == "kl" or (div.kind == "renyi" and div.order == 2) or (
        div.kind == "hockey-stick" and div.order.is_Rational and bool(div.order >= 1))


def narrow_end(N):
    """h = N - (N - 1)/T: a record's largest ratio where the N - 1 others are each >= 1/T."""
    return N - (N - 1) / T


def narrow_upper(div, N):
    """B's bound on the box [1/T, h] (module notes), in B's level."""
    phi, lo, hi = div.phi(_R), 1 / T, narrow_end(N)

    def g(a, b):
        return b * phi.subs(_R, sympy.cancel(a / b))
    value = (g(hi, lo) + g(lo, hi) + (N - 2) * g(lo, lo)) / N
    if div.kind == "kl":
        return (1 - 1 / T) * sympy.log(N * T - N + 1)
    if div.kind == "hockey-stick":
        return sympy.Max(0, sympy.cancel((hi - div.order * lo) * T)) / (N * T)
    return div.from_phi_mean(sympy.factor(sympy.cancel(value)))


def narrow_rows(N, t=T):
    """The attaining table's rows on the piece T >= N - 1: ``[(count, (three values), class)]`` (module notes; at
    N = 2 the third block is empty and the third bucket holds nothing)."""
    h = N - (N - 1) / t
    m = (1 / N, 1 / N, (N - 2) / N)
    x = (m[0] * h, m[1] / t, m[2] / t)
    y = (m[0] / t, m[1] * h, m[2] / t)
    rest = (m[0] / t, m[1] / t, (N - 2 / t) / N)
    return [(sympy.Integer(1), x, "E1"), (sympy.Integer(1), y, "E2"), (N - 2, rest, "E3")]


#: where the cycle family of :func:`cycle_rows` is claimed: three records, 1 <= T <= 2
CYCLE_DOMAIN = ("N >= 3", "N <= 3", "T <= 2")


def cycle_rows(N, t=T):
    """Three records whose ratios to the mean are the cyclic shifts of (T, 1/T, k), k = 3 - T - 1/T, over three
    buckets of masses m = (1/(T + 1), (T^2 - T + 1)/((T + 1)(2 T - 1)), (T - 1)/(2 T - 1)): x_i = m (T, 1/T, 1/T),
    x_j = m (1/T, T, k), the third m (k, k, T) (module notes; claimed at N = 3, 1 <= T <= 2)."""
    k = 3 - t - 1 / t
    m = (1 / (t + 1), (t ** 2 - t + 1) / ((t + 1) * (2 * t - 1)), (t - 1) / (2 * t - 1))
    x = (m[0] * t, m[1] / t, m[2] / t)
    y = (m[0] / t, m[1] * t, m[2] * k)
    rest = (m[0] * k, m[1] * k, m[2] * t)
    return [(sympy.Integer(1), x, "E1"), (sympy.Integer(1), y, "E2"), (N - 2, rest, "E3")]


def cycle_where(N):
    """The condition of :data:`CYCLE_DOMAIN`."""
    return sympy.And(sympy.Eq(N, 3), sympy.Le(T, 2))


#: the cycle family's vertices (a, b) of the hexagon, with its masses (module notes of the corners argument)
SUPPORT = ((T, 1 / T), (1 / T, T), (1 / T, 3 - T - 1 / T))
_MASSES = (1 / (T + 1), (T ** 2 - T + 1) / ((T + 1) * (2 * T - 1)), (T - 1) / (2 * T - 1))


def hexagons(div) -> bool:
    """KL or Renyi of order 2: the kinds whose hexagon value the kernel states (``CornersHexagon.v``,
    ``CornersHexagonKL.v``)."""
    return div.kind == "kl" or (div.kind == "renyi" and div.order == 2)


_X = sympy.Symbol("x", positive=True)      # T k = 3 T - T^2 - 1


def hexagon_upper(div):
    """B's bound at three records, 1 <= T < 2: the cycle family's mixture of g at :data:`SUPPORT`, in B's level
    (KL: in log(T) and log(3 T - T^2 - 1), each with its factored coefficient)."""
    phi = div.phi(_R)
    if div.kind != "kl":
        value = sympy.Add(*[w * b * phi.subs(_R, sympy.cancel(a / b)) for w, (a, b) in zip(_MASSES, SUPPORT)])
        return div.from_phi_mean(sympy.factor(sympy.cancel(value)))
    support = [(a, b.subs(3 - T - 1 / T, _X / T)) for a, b in ((T, 1 / T), (1 / T, T), (1 / T, _X / T))]
    value = sympy.expand(sympy.expand_log(sympy.Add(*[w * b * phi.subs(_R, a / b) for w, (a, b) in
                                                      zip(_MASSES, support)]), force=True))
    x = 3 * T - T ** 2 - 1
    return sympy.Add(*[sympy.factor(sympy.cancel(value.coeff(sympy.log(u)))) * sympy.log(v)
                       for u, v in ((T, T), (_X, x))])


def _first_pieces(div, N, first, build_cycle):
    """The piece T < N - 1 (the box [1/T, T]): ``first``, and where the corner family is no table (N T < 2 T + 2
    there: N = 3, T < 2) the cycle family of :func:`cycle_rows`, attaining V (the hockey stick) or the hexagon's
    value (Renyi of order 2); as ``[(condition, Bound, where it is attained on the condition)]`` (T < N - 1 gives
    the family's N >= T + 1; an integer N >= 2 and T >= 1 with T < N - 1 and N T < 2 T + 2 give N = 3, T < 2)."""
    cut, wide = sympy.Lt(T, N - 1), sympy.Ge(N * T, 2 * T + 2)
    if div.kind != "hockey-stick" and not hexagons(div):
        return [(cut, first, wide)]
    upper, text = (first.upper, _CYCLE_TEXT) if div.kind == "hockey-stick" else (hexagon_upper(div), _HEXAGON_TEXT)
    cycle = Bound(upper, True, first.method, first.argument + text, build=build_cycle,
                  checks=list(first.checks), buckets=sympy.Integer(3), attained_where=cycle_where(N))
    return [(sympy.And(cut, wide), first, sympy.true), (sympy.And(cut, sympy.Not(wide)), cycle, sympy.true)]


_CYCLE_TEXT = ("; where N T < 2 T + 2 (N = 3, T < 2) attained by three records whose ratios to the mean are the cyclic "
               "shifts of (T, 1/T, 3 - T - 1/T) over three buckets of masses 1/(T + 1), (T^2 - T + 1)/((T + 1)(2 T - 1)), "
               "(T - 1)/(2 T - 1): x_i - gamma x_j is positive in the first bucket only (gamma >= 1)")
_HEXAGON_TEXT = ("; where N T < 2 T + 2 (N = 3, T < 2) two records' ratios (a, b) also have a + b in [3 - T, 3 - 1/T] "
                 "(the third's ratio in [1/T, T]): a hexagon with vertices the orderings of (T, 1/T, k), k = 3 - T - 1/T; "
                 "g is jointly convex, so the affine h through g at (T, 1/T), (1/T, T), (1/T, k), at least g at the "
                 "other three vertices (for Renyi 2 polynomials of one sign on [1, 2], for KL after the rational bounds of "
                 "the logarithms), is at least g on it and "
                 "B <= h(1, 1), attained by three records whose ratios are the cyclic shifts of (T, 1/T, k) over masses "
                 "1/(T + 1), (T^2 - T + 1)/((T + 1)(2 T - 1)), (T - 1)/(2 T - 1)")


def supremum(div, N, first, build_narrow, build_cycle=None):
    """The bound piece by piece: ``first`` (the corners module's tight Bound on [1/T, T]) where T < N - 1, the
    narrowed box where T >= N - 1 (at T = N - 1 the two agree: h = T there); a Bound whose ``upper`` is their
    Piecewise and whose ``parts`` are the pieces (the hockey stick's first piece in two, by its families)."""
    cut = N - 1
    text = ("; where T >= N - 1 a record's ratio is also <= N - (N - 1)/T (the others' N - 1 ratios each >= 1/T), the "
            "smaller end there: the same corners on the box [1/T, N - (N - 1)/T], whose mass at the upper end is "
            "L = 1/N, B <= (g(h, 1/T) + g(1/T, h) + (N - 2) g(1/T, 1/T))/N, attained for N >= 2 by m = (1, 1, N - 2)/N "
            "over three buckets, x_i = m (h, 1/T, 1/T), x_j = m (1/T, h, 1/T), the N - 2 others at m (1/T, 1/T, "
            "(N - 2/T)/(N - 2))")
    second = Bound(narrow_upper(div, N), True, methods.CORNERS.name, first.argument + text, build=build_narrow,
                   checks=list(first.checks), buckets=sympy.Integer(3), attained_where=sympy.Ge(N, 2))
    pieces = [*_first_pieces(div, N, first, build_cycle), (sympy.Ge(T, cut), second, sympy.true)]    # (N >= 2)
    upper = _piecewise([(c, p.upper) for c, p, _ in pieces])
    where = sympy.simplify_logic(sympy.Or(*[sympy.And(c, w) for c, _, w in pieces]))
    return Bound(upper, True, methods.CORNERS.name, first.argument + text + "; tight piece by piece in T",
                 checks=list(first.checks), parts=[(c, p) for c, p, _ in pieces], buckets=sympy.Integer(3),
                 attained_where=where)


def _piecewise(pieces):
    """The Piecewise of ``[(condition, value)]``, consecutive pieces of one value merged, the last one's condition
    True."""
    merged = []
    for cond, value in pieces:
        if merged and merged[-1][1] == value:
            merged[-1] = (sympy.simplify_logic(sympy.Or(merged[-1][0], cond)), value)
        else:
            merged.append((cond, value))
    return sympy.Piecewise(*[(v, c) for c, v in merged[:-1]], (merged[-1][1], True))
