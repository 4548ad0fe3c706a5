"""The points a direction is checked at: parameter values, class sizes and the N sampled.

:func:`_valid_points` yields each point of the parameters at one N where both sides are valid (and a partition of
the class sizes asked for exists); :func:`_in_declared_ranges`, :func:`_validate_sizes` and :func:`_valid_f` refuse
input no point could check; beyond :data:`EXHAUSTIVE_MAX` the sizes and the N are sampled (:func:`sampled_sizes`,
:func:`_block_ns`).
"""

from __future__ import annotations

import functools
import itertools

import sympy

from implgraph.core.errors import InputError
from implgraph.core.formula import parse_expr
from implgraph.definitions.capabilities import family_of
from implgraph.definitions.nodes import N_SYM
from implgraph.engines.bounds import integer_param
from implgraph.engines.lf import partitions_for

__all__ = ["EXHAUSTIVE_MAX", "sampled_sizes"]

EXHAUSTIVE_MAX = 8
"""Largest N at which every partition and every subset is searched; beyond it, tables of two blocks
of equal rows (:mod:`implgraph.engines.blocks`) at a sample of N, and the prover for every N."""


def sampled_sizes(n) -> list:
    """The values of an integer parameter (a group or class size) checked at ``n`` records beyond
    :data:`EXHAUSTIVE_MAX`: 1, 2, 3, n/2, n - 2 and n - 1 (each of 1..n - 1 would make the work grow with n)."""
    return sorted({1, 2, 3, n // 2, n - 2, n - 1})


def _valid_points(a, b, when_c, n, classes, block=False, min_classes=1):
    """``(point, A's params, B's params, min class, max class, point as names -> ints)`` of each point of the
    parameters at N = ``n`` where both sides' parameters are valid and, for a definition with classes, a partition
    into >= ``min_classes`` classes of the sizes asked for exists (``block``: beyond EXHAUSTIVE_MAX, the sampled
    sizes)."""
    a_def, b_def = a.definition, b.definition
    for point in _points([a, b], when_c, n, sampled_sizes(n) if block else None):
        ap, bp = a.at(point), b.at(point)
        try:
            a_def.check_params(None, ap)
            b_def.check_params(None, bp)
            _validate_sizes(a_def, ap, n)
            _validate_sizes(b_def, bp, n)
        except InputError:
            continue
        lo, hi = _class_limits([a.classes_at(point), b.classes_at(point), classes or {}], point)
        if (lo is not None or hi is not None) and (a_def.needs_classes or b_def.needs_classes) \
                and not (_has_partition(n, lo, hi, min_classes) if block else partitions_for(n, lo, hi, min_classes)):
            continue        # no partition into >= min_classes classes of these sizes at this N
        yield point, ap, bp, lo, hi, {str(k): int(v) for k, v in point.items()}


def _in_declared_ranges(nodes, when_c, n_lo, n_hi) -> None:
    """InputError where a node's parameters are numbers (no symbol bound by ``when``) outside the definition's
    declared range at every N from ``n_lo`` to ``n_hi`` (``kdp(k=-1)``, ``kdp(k=1/2)``, or ``kdp(k=10**100)`` at N <= 4):
    nothing would be checked, and a proof for every N would speak of no N asked."""
    for node in nodes:
        if node.free_symbols():
            continue        # a symbol: its values are the conditions' (points outside the ranges are skipped)
        d, why = node.definition, None
        for n in range(n_lo, n_hi + 1):
            params = node.at({N_SYM: n})
            try:
                d.check_params(None, params)
                _validate_sizes(d, params, n)
            except InputError as exc:
                why = why or exc.reason
                continue
            break
        else:
            ranges = "; ".join(f"{k}: {v}" for k, v in d.params.items())
            raise InputError(f"{node.label()}: no valid parameter value at any N from {n_lo} to {n_hi} ({why})",
                             fix=f"give values within {d.name}'s declared ranges ({ranges})"
                             + (" or a larger --N" if n_hi < 100 else ""))


def _valid_f(f_expr, text) -> None:
    """InputError where a conjectured f is no real number at any level: a complex constant (``sqrt(-1)``), an undefined
    value, or a Piecewise without an otherwise piece (undefined where none of its conditions holds)."""
    if f_expr.has(sympy.I, sympy.nan, sympy.zoo):
        raise InputError(f"f = {text} is not a real number",
                         fix="give B's level as a real expression of A's level (e.g. sqrt of a nonnegative expression)")
    for pw in f_expr.atoms(sympy.Piecewise):
        if pw.args[-1].cond is not sympy.true:
            raise InputError(f"f = {text} is undefined where none of the Piecewise's conditions holds",
                             fix="end the Piecewise with an otherwise piece, e.g. Piecewise((t, t > 2), (2, True))")


def _trivial_f(a, b, f_expr, when_c, symbols, alpha):
    """Why f is met by every table (at least as weak as B's weakest level at every level of A:
    :func:`implgraph.engines.prove.trivially_met`), or None."""
    from implgraph.engines import prove
    if f_expr is sympy.oo:      # (no region to read: B's scale alone decides)
        return prove.trivially_met(a.definition, b.definition, "oo", a_params=prove.node_params(a),
                                   b_params=prove.node_params(b), when=list(when_c), symbols=symbols, alpha=alpha)
    syms = dict(symbols)
    syms[alpha.name] = alpha
    return prove.trivially_met(a.definition, b.definition, f_expr, a_params=prove.node_params(a),
                               b_params=prove.node_params(b), when=list(when_c), symbols=syms, alpha=alpha)


def _points(nodes, when, N, values=None):
    syms = set()
    for n in nodes:
        syms |= n.free_symbols()
    for c in when:
        syms |= {s for s in c.free_symbols if s != N_SYM}
    syms = sorted(syms, key=lambda s: s.name)
    for vals in itertools.product(values or range(1, N), repeat=len(syms)):
        point = {N_SYM: N, **dict(zip(syms, vals))}
        if all(bool(sympy.sympify(c).subs(point)) for c in when):
            yield point


def _has_partition(n, lo, hi, min_classes=2):
    """Is there a partition of n records into m >= ``min_classes`` classes of lo..hi records (m lo <= n <= m hi)?"""
    lo, hi = lo or 1, hi or n
    return any(m * lo <= n <= m * hi for m in range(max(min_classes, 1), n // lo + 1))


def _block_ns(n_min, N):
    """The N checked beyond :data:`EXHAUSTIVE_MAX`: 2..4, N/2 and N itself."""
    return sorted(n for n in set(range(2, 5)) | {N // 2, N} if n >= max(n_min, 2))


def _class_limits(specs, point):
    """(min, max) class size at ``point`` from several ``{"min_size", "max_size"}`` specs (the
    largest minimum, the smallest maximum), None where none is given."""
    los = [int(sympy.sympify(c["min_size"]).subs(point)) for c in specs if c.get("min_size") is not None]
    his = [int(sympy.sympify(c["max_size"]).subs(point)) for c in specs if c.get("max_size") is not None]
    return (max(los) if los else None), (min(his) if his else None)


def _class_text(a, b, classes=None, min_classes=1) -> str:
    """How the partitions searched are restricted, for the bound (none where neither side compares classes)."""
    if not (a.definition.needs_classes or b.definition.needs_classes):
        return ""
    specs = [a.class_dict, b.class_dict, classes or {}]
    lo = [str(c["min_size"]) for c in specs if c.get("min_size") is not None]
    hi = [str(c["max_size"]) for c in specs if c.get("max_size") is not None]
    into = "every partition into classes (one class included)" if min_classes < 2 else \
        f"every partition into at least {min_classes} classes"
    if not lo and not hi:
        return into
    parts = ([f">= {' and >= '.join(dict.fromkeys(lo))}"] if lo else []) + (
        [f"<= {' and <= '.join(dict.fromkeys(hi))}"] if hi else [])
    return f"{into}, each of {' and '.join(parts)} records"


def _validate_sizes(d, params, n):
    """InputError where a parameter given as a number lies outside the definition's declared range (``ranges``) at
    ``n`` records, or is not an integer where its declared values are (a group or class size)."""
    for name, (lo, hi) in (getattr(d, "ranges", None) or {}).items():
        if name not in params or name in d.words:
            continue
        v = sympy.sympify(params[name])
        if not v.is_number:
            continue
        if integer_param(d, name) and v.is_integer is not True:
            raise InputError(f"{name} = {v} is not an integer (its declared values are)")
        low, high = (_range_end(x, n) if type(x) in (str, int) else sympy.sympify(x) for x in (lo, hi))
        if not (low <= v) or not (v <= high):
            raise InputError(f"{name} = {v} is outside its range {lo} <= {name} <= {hi} at N = {n}")
    if family_of(d) == "subset":
        k = int(params["k"]) if "k" in params else None
        if k is not None and not 1 <= k <= n - 1:
            raise InputError("k out of range")


@functools.lru_cache(maxsize=4096)
def _range_end(x, n):
    """One end of a declared range (an integer, or the definition's own text in N) at ``n`` records, remembered (every
    point of every instance validates its parameters)."""
    if isinstance(x, str):      # (a plugin's declaration too: read with the project's parser, never sympify)
        return parse_expr(x, {"N": N_SYM}).subs(N_SYM, n)
    return sympy.Integer(x)
