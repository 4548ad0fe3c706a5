"""Exact points of a parametric table: instantiation, sample points, and the claim's parts.

:func:`concrete_level` is the exact re-check of every symbolic answer: the table instantiated at a
rational point and its optimal level computed by the core in exact arithmetic. :func:`claim_table`
finds the table a table claim is about.
"""

from __future__ import annotations

import functools
import itertools
from fractions import Fraction

import sympy

from implgraph import definitions
from implgraph.core.concrete import ConcreteTable
from implgraph.core.errors import InputError
from implgraph.core.formula import parse_condition, parse_expr
from implgraph.definitions.levels import optimal_level
from implgraph.core.region import Region
from implgraph.io import counterexamples

__all__ = ["concrete_level", "num_le", "fmt_point", "parse_claim_parts", "sample_points", "surely_outside",
           "table_rows", "claim_table"]


def concrete_level(table, definition, params, point, scope="table"):
    """The exact optimal *raw* level of the table instantiated at ``point`` (a sympy number, oo or None)."""
    d = definitions.get(definition) if isinstance(definition, str) else definition
    t = table.subs(point)
    ps = {k: sympy.sympify(v).subs(point) if isinstance(v, sympy.Basic) else v for k, v in params.items()}
    parts = [t.restrict(c) for c in t.classes] if scope == "class" else [t]
    raws = []
    for part in parts:
        lv = optimal_level(_concrete(part), d, **ps)
        if len(lv.pieces) != 1 or lv.pieces[0].value is None:
            return None
        raws.append(sympy.sympify(lv.pieces[0].value))
    if any(r is sympy.oo for r in raws):
        return sympy.oo if d.stronger == "smaller" else sympy.Min(*raws)
    return sympy.Max(*raws) if d.stronger == "smaller" else sympy.Min(*raws)


def _concrete(t):
    rows, classes = [], []
    for probs, cls in t.rows():
        rows.append([Fraction(int(sympy.Rational(v).p), int(sympy.Rational(v).q)) for v in probs])
        classes.append(cls)
    return ConcreteTable.from_fractions(rows, buckets=t.buckets,
                                        classes=classes if any(c is not None for c in classes) else None,
                                        id=t.id)


def num_le(a, b):
    """Exact ``a <= b`` for numbers (oo allowed); sympy decides transcendental comparisons."""
    if b is sympy.oo:
        return True
    if a is sympy.oo:
        return False
    r = sympy.sympify(a <= b)
    if r in (sympy.true, sympy.false):
        return bool(r)
    return bool(sympy.N(b - a, 50) >= 0)


def fmt_point(point):
    return {str(k): str(v) for k, v in sorted(point.items(), key=lambda kv: str(kv[0]))}


def parse_claim_parts(table, claim):
    names = dict(table.symbols)
    line = getattr(claim, "line", None)
    file = getattr(claim, "file", None) or table.file

    def p(text, key):
        try:
            return parse_expr(str(text), names)
        except InputError as e:
            raise e.at(file, claim.line_of(key) if hasattr(claim, "line_of") else line) from None

    def c(text):
        try:
            return parse_condition(str(text), names)
        except InputError as e:
            raise e.at(file, claim.line_of("when") if hasattr(claim, "line_of") else line) from None

    when = [c(w) for w in (claim.get("when") or [])]
    return p, when


