"""Certificates of the prover's "proved": the data an independent checker needs.

:func:`certificate` turns an argument of :mod:`implgraph.engines.bounds` into JSON that
:mod:`implgraph.certify` re-checks without the prover: the two sides described by their
declarations (family, sides, subset size or class sizes), the domain (the claim's condition in
terms of A's raw level T), the upper bound U (raw), the method's own data (multipliers of the
``product`` argument) and, when U is tight, a table family of blocks of equal binary rows,
parametric in N, T and the parameters, whose exact levels are A <= T and B = U. The supremum of the
subset-monotone case (``Bound.exact``, method ``subset-supremum``) has its own certificate: U written
with Min and Max, q = min(j_B, N - j_A) and the multipliers of the kernel's ``extreme-means-supremum``.
The ``class-to-subset`` bound (N - 1) T / s has the kernel's ``class-mass`` multipliers, its domain
restricted to where a partition into >= 2 classes of >= s records exists (s >= 1, 2 s <= N), and the
three-block family of docs/proofs/class-to-subset.md. The ``one-sided-ceiling`` bound N / s has the
kernel's ``set-mass`` multipliers and no family (an upper bound only). A side whose level is a declared
class distance (``Definition.class_distance``) carries it as ``distance`` (the ``class-distance``
argument: B the total variation distance).

Each method's parts are one entry of :data:`METHODS` (registered with ``@_method``, like the kernel's
lemmas): a new argument of the prover adds its entry here and its lemma to :mod:`implgraph.certify.kernel`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import sympy

from implgraph.core.formula import Word
from implgraph.engines.bounds import CAP_SPLIT, T, class_distance_of, declared_subset_size, subset_distance_facts
from implgraph.core.simplified import simplified
from implgraph.definitions.class_bounds import uniform_class_raw, uniform_values

__all__ = ["certificate", "class_floor_certificate", "weakest_level_certificate", "every_partition_certificate",
           "EVERY_TABLE_METHODS", "FORMAT", "METHODS"]

#: the names of the subset-distance argument's facts (engines.bounds :func:`subset_distance_facts`)
SUBSET_DISTANCE_LOWER, SUBSET_DISTANCE_UPPER = (list(x) for x in subset_distance_facts(2, 4, 0, 0))

FORMAT = "implgraph-certificate/1"


def _side(d, params, classes, N):
    out = {"definition": d.name, "params": {k: str(v) for k, v in params.items()}, "family": d.family,
           "sides": getattr(d, "sides", None)}    # None: not a declared ratio of averages
    j = declared_subset_size(d, N, params)      # one- or two-sided
    if j is not None:
        out["size"] = str(j)
    if getattr(d, "finite_level_of", None):
        out["finite_level_of"] = d.finite_level_of
        if getattr(d, "increase_cap", None):
            out["increase_cap"] = d.increase_cap     # the condition that makes the level finite (the checker's level)
    distance = class_distance_of(d, params)
    if distance is not None:
        out["distance"] = distance
    if getattr(d, "class_size_level", False):
        out["class_size_level"] = True      # the level is the smallest class's size (larger is stronger)
    if uniform_values(d, T) is not None:      # the raw level of a class uniform over m values, improving with m
        out["uniform_class_level"] = str(uniform_class_raw(d))
    if getattr(d, "tail_ratio_param", None) in params:      # max_E r_1 / (r_l + ... + r_m), l this parameter
        out["tail_ratio"] = str(params[d.tail_ratio_param])
    if getattr(d, "slack_compares", None):     # a <= e^level b + delta between these records, every event
        out["slack"] = {"compares": d.slack_compares, "delta": str(params.get("delta"))}
    if d.family == "class":
        spec = classes or {}
        out["min_class"] = str(spec.get("min_size", 1))
        if spec.get("max_size") is not None:
            out["max_class"] = str(spec["max_size"])
        name = getattr(d, "min_class_param", None)
        if name is not None and name in params and sympy.sympify(params[name]) == sympy.sympify(spec.get("min_size", 1)):
            out["min_class_param"] = name       # the classes are the ones its parameter declares (the checker reads it)
    return out


def _level_T_family(side, N):
    """Blocks whose A level is exactly T: the bucket-1 values of a subset level of size j (j records
    at c, N - j at c r with mean c T), of a class level with classes of >= s records (the same two
    blocks with j = s, each block a class: 2 s <= N, so the class of N - s records has the mean of
    the s largest) or of a pairwise level (one record at 1/(T+1), the rest at T/(T+1))."""
    if side["family"] in ("subset", "class"):
        j = sympy.sympify(side["size"] if side["family"] == "subset" else side.get("min_class", "1"),
                          locals={"N": N})
        r = (N * T - j) / (N - j)
        c = (N - j) / (N * (T + 1) - j)
        return [{"count": str(j), "value": str(simplified(c)), "class": "E1"},
                {"count": str(N - j), "value": str(simplified(c * r)), "class": "E2"}]
    return [{"count": "1", "value": str(1 / (T + 1)), "class": "E1"},
            {"count": str(N - 1), "value": str(T / (T + 1)), "class": "E2"}]


def _vertex_family(B, N):
    size = sympy.sympify(B.get("size") or B.get("min_class"), locals={"N": N})
    return [{"count": str(size), "value": str(1 / (T + 1)), "class": "E1"},
            {"count": str(N - size), "value": str(T / (T + 1)), "class": "E2"}]


def _product_family(N):
    """The table of the ``product`` argument: one record at the minimum, one at the maximum r times
    larger, N - 2 at a middle value y (scaled by sc)."""
    r = sympy.Min(T ** 2, N * (T - 1) + 1)
    mean = sympy.Max(r / T, (r + N - 1) / N)
    sc = (T - 1) / (T * r + T * mean)
    y = (N * mean - 1 - r) / (N - 2)
    return [{"count": "1", "value": str(sc)}, {"count": str(N - 2), "value": str(sc * y)},
            {"count": "1", "value": str(sc * r)}]


def _vertex_multipliers(B, N):
    """``U den - num`` of each vertex ratio as a nonnegative combination of the vertex facts
    (:mod:`implgraph.certify.kernel`), d = T - 1: e.g. for ``mean_S/mean_D`` with subset size j,
    d N j (m - u) + d N (N - j)(j - u) + d^2 j (N - j) m, and m = (m - u) + u."""
    d = T - 1
    if B["family"] == "subset":
        j = sympy.sympify(B["size"], locals={"N": N})
        out = {"mean_S/mean_D": {"m-u>=0": d * N * j + d ** 2 * j * (N - j), "j-u>=0": d * N * (N - j),
                                 "u>=0": d ** 2 * j * (N - j)},
               "mean_D/mean_S": {"u>=0": N * (N - j) * d + N * (N - j) * d ** 2, "N-j-(m-u)>=0": N * j * d}}
    else:
        k = sympy.sympify(B["min_class"], locals={"N": N})
        e = sympy.Symbol("e_", real=True)
        u = sympy.Symbol("u_", real=True)
        if B.get("sides") == "one-sided":
            # U = N T/(k T + N - k): N [d (N - e)(e - u) + (d e + d^2 u)(e - k) + (d e + d^2 e) v]
            out = {"mean_S/mean_D": {"e-u>=0": N * d * (N - e), "e-k>=0": N * d * e + N * d ** 2 * u,
                                     "v>=0": N * d * e + N * d ** 2 * e}}
            return {r: {f: str(sympy.expand(x)) for f, x in m.items()} for r, m in out.items()}
        out = {"mean_S/mean_D": {"v>=0": d * N * e + d ** 2 * e * (N - k), "e-u>=0": d * N * (N - e),
                                 "e-k>=0": d * N * e, "u>=0": d ** 2 * e * (N - k)},
               "mean_D/mean_S": {"u>=0": N * d * (N - e) + N * (N - k) * d ** 2, "N-e-v>=0": N * d * e,
                                 "e-k>=0": N * d * e}}
    return {r: {f: str(sympy.expand(x)) for f, x in m.items()} for r, m in out.items()}


def _product_multipliers(U, N):
    """For each component c of U = Min(T^2, N (T - 1) + 1): c a - b as a nonnegative combination of
    the facts b <= T m, m <= T a, N m >= b + (N - 1) a (named as in :mod:`implgraph.certify.kernel`)."""
    out = []
    for c in (U.args if isinstance(U, sympy.Min) else (U,)):
        if simplified(c - T ** 2) == 0:
            out.append({"max<=T*mean": "1", "mean<=T*min": str(T)})
        elif simplified(c - (N * (T - 1) + 1)) == 0:
            out.append({"mean>=extremes": "1", "mean<=T*min": str(N)})
        else:
            out.append({})
    return out


def _supremum_q(A, B, N):
    """q = min(j_B, N - j_A) as text: a polynomial, or a ``Min`` of the two."""
    ja, jb = (sympy.sympify(d["size"], locals={"N": N}) for d in (A, B))
    return str(jb) if simplified(jb - (N - ja)) == 0 else f"Min({jb}, {N - ja})"


def _supremum_upper(q):
    """``Min(T, 1/Max(D/q, 1/T))`` with D/q = 1 - (N/q - 1)(T - 1), D = N - (N - q) T: T where D <= q/T,
    i.e. (T - 1)((N - q) T - q) >= 0, and q/D (< T, with D > 0) otherwise; the Piecewise of
    :func:`implgraph.engines.bounds.subset_supremum` without Piecewise, q written once."""
    return f"Min(T, 1/Max(1 - (N/({q}) - 1)*(T - 1), 1/T))"


def _supremum_family(B, upper, N):
    """The two blocks of the supremum (Lemma 2.1's table), F = U: in bucket 1, j_B records at
    (N - j_B)/(N (F + 1) - j_B) and N - j_B at (N F - j_B)/(N (F + 1) - j_B) = 1 - N/(N (F + 1) - j_B), mean
    (N - j_B) F/(N (F + 1) - j_B), so mean / low_{j_B} = F; bucket 2 (1 - x) has its two values in ratio F,
    so all its ratios are <= F (<= T). The checker confirms A <= T and B = U at every sampled point."""
    j = sympy.sympify(B["size"], locals={"N": N})
    den = f"(N*(({upper}) + 1) - ({j}))"
    return [{"count": str(j), "value": f"({N - j})/{den}", "class": "E1"},
            {"count": str(N - j), "value": f"1 - N/{den}", "class": "E2"}]


#: the multipliers of ``extreme-means-supremum``'s identities (q_ the kernel's q)
_SUPREMUM_MULTIPLIERS = {
    "lower": {"N*m = q*low_q + (N-q)*high_(N-q)": "1", "high_(N-q) <= T*m": "N - q_"},
    "upper": {"N*m = q*high_q + (N-q)*low_(N-q)": "T", "low_(N-q) >= m/T": "N - q_"},
    "gap": {"(T-1)^2 >= 0": "N*(N - q_)"}}


#: the multipliers of ``class-mass``'s identities (kernel fact names)
_CLASS_MASS_MULTIPLIERS = {
    "lower": {"T*L >= N - e": "1", "N - e - s >= 0": "1"},
    "upper": {"T - 1 >= 0": "(N - 1)**2", "N - 2s >= 0": "N/2", "1": "(N**2 - 4*N + 2)/2"},
    "pair": {"N - 2s >= 0": "T/2", "N - 2 == 0": "T/2"}}


def _class_mass_family(A):
    """The table of docs/proofs/class-to-subset.md, c = 1/(T (N T + 1)): class E1 of N - s records (one
    at (N T - s) c, N - s - 1 at 0), class E2 of s records at c."""
    s_ = f"({A.get('min_class', '1')})"
    return [{"count": "1", "value": f"(N*T - {s_})/(T*(N*T + 1))", "class": "E1"},
            {"count": f"N - {s_} - 1", "value": "0", "class": "E1"},
            {"count": s_, "value": "1/(T*(N*T + 1))", "class": "E2"}]


def _rest_mass_family(A, upper):
    """Two classes: s records at U c, N - s at c (N - s U)/(N - s), c = (T - 1)/(T (T + 1)) (engines.bounds
    ``one-sided-class``)."""
    s_ = A.get("min_class", "1")
    c = "(T - 1)/(T*(T + 1))"
    return [{"count": f"{s_}", "value": f"({upper})*{c}", "class": "E1"},
            {"count": f"N - ({s_})", "value": f"{c}*(N - ({s_})*({upper}))/(N - ({s_}))", "class": "E2"}]


def _max_value_family(upper):
    """One record at U c in a class of its own, N - 1 at c (N - U)/(N - 1), c = (T - 1)/(N T (T + 1))
    (engines.bounds ``subset-to-one-sided``)."""
    c = "(T - 1)/(N*T*(T + 1))"
    return [{"count": "1", "value": f"({upper})*{c}", "class": "E1"},
            {"count": "N - 1", "value": f"{c}*(N - ({upper}))/(N - 1)", "class": "E2"}]


def _assumptions(kinds):
    """The symbols' sign assumptions as domain conditions (the certificate's symbols carry only a kind)."""
    out = []
    for s in sorted(kinds, key=str):
        if s.is_positive:
            out.append(f"{s} >= 1" if s.is_integer else f"{s} > 0")
        elif s.is_nonnegative:
            out.append(f"{s} >= 0")
    return out


def _pin(A, B, region):
    """A symbol the condition fixes (``N == 4``) takes its value in the sides' sizes, so that a lemma
    about a size (a subset of one record) reads it; the domain keeps the equality."""
    pins = {}
    for c in region.constraints:
        if isinstance(c, sympy.Eq):
            for x, v in ((c.lhs, c.rhs), (c.rhs, c.lhs)):
                if x.is_Symbol and v.is_number:
                    pins[x] = v
    if not pins:
        return
    names = {str(x): x for x in pins}
    for side in (A, B):
        for key in ("size", "min_class", "max_class"):
            if side.get(key) is not None:
                side[key] = str(simplified(sympy.sympify(side[key], locals=names).subs(pins)))


@dataclass(frozen=True)
class _Method:
    """What one prover method adds to its certificate: ``upper(cert, ctx)`` writes the kernel lemma's data
    (``upper_certificate``, and any domain premise or rewritten U), ``family(cert, ctx)`` returns the
    tightness family's dict when U is tight (None: no family)."""

    upper: Callable
    family: Callable | None = None


