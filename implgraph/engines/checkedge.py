"""Check a conjectured edge A => B between two registered definitions, in both directions.

For each number of records N (and each value of the definitions' parameters allowed by
``when``), on binary tables (p buckets, default 2) and every partition into equivalence classes:

1. **Non-implication.** Is there a table on which A's level is finite and B's infinite? The level of
   every ratio-of-averages definition is a max of linear-fractional forms
   (:func:`implgraph.definitions.families.lf_model`), so "A finite and B infinite" is a linear problem with
   disjunctions that z3 decides exactly (complete for linear real arithmetic). A model is an exact
   rational table; it is re-checked with the core's exact levels before it is reported. Such a
   table refutes A => B for every f (ekenstedt2022, Definition 2).
2. **Tight f.** Otherwise A => B holds at this N, and the tight function
   ``F(a) = sup{ B(T) : A(T) <= a }`` is computed exactly at sample levels a: one linear program
   per form of B (Charnes-Cooper), solved exactly by z3's optimiser; the maximising table is
   re-checked too. A closed form (polynomial or rational of low degree in the raw level) is fitted
   through the samples and confirmed on the others.
3. **A given f.** A sample level where the tight value exceeds f gives a witness table (re-checked
   exactly): the conjecture is refuted. Otherwise f is an upper bound at every sampled level (the
   verdict says so: bounded evidence, never "proved"); where :mod:`implgraph.engines.prove` is installed it
   is asked for a proof for all N.

The two directions combine into the kinds of ekenstedt2022, Definition 3: equivalence (f and g
inverse to each other), reciprocal (both directions, not inverse), generalisation (A => B but
B =/=> A), implication / non-implication (the other direction undecided), or non-implication both
ways.

Examples
--------
>>> r = check_edge("kdp(k=1)", "dp", N=3)
>>> r.kind
'equivalence'
>>> r.forward.tight
'eps'
"""

from __future__ import annotations

import itertools
import time
from dataclasses import asdict, dataclass, field
from fractions import Fraction

import sympy
import z3

from implgraph import definitions
from implgraph.core.concrete import INF, ConcreteTable
from implgraph.core.errors import InputError
from implgraph.core.formula import parse_condition, parse_expr
from implgraph.core.nodes import N_SYM, Node, get_definition, parse_node, symbols_for
from implgraph.definitions.families import lf_model

__all__ = ["check_edge", "check_direction", "analyse", "EdgeResult",
           "DirectionResult", "Instance", "KINDS", "is_witness"]

KINDS = ("equivalence", "reciprocal", "generalisation", "implication", "non-implication", "unknown")
LP_TIMEOUT_MS = 5000


class PluginError(InputError):
    """A plugin raised or returned something that is not a level."""


# -- the linear-fractional machinery ------------------------------------------------------------

def partitions(N, min_parts=2):
    """Integer partitions of N (class sizes, non-increasing) with at least ``min_parts`` parts."""
    def gen(n, largest):
        if n == 0:
            yield ()
            return
        for first in range(min(n, largest), 0, -1):
            for rest in gen(n - first, first):
                yield (first,) + rest
    return [p for p in gen(N, N) if len(p) >= min_parts]


def _labels(sizes):
    return [f"E{c + 1}" for c, s in enumerate(sizes) for _ in range(s)]


def _zform(form, y, s, ctx=None):
    parts = [z3.RealVal(_q(c), ctx) * y[i][l] for i, l, c in form.coef]
    if form.const:
        parts.append(z3.RealVal(_q(form.const), ctx) * s)
    if not parts:
        return z3.RealVal(0, ctx)
    return parts[0] if len(parts) == 1 else z3.Sum(parts)


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


def _table(x, sizes, classed) -> ConcreteTable:
    return ConcreteTable.from_fractions(x, classes=_labels(sizes) if classed else None)


def _infinite_witness(am, bm, N, p, sizes, classed, ctx=None):
    """A table with A finite and B infinite on partition ``sizes``, or None (unsat), or 'unknown'."""
    if bm.structural is not None or not bm.terms:
        return None
    x = _vars(N, p, ctx=ctx)
    one = z3.RealVal(1, ctx)
    s = z3.Solver(ctx=ctx)
    s.set("timeout", LP_TIMEOUT_MS)
    for i in range(N):
        s.add(*[v >= 0 for v in x[i]], z3.Sum(x[i]) == 1)
    for t in am.terms:
        s.add(z3.Or(_zform(t.den, x, one, ctx) > 0, _zform(t.num, x, one, ctx) <= 0))
    s.add(z3.Or(*[z3.And(_zform(t.den, x, one, ctx) == 0, _zform(t.num, x, one, ctx) > 0) for t in bm.terms]))
    r = s.check()
    if r == z3.unsat:
        return None
    if r != z3.sat:
        return "unknown"
    m = s.model()
    rows = [[_frac(m.eval(x[i][l], model_completion=True)) for l in range(p)] for i in range(N)]
    return _table(rows, sizes, classed)


def _canonical(term, sizes, p):
    """Key of a form under the permutations that keep the class partition."""
    num = {(i, l): c for i, l, c in term.num.coef}
    den = {(i, l): c for i, l, c in term.den.coef}
    out, start = [], 0
    for size in sizes:
        sig = sorted((tuple(num.get((i, l), 0) for l in range(p)), tuple(den.get((i, l), 0) for l in range(p)))
                     for i in range(start, start + size))
        out.append((size, tuple(sig)))
        start += size
    return (term.num.const, term.den.const, tuple(sorted(out)))


