"""The prover's reading of a claim A(alpha) => B(f(alpha)) (:class:`Claim`: parameters, f and the condition in terms of
A's raw level T) and the facts about it that need no argument: a trivially met f, f = oo against a count, the classes
a table of one class allows, B's own ceiling, a certificate's premises on the condition."""

from __future__ import annotations

from dataclasses import dataclass

import sympy

from implgraph.certify.partitions import one_class_strongest
from implgraph.core.concrete import ConcreteTable
from implgraph.core.errors import InputError
from implgraph.core.formula import Word, free_names, parse_condition, parse_expr
from implgraph.core.region import Region
from implgraph.core.simplified import simplified, substituted
from implgraph.definitions.capabilities import ClassSizeLevel
from implgraph.prover.answer import Bound, T
from implgraph.prover.arguments.min import capped_finite_level
from implgraph.prover.log_tangents import at_least
from implgraph.prover.search import ceiling_bound, supremum_bound
from implgraph.prover.shapes import as_definition, decide, lowest_raw, param_ranges
from implgraph.engines.prove_points import params_at, point_text
from implgraph.engines.recheck import weakest_raw
from implgraph.engines.witness import witness_json

__all__ = ["Claim", "read_claim", "node_params", "trivially_met", "met_trivially", "covers_one_class", "one_class_possible",
           "oo_refuted", "premises_on_T", "premises_nowhere", "capped", "ceiling_of", "best_text", "auto_names",
           "read_value"]


def auto_names(text, names):
    """Declare the identifiers of ``text`` not in ``names``: N and k... integer, the others real."""
    for ident in free_names(text):
        if ident not in names:
            integer = ident == "N" or ident.startswith("k") or ident.startswith("K")
            names[ident] = sympy.Symbol(ident, integer=True) if integer else sympy.Symbol(ident, real=True)
    return names


def node_params(node) -> dict:
    """A node's parameters for :func:`check_implication`: expressions as they are, words (a parameter the
    node reads as text, e.g. ``ground=equal``) as :class:`Word`."""
    return {k: Word(v) if k in node.definition.words else v for k, v in node.param_dict.items()}


def read_value(expr_or_text, names):
    if isinstance(expr_or_text, Word):
        return expr_or_text
    if isinstance(expr_or_text, str):
        return parse_expr(expr_or_text, auto_names(expr_or_text, names))
    return sympy.sympify(expr_or_text)


@dataclass
class Claim:
    """A => B(f) read: the parameters and f as sympy, A's level symbol, the symbols' kinds, N and the
    region of the condition in terms of A's raw level T (``raw_f``: B's raw target, or None)."""

    a: object
    b: object
    a_params: dict
    b_params: dict
    conds: list
    fx: object
    alpha: sympy.Symbol
    kinds: dict
    N: sympy.Symbol
    region: Region
    raw_f: object

    def to_level(self, U):
        """B's level as a function of A's level alpha, from a raw bound U(T)."""
        raw = self.a.raw_from_level(self.alpha)
        if isinstance(U, sympy.Piecewise):    # piece by piece (simplifying a whole Piecewise is slow)
            tidy = lambda e: e if e.has(sympy.Min, sympy.Max) else simplified(e)   # noqa: E731 (a Min: slow, kept)
            return sympy.Piecewise(*[(tidy(self.b.level_from_raw(substituted(v, {T: raw}))), c.subs(T, raw))
                                     for v, c in U.args])
        if isinstance(U, sympy.Min) and len(U.args) > 2:
            # argument by argument (B's scale is increasing, so its level of a Min is the Min of the levels;
            # simplifying a Min of many arguments whole compares them pairwise, slowly)
            def tidy(v):        # (a rational function of T is factored first: simplify is slow, finds no shorter form)
                if v.is_rational_function():
                    return self.b.level_from_raw(substituted(sympy.factor(v), {T: raw}))
                return simplified(self.b.level_from_raw(substituted(v, {T: raw})))
            return sympy.Min(*[tidy(v) for v in U.args], evaluate=False)
        return simplified(self.b.level_from_raw(substituted(U, {T: raw})))


