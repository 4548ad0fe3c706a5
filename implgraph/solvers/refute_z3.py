"""z3 for the refuter (:mod:`implgraph.engines.refute`): the table of free probabilities and its queries.

A :class:`TableProblem` holds N rows of z3 reals (binary tables: ``a2 = 1 - a1``), the symmetry
breaking of the refuter (rows sorted on bucket a1, within each class when there are classes) and
turns a model into an exact :class:`ConcreteTable`. The definitions' constraints come from the z3
backend (:mod:`implgraph.solvers.z3_backend`: ``encode_satisfies``, ``encode_violates``,
``encode_infinite``, ``ratio_list``), re-exported here so that the refuter talks to this module
only. :func:`implgraph.solvers.choose.refuter_backend` chooses it.
"""

from __future__ import annotations

import sympy
import z3

from implgraph.core.concrete import ConcreteTable
from implgraph.core.errors import InputError
from implgraph.solvers.z3_backend import (NotEncodable, approx_value, encode_infinite, encode_satisfies,
                                          encode_violates, model_value, ratio_list, real, solve)

__all__ = ["NAME", "TableProblem", "level_var", "ratio_queries", "finite", "rational_target", "approx_value",
           "NotEncodable", "encode_infinite", "encode_satisfies", "encode_violates", "ratio_list", "solve"]

#: the solver's name, for evidence texts
NAME = "z3"


def level_var(name: str):
    """A free real (a raw level T or F)."""
    return z3.Real(name)


class TableProblem:
    """N rows of free probabilities over p buckets, with the refuter's symmetry breaking.

    Attributes
    ----------
    rows : list
        Per row, the p probabilities (z3 terms) handed to the definitions' encodings.
    base : list
        Constraints: probabilities, and rows sorted on bucket a1 (within each class).
    order : dict
        ``{bucket: "asc" | "desc"}``: the sort the encodings may rely on (empty with classes).
    """

    def __init__(self, N, p, classes=None):
        self.N, self.p = N, p
        xs = self.xs = [[z3.Real(f"x_{i}_{l}") for l in range(p)] for i in range(N)]
        if p == 2:
            self.rows = [[r[0], 1 - r[0]] for r in xs]
            base = [z3.And(r[0] >= 0, r[0] <= 1) for r in xs]
        else:
            self.rows = xs
            base = [x >= 0 for r in xs for x in r] + [z3.Sum(r) == 1 for r in xs]
        if classes and not all(int(c) == 1 for c in classes):
            self.order = {}
            start = 0
            for size in classes:
                base += [xs[i][0] <= xs[i + 1][0] for i in range(start, start + int(size) - 1)]
                start += int(size)
            if start != N:
                raise InputError(f"class sizes {classes} do not add up to N = {N}", fix="give sizes summing to N")
        else:
            # no classes, or singleton classes: the rows stay exchangeable, the global sort is a symmetry breaking
            self.order = {0: "asc", 1: "desc"} if p == 2 else {0: "asc"}
            base += [xs[i][0] <= xs[i + 1][0] for i in range(N - 1)]
        self.base = base
        self.labels = None if not classes else [f"E{c + 1}" for c, size in enumerate(classes) for _ in range(int(size))]

    def table(self, model):
        """The exact table of ``model``, or None when a value is irrational."""
        vals = [[model_value(model, x) for x in r] for r in self.xs]
        if any(v is None for r in vals for v in r):
            return None
        frs = [[r[0], 1 - r[0]] for r in vals] if self.p == 2 else vals
        return ConcreteTable.from_fractions(frs, classes=self.labels)


def ratio_queries(base, ra_list, rb_list, c):
    """Queries for f(T) = c T with the level free: per ratio ``nb / db`` of B, a table where it is
    finite and above c times every ratio of A (and c times 1), and one where it is infinite while A
    is finite. ``c`` is a positive rational."""
    cz = real(sympy.Rational(c))
    a_finite = finite(ra_list)
    queries = []
    for nb, db in rb_list:
        queries.append(base + [db > 0, nb > cz * db] +
                       [z3.Or(z3.And(na == 0, da == 0), nb * da > cz * na * db) for na, da in ra_list])
        queries.append(base + [db == 0, nb > 0] + a_finite)
    return queries


def finite(ratios):
    """Constraints saying a level ``max(1, max num/den)`` (:func:`ratio_list`) is finite: no ratio x/0
    with x > 0 (linear, whatever the level)."""
    return [z3.Or(den > 0, num == 0) for num, den in ratios]


def rational_target(num, den, T):
    """``(Tv, Fv, constraints)``: free raw levels with ``Fv = num(Tv) / den(Tv)`` (polynomials in T)
    and ``Tv >= 1``."""
    Tv, Fv = z3.Real("T"), z3.Real("F")
    zn, zd = _poly(num, T, Tv), _poly(den, T, Tv)
    return Tv, Fv, [Tv >= 1, Fv * zd == zn, zd != 0]


def _poly(expr, T, Tv):
    """A polynomial in T (sympy) as a z3 expression in Tv."""
    poly = sympy.Poly(sympy.expand(expr), T)
    out = z3.RealVal(0)
    for (deg,), c in poly.terms():
        c = sympy.Rational(c)
        term = z3.RealVal(f"{c.p}/{c.q}")
        for _ in range(deg):
            term = term * Tv
        out = out + term
    return out
