"""Where formulas are defined on a region, said exactly; and whether a region's slices are intervals.

A claim about printed formulas (a function and its printed derivatives) can only be judged where the
formulas have a real value. :func:`definedness_atoms` lists what every formula needs (a divisor ``!= 0``, a
radicand ``>= 0``, a radicand under a divisor ``> 0``); :func:`undefined_parts` gives, for each need that fails
somewhere on a region, the exact set where it fails, written with the region's own bounds at equality
when a z3 proof shows the two sets equal (e.g. ``p = 0``, or ``eta = 1 and p = 1``), and an exact point.

:func:`slices_are_intervals` is what turns a derivative's sign into monotonicity: if, for fixed values of
the other symbols, the region's points form an interval in the variable, a derivative of constant sign on
it makes the function monotone there (mean value theorem). Each constraint is checked to cut an interval:
it is a polynomial of degree <= 1 in the variable, or of degree <= 1 in its square where the variable is
>= 0 on the region.

Examples
--------
>>> import sympy
>>> from implgraph.core.region import Region
>>> x, y = sympy.symbols("x y", real=True)
>>> [str(c) for c, _ in definedness_atoms([1 / sympy.sqrt(x - y)])]
['x - y > 0']
>>> region = Region({x: "real", y: "real"}, (x >= 0, x <= 1, y >= 0, y <= 1))
>>> [(str(c), text) for c, text, _ in undefined_parts(region, [x / y])]
[('Eq(y, 0)', 'y = 0')]
>>> slices_are_intervals(region.add(x * y < 1), x)
True
"""

from __future__ import annotations

import functools
import itertools

import sympy

__all__ = ["definedness_atoms", "defined_conditions", "undefined_parts", "slices_are_intervals"]


def definedness_atoms(exprs) -> list:
    """``[(condition, formula)]``: what each formula needs to have a real value (one entry per need).

    A negative power needs its base ``!= 0`` (one condition per factor of the base); a square root needs
    its radicand ``>= 0``, and ``> 0`` when it divides.
    """
    return list(_atoms(tuple(sympy.sympify(e) for e in exprs)))


@functools.lru_cache(maxsize=256)
def _factored(base):
    """``factor(base)`` (common factors of its numerator and denominator cancel), memoised (a function's
    derivatives repeat its powers, and a claim and its reading ask for the same formulas)."""
    return sympy.factor(base)


@functools.lru_cache(maxsize=64)
def _atoms(exprs: tuple) -> tuple:
    out, seen = [], set()

    def add(cond, expr):
        if cond not in seen and cond is not sympy.true:
            seen.add(cond)
            out.append((cond, expr))

    for expr in exprs:
        for node in sympy.preorder_traversal(expr):
            if not isinstance(node, sympy.Pow) or not node.exp.is_Rational:
                continue
            base, exp = node.base, node.exp
            if exp.q == 2:
                rad = _factored(base)
                add(sympy.Gt(rad, 0) if exp < 0 else sympy.Ge(rad, 0), expr)
            elif exp < 0:
                for factor in sympy.Mul.make_args(_factored(base)):
                    f = factor.base if isinstance(factor, sympy.Pow) and factor.exp.is_positive else factor
                    if not f.is_number:
                        add(sympy.Ne(f, 0), expr)
    return tuple(out)


def defined_conditions(region, exprs) -> list:
    """The needs of :func:`definedness_atoms` as polynomial conditions, in order: divisors first
    (``f != 0`` written ``f > 0`` or ``f < 0`` where the region fixes the sign of ``f``), then radicands
    (the sign of ``numerator * denominator``, with the factors whose sign the region and the divisors
    fix dropped; a radicand that must be > 0 and is a product of factors >= 0 gives one condition per
    factor). Each condition is equivalent to its need on the region plus the conditions before it.
    Memoised by the region's constraints and symbols and the formulas (a claim and its reading, and
    :func:`undefined_parts`, ask again).
    """
    exprs = tuple(sympy.sympify(e) for e in exprs)
    key = (region.constraints, frozenset(region.kinds.items()), exprs)
    if key not in _CONDITIONS:
        if len(_CONDITIONS) > 256:
            _CONDITIONS.clear()
        _CONDITIONS[key] = _conditions(region, exprs)
    return list(_CONDITIONS[key])


_CONDITIONS: dict = {}
"""The answers of :func:`defined_conditions` (tuples) by (constraints, symbols, formulas)."""


