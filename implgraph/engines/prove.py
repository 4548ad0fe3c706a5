"""The prover: implications A(alpha) => B(f(alpha)) for every N (and k), with the tight f.

:func:`check_implication` tries, in order, arguments that hold for every value of the parameters,
each of which yields an upper bound ``U`` of B's raw level (ratio) in terms of A's raw level ``T``
(and says whether ``U`` is the supremum, i.e. the *tight* f):

``same-level``
    A and B are the same definition with the same parameters: the optimal level is monotone, so
    B's level is at most A's (``U = T``, tight).
``subset-monotone``
    A and B are subset-ratio definitions ((k,t)-closeness: subset size k; (k,eps)-DP: N - k;
    eps-DP: N - 1) with B's subset size j_B >= A's j_A on the whole condition (decided by z3): the mean
    of the j smallest values is nondecreasing in j and the mean of the j largest nonincreasing, so
    B's ratio is at most A's (``U = T``; tight when j_B = j_A identically, i.e. the level functions
    coincide).
``subset-to-classes``
    A subset-ratio with subset size j, B multiplicative t-closeness with classes of size >= s >= j:
    a class mean lies between the mean of the s smallest and the s largest values, hence between the
    j-extremes (``U = T``; tight when s = j: the class of the j extreme records reaches A's level).
``vertex``
    A is eps-LDP (every bucket's values lie in a box [a, T a]); B's ratio (subset-ratio or class ratio)
    is a maximum of linear-fractional functions of each value, so its maximum over the box is at a
    vertex: m values T a and N - m values a. The engine maximises the vertex value over m (checked
    with z3 on the reals, m in [0, N]) and gets the tight ``U``: ((N - j) T + j)/N for subset size j,
    (k + (N - k) T)/N for classes of size >= k. The maximum is attained by a binary table (a = 1/(T+1)).
``product``
    A is (1,t)-closeness (or multiplicative t-closeness with singleton classes, the same level), B is
    eps-LDP: for a bucket with minimum a, maximum b and mean m, b <= T m and m <= T a give b/a <= T^2;
    with the mean between (b + (N-1) a)/N and (a + (N-1) b)/N also b/a <= N(T - 1) + 1. The engine
    checks both with z3 and attains ``U = Min(T^2, N (T - 1) + 1)`` with an explicit table.

Then the printed f is compared with ``U`` on the claim's whole condition (:meth:`Region.decide`):
``f >= U`` everywhere -> ``proved`` (tight, or loose with the tight f); ``f < U`` somewhere and U
tight -> ``refuted`` with an exact witness table (built at a point of the condition, re-checked with
:func:`implgraph.engines.refute.is_witness`). Where no argument applies, the z3 refuter checks every N <=
``max_n``: ``verified-bounded`` ("N <= n") when no witness exists, ``refuted`` when one does,
``unknown`` on a solver timeout.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from fractions import Fraction

import sympy

from implgraph import definitions
from implgraph.core.concrete import ConcreteTable
from implgraph.core.formula import parse_condition, parse_expr
from implgraph.core.levels import optimal_level
from implgraph.engines.refute import find_witness, is_witness, witness_json
from implgraph.core.region import Region

__all__ = ["ProofResult", "check_implication", "tight_bound", "param_ranges", "Bound", "T"]

#: A's raw level (t, or e^eps)
T = sympy.Symbol("T", positive=True)


@dataclass
class Bound:
    """An upper bound U(T, params) of B's raw level given A's raw level <= T."""

    upper: sympy.Expr
    tight: bool
    method: str
    argument: str
    build: object = None            # point -> ConcreteTable reaching U (or None)
    checks: list = field(default_factory=list)


@dataclass
class ProofResult:
    """Verdict-like outcome of :func:`check_implication`."""

    verdict: str
    evidence: str = ""
    tight: sympy.Expr | None = None         # B's tight level as a function of A's level
    tightness: str | None = None            # tight | loose | wrong | not derived
    bound: str | None = None
    witness: dict | None = None
    method: str | None = None
    seconds: float = 0.0
    details: dict = field(default_factory=dict)

    @property
    def tight_str(self):
        return None if self.tight is None else str(self.tight)


def _defn(d):
    return definitions.get(d) if isinstance(d, str) else d


def _auto_names(text, names):
    """Declare the identifiers of ``text`` not in ``names``: N and k... integer, the others real."""
    import re
    from implgraph.core.formula import CONSTANTS, FUNCTIONS
    for ident in set(re.findall(r"[A-Za-z_][A-Za-z_0-9]*", text)) - set(FUNCTIONS) - set(CONSTANTS):
        if ident not in names:
            integer = ident == "N" or ident.startswith("k") or ident.startswith("K")
            names[ident] = sympy.Symbol(ident, integer=True) if integer else sympy.Symbol(ident, real=True)
    return names


def _sym(expr_or_text, names):
    if isinstance(expr_or_text, str):
        return parse_expr(expr_or_text, _auto_names(expr_or_text, names))
    return sympy.sympify(expr_or_text)


def subset_size_expr(d, N, params):
    """Symbolic subset size of a subset-ratio definition, or None."""
    if getattr(d, "z3_shape", None) != "subset-ratio":
        return None
    j = d.subset_size(N, **{k: sympy.sympify(v) for k, v in params.items()})
    return None if j is None else sympy.sympify(j)


def _decide(region, cond):
    """Three-valued ``region.decide``; an error inside it is a bug and propagates."""
    return region.decide(cond)


def _binary_column_table(values, labels=None):
    rows = [[v, 1 - v] for v in values]
    return ConcreteTable.from_fractions(rows, classes=labels)


def _frac(x):
    x = sympy.Rational(x)
    return Fraction(int(x.p), int(x.q))


# -- the arguments -------------------------------------------------------------------------------

def param_ranges(a, b, a_params, b_params, N, b_classes=None) -> list:
    """The ranges where the parameters mean something: 1 <= k <= N - 1 for a group size ``k``, and
    1 <= s, 2 s <= N for B's minimum class size ``s`` (a partition into >= 2 classes; with a single
    class the level is 1, below every bound)."""
    ranges = []
    for d, ps in ((a, a_params), (b, b_params)):
        if "k" in d.params and "k" in ps:
            ranges += [sympy.Ge(sympy.sympify(ps["k"]), 1), sympy.Le(sympy.sympify(ps["k"]), N - 1)]
    if b.z3_shape == "class-ratio" and (b_classes or {}).get("min_size") is not None:
        s_ = sympy.sympify(b_classes["min_size"])
        ranges += [sympy.Ge(s_, 1), sympy.Le(2 * s_, N)]
    return [c for c in ranges if c not in (sympy.true, True)]


def tight_bound(a, b, a_params, b_params, region, N, a_classes=None, b_classes=None):
    """The strongest :class:`Bound` the engine can establish for A => B, or None."""
    a, b = _defn(a), _defn(b)
    if b.z3_shape == "class-ratio" and not b_classes:
        b_classes = {"min_size": sympy.Integer(1)}   # any partition: classes of size >= 1
    region = region.add(*param_ranges(a, b, a_params, b_params, N, b_classes))
    ja = subset_size_expr(a, N, a_params)
    jb = subset_size_expr(b, N, b_params)
    # same definition, same parameters
    if a.name == b.name and all(sympy.simplify(sympy.sympify(a_params[k]) - sympy.sympify(b_params.get(k, 0))) == 0
                                for k in a_params) and not a_classes and not b_classes:
        return Bound(T, True, "same-level",
                     "A and B are the same definition with the same parameters: a table satisfying it at "
                     "level alpha has optimal level <= alpha, so B holds at every level >= alpha, and at "
                     "no smaller level on a table whose optimal level is alpha")
    if ja is not None and jb is not None:
        same = sympy.simplify(ja - jb) == 0 or _decide(region, sympy.Eq(jb, ja)) is True
        ok = True if same else _decide(region, sympy.Ge(jb, ja))
        if ok is True:
            arg = (f"both are subset-ratio levels (subset sizes j_A = {ja}, j_B = {jb}); "
                   + ("j_A = j_B on the whole condition, so the two level functions coincide (Definitions 5, 7, 8: "
                      "(k,eps)-DP is ln of the subset ratio of size N - k)" if same else
                      "j_B >= j_A on the whole condition (z3), and the mean of the j smallest values "
                      "is nondecreasing in j, the mean of the j largest nonincreasing, so B's ratio is "
                      "at most A's"))
            return Bound(T, bool(same), "subset-monotone", arg,
                         checks=[f"j_B >= j_A on the condition: {ok}"])
    if ja is not None and b.z3_shape == "class-ratio" and b_classes and b_classes.get("min_size") is not None:
        s = sympy.sympify(b_classes["min_size"])
        ok = _decide(region, sympy.Ge(s, ja))
        if ok is True:
            same = sympy.simplify(s - ja) == 0
            return Bound(T, bool(same), "subset-to-classes",
                         f"every class has >= {s} >= j_A = {ja} records; a class mean lies between the means "
                         f"of its size's smallest and largest values, hence between the j_A-extreme means, so "
                         f"each class ratio is at most A's ratio" + (
                             "; tight: the class of the j_A extreme records of the bucket that attains A's "
                             "level has exactly A's ratio" if same else ""),
                         checks=[f"min class size >= j_A on the condition: {ok}"])
    if a.z3_shape == "pairwise" and (jb is not None or (b.z3_shape == "class-ratio" and b_classes
                                                         and b_classes.get("min_size") is not None)):
        return _vertex_bound(b, jb, b_classes, region, N)
    singleton_a = (a.z3_shape == "class-ratio" and a_classes and
                   sympy.sympify(a_classes.get("max_size", 0)) == 1)
    if (ja is not None and sympy.simplify(ja - 1) == 0 or singleton_a) and b.z3_shape == "pairwise":
        return _product_bound(region, N, singleton=bool(singleton_a))
    return None


def _vertex_bound(b, jb, b_classes, region, N):
    m = sympy.Symbol("m", real=True)
    checks = []
    if jb is not None:
        j = jb
        U = ((N - j) * T + j) / N
        other = N * T / (j * T + N - j)
        # vertex values g(m): m values T*a, N - m values a (a = 1)
        mean = (m * T + N - m) / N
        pieces = [
            ("mean/min_j, m <= N - j", mean / 1, [m >= 0, m <= N - j]),
            ("mean/min_j, m >= N - j", mean / ((N - m + (j - N + m) * T) / j), [m >= N - j, m <= N]),
            ("max_j/mean, m >= j", T / mean, [m >= j, m <= N]),
            ("max_j/mean, m <= j", ((m * T + j - m) / j) / mean, [m >= 0, m <= j]),
        ]
        what = f"subset size j = {j}"
    else:
        k = sympy.sympify(b_classes["min_size"])
        e = sympy.Symbol("e", real=True)
        U = (k + (N - k) * T) / N
        other = N * T / (k * T + N - k)
        # class E of size e at a (or T a), the rest at T a (or a): the extreme of each class ratio
        pieces = [
            ("Pr_D/Pr_E, E at a, rest at T a", (e + (N - e) * T) / N, [e >= k, e <= N - k]),
            ("Pr_E/Pr_D, E at T a, rest at a", N * T / (e * T + N - e), [e >= k, e <= N - k]),
        ]
        m = e
        what = f"classes of size >= {k}"
    ok_all = True
    for label, g, dom in pieces:
        reg = region.with_symbols({m: "real"}).add(*dom)
        r = _decide(reg, sympy.Le(sympy.together(g - U), 0))
        checks.append(f"{label} <= U: {r}")
        if r is not True:
            ok_all = False
    r = _decide(region, sympy.Ge(U, other))
    checks.append(f"U >= the other side's extreme {other}: {r}")
    if not ok_all:
        return None

    def build(point):
        Tv = sympy.Rational(point[T])
        Nv = int(point[N]) if N in point else int(N)
        a = sympy.Rational(1) / (Tv + 1)
        if jb is not None:
            jv = int(sympy.sympify(jb).subs(point))
            vals = [a] * jv + [Tv * a] * (Nv - jv)
            return _binary_column_table([_frac(v) for v in vals])
        kv = int(sympy.sympify(b_classes["min_size"]).subs(point))
        vals = [a] * kv + [Tv * a] * (Nv - kv)
        return _binary_column_table([_frac(v) for v in vals], labels=["E1"] * kv + ["E2"] * (Nv - kv))

    arg = (f"A is eps-LDP: every bucket's values lie in [a, T a]. B's ratio ({what}) is a maximum of "
           f"linear-fractional functions of each value, so its maximum over the box is at a vertex "
           f"(m values T a, N - m values a); z3 checked that every vertex value is at most "
           f"U = {sympy.simplify(U)} (m real in [0, N]) and that U dominates the other ratio; U is attained "
           f"by a binary table with a = 1/(T + 1)")
    return Bound(sympy.simplify(U), True, "vertex", arg, build=build, checks=checks)


def _product_bound(region, N, singleton=False):
    a_, b_, m_ = sympy.symbols("a_ b_ m_", positive=True)
    reg = region.with_symbols({a_: "real", b_: "real", m_: "real"}).add(
        a_ > 0, a_ <= b_, b_ <= T * m_, m_ <= T * a_, b_ + (N - 1) * a_ <= N * m_, N * m_ <= a_ + (N - 1) * b_)
    c1 = _decide(reg, sympy.Le(b_, T ** 2 * a_))
    c2 = _decide(reg, sympy.Le(b_, (N * (T - 1) + 1) * a_))
    checks = [f"b <= T^2 a: {c1}", f"b <= (N (T - 1) + 1) a: {c2}"]
    if c1 is not True:
        return None
    U = sympy.Min(T ** 2, N * (T - 1) + 1) if c2 is True else T ** 2

    def build(point):
        Tv = sympy.Rational(point[T])
        Nv = int(point[N]) if N in point else int(N)
        if Tv == 1:
            vals = [sympy.Rational(1, 2)] * Nv
        else:
            r = min(Tv ** 2, Nv * (Tv - 1) + 1)
            if Nv == 2:
                mean = (1 + r) / 2
                mids = []
            else:
                mean = max(r / Tv, (r + Nv - 1) / Nv)
                y = (Nv * mean - 1 - r) / (Nv - 2)
                mids = [y] * (Nv - 2)
            sc = (Tv - 1) / (Tv * r + Tv * mean)
            vals = sorted([sc] + [sc * y for y in mids] + [sc * r])
        labels = [f"E{i + 1}" for i in range(Nv)] if singleton else None
        return _binary_column_table([_frac(v) for v in vals], labels=labels)

    arg = ("for a bucket with minimum a, maximum b and mean m, A gives b <= T m and m <= T a, so "
           "b/a <= T^2" + ("; the mean lies between (b + (N-1) a)/N and (a + (N-1) b)/N, so also "
                           "b/a <= N (T - 1) + 1" if c2 is True else "") +
           " (both checked with z3); the bound is attained by a table with one record at a, one at b and "
           "N - 2 at a middle value" + (" (singleton classes make multiplicative t-closeness the (1,t)-closeness "
                                        "level)" if singleton else ""))
    return Bound(U, True, "product", arg, build=build, checks=checks)


# -- the driver ----------------------------------------------------------------------------------

def _int_symbols(kinds):
    return [s for s, k in kinds.items() if k == "integer"]


def _grid_points(region, kinds, ints, reals, max_n, extra_T=True, limit=400):
    """Concrete points of the region: integers up to max_n, reals from a small grid, T from a grid."""
    grid_real = [sympy.Integer(1), sympy.Rational(5, 4), sympy.Rational(3, 2), sympy.Integer(2),
                 sympy.Integer(3), sympy.Integer(5), sympy.Integer(10)]
    rng = range(0, max_n + 1)
    out = []
    Ns = [s for s in ints if s.name == "N"]
    others = [s for s in ints if s.name != "N"]
    order = Ns + others
    for combo in itertools.product(rng, repeat=len(order)):
        pt = dict(zip(order, map(sympy.Integer, combo)))
        if Ns and pt[Ns[0]] < 2:
            continue
        for rc in itertools.product(grid_real, repeat=len(reals)):
            p2 = dict(pt)
            p2.update(dict(zip(reals, rc)))
            if region.contains(p2) is True:
                out.append(p2)
                if len(out) >= limit:
                    return out
    return out


def check_implication(a, b, f=None, *, a_params=None, b_params=None, when=(), max_n=12, kinds=None,
                      alpha=None, a_classes=None, b_classes=None, timeout_ms=2000, symbols=None):
    """Prove, bound-check or refute A(alpha) => B(f(alpha)).

    Parameters
    ----------
    a, b : str or Definition
    f : str or sympy expression, optional
        B's level (in B's units) as a function of A's level ``alpha`` and the parameters. None: the
        claim is only that some f exists.
    a_params, b_params : dict
        Parameters (sympy expressions in N, k, ...).
    when : sequence
        Conditions (sympy relations or strings) on the parameters and levels.
    max_n : int
        Bound of the bounded check when no argument for all N applies.
    kinds : dict, optional
        ``{Symbol: "integer" | "real"}``; inferred from the symbols' assumptions otherwise.
    alpha : Symbol or str, optional
        A's level symbol in ``f`` (default: A's level symbol name).
    a_classes, b_classes : dict, optional
        Class-size constraints ``{"min_size": expr, "max_size": expr}`` for multiplicative t-closeness.

    Returns
    -------
    ProofResult
        ``verdict`` is proved / verified-bounded / refuted / unknown; ``tight`` the tight f (B's
        units, in terms of A's level) when derived; ``tightness`` tight / loose / wrong / not derived.
    """
    start = time.perf_counter()
    a, b = _defn(a), _defn(b)
    names = dict(symbols or {})
    a_params = {k: _sym(v, names) for k, v in (a_params or {}).items()}
    b_params = {k: _sym(v, names) for k, v in (b_params or {}).items()}
    conds = [parse_condition(c, _auto_names(c, names)) if isinstance(c, str) else sympy.sympify(c) for c in when]
    fx = None if f is None else _sym(f, names)
    all_syms = set()
    for e in list(a_params.values()) + list(b_params.values()) + conds + ([fx] if fx is not None else []):
        all_syms |= sympy.sympify(e).free_symbols
    alpha_sym = None
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
    kinds[T] = "real"
    # the condition in terms of T (A's raw level) instead of alpha
    alpha_of_T = a.level_from_raw(T)
    conds_T = [sympy.sympify(c).subs(alpha_sym, alpha_of_T) for c in conds]
    region = Region(kinds, tuple(conds_T) + (T >= 1, N >= 2))
    region = region.add(*param_ranges(a, b, a_params, b_params, N, b_classes))
    raw_f = None
    if fx is not None:
        raw_f = sympy.simplify(b.raw_from_level(fx.subs(alpha_sym, alpha_of_T)))

    def finish(verdict, **kw):
        res = ProofResult(verdict=verdict, seconds=round(time.perf_counter() - start, 3), **kw)
        if invalid:
            where = ", ".join(f"{'A raw level' if k == T else k} = {v}" for k, v in invalid.items())
            res.evidence += f"; finding: f is not a valid level (below 1 as a ratio) at {where}"
            res.details["invalid_f_at"] = {str(k): str(v) for k, v in invalid.items()}
        return res

    def to_level(U):
        # B's level as a function of A's level alpha
        return sympy.simplify(b.level_from_raw(U.subs(T, a.raw_from_level(alpha_sym))))

    invalid = None
    if raw_f is not None:
        # an f below 1 (raw) is not a valid level: a finding, reported with a point
        if _decide(region, sympy.Ge(raw_f, 1)) is not True:
            invalid = region.find_point(sympy.Lt(raw_f, 1))
    bound = tight_bound(a, b, a_params, b_params, region, N, a_classes, b_classes)
    if bound is not None:
        details = {"method": bound.method, "checks": bound.checks, "U_raw": str(bound.upper)}
        tight_f = to_level(bound.upper) if bound.tight else None
        if raw_f is None:
            return finish("proved", evidence=f"{bound.method}: {bound.argument}", tight=tight_f,
                          tightness="tight" if bound.tight else "not derived", method=bound.method, details=details)
        valid = _decide(region, sympy.Ge(raw_f, bound.upper))
        if valid is not True:
            # the same comparison in level units, in terms of alpha (keeps e.g. eps0 <= eps1 linear)
            dom = alpha_sym >= a.level_from_raw(1)      # A's strongest level, in A's own units
            areg = Region({**{s: k for s, k in kinds.items() if s != T}, alpha_sym: "real"},
                          tuple(conds) + (dom, N >= 2))
            lvl_f = fx
            v2 = _decide(areg, sympy.Ge(lvl_f, to_level(bound.upper)))
            if v2 is True:
                valid = True
        if valid is True:
            is_eq = sympy.simplify(raw_f - bound.upper) == 0
            tightness = ("tight" if is_eq else "loose") if bound.tight else "not derived"
            if bound.tight and not is_eq and _decide(region, sympy.Eq(raw_f, bound.upper)) is True:
                tightness = "tight"
            equal_at = None
            if tightness == "loose":
                equal_at = region.find_point(sympy.Eq(raw_f, bound.upper))
            if tightness == "not derived":
                probe = _probe_tightness(a, b, fx, region, kinds, alpha_sym, a_params, b_params, a_classes,
                                         b_classes, N)
                if probe:
                    details["tightness_probe"] = probe["text"]
                    tightness = probe["label"]
            ev = f"proved for every parameter value ({bound.method}): {bound.argument}"
            if tightness == "loose" and equal_at:
                tightness = "tight at some parameter values, loose at others"
                ev += f"; f is tight at some parameter values and loose at others: the tight f is {tight_f}"
                if equal_at:
                    ev += (" (f equals it at some parameter values, e.g. "
                           + ", ".join(f"{'A raw level' if k == T else k} = {v}" for k, v in equal_at.items()) + ")")
            elif tightness == "loose":
                ev += f"; f is loose: the tight f is {tight_f}"
            elif tightness == "tight":
                ev += "; f is tight"
            if "tightness_probe" in details:
                ev += "; tightness (sampled): " + details["tightness_probe"]
            return finish("proved", evidence=ev, tight=tight_f, tightness=tightness, method=bound.method,
                          details=details)
        if bound.tight:
            # f < U somewhere: a witness at such a point
            wit = _refute_at_gap(a, b, fx, raw_f, bound, region, kinds, alpha_sym, a_params, b_params,
                                 a_classes, b_classes, max_n, N)
            if wit is not None:
                pt, table, alpha_value = wit
                ev = (f"f is below the tight bound at {_fmt(pt)}: the witness satisfies {a.name} at "
                      f"{alpha_sym} = {alpha_value} and has {b.name} level {b.level_from_raw(_raw(table, b, b_params, pt))} "
                      f"> f = {sympy.simplify(fx.subs(alpha_sym, alpha_value).subs(pt))}; tight f = {tight_f} "
                      f"({bound.method}: {bound.argument})")
                if bool(sympy.simplify(raw_f.subs(pt)) < 1):
                    ev += ("; this is a degenerate level (f is below 1 as a ratio, no valid level): no witness "
                           "was found at a point where f is a valid level")
                return finish("refuted", evidence=ev, tight=tight_f, tightness="wrong", method=bound.method,
                              witness=witness_json(table, {str(k): v for k, v in pt.items() if k != T},
                                                   **{str(alpha_sym): alpha_value}), details=details)
    # no argument for all N: first a definitive non-implication (A finite, B infinite) at small N
    if bound is None and not ((a_classes or {}).get("max_size") is not None):
        r0 = _bounded(a, b, None, None, region, kinds, alpha_sym, a_params, b_params, a_classes, b_classes,
                      min(max_n, 5), N, min(timeout_ms, 1000), start, limit=12)
        if r0.verdict == "refuted":
            r0.evidence = ("no f can work: " + r0.evidence + f" (A's level is finite, B's is infinite); "
                           "the implication fails for every f")
            r0.tightness = "wrong"
            return r0
    # no argument for all N: bounded check with the refuter
    return _bounded(a, b, fx, raw_f, region, kinds, alpha_sym, a_params, b_params, a_classes, b_classes,
                    max_n, N, timeout_ms, start, prior=bound)


def _probe_tightness(a, b, fx, region, kinds, alpha_sym, a_params, b_params, a_classes, b_classes, N,
                     max_points=6):
    """Where no tight f is derived: at a few parameter points and levels, does some table exceed
    999/1000 of f (f approached), or does z3 prove none exists (f loose there)?"""
    if fx is None or a_classes or b_classes:
        return None
    ints = [s for s in kinds if kinds[s] == "integer"]
    reals = [s for s in kinds if kinds[s] == "real" and s != T]
    if reals:
        return None
    reg_params = Region({s: k for s, k in kinds.items() if s != T},
                        tuple(c for c in region.constraints if T not in sympy.sympify(c).free_symbols))
    pts = [p for p in _grid_points(reg_params, kinds, ints, reals, 8, limit=400)]
    # spread the sample: points whose parameters all differ (not the trivial equal-parameter case),
    # the largest N first, then the smallest
    def distinct(p):
        vals = [int(v) for k, v in p.items() if k != N]
        return len(set(vals)) == len(vals)
    strict = [p for p in pts if distinct(p)] or pts
    strict.sort(key=lambda p: -int(p.get(N, 0)))
    half = max_points // 2
    pts = strict[:half] + [p for p in reversed(strict) if p not in strict[:half]][:max_points - half]
    scaled = b.level_from_raw(b.raw_from_level(fx) * sympy.Rational(999, 1000))
    reached, loose = [], []
    for pt in pts:
        for Tv in (sympy.Integer(2), sympy.Integer(10)):
            p2 = dict(pt)
            p2[T] = Tv
            if region.contains(p2) is not True:
                continue
            aps = {k: int(sympy.sympify(v).subs(pt)) for k, v in a_params.items()}
            bps = {k: int(sympy.sympify(v).subs(pt)) for k, v in b_params.items()}
            r = find_witness(a, b, scaled.subs(pt), N=int(pt[N]), a_params=aps, b_params=bps, alpha=alpha_sym,
                             alpha_value=a.level_from_raw(Tv), timeout_ms=1000)
            where = ", ".join(f"{k} = {v}" for k, v in pt.items()) + f", A's ratio {Tv}"
            if r.status == "refuted":
                reached.append(where)
            elif r.status == "none-found":
                loose.append(where)
    if not reached and not loose:
        return None
    if loose and reached:
        label = "tight at some parameter values, loose at others"
    elif loose:
        label = "loose at every sampled point"
    else:
        label = "approached within 0.1% at every sampled point"
    text = label
    if reached:
        text += f"; a table exceeds 999/1000 of f at {reached[0]}"
    if loose:
        text += f"; z3 proves no binary table exceeds 999/1000 of f at {loose[0]}"
    return {"label": label, "text": text}


def _raw(table, d, params, pt):
    ps = {k: int(sympy.sympify(v).subs(pt)) for k, v in params.items()}
    lv = optimal_level(table, d, **ps)
    return lv.pieces[0].value


def _fmt(pt):
    return ", ".join(f"{k} = {v}" for k, v in pt.items() if k != T)


def _refute_at_gap(a, b, fx, raw_f, bound, region, kinds, alpha_sym, a_params, b_params, a_classes, b_classes,
                   max_n, N):
    if bound.build is None:
        return None
    ints = [s for s in kinds if kinds[s] == "integer"]
    reals = [s for s in kinds if kinds[s] == "real" and s != T]
    cands = []
    reg_params = Region({s: k for s, k in kinds.items() if s != T},
                        tuple(c for c in region.constraints if T not in sympy.sympify(c).free_symbols))
    for pt in _grid_points(reg_params, kinds, ints, reals, max(max_n, 6), limit=300):
        for Tv in (sympy.Integer(2), sympy.Rational(3, 2), sympy.Integer(3), sympy.Integer(10)):
            p2 = dict(pt)
            p2[T] = Tv
            if region.contains(p2) is not True:
                continue
            gap = sympy.simplify((raw_f - bound.upper).subs(p2))
            if gap.is_number and bool(gap < 0):
                cands.append(p2)
                break
        if sum(1 for c in cands if bool(sympy.simplify(raw_f.subs(c)) >= 1)) >= 2 or len(cands) >= 12:
            break
    # prefer points where f is a valid level (>= 1): the witness then is not just about an invalid f
    cands.sort(key=lambda c: not bool(sympy.simplify(raw_f.subs(c)) >= 1))
    for p2 in cands:
        table = bound.build(p2)
        if table is None:
            continue
        alpha_value = sympy.simplify(a.level_from_raw(p2[T]))
        a_ps = {k: int(sympy.sympify(v).subs(p2)) for k, v in a_params.items()}
        b_ps = {k: int(sympy.sympify(v).subs(p2)) for k, v in b_params.items()}
        vals = {s: v for s, v in p2.items() if s != T}
        fconc = fx.subs(vals)
        adef = a
        if a.z3_shape == "class-ratio" and table.classes is None:
            continue
        if is_witness(table, adef, b, fconc, alpha_value, a_ps, b_ps, alpha=alpha_sym):
            return {k: v for k, v in p2.items()}, table, alpha_value
    return None


def _bounded(a, b, fx, raw_f, region, kinds, alpha_sym, a_params, b_params, a_classes, b_classes, max_n, N,
             timeout_ms, start, prior=None, limit=120):
    ints = [s for s in kinds if kinds[s] == "integer"]
    reals = [s for s in kinds if kinds[s] == "real" and s != T]
    # points of the parameter region (T free)
    reg_params = Region({s: k for s, k in kinds.items() if s != T},
                        tuple(c for c in region.constraints if T not in sympy.sympify(c).free_symbols))
    points = _grid_points(reg_params, kinds, ints, reals, max_n, limit=limit)
    if not points:
        return ProofResult("unknown", evidence=f"no parameter values with N <= {max_n} satisfy the condition",
                           seconds=round(time.perf_counter() - start, 3))
    none_found, unknown, notes = 0, 0, []
    partitions = set()
    for pt in points:
        Nv = int(pt[N])
        a_ps = {k: int(sympy.sympify(v).subs(pt)) for k, v in a_params.items()}
        b_ps = {k: int(sympy.sympify(v).subs(pt)) for k, v in b_params.items()}
        fconc = None if fx is None else fx.subs({s: v for s, v in pt.items()})
        for classes in _class_options(a_classes, b_classes, pt, Nv, a.needs_classes or b.needs_classes):
            if classes:
                partitions.add(tuple(classes))
            if fconc is not None and fconc.free_symbols - {alpha_sym}:
                unknown += 1
                continue
            # the condition may restrict A's level (e.g. t0 <= t1): fix A's level on a grid then
            conds_T = [sympy.sympify(c).subs(pt) for c in region.constraints]
            T_restricted = any(T in c.free_symbols and c != (T >= 1) for c in conds_T if hasattr(c, "free_symbols"))
            alphas = [None]
            if T_restricted:
                alphas = [a.level_from_raw(tv) for tv in (sympy.Integer(1), sympy.Rational(5, 4), sympy.Rational(3, 2),
                                                          sympy.Integer(2), sympy.Integer(3), sympy.Integer(10))
                          if Region(region.kinds, tuple(sympy.sympify(c).subs(pt).subs(T, tv) for c in region.constraints
                                                       )).contains({}) is True]
                if not alphas:
                    continue
            for av in alphas:
                r = find_witness(a, b, fconc, N=Nv, a_params=a_ps, b_params=b_ps, alpha=alpha_sym,
                                 alpha_value=av, classes=classes, timeout_ms=timeout_ms)
                if r.status == "refuted":
                    ev = (f"witness at {_fmt(pt)}: satisfies {a.name} at {alpha_sym} = {r.alpha_value} "
                          f"(its level {r.level_a}) and has {b.name} level {r.level_b}"
                          + ("" if fconc is None else f" > f = {sympy.simplify(fconc.subs(alpha_sym, r.alpha_value))}"))
                    return ProofResult("refuted", evidence=ev, bound=r.bound, method="refuter",
                                       witness=witness_json(r.witness, {str(k): v for k, v in pt.items()},
                                                            **{str(alpha_sym): r.alpha_value}),
                                       seconds=round(time.perf_counter() - start, 3),
                                       tightness="wrong" if fx is not None else None,
                                       details={"refuter": r.note})
                if r.status == "none-found" and av is None:
                    none_found += 1
                else:
                    unknown += 1
                    if r.note:
                        notes.append(r.note)
    secs = round(time.perf_counter() - start, 3)
    if unknown == 0 and none_found:
        part = ""
        if partitions and not all(set(p) == {1} for p in partitions):
            part = " (only the partitions into consecutive classes of sizes " + ", ".join(
                str(list(p)) for p in sorted(partitions)[:6]) + ")"
        return ProofResult("verified-bounded", bound=f"N <= {max_n}" + (" (some partitions)" if part else ""),
                           evidence=f"z3 proved that no binary table with N <= {max_n} is a witness "
                                    f"({none_found} parameter combinations, every level of A){part}",
                           method="refuter", seconds=secs,
                           details={"prior": None if prior is None else prior.method})
    return ProofResult("unknown", evidence=f"no witness found for N <= {max_n}, but {unknown} searches were "
                                          f"inconclusive" + (f" ({notes[0]})" if notes else ""),
                       bound=f"N <= {max_n} (partial)", method="refuter", seconds=secs)


def _class_options(a_classes, b_classes, pt, Nv, needs_classes=False):
    spec = a_classes or b_classes
    if not spec:
        return [None] if not needs_classes else [[1, Nv - 1]] + ([[Nv // 2, Nv - Nv // 2]] if Nv >= 4 else [])
    lo = int(sympy.sympify(spec.get("min_size", 1)).subs(pt))
    hi = int(sympy.sympify(spec.get("max_size", Nv)).subs(pt))
    lo = max(lo, 1)
    if hi == 1:
        return [[1] * Nv]
    opts = []
    if lo <= Nv - lo:
        opts.append([lo, Nv - lo])
    if 3 * lo <= Nv:
        opts.append([lo, lo, Nv - 2 * lo])
    if Nv % 2 == 0 and Nv // 2 >= lo and [Nv // 2, Nv // 2] not in opts:
        opts.append([Nv // 2, Nv // 2])
    return opts or [None]
