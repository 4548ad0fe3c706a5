"""Parameter regions and three-valued decisions over them, backed by z3.

A :class:`Region` is a conjunction of sympy relations over declared symbols (real or integer).
:meth:`Region.decide` answers whether a relation holds on the *whole* region: ``True`` (proved:
z3 found the negation unsatisfiable), ``False`` (its negation holds on the whole region) or ``None``
(it holds on part of the region, or the solver could not tell). ``None`` is never read as a proof.

Non-polynomial pieces (``exp``, ``log``) are abstracted as fresh positive reals; integer symbols
are relaxed to reals when the mixed integer problem is out of reach. Both abstractions are
over-approximations, so they are used only to *prove* (an unsat answer stays sound); a model of an
abstraction is never reported as a point of the region.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction
from functools import reduce

import sympy
import z3

__all__ = ["Region", "to_z3", "TIMEOUT_MS"]

TIMEOUT_MS = 1000
STATS: dict = {}   # solver calls by (relaxed?, result) and seconds (for profiling)
INT_TIMEOUT_MS = 300


class _Untranslatable(Exception):
    pass


class _Translator:
    """sympy -> z3 for rational functions, Min/Max/Abs/Piecewise; exp/log abstracted."""

    def __init__(self, kinds: dict[sympy.Symbol, str], relax_integers: bool):
        self.kinds = kinds
        self.relax = relax_integers
        self.vars: dict = {}
        self.side: list = []          # side conditions of abstractions
        self.exact = True             # False once an abstraction was used

    def var(self, sym):
        if sym not in self.vars:
            kind = self.kinds.get(sym, "real")
            if kind == "integer" and not self.relax:
                self.vars[sym] = z3.ToReal(z3.Int(sym.name))
            else:
                self.vars[sym] = z3.Real(sym.name)
                if kind == "integer":
                    self.exact = False
        return self.vars[sym]

    def abstract(self, expr, positive=True):
        key = ("abs", expr)
        if key not in self.vars:
            v = z3.Real(_abstraction_name(expr))
            self.vars[key] = v
            if positive:
                self.side.append(v > 0)
            if isinstance(expr, sympy.exp):
                arg = self.expr(expr.args[0])
                # exp(x) >= 1 + x holds for all real x; and exp(x) >= 1 iff x >= 0
                self.side.append(v >= 1 + arg)
                self.side.append((v >= 1) == (arg >= 0))
            self.exact = False
        return self.vars[key]

    def expr(self, e):
        e = sympy.sympify(e)
        if e.is_Integer:
            return z3.RealVal(int(e))
        if e.is_Rational:
            return z3.RealVal(f"{e.p}/{e.q}")
        if e.is_Symbol:
            return self.var(e)
        if e.is_Add:
            return reduce(lambda a, b: a + b, [self.expr(a) for a in e.args])
        if e.is_Mul:
            return reduce(lambda a, b: a * b, [self.expr(a) for a in e.args])
        if e.is_Pow:
            base, exp_ = e.args
            if exp_.is_Integer:
                n = int(exp_)
                b = self.expr(base)
                if n == 0:
                    return z3.RealVal(1)
                p = reduce(lambda x, y: x * y, [b] * abs(n))
                return p if n > 0 else 1 / p
            if exp_ == sympy.Rational(1, 2):
                v = self.abstract(e)
                self.side.append(v * v == self.expr(base))
                return v
            return self.abstract(e, positive=bool(base.is_positive))
        if isinstance(e, sympy.exp):
            return self.abstract(e)
        if isinstance(e, sympy.log):
            key = ("log", e)
            if key not in self.vars:
                v = z3.Real(_abstraction_name(e))
                self.vars[key] = v
                arg = self.expr(e.args[0])
                self.side.append((v >= 0) == (arg >= 1))
                self.side.append(v <= arg - 1)
                self.exact = False
            return self.vars[key]
        if isinstance(e, sympy.Max):
            return reduce(lambda a, b: z3.If(a >= b, a, b), [self.expr(a) for a in e.args])
        if isinstance(e, sympy.Min):
            return reduce(lambda a, b: z3.If(a <= b, a, b), [self.expr(a) for a in e.args])
        if isinstance(e, sympy.Abs):
            a = self.expr(e.args[0])
            return z3.If(a >= 0, a, -a)
        if isinstance(e, sympy.Piecewise):
            out = None
            for value, cond in reversed(e.args):
                v = self.expr(value)
                out = v if out is None or cond is sympy.true else z3.If(self.cond(cond), v, out)
            return out
        raise _Untranslatable(str(e))

    def cond(self, c):
        if c is sympy.true or c is True:
            return z3.BoolVal(True)
        if c is sympy.false or c is False:
            return z3.BoolVal(False)
        if isinstance(c, sympy.And):
            return z3.And(*[self.cond(a) for a in c.args])
        if isinstance(c, sympy.Or):
            return z3.Or(*[self.cond(a) for a in c.args])
        if isinstance(c, sympy.Not):
            return z3.Not(self.cond(c.args[0]))
        if isinstance(c, sympy.Rel):
            op = c.rel_op
            strong = integer_form(c.lhs - c.rhs, self.kinds)
            if strong is not None:
                # integer-valued at every integer point: p > 0 <=> p >= 1 (a sound cut that lets the
                # real relaxation prove integer facts such as k > 2 => k >= 3)
                p = self.expr(strong)
                return {"<": p <= -1, "<=": p <= 0, ">": p >= 1, ">=": p >= 0, "==": p == 0,
                        "!=": z3.Or(p >= 1, p <= -1)}[op]
            a, b = self.expr(c.lhs), self.expr(c.rhs)
            return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b, "==": a == b, "!=": a != b}[op]
        raise _Untranslatable(str(c))


_ABSTRACTIONS: dict = {}


def _abstraction_name(expr) -> str:
    """One z3 name per abstracted sub-expression, shared by every translation."""
    if expr not in _ABSTRACTIONS:
        _ABSTRACTIONS[expr] = f"_{len(_ABSTRACTIONS)}_{type(expr).__name__}"
    return _ABSTRACTIONS[expr]


def integer_form(e, kinds):
    """``L*e`` with integer coefficients if ``e`` is a polynomial in integer symbols only, else None.

    ``L > 0`` clears the denominators, so ``L*e`` is an integer at every integer point and has the
    sign of ``e``.
    """
    e = sympy.sympify(e)
    syms = e.free_symbols
    if not syms or any(kinds.get(s) != "integer" for s in syms):
        return None
    try:
        poly = sympy.Poly(e, *sorted(syms, key=lambda s: s.name))
    except sympy.PolynomialError:
        return None
    if not poly.domain.is_QQ and not poly.domain.is_ZZ:
        return None
    den = 1
    for c in poly.coeffs():
        den = sympy.ilcm(den, sympy.Rational(c).q)
    return sympy.expand(e * den)


_TRANSLATIONS: dict = {}


def _translate(cond, kinds, kinds_key, relax):
    key = (cond, kinds_key, relax)
    hit = _TRANSLATIONS.get(key)
    if hit is None:
        t = _Translator(kinds, relax)
        try:
            f = t.cond(cond)
            hit = (f, tuple(t.side), t.exact, dict(t.vars), None)
        except _Untranslatable as exc:
            hit = (None, (), False, {}, exc)
        if len(_TRANSLATIONS) > 200_000:
            _TRANSLATIONS.clear()
        _TRANSLATIONS[key] = hit
    if hit[4] is not None:
        raise _Untranslatable(str(hit[4]))
    return hit[:4]


def to_z3(cond, kinds, relax_integers=False):
    """Translate a sympy condition; returns (z3 formula, side conditions, exact flag, vars)."""
    t = _Translator(kinds, relax_integers)
    f = t.cond(cond)
    return f, t.side, t.exact, t.vars


def _rational(v) -> sympy.Rational:
    if z3.is_int_value(v):
        return sympy.Integer(v.as_long())
    if z3.is_rational_value(v):
        return sympy.Rational(v.numerator_as_long(), v.denominator_as_long())
    if z3.is_algebraic_value(v):
        raise _Untranslatable("irrational model value")
    raise _Untranslatable(str(v))


MAX_POINTS = 24
USE_NRA = 0

_CHECKS: dict = {}   # solver answers by (constraints, kinds, extra, timeout), shared by all regions


def _holds_at(cond, point) -> bool | None:
    """Exact truth value of a sympy condition at a rational point (None: not decidable there)."""
    try:
        v = cond.xreplace(point)
    except Exception:  # pragma: no cover - defensive: odd expressions
        return None
    if v is sympy.true or v is True:
        return True
    if v is sympy.false or v is False:
        return False
    return None


@dataclass(frozen=True)
class Region:
    """A conjunction of constraints over declared symbols.

    Parameters
    ----------
    kinds : dict
        ``{Symbol: "real" | "integer"}`` for every symbol the region may mention.
    constraints : tuple
        sympy relations (or booleans) whose conjunction is the region.

    Notes
    -----
    A region remembers a few exact points of itself (integer symbols integral), taken from solver
    models. :meth:`decide` answers None at once when two of them disagree on the condition (the
    condition then varies on the region, which is what None means); True and False always need an
    unsatisfiability proof from z3.
    """

    kinds: dict = field(default_factory=dict, compare=False, hash=False)
    constraints: tuple = ()

    def __post_init__(self):
        object.__setattr__(self, "_cache", {})
        object.__setattr__(self, "_points", [])
        object.__setattr__(self, "_candidates", [])
        object.__setattr__(self, "_z3", {})
        object.__setattr__(self, "_kinds_key",
                           tuple(sorted((s.name, k) for s, k in self.kinds.items())))

    # -- construction -----------------------------------------------------------------------
    def add(self, *conds) -> "Region":
        new = [c for c in conds if c is not sympy.true and c is not True]
        child = Region(self.kinds, self.constraints + tuple(new))
        # the parent's points are candidates for the child (filtered on first use)
        object.__setattr__(child, "_candidates", [(p, tuple(new)) for p in self.points()])
        return child

    def with_symbols(self, kinds: dict) -> "Region":
        merged = dict(self.kinds)
        merged.update(kinds)
        return Region(merged, self.constraints)

    @property
    def condition(self):
        return sympy.And(*self.constraints) if self.constraints else sympy.true

    # -- sample points --------------------------------------------------------------------------
    def points(self) -> list:
        """Exact points of the region known so far (never a guess)."""
        if self._candidates:
            for point, new in self._candidates:
                if all(_holds_at(sympy.sympify(c), point) is True for c in new):
                    self._remember(point)
            self._candidates.clear()
        return self._points

    def _remember(self, point):
        if point is None or len(self._points) >= MAX_POINTS:
            return
        if any(self.kinds.get(s) == "integer" and not v.is_Integer for s, v in point.items()):
            return
        if point not in self._points:
            self._points.append(point)

    def _is_point(self, point, extra) -> bool:
        """Exact check that ``point`` satisfies the region and ``extra``."""
        if any(s not in point for s in self.kinds):
            return False
        conds = list(self.constraints) + [extra]
        return all(_holds_at(sympy.sympify(c), point) is True for c in conds)

    # -- solving ----------------------------------------------------------------------------
    def _base(self, relax):
        """Translated region constraints (cached; shared with sub-regions)."""
        key = (relax, self.constraints)
        hit = self._z3.get(key)
        if hit is None:
            forms, side, exact, vars_ = [], [], True, {}
            for c in self.constraints:
                f, s, e, v = _translate(sympy.sympify(c), self.kinds, self._kinds_key, relax)
                forms.append(f)
                side.extend(s)
                exact = exact and e
                vars_.update(v)
            hit = (forms, side, exact, vars_)
            self._z3[key] = hit
        return hit

    def _rounded(self, model, extra):
        """An exact point near a non-integral real model (floor/ceiling of the integer symbols)."""
        ints = [s for s in model if self.kinds.get(s) == "integer" and not model[s].is_Integer]
        if not ints or len(ints) > 4:
            return None
        import itertools
        for choice in itertools.product((sympy.floor, sympy.ceiling), repeat=len(ints)):
            point = dict(model)
            for s, f in zip(ints, choice):
                point[s] = sympy.Integer(f(model[s]))
            if self._is_point(point, extra):
                return point
        return None

    def _check(self, extra, want_model=False, timeout_ms=None):
        """sat / unsat / unknown of region /\\ extra, trying exact then relaxed encodings."""
        key = (extra, timeout_ms)
        if key in self._cache:
            return self._cache[key]
        gkey = (self.constraints, self._kinds_key, extra, timeout_ms)
        hit = _CHECKS.get(gkey)
        if hit is not None:
            self._cache[key] = hit
            if hit[1] is not None:
                self._remember(hit[1])
            return hit
        if extra is sympy.false or sympy.false in self.constraints or False in self.constraints:
            result = ("unsat", None)
        else:
            result = ("unknown", None)
            has_int = any(kind == "integer" for kind in self.kinds.values())
            # Reals first (nlsat is complete there): unsat over the reals is unsat over the
            # integers; a real model whose integer symbols happen to be integral is a real point.
            for relax in (True, False):
                if not relax and not has_int:
                    break
                try:
                    forms, side, exact, vars_ = self._base(relax)
                    f, s_extra, e_extra, v_extra = _translate(sympy.sympify(extra), self.kinds,
                                                              self._kinds_key, relax)
                except _Untranslatable:
                    break
                vars_ = {**vars_, **v_extra}
                s = z3.SolverFor("QF_NRA") if USE_NRA and relax and exact and e_extra else z3.Solver()
                limit = TIMEOUT_MS if relax else INT_TIMEOUT_MS
                if timeout_ms is not None:
                    limit = min(limit, timeout_ms if relax else max(50, timeout_ms // 3))
                s.set("timeout", limit)
                s.add(*forms, *side, f, *s_extra)
                _t0 = time.perf_counter()
                r = s.check()
                STATS[(relax, str(r))] = STATS.get((relax, str(r)), 0) + 1
                STATS[(relax, "seconds")] = STATS.get((relax, "seconds"), 0) + time.perf_counter() - _t0
                if r == z3.unsat:
                    result = ("unsat", None)
                    break
                if r == z3.sat:
                    model = self._model(s.model(), vars_)
                    if model is not None:
                        for sym in self.kinds:
                            model.setdefault(sym, sympy.Integer(0))
                    abstracted = any(isinstance(k, tuple) for k in vars_)
                    integral = model is not None and all(
                        model[sym].is_Integer for sym in model if self.kinds.get(sym) == "integer")
                    if model is not None and not abstracted and (integral or not relax):
                        self._remember(model)
                        result = ("sat", model)
                        break
                    if model is not None:
                        point = model if integral else self._rounded(model, extra)
                        if point is not None and self._is_point(point, extra):
                            self._remember(point)
                            result = ("sat", point)
                            break
                    if not has_int:
                        break  # nothing left to tighten: the abstraction is the problem
        self._cache[key] = result
        if len(_CHECKS) > 100_000:
            _CHECKS.clear()
        _CHECKS[gkey] = result
        return result

    def _model(self, model, vars_):
        point = {}
        for sym, v in vars_.items():
            if not isinstance(sym, sympy.Symbol):
                continue
            val = model.eval(v, model_completion=True)
            try:
                point[sym] = _rational(z3.simplify(val))
            except _Untranslatable:
                return None
        return point

    def is_empty(self):
        """True if the region is provably empty, False if it has a point, None if unknown."""
        if self.points():
            return False
        status, _ = self._check(sympy.true)
        return {"unsat": True, "sat": False}.get(status)

    def decide(self, cond, timeout_ms=None):
        """Three-valued: does ``cond`` hold on the whole region?

        Returns True (proved for every point), False (its negation holds at every point),
        or None (both occur, or the solver could not decide). ``timeout_ms`` caps each solver
        call (a cheap probe; a timeout is an unknown, never a proof).
        """
        cond = sympy.sympify(cond)
        if cond is sympy.true:
            return True
        if cond is sympy.false:
            return False
        seen = {_holds_at(cond, p) for p in self.points()}
        if True in seen and False in seen:
            return None          # two exact points of the region disagree: it varies
        if False in seen:
            # the negation holds somewhere: only False is still possible
            pos, _ = self._check(cond, timeout_ms=timeout_ms)
            return False if pos == "unsat" else None
        neg, _ = self._check(sympy.Not(cond), timeout_ms=timeout_ms)
        if neg == "unsat":
            return True
        if True in seen:
            return None
        pos, _ = self._check(cond, timeout_ms=timeout_ms)
        if pos == "unsat":
            return False
        return None

    def find_point(self, extra=sympy.true):
        """An exact rational point of region /\\ extra, or None if none was found."""
        extra = sympy.sympify(extra)
        for p in self.points():
            if _holds_at(extra, p) is True:
                return dict(p)
        status, model = self._check(extra, want_model=True)
        if status != "sat" or model is None:
            return None
        model = dict(model)
        for sym in self.kinds:
            model.setdefault(sym, sympy.Integer(1) if self.kinds[sym] == "integer" else sympy.Rational(1, 3))
        return model

    def contains(self, point: dict) -> bool | None:
        """Exact membership of a rational point (decided with sympy, no solver)."""
        for c in self.constraints:
            v = sympy.sympify(c).subs(point)
            if v is sympy.true:
                continue
            if v is sympy.false:
                return False
            return None
        return True

    def describe(self) -> str:
        return " and ".join(str(c) for c in self.constraints) or "everywhere"
