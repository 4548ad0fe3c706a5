"""The z3 backend's region interface (:mod:`implgraph.core.region` asks through it): the term builder
that :class:`~implgraph.solvers.sympy_front.SympyTranslator` writes z3 terms with, the one-shot
satisfiability check of a list of formulas, and :func:`run_check`, every z3 check under a time limit that
means work, not wall time (shared with the other z3 modules).
"""

from __future__ import annotations

import functools
import time

import sympy
import z3

__all__ = ["run_check", "check", "terms", "LOAD_SHARE", "LOAD_RETRIES"]


#: a solver limit met while the process had less than this share of the wall time as CPU (a loaded or
#: paused machine) is given again, up to :data:`LOAD_RETRIES` times: the limits mean work, not wall time,
#: so that a verdict does not depend on what else the machine was doing
LOAD_SHARE = 0.6
LOAD_RETRIES = 3


def run_check(s, timeout_ms, limited=False):
    """``s.check()`` under ``timeout_ms`` of wall time, given again when the limit passed on a loaded machine.

    Parameters
    ----------
    s : z3.Solver or z3.Optimize
    timeout_ms : int
    limited : bool
        ``s`` already stops after ``timeout_ms`` (a solver of a ``z3.TryFor`` tactic, whose limit ends
        the check as ``unknown``, reason ``canceled``); otherwise the limit is set on ``s``.

    Returns
    -------
    z3.CheckSatResult
    """
    if not limited:
        s.set("timeout", int(timeout_ms))
    for _ in range(LOAD_RETRIES + 1):
        cpu, wall = time.process_time(), time.perf_counter()
        r = s.check()
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        if r != z3.unknown or s.reason_unknown() not in ("timeout", "canceled") \
                or wall * 1000 < timeout_ms or cpu >= LOAD_SHARE * wall:
            return r
    return r


# The terms of numerals and variables, made once: building one asks z3 for its sort and name each time
# (a tenth of the time of translating a region's questions). z3 shares equal terms (hash-consing), so a
# memoised term is the very term z3 would build again; the memo lives as long as z3's main context.
@functools.lru_cache(maxsize=100_000)
def _const(q):
    return z3.RealVal(int(q)) if q.q == 1 else z3.RealVal(f"{q.p}/{q.q}")


@functools.lru_cache(maxsize=100_000)
def _real_var(name):
    return z3.Real(name)


@functools.lru_cache(maxsize=100_000)
def _int_var(name):
    return z3.ToReal(z3.Int(name))


# Every term of the region interface is real (numerals and variables are reals, an integer symbol is
# ``ToReal`` of an integer), so ``a + b``, ``a * b``, ``a / b`` and ``a <= b`` need none of z3's coercions:
# the operators' own calls (``Z3_mk_add`` of the two terms, ...) are made directly, without asking z3 for
# both sorts and the result's kind at every step (a twentieth of a cold verify). The terms are the same
# ones the operators build; a term of another sort would make z3 raise, never change a term.
def _real_bin(make, a, b):
    args = (z3.Ast * 2)()
    args[0], args[1] = a.as_ast(), b.as_ast()
    return z3.ArithRef(make(a.ctx_ref(), 2, args), a.ctx)


_REAL_REL = {"<": z3.Z3_mk_lt, "<=": z3.Z3_mk_le, ">": z3.Z3_mk_gt, ">=": z3.Z3_mk_ge}
_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}


class _Terms:
    """The region interface's term builder (see :mod:`implgraph.solvers`) for z3."""

    _REL = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
            ">=": lambda a, b: a >= b, "==": lambda a, b: a == b, "!=": lambda a, b: a != b}

    @staticmethod
    def const(q):
        return _const(sympy.Rational(q))

    @staticmethod
    def real_var(name):
        return _real_var(name)

    @staticmethod
    def int_var(name):
        """An integer symbol, seen as a real term (so every term is real)."""
        return _int_var(name)

    @staticmethod
    def add(xs):
        return functools.reduce(lambda a, b: _real_bin(z3.Z3_mk_add, a, b), xs)

    @staticmethod
    def mul(xs):
        return functools.reduce(lambda a, b: _real_bin(z3.Z3_mk_mul, a, b), xs)

    @staticmethod
    def div(a, b):
        return z3.ArithRef(z3.Z3_mk_div(a.ctx_ref(), a.as_ast(), b.as_ast()), a.ctx)

    @staticmethod
    def ite(c, a, b):
        return z3.If(c, a, b)

    @classmethod
    def rel(cls, op, a, b):
        if op not in _REAL_REL:
            return cls._REL[op](a, b)
        if type(b) is not type(a) and isinstance(b, type(a)):
            # Python asks the right operand first when its class is a subclass (a numeral, RatNumRef, on the
            # right of a term): ``x > 3`` is z3's ``3 < x``
            op, a, b = _FLIP[op], b, a
        return z3.BoolRef(_REAL_REL[op](a.ctx_ref(), a.as_ast(), b.as_ast()), a.ctx)

    @staticmethod
    def and_(xs):
        return z3.And(*xs)

    @staticmethod
    def or_(xs):
        return z3.Or(*xs)

    @staticmethod
    def not_(a):
        return z3.Not(a)

    @staticmethod
    def iff(a, b):
        return a == b

    @staticmethod
    def true():
        return z3.BoolVal(True)

    @staticmethod
    def false():
        return z3.BoolVal(False)


