"""The exact levels of (eps, delta)-DP and (eps, delta)-LDP on the record model, for a fixed delta.

An output event is a union of buckets, a non-empty set ``B`` of bucket indices; ``x_i(B)`` is
record i's probability of it, ``P(B)`` the table's (mean over the N records) and ``Q_i(B)`` the
mean over the N - 1 records left when record i is removed. A constraint ``a <= e^eps b + delta``
needs ``e^eps >= (a - delta) / b``: nothing when ``a <= delta``, no finite eps when ``b = 0 < a -
delta``. The raw level is the largest requirement, at least 1 (eps >= 0); ``eps = ln`` of it.

- LDP: ``a = x_i(B)``, ``b = x_j(B)`` for every ordered pair of records: the largest ``x_i(B)``
  against the smallest ``x_j(B)``.
- DP (record removal, as ekenstedt2022 Definition 5): ``a = P(B), b = Q_i(B)`` and
  ``a = Q_i(B), b = P(B)``; ``Q_i(B)`` is smallest when the record with the largest ``x_i(B)``
  is removed and largest when the one with the smallest is.

The whole set of buckets is left out (``P = Q = 1`` requires ``1 - delta <= e^eps``, which eps >= 0
already meets). With ``delta = 0`` the levels are those of eps-DP and eps-LDP (a union's ratio lies
between its buckets' ratios).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import sympy

from implgraph.core.concrete import INF, max_ratio, ratio
from implgraph.core.errors import InputError
from implgraph.definitions.families import Form, LFModel, Term

__all__ = ["events", "as_fraction", "check_delta", "ldp_symbolic", "ldp_concrete", "dp_symbolic", "dp_concrete",
           "ldp_terms", "dp_terms", "PARAMS", "RANGES"]

PARAMS = {"delta": "additive slack, a rational 0 <= delta < 1"}
#: the most buckets whose 2^p - 2 output events are enumerated
MAX_BUCKETS = 12
RANGES = {"delta": (0, 1)}


def events(p):
    """The non-empty proper sets of buckets (tuples of indices); InputError past :data:`MAX_BUCKETS`."""
    if p > MAX_BUCKETS:
        raise InputError(f"(eps, delta) levels enumerate the 2^p - 2 output events; p = {p} buckets is too many",
                         fix=f"merge sensitive values into at most {MAX_BUCKETS} buckets")
    return [B for r in range(1, p) for B in itertools.combinations(range(p), r)]


def as_fraction(delta) -> Fraction:
    """``delta`` (int, Fraction, sympy Rational or text such as ``1/10``) as a Fraction."""
    return Fraction(str(delta))


def check_delta(name, params):
    """The parameters with ``delta`` a rational in [0, 1) (InputError otherwise)."""
    if set(params) != {"delta"}:
        raise InputError(f"{name} takes exactly one parameter, delta (given: {', '.join(sorted(params)) or 'none'})",
                         fix=f"give it, e.g. {name}(delta=1/10)")
    d = sympy.sympify(params["delta"])
    if not (d.is_Rational and 0 <= d < 1):
        raise InputError(f"{name}: delta = {params['delta']} is not a rational in [0, 1)", fix="give e.g. delta=1/10")
    return {"delta": d}


def _need(ctx, a, b):
    """The requirement ``(a - 0) / b`` on e^eps of ``a <= e^eps b`` (None: no constraint)."""
    if ctx.le(a, 0):
        return None
    return ctx.ratio(a, b)


def _event_column(table, B):
    return [(sum((blk.probs[l] for l in B), sympy.Integer(0)), blk.count) for blk in table.blocks]


def ldp_symbolic(ctx, table, delta):
    delta = sympy.Rational(str(delta))
    best = sympy.Integer(1)
    for B in events(table.p):
        values = [v for v, _ in _event_column(table, B)]
        best = ctx.max([best, _need(ctx, ctx.max(values) - delta, ctx.min(values))])
    return best


def dp_symbolic(ctx, table, delta):
    delta = sympy.Rational(str(delta))
    n = table.size
    best = sympy.Integer(1)
    for B in events(table.p):
        col = _event_column(table, B)
        values = [v for v, _ in col]
        total = sum((v * c for v, c in col), sympy.Integer(0))
        hi, lo = ctx.max(values), ctx.min(values)
        # P - delta over Q_i with the largest x_i removed; Q_i with the smallest removed, minus delta, over P
        best = ctx.max([best, _need(ctx, (total - delta * n) * (n - 1), (total - hi) * n),
                        _need(ctx, (total - lo) * n - delta * n * (n - 1), total * (n - 1))])
    return best


def _event_sums(ct, B):
    return [int(v) for v in ct.numer[:, list(B)].sum(axis=1).tolist()]


def _need_int(a, b):
    return None if a <= 0 else ratio(a, b)


def ldp_concrete(ct, delta):
    delta, D = as_fraction(delta), ct.denom
    best = Fraction(1)
    for B in events(ct.p):
        x = _event_sums(ct, B)
        # (max/D - delta) / (min/D) = (max - delta D) / min
        best = max_ratio([best, _need_int(max(x) - delta * D, min(x))])
        if best == INF:
            return INF
    return best


def dp_concrete(ct, delta):
    delta, D, n = as_fraction(delta), ct.denom, ct.N
    best = Fraction(1)
    for B in events(ct.p):
        x = _event_sums(ct, B)
        total = sum(x)
        # P = total / (n D), Q_i = (total - x_i) / ((n - 1) D)
        up = _need_int((total - delta * n * D) * (n - 1), (total - max(x)) * n)
        down = _need_int((total - min(x)) * n - delta * n * (n - 1) * D, total * (n - 1))
        best = max_ratio([best, up, down])
        if best == INF:
            return INF
    return best


def _event_form(rows, B, weight, delta=Fraction(0)):
    return Form(tuple(sorted((i, l, weight) for i in rows for l in B)), -delta)


def ldp_terms(N, p, delta):
    """``(x_i(B) - delta) / x_j(B)`` for every event and ordered pair of distinct records."""
    delta = as_fraction(delta)
    terms = [Term(_event_form([i], B, Fraction(1), delta), _event_form([j], B, Fraction(1)))
             for B in events(p) for i, j in itertools.permutations(range(N), 2)]
    return LFModel(terms, Fraction(1))


def dp_terms(N, p, delta):
    """``(P(B) - delta) / Q_i(B)`` and ``(Q_i(B) - delta) / P(B)`` for every event and removal."""
    delta = as_fraction(delta)
    rows = list(range(N))
    terms = []
    for B in events(p):
        whole = _event_form(rows, B, Fraction(1, N))
        for i in rows:
            rest = [r for r in rows if r != i]
            part = _event_form(rest, B, Fraction(1, N - 1))
            terms += [Term(_event_form(rows, B, Fraction(1, N), delta), part),
                      Term(_event_form(rest, B, Fraction(1, N - 1), delta), whole)]
    return LFModel(terms, Fraction(1))
