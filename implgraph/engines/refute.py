"""The refuter: search a concrete table that satisfies A(alpha) and violates B(f(alpha)).

:func:`find_witness` asks the refuter's solver backend (:func:`implgraph.solvers.choose.refuter_backend`)
for a table of N rows with free rational probabilities, A's level as a raw ratio ``T`` (t, or
e^eps). Rows are sorted on bucket a1 (for binary tables bucket a2 is then sorted the other way), so
the extreme subsets of the subset-ratio definitions are prefixes and suffixes. The search goes in
steps: A finite and B infinite (without f); A at sampled raw levels; a free level compared ratio by
ratio; a free level with B's target a rational function of T. Every model is turned into exact
rationals and re-checked with the definitions' exact levels (:func:`witness_check`); a model failing
the re-check is never returned as a witness. A solver ``unknown`` or timeout gives status
``unknown``.

Examples
--------
A table at a finite level refutes "A at any level implies A at its strongest level":

>>> from implgraph import definitions
>>> d = next(d for d in definitions.all_definitions() if not d.params and not d.needs_classes)
>>> best = d.level_from_raw(sympy.Rational(d.level_scale.best_raw))
>>> find_witness(d, d, str(best), N=3).status
'refuted'
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction

import sympy

from implgraph.core.concrete import ConcreteTable
from implgraph.core.errors import InputError
from implgraph.core.verdict import strength_of
from implgraph.engines.witness import canonical_witness
from implgraph.engines.refute_targets import (_definition, _int_params, _level_raw, _rational_above, _rational_below,
                                              raw_target, witness_check)
from implgraph.solvers.choose import refuter_backend
from implgraph.core.simplified import simplified

__all__ = ["RefuteResult", "find_witness", "witness_check", "raw_target", "T_GRID"]

#: raw levels of A tried first (each gives a linear problem), before the free-level query
T_GRID = (Fraction(2), Fraction(3, 2), Fraction(4), Fraction(5, 4), Fraction(11, 10), Fraction(10),
          Fraction(100), Fraction(1))


@dataclass
class RefuteResult:
    """Outcome of :func:`find_witness`.

    Attributes
    ----------
    status : str
        ``refuted`` (an exact witness, re-checked), ``none-found`` (z3 proved that no table of this
        shape exists: ``bound`` says which), ``unknown`` (timeout, or not encodable).
    witness : ConcreteTable or None
    alpha_value : sympy number or None
        A's level at which the witness satisfies A (in A's own units: t, or eps).
    level_a, level_b : sympy numbers or None
        The exact optimal levels of A and B on the witness.
    bound : str
        What was searched, e.g. "N = 6, binary tables".
    """

    status: str
    witness: ConcreteTable | None = None
    alpha_value: object = None
    level_a: object = None
    level_b: object = None
    bound: str = ""
    seconds: float = 0.0
    note: str = ""
    params: dict = field(default_factory=dict)

    @property
    def strength(self) -> str | None:
        """``witness`` for a refutation (:func:`implgraph.core.verdict.strength_of`), else None: a
        search that found nothing establishes nothing."""
        return strength_of("refuted") if self.status == "refuted" else None


def find_witness(a, b, f=None, *, N, a_params=None, b_params=None, alpha=None, alpha_value=None, p=2,
                 classes=None, timeout_ms=2000, values=None, canonical=True) -> RefuteResult:
    """Search a table of ``N`` rows satisfying A(alpha) and violating B(f(alpha)).

    Parameters
    ----------
    a, b : str or Definition
    f : str or sympy expression, optional
        B's level as a function of A's level (symbol ``alpha``, default A's level symbol). With
        ``f=None`` the search is for a table where A's level is finite and B's level infinite.
    N : int
        Number of rows.
    a_params, b_params : dict
        The definitions' parameters (concrete integers).
    alpha_value : optional
        Fix A's level (in A's units); free otherwise.
    p : int
        Number of buckets (2: binary tables, a2 = 1 - a1).
    classes : list of int, optional
        Sizes of consecutive equivalence classes (for a definition with ``needs_classes``).
    timeout_ms : int
        Per solver call.
    values : dict, optional
        Values of the other symbols of ``f`` (``N`` is substituted automatically).
    canonical : bool
        Make a witness canonical (:func:`~implgraph.engines.witness.canonical_witness`: the same table
        whatever model the solver gave). False when only the status is used: the witness is then the
        solver's table (it passes the same exact re-check) and the search is cheaper.

    Returns
    -------
    RefuteResult
    """
    start = time.perf_counter()
    a, b = _definition(a), _definition(b)
    backend = refuter_backend()
    a_params, b_params = _solver_params(a, a_params), _solver_params(b, b_params)
    vals = {"N": N, **(values or {})}
    bound = f"N = {N}, {'binary tables' if p == 2 else f'{p} buckets'}" + (
        f", classes of sizes {list(classes)}" if classes else "")

    def done(status, **kw):
        return RefuteResult(status=status, bound=bound, seconds=round(time.perf_counter() - start, 3),
                            params={**a_params, **b_params, "N": N}, **kw)

    if backend is None:
        return done("unknown", note="no solver backend available")
    if (a.needs_classes or b.needs_classes) and not classes:
        return done("unknown", note="a definition needs equivalence classes: give `classes`")
    q = _Search(backend, backend.TableProblem(N, p, classes), a, b, a_params, b_params, classes, timeout_ms,
                canonical)
    try:
        return _search(q, f, alpha, alpha_value, vals, done)
    except backend.NotEncodable as exc:
        return done("unknown", note=str(exc))


def _solver_params(d, params) -> dict:
    """A definition's parameters as the solver reads them: integers (an InputError otherwise) where it declares a
    z3 encoding; as they are where it declares none (the solver cannot encode it: the search answers unknown)."""
    if getattr(d, "z3_shape", None) is None and getattr(d, "z3_satisfies", None) is None:
        return dict(params or {})
    return _int_params(params)


def _search(q, f, alpha, alpha_value, vals, done) -> RefuteResult:
    """The steps of :func:`find_witness`: A finite and B infinite (``f`` None); else A at sampled raw levels,
    a free level compared ratio by ratio, a free level with B's target a rational function of ``T``.

    Parameters
    ----------
    q : _Search
        The search (the solver's problem, the definitions and their parameters).
    f, alpha, alpha_value
        As in :func:`find_witness`.
    vals : dict
        The values of ``f``'s other symbols (``N`` included).
    done : callable
        The result with a status.

    Returns
    -------
    RefuteResult
    """
    a, b = q.a, q.b
    if f is None:
        return _search_infinite(q, done)
    raw, T = raw_target(a, b, f, alpha=alpha, values=vals)
    if raw.free_symbols - {T}:
        raise InputError(f"f has unknown symbols {sorted(map(str, raw.free_symbols - {T}))}",
                         fix="give their values in `values`")
    check_at = lambda T0: witness_check(a, b, f, a.level_from_raw(T0), q.a_params, q.b_params,  # noqa: E731
                                        values=vals, alpha=alpha)
    return (_search_sampled(q, raw, T, alpha_value, check_at, done)
            or _search_ratios(q, raw, T, check_at, done)
            or _search_free(q, raw, T, check_at, done))


@dataclass
class _Search:
    """One refuter search: the backend, the table problem, A and B with their parameters."""

    backend: object
    problem: object
    a: object
    b: object
    a_params: dict
    b_params: dict
    classes: object
    timeout_ms: int
    canonical: bool = True

    def satisfies(self, T):
        """The table problem with A at raw level <= T."""
        pr = self.problem
        return pr.base + self.backend.encode_satisfies(self.a, pr.rows, T, self.a_params, self.classes, pr.order)

    def violates(self, F):
        pr = self.problem
        return self.backend.encode_violates(self.b, pr.rows, F, self.b_params, self.classes, pr.order)

    def solve(self, cons):
        """``(status, table or None)``: the exact table of a model (None when irrational)."""
        status, model = self.backend.solve(cons, self.timeout_ms)
        return status, (self.problem.table(model) if status == "sat" else None), model

    def refuted(self, done, table, check, alpha_raw=None):
        """The result for a table passing ``check``, made canonical (unless not asked); A's level is the table's own
        unless ``alpha_raw`` is given."""
        if self.canonical:
            table = canonical_witness(table, check)
        ra = _level_raw(table, self.a, self.a_params)
        rb = _level_raw(table, self.b, self.b_params)
        alpha = self.a.level_from_raw(ra if alpha_raw is None else alpha_raw)
        return done("refuted", witness=table, alpha_value=alpha, level_a=self.a.level_from_raw(ra),
                    level_b=sympy.oo if rb is sympy.oo else self.b.level_from_raw(rb))


def _search_infinite(q, done):
    """A finite (at a few raw levels, then free) and B infinite.

    Where A's level is a maximum of ratios (the backend's ``ratio_list``), "A finite and B infinite"
    is first asked as a linear problem (no ratio x/0 of A): unsat there answers for every level at
    once, before the nonlinear free-level query (which may meet its time limit on the same question).
    """
    ok = witness_check(q.a, q.b, None, None, q.a_params, q.b_params)
    pr = q.problem
    ra_list = q.backend.ratio_list(q.a, pr.rows, q.a_params, q.classes, pr.order) \
        if hasattr(q.backend, "finite") else None
    if ra_list is not None:
        status, _, _ = q.solve(pr.base + q.backend.finite(ra_list)
                               + [q.backend.encode_infinite(q.b, pr.rows, q.b_params, q.classes, pr.order)])
        if status == "unsat":
            return done("none-found", note="no table with A finite and B infinite")
    Tv = q.backend.level_var("T")
    for Tfix in list(T_GRID[:4]) + [None]:
        cons = q.satisfies(Tv if Tfix is None else Tfix)
        cons.append(q.backend.encode_infinite(q.b, q.problem.rows, q.b_params, q.classes, q.problem.order))
        if Tfix is None:
            cons.append(Tv >= 1)
        status, table, _ = q.solve(cons)
        if table is not None and ok(table):
            return q.refuted(done, table, ok)
        if Tfix is None:
            if status == "unsat":
                return done("none-found", note="no table with A finite and B infinite")
            return done("unknown", note=f"solver: {status}")
    return done("unknown")


def _search_sampled(q, raw, T, alpha_value, check_at, done):
    """A at the given level, or at the raw levels of :data:`T_GRID`; None: go on with a free level."""
    if alpha_value is not None:
        tries = [simplified(q.a.raw_from_level(sympy.sympify(alpha_value)))]
    else:
        tries = [sympy.Rational(t.numerator, t.denominator) for t in T_GRID]
    for T0 in tries:
        F0 = simplified(raw.subs(T, T0))
        if F0.is_real is False or F0 is sympy.nan or F0 is sympy.oo:
            continue
        status, table, _ = q.solve(q.satisfies(_rational_below(T0)) + [q.violates(_rational_above(F0))])
        if table is not None:
            ok = check_at(T0)
            if ok(table):
                return q.refuted(done, table, ok, alpha_raw=T0)
        if alpha_value is not None:
            if status == "unsat" and T0.is_Rational and F0.is_Rational:
                return done("none-found", note=f"no witness at A's level {q.a.level_from_raw(T0)}")
            return done("unknown", note=f"solver: {status}")
    return None


def _search_ratios(q, raw, T, check_at, done):
    """Free level with f(T) = c T: B's ratios compared with A's directly (T eliminated: the best
    level for a witness is A's own level), one query per ratio of B; None if not applicable."""
    c = simplified(raw / T)
    if not hasattr(q.backend, "ratio_list") or not (c.is_number and c.is_positive) or sympy.Rational(c) != c:
        return None
    pr = q.problem
    ra_list = q.backend.ratio_list(q.a, pr.rows, q.a_params, q.classes, pr.order)
    rb_list = q.backend.ratio_list(q.b, pr.rows, q.b_params, q.classes, pr.order)
    if ra_list is None or rb_list is None:
        return None
    statuses = []
    for cons in q.backend.ratio_queries(pr.base, ra_list, rb_list, c):
        status, table, _ = q.solve(cons)
        statuses.append(status)
        if table is not None:
            ra = _level_raw(table, q.a, q.a_params)
            ok = None if ra is None or ra is sympy.oo else check_at(ra)
            if ok is not None and ok(table):
                return q.refuted(done, table, ok)
    if all(st == "unsat" for st in statuses):
        return done("none-found", note="no table of this shape at any level of A (ratios compared directly)")
    return None


def _rational_coefficients(num, den, T) -> bool:
    """Are ``num`` and ``den`` polynomials in ``T`` with rational coefficients?"""
    try:
        return all(c.is_Rational for part in (num, den) for c in sympy.Poly(sympy.expand(part), T).coeffs())
    except sympy.PolynomialError:
        return False


def _search_free(q, raw, T, check_at, done):
    """Free level: B's raw target a rational function of T, encoded with free raw levels."""
    if not raw.is_rational_function(T):
        return done("unknown", note="f is not a rational function of A's raw level; only sampled levels tried")
    num, den = sympy.fraction(sympy.together(raw))
    if not _rational_coefficients(num, den, T):
        # e.g. e * T^2 (f = 2 ln t + 1): the solver's encoding takes rational coefficients only
        return done("unknown", note="f's coefficients in A's raw level are not all rational; only sampled levels tried")
    Tv, Fv, link = q.backend.rational_target(num, den, T)
    status, table, model = q.solve(q.satisfies(Tv) + link + [q.violates(Fv)])
    if status == "sat":
        tval = q.backend.approx_value(model, Tv)
        if tval is None:
            return done("unknown", note="a model was found but failed the exact re-check")
        T0 = sympy.Rational(tval.numerator, tval.denominator)
        if table is None:
            # algebraic model: fix T at a rational close to it and solve the linear problem
            F0 = simplified(raw.subs(T, T0))
            _, table, _ = q.solve(q.satisfies(T0) + [q.violates(_rational_above(F0))])
        if table is not None:
            # the table's own level of A is at most T0; re-check at T0
            ok = check_at(T0)
            if ok(table):
                return q.refuted(done, table, ok, alpha_raw=T0)
        return done("unknown", note="a model was found but failed the exact re-check")
    if status == "unsat":
        return done("none-found", note="no table of this shape at any level of A")
    return done("unknown", note=f"solver: {status}")