terms = _Terms()


def _exact(v):
    """A z3 numeral as a sympy Rational, or None (irrational or not a numeral)."""
    v = z3.simplify(v)
    if z3.is_int_value(v):
        return sympy.Integer(v.as_long())
    if z3.is_rational_value(v):
        return sympy.Rational(v.numerator_as_long(), v.denominator_as_long())
    return None


def _default_tactic(timeout_ms, ctx):
    """z3's default tactic under a time limit, in ``ctx``: ``z3.Solver()`` answers a one-shot check with a solver of
    this tactic, but also builds (and frees) an incremental SMT core, about 1 ms per query, and setting a solver's
    ``timeout`` parameter costs about 0.3 ms more (``z3.TryFor`` carries the limit in the tactic). Same sat / unsat
    answers; a model may differ (nothing depends on one)."""
    return z3.TryFor(z3.Tactic("default", ctx=ctx), int(timeout_ms), ctx=ctx)


def _nra_tactic(timeout_ms, ctx):
    """z3's nlsat procedure with its preprocessing (``qfnra-nlsat``) under a time limit, in ``ctx``, for a problem over
    the reals (the ``"QF_NRA"`` hint): the branch z3's default tactic takes for such a problem under these limits (its
    first try, nlsat for 5 s, outlasts every limit here), without the probes that choose it (a third of a short check).
    nlsat is a decision procedure for real arithmetic: the same sat / unsat answers; a model may differ."""
    return z3.TryFor(z3.Tactic("qfnra-nlsat", ctx=ctx), int(timeout_ms), ctx=ctx)


def _solver(logic, timeout_ms, ctx):
    """A one-shot solver in ``ctx`` for the hint ``logic`` under ``timeout_ms`` (which the tactic enforces)."""
    if logic == "QF_NRA":
        return _nra_tactic(timeout_ms, ctx).solver()
    if logic:
        s = z3.SolverFor(logic, ctx=ctx)
        s.set("timeout", int(timeout_ms))
        return s
    return _default_tactic(timeout_ms, ctx).solver()


def _assert(s, formulas):
    """``s.add(*formulas)``: a formula already a z3 boolean term is asserted with z3's own call, without
    ``add``'s cast (which asks z3 for its sort each time); anything else goes through ``add``."""
    ref, solver = s.ctx.ref(), s.solver
    for f in formulas:
        if isinstance(f, z3.BoolRef) and f.ctx is s.ctx:
            z3.Z3_solver_assert(ref, solver, f.as_ast())
        else:
            s.add(f)


def check(formulas, timeout_ms, variables, logic=None):
    """Region interface: satisfiability of ``formulas`` within ``timeout_ms``.

    Parameters
    ----------
    formulas : list of z3 BoolRef
    timeout_ms : int
    variables : dict
        ``{key: term}`` whose values a sat answer reports.
    logic : str, optional
        A logic hint: ``"QF_NRA"`` (every variable real) selects z3's nlsat procedure (:func:`_nra_tactic`).

    Returns
    -------
    (status, model)
        ``"sat"`` / ``"unsat"`` / ``"unknown"`` (a timeout is unknown); ``model`` is
        ``{key: sympy.Rational}`` when sat, None when some value is irrational (or not sat).
    """
    # each question in a context of its own (its terms translated into it): z3 (5.4) answers a question after others
    # in one context from what they left there, and there it can run on without end, past its time limit, in
    # arithmetic it does not interrupt (a k-th root of a huge rational while tightening a monomial's bounds): a small
    # query over N, T and three logarithms, sat in 0.04 s on its own, ran on after three answers of itself in one
    # context; in a fresh context each time, 300 answers of it took 3 s. The answer is then the question's alone.
    ctx = z3.Context()
    formulas = [f.translate(ctx) if isinstance(f, z3.AstRef) else f for f in formulas]
    variables = {k: v.translate(ctx) for k, v in variables.items()}
    s = _solver(logic, timeout_ms, ctx)
    _assert(s, formulas)
    r = run_check(s, timeout_ms, limited=True)
    if r == z3.unsat:
        return "unsat", None
    if r != z3.sat:
        if logic == "QF_NRA" and s.reason_unknown() not in ("timeout", "canceled"):
            return check(formulas, timeout_ms, variables)   # outside nlsat's fragment: the default tactic
        return "unknown", None
    try:
        m = s.model()
    except z3.Z3Exception:
        if logic == "QF_NRA":
            return check(formulas, timeout_ms, variables)
        raise
    model = {k: _exact(m.eval(v, model_completion=True)) for k, v in variables.items()}
    return "sat", (None if any(v is None for v in model.values()) else model)
