"""The sympy front end every solver backend shares.

:class:`SympyTranslator` turns sympy relations over declared real/integer symbols into any
backend's terms (rational functions, Min/Max/Abs/Piecewise; exp, log, sqrt and other powers
abstracted as fresh reals with sound side conditions). :func:`check_sympy` decides a conjunction
with one backend and :func:`cross_check` asks every available backend
(:func:`implgraph.solvers.backends`) and reports whether they agree.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from functools import reduce

import sympy

from implgraph.core.backends import Untranslatable
from implgraph.core.relations import integer_form
from implgraph.solvers import backends, get_backend

__all__ = ["SympyTranslator", "check_sympy", "cross_check", "CrossCheck",
           "SolverConflict"]


_ABSTRACTIONS: dict = {}


def forget_abstractions():
    """Forget the names given so far (the next abstracted sub-expression is ``_0_...`` again)."""
    _ABSTRACTIONS.clear()


def _abstraction_name(expr) -> str:
    """One solver name per abstracted sub-expression, shared by every translation."""
    if expr not in _ABSTRACTIONS:
        _ABSTRACTIONS[expr] = f"_{len(_ABSTRACTIONS)}_{type(expr).__name__}"
    return _ABSTRACTIONS[expr]


class SympyTranslator:
    """sympy -> backend terms for rational functions, Min/Max/Abs/Piecewise; exp/log/roots abstracted.

    Parameters
    ----------
    terms : term builder
        A backend's ``terms`` object.
    kinds : dict
        ``{Symbol: "real" | "integer"}``; undeclared symbols are real.
    relax_integers : bool
        Translate integer symbols as reals (an over-approximation: ``exact`` becomes False).

    Attributes
    ----------
    vars : dict
        ``{Symbol: term}`` and ``{(tag, expr): term}`` for abstractions.
    side : list
        Side conditions of the abstractions (sound facts about exp, log, sqrt).
    exact : bool
        False once an abstraction or a relaxation was used (then only unsat is meaningful).
    """

    def __init__(self, terms, kinds: dict, relax_integers: bool):
        self.t = terms
        self.kinds = kinds
        self.relax = relax_integers
        self.vars: dict = {}
        self.side: list = []
        self.exact = True

    def var(self, sym):
        if sym not in self.vars:
            kind = self.kinds.get(sym, "real")
            if kind == "integer" and not self.relax:
                self.vars[sym] = self.t.int_var(sym.name)
            else:
                self.vars[sym] = self.t.real_var(sym.name)
                if kind == "integer":
                    self.exact = False
        return self.vars[sym]

    def abstract(self, expr, positive=True):
        key = ("abs", expr)
        if key not in self.vars:
            t = self.t
            v = t.real_var(_abstraction_name(expr))
            self.vars[key] = v
            if positive:
                self.side.append(t.rel(">", v, t.const(0)))
            if isinstance(expr, sympy.exp):
                arg = self.expr(expr.args[0])
                # exp(x) >= 1 + x holds for all real x; and exp(x) >= 1 iff x >= 0
                self.side.append(t.rel(">=", v, t.add([t.const(1), arg])))
                self.side.append(t.iff(t.rel(">=", v, t.const(1)), t.rel(">=", arg, t.const(0))))
            self.exact = False
        return self.vars[key]

    def _constant(self, e):
        """A real constant such as e or pi: a fresh real strictly between two rationals 10^-30 apart around it
        (a sound enclosure: an unsat answer holds for the constant itself)."""
        key = ("const", e)
        if key not in self.vars:
            t = self.t
            v = t.real_var(_abstraction_name(e))
            self.vars[key] = v
            mid = sympy.Rational(str(sympy.N(e, 50)))
            gap = sympy.Rational(1, 10 ** 30)
            self.side.append(t.rel(">", v, t.const(mid - gap)))
            self.side.append(t.rel("<", v, t.const(mid + gap)))
            self.exact = False
        return self.vars[key]

    def _log(self, e):
        key = ("log", e)
        if key not in self.vars:
            t = self.t
            v = t.real_var(_abstraction_name(e))
            self.vars[key] = v
            arg = self.expr(e.args[0])
            # log(x) >= 0 iff x >= 1; log(x) <= x - 1
            self.side.append(t.iff(t.rel(">=", v, t.const(0)), t.rel(">=", arg, t.const(1))))
            self.side.append(t.rel("<=", v, t.add([arg, t.const(-1)])))
            self.exact = False
        return self.vars[key]

    def _pow(self, e):
        t = self.t
        base, exp_ = e.args
        if exp_.is_Integer:
            n = int(exp_)
            if n == 0:
                return t.const(1)
            b = self.expr(base)
            p = t.mul([b] * abs(n))
            return p if n > 0 else t.div(t.const(1), p)
        if exp_ == sympy.Rational(1, 2):
            v = self.abstract(e)
            self.side.append(t.rel("==", t.mul([v, v]), self.expr(base)))
            return v
        return self.abstract(e, positive=bool(base.is_positive))

    def _piecewise(self, e):
        out = None
        for value, cond in reversed(e.args):
            v = self.expr(value)
            out = v if out is None or cond is sympy.true else self.t.ite(self.cond(cond), v, out)
        return out

    def expr(self, e):
        """The backend term of a sympy arithmetic expression."""
        e = sympy.sympify(e)
        t = self.t
        if e.is_Rational:
            return t.const(sympy.Rational(e))
        if e.is_Symbol:
            return self.var(e)
        if e.is_Add:
            return t.add([self.expr(a) for a in e.args])
        if e.is_Mul:
            return t.mul([self.expr(a) for a in e.args])
        if e.is_Pow:
            return self._pow(e)
        if isinstance(e, sympy.exp):
            return self.abstract(e)
        if isinstance(e, sympy.NumberSymbol) and e.is_real:
            return self._constant(e)
        if isinstance(e, sympy.log):
            return self._log(e)
        if isinstance(e, (sympy.Max, sympy.Min)):
            op = ">=" if isinstance(e, sympy.Max) else "<="
            return reduce(lambda a, b: t.ite(t.rel(op, a, b), a, b), [self.expr(a) for a in e.args])
        if isinstance(e, sympy.Abs):
            a = self.expr(e.args[0])
            return t.ite(t.rel(">=", a, t.const(0)), a, t.mul([t.const(-1), a]))
        if isinstance(e, sympy.Piecewise):
            return self._piecewise(e)
        raise Untranslatable(str(e))

    def cond(self, c):
        """The backend formula of a sympy condition (relations under And/Or/Not)."""
        t = self.t
        if c is sympy.true or c is True:
            return t.true()
        if c is sympy.false or c is False:
            return t.false()
        if isinstance(c, sympy.And):
            return t.and_([self.cond(a) for a in c.args])
        if isinstance(c, sympy.Or):
            return t.or_([self.cond(a) for a in c.args])
        if isinstance(c, sympy.Not):
            return t.not_(self.cond(c.args[0]))
        if isinstance(c, sympy.Rel):
            op = c.rel_op
            strong = integer_form(c.lhs - c.rhs, self.kinds)
            if strong is not None:
                # integer-valued at every integer point: p > 0 <=> p >= 1 (a sound cut that lets the
                # real relaxation prove integer facts such as k > 2 => k >= 3)
                p = self.expr(strong)
                one, zero, m1 = t.const(1), t.const(0), t.const(-1)
                if op == "!=":
                    return t.or_([t.rel(">=", p, one), t.rel("<=", p, m1)])
                return {"<": lambda: t.rel("<=", p, m1), "<=": lambda: t.rel("<=", p, zero),
                        ">": lambda: t.rel(">=", p, one), ">=": lambda: t.rel(">=", p, zero),
                        "==": lambda: t.rel("==", p, zero)}[op]()
            return t.rel(op, self.expr(c.lhs), self.expr(c.rhs))
        raise Untranslatable(str(c))


def check_sympy(backend, constraints, kinds, timeout_ms=2000, relax_integers=False):
    """Satisfiability of a conjunction of sympy relations with one backend.

    Returns
    -------
    (status, model, exact)
        ``status`` is ``"sat"``, ``"unsat"`` or ``"unknown"``; ``model`` is ``{Symbol: Rational}``
        when sat (None if a value is irrational); ``exact`` is False when an abstraction or a
        relaxation was used (then a sat answer says nothing about the sympy constraints).

    Raises
    ------
    Untranslatable
        A constraint lies outside the translated fragment.
    """
    tr = SympyTranslator(backend.terms, kinds, relax_integers)
    forms = [tr.cond(sympy.sympify(c)) for c in constraints]
    syms = {k: v for k, v in tr.vars.items() if isinstance(k, sympy.Symbol)}
    status, model = backend.check(forms + tr.side, timeout_ms, syms)
    return status, model, tr.exact


class SolverConflict(UserWarning):
    """Two backends gave opposite answers (sat and unsat) on the same problem."""


@dataclass
class CrossCheck:
    """The answers of every available backend on one problem.

    Attributes
    ----------
    answers : dict
        ``{backend: "sat" | "unsat" | "unknown"}``.
    models : dict
        ``{backend: model}`` for the sat answers (``{Symbol: Rational}``, or None if irrational).
    model_ok : dict
        ``{backend: True | False | None}``: whether that sat model satisfies the sympy constraints
        exactly (None: not checkable, e.g. abstracted or irrational).
    exact : bool
        The encoding used no abstraction (a sat answer is about the sympy constraints themselves).
    """

    answers: dict = field(default_factory=dict)
    models: dict = field(default_factory=dict)
    model_ok: dict = field(default_factory=dict)
    exact: bool = True

    @property
    def decided(self) -> set:
        """The definite answers given ({"sat"}, {"unsat"}, both, or none)."""
        return {a for a in self.answers.values() if a in ("sat", "unsat")}

    @property
    def conflict(self) -> bool:
        """One backend said sat and another unsat."""
        return self.decided == {"sat", "unsat"}

    @property
    def agree(self) -> bool:
        """No two backends gave opposite definite answers."""
        return not self.conflict

    @property
    def verdict(self) -> str:
        """``"sat"`` / ``"unsat"`` if some backend decided and none contradicted, ``"unknown"`` if
        none decided, ``"conflict"`` otherwise (never resolved silently)."""
        if self.conflict:
            return "conflict"
        return next(iter(self.decided), "unknown")


def _model_holds(constraints, model):
    if model is None:
        return None
    vals = [sympy.sympify(c).xreplace(model) for c in constraints]
    if all(v is sympy.true for v in vals):
        return True
    if any(v is sympy.false for v in vals):
        return False
    return None


def cross_check(constraints, kinds, timeout_ms=2000, names=None) -> CrossCheck:
    """Ask every available backend (or those in ``names``) whether the constraints are satisfiable.

    Parameters
    ----------
    constraints : iterable of sympy relations
    kinds : dict
        ``{Symbol: "real" | "integer"}``.
    timeout_ms : int
        Per backend; a timeout is ``"unknown"``.
    names : list of str, optional
        The backends to ask (default: every available one with the region interface).

    Returns
    -------
    CrossCheck
        A disagreement (one sat, another unsat) is also issued as a :class:`SolverConflict`
        warning naming the answers, so it cannot pass unnoticed.
    """
    constraints = [sympy.sympify(c) for c in constraints]
    out = CrossCheck()
    for name in names or backends("check"):
        status, model, exact = check_sympy(get_backend(name), constraints, kinds, timeout_ms)
        out.answers[name] = status
        out.exact = out.exact and exact
        if status == "sat":
            out.models[name] = model
            out.model_ok[name] = _model_holds(constraints, model) if exact else None
    if out.conflict:
        warnings.warn(f"solver backends disagree on {constraints!r} over {kinds!r}: {out.answers} "
                      f"(models checked exactly: {out.model_ok})", SolverConflict, stacklevel=2)
    return out