class _LP:
    """Tables with A's raw level <= a (Charnes-Cooper variables y = s x); one B form at a time."""

    def __init__(self, am, a, N, p, ctx):
        self.ctx, self.N, self.p = ctx, N, p
        o = self.o = z3.Optimize(ctx=ctx)
        o.set("timeout", LP_TIMEOUT_MS)
        y = self.y = _vars(N, p, "y", ctx)
        s = self.s = z3.Real("s", ctx)
        o.add(s >= 0)
        for i in range(N):
            o.add(*[v >= 0 for v in y[i]], z3.Sum(y[i]) == s)
        av = z3.RealVal(_q(a), ctx)
        for t in am.terms:
            o.add(_zform(t.num, y, s, ctx) <= av * _zform(t.den, y, s, ctx))

    def maximise(self, term):
        """(max num/den, maximising rows) ; (None, None) if den > 0 is impossible; INF if unbounded."""
        o, y, s = self.o, self.y, self.s
        o.push()
        try:
            o.add(_zform(term.den, y, s, self.ctx) == 1)
            h = o.maximize(_zform(term.num, y, s, self.ctx))
            r = o.check()
            if r == z3.unsat:
                return None, None
            if r != z3.sat:
                return "unknown", None
            try:
                v = _frac(h.value())
            except ValueError:
                return INF, None
            m = o.model()
            sv = _frac(m.eval(s, model_completion=True))
            rows = [[_frac(m.eval(y[i][l], model_completion=True)) / sv for l in range(self.p)]
                    for i in range(self.N)]
            return v, rows
        finally:
            o.pop()


# -- exact re-check -------------------------------------------------------------------------

def _raw_level(node_def, params, ct):
    """The definition's own exact raw level on a concrete table (Fraction, INF or None).

    A plugin that raises, or returns something that is not a level, gives a :class:`PluginError`.
    """
    from implgraph.core.levels import optimal_level
    name = node_def.name
    if node_def.concrete is not None and not (node_def.needs_classes and ct.classes is None):
        try:
            raw = node_def.concrete(ct, **params)
        except InputError:
            raise
        except Exception as exc:
            if not _is_plugin(node_def):
                raise               # an engine bug: never hidden
            raise PluginError(f"definition {name} raised {exc.__class__.__name__}: {exc}",
                              fix="fix the plugin's concrete method") from None
        if raw is None:
            return None
        if raw == INF:
            return INF
        if isinstance(raw, sympy.Basic):
            if raw is sympy.oo:
                return INF
            if not raw.is_Rational:
                raise PluginError(f"definition {name} returned {raw!r}, not a level",
                                  fix="return a Fraction, math.inf or None from concrete()")
            raw = Fraction(int(raw.p), int(raw.q))
        if isinstance(raw, bool) or not isinstance(raw, (int, Fraction)):
            raise PluginError(f"definition {name} returned {raw!r}, not a level",
                              fix="return a Fraction, math.inf or None from concrete()")
        raw = Fraction(raw)
    else:
        try:
            lv = optimal_level(ct, node_def, **params)
        except InputError:
            raise
        except Exception as exc:
            if not _is_plugin(node_def):
                raise               # an engine bug: never hidden
            raise PluginError(f"definition {name} raised {exc.__class__.__name__}: {exc}",
                              fix="fix the plugin's symbolic method") from None
        if not lv.defined:
            return None
        value = sympy.sympify(lv.pieces[0].value) if len(lv.pieces) == 1 else None
        if value is sympy.oo:
            return INF
        if value is None or not value.is_number or value.is_real is not True or value.is_finite is not True:
            raise PluginError(f"definition {name} returned {value!r}, not a level",
                              fix="return a real number, oo, or None from symbolic()")
        if not value.is_Rational:
            raw_min = node_def.level_scale.raw_min
            if raw_min is not None and value < raw_min:
                raise PluginError(f"definition {name} returned the negative ratio {value}, not a level",
                                  fix="return a ratio >= 0")
            return value            # an exact irrational level (e.g. entropy l-diversity): kept symbolic
        raw = Fraction(int(value.p), int(value.q))
    if node_def.level_scale.raw_min is not None and raw < node_def.level_scale.raw_min:
        raise PluginError(f"definition {name} returned the negative ratio {raw}, not a level",
                          fix="return a ratio >= 0")
    return raw


def _is_plugin(d) -> bool:
    """A definition from outside the package (its errors are the plugin's, reported as such)."""
    return not type(d).__module__.startswith("implgraph.")


def is_witness(a_def, a_params, b_def, b_params, ct, a_raw=None, f_raw=None) -> bool:
    """Exact re-check of a witness table against A => B.

    Without ``f_raw``: A's level is finite (defined) and B's is infinite. With ``a_raw`` and
    ``f_raw`` (raw values): the table satisfies A at raw level ``a_raw`` and B's raw level is weaker
    than ``f_raw``.
    """
    ra = _raw_level(a_def, a_params, ct)
    rb = _raw_level(b_def, b_params, ct)
    if ra is None or rb is None:
        return False
    if f_raw is None:
        return ra != INF and rb == INF
    a_ok = ra <= a_raw if a_def.stronger == "smaller" else ra >= a_raw
    return bool(a_ok and _weaker(b_def, rb, f_raw))


def _weaker(b_def, rb, f_raw) -> bool:
    if rb == INF:
        return f_raw != sympy.oo
    rb_s = rb if isinstance(rb, sympy.Basic) else sympy.Rational(rb.numerator, rb.denominator)
    return bool(rb_s > f_raw) if b_def.stronger == "smaller" else bool(rb_s < f_raw)


# -- one instance: A, B at fixed N and parameter values ------------------------------------------

