"""The refuter: search a concrete table that satisfies A(alpha) and violates B(f(alpha)).

:func:`find_witness` encodes a table of N rows with free rational probabilities (z3 reals), the
level of A as a raw ratio ``T`` (t, or e^eps), and asks z3 for a model. Rows are sorted on bucket
a1 (for binary tables bucket a2 is then sorted the other way), so the extreme subsets of the
subset-ratio definitions are prefixes and suffixes. Every model is turned into exact rationals and
re-checked with the core's exact levels (:func:`is_witness`); a model failing the re-check is never
returned as a witness. A solver ``unknown`` or timeout gives status ``unknown``.

Examples
--------
>>> r = find_witness("ldp", "kt-closeness", "(exp(eps)*(N - 2) + 1)/(N - 1)", N=4, b_params={"k": 1})
>>> r.status
'refuted'
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction

import sympy

from implgraph import definitions
from implgraph.core.concrete import ConcreteTable
from implgraph.core.errors import InputError
from implgraph.core.formula import parse_expr
from implgraph.core.levels import optimal_level
from implgraph.solvers import get_backend

__all__ = ["RefuteResult", "find_witness", "is_witness", "witness_check", "canonical_witness", "witness_json",
           "raw_target", "T_GRID"]

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


def _definition(d):
    return definitions.get(d) if isinstance(d, str) else d


def _int_params(params):
    out = {}
    for k, v in (params or {}).items():
        v = sympy.sympify(v)
        if not v.is_Integer:
            raise InputError(f"parameter {k} = {v} must be a concrete integer for the refuter",
                             fix="give concrete values for N and k")
        out[k] = int(v)
    return out


def raw_target(a, b, f, alpha=None, values=None):
    """B's raw level (ratio) as a sympy function of A's raw level ``T``: (expr, T symbol)."""
    a, b = _definition(a), _definition(b)
    T = sympy.Symbol("T", positive=True)
    if isinstance(f, str):
        import re
        from implgraph.core.formula import CONSTANTS, FUNCTIONS
        idents = set(re.findall(r"[A-Za-z_][A-Za-z_0-9]*", f)) - set(FUNCTIONS) - set(CONSTANTS)
        f = parse_expr(f, {n: sympy.Symbol(n, real=True) for n in idents})
    f = sympy.sympify(f)
    alpha_sym = None
    if alpha is not None:
        alpha_sym = alpha if isinstance(alpha, sympy.Symbol) else next(
            (s for s in f.free_symbols if s.name == str(alpha)), sympy.Symbol(str(alpha), real=True))
    else:
        alpha_sym = next((s for s in f.free_symbols if s.name == a.level_symbol), None)
    if values:
        f = f.subs({(s if isinstance(s, sympy.Symbol) else next((x for x in f.free_symbols if x.name == str(s)),
                                                                 sympy.Symbol(str(s)))): sympy.sympify(v)
                    for s, v in values.items()})
    if alpha_sym is not None:
        f = f.subs(alpha_sym, a.level_from_raw(T))
    raw = b.raw_from_level(f)
    raw = sympy.simplify(sympy.expand_log(sympy.powsimp(raw), force=True))
    raw = sympy.simplify(raw.subs(sympy.exp(sympy.log(T)), T))
    return raw, T


def _num(x):
    x = sympy.nsimplify(x) if isinstance(x, float) else sympy.sympify(x)
    return x


def _rational_below(x, digits=30):
    """A rational <= x (x a positive real sympy number)."""
    x = sympy.sympify(x)
    if x.is_Rational:
        return Fraction(int(x.p), int(x.q))
    q = sympy.Rational(sympy.floor(x * 10 ** digits), 10 ** digits)
    return Fraction(int(q.p), int(q.q))


def _rational_above(x, digits=30):
    x = sympy.sympify(x)
    if x.is_Rational:
        return Fraction(int(x.p), int(x.q))
    q = sympy.Rational(sympy.ceiling(x * 10 ** digits), 10 ** digits)
    return Fraction(int(q.p), int(q.q))


def _labels(classes, N):
    if not classes:
        return None
    out = []
    for c, size in enumerate(classes):
        out += [f"E{c + 1}"] * int(size)
    return out


def _level_raw(table, d, params):
    lv = optimal_level(table, d, **params)
    if not lv.defined:
        return None
    return lv.pieces[0].value


def witness_check(a, b, f, alpha_value, a_params=None, b_params=None, values=None, alpha=None):
    """The exact re-check of :func:`is_witness` as a function ``table -> bool`` (targets computed once)."""
    a, b = _definition(a), _definition(b)
    a_params, b_params = dict(a_params or {}), dict(b_params or {})
    if f is None:
        T0 = F0 = None
    else:
        T0 = sympy.simplify(a.raw_from_level(sympy.sympify(alpha_value)))
        raw, T = raw_target(a, b, f, alpha=alpha, values=values)
        F0 = sympy.simplify(raw.subs(T, T0))

    def check(table) -> bool:
        ra = _level_raw(table, a, a_params)
        if ra is None or (f is None and ra is sympy.oo):
            return False
        if f is not None and (ra is sympy.oo or not bool(sympy.Le(ra, T0))):
            return False
        rb = _level_raw(table, b, b_params)
        if rb is None:
            return False
        if f is None:
            return rb is sympy.oo
        if rb is sympy.oo:
            return F0 is not sympy.oo
        if F0 is sympy.oo:
            return False
        return bool(sympy.Gt(rb, F0))
    return check


def is_witness(table, a, b, f, alpha_value, a_params=None, b_params=None, values=None, alpha=None) -> bool:
    """Exact re-check: does ``table`` satisfy A at ``alpha_value`` and violate B at ``f(alpha_value)``?

    With ``f=None``: is A's level finite and B's level infinite (a definitive non-implication
    witness at this N)? Levels are the core's exact optimal levels; no floating point.
    """
    return witness_check(a, b, f, alpha_value, a_params, b_params, values, alpha)(table)


#: denominators of the grid the canonical witness is searched on, in order
CANONICAL_DENOMINATORS = (1, 2, 3, 4, 5, 6, 8, 10, 12)
#: exact re-checks spent on making one witness canonical
CANONICAL_BUDGET = 300


def _simplest(lo: Fraction, hi: Fraction) -> Fraction:
    """The rational with the smallest denominator in [lo, hi] (the smallest such numerator)."""
    d = 1
    while True:
        n = -((-lo.numerator * d) // lo.denominator)      # ceil(lo * d)
        if Fraction(n, d) <= hi:
            return Fraction(n, d)
        d += 1


def canonical_witness(table: ConcreteTable, check, budget: int = CANONICAL_BUDGET) -> ConcreteTable:
    """A canonical witness equivalent to ``table``: the same answer whatever model the solver gave.

    Binary tables: the first table passing ``check`` in a fixed enumeration (grids of
    :data:`CANONICAL_DENOMINATORS`, records sorted within each class, lexicographic order), within
    ``budget`` re-checks. Otherwise the solver's table with each probability replaced, record by
    record, by the simplest rational that still passes ``check``, and records sorted within their
    classes. Every table returned passes ``check``.
    """
    import itertools
    labels = None if table.classes is None else [str(c) for c in table.classes]
    order = [] if labels is not None else [list(range(table.N))]
    for i, lab in enumerate(labels or []):
        if order and labels[order[-1][0]] == lab:
            order[-1].append(i)
        else:
            order.append([i])
    sizes = [len(g) for g in order]
    contiguous = [i for g in order for i in g] == list(range(table.N))
    spent = 0

    def make(rows):
        return ConcreteTable.from_fractions(rows, buckets=table.buckets, classes=labels)

    if table.p == 2 and contiguous and (labels is None or len(set(labels)) == len(order)):
        singles = labels is None or all(size == 1 for size in sizes)
        groups = [table.N] if singles else sizes
        seen: set = set()
        for D in CANONICAL_DENOMINATORS:
            grid = sorted({Fraction(k, D) for k in range(D + 1)})
            per = [itertools.combinations_with_replacement(grid, s) for s in groups]
            for combo in itertools.product(*per):
                xs = [x for part in combo for x in part]
                key = tuple(xs)
                if key in seen:
                    continue
                seen.add(key)
                spent += 1
                cand = make([[x, 1 - x] for x in xs])
                if check(cand):
                    return cand
                if spent >= budget:
                    break
            if spent >= budget:
                break
    rows = [list(r) for r in table.to_rows()]
    if table.p == 2:
        for i in range(table.N):
            x = rows[i][0]
            for width in (Fraction(1, 2), Fraction(1, 10), Fraction(1, 100), Fraction(1, 1000)):
                if spent >= budget:
                    break
                y = _simplest(max(Fraction(0), x - width), min(Fraction(1), x + width))
                if y == x:
                    break
                trial = [list(r) for r in rows]
                trial[i] = [y, 1 - y]
                spent += 1
                if check(make(trial)):
                    rows = trial
                    break
    rows = [sorted((rows[i] for i in g)) for g in order]
    cand = make([r for part in rows for r in part])
    return cand if check(cand) else table


def witness_json(table: ConcreteTable, params: dict | None = None, **extra) -> dict:
    """Exact rational probabilities per row and bucket (strings), classes and parameters."""
    rows = [[str(x) for x in r] for r in table.to_rows()]
    out = {"params": {k: str(v) for k, v in (params or {}).items()}, "buckets": list(table.buckets), "rows": rows}
    if table.classes is not None:
        out["classes"] = [str(c) for c in table.classes]
    out.update({k: str(v) for k, v in extra.items()})
    return out


def find_witness(a, b, f=None, *, N, a_params=None, b_params=None, alpha=None, alpha_value=None, p=2,
                 classes=None, timeout_ms=2000, values=None) -> RefuteResult:
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
        Sizes of consecutive equivalence classes (multiplicative t-closeness).
    timeout_ms : int
        Per solver call.
    values : dict, optional
        Values of the other symbols of ``f`` (``N`` is substituted automatically).

    Returns
    -------
    RefuteResult
    """
    start = time.perf_counter()
    a, b = _definition(a), _definition(b)
    backend = get_backend()
    a_params, b_params = _int_params(a_params), _int_params(b_params)
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
    import z3
    xs = [[z3.Real(f"x_{i}_{l}") for l in range(p)] for i in range(N)]
    if p == 2:
        rows = [[r[0], 1 - r[0]] for r in xs]
        base = [z3.And(r[0] >= 0, r[0] <= 1) for r in xs]
    else:
        rows = xs
        base = [x >= 0 for r in xs for x in r] + [z3.Sum(r) == 1 for r in xs]
    if classes and all(int(c) == 1 for c in classes):
        # singleton classes: the rows stay exchangeable, so the global sort is still a symmetry breaking
        order = {0: "asc", 1: "desc"} if p == 2 else {0: "asc"}
        base += [xs[i][0] <= xs[i + 1][0] for i in range(N - 1)]
    elif classes:
        order = {}
        start_i = 0
        for size in classes:
            for i in range(start_i, start_i + int(size) - 1):
                base.append(xs[i][0] <= xs[i + 1][0])
            start_i += int(size)
        if start_i != N:
            raise InputError(f"class sizes {classes} do not add up to N = {N}", fix="give sizes summing to N")
    else:
        order = {0: "asc", 1: "desc"} if p == 2 else {0: "asc"}
        base += [xs[i][0] <= xs[i + 1][0] for i in range(N - 1)]
    labels = _labels(classes, N)

    def make_table(model):
        from implgraph.solvers.z3_backend import model_value
        vals_ = [[model_value(model, x) for x in r] for r in xs]
        if any(v is None for r in vals_ for v in r):
            return None
        if p == 2:
            frs = [[r[0], 1 - r[0]] for r in vals_]
        else:
            frs = vals_
        return ConcreteTable.from_fractions(frs, classes=labels)

    try:
        if f is None:
            # A finite (some T), B infinite
            Tv = z3.Real("T")
            for Tfix in list(T_GRID[:4]) + [None]:
                T_ = Tv if Tfix is None else Tfix
                cons = base + backend.encode_satisfies(a, rows, T_, a_params, classes, order)
                cons.append(backend.encode_infinite(b, rows, b_params, classes, order))
                if Tfix is None:
                    cons.append(Tv >= 1)
                status, model = backend.solve(cons, timeout_ms)
                if status == "sat":
                    table = make_table(model)
                    ok = witness_check(a, b, None, None, a_params, b_params)
                    if table is not None and ok(table):
                        table = canonical_witness(table, ok)
                        ra = _level_raw(table, a, a_params)
                        return done("refuted", witness=table, alpha_value=a.level_from_raw(ra),
                                    level_a=a.level_from_raw(ra), level_b=sympy.oo)
                if Tfix is None:
                    if status == "unsat":
                        return done("none-found", note="no table with A finite and B infinite")
                    return done("unknown", note=f"solver: {status}")
            return done("unknown")
        raw, T = raw_target(a, b, f, alpha=alpha, values=vals)
        if raw.free_symbols - {T}:
            raise InputError(f"f has unknown symbols {sorted(map(str, raw.free_symbols - {T}))}",
                             fix="give their values in `values`")
        tries = []
        if alpha_value is not None:
            T0 = sympy.simplify(a.raw_from_level(sympy.sympify(alpha_value)))
            tries = [T0]
        else:
            tries = [sympy.Rational(t.numerator, t.denominator) for t in T_GRID]
        for T0 in tries:
            F0 = sympy.simplify(raw.subs(T, T0))
            if F0.is_real is False or F0 is sympy.nan:
                continue
            Tlow = _rational_below(T0)
            cons = base + backend.encode_satisfies(a, rows, Tlow, a_params, classes, order)
            if F0 is sympy.oo:
                continue
            cons.append(backend.encode_violates(b, rows, _rational_above(F0), b_params, classes, order))
            status, model = backend.solve(cons, timeout_ms)
            if status == "sat":
                table = make_table(model)
                ok = witness_check(a, b, f, a.level_from_raw(T0), a_params, b_params, values=vals, alpha=alpha)
                if table is not None and ok(table):
                    table = canonical_witness(table, ok)
                    return done("refuted", witness=table, alpha_value=a.level_from_raw(T0),
                                level_a=a.level_from_raw(_level_raw(table, a, a_params)),
                                level_b=b.level_from_raw(_level_raw(table, b, b_params)))
            if alpha_value is not None:
                if status == "unsat" and T0.is_Rational and F0.is_Rational:
                    return done("none-found", note=f"no witness at A's level {a.level_from_raw(T0)}")
                return done("unknown", note=f"solver: {status}")
        # free level, f(T) = c T: compare B's ratios with A's directly (T eliminated: the best level
        # for a witness is A's own level), one query per ratio of B
        c = sympy.simplify(raw / T)
        ra_list = backend.ratio_list(a, rows, a_params, classes, order) if hasattr(backend, "ratio_list") else None
        rb_list = backend.ratio_list(b, rows, b_params, classes, order) if hasattr(backend, "ratio_list") else None
        if c.is_number and c.is_positive and ra_list is not None and rb_list is not None:
            from implgraph.solvers.z3_backend import real as _real
            cz = _real(sympy.Rational(c)) if sympy.Rational(c) == c else None
            if cz is not None:
                statuses = []
                a_finite = [z3.Or(da > 0, na == 0) for na, da in ra_list]
                queries = []
                for nb, db in rb_list:
                    # B's ratio finite and above c times every ratio of A (and c times 1) ...
                    queries.append(base + [db > 0, nb > cz * db] +
                                   [z3.Or(z3.And(na == 0, da == 0), nb * da > cz * na * db) for na, da in ra_list])
                    # ... or B's ratio infinite while A's level is finite
                    queries.append(base + [db == 0, nb > 0] + a_finite)
                for cons in queries:
                    status, model = backend.solve(cons, timeout_ms)
                    statuses.append(status)
                    if status == "sat":
                        table = make_table(model)
                        if table is not None:
                            ra = _level_raw(table, a, a_params)
                            ok = None if ra is None or ra is sympy.oo else witness_check(
                                a, b, f, a.level_from_raw(ra), a_params, b_params, values=vals, alpha=alpha)
                            if ok is not None and ok(table):
                                table = canonical_witness(table, ok)
                                ra = _level_raw(table, a, a_params)
                                return done("refuted", witness=table, alpha_value=a.level_from_raw(ra),
                                            level_a=a.level_from_raw(ra),
                                            level_b=b.level_from_raw(_level_raw(table, b, b_params)))
                if all(st == "unsat" for st in statuses):
                    return done("none-found", note="no table of this shape at any level of A (ratios compared directly)")
        # free level: needs B's raw target to be a rational function of T
        if not raw.is_rational_function(T):
            return done("unknown", note="f is not a rational function of A's raw level; only sampled levels tried")
        num, den = sympy.fraction(sympy.together(raw))
        Tv, Fv = z3.Real("T"), z3.Real("F")
        zn = _poly_z3(num, T, Tv)
        zd = _poly_z3(den, T, Tv)
        cons = base + backend.encode_satisfies(a, rows, Tv, a_params, classes, order)
        cons += [Tv >= 1, Fv * zd == zn, zd != 0]
        cons.append(backend.encode_violates(b, rows, Fv, b_params, classes, order))
        status, model = backend.solve(cons, timeout_ms)
        if status == "sat":
            from implgraph.solvers.z3_backend import approx_value
            tval = approx_value(model, Tv)
            table = make_table(model)
            if table is None and tval is not None:
                # algebraic model: fix T at a rational close to it and solve the linear problem
                T0 = sympy.Rational(tval.numerator, tval.denominator)
                F0 = sympy.simplify(raw.subs(T, T0))
                cons2 = base + backend.encode_satisfies(a, rows, T0, a_params, classes, order)
                cons2.append(backend.encode_violates(b, rows, _rational_above(F0), b_params, classes, order))
                st2, m2 = backend.solve(cons2, timeout_ms)
                table = make_table(m2) if st2 == "sat" else None
            if table is not None and tval is not None:
                T0 = sympy.Rational(tval.numerator, tval.denominator)
                # the table's own level of A is at most T0; re-check at T0
                ok = witness_check(a, b, f, a.level_from_raw(T0), a_params, b_params, values=vals, alpha=alpha)
                if ok(table):
                    table = canonical_witness(table, ok)
                    return done("refuted", witness=table, alpha_value=a.level_from_raw(T0),
                                level_a=a.level_from_raw(_level_raw(table, a, a_params)),
                                level_b=b.level_from_raw(_level_raw(table, b, b_params)))
            return done("unknown", note="a model was found but failed the exact re-check")
        if status == "unsat":
            return done("none-found", note="no table of this shape at any level of A")
        return done("unknown", note=f"solver: {status}")
    except Exception as exc:  # not encodable
        from implgraph.solvers.z3_backend import NotEncodable
        if isinstance(exc, NotEncodable):
            return done("unknown", note=str(exc))
        raise


def _poly_z3(expr, T, Tv):
    """A polynomial in T (sympy) as a z3 expression in Tv."""
    import z3
    poly = sympy.Poly(sympy.expand(expr), T)
    out = z3.RealVal(0)
    for (deg,), c in poly.terms():
        c = sympy.Rational(c)
        term = z3.RealVal(f"{c.p}/{c.q}")
        for _ in range(deg):
            term = term * Tv
        out = out + term
    return out