def sample_points(region: Region, limit=600):
    """Rational sample points of ``region`` (exact membership), for witness search.

    Candidates are screened in floating point (fast) and every point returned is checked exactly.
    """
    syms = sorted(region.kinds, key=lambda s: s.name)
    reals = [sympy.Rational(x) for x in ("1/100", "1/10", "1/5", "1/4", "1/3", "2/5", "1/2", "3/5", "2/3", "3/4",
                                         "4/5", "9/10", "99/100", "1", "3/2", "2")]
    ints = list(range(1, 13)) if len(syms) <= 2 else list(range(1, 9))
    if len(syms) > 2:
        reals = [sympy.Rational(x) for x in ("1/10", "1/4", "1/3", "3/8", "1/2", "2/3", "3/4", "7/8", "99/100", "1")]
    grids = [ints if region.kinds[s] == "integer" else reals for s in syms]
    screens = [f for f in (_screen(tuple(syms), c) for c in region.constraints) if f is not None]
    fgrids = [[float(v) for v in g] for g in grids]
    count = 0
    for idx in itertools.islice(itertools.product(*[range(len(g)) for g in grids]), 20000):
        fvals = [fgrids[i][j] for i, j in enumerate(idx)]
        try:
            if not all(bool(f(*fvals)) for f in screens):
                continue
        except (ZeroDivisionError, ValueError, TypeError, OverflowError):
            pass
        point = {s: grids[i][j] for i, (s, j) in enumerate(zip(syms, idx))}
        if region.contains(point) is True:
            yield point
            count += 1
            if count >= limit:
                return


@functools.lru_cache(maxsize=4096)
def _screen(syms, cond):
    """``cond`` as a float function of ``syms`` (a screen only: every point is checked exactly), or None."""
    try:
        return sympy.lambdify(syms, cond, modules="math")
    except Exception:  # pragma: no cover - an expression lambdify cannot handle: exact check only
        return None


def surely_outside(region: Region, symbols: tuple):
    """A fast test ``f(values) -> bool`` (values in the order of ``symbols``): True only where a polynomial
    inequality of the region provably fails, so only points :meth:`Region.contains` rejects are skipped.

    Each constraint ``a >= b`` (``>``, ``<=``, ``<``) with polynomial sides is evaluated in floating point
    as the sum ``g`` of the terms of ``a - b``; it fails for sure when ``g < -1e-9 * (1 + h)``, ``h`` the sum
    of the terms' absolute values (the rounding error of the float evaluation is far below that margin).
    Other constraints are not tested (the exact check decides them).
    """
    tests = [t for t in (_terms_function(symbols, c) for c in region.constraints) if t is not None]

    def outside(values) -> bool:
        for sign, terms in tests:
            try:
                vals = terms(*values)
            except (ZeroDivisionError, ValueError, TypeError, OverflowError):
                continue
            if sign * sum(vals) < -1e-9 * (1 + sum(map(abs, vals))):
                return True
        return False
    return outside


_SIGNS = {sympy.GreaterThan: 1, sympy.StrictGreaterThan: 1, sympy.LessThan: -1, sympy.StrictLessThan: -1}


@functools.lru_cache(maxsize=4096)
def _terms_function(symbols, cond):
    """(sign, float function of ``symbols`` giving the terms of ``lhs - rhs``) of a polynomial inequality
    (``sign * (lhs - rhs) >= 0`` or ``> 0``), for :func:`surely_outside`; None for anything else."""
    sign = _SIGNS.get(type(cond))
    if sign is None or not cond.free_symbols <= set(symbols):
        return None
    g = sympy.expand(cond.lhs - cond.rhs)
    if not g.is_polynomial(*symbols) or not all(a.is_Symbol or a.is_Rational for a in g.atoms()):
        return None
    try:
        return sign, sympy.lambdify(symbols, list(sympy.Add.make_args(g)), modules="math")
    except Exception:  # pragma: no cover - an expression lambdify cannot handle: exact check only
        return None


def table_rows(table, point):
    try:
        t = table.subs(point)
        return [[str(v) for v in probs] + ([cls] if cls is not None else []) for probs, cls in t.rows()]
    except Exception:  # pragma: no cover - counts not instantiated
        return None


def claim_table(claim, context=None):
    """The table a claim is about: ``context["table"]``, the claim's ``_table``, or by claim id."""
    if context and context.get("table") is not None:
        return context["table"]
    tid = claim.get("_table")
    if tid:
        try:
            return counterexamples.get_table(str(tid))
        except InputError:
            pass
    return counterexamples.table_of_claim(str(claim.get("id")))