@dataclass
class Instance:
    """A => B at one N and one assignment of the parameters."""

    N: int
    point: dict
    relation: str                       # implication | non-implication | unknown
    witness: dict | None = None         # exact table (rows, classes) + levels
    samples: list = field(default_factory=list)   # [(raw a, raw F(a))] as strings
    tight: str | None = None            # f in level units, fitted through the samples
    fit_range: str | None = None
    fit_upto: str | None = None         # the fit holds for raw levels of A up to this value
    raw_fit: str | None = None          # the fitted tight F(a) on raw levels (symbol a)
    trivial: bool = False
    f_status: str | None = None         # refuted | holds-at-samples | None
    f_witness: dict | None = None
    f_witness_degenerate: dict | None = None    # a witness where f is no valid level, beside f_witness
    note: str = ""


def _wdict(ct, a_def, a_params, b_def, b_params, extra=None):
    ra = _raw_level(a_def, a_params, ct)
    rb = _raw_level(b_def, b_params, ct)
    out = {"rows": [[str(v) for v in r] for r in ct.to_rows()],
           "classes": None if ct.classes is None else [str(c) for c in ct.classes],
           "level_a": _level_str(a_def, ra), "level_b": _level_str(b_def, rb)}
    out.update(extra or {})
    return out


def _level_str(d, raw):
    if raw is None:
        return "undefined"
    if raw == INF:
        return "oo"
    if isinstance(raw, sympy.Basic):
        return str(d.level_from_raw(raw))
    return str(d.level_from_raw(sympy.Rational(raw.numerator, raw.denominator)))


def _samples_for(d, N):
    return d.level_scale.samples(N)


def analyse(a_def, a_params, b_def, b_params, N, p=2, f_raw=None, point=None, min_class=None,
            max_class=None) -> Instance:
    """Decide A => B at N records (exact, binary tables by default); see the module notes.

    ``f_raw(a)``, if given, maps A's raw level (a sympy Rational) to B's raw level and is checked
    at the sample levels. ``min_class`` / ``max_class`` restrict the partitions searched (class
    sizes), as in claims on multiplicative t-closeness "with k-anonymity".
    """
    point = dict(point or {})
    classed = a_def.needs_classes or b_def.needs_classes
    parts = _partitions_for(N, min_class, max_class) if classed else [(N,)]
    if classed:
        if not parts:
            return Instance(N, point, "unknown", note="no partition into >= 2 classes has the class sizes asked for")
    models = []
    for sizes in parts:
        am = lf_model(a_def, N, sizes, p, **a_params)
        bm = lf_model(b_def, N, sizes, p, **b_params)
        if am is None or bm is None:
            return _grid_instance(a_def, a_params, b_def, b_params, N, p, f_raw, point)
        models.append((sizes, am, bm))
    # one z3 context per instance: the same question always gets the same models
    ctx = z3.Context()
    # 1. A finite, B infinite?
    unknown = False
    for sizes, am, bm in models:
        w = _infinite_witness(am, bm, N, p, sizes, classed, ctx)
        if w == "unknown":
            unknown = True
            continue
        if w is not None:
            if not is_witness(a_def, a_params, b_def, b_params, w):
                raise PluginError(f"the level forms of {a_def.name} or {b_def.name} disagree with its own "
                                  f"levels on {w.to_rows()}", fix="check the plugin's lf_terms")
            inst = Instance(N, point, "non-implication", witness=_wdict(w, a_def, a_params, b_def, b_params))
            if f_raw is not None:
                inst.f_status, inst.f_witness = "refuted", inst.witness
            return inst
    if unknown:
        return Instance(N, point, "unknown", note="z3 could not decide whether B can be infinite")
    # 2. tight F at sample levels
    samples, best_tables = [], {}
    for a in _samples_for(a_def, N):
        val, table = _tight_at(a_def, b_def, models, a, N, p, classed, ctx)
        if val == "unknown":
            return Instance(N, point, "implication", note="an LP timed out; tight f not computed")
        samples.append((a, val))
        best_tables[a] = table
    inst = Instance(N, point, "implication", samples=[(str(a), str(v)) for a, v in samples])
    fit, upto = fit_rational([(a, v) for a, v in samples if v is not None and v != INF])
    if fit is not None:
        f_level = _to_level(fit, a_def, b_def)
        inst.tight = str(f_level)
        inst.raw_fit = str(fit)
        if upto is not None:
            inst.fit_upto = str(a_def.level_from_raw(sympy.Rational(upto)))
            inst.fit_range = f"{a_def.level_symbol} <= {inst.fit_upto}"
        weakest = b_def.weakest()
        inst.trivial = bool(sympy.simplify(sympy.sympify(f_level) - weakest) == 0) if weakest is not sympy.oo else False
    # 3. a given f
    if f_raw is not None:
        _check_f(inst, samples, best_tables, f_raw, a_def, a_params, b_def, b_params)
    return inst


def strongest_raw(d):
    """The raw level of the most private table (1 for a ratio, 0 for a distance), or None (a count)."""
    return d.level_scale.best_raw


def _degenerate(b_def, f_raw) -> bool:
    """Is ``f_raw`` stronger than every level B can have (e.g. t < 1, eps < 0)? Not a valid level."""
    best = strongest_raw(b_def)
    if best is None:
        return False
    best = sympy.Rational(best.numerator, best.denominator)
    return bool(f_raw < best) if b_def.stronger == "smaller" else bool(f_raw > best)


