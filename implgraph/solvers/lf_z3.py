"""z3 for the linear-fractional problems of check-edge (:mod:`implgraph.engines.lf`).

A level is a maximum of linear-fractional forms ``num / den`` of the table's probabilities
(:func:`implgraph.definitions.families.lf_model`). Two questions are asked, both in linear real
arithmetic, which z3 decides exactly:

- :func:`infinite_rows`: a table where every form of A is finite and some form of B infinite;
- :class:`Maximiser`: the largest value of one form of B over tables with A's raw level <= a
  (Charnes-Cooper: variables ``y = s x``, one linear program per form of B).

Models are exact rationals (:class:`fractions.Fraction`); ``"unknown"`` is a timeout, never a
verdict. :func:`implgraph.solvers.choose.lf_backend` chooses this module.
"""

from __future__ import annotations

from fractions import Fraction

import z3

from implgraph.core.concrete import INF
from implgraph.solvers.z3_backend import run_check

__all__ = ["NAME", "context", "infinite_rows", "Maximiser", "LP_TIMEOUT_MS"]

#: the solver's name, for evidence texts
NAME = "z3"

LP_TIMEOUT_MS = 5000


def context():
    """A fresh solver context: one per instance, so the same question always gets the same models."""
    return z3.Context()


def infinite_rows(am, bm, N, p, ctx=None):
    """Rows of a table with A finite and B infinite (Fractions), None (unsat) or ``"unknown"``."""
    x = _vars(N, p, ctx=ctx)
    one = z3.RealVal(1, ctx)
    s = z3.Solver(ctx=ctx)
    for i in range(N):
        s.add(*[v >= 0 for v in x[i]], z3.Sum(x[i]) == 1)
    for t in am.terms:
        s.add(z3.Or(_zform(t.den, x, one, ctx) > 0, _zform(t.num, x, one, ctx) <= 0))
    s.add(z3.Or(*[z3.And(_zform(t.den, x, one, ctx) == 0, _zform(t.num, x, one, ctx) > 0) for t in bm.terms]))
    r = run_check(s, LP_TIMEOUT_MS)
    if r == z3.unsat:
        return None
    if r != z3.sat:
        return "unknown"
    m = s.model()
    return [[_frac(m.eval(x[i][l], model_completion=True)) for l in range(p)] for i in range(N)]


def _zform(form, y, s, ctx=None, key=None):
    """``form`` as a z3 term over ``y`` (``s`` multiplies the constant). With ``key`` (naming the variables:
    their prefix and shape, and ``s``) the term is built once per context and kept on the context object
    itself, so it lives and dies with the context."""
    built = None
    if key is not None and ctx is not None:
        built = ctx.__dict__.setdefault("_implgraph_forms", {})
        hit = built.get((form, key))
        if hit is not None:
            return hit
    parts = [z3.RealVal(_q(c), ctx) * y[i][l] for i, l, c in form.coef]
    if form.const:
        parts.append(z3.RealVal(_q(form.const), ctx) * s)
    term = z3.RealVal(0, ctx) if not parts else (parts[0] if len(parts) == 1 else z3.Sum(parts))
    if built is not None:
        built[(form, key)] = term
    return term


def _q(x) -> str:
    x = Fraction(x)
    return f"{x.numerator}/{x.denominator}"


def _frac(v) -> Fraction:
    v = z3.simplify(v)
    if z3.is_int_value(v):
        return Fraction(v.as_long())
    if z3.is_rational_value(v):
        return Fraction(v.numerator_as_long(), v.denominator_as_long())
    raise ValueError(f"not a rational: {v}")


def _vars(N, p, prefix="x", ctx=None):
    return [[z3.Real(f"{prefix}{i}_{l}", ctx) for l in range(p)] for i in range(N)]


class Maximiser:
    """Tables with A's raw level <= a (Charnes-Cooper variables y = s x); one B form at a time.

    One optimiser holds A's constraints; each :meth:`maximise` adds B's form inside push/pop."""

    def __init__(self, am, a, N, p, ctx):
        self.ctx, self.N, self.p = ctx, N, p
        self.key = ("y", N, p, "s")         # the variables' names: y{i}_{l} and s
        o = self.o = z3.Optimize(ctx=ctx)
        y = self.y = _vars(N, p, "y", ctx)
        s = self.s = z3.Real("s", ctx)
        o.add(s >= 0)
        for i in range(N):
            o.add(*[v >= 0 for v in y[i]], z3.Sum(y[i]) == s)
        av = z3.RealVal(_q(a), ctx)
        for t in am.terms:
            o.add(_zform(t.num, y, s, ctx, self.key) <= av * _zform(t.den, y, s, ctx, self.key))

    def maximise(self, term):
        """``(max num/den, rows)``: ``rows()`` gives the maximising rows (read from the model only when
        asked); ``(None, None)`` if den > 0 is impossible; ``(INF, None)`` if unbounded."""
        o, y, s = self.o, self.y, self.s
        o.push()
        try:
            o.add(_zform(term.den, y, s, self.ctx, self.key) == 1)
            h = o.maximize(_zform(term.num, y, s, self.ctx, self.key))
            r = run_check(o, LP_TIMEOUT_MS)
            if r == z3.unsat:
                return None, None
            if r != z3.sat:
                return "unknown", None
            try:
                v = _frac(h.value())
            except ValueError:
                return INF, None
            m = o.model()

            def rows(m=m):
                sv = _frac(m.eval(s, model_completion=True))
                return [[_frac(m.eval(y[i][l], model_completion=True)) / sv for l in range(self.p)]
                        for i in range(self.N)]
            return v, rows
        finally:
            o.pop()
