"""The attaining tables of the arguments (``Bound.build``) and the suprema proved piece by piece.

Every attaining table here is binary (each record a row ``(v, 1 - v)``) or a split of one (each bucket split into
:data:`CAP_SPLIT` equal buckets), exact in :class:`fractions.Fraction`.
"""

from __future__ import annotations

from fractions import Fraction

import sympy

from implgraph.core.concrete import ConcreteTable
from implgraph.prover.answer import Bound, T
from implgraph.prover.shapes import decide

__all__ = ["CAP_SPLIT", "at", "two_blocks", "rows_build", "apart_rows", "binary_column_table", "frac", "split", "uniform_classes",
           "piecewise_supremum", "pair_piece_supremum"]

#: the number of equal buckets each bucket is split into where A caps each increase at -ln p: ln m > T - 1 for
#: m = 3^ceiling(T) (the certificates write it as the family's ``split``)
CAP_SPLIT = 3 ** sympy.ceiling(T)


def at(point, N, s=1):
    """T, N and the class size s as exact values at a ``point`` of the tightness family (N may be a number)."""
    return (sympy.Rational(point[T]), int(point[N]) if N in point else int(N), int(sympy.sympify(s).subs(point)))


def two_blocks(N, s, values):
    """``build(point)``: s records at x in class E1 and N - s at y in E2 (binary rows), ``(x, y) = values(T, N, s)`` at
    the point."""
    def build(point):
        Tv, Nv, sv = at(point, N, s)
        x, y = values(Tv, Nv, sv)
        return binary_column_table([frac(x)] * sv + [frac(y)] * (Nv - sv), labels=["E1"] * sv + ["E2"] * (Nv - sv))
    return build


def apart_rows(N, t):
    """Binary rows ``[(count, first bucket's value, class)]``: two records t apart in total variation around the table
    (1/2, 1/2), x_i = (1 + t, 1 - t)/2 in E1 and x_k = (1 - t, 1 + t)/2 in E2, the N - 2 others at (1/2, 1/2) in E3."""
    return [(sympy.Integer(1), (1 + t) / 2, "E1"), (sympy.Integer(1), (1 - t) / 2, "E2"),
            (N - 2, sympy.Rational(1, 2), "E3")]


def rows_build(rows):
    """``build(point)`` of a family of binary rows ``[(count, first bucket's value, class)]`` (sympy expressions in T,
    N and parameters): the table at the point, None where a count is no natural number or a value no rational."""
    def build(point):
        values, labels = [], []
        for count, value, label in rows:
            c, v = (sympy.sympify(x).subs(point) for x in (count, value))
            if not (c.is_Integer and c >= 0 and v.is_Rational):
                return None
            values += [frac(v)] * int(c)
            labels += [label] * int(c)
        return binary_column_table(values, labels=labels)
    return build


def binary_column_table(values, labels=None):
    rows = [[v, 1 - v] for v in values]
    return ConcreteTable.from_fractions(rows, classes=labels)


def frac(x):
    x = sympy.Rational(x)
    return Fraction(int(x.p), int(x.q))


def split(build, most=8):
    """``build(point)`` with each bucket of its table split into :data:`CAP_SPLIT` equal buckets; None where that is more
    than ``most`` (the checker reads the split family without expanding it)."""
    def split_build(point):
        mv = int(CAP_SPLIT.subs(T, point[T]))
        table = build(point)
        if table is None or mv > most:
            return None
        rows = [[Fraction(int(v), table.denom * mv) for v in row for _ in range(mv)] for row in table.numer]
        return ConcreteTable.from_fractions(rows, classes=table.classes)
    return split_build


def uniform_classes(N, m, s=1):
    """``build(point)``: s records uniform over m values (an expression in T) in class E1 and N - s records uniform
    over m other values in E2 (2 m buckets)."""
    def build(point):
        Tv, Nv, sv = at(point, N, s)
        mv = int(sympy.sympify(m).subs(T, Tv))
        rows = ([[Fraction(1, mv)] * mv + [Fraction(0)] * mv] * sv
                + [[Fraction(0)] * mv + [Fraction(1, mv)] * mv] * (Nv - sv))
        return ConcreteTable.from_fractions(rows, classes=["E1"] * sv + ["E2"] * (Nv - sv))
    return build


def piecewise_supremum(method, pieces, region):
    """A supremum proved piece by piece: ``pieces`` ``[(condition, label, Bound)]`` in order, the last one's condition
    holding wherever the others' fail. The one piece whose condition the claim's condition gives, else a Piecewise of
    the pieces' bounds with each piece a part (its own certificate on its condition), attained piece by piece."""
    alone = next((piece for cond, _, piece in pieces if decide(region, cond) is True), None)
    if alone is not None:
        return alone

    def build(point):
        return next(piece for cond, _, piece in pieces
                    if cond is pieces[-1][0] or sympy.sympify(cond).subs(point) is sympy.true).build(point)
    upper = sympy.Piecewise(*[(piece.upper, cond) for cond, _, piece in pieces[:-1]], (pieces[-1][2].upper, True))
    return Bound(upper, True, method, "; ".join(f"{label}: {piece.argument}" for _, label, piece in pieces),
                 build=build, checks=[c for _, _, piece in pieces for c in piece.checks],
                 parts=[(cond, piece) for cond, _, piece in pieces])


def pair_piece_supremum(method, U, build, N, arg, checks, region, pair):
    """The supremum of a removal argument over the condition: U for N >= 3 (its family), and at N = 2, where that
    family breaks A, the ``pair`` bound (two records): :func:`piecewise_supremum` of the two; None without ``pair``."""
    if pair is None:
        return None
    rest = Bound(U, True, method, arg, build=build, checks=checks + ["N >= 3 on this piece: True"])
    return piecewise_supremum(method, [(sympy.Eq(N, 2), f"at N = 2 ({pair.method})", pair),
                                       (N >= 3, "for N >= 3", rest)], region)
