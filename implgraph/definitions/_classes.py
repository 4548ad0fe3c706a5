"""Per-class distributions shared by the class-based definitions of the literature (symbolic and concrete)."""

from __future__ import annotations

from fractions import Fraction

import sympy

__all__ = ["class_means", "table_means", "class_fractions", "table_fractions"]


def class_means(table):
    """Each class's mean bucket probabilities on a parametric table (a list per class, sympy)."""
    out = []
    for blocks in table.classes.values():
        size = sum((b.count for b in blocks), sympy.Integer(0))
        out.append([sum((b.probs[l] * b.count for b in blocks), sympy.Integer(0)) / size for l in range(table.p)])
    return out


def table_means(table):
    """The table's mean bucket probabilities (sympy)."""
    n = table.size
    return [sum((b.probs[l] * b.count for b in table.blocks), sympy.Integer(0)) / n for l in range(table.p)]


def class_fractions(ct):
    """Each class's mean bucket probabilities on a concrete table (lists of Fractions), None without classes."""
    if ct.classes is None:
        return None
    sizes, sums = ct.class_sums()
    return [[Fraction(int(s), int(z) * ct.denom) for s in row] for z, row in zip(sizes.tolist(), sums.tolist())]


def table_fractions(ct):
    """The table's mean bucket probabilities (Fractions)."""
    return [Fraction(ct.total(l), ct.N * ct.denom) for l in range(ct.p)]
