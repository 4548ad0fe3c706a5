"""The cvc5 backend: the region interface of :mod:`implgraph.solvers` on cvc5's Python API.

Only the region interface (``terms``, ``check``) exists here; the refuter's table encodings are
z3's. Terms live in one module-wide ``TermManager`` and a fresh ``Solver`` answers each check
(logic ``ALL``, models on, nonlinear real arithmetic by cylindrical algebraic coverings, which is
complete for the reals; ``tlimit-per`` is the timeout). Constants are memoised by name and sort, so
two translations mentioning ``x`` share one constant, as z3's do.
"""

from __future__ import annotations

from fractions import Fraction

import cvc5
import sympy
from cvc5 import Kind

from implgraph.solvers import register_backend

__all__ = ["terms", "check"]

_TM = cvc5.TermManager()


class _Terms:
    """The region interface's term builder for cvc5 (every arithmetic term real-sorted)."""

    _REL = {"<": Kind.LT, "<=": Kind.LEQ, ">": Kind.GT, ">=": Kind.GEQ, "==": Kind.EQUAL,
            "!=": Kind.DISTINCT}

    def __init__(self, tm):
        self.tm = tm
        self._consts: dict = {}

    def _const(self, name, sort):
        key = (name, sort.isInteger())
        if key not in self._consts:
            self._consts[key] = self.tm.mkConst(sort, name)
        return self._consts[key]

    def const(self, q):
        q = sympy.Rational(q)
        return self.tm.mkReal(f"{q.p}/{q.q}")

    def real_var(self, name):
        return self._const(name, self.tm.getRealSort())

    def int_var(self, name):
        """An integer symbol, seen as a real term (so every term is real)."""
        return self.tm.mkTerm(Kind.TO_REAL, self._const(name, self.tm.getIntegerSort()))

    def _nary(self, kind, xs):
        return xs[0] if len(xs) == 1 else self.tm.mkTerm(kind, *xs)

    def add(self, xs):
        return self._nary(Kind.ADD, list(xs))

    def mul(self, xs):
        return self._nary(Kind.MULT, list(xs))

    def div(self, a, b):
        return self.tm.mkTerm(Kind.DIVISION, a, b)

    def ite(self, c, a, b):
        return self.tm.mkTerm(Kind.ITE, c, a, b)

    def rel(self, op, a, b):
        return self.tm.mkTerm(self._REL[op], a, b)

    def and_(self, xs):
        xs = list(xs)
        return self.true() if not xs else self._nary(Kind.AND, xs)

    def or_(self, xs):
        xs = list(xs)
        return self.false() if not xs else self._nary(Kind.OR, xs)

    def not_(self, a):
        return self.tm.mkTerm(Kind.NOT, a)

    def iff(self, a, b):
        return self.tm.mkTerm(Kind.EQUAL, a, b)

    def true(self):
        return self.tm.mkTrue()

    def false(self):
        return self.tm.mkFalse()


terms = _Terms(_TM)


def _exact(v):
    """A cvc5 value as a sympy Rational, or None (a real algebraic number or not a numeral)."""
    if v.isIntegerValue():
        return sympy.Integer(int(v.getIntegerValue()))
    if v.isRealValue():
        q = Fraction(v.getRealValue())
        return sympy.Rational(q.numerator, q.denominator)
    return None


def check(formulas, timeout_ms, variables, logic=None):
    """Region interface: satisfiability of ``formulas`` within ``timeout_ms``.

    Parameters
    ----------
    formulas : list of cvc5 Terms
    timeout_ms : int
    variables : dict
        ``{key: term}`` whose values a sat answer reports.
    logic : str, optional
        Ignored (cvc5 runs in logic ``ALL``).

    Returns
    -------
    (status, model)
        ``"sat"`` / ``"unsat"`` / ``"unknown"`` (a timeout or an incomplete answer is unknown);
        ``model`` is ``{key: sympy.Rational}`` when sat, None when a value is irrational.
    """
    s = cvc5.Solver(_TM)
    s.setOption("produce-models", "true")
    s.setOption("nl-cov", "true")
    s.setOption("tlimit-per", str(int(timeout_ms)))
    s.setLogic("ALL")
    for f in formulas:
        s.assertFormula(f)
    r = s.checkSat()
    if r.isUnsat():
        return "unsat", None
    if not r.isSat():
        return "unknown", None
    model = {k: _exact(s.getValue(v)) for k, v in variables.items()}
    return "sat", (None if any(v is None for v in model.values()) else model)


register_backend("cvc5", __import__(__name__, fromlist=["*"]))
