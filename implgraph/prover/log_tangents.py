"""Signing a sum of logarithms by the tangents of log at 1: is ``e >= 0`` on a region where the solver alone cannot say.

The solver reads ``log(X)`` as an unknown with two facts (``log X <= X - 1``, and ``log X >= 0`` iff ``X >= 1``), which do
not sign a sum such as ``(N - 1) T log T + lo log lo`` (>= 0 by ``x log x >= x - 1``: its terms add up to
``(N - 1)(T - 1) + lo - 1 = 0``). Here each term ``c log(X)`` (``c`` and ``X`` free of logarithms, ``X > 0`` on the
region) is replaced by a lower bound free of logarithms: ``c (1 - 1/X)`` where ``c >= 0`` (``log X >= 1 - 1/X``) and
``c (X - 1)`` where ``c <= 0`` (``log X <= X - 1``). Where the lower bound is signed, so is ``e``. The checker has its own
copy of this step (:func:`implgraph.certify.lemmas.composition.at_least`), so a certificate does not lean on this one.

>>> import sympy
>>> from implgraph.core.region import Region
>>> x = sympy.Symbol("x", positive=True)
>>> region = Region({x: "real"}, (x > 0,))
>>> region.decide(sympy.Ge(x * sympy.log(x) - x + 1, 0)) is True
False
>>> at_least(region, x * sympy.log(x) - x + 1, 0)
True
"""

from __future__ import annotations

import sympy

__all__ = ["at_least", "tangent_lower"]


def at_least(region, e, r) -> bool:
    """Is ``e >= r`` on ``region`` (True), by the solver or by :func:`tangent_lower` where the solver does not say (a
    ``Piecewise`` piece by piece, each on the region where its condition holds)?"""
    if region.decide(sympy.Ge(e, r)) is True:
        return True
    if isinstance(e, sympy.Piecewise) and e.has(sympy.log):      # piece by piece, each on its own condition
        return all(at_least(region if c is sympy.true else region.add(c), x, r) for x, c in e.args)
    lower = tangent_lower(region, e - r) if e.has(sympy.log) else None
    return lower is not None and region.decide(sympy.Ge(lower, 0)) is True


def tangent_lower(region, e):
    """A lower bound of ``e`` free of logarithms on ``region`` (module notes), or None where ``e`` has another shape or
    a sign it needs is not decided."""
    rest, coefficients = sympy.Integer(0), {}
    for term in sympy.Add.make_args(sympy.expand(e)):
        logs = [f for f in sympy.Mul.make_args(term) if isinstance(f, sympy.log)]
        if not logs:
            rest += term
            continue
        c = term / logs[0]
        if len(logs) != 1 or logs[0].args[0].has(sympy.log) or c.has(sympy.log):
            return None
        coefficients[logs[0]] = coefficients.get(logs[0], 0) + c
    for log_x, c in coefficients.items():
        x = log_x.args[0]
        if region.decide(sympy.Gt(x, 0)) is not True:
            return None
        c = sympy.cancel(c)
        if region.decide(sympy.Ge(c, 0)) is True:
            rest += c * (1 - 1 / x)
        elif region.decide(sympy.Le(c, 0)) is True:
            rest += c * (x - 1)
        else:
            return None
    return sympy.cancel(rest)