def _check_f(inst, samples, best_tables, f_raw, a_def, a_params, b_def, b_params):
    """Compare f with the tight value at every sample level; a witness table where f is weaker.

    A witness where f is not a valid level of B (:func:`_degenerate`) is marked ``degenerate`` and
    the search goes on for one at a level where f is valid: ``f_witness`` is then that one and
    ``f_witness_degenerate`` the first.
    """
    inst.f_status = "holds-at-samples"
    for a, val in samples:
        a_s = sympy.Rational(a.numerator, a.denominator)
        target = f_raw(a_s)
        if val is None or not _weaker(b_def, val, target):
            continue
        ct = best_tables[a]
        if ct is None or not is_witness(a_def, a_params, b_def, b_params, ct, a_raw=a, f_raw=target):
            continue
        degenerate = _degenerate(b_def, target)
        w = _wdict(ct, a_def, a_params, b_def, b_params,
                   {"level": str(a_def.level_from_raw(a_s)), "f_at_level": str(b_def.level_from_raw(target)),
                    "degenerate": degenerate})
        inst.f_status = "refuted"
        if not degenerate:
            if inst.f_witness is not None:
                inst.f_witness_degenerate = inst.f_witness
            inst.f_witness = w
            return
        if inst.f_witness is None:
            inst.f_witness = w


def _tight_at(a_def, b_def, models, a, N, p, classed, ctx=None):
    """(raw F(a), a table reaching it) over every partition."""
    best, best_table = None, None
    larger_b = b_def.stronger == "larger"
    for sizes, am, bm in models:
        if am.structural is not None:
            ok = am.structural >= a if a_def.stronger == "larger" else am.structural <= a
            if not ok:
                continue
            am = type(am)([], am.floor)
        if bm.structural is not None:
            # the level depends on the partition only; A is satisfiable on every partition (constant rows)
            v = bm.structural
            if best is None or (v < best if larger_b else v > best):
                best = v
                best_table = _table([[Fraction(1, p)] * p] * N, sizes, classed)
            continue
        seen = {}
        lp = None
        for t in bm.terms:
            key = _canonical(t, sizes, p)
            if key in seen:
                continue
            seen[key] = True
            lp = lp or _LP(am, a, N, p, ctx)
            v, rows = lp.maximise(t)
            if v == "unknown":
                return "unknown", None
            if v is None:
                continue
            if best is None or v > best:
                best = v
                best_table = None if rows is None else _table(rows, sizes, classed)
        floor = bm.floor
        if best is None or floor > best:
            best, best_table = floor, best_table
    return best, best_table


def _grid_instance(a_def, a_params, b_def, b_params, N, p, f_raw, point):
    """Fallback for definitions without linear-fractional forms: probe a grid of tables."""
    grid = [Fraction(0), Fraction(1, 3), Fraction(2, 3), Fraction(1)]
    classed = a_def.needs_classes or b_def.needs_classes
    parts = partitions(N, 2) if classed else [(N,)]
    f_witness = None
    for sizes in parts:
        for combo in itertools.combinations_with_replacement(grid, N):
            rows = [[v, 1 - v] + [Fraction(0)] * (p - 2) for v in combo]
            ct = _table(rows, sizes, classed)
            if f_raw is not None and f_witness is None:
                ra = _raw_level(a_def, a_params, ct)
                if ra is not None and ra != INF:
                    ra_s = ra if isinstance(ra, sympy.Basic) else sympy.Rational(ra.numerator, ra.denominator)
                    target = f_raw(ra_s)
                    if is_witness(a_def, a_params, b_def, b_params, ct, a_raw=ra, f_raw=target):
                        f_witness = _wdict(ct, a_def, a_params, b_def, b_params,
                                           {"level": str(a_def.level_from_raw(ra_s)),
                                            "f_at_level": str(b_def.level_from_raw(target))})
            if is_witness(a_def, a_params, b_def, b_params, ct):
                inst = Instance(N, point, "non-implication", witness=_wdict(ct, a_def, a_params, b_def, b_params),
                                note="found by probing a grid of tables")
                if f_raw is not None:
                    inst.f_status, inst.f_witness = "refuted", inst.witness
                return inst
    if b_def.weakest() is not sympy.oo:
        # every table satisfies B at its weakest level, so f = weakest is an implication (trivial);
        # the tight f is not computed without linear-fractional forms
        weakest = b_def.weakest()
        inst = Instance(N, point, "implication", tight=None, trivial=True,
                        note=f"trivial: every table satisfies {b_def.name} at its weakest level {weakest}; "
                             "the tight f is not computed (no linear-fractional form)")
        if f_witness is not None:
            inst.f_status, inst.f_witness = "refuted", f_witness
        elif f_raw is not None:
            inst.f_status = "holds-at-samples" if all(
                _weaker(b_def, weakest, f_raw(sympy.Rational(a.numerator, a.denominator))) is False
                for a in _samples_for(a_def, N)) else None
        return inst
    if f_witness is not None:
        return Instance(N, point, "unknown", f_status="refuted", f_witness=f_witness,
                        note=f"{a_def.name} or {b_def.name} has no linear-fractional form; a grid table refutes f")
    return Instance(N, point, "unknown",
                    note=f"{a_def.name} or {b_def.name} has no linear-fractional form; a grid of tables "
                         "found no witness")


# -- fitting the tight function ------------------------------------------------------------------

_A = sympy.Symbol("a", positive=True)
_FORMS = [(1, 0, "c"), (2, 0, "c"), (2, 1, "c"), (2, 1, "m"), (3, 0, "c"), (3, 1, "c"), (3, 1, "m"), (4, 0, "c")]
# (numerator terms, denominator degree, normalisation: "c" Q = 1 + d1 a + ..., "m" Q = d0 + a)