def read_claim(a, b, f, a_params, b_params, when, kinds, alpha, b_classes, symbols, a_classes=None) -> Claim:
    a, b = as_definition(a), as_definition(b)
    for d, given in ((a, a_params or {}), (b, b_params or {})):
        extra, missing = set(given) - set(d.params), set(d.params) - set(given) - set(d.words)
        if extra:
            raise InputError(f"{d.name} has no parameter(s) {', '.join(sorted(extra))}",
                             fix=f"its parameters are: {', '.join(d.params) or 'none'}")
        if missing:
            raise InputError(f"{d.name} needs parameter(s) {', '.join(sorted(missing))}",
                             fix=f"give {', '.join(sorted(missing))} in its parameters")
    names = dict(symbols or {})
    a_params = {k: Word(v) if k in a.words else read_value(v, names) for k, v in (a_params or {}).items()}
    b_params = {k: Word(v) if k in b.words else read_value(v, names) for k, v in (b_params or {}).items()}
    conds = [parse_condition(c, auto_names(c, names)) if isinstance(c, str) else sympy.sympify(c) for c in when]
    fx = None if f is None else read_value(f, names)
    all_syms = set()
    sizes = [v for spec in (a_classes, b_classes) for v in (spec or {}).values() if v is not None]
    for e in list(a_params.values()) + list(b_params.values()) + conds + ([fx] if fx is not None else []) + sizes:
        if not isinstance(e, Word):
            all_syms |= sympy.sympify(e).free_symbols
    if alpha is not None:
        alpha_sym = alpha if isinstance(alpha, sympy.Symbol) else next(
            (s for s in all_syms if s.name == str(alpha)), sympy.Symbol(str(alpha), real=True))
    else:
        alpha_sym = next((s for s in all_syms if s.name == a.level_symbol), sympy.Symbol(a.level_symbol, real=True))
    kinds = {s: k for s, k in dict(kinds or {}).items() if s in all_syms or s.name == "N"}
    for s in all_syms:
        kinds.setdefault(s, "integer" if s.is_integer else "real")
    kinds.pop(alpha_sym, None)
    N = next((s for s in kinds if s.name == "N"), sympy.Symbol("N", integer=True))
    kinds.setdefault(N, "integer")
    # A's raw level T: a real, an integer where A's level is a class size (declared ``ClassSizeLevel()``)
    kinds[T] = "integer" if a.has(ClassSizeLevel) else "real"
    # the condition in terms of T (A's raw level) instead of alpha
    alpha_of_T = a.level_from_raw(T)
    conds_T = [_in_T(sympy.sympify(c).subs(alpha_sym, alpha_of_T)) for c in conds]
    region = Region(kinds, tuple(conds_T) + (T >= lowest_raw(a), N >= 2))
    region = region.add(*param_ranges(a, b, a_params, b_params, N, b_classes))
    raw_f = None if fx is None else b.raw_from_level(fx.subs(alpha_sym, alpha_of_T))
    if raw_f is not None and raw_f.has(sympy.tanh):      # tanh(log(T)/2) is (T - 1)/(T + 1): exp's, simplified
        raw_f = raw_f.rewrite(sympy.exp)
    raw_f = None if raw_f is None else simplified(raw_f)
    return Claim(a, b, a_params, b_params, conds, fx, alpha_sym, kinds, N, region, raw_f)


def _in_T(cond):
    """A condition on A's raw level T alone that holds a log or an exp (``log(T) >= log(2)``: A's level on the log
    scale) as the polynomial relation sympy solves it into (``T >= 2``), which the solvers read; else as it is."""
    if not isinstance(cond, sympy.core.relational.Relational) or cond.free_symbols != {T} \
            or not cond.has(sympy.log, sympy.exp):
        return cond
    try:
        solved = sympy.solve_univariate_inequality(cond, T, relational=True)     # (T is declared positive)
    except (NotImplementedError, ValueError, TypeError):
        return cond
    parts = solved.args if isinstance(solved, sympy.And) else (solved,)
    kept = [x for x in parts if not (isinstance(x, sympy.core.relational.Relational) and sympy.oo in (x.lhs, x.rhs))]
    if any(x.has(sympy.log, sympy.exp) or not isinstance(x, sympy.core.relational.Relational) for x in kept):
        return cond
    return sympy.And(*kept) if kept else cond


