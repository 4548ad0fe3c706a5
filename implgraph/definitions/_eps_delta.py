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

The symbolic views and the linear-fractional forms enumerate the ``2^p - 2`` events (at most
:data:`MAX_BUCKETS` buckets). The concrete views do not: every requirement above is, for one
record (DP) or one ordered pair of records (LDP), ``(a(B) - c) / b(B)`` with ``a(B) = sum_{l in B}
a_l`` and ``b(B) = sum_{l in B} b_l`` additive over the buckets (``a_l, b_l >= 0``, ``c >= 0``), and
its largest value over the events is attained on a prefix of the buckets sorted by ``a_l / b_l``
(:func:`prefix_need`), so ``p`` prefixes after one sort replace the ``2^p - 2`` events, once per
distinct row (DP) or pair of distinct rows (LDP). For LDP with more distinct rows than events
(``R > 2^p``, few buckets and many different records) the events are cheaper and are taken
instead, each as the largest and the smallest of its sums over the distinct rows.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import sympy

from implgraph.core.concrete import INF, max_ratio
from implgraph.core.errors import InputError, printable
from implgraph.definitions._classes import argmax_fraction
from implgraph.definitions.base import Definition, read_param
from implgraph.definitions.families import Form, LFModel, Term

__all__ = ["events", "as_fraction", "check_delta", "ldp_symbolic", "ldp_concrete", "dp_symbolic", "dp_concrete",
           "ldp_terms", "dp_terms", "prefix_need", "PARAMS", "RANGES", "KINDS"]

#: the most entries (pairs x buckets) of one block of record pairs in :func:`ldp_concrete`
_PAIR_BLOCK = 1 << 20

PARAMS = {"delta": "additive slack, a rational 0 <= delta < 1"}
#: the most buckets whose 2^p - 2 output events are enumerated
MAX_BUCKETS = 12
RANGES = {"delta": (0, 1)}
KINDS = {"delta": "rational"}


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
    d = read_param(params["delta"], name=f"{name}: delta")
    if not (d.is_Rational and 0 <= d < 1):
        raise InputError(f"{name}: delta = {printable(d)[:60]} is not a rational in [0, 1)", fix="give e.g. delta=1/10")
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


def _sorted_by_ratio(a, b):
    """``a`` and ``b`` with each row's buckets in decreasing ``a_l / b_l``, those with ``b_l = 0`` first.

    Sorted by float keys, then every adjacent pair checked exactly by cross-multiplication; a row
    the floats misorder (near ties) is sorted again with exact Fractions.
    """
    import numpy as np
    zero = b == 0
    with np.errstate(divide="ignore", invalid="ignore"):
        key = np.where(zero, np.inf, a.astype(np.float64) / np.where(zero, 1, b).astype(np.float64))
    order = np.argsort(-key, axis=1, kind="stable")
    a, b = np.take_along_axis(a, order, axis=1), np.take_along_axis(b, order, axis=1)
    ok = (b[:, :-1] == 0) | ((b[:, 1:] != 0) & (a[:, :-1] * b[:, 1:] >= a[:, 1:] * b[:, :-1]))
    for r in np.flatnonzero(~ok.all(axis=1)).tolist():
        pairs = sorted(zip(a[r].tolist(), b[r].tolist()),
                       key=lambda t: (0, 0) if t[1] == 0 else (1, -Fraction(int(t[0]), int(t[1]))))
        a[r], b[r] = [t[0] for t in pairs], [t[1] for t in pairs]
    return a, b