def fit_rational(points, var=None):
    """Fit ``P(a)/Q(a)`` (low degrees) through exact points, confirmed on the rest.

    Q is normalised either as ``1 + d1 a + ...`` or as ``d0 + a``. Returns (sympy expression in
    ``var`` (default the symbol ``a``), None) when one form fits every point, (expr, a_max) when it
    fits only the points up to a_max (piecewise beyond), or (None, None).
    """
    var = _A if var is None else var
    pts = [(Fraction(a), Fraction(v)) for a, v in points]
    for upto in range(len(pts), 2, -1):
        sub = pts[:upto]
        for nnum, dden, norm in _FORMS:
            unknowns = nnum + dden
            if unknowns + 1 > len(sub):
                continue
            coef = _solve_form(sub[:unknowns], nnum, dden, norm)
            if coef is None:
                continue
            cs, ds = coef[:nnum], coef[nnum:]
            num = lambda a: sum(c * a ** i for i, c in enumerate(cs))                 # noqa: E731
            if norm == "c":
                den = lambda a: 1 + sum(d * a ** (j + 1) for j, d in enumerate(ds))  # noqa: E731
            else:
                den = lambda a: ds[0] + a                                              # noqa: E731
            if all(den(a) != 0 and num(a) == v * den(a) for a, v in sub):
                q = lambda x: sympy.Rational(x.numerator, x.denominator)               # noqa: E731
                e_num = sum(q(c) * var ** i for i, c in enumerate(cs))
                if norm == "c":
                    e_den = 1 + sum(q(d) * var ** (j + 1) for j, d in enumerate(ds))
                else:
                    e_den = q(ds[0]) + var
                expr = sympy.factor(sympy.cancel(e_num / e_den))
                return expr, (None if upto == len(pts) else str(sub[-1][0]))
    return None, None


def _solve_form(pts, nnum, dden, norm="c"):
    """Exact Gaussian elimination for the coefficients of P and Q through ``pts``."""
    rows = []
    for a, v in pts:
        if norm == "c":     # sum c_i a^i - v sum_j d_j a^j = v
            rows.append([a ** i for i in range(nnum)] + [-v * a ** (j + 1) for j in range(dden)] + [v])
        else:               # sum c_i a^i - v d0 = v a
            rows.append([a ** i for i in range(nnum)] + [-v] + [v * a])
    n = nnum + dden
    for col in range(n):
        piv = next((r for r in range(col, n) if rows[r][col] != 0), None)
        if piv is None:
            return None
        rows[col], rows[piv] = rows[piv], rows[col]
        pv = rows[col][col]
        rows[col] = [x / pv for x in rows[col]]
        for r in range(n):
            if r != col and rows[r][col] != 0:
                factor = rows[r][col]
                rows[r] = [x - factor * y for x, y in zip(rows[r], rows[col])]
    return [rows[i][n] for i in range(n)]


def generalise_over_N(instances):
    """Fit the tight raw F_N(a) of every N into one expression in N and a, or None.

    Needs instances that differ only in N, each with a closed form on the whole sampled range, of
    the same shape; every coefficient is fitted as a rational function of N through the exact
    values and confirmed on the others (bounded evidence: the N checked).
    """
    Nsym = N_SYM
    groups = {}
    for inst in instances:
        if inst.relation != "implication" or inst.raw_fit is None or inst.fit_upto is not None:
            return None
        rest = tuple(sorted((k, v) for k, v in inst.point.items() if k != "N"))
        groups.setdefault(rest, []).append(inst)
    if len(groups) != 1:
        return None
    insts = sorted(next(iter(groups.values())), key=lambda i: i.N)
    if len(insts) < 3:
        return None
    shapes, data = set(), []
    for inst in insts:
        expr = sympy.sympify(inst.raw_fit, locals={"a": _A})
        num, den = sympy.fraction(sympy.cancel(expr))
        pn, pd = sympy.Poly(num, _A), sympy.Poly(den, _A)
        lead = pd.LC()
        cn = [c / lead for c in reversed(pn.all_coeffs())]
        cd = [c / lead for c in reversed(pd.all_coeffs())]
        shapes.add((len(cn), len(cd)))
        data.append((inst.N, cn, cd))
    if len(shapes) != 1:
        return None
    nn, nd = shapes.pop()
    coeffs = []
    for idx in range(nn + nd):
        pts = []
        for n, cn, cd in data:
            c = (cn + cd)[idx]
            pts.append((Fraction(n), Fraction(int(sympy.Rational(c).p), int(sympy.Rational(c).q))))
        if all(v == pts[0][1] for _, v in pts):
            coeffs.append(sympy.Rational(pts[0][1].numerator, pts[0][1].denominator))
            continue
        fit, upto = fit_rational(pts, var=Nsym)
        if fit is None or upto is not None:
            return None
        coeffs.append(fit)
    num = sum(c * _A ** i for i, c in enumerate(coeffs[:nn]))
    den = sum(c * _A ** i for i, c in enumerate(coeffs[nn:]))
    return sympy.factor(sympy.cancel(num / den))


def _level_symbol(d):
    return sympy.Symbol(d.level_symbol, positive=True)


def _to_level(raw_expr, a_def, b_def):
    """F(a) on raw levels -> f(alpha) on the definitions' own levels."""
    alpha = _level_symbol(a_def)
    F = sympy.factor(sympy.sympify(raw_expr).subs(_A, a_def.raw_from_level(alpha)))
    level = b_def.level_from_raw(F)          # the definition's own units (a plugin may override them)
    if level.has(sympy.log):
        expanded = sympy.expand_log(level)
        if "log(-" not in str(expanded) and len(str(expanded)) < len(str(level)):
            return expanded
        return level
    return sympy.factor(level)


# -- directions and edges ------------------------------------------------------------------------

@dataclass
class DirectionResult:
    """A => B over every checked N and parameter point."""

    a: str
    b: str
    relation: str                   # implication | non-implication | unknown
    verdict: str                    # refuted | verified-bounded | proved | unknown
    bound: str
    evidence: str
    f: str | None = None
    f_verdict: str | None = None    # refuted | holds-at-samples | proved | None
    tight: str | None = None        # at the largest N checked (or for all N from the prover)
    tight_upto: str | None = None   # the tight f holds for A's level up to this value (piecewise beyond)
    tight_all_n: str | None = None  # the tight f for every N, from implgraph.engines.prove
    tight_in_N: str | None = None   # one expression in N fitted through the exact tight f of every N checked
    witness: dict | None = None
    degenerate_witness: dict | None = None  # f refuted where f is no valid level of B, beside witness
    trivial: bool = False
    instances: list = field(default_factory=list)

    def to_json(self):
        d = asdict(self)
        d["instances"] = [asdict(i) for i in self.instances]
        return d