def trivially_met(a, b, f, *, a_params=None, b_params=None, when=(), kinds=None, alpha=None, b_classes=None,
                  symbols=None) -> str | None:
    """Where f (B's level in terms of A's level ``alpha``) is at least as weak as B's weakest level at every level of A
    on the condition (``f = oo`` for a ratio, ``f >= 1`` for a distance, ``f <= 1`` for a count): why every table
    satisfies B at f, a trivial truth and no implication; else None. The arguments are :func:`check_implication`'s."""
    return met_trivially(read_claim(a, b, f, a_params, b_params, when, kinds, alpha, b_classes, symbols))


def met_trivially(c) -> str | None:
    """:func:`trivially_met` on a read claim."""
    if c.raw_f is None:
        return None
    b = c.b
    weakest = weakest_raw(b, c.N)
    if c.raw_f is sympy.oo:
        met = b.stronger == "smaller"
    elif weakest is sympy.oo or c.raw_f.has(sympy.oo, sympy.zoo, sympy.nan):
        met = False
    else:
        met = decide(c.region, sympy.Ge(c.raw_f, weakest) if b.stronger == "smaller"
                     else sympy.Le(c.raw_f, weakest)) is True
    if not met:
        return None
    return (f"trivially: f = {c.fx} is at least as weak as {b.name}'s weakest level {b.weakest(c.N)} at every level "
            f"of {c.a.name} on the condition, and every table satisfies {b.name} at its weakest level ({b.name}'s "
            f"{b.scale} scale declares every level at least as strong as {b.weakest(c.N)}; every level computed is "
            "checked against it): true of every table, whatever A, so it is no implication")


def one_class_possible(a_classes, b_classes, region, N) -> bool:
    """Can a table of one class (N records) satisfy the class sizes asked for somewhere on the condition (no maximum
    class size below N everywhere, e.g. singleton classes)?"""
    for spec in (a_classes, b_classes):
        top = (spec or {}).get("max_size")
        if top is not None and decide(region, sympy.Lt(top, N)) is True:
            return False
    return True


def covers_one_class(b, b_params, bound, region, a=None, N=None) -> bool:
    """Does ``bound``, an argument for partitions into >= 2 classes, hold on a table of one class too: is B's level
    there its strongest by its declaration (:func:`implgraph.certify.partitions.one_class_strongest`: the class is the
    table), and U (and the supremum's, where one is derived beside it) at least that on the whole condition (where A's
    level is a class size, ``a``, at most N: no table satisfies A beyond)?"""
    if not one_class_strongest(b, b_params):
        return False
    best = lowest_raw(b)
    if a is not None:       # (A's raw level is at least its strongest: T >= 0 for a distance, which sympy folds away)
        region = region.add(sympy.Ge(T, lowest_raw(a), evaluate=False))
    if a is not None and a.has(ClassSizeLevel) and N is not None:
        region = region.add(T <= N)
    return all(at_least(region, x.upper, best) for x in (bound, bound.exact) if x is not None)


def _evaluated(rel):
    """A relation read unevaluated, evaluated with its symbols' assumptions (``T > 0`` for a positive T is true)."""
    return rel.func(*rel.args) if isinstance(rel, sympy.core.relational.Relational) else rel


def premises_on_T(cert, region) -> list:
    """The premises a certificate's domain adds to the claim's condition that hold A's raw level T (sympy relations)."""
    own = {str(x) for x in region.constraints}
    names = {str(s): s for s in region.kinds}
    rels = [_evaluated(parse_condition(x, auto_names(x, names))) for x in cert["domain"] if x not in own]
    return [r for r in rels if T in r.free_symbols]


def premises_nowhere(cert, region):
    """The premises a certificate's domain adds to the claim's condition (e.g. ``2*(T) <= N``: a partition into
    two classes of >= T records), as text, where together with the condition they hold at no point; else ''."""
    own = {str(c) for c in region.constraints}
    extra = [c for c in cert["domain"] if c not in own]
    if not extra:
        return ""
    names = {str(s): s for s in region.kinds}
    rels = [_evaluated(parse_condition(c, auto_names(c, names))) for c in extra]
    if region.add(*rels).is_empty() is not True:
        return ""
    return ", ".join(c for c, r in zip(extra, rels) if region.add(r).is_empty() is not False) or ", ".join(extra)


def best_text(b) -> str:
    """``1 as a ratio`` (ratio, log and affine levels: the raw value is a ratio) / ``0 as a distance`` /
    ``1 as a count``: B's lowest raw level (:func:`implgraph.engines.bounds.lowest_raw`) in words."""
    name = b.level_scale.name
    return f"{lowest_raw(b)} as a {'ratio' if name in ('ratio', 'log', 'affine', 'log-record') else name}"