def prefix_need(a, b, c):
    """The largest ``(a(B) - c) / b(B)`` over the non-empty sets ``B`` of buckets, row by row.

    Parameters
    ----------
    a, b : numpy.ndarray
        (R, p) integers >= 0 (int64, or object where products could leave int64); ``a(B)`` is
        the sum of ``a`` over ``B``.
    c : int
        >= 0.

    Returns
    -------
    Fraction, INF or None
        The largest over all rows and sets; a set with ``a(B) - c <= 0`` sets no requirement
        (None when no set does), one with ``b(B) = 0 < a(B) - c`` is INF.

    Notes
    -----
    Sort each row's buckets so that the ``b_l = 0`` ones come first, then by decreasing ``a_l /
    b_l``; the largest value is attained on a prefix of that order, so the ``p`` prefixes are the
    only sets to try.

    *Infinite.* If ``b(B) = 0 < a(B) - c``, every bucket of ``B`` has ``b_l = 0``, so the prefix
    ``Z`` of all such buckets has ``b(Z) = 0`` and ``a(Z) - c >= a(B) - c > 0``.

    *Finite.* Let ``B*`` attain the largest value ``t > 0`` (so ``b(B*) > 0``, ``a(B*) - c = t
    b(B*)``). A bucket ``l`` outside ``B*`` with ``a_l > t b_l`` would raise the value when added
    (``(t b(B*) + a_l) / (b(B*) + b_l) > t``); a bucket inside with ``a_l < t b_l`` would raise it
    when removed (the numerator ``t b(B*) - a_l`` exceeds ``t (b(B*) - b_l)``, and the denominator
    left is positive or the value infinite). Hence ``{a_l > t b_l} <= B* <= {a_l >= t b_l} =: U``,
    and ``a(U) - c = t b(B*) + t b(U \\ B*) = t b(U)``: ``U`` attains ``t`` too. ``U`` is the set of
    buckets whose ratio is at least ``t`` (those with ``b_l = 0`` included), a prefix of the order.

    The whole set of buckets is one of the prefixes; the views call this only where its
    requirement is at most 1 (every row sums to the denominator), below the level's floor of 1.
    """
    import numpy as np
    a, b = _sorted_by_ratio(a, b)
    top = np.cumsum(a, axis=1) - c
    bottom = np.cumsum(b, axis=1)
    need = top > 0
    if bool((need & (bottom == 0)).any()):
        return INF
    mask = need & (bottom > 0)
    if not bool(mask.any()):
        return None
    top, bottom = top[mask], bottom[mask]
    i = argmax_fraction(top, bottom)
    return Fraction(int(top[i]), int(bottom[i]))


def _distinct_rows(ct):
    """The table's distinct rows of numerators (a grouped table's ``rows``, else its records)."""
    import numpy as np
    rows = getattr(ct, "rows", None)
    rows = ct.numer if rows is None else rows
    if rows.dtype != object and len(rows):
        base, p = int(rows.max()) + 1, rows.shape[1]
        if int(rows.min()) >= 0 and base ** p < 2 ** 62:    # each row one integer in base ``base``
            code = rows @ (base ** np.arange(p, dtype=np.int64))
            return rows[np.unique(code, return_index=True)[1]]
        rows = rows[np.lexsort(rows.T[::-1])]              # sorted: equal rows adjacent
        keep = np.concatenate([[True], (rows[1:] != rows[:-1]).any(axis=1)])
        return rows[keep]
    return np.asarray(sorted(set(map(tuple, rows.tolist()))), dtype=object).reshape(-1, rows.shape[1])


def _as_ints(bound, *arrays):
    """The arrays as int64 when every product of two values up to ``bound`` fits, else as Python ints."""
    import numpy as np
    dtype = np.int64 if 4 * bound * bound < 2 ** 62 else object
    return [np.asarray(x).astype(dtype) for x in arrays]