def _points(nodes, when, N):
    syms = set()
    for n in nodes:
        syms |= n.free_symbols()
    for c in when:
        syms |= {s for s in c.free_symbols if s != N_SYM}
    syms = sorted(syms, key=lambda s: s.name)
    for values in itertools.product(range(1, N), repeat=len(syms)):
        point = {N_SYM: N, **dict(zip(syms, values))}
        if all(bool(sympy.sympify(c).subs(point)) for c in when):
            yield point


def check_direction(a, b, f=None, when=(), N=4, p=2, n_min=2, classes=None, prover=True) -> DirectionResult:
    """A => B (optionally with f) for N = n_min..N; ``a``, ``b`` are Nodes or strings.

    ``classes`` may restrict the class sizes searched: ``{"min_size": expr, "max_size": expr}``
    (expressions in N and the parameter symbols). ``prover``: ask :mod:`implgraph.engines.prove` for a
    proof for every N.
    """
    a = a if isinstance(a, Node) else parse_node(a)
    b = b if isinstance(b, Node) else parse_node(b)
    a_def, b_def = a.definition, b.definition
    symbols = {s.name: s for s in a.free_symbols() | b.free_symbols()}
    symbols["N"] = N_SYM
    when_c = [parse_condition(w, symbols_for(w, symbols.values())) if isinstance(w, str) else w for w in when]
    for c in when_c:
        symbols.update({s.name: s for s in c.free_symbols})
    alpha = _level_symbol(a_def)
    f_expr = None
    if f is not None:
        fsyms = dict(symbols)
        fsyms[a_def.level_symbol] = alpha
        f_expr = parse_expr(f, fsyms) if isinstance(f, str) else sympy.sympify(f)
    instances = []
    for n in range(max(n_min, 2), N + 1):
        for point in _points([a, b], when_c, n):
            ap, bp = a.at(point), b.at(point)
            try:
                a_def.check_params(None, ap)
                b_def.check_params(None, bp)
                _validate_sizes(a_def, ap, n)
                _validate_sizes(b_def, bp, n)
            except InputError:
                continue
            f_raw = None
            if f_expr is not None:
                fe = f_expr.subs(point)
                def f_raw(araw, fe=fe):
                    lvl = a_def.level_from_raw(araw)
                    return sympy.simplify(b_def.raw_from_level(fe.subs(alpha, lvl)))
            lo, hi = _class_limits([a.classes_at(point), b.classes_at(point), classes or {}], point)
            if (lo is not None or hi is not None) and (a_def.needs_classes or b_def.needs_classes) \
                    and not _partitions_for(n, lo, hi):
                continue        # no partition into >= 2 classes of these sizes at this N
            try:
                instances.append(analyse(a_def, ap, b_def, bp, n, p, f_raw,
                                         {str(k): int(v) for k, v in point.items()}, lo, hi))
            except InputError:
                raise
            except Exception as exc:
                if not (_is_plugin(a_def) or _is_plugin(b_def)):
                    raise           # an engine bug: never hidden, never an unknown
                raise PluginError(f"checking {a.label()} => {b.label()} at N = {n} failed: "
                                  f"{exc.__class__.__name__}: {exc}",
                                  fix="a plugin's lf_terms or level code is broken; fix or uninstall it") from None
    res = _aggregate(a, b, f, instances, p, classes)
    if res.relation == "implication":
        g = generalise_over_N(instances)
        if g is not None:
            res.tight_in_N = str(_to_level(g, a_def, b_def))
            ns = sorted({i.N for i in instances})
            res.evidence += (f"; one expression fits the exact tight f of every N = {ns[0]}..{ns[-1]}: "
                             f"{res.tight_in_N} (fitted, bounded evidence)")
    if prover and not classes:
        _ask_prover(res, a, b, f_expr, when_c, symbols, alpha, N)
    return res


def _class_limits(specs, point):
    """(min, max) class size at ``point`` from several ``{"min_size", "max_size"}`` specs (the
    largest minimum, the smallest maximum), None where none is given."""
    los = [int(sympy.sympify(c["min_size"]).subs(point)) for c in specs if c.get("min_size") is not None]
    his = [int(sympy.sympify(c["max_size"]).subs(point)) for c in specs if c.get("max_size") is not None]
    return (max(los) if los else None), (min(his) if his else None)


def _partitions_for(N, lo=None, hi=None):
    """Partitions of N into >= 2 classes with every class of lo..hi records."""
    return [s for s in partitions(N, 2) if (lo is None or min(s) >= lo) and (hi is None or max(s) <= hi)]


def _class_text(a, b, classes=None) -> str:
    """How the partitions searched are restricted, for the bound."""
    specs = [a.class_dict, b.class_dict, classes or {}]
    lo = [str(c["min_size"]) for c in specs if c.get("min_size") is not None]
    hi = [str(c["max_size"]) for c in specs if c.get("max_size") is not None]
    if not lo and not hi:
        return "every partition into classes"
    parts = ([f">= {' and >= '.join(dict.fromkeys(lo))}"] if lo else []) + (
        [f"<= {' and <= '.join(dict.fromkeys(hi))}"] if hi else [])
    return f"every partition into classes of {' and '.join(parts)} records"


def _validate_sizes(d, params, n):
    if d.family == "subset":
        k = int(params["k"]) if "k" in params else None
        if k is not None and not 1 <= k <= n - 1:
            raise InputError("k out of range")