#: method -> its certificate parts (one entry per argument of :mod:`implgraph.engines.bounds`)
METHODS: dict = {}


@dataclass(frozen=True)
class _Ctx:
    a: object
    N: object
    bound: object


def _method(*names, family=None):
    """Register the decorated ``upper(cert, ctx)`` (and ``family``) for each of ``names``."""
    def register(upper):
        for name in names:
            METHODS[name] = _Method(upper, family)
        return upper
    return register


def _lemma_only(lemma):
    def upper(cert, ctx):
        cert["upper_certificate"] = {"lemma": lemma}
    return upper


def _level_T(cert, ctx):
    return {"blocks": _level_T_family(cert["A"], ctx.N)}


METHODS.update({
    "same-level": _Method(_lemma_only("same-level"), _level_T),
    "subset-monotone": _Method(_lemma_only("extreme-means-monotone"), _level_T),
    "subset-to-classes": _Method(_lemma_only("class-mean-between-extremes"), _level_T),
    "finite-level-of": _Method(_lemma_only("declared-finite-level")),
})


@_method("subset-supremum", family=lambda cert, ctx: {"blocks": _supremum_family(cert["B"], cert["upper"], ctx.N)})
def _supremum_upper_certificate(cert, ctx):
    q = _supremum_q(cert["A"], cert["B"], ctx.N)
    cert["upper"] = _supremum_upper(q)
    cert["upper_certificate"] = {"lemma": "extreme-means-supremum", "q": q,
                                 "multipliers": {k: dict(v) for k, v in _SUPREMUM_MULTIPLIERS.items()}}


