"""B's target and the exact re-check of the refuter (:mod:`implgraph.engines.refute`).

:func:`raw_target`: B's raw level as a function of A's raw level ``T``; :func:`witness_check`: the exact
re-check of a witness (the definitions' exact levels, :func:`implgraph.engines.recheck.is_witness`); and the
exact rationals a solver's bounds are rounded to (below for A, above for B).
"""

from __future__ import annotations

import functools
from fractions import Fraction

import sympy

from implgraph import definitions
from implgraph.core.errors import InputError
from implgraph.core.formula import Word, free_names, parse_expr
from implgraph.core.simplified import simplified
from implgraph.definitions.levels import optimal_level
from implgraph.engines.recheck import is_witness

__all__ = ["raw_target", "witness_check"]


def _definition(d):
    return definitions.get(d) if isinstance(d, str) else d


def _int_params(params):
    """Integer parameters as ints; a :class:`implgraph.core.formula.Word` (a ground distance) as it is."""
    out = {}
    for k, v in (params or {}).items():
        if isinstance(v, Word):
            out[k] = v
            continue
        v = sympy.sympify(v)
        if not v.is_Integer:
            raise InputError(f"parameter {k} = {v} must be a concrete integer for the refuter",
                             fix="give concrete values for N and k")
        out[k] = int(v)
    return out


def raw_target(a, b, f, alpha=None, values=None):
    """B's raw level (ratio) as a sympy function of A's raw level ``T``: (expr, T symbol).

    Memoised within the process (the same target is asked for at every sampled point and again by
    the exact re-check of each witness)."""
    a, b = _definition(a), _definition(b)
    items = tuple(sorted(((k, sympy.sympify(v)) for k, v in (values or {}).items()), key=lambda kv: str(kv[0])))
    try:
        return _raw_target(a, b, f, alpha, items)
    except TypeError:   # an unhashable argument: computed without the memo
        return _raw_target.__wrapped__(a, b, f, alpha, items)


@functools.lru_cache(maxsize=512)
def _raw_target(a, b, f, alpha, items):
    values = dict(items)
    T = sympy.Symbol("T", positive=True)
    if isinstance(f, str):
        f = parse_expr(f, {n: sympy.Symbol(n, real=True) for n in free_names(f)})
    f = sympy.sympify(f)
    alpha_sym = None
    if alpha is not None:
        alpha_sym = alpha if isinstance(alpha, sympy.Symbol) else next(
            (s for s in f.free_symbols if s.name == str(alpha)), sympy.Symbol(str(alpha), real=True))
    else:
        alpha_sym = next((s for s in f.free_symbols if s.name == a.level_symbol), None)
    if values:
        f = f.subs({(s if isinstance(s, sympy.Symbol) else next((x for x in f.free_symbols if x.name == str(s)),
                                                                 sympy.Symbol(str(s)))): sympy.sympify(v)
                    for s, v in values.items()})
    if alpha_sym is not None:
        f = f.subs(alpha_sym, a.level_from_raw(T))
    raw = b.raw_from_level(f)
    raw = simplified(sympy.expand_log(sympy.powsimp(raw), force=True))
    raw = simplified(raw.subs(sympy.exp(sympy.log(T)), T))
    return raw, T


def _num(x):
    x = sympy.nsimplify(x) if isinstance(x, float) else sympy.sympify(x)
    return x


def _rational_below(x, digits=30):
    """A rational <= x (x a positive real sympy number)."""
    x = sympy.sympify(x)
    if x.is_Rational:
        return Fraction(int(x.p), int(x.q))
    q = sympy.Rational(sympy.floor(x * 10 ** digits), 10 ** digits)
    return Fraction(int(q.p), int(q.q))


def _rational_above(x, digits=30):
    x = sympy.sympify(x)
    if x.is_Rational:
        return Fraction(int(x.p), int(x.q))
    q = sympy.Rational(sympy.ceiling(x * 10 ** digits), 10 ** digits)
    return Fraction(int(q.p), int(q.q))


def _level_raw(table, d, params):
    lv = optimal_level(table, d, **params)
    if not lv.defined:
        return None
    return lv.pieces[0].value


def witness_check(a, b, f, alpha_value, a_params=None, b_params=None, values=None, alpha=None):
    """The exact re-check of a witness as a function ``table -> bool`` (targets computed once).

    The table must satisfy A at ``alpha_value`` and violate B at ``f(alpha_value)``; with ``f=None``
    A's level must be finite and B's infinite (a definitive non-implication witness at this N). The
    test is :func:`implgraph.engines.recheck.is_witness` (the definitions' exact levels)."""
    a, b = _definition(a), _definition(b)
    a_params, b_params = dict(a_params or {}), dict(b_params or {})
    if f is None:
        T0 = F0 = None
    else:
        T0 = simplified(a.raw_from_level(sympy.sympify(alpha_value)))
        raw, T = raw_target(a, b, f, alpha=alpha, values=values)
        F0 = simplified(raw.subs(T, T0))

    def check(table) -> bool:
        return is_witness(a, a_params, b, b_params, table, a_raw=T0, f_raw=F0)
    return check
