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
    """Rows of a table with A finite and B infinite (Fractions), None (unsat) or ``"unknown"``; with ``bm`` None,
    of a table with A finite."""
    x, one, rows = _rows(N, p, ctx)
    zero = _real(0, ctx)
    key = ("x", N, p, "1")
    s = z3.Solver(ctx=ctx)
    for c in rows:
        s.add(c)
    for t in am.terms:
        s.add(_bool(z3.Z3_mk_or, _bool(z3.Z3_mk_gt, _zform(t.den, x, one, ctx, key), zero),
                    _bool(z3.Z3_mk_le, _zform(t.num, x, one, ctx, key), zero)))
    if bm is not None:
        s.add(_bool(z3.Z3_mk_or, *[_bool(z3.Z3_mk_and, _bool(z3.Z3_mk_eq, _zform(t.den, x, one, ctx, key), zero),
                                         _bool(z3.Z3_mk_gt, _zform(t.num, x, one, ctx, key), zero))
                                   for t in bm.terms]))
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
    parts = [_times(_real(c, ctx), y[i][l]) for i, l, c in form.coef]
    if form.const:
        parts.append(_times(_real(form.const, ctx), s))
    term = z3.RealVal(0, ctx) if not parts else (parts[0] if len(parts) == 1 else _sum(parts))
    if built is not None:
        built[(form, key)] = term
    return term


# The terms are built with z3's C API directly: the same terms ``c * y`` and ``z3.Sum`` make (z3 shares
# equal terms, so the solver sees the same problem), without the Python API's coercion of every operand,
# which was a fifth of a slow pair's time. Every operand here is a real term of one context.

def _real(x, ctx):
    """The real constant ``x`` (a Fraction) of ``ctx``, made once per context."""
    key = ctx if ctx is not None else z3.main_ctx()
    made = key.__dict__.setdefault("_implgraph_reals", {})
    v = made.get(x)
    if v is None:
        v = made[x] = z3.RealVal(_q(x), ctx)
    return v


def _times(c, v):
    """``c * v`` of two real terms, as ``z3.ArithRef.__mul__`` makes it."""
    args = (z3.Ast * 2)(c.as_ast(), v.as_ast())
    return z3.ArithRef(z3.Z3_mk_mul(v.ctx.ref(), 2, args), v.ctx)


def _sum(parts):
    """``z3.Sum(parts)`` of real terms of one context."""
    args = (z3.Ast * len(parts))(*(x.as_ast() for x in parts))
    return z3.ArithRef(z3.Z3_mk_add(parts[0].ctx.ref(), len(parts), args), parts[0].ctx)


def _le(a, b):
    """``a <= b`` of two real terms, as ``z3.ArithRef.__le__`` makes it."""
    return z3.BoolRef(z3.Z3_mk_le(a.ctx.ref(), a.as_ast(), b.as_ast()), a.ctx)


_NARY = (z3.Z3_mk_or, z3.Z3_mk_and)


def _bool(make, *args):
    """The Boolean term ``make`` gives for ``args`` (terms of one context): a comparison of two real terms
    (``Z3_mk_gt``, ``Z3_mk_le``, ``Z3_mk_eq``, as the operators make it) or ``z3.Or``/``z3.And``."""
    ctx = args[0].ctx
    if make in _NARY:
        arr = (z3.Ast * len(args))(*(x.as_ast() for x in args))
        return z3.BoolRef(make(ctx.ref(), len(args), arr), ctx)
    return z3.BoolRef(make(ctx.ref(), args[0].as_ast(), args[1].as_ast()), ctx)


def _rows(N, p, ctx):
    """``(x, 1, constraints)`` of a table's rows, made once per context: ``x{i}_{l} >= 0`` and
    ``sum_l x{i}_l == 1`` for each row, in that order."""
    key = ctx if ctx is not None else z3.main_ctx()
    made = key.__dict__.setdefault("_implgraph_rows", {})
    hit = made.get(("x", N, p))
    if hit is None:
        x = _vars(N, p, ctx=ctx)
        rows = []
        for i in range(N):
            rows += [v >= 0 for v in x[i]] + [z3.Sum(x[i]) == 1]
        hit = made[("x", N, p)] = (x, z3.RealVal(1, ctx), rows)
    return hit


def _assert(o, c):
    """``o.add(c)`` for one Boolean term ``c`` of the optimiser's context."""
    z3.Z3_optimize_assert(o.ctx.ref(), o.optimize, c.as_ast())


def _scaled_rows(N, p, ctx):
    """``(y, s, constraints)`` of the Charnes-Cooper rows, made once per context: the variables
    ``y{i}_{l}`` and ``s``, and ``s >= 0``, then for each row ``y{i}_l >= 0`` and ``sum_l y{i}_l == s``
    (in this order: the order the optimiser is given them)."""
    key = ctx if ctx is not None else z3.main_ctx()
    made = key.__dict__.setdefault("_implgraph_rows", {})
    hit = made.get((N, p))
    if hit is None:
        y = _vars(N, p, "y", ctx)
        s = z3.Real("s", ctx)
        rows = [s >= 0]
        for i in range(N):
            rows += [v >= 0 for v in y[i]] + [z3.Sum(y[i]) == s]
        hit = made[(N, p)] = (y, s, rows)
    return hit


def _q(x) -> str:
    x = Fraction(x)
    return f"{x.numerator}/{x.denominator}"


def _frac(v) -> Fraction:
    if not (z3.is_int_value(v) or z3.is_rational_value(v)):
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
        y, s, rows = _scaled_rows(N, p, ctx)
        self.y, self.s = y, s
        for c in rows:
            _assert(o, c)
        av = _real(Fraction(a), ctx)
        for t in am.terms:
            _assert(o, _le(_zform(t.num, y, s, ctx, self.key), _times(av, _zform(t.den, y, s, ctx, self.key))))

    def maximise(self, term):
        """``(max num/den, rows)``: ``rows()`` gives the maximising rows (read from the model only when
        asked); ``(None, None)`` if den > 0 is impossible; ``(INF, None)`` if unbounded."""
        o, y, s = self.o, self.y, self.s
        o.push()
        try:
            _assert(o, _bool(z3.Z3_mk_eq, _zform(term.den, y, s, self.ctx, self.key), _real(1, self.ctx)))
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
