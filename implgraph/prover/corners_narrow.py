"""The ``corners`` bound of each record within [1/T, T] of the table on its narrowed box, piece by piece in T (a helper
of :mod:`implgraph.prover.arguments.corners`; docs/arguments/corners.md).

A record's ratio a = x_i(l)/m_l is N minus the others' N - 1 ratios, each >= 1/T, so a <= h = N - (N - 1)/T as well
as a <= T; h is the smaller where T >= N - 1 ((T - 1)(T - (N - 1)) >= 0). The corners lemma holds on any box
[lo, hi] holding every record's ratio (0 < lo <= 1 <= hi): D <= h(1, 1) = g(lo, lo) + (g(hi, lo) + g(lo, hi) -
2 g(lo, lo)) L, L = (1 - lo)/(hi - lo). On [1/T, h], L = (1 - 1/T)/(N (1 - 1/T)) = 1/N, so

    D <= (g(h, 1/T) + g(1/T, h) + (N - 2) g(1/T, 1/T))/N.

Pieces: T <= N - 1, the box [1/T, T] (the corners module's V, attained where N >= 2 + 2/T); T > N - 1, the box
[1/T, h], attained for every N >= 3 by the corner family: m = (1, 1, N - 2)/N over three buckets, x_i = m (h, 1/T,
1/T), x_j = m (1/T, h, 1/T) and the N - 2 others at m (1/T, 1/T, (N - 2/T)/(N - 2)); their last ratio is <= T where
(N - 2) T^2 - N T + 2 = ((N - 2) T - 2)(T - 1) >= 0, i.e. T >= 2/(N - 2), which T > N - 1 >= 2 gives; h <= T there;
A's level is T and D(x_i || x_j) is the bound (module notes of :mod:`~implgraph.prover.arguments.corners`).

The kinds narrowed here are those the kernel states on a general box: KL, Renyi of order 2 and the hockey stick at a
rational gamma >= 1 (total variation's corner value 1 - lo does not change).
"""

from __future__ import annotations

import sympy

from implgraph.core import methods
from implgraph.prover.answer import Bound, T

__all__ = ["narrows", "narrow_end", "narrow_upper", "narrow_rows", "supremum"]

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
    """The attaining table's rows on the piece T > N - 1: ``[(count, (three values), class)]`` (module notes)."""
    h = N - (N - 1) / t
    m = (1 / N, 1 / N, (N - 2) / N)
    x = (m[0] * h, m[1] / t, m[2] / t)
    y = (m[0] / t, m[1] * h, m[2] / t)
    rest = (m[0] / t, m[1] / t, (N - 2 / t) / N)
    return [(sympy.Integer(1), x, "E1"), (sympy.Integer(1), y, "E2"), (N - 2, rest, "E3")]


def supremum(div, N, first, build_narrow):
    """The bound piece by piece: ``first`` (the corners module's tight Bound on [1/T, T]) where T <= N - 1, the
    narrowed box beyond; a Bound whose ``upper`` is their Piecewise and whose ``parts`` are the pieces."""
    cut = N - 1
    text = ("; where T > N - 1 a record's ratio is also <= N - (N - 1)/T (the others' N - 1 ratios each >= 1/T), the "
            "smaller end there: the same corners on the box [1/T, N - (N - 1)/T], whose mass at the upper end is "
            "L = 1/N, B <= (g(h, 1/T) + g(1/T, h) + (N - 2) g(1/T, 1/T))/N, attained for N >= 3 by m = (1, 1, N - 2)/N "
            "over three buckets, x_i = m (h, 1/T, 1/T), x_j = m (1/T, h, 1/T), the N - 2 others at m (1/T, 1/T, "
            "(N - 2/T)/(N - 2))")
    second = Bound(narrow_upper(div, N), True, methods.CORNERS.name, first.argument + text, build=build_narrow,
                   checks=list(first.checks), buckets=sympy.Integer(3), attained_where=sympy.Ge(N, 3))
    pieces = [(sympy.Le(T, cut), first), (sympy.Gt(T, cut), second)]
    upper = sympy.Piecewise((first.upper, pieces[0][0]), (second.upper, True))
    where = sympy.Or(sympy.And(pieces[0][0], first.attained_where), sympy.And(pieces[1][0], second.attained_where))
    return Bound(upper, True, methods.CORNERS.name, first.argument + text + "; tight piece by piece in T",
                 checks=list(first.checks), parts=pieces, buckets=sympy.Integer(3), attained_where=where)