@_method("product", family=lambda cert, ctx: {"blocks": _product_family(ctx.N),
                                             "singleton_classes": ctx.a.family == "class"})
def _product_upper_certificate(cert, ctx):
    cert["upper_certificate"] = {"lemma": "extremes-and-mean",
                                 "multipliers": _product_multipliers(ctx.bound.upper, ctx.N)}


@_method("class-to-subset", family=lambda cert, ctx: {"blocks": _class_mass_family(cert["A"])})
def _class_mass_upper_certificate(cert, ctx):
    s_ = cert["A"].get("min_class", "1")
    _two_classes(cert, s_)
    cert["upper_certificate"] = {"lemma": "class-mass", "multipliers": {
        k: dict(v) for k, v in _CLASS_MASS_MULTIPLIERS.items()}}


@_method("one-sided-class", family=lambda cert, ctx: {"blocks": _rest_mass_family(cert["A"], cert["upper"])})
def _rest_mass_upper_certificate(cert, ctx):
    s_ = cert["A"].get("min_class", "1")
    _two_classes(cert, s_)
    cert["upper_certificate"] = {"lemma": "rest-mass", "multipliers": {
        "below T": {"A: T*e - e*x >= 0": "1"},
        "rest": {"e - s >= 0": "N*(T - 1)", "T*y - 1 >= 0": f"({s_})*(N - e_)"}}}