def _ldp_by_events(X, c):
    """``max(1, (max_i x_i(B) - c) / min_j x_j(B))`` over the events, from the distinct rows ``X``."""
    import numpy as np
    p = X.shape[1]
    member = np.zeros((p, 2 ** p - 2), dtype=X.dtype)
    for e, B in enumerate(events(p)):
        member[list(B), e] = 1
    sums = X @ member                                         # (rows, events)
    top, bottom = sums.max(axis=0) - c, sums.min(axis=0)
    need = top > 0
    if bool((need & (bottom == 0)).any()):
        return INF
    mask = need & (bottom > 0)
    if not bool(mask.any()):
        return Fraction(1)
    top, bottom = top[mask], bottom[mask]
    i = argmax_fraction(top, bottom)
    return max(Fraction(1), Fraction(int(top[i]), int(bottom[i])))


def ldp_concrete(ct, delta):
    """``max(1, (x_i(B) - delta) / x_j(B))`` over the ordered pairs of distinct rows and the events.

    With ``delta = u / v`` the pair ``(i, j)`` is :func:`prefix_need` of ``a = v x_i``, ``b = v
    x_j``, ``c = u D`` (numerators over ``D``); the pairs are taken in blocks of rows ``i``. With
    more distinct rows than events the events are enumerated instead (:func:`_ldp_by_events`).
    """
    import numpy as np
    delta, D = as_fraction(delta), ct.denom
    u, v = delta.numerator, delta.denominator
    X = _distinct_rows(ct)
    R, p = X.shape
    (X,) = _as_ints(p * v * D + u * D, X.astype(object) * v)
    if p <= MAX_BUCKETS and 2 ** p < R:
        return _ldp_by_events(X, u * D)
    best = [Fraction(1)]
    step = max(1, _PAIR_BLOCK // max(1, R * p))
    for start in range(0, R, step):
        rows = np.arange(start, min(R, start + step))
        a = np.repeat(X[rows], R, axis=0)
        b = np.tile(X, (len(rows), 1))
        best = [max_ratio(best + [prefix_need(a, b, u * D)])]
        if best[0] == INF:
            return INF
    return best[0]


def dp_concrete(ct, delta):
    """``max(1, up, down)`` over the distinct rows ``x_i`` (record removal; ``T`` the bucket totals).

    With ``P(B) = T(B) / (n D)``, ``Q_i(B) = (T(B) - x_i(B)) / ((n - 1) D)`` and ``delta = u / v``:
    ``(P - delta) / Q_i`` is :func:`prefix_need` of ``a = v (n - 1) T``, ``b = v n (T - x_i)``,
    ``c = u n (n - 1) D``, and ``(Q_i - delta) / P`` of ``a = v n (T - x_i)``, ``b = v (n - 1) T``
    with the same ``c``.
    """
    import numpy as np
    delta, D, n = as_fraction(delta), ct.denom, ct.N
    u, v = delta.numerator, delta.denominator
    X = _distinct_rows(ct)
    T = np.asarray([ct.total(l) for l in range(ct.p)], dtype=object)
    c = u * n * (n - 1) * D
    whole = v * (n - 1) * T[None, :] + 0 * X
    part = v * n * (T[None, :] - X)
    whole, part = _as_ints(ct.p * v * n * n * D + c, whole, part)
    return max_ratio([Fraction(1), prefix_need(whole, part, c), prefix_need(part, whole, c)])


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


class EpsDeltaDefinition(Definition):
    """What (eps, delta)-DP and (eps, delta)-LDP declare alike; a subclass names its three views
    (``views = (symbolic, concrete, lf_terms)``, functions of this module)."""

    level_symbol = "eps"
    scale = "log"
    stronger = "smaller"
    params = PARAMS
    ranges = RANGES
    param_kinds = KINDS
    model = "dp"
    views: tuple = ()

    def check_params(self, table, params):
        return check_delta(self.name, params)

    def param_values(self, N):
        return [{"delta": as_fraction("1/10")}]

    def symbolic(self, ctx, table, delta):
        return type(self).views[0](ctx, table, delta)

    def concrete(self, ct, delta):
        return type(self).views[1](ct, delta)

    def lf_terms(self, N, sizes, p, delta):
        return type(self).views[2](N, p, delta)