def _conditions(region, exprs) -> tuple:
    atoms = [c for c, _ in _atoms(exprs)]
    out = []
    for c in (a for a in atoms if isinstance(a, sympy.Ne)):
        f = c.lhs - c.rhs
        if region.decide(f >= 0) is True:
            c = sympy.Gt(f, 0)
        elif region.decide(f <= 0) is True:
            c = sympy.Lt(f, 0)
        out.append(c)
    base = region.add(*out)
    for c in (a for a in atoms if not isinstance(a, sympy.Ne)):
        num, den = sympy.fraction(sympy.together(c.lhs - c.rhs))
        sign, keep = 1, []
        for fac in sympy.Mul.make_args(sympy.factor(num * den)):
            if fac.is_number:
                sign *= sympy.sign(fac)
            elif base.decide(fac > 0) is True:
                continue
            elif base.decide(fac < 0) is True:
                sign = -sign
            elif base.decide(fac <= 0) is True:
                sign, keep = -sign, keep + [sympy.expand(-fac)]
            else:
                keep.append(fac)
        strict = isinstance(c, sympy.Gt)
        if strict and sign > 0 and keep and all(base.decide(f >= 0) is True for f in keep):
            out.extend(sympy.Gt(f, 0) for f in keep)     # a product of factors >= 0 is > 0 iff each is
            continue
        poly = sympy.expand(sign * sympy.Mul(*keep))
        out.append(sympy.Gt(poly, 0) if strict else sympy.Ge(poly, 0))
    return tuple(dict.fromkeys(c for c in out if c is not sympy.true))


def _boundaries(region) -> list:
    """The region's bounds ``a <= b`` (``a >= b``, ``a < b`` ...) at equality: ``Eq(a, b)``."""
    out = []
    for c in region.constraints:
        if isinstance(c, (sympy.Le, sympy.Ge, sympy.Lt, sympy.Gt)):
            lhs, rhs = (c.rhs, c.lhs) if c.lhs.is_number else (c.lhs, c.rhs)
            eq = sympy.Eq(lhs, rhs, evaluate=False)
            if eq not in out and not lhs.is_number:
                out.append(eq)
    return out


def _describe(region, bad, bounds):
    """A conjunction of at most two of ``bounds`` (equalities) equal to ``bad`` on the region (both
    inclusions proved), as (condition, text); else ``bad`` itself."""
    inside = region.add(bad)
    for size in (1, 2):
        for combo in itertools.combinations(bounds, size):
            if inside.decide(sympy.And(*combo)) is True and region.add(*combo).decide(bad) is True:
                text = " and ".join(f"{sympy.sstr(e.lhs)} = {sympy.sstr(e.rhs)}" for e in combo)
                return sympy.And(*combo), text
    return bad, sympy.sstr(bad)


def undefined_parts(region, exprs) -> list:
    """``[(condition, text, point)]``: the points of ``region`` where some formula has no real value, cut
    into the parts where the first failing need of :func:`defined_conditions` fails (the parts are
    disjoint and their union is the whole undefined set). Each part is written with the region's bounds
    at equality when a z3 proof shows the two sets equal (see :func:`_describe`), and has an exact point
    (None if the solver found none).
    """
    out, before = [], []
    bounds = _boundaries(region)
    for cond in defined_conditions(region, exprs):
        here = region.add(*before)
        before.append(cond)
        if here.decide(cond) is True:
            continue
        bad = sympy.Not(cond)
        described, text = _describe(here, bad, bounds)
        out.append((described, text, here.find_point(bad)))
    return out


def _cuts_interval(cond, var, nonnegative: bool) -> bool:
    """Does ``cond`` (a relation) hold on an interval of ``var`` for fixed values of the other symbols?"""
    if var not in cond.free_symbols:
        return True
    if not isinstance(cond, (sympy.Le, sympy.Ge, sympy.Lt, sympy.Gt, sympy.Eq)):
        return False
    g = sympy.expand(cond.lhs - cond.rhs)
    poly = sympy.Poly(g, var) if g.is_polynomial(var) else None
    if poly is None:
        return False
    if poly.degree() <= 1:
        return True
    # a x^2 + b: monotone in x on x >= 0
    return (nonnegative and poly.degree() == 2 and poly.coeff_monomial(var) == 0)


def slices_are_intervals(region, var) -> bool:
    """For fixed values of the other symbols, is ``{var : region}`` an interval? (sufficient test: every
    constraint cuts an interval, see the module docstring)."""
    nonneg = region.decide(var >= 0) is True
    return all(_cuts_interval(c, var, nonneg) for c in region.constraints)