def _set_mass_multipliers(s_):
    """The kernel's ``set-mass`` identity ``N e - s L = N (e - s) + s (N - L)`` (also ``class-size``'s, s = T)."""
    return {"e - s >= 0": "N", "N - L >= 0": f"({s_})"}


def _distance_mass_multipliers():
    """The distance lemmas' *mass* identity ``(N - s) - N (x - P) = (N P - e x) + (N - e)(1 - x) + (e - s)``
    (``same-distance``, ``one-sided-distance``, ``class-size``)."""
    return {"other records on S: N*P - e*x >= 0": "1", "1 - x >= 0": "N - e_", "e - s >= 0": "1"}


def _two_classes(cert, s_):
    """The domain of a partition into >= 2 classes of >= s records: s >= 1 and 2 s <= N."""
    cert["domain"] += [f"({s_}) >= 1", f"2*({s_}) <= N"]


def _class_distance_family(A):
    """Two classes: s records at x = U' P, N - s at P (N - s U')/(N - s), with U' = Min(T, (N T - N + s)/(s T)),
    P = Max(1/(T + 1), s/N) (engines.bounds ``class-distance``)."""
    s_ = f"({A.get('min_class', '1')})"
    u = f"Min(T, (N*T - N + {s_})/({s_}*T))"
    p = f"Max(1/(T + 1), {s_}/N)"
    return [{"count": s_, "value": f"{u}*{p}", "class": "E1"},
            {"count": f"N - {s_}", "value": f"{p}*(N - {s_}*{u})/(N - {s_})", "class": "E2"}]


@_method("class-distance", family=lambda cert, ctx: {"blocks": _class_distance_family(cert["A"])})
def _class_distance_upper_certificate(cert, ctx):
    s_ = cert["A"].get("min_class", "1")
    _two_classes(cert, s_)
    cert["upper_certificate"] = {"lemma": "class-distance", "multipliers": {
        "near": {"A on S: T*P - x >= 0": "1", "A on the rest: T*(1 - x) - (1 - P) >= 0": "1"},
        "far": {"other classes: T*N*P - T*e*x - (N - e)*P >= 0": "1",
                "A on the rest: T*(1 - x) - (1 - P) >= 0": "N - e_", "e - s >= 0": "T - 1"}}}


def _one_sided_distance_family(B):
    """s records at x = Min(1, T (N - s)/N) in class E1, N - s at (N (x - U) - s x)/(N - s) in E2, with
    U = Min((N - s)(T - 1)/N, (T - 1)/T, (N - s)/N) (engines.bounds ``one-sided-distance``)."""
    s_ = f"({B.get('min_class', '1')})"
    x = f"Min(1, T*(N - {s_})/N)"
    u = f"Min((N - {s_})*(T - 1)/N, (T - 1)/T, (N - {s_})/N)"
    return [{"count": s_, "value": x, "class": "E1"},
            {"count": f"N - {s_}", "value": f"(N*({x} - {u}) - {s_}*{x})/(N - {s_})", "class": "E2"}]


@_method("one-sided-distance", family=lambda cert, ctx: {"blocks": _one_sided_distance_family(cert["B"])})
def _one_sided_distance_upper_certificate(cert, ctx):
    _two_classes(cert, cert["B"].get("min_class", "1"))
    cert["upper_certificate"] = {"lemma": "one-sided-distance", "multipliers": {
        "near": {"A on S: T*P - x >= 0": "1", "1 - x >= 0": "T - 1"},
        "spread": {"A on S: T*P - x >= 0": "N - e_", "other classes on the rest: (T - 1)*(N - e)*(1 - P) - e*(x - P) >= 0": "1",
                   "e - s >= 0": "T - 1"},
        "mass": _distance_mass_multipliers()}}


def _same_distance_family(B):
    """s records at (1, 0) in class E1, N - s at (v, 1 - v) in E2 with v = 1 - N U/(N - s), U = Min(T, (N - s)/N)
    (engines.bounds ``same-distance``)."""
    s_ = f"({B.get('min_class', '1')})"
    return [{"count": s_, "value": "1", "class": "E1"},
            {"count": f"N - {s_}", "value": f"1 - N*Min(T, (N - {s_})/N)/(N - {s_})", "class": "E2"}]


@_method("same-distance", family=lambda cert, ctx: {"blocks": _same_distance_family(cert["B"])})
def _same_distance_upper_certificate(cert, ctx):
    s_ = cert["B"].get("min_class", "1")
    _two_classes(cert, s_)
    cert["upper_certificate"] = {"lemma": "same-distance", "multipliers": {
        "mass": _distance_mass_multipliers()}}


def _pairwise_distance_family(B):
    """s records at T/(T + 1) in class E1, N - s at 1/(T + 1) in E2 (engines.bounds ``pairwise-distance``)."""
    s_ = f"({B.get('min_class', '1')})"
    return [{"count": s_, "value": "T/(T + 1)", "class": "E1"},
            {"count": f"N - {s_}", "value": "1/(T + 1)", "class": "E2"}]


@_method("pairwise-distance", family=lambda cert, ctx: {"blocks": _pairwise_distance_family(cert["B"])})
def _pairwise_distance_upper_certificate(cert, ctx):
    s_ = cert["B"].get("min_class", "1")
    _two_classes(cert, s_)
    cert["upper_certificate"] = {"lemma": "pairwise-distance", "multipliers": {
        "pairs": {"A on S: T*Y - X >= 0": "N - e_", "A on the rest: T*(1 - X) - (1 - Y) >= 0": "N - e_",
                  "e - s >= 0": "T - 1"}}}