def _aggregate(a, b, f, instances, p, classes=None) -> DirectionResult:
    parts = _class_text(a, b, classes)
    if not instances:
        limited = ("" if parts == "every partition into classes"
                   else f" with a partition into >= 2 {parts.split('into ', 1)[1]} (a larger --N may have one)")
        return DirectionResult(a.label(), b.label(), "unknown", "unknown", "",
                               f"no N and parameter values satisfy the conditions{limited}", f=f)
    ns = sorted({i.N for i in instances})
    span = f"N = {ns[0]}" if ns[0] == ns[-1] else f"{ns[0]} <= N <= {ns[-1]}"
    bound = f"{span}, {p} buckets, {parts}"
    neg = [i for i in instances if i.relation == "non-implication"]
    unk = [i for i in instances if i.relation == "unknown"]
    res = DirectionResult(a.label(), b.label(), "implication", "verified-bounded", bound, "", f=f,
                          instances=instances)
    if neg:
        w = neg[0]
        res.relation, res.verdict, res.witness = "non-implication", "refuted", dict(w.witness, point=w.point)
        where = ", ".join(f"{k}={v}" for k, v in w.point.items())
        res.evidence = (f"at {where}: a table where {a.label()} has level {w.witness['level_a']} and "
                        f"{b.label()} level oo (re-checked in exact arithmetic); no f can work")
        res.bound = ""
    elif unk:
        res.relation, res.verdict = "unknown", "unknown"
        res.evidence = "; ".join(sorted({i.note for i in unk}))
    else:
        last = instances[-1]
        res.tight = last.tight
        res.tight_upto = last.fit_upto
        res.trivial = all(i.trivial for i in instances)
        trivial_notes = [i.note for i in instances if i.note.startswith("trivial")]
        if trivial_notes:
            res.evidence = f"{trivial_notes[0]} ({bound})"
        else:
            res.evidence = (f"no table with {a.label()} finite and {b.label()} infinite for {bound} "
                            f"(decided exactly by z3, linear real arithmetic)")
        if last.tight:
            where = ", ".join(f"{k}={v}" for k, v in last.point.items())
            res.evidence += f"; tight f at {where}: {last.tight}"
            if last.fit_range:
                res.evidence += f" (for {last.fit_range}; piecewise beyond)"
    if f is not None:
        bad = [i for i in instances if i.f_status == "refuted"]
        if bad:
            _f_refutation(res, a, b, bad)
        elif res.relation == "implication" and all(i.f_status == "holds-at-samples" for i in instances):
            res.f_verdict = "holds-at-samples"
            res.verdict = "unknown"
            res.evidence += (f"; f is at least the tight value at every sampled level for {bound} "
                             "(bounded evidence, not a proof)")
        elif res.relation == "implication":
            res.f_verdict, res.verdict = "unknown", "unknown"
            res.evidence += "; whether f holds is not decided (the tight f is not known)"
    return res


def _f_refutation(res, a, b, bad):
    """Report the refutation of f: at a level where f is a valid level of B where one exists, with a
    witness where f is not a valid level (degenerate) beside it."""
    valid = [i for i in bad if not i.f_witness.get("degenerate")]
    degenerate = [(i, i.f_witness) for i in bad if i.f_witness.get("degenerate")] + \
        [(i, i.f_witness_degenerate) for i in bad if i.f_witness_degenerate]
    w = (valid or bad)[0]
    res.f_verdict, res.verdict, res.witness = "refuted", "refuted", dict(w.f_witness, point=w.point)

    def describe(inst, wit):
        where = ", ".join(f"{k}={v}" for k, v in inst.point.items())
        lvl = wit.get("level", wit["level_a"])
        return (f"at {where}: a table satisfying {a.label()} at level {lvl} has {b.label()} level "
                f"{wit['level_b']}, weaker than f = {wit.get('f_at_level', 'finite')}")

    if valid:
        res.evidence = f"f is refuted {describe(w, w.f_witness)} (re-checked in exact arithmetic)"
        if w.tight:
            res.evidence += f"; the tight f there is {w.tight}"
        if degenerate:
            inst, wit = degenerate[0]
            res.degenerate_witness = dict(wit, point=inst.point)
            res.evidence += (f"; also, at a degenerate level, {describe(inst, wit)}, which is no valid level of "
                             f"{b.label()} (its strongest level is "
                             f"{b.definition.level_from_raw(strongest_raw(b.definition))})")
        return
    res.evidence = (f"f is refuted only at degenerate levels, where f is no valid level of {b.label()} (its "
                    f"strongest level is {b.definition.level_from_raw(strongest_raw(b.definition))}): "
                    f"{describe(w, w.f_witness)} (re-checked in exact arithmetic); at every sampled level "
                    f"where f is a valid level it is at least the tight value")
    if w.tight:
        res.evidence += f"; the tight f there is {w.tight}"


