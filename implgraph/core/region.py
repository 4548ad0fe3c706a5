"""Parameter regions and three-valued decisions over them, backed by an SMT solver.

A :class:`Region` is a conjunction of sympy relations over declared symbols (real or integer).
:meth:`Region.decide` answers whether a relation holds on the *whole* region: ``True`` (proved:
the solver found the negation unsatisfiable), ``False`` (its negation holds on the whole region) or ``None``
(it holds on part of the region, or the solver could not tell). ``None`` is never read as a proof.

Non-polynomial pieces (``exp``, ``log``) are abstracted as fresh positive reals; integer symbols
are relaxed to reals when the mixed integer problem is out of reach. Both abstractions are
over-approximations, so they are used only to *prove* (an unsat answer stays sound); a model of an
abstraction is never reported as a point of the region.

The solver is the one registered with :mod:`implgraph.core.backends` (the core declares the interface;
:mod:`implgraph.solvers` fills it with z3 unless ``IMPLGRAPH_SOLVER`` names another, e.g.
``IMPLGRAPH_SOLVER=cvc5``), which also translates the sympy relations.
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass, field

import sympy

from implgraph.core import backends
from implgraph.core.at_point import holds_at as _holds_at
from implgraph.core.backends import Untranslatable as _Untranslatable
from implgraph.core.intervals import interval_unsat, linear_unsat

__all__ = ["Region", "TIMEOUT_MS", "forget_answers"]

TIMEOUT_MS = 1000
STATS: dict = {}   # solver calls by (relaxed?, result) and seconds (for profiling)
INT_TIMEOUT_MS = 300


_TRANSLATIONS: dict = {}


def _translate(cond, kinds, kinds_key, relax, solver):
    key = (cond, kinds_key, relax, solver.name)
    hit = _TRANSLATIONS.get(key)
    if hit is None:
        try:
            hit = (*solver.translate(cond, kinds, relax), None)
        except _Untranslatable as exc:
            hit = (None, (), False, {}, exc)
        if len(_TRANSLATIONS) > 200_000:
            _TRANSLATIONS.clear()
        _TRANSLATIONS[key] = hit
    if hit[4] is not None:
        raise _Untranslatable(str(hit[4]))
    return hit[:4]


MAX_POINTS = 24

_CHECKS: dict = {}   # solver answers by (constraints, kinds, extra, timeout), shared by all regions
_ANSWERS: dict = {}  # the sat / unsat answers among them by (constraints, kinds, extra, backend), any time limit


def forget_answers():
    """Forget every solver answer, translation and abstraction name kept in the process, so that the
    answers (and models) of the questions asked next do not depend on questions asked before: an
    ``unknown`` kept under a time limit, a model found for a stronger query, a sub-expression's name
    numbered in order of first use. A process that answers independent jobs one after another (the
    pair matrix's workers) calls it between jobs."""
    _CHECKS.clear()
    _ANSWERS.clear()
    _TRANSLATIONS.clear()
    backends.forget()


_STRICT = {sympy.StrictGreaterThan: sympy.GreaterThan, sympy.StrictLessThan: sympy.LessThan}
_WEAK = {sympy.GreaterThan: sympy.StrictGreaterThan, sympy.LessThan: sympy.StrictLessThan}


@functools.lru_cache(maxsize=100_000)
def _negation(cond):
    """``Not(cond)``, memoised (negating a relation builds a new one, asking sympy's assumptions)."""
    return sympy.Not(cond)


@functools.lru_cache(maxsize=100_000)
def _strict_pair(cond):
    """(the strict form of a weak inequality, the weak form of a strict one): (None, weak) for
    ``a > b`` and ``a < b``, (strict, None) for ``a >= b`` and ``a <= b``, (None, None) otherwise;
    memoised."""
    kind = type(cond)
    # unevaluated: the forms are cache keys only, and evaluating a relation asks sympy's assumptions
    # about the sign of its sides (up to a tenth of a second on a figure's utility curves)
    if kind in _STRICT:
        return None, _STRICT[kind](*cond.args, evaluate=False)
    if kind in _WEAK:
        return _WEAK[kind](*cond.args, evaluate=False), None
    return None, None


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
    unsatisfiability proof from the solver.
    """

    kinds: dict = field(default_factory=dict, compare=False, hash=False)
    constraints: tuple = ()

    def __post_init__(self):
        object.__setattr__(self, "_cache", {})
        object.__setattr__(self, "_points", [])
        object.__setattr__(self, "_candidates", [])
        object.__setattr__(self, "_forms", {})
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
        """The conjunction of the constraints (built once per region)."""
        cond = self._forms.get("condition")
        if cond is None:
            cond = self._forms["condition"] = sympy.And(*self.constraints) if self.constraints else sympy.true
        return cond

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
    def _base(self, relax, backend):
        """Translated region constraints (cached; shared with sub-regions)."""
        key = (relax, self.constraints, backend.name)
        hit = self._forms.get(key)
        if hit is None:
            forms, side, exact, vars_ = [], [], True, {}
            for c in self.constraints:
                f, s, e, v = _translate(sympy.sympify(c), self.kinds, self._kinds_key, relax, backend)
                forms.append(f)
                side.extend(s)
                exact = exact and e
                vars_.update(v)
            hit = (forms, side, exact, vars_)
            self._forms[key] = hit
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
        """sat / unsat / unknown of region /\\ extra (cached per backend)."""
        backend = backends.get()
        key = (extra, timeout_ms, backend.name)
        if key in self._cache:
            return self._cache[key]
        gkey = (self.constraints, self._kinds_key) + key
        hit = _CHECKS.get(gkey) or self._known_answer(extra, backend.name)
        if hit is not None:
            self._cache[key] = hit
            if hit[1] is not None:
                self._remember(hit[1])
            return hit
        if extra is sympy.false or sympy.false in self.constraints or False in self.constraints:
            result = ("unsat", None)
        elif interval_unsat(self.constraints, self._kinds_key, extra) or \
                linear_unsat(self.constraints, self._kinds_key, extra):
            # the region's own bounds or linear constraints exclude ``extra`` (exact interval arithmetic,
            # Fourier-Motzkin elimination): the answer the solver gives
            STATS["interval-unsat"] = STATS.get("interval-unsat", 0) + 1
            result = ("unsat", None)
        else:
            result = self._solve(extra, timeout_ms, backend)
        self._cache[key] = result
        if len(_CHECKS) > 100_000:
            _CHECKS.clear()
            _ANSWERS.clear()
        _CHECKS[gkey] = result
        if result[0] != "unknown":
            _ANSWERS[(self.constraints, self._kinds_key, extra, backend.name)] = result
        return result

    def _known_answer(self, extra, backend_name):
        """A sat / unsat answer found before under another time limit, or unsat on a larger region.

        Only ``unknown`` depends on the time limit, so a definite answer is reused whatever limit
        it was found under; ``region and extra`` is unsat when it is unsat for a region given by
        a prefix of this region's constraints (a larger region: every sub-region made by
        :meth:`add` extends its parent's constraints), and ``a > b`` is unsat where ``a >= b`` is
        (a sat answer of ``a > b`` answers ``a >= b``). None if nothing is known.
        """
        hit = _ANSWERS.get((self.constraints, self._kinds_key, extra, backend_name))
        if hit is not None:
            return hit
        stronger, weaker = _strict_pair(extra)
        if stronger is not None:
            # a point with a > b has a >= b
            hit = _ANSWERS.get((self.constraints, self._kinds_key, stronger, backend_name))
            if hit is not None and hit[0] == "sat":
                return hit
        for i in range(len(self.constraints), -1, -1):
            for cond in (extra, weaker):
                if cond is None or (i == len(self.constraints) and cond is extra):
                    continue
                hit = _ANSWERS.get((self.constraints[:i], self._kinds_key, cond, backend_name))
                if hit is not None and hit[0] == "unsat":
                    return hit
        return None

    def _solve(self, extra, timeout_ms, backend):
        """Ask ``backend``, trying the real relaxation then the exact integer encoding."""
        has_int = any(kind == "integer" for kind in self.kinds.values())
        # Reals first (nlsat is complete there): unsat over the reals is unsat over the
        # integers; a real model whose integer symbols happen to be integral is a real point.
        for relax in (True, False):
            if not relax and not has_int:
                break
            try:
                forms, side, _, vars_ = self._base(relax, backend)
                f, s_extra, _, v_extra = _translate(sympy.sympify(extra), self.kinds,
                                                          self._kinds_key, relax, backend)
            except _Untranslatable:
                break
            vars_ = {**vars_, **v_extra}
            logic = "QF_NRA" if relax else None     # relaxed: every symbol and abstraction is a real
            limit = TIMEOUT_MS if relax else INT_TIMEOUT_MS
            if timeout_ms is not None:
                limit = min(limit, timeout_ms if relax else max(50, timeout_ms // 3))
            syms = {k: v for k, v in vars_.items() if isinstance(k, sympy.Symbol)}
            _t0 = time.perf_counter()
            r, model = backend.check([*forms, *side, f, *s_extra], limit, syms, logic=logic)
            STATS[(relax, r)] = STATS.get((relax, r), 0) + 1
            STATS[(relax, "seconds")] = STATS.get((relax, "seconds"), 0) + time.perf_counter() - _t0
            if r == "unsat":
                return ("unsat", None)
            if r != "sat":
                continue
            point = self._exact_point(model, relax, any(isinstance(k, tuple) for k in vars_), extra)
            if point is not None:
                self._remember(point)
                return ("sat", point)
            if not has_int:
                break  # nothing left to tighten: the abstraction is the problem
        return ("unknown", None)

    def _exact_point(self, model, relax, abstracted, extra):
        """A point of region /\\ extra from a solver model, or None when the model may not be one
        (irrational, abstracted, or relaxed with non-integral integer symbols that do not round)."""
        if model is None:
            return None
        model = dict(model)
        for sym in self.kinds:
            model.setdefault(sym, sympy.Integer(0))
        integral = all(model[sym].is_Integer for sym in model if self.kinds.get(sym) == "integer")
        if not abstracted and (integral or not relax):
            return model
        point = model if integral else self._rounded(model, extra)
        if point is not None and self._is_point(point, extra):
            return point
        return None

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
        neg, _ = self._check(_negation(cond), timeout_ms=timeout_ms)
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
            c = sympy.sympify(c)
            v = _holds_at(c, point)  # a plain rebuild decides most constraints at once
            if v is None:
                v = c.subs(point)
            if v is sympy.true or v is True:
                continue
            if v is sympy.false or v is False:
                return False
            return None
        return True

    def describe(self) -> str:
        return " and ".join(str(c) for c in self.constraints) or "everywhere"