def _removal_distance_family():
    """One record at x = Min(1, (N T - N + 1)/(T + 1)) in class E1, N - 1 at x/(N T - N + 1) in E2 (engines.bounds
    ``removal-distance``)."""
    x = "Min(1, (N*T - N + 1)/(T + 1))"
    return [{"count": "1", "value": x, "class": "E1"},
            {"count": "N - 1", "value": f"{x}/(N*T - N + 1)", "class": "E2"}]


@_method("removal-distance", family=lambda cert, ctx: {"blocks": _removal_distance_family()})
def _removal_distance_upper_certificate(cert, ctx):
    j_ = cert["A"]["size"]
    cert["domain"] += [f"({j_}) >= 1", f"({j_}) <= N - 1"]      # A bounds the N - 1 records: j <= N - 1
    cert["upper_certificate"] = {"lemma": "removal-distance", "multipliers": {
        "near": {"without M on S: T*(N*P - M) - (N - 1)*P >= 0": "1",
                 "without M on the rest: (N - 1)*T*(1 - P) - N*(1 - P) + (1 - M) >= 0": "1"},
        "far": {"without M on S: T*(N*P - M) - (N - 1)*P >= 0": "1", "1 - M >= 0": "(N - 1)*(T - 1)"}}}


def _removal_pair_family():
    """At N = 2: x1 = (2 T - 1)/(2 T) in class E1, x2 = 1/(2 T) in E2 (engines.bounds ``removal-distance-pair``)."""
    return [{"count": "1", "value": "(2*T - 1)/(2*T)", "class": "E1"},
            {"count": "1", "value": "1/(2*T)", "class": "E2"}]


@_method("removal-distance-pair", family=lambda cert, ctx: {"blocks": _removal_pair_family()})
def _removal_pair_upper_certificate(cert, ctx):
    cert["upper_certificate"] = {"lemma": "removal-distance-pair", "multipliers": {
        "pair": {"A on S: T*x2 - P >= 0": "1", "A on the rest: T*(1 - x1) - (1 - P) >= 0": "1"}}}


def _slack_pairwise_family(cert):
    """s records at (T + delta)/(T + 1) in class E1, N - s at (1 - delta)/(T + 1) in E2 (engines.bounds
    ``slack-pairwise-distance``)."""
    s_, d = f"({cert['B'].get('min_class', '1')})", f"({cert['A']['slack']['delta']})"
    return [{"count": s_, "value": f"(T + {d})/(T + 1)", "class": "E1"},
            {"count": f"N - {s_}", "value": f"(1 - {d})/(T + 1)", "class": "E2"}]


@_method("slack-pairwise-distance", family=lambda cert, ctx: {"blocks": _slack_pairwise_family(cert)})
def _slack_pairwise_upper_certificate(cert, ctx):
    s_, d = cert["B"].get("min_class", "1"), f"({cert['A']['slack']['delta']})"
    _two_classes(cert, s_)
    cert["upper_certificate"] = {"lemma": "slack-pairwise-distance", "multipliers": {
        "pairs": {"A on S: T*Y - X + delta >= 0": "N - e_", "A on the rest: T*(1 - X) - (1 - Y) + delta >= 0": "N - e_",
                  "e - s >= 0": f"T - 1 + 2*{d}"}}}


@_method("slack-target-pairs", family=lambda cert, ctx: {"blocks": [{"count": "1", "value": "T/(T + 1)"},
                                                                   {"count": "N - 1", "value": "1/(T + 1)"}]})
def _slack_target_upper_certificate(cert, ctx):
    d = f"({cert['B']['slack']['delta']})"
    U = sympy.sympify(cert["upper"])
    h1, h2 = "A on the event: T*y - x >= 0", "A on the complement: T*(1 - x) - (1 - y) >= 0"
    if str(U) == "T":
        mults = {"ratio": {h1: "1", "delta >= 0": "1"}}
    elif U == 1:
        mults = {"flat": {h1: "1", h2: "1", "(1 + delta) - (1 - delta)*T >= 0": "1"}}
    else:
        mults = {"slope": {h1: f"T - 1 - {d}*T", h2: d}}
    cert["upper_certificate"] = {"lemma": "slack-target-pairs", "multipliers": mults}


def _slack_removal_family(cert):
    """One record at x = Min(1, (N T - N + 1)(1 - delta)/(T + 1) + N delta) in class E1, N - 1 at
    Max(0, (x - N delta)/(N T - N + 1)) in E2 (engines.bounds ``slack-removal-distance``; N >= 3)."""
    d = f"({cert['A']['slack']['delta']})"
    x = f"Min(1, (N*T - N + 1)*(1 - {d})/(T + 1) + N*{d})"
    return [{"count": "1", "value": x, "class": "E1"},
            {"count": "N - 1", "value": f"Max(0, ({x} - N*{d})/(N*T - N + 1))", "class": "E2"}]


@_method("slack-removal-distance", family=lambda cert, ctx: {"blocks": _slack_removal_family(cert)})
def _slack_removal_upper_certificate(cert, ctx):
    if cert.get("tight") and "N >= 3" not in cert["domain"]:
        cert["domain"].append("N >= 3")     # the family breaks A at N = 2 (slack-removal-distance-pair there)
    cert["upper_certificate"] = {"lemma": "slack-removal-distance", "multipliers": {
        "near": {"without M on S: T*(N*P - M) - (N - 1)*(P - delta) >= 0": "1",
                 "without M on the rest: (N - 1)*T*(1 - P) - N*(1 - P) + (1 - M) + (N - 1)*delta >= 0": "1"},
        "far": {"without M on S: T*(N*P - M) - (N - 1)*(P - delta) >= 0": "1", "1 - M >= 0": "(N - 1)*(T - 1)"},
        "mass": {"other records on S: N*P - M >= 0": "1", "1 - M >= 0": "N - 1"}}}