def _ask_prover(res, a, b, f_expr, when_c, symbols, alpha, N):
    """Where :mod:`implgraph.engines.prove` has an argument for every N, upgrade the bounded verdict."""
    if res.relation != "implication" or (res.f is not None and res.f_verdict == "refuted"):
        return
    try:
        from implgraph.engines import prove
    except ImportError:
        return
    if any(isinstance(v, str) for _, v in a.params + b.params):
        return
    syms = dict(symbols)
    syms[alpha.name] = alpha
    # the partition is the table's: one minimum class size for both sides; the prover's arguments
    # (class of the k extreme records, vertex tables with classes [k, N - k]) assume no maximum
    mins = [c["min_size"] for c in (a.class_dict, b.class_dict) if "min_size" in c]
    if any("max_size" in c for c in (a.class_dict, b.class_dict)):
        return
    spec = {"min_size": sympy.Max(*mins)} if mins else None
    r = prove.check_implication(a.name, b.name, f_expr, a_params=a.param_dict, b_params=b.param_dict,
                                when=list(when_c), max_n=N, symbols=syms, alpha=alpha,
                                a_classes=spec if a.definition.needs_classes else None,
                                b_classes=spec if b.definition.needs_classes else None)
    if r.verdict == "proved":
        res.verdict = "proved"
        res.bound = "every N"
        if res.f is not None:
            res.f_verdict = "proved"
        if r.tight is not None:
            res.tight_all_n = str(r.tight)
        res.evidence += f"; proved for every N by implgraph.engines.prove ({r.method})" + (
            f": tight f = {r.tight}" if r.tight is not None else "")
    elif r.verdict == "refuted" and r.witness:
        res.verdict = "refuted"
        if res.f is not None:
            res.f_verdict = "refuted"
        else:
            res.relation = "non-implication"
        res.witness = dict(r.witness, source="implgraph.engines.prove")
        res.evidence += f"; but implgraph.engines.prove refutes it: {r.evidence}"


@dataclass
class EdgeResult:
    """Both directions of A <-> B and their combination (ekenstedt2022, Definition 3)."""

    a: str
    b: str
    kind: str
    summary: str
    forward: DirectionResult
    backward: DirectionResult
    seconds: float = 0.0

    def to_json(self):
        return {"a": self.a, "b": self.b, "kind": self.kind, "summary": self.summary,
                "forward": self.forward.to_json(), "backward": self.backward.to_json(), "seconds": self.seconds}


def _inverse(f, g, a_def, b_def) -> bool:
    if f is None or g is None:
        return False
    alpha, beta = _level_symbol(a_def), _level_symbol(b_def)
    fe, ge = sympy.sympify(f, locals={alpha.name: alpha, beta.name: beta}), \
        sympy.sympify(g, locals={alpha.name: alpha, beta.name: beta})
    if alpha == beta:
        beta = sympy.Symbol(beta.name + "_", positive=True)
        ge = ge.subs(alpha, beta)
    one = sympy.simplify(ge.subs(beta, fe) - alpha)
    two = sympy.simplify(fe.subs(alpha, ge) - beta)
    return one == 0 and two == 0


def _fdesc(d: DirectionResult) -> str:
    if d.trivial:
        weakest = d.tight if d.tight is not None else parse_node(d.b).definition.weakest()
        return f"f = {weakest}, trivially: the weakest level of {d.b}"
    if d.tight is None:
        return "f has no closed form of low degree; see the samples"
    return f"f = {d.tight}" + (f" for level <= {d.tight_upto}, piecewise beyond" if d.tight_upto else "")


def combine(fw: DirectionResult, bw: DirectionResult, a_def, b_def) -> tuple[str, str]:
    """Definition 3 of ekenstedt2022 from the two directions."""
    A, B = fw.a, fw.b
    fi, bi = fw.relation, bw.relation
    if fi == "implication" and bi == "implication":
        if not fw.tight_upto and not bw.tight_upto and _inverse(fw.tight, bw.tight, a_def, b_def):
            return "equivalence", f"{A} <=> {B}: f = {fw.tight} and g = {bw.tight} are inverse (equivalent)"
        return "reciprocal", f"{A} => {B} ({_fdesc(fw)}) and {B} => {A} ({_fdesc(bw)}): reciprocal implications"
    if fi == "implication" and bi == "non-implication":
        return "generalisation", (f"{A} => {B} ({_fdesc(fw)}) but {B} =/=> {A}: {A} is a generalisation of {B} "
                                  "(Definition 3)")
    if fi == "non-implication" and bi == "implication":
        return "generalisation", (f"{B} => {A} ({_fdesc(bw)}) but {A} =/=> {B}: {B} is a generalisation of {A} "
                                  "(Definition 3)")
    if fi == "non-implication" and bi == "non-implication":
        return "non-implication", f"{A} =/=> {B} and {B} =/=> {A}"
    if fi == "implication":
        return "implication", f"{A} => {B} ({_fdesc(fw)}); the reverse is undecided"
    if fi == "non-implication":
        return "non-implication", f"{A} =/=> {B}; the reverse is undecided"
    if bi in ("implication", "non-implication"):
        arrow = "=>" if bi == "implication" else "=/=>"
        return bi, f"{B} {arrow} {A}; {A} => {B} is undecided"
    return "unknown", f"neither direction was decided between {A} and {B}"


def check_edge(a, b, f=None, when=(), N=4, p=2, g=None) -> EdgeResult:
    """Check the conjecture A => B (with f, if given) and the reverse direction.

    Parameters
    ----------
    a, b : str or Node
        Definitions, e.g. ``"ldp"`` or ``"kt-closeness(k=2)"`` (parameters may use N and symbols
        bound by ``when``).
    f : str, optional
        B's level as a function of A's level (A's level symbol, N, parameter symbols).
    when : list of str
        Conditions on N and the parameter symbols.
    N : int
        Check every N from 2 to ``N``.
    p : int
        Number of buckets of the tables searched.
    g : str, optional
        A conjectured function for the reverse direction.

    Returns
    -------
    EdgeResult
    """
    start = time.perf_counter()
    a = a if isinstance(a, Node) else parse_node(a)
    b = b if isinstance(b, Node) else parse_node(b)
    if isinstance(when, str):
        when = [when]
    fw = check_direction(a, b, f, when, N, p)
    bw = check_direction(b, a, g, when, N, p)
    kind, summary = combine(fw, bw, a.definition, b.definition)
    return EdgeResult(a.label(), b.label(), kind, summary, fw, bw, round(time.perf_counter() - start, 3))