def ceiling_of(c, b_classes, region):
    """B's own ceiling on every table of N records whatever A is (:func:`ceiling_bound`), on the claim's condition
    with the parameters' ranges, or None."""
    return ceiling_bound(c.b, c.b_params, b_classes,
                         region.add(*param_ranges(c.a, c.b, c.a_params, c.b_params, c.N, b_classes)), c.N)


def supremum_of(c, b_classes, region):
    """B's own supremum on every table of N records whatever A is (:func:`supremum_bound`: a ceiling that caps
    nothing), on the claim's condition with the parameters' ranges, or None."""
    return supremum_bound(c.b, c.b_params, b_classes,
                          region.add(*param_ranges(c.a, c.b, c.a_params, c.b_params, c.N, b_classes)), c.N)


def capped(bound, c, b_classes, region):
    """A bound that is not tight, with B's ceiling beside it where the ceiling is smaller somewhere: U the smaller
    of the two (method ``min``, each part with its certificate)."""
    cap = ceiling_of(c, b_classes, region)
    if cap is None or cap.method == bound.method or decide(region, sympy.Le(bound.upper, cap.upper)) is True:
        return bound
    return capped_finite_level(c.a, bound, cap, c.N) or Bound(
        sympy.Min(bound.upper, cap.upper), False, "min",
        f"the smaller of two upper bounds: ({bound.method}) {bound.argument}; and ({cap.method}) {cap.argument}",
        checks=bound.checks + cap.checks, parts=[(sympy.true, bound), (sympy.true, cap)])


def _size_at(size, pt):
    """A minimum class size at a point (an integer), or None."""
    if size is None:
        return None
    by_name = {str(k): v for k, v in pt.items()}
    x = sympy.sympify(size)
    return int(sympy.ceiling(x.subs({s: by_name[s.name] for s in x.free_symbols if s.name in by_name})))


def oo_refuted(c, a_classes, b_classes, min_classes) -> dict:
    """The verdict on f = oo for a B whose larger levels are stronger: refuted by the first small table (two blocks of
    equal binary rows, N = 2..4, at a point of the condition) where A's level is finite and B's finite, re-checked
    exactly; unknown where none is found."""
    from implgraph.engines.blocks import candidate_tables
    from implgraph.engines.recheck import is_witness, raw_level
    from implgraph.core.concrete import INF
    a, b = c.a, c.b
    classed = a.needs_classes or b.needs_classes
    for n in range(2, 5):
        pt = Region(c.region.kinds, c.region.constraints).find_point(sympy.Eq(c.N, n))
        if pt is None:
            continue
        a_ps, b_ps = params_at(c.a_params, pt), params_at(c.b_params, pt)
        lo = _size_at((a_classes or b_classes or {}).get("min_size"), pt)
        tables = list(candidate_tables(a, b, n, list(a_ps.values()) + list(b_ps.values()), classed, lo))
        if classed and min_classes < 2:
            tables += [ConcreteTable.from_fractions([[1, 0]] * n, classes=["E1"] * n)]
        for ct in tables:
            ra = raw_level(a, a_ps, ct)
            if ra is None or ra == INF or not is_witness(a, a_ps, b, b_ps, ct, a_raw=ra, f_raw=sympy.oo):
                continue
            level = a.level_from_raw(ra if isinstance(ra, sympy.Basic) else sympy.Rational(ra.numerator, ra.denominator))
            return {"verdict": "refuted", "tightness": "wrong",
                    "evidence": (f"f = oo is stronger than every level {b.name} has on a table (larger is stronger, and "
                                 f"a table's level is finite): at {point_text(pt)} a table satisfying {a.name} at "
                                 f"{c.alpha} = {level} has {b.name} level {b.level_from_raw(raw_level(b, b_ps, ct))} "
                                 "(re-checked in exact arithmetic)"),
                    "witness": witness_json(ct, {str(k): v for k, v in pt.items() if k != T}, **{str(c.alpha): level})}
    return {"verdict": "unknown", "evidence": f"f = oo is stronger than every level of {b.name}, but no small table "
                                              f"satisfying {a.name} was found at a point of the condition"}