def _slack_removal_pair_family(cert):
    """At N = 2: x1 = (1 + D)/2 in class E1, x2 = (1 - D)/2 in E2, D = Min(1, (T - 1 + 2 delta)/T) (engines.bounds
    ``slack-removal-distance-pair``)."""
    D = f"Min(1, (T - 1 + 2*({cert['A']['slack']['delta']}))/T)"
    return [{"count": "1", "value": f"(1 + {D})/2", "class": "E1"}, {"count": "1", "value": f"(1 - {D})/2", "class": "E2"}]


@_method("slack-removal-distance-pair", family=lambda cert, ctx: {"blocks": _slack_removal_pair_family(cert)})
def _slack_removal_pair_upper_certificate(cert, ctx):
    cert["upper_certificate"] = {"lemma": "slack-removal-distance-pair", "multipliers": {
        "pair": {"A on S: T*x2 - P + delta >= 0": "1", "A on the rest: T*(1 - x1) - (1 - P) + delta >= 0": "1"},
        "half": {"1 - x1 >= 0": "1", "x2 = 2*P - x1 >= 0": "1"}}}


def _subset_distance_family(cert):
    """One record at y + (T - 1)/(a + b) in class E1, N - 1 at y = a/(a + b) in E2, a and b the largest coefficients
    (engines.bounds ``subset-distance``)."""
    j_ = f"({cert['A']['size']})"
    a = f"Max(1/N, 1/{j_} - T/N)"
    b = f"Max(T/N, T/{j_} - 1/N, T - 1)"
    return [{"count": "1", "value": f"({a} + T - 1)/({a} + {b})", "class": "E1"},
            {"count": "N - 1", "value": f"{a}/({a} + {b})", "class": "E2"}]


@_method("subset-distance", family=lambda cert, ctx: {"blocks": _subset_distance_family(cert)})
def _subset_distance_upper_certificate(cert, ctx):
    j_ = cert["A"]["size"]
    cert["domain"] += [f"({j_}) >= 1", f"({j_}) <= N - 1"]
    # every pair of a lower and an upper fact, multipliers 1 and 1 (the kernel's obligations name them)
    cert["upper_certificate"] = {"lemma": "subset-distance", "multipliers": {
        f"{low} + {up}": {low: "1", up: "1"} for low in SUBSET_DISTANCE_LOWER for up in SUBSET_DISTANCE_UPPER}}


@_method("subset-to-one-sided", family=lambda cert, ctx: {"blocks": _max_value_family(cert["upper"])})
def _max_value_upper_certificate(cert, ctx):
    j_ = cert["A"]["size"]
    cert["domain"] += [f"({j_}) >= 1", f"({j_}) <= N - 1"]      # the subset sizes A's ranges allow
    cert["upper_certificate"] = {"lemma": "max-value", "multipliers": {
        "all": {"T*(N - M) - (N - 1) >= 0": "1"},
        "j largest": {"j*T - (j - 1)*H - M >= 0": "N - 1", "(N - 1)*H - (N - M) >= 0": f"({j_}) - 1"}}}


def _escape_family(cert, ctx):
    """Where A is a class's total variation distance: one record at x = Min(1, N T/(N - 1)) in class E1, N - 1 at 0
    in E2 (engines.bounds ``_escape_bound``: a rare value escapes the distance); where A's level is a uniform class's
    or a tail ratio, :func:`_uniform_family`; where A has an additive slack delta, one record at delta in E1
    and N - 1 at 0 in E2 (engines.bounds ``attained_ceiling``); None otherwise (the ceiling is then an upper bound
    only)."""
    if cert["A"].get("uniform_class_level") or cert["A"].get("tail_ratio"):
        return _uniform_family(cert["A"], ctx)
    if cert["A"].get("slack"):      # one record at delta in a class of its own, the rest at 0: A at its strongest
        return {"blocks": [{"count": "1", "value": cert["A"]["slack"]["delta"], "class": "E1"},
                           {"count": "N - 1", "value": "0", "class": "E2"}]}
    if cert["A"].get("distance") != "total-variation":
        return None
    return {"blocks": [{"count": "1", "value": "Min(1, N*T/(N - 1))", "class": "E1"},
                       {"count": "N - 1", "value": "0", "class": "E2"}]}


def _uniform_family(A, ctx):
    """s records uniform over m values in class E1, N - s uniform over m other values in E2 (2 m buckets; s A's
    smallest class; engines.bounds ``attained_ceiling``): m the fewest values meeting T where A's level is a uniform
    class's (:func:`implgraph.definitions.class_bounds.uniform_values`; the family's ``domain`` adds where that
    number exists), m = l where A's level is a tail ratio with parameter l (level 1 there)."""
    s_ = sympy.sympify(A.get("min_class", "1"), locals={"N": ctx.N})
    if A.get("tail_ratio"):
        m, where = f"({A['tail_ratio']})", sympy.true
    else:
        m, where = uniform_values(ctx.a, T)
    if s_ != 1:     # two classes of >= s records
        where = sympy.And(where, 2 * s_ <= ctx.N)
    fam = {"uniform_blocks": [{"count": str(s_), "values": str(m), "class": "E1"},
                              {"count": str(ctx.N - s_), "values": str(m), "class": "E2"}]}
    if where is not sympy.true:
        # (in sympy's canonical order: the order of an And's arguments may differ from one process to the next)
        fam["domain"] = [str(c) for c in sorted(sympy.And.make_args(where), key=sympy.default_sort_key)]
    return fam


@_method("one-sided-ceiling", family=_escape_family)
def _set_mass_upper_certificate(cert, ctx):
    B = cert["B"]
    s_ = B.get("min_class", "1") if B["family"] == "class" else B["size"]
    cert["domain"] += [f"({s_}) >= 1", f"({s_}) <= N"]      # where a set of s records exists
    cert["upper_certificate"] = {"lemma": "set-mass", "multipliers": {
        "mass": _set_mass_multipliers(s_)}}


@_method("distance-ceiling", family=lambda cert, ctx: _uniform_family(cert["A"], ctx) if (
    cert["A"].get("uniform_class_level") or cert["A"].get("tail_ratio")) else None)
def _distance_ceiling_upper_certificate(cert, ctx):
    s_ = cert["B"].get("min_class", "1")
    _two_classes(cert, s_)
    cert["upper_certificate"] = {"lemma": "distance-mass", "multipliers": {"mass": _distance_mass_multipliers()}}


def _class_size_family():
    """T records at (1, 0) in class E1, N - T at (0, 1) in E2, where 2 T <= N (engines.bounds ``class-size``)."""
    return [{"count": "T", "value": "1", "class": "E1"}, {"count": "N - T", "value": "0", "class": "E2"}]


@_method("class-size", family=lambda cert, ctx: {"blocks": _class_size_family()})
def _class_size_upper_certificate(cert, ctx):
    _two_classes(cert, "T")     # a partition into >= 2 classes of >= T records: T >= 1, 2 T <= N
    cert["upper_certificate"] = {"lemma": "class-size", "multipliers": {
        "mass": _set_mass_multipliers("T") if cert["B"].get("distance") is None else _distance_mass_multipliers()}}


@_method("vertex", family=lambda cert, ctx: {"blocks": _vertex_family(cert["B"], ctx.N)})
def _vertex_upper_certificate(cert, ctx):
    cert["upper_certificate"] = {"lemma": "linear-fractional-vertex",
                                 "multipliers": _vertex_multipliers(cert["B"], ctx.N)}


def _symbols_and_domain(region, exprs):
    """``(symbols, domain)`` of a certificate: the kinds of the region's symbols and of those in ``exprs`` (parameters
    and class sizes; a word parameter has none), N an integer and T a real unless the region says otherwise (an
    integer where A's level is a class size); the symbols' signs and the region's conditions."""
    syms = dict(region.kinds)
    for e in exprs:
        if isinstance(e, Word):
            continue        # a word parameter (a ground distance), no symbol
        for s in sympy.sympify(e).free_symbols:
            syms.setdefault(s, "integer" if s.is_integer else "real")
    kinds = {str(s): k for s, k in syms.items()}
    kinds.setdefault("N", "integer")
    kinds.setdefault("T", "real")
    return kinds, _assumptions(syms) + [str(c) for c in region.constraints if c not in (sympy.true, True)]


def class_floor_certificate(method, a, b, a_params, b_params, region, N, s, argument):
    """The certificate of :mod:`implgraph.engines.class_floor` (``method``: ``class-size-floor``, re-checked by
    :mod:`implgraph.certify.floor`): B's raw level at least ``lower`` = s, A's declared minimum class size, on both
    sides' classes of >= s records; tight, attained by :func:`_uniform_family` (s records and N - s uniform over the
    fewest values meeting T, where that number exists and, for s > 1, 2 s <= N)."""
    kinds, domain = _symbols_and_domain(region, [*a_params.values(), *b_params.values(), s])
    A = _side(a, a_params, {"min_size": s}, N)
    # (every class of a table where A is finite has >= s records, however many classes: min_classes 1)
    return {"format": FORMAT, "method": method, "symbols": kinds, "domain": domain, "A": A,
            "B": _side(b, b_params, {"min_size": s}, N), "lower": str(s), "tight": True, "argument": argument,
            "tightness": _uniform_family(A, _Ctx(a, N, None)), "min_classes": 1}


def weakest_level_certificate(a, b, a_params, b_params, a_classes, b_classes, region, N, raw_f):
    """The certificate of a trivial truth (method ``weakest-level``, re-checked by :mod:`implgraph.certify.trivial`):
    B's raw target ``raw_f`` is at least as weak as B's weakest level on the whole domain (``oo`` for a ratio), which
    B's registered scale declares every table to meet; nothing of A is used."""
    kinds, domain = _symbols_and_domain(region, [*a_params.values(), *b_params.values(), *(a_classes or {}).values(),
                                                 *(b_classes or {}).values()])
    return {"format": FORMAT, "method": "weakest-level", "symbols": kinds, "domain": domain,
            "A": _side(a, a_params, a_classes, N), "B": _side(b, b_params, b_classes, N), "target": str(raw_f),
            "tight": False, "argument": f"B's target {raw_f} is at least as weak as its weakest level, met by every table"}


#: the prover's arguments that hold on every table whatever its classes (B's raw level is A's): a certificate of one
#: of them comparing classes claims every partition (``min_classes`` 1)
EVERY_TABLE_METHODS = ("same-level",)


def certificate(a, b, a_params, b_params, a_classes, b_classes, region, N, bound):
    """The JSON certificate of ``bound`` (a :class:`implgraph.engines.bounds.Bound`) for A => B.

    ``region`` is the claim's condition in terms of T with the parameter ranges; its symbols' kinds
    become the certificate's ``symbols``. The method's own parts (its kernel lemma's data, its
    tightness family) come from :data:`METHODS`; a method without an entry has no certificate lemma
    the checker knows, and the checker rejects it. Where a side compares classes, ``min_classes`` says which
    partitions the certificate is for: 2 (the lemmas read another class than the one they bound: partitions into >= 2
    classes; :func:`every_partition_certificate` adds the tables of one class), or 1 for an argument of
    :data:`EVERY_TABLE_METHODS`.
    """
    cert = _certificate(a, b, a_params, b_params, a_classes, b_classes, region, N, bound)
    if "class" in (cert["A"].get("family"), cert["B"].get("family")):
        cert["min_classes"] = 1 if bound.method in EVERY_TABLE_METHODS else 2
    return cert


def every_partition_certificate(cert):
    """``cert`` (for partitions into >= 2 classes, ``min_classes`` 2) with the tables of one class beside it: its
    ``one_class`` part (B's level there is its strongest, which the certificate's U is at least), re-checked by
    :mod:`implgraph.certify.partitions`; the certificate is then for every partition into classes, one class included
    (``min_classes`` 1)."""
    return dict(cert, min_classes=1, one_class="on a table of one class, the class is the table: B's level is its "
                                               "strongest (its registered class level), at most U on the domain")


def _certificate(a, b, a_params, b_params, a_classes, b_classes, region, N, bound):
    """:func:`certificate` without the partitions it is for."""
    kinds, domain = _symbols_and_domain(region, [*a_params.values(), *b_params.values(), *(a_classes or {}).values(),
                                                 *(b_classes or {}).values()])
    if bound.method == "min":        # the smaller of the parts' bounds: each part's certificate, inside one
        parts = [certificate(a, b, a_params, b_params, a_classes, b_classes, region, N, part) for _, part in bound.parts]
        out = {"format": FORMAT, "method": "min", "symbols": parts[0]["symbols"],
               "domain": list(dict.fromkeys(c for p in parts for c in p["domain"])), "A": parts[0]["A"],
               "B": parts[0]["B"], "upper": str(bound.upper), "tight": False, "argument": bound.argument,
               "parts": parts, "tightness": None,
               "tightness_note": "U, the smaller of the parts' bounds, is an upper bound only"}
        if bound.tight:     # engines.bounds capped_finite_level: a record at 1/2 alone, each bucket split
            R = "Min(T, N)"
            out.update(tight=True, tightness={"blocks": [
                {"count": "1", "value": "1/2", "class": "E1"},
                {"count": "N - 1", "value": f"(N - {R})/(2*{R}*(N - 1))", "class": "E2"}], "split": str(CAP_SPLIT)})
            del out["tightness_note"]
        return out
    if bound.method == "chain":     # A => X (finite-level-of, U = T), then X => B: each part's certificate
        from implgraph.definitions import get
        x = get(a.finite_level_of)
        (_, first), (_, inner) = bound.parts
        parts = [certificate(a, x, a_params, {}, a_classes, a_classes, region, N, first),
                 certificate(x, b, {}, b_params, a_classes, b_classes, region, N, inner)]
        fam = parts[1].get("tightness")
        tight = bool(bound.tight and fam and fam.get("blocks") and not fam.get("split"))
        return {"format": FORMAT, "method": "chain", "symbols": parts[1]["symbols"],
                "domain": list(dict.fromkeys(c for p in parts for c in p["domain"])), "A": parts[0]["A"],
                "B": parts[1]["B"], "upper": str(bound.upper), "tight": tight, "argument": bound.argument,
                "parts": parts,
                # X's attaining table, each bucket split into 3^ceiling(T) equal ones (A's cap on each increase)
                "tightness": {**fam, "split": str(CAP_SPLIT)} if tight else None}
    A = _side(a, a_params, a_classes, N)
    B = _side(b, b_params, b_classes, N)
    if b.family == "class" and not b_classes:
        B["min_class"] = "1"
    if bound.method == "product":       # its lemma reads A's size 1 off the text
        _pin(A, B, region)
    cert = {"format": FORMAT, "method": bound.method, "symbols": kinds, "domain": domain,
            "A": A, "B": B, "upper": str(bound.upper), "tight": bool(bound.tight),
            "argument": bound.argument}
    parts = METHODS.get(bound.method, _Method(_lemma_only(bound.method)))
    ctx = _Ctx(a, N, bound)
    parts.upper(cert, ctx)
    if bound.tight:
        fam = None if parts.family is None else parts.family(cert, ctx)
        if fam is not None and "1" in (A.get("max_class"), B.get("max_class")):
            # singleton classes: each record its own class (a block's class ratio is then its records'
            # ratio, the subset ratio of size 1 or the vertex record the family is built for)
            fam["singleton_classes"] = True
        cert["tightness"] = fam
    else:
        cert["tightness"] = None
        cert["tightness_note"] = "U is an upper bound only; the prover does not claim it is attained"
    return cert


#: the multipliers of the ``intruder-views`` lemma for U = T^2 (implgraph.certify.lemmas.views): per compared pair of
#: views (x under D1, y under D2), U y - x as a combination of A's facts on one bucket
VIEW_MULTIPLIERS = {"P/P": {"P_": "T**2 - 1"}, "P/w": {"T*w_ - P_": "T", "P_": "T - 1"},
                    "v/P": {"T*P_ - v_": "1", "P_": "T**2 - T"}, "v/w": {"T*w_ - P_": "T", "T*P_ - v_": "1"}}


def views_certificate(a, a_params, a_classes, region, N, model, family, family_domain, attained):
    """The certificate of an implication about the intruder's view (:mod:`implgraph.checks.intruder_views`), method
    ``intruder-views``: A's side as declared, B the view ``k_I`` under ``model``, U = T^2 with
    :data:`VIEW_MULTIPLIERS`, and the tightness family ``family`` (``[(count, value, class)]`` of binary rows, on
    ``family_domain``; the classes ``attained`` = ``(E, F)`` give U on the first bucket)."""
    kinds, domain = _symbols_and_domain(region, [*a_params.values(), *(a_classes or {}).values()])
    blocks = [{"count": str(c), "value": str(simplified(v)), "class": label} for c, v, label in family]
    return {"format": FORMAT, "method": "intruder-views", "symbols": kinds, "domain": domain,
            "A": _side(a, a_params, a_classes, N), "B": {"view": "k_I", "model": dict(model)},
            "min_classes": 1,   # each class is bounded against the whole table only: every partition, one class too
            "upper": "T**2", "upper_certificate": {"multipliers": VIEW_MULTIPLIERS}, "tight": True,
            "tightness": {"blocks": blocks, "domain": [str(c) for c in family_domain],
                          "attained": {"classes": list(attained), "bucket": 1}}}
