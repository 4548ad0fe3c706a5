"""``divergence-ceiling``: a class's KL or Renyi divergence from the table is at most log(N/s) (docs/sections/divergences.md).

B a divergence (:class:`implgraph.definitions.divergences.Divergence`) of kind KL or Renyi (any order, oo included)
between each class of >= s records and the table, whatever A is. In each bucket l a class E of s' >= s records holds
at most the whole table's mass (values >= 0): s' m_l <= N P_l, so the ratio r_l = m_l/P_l is at most N/s' <= N/s
wherever m_l > 0. Then KL(E || P) = sum_l m_l log r_l <= log max_l r_l (sum_l m_l = 1), and
exp((alpha - 1) D_alpha) = sum_l m_l r_l^(alpha - 1) <= max_l r_l^(alpha - 1): B's level is at most U = log(N/s) on
every table of N records. Tried after the chord and the ordering facts (the divergences' last direct argument), where
neither applies (A a class size, a diversity, a distance, a one-sided ratio, subsets of fewer than N - 1 records):
not in the ``ceiling`` stage, so that it never caps another bound. Not tried directly where A declares its level
another definition's where finite (``FiniteLevelOf``: the prover's chain runs that definition's arguments first), nor
where A is a two-sided ratio of averages (the chord's case; what it leaves, subsets of another size than N - 1, the
prover's composition through another ratio level bounds below the ceiling).
Where A's level is its smallest class's size (``ClassSizeLevel``, no parameters, any partition), s = T: at A's level T
every class has >= T records, so B <= log(N/T), a bound in A's level (tried before the general ceiling; the domain
states 1 <= T <= N: no table has a class of more than N records). B's order is read at its parameters.
Where A declares one of its parameters a minimum class size (``MinClassSize``, (alpha,k)-anonymity's k; any
partition otherwise), s = that parameter: every table where A is finite has classes of >= s records, so B <= log(N/s)
(tried before the general ceiling; the domain states 1 <= s <= N). Where A declares it a minimum class size above its
weakest level only (``MinClassSizeAboveWeakest``, p-sensitive k-anonymity's k: p = 0 on a smaller class) and the
condition makes A's level T stronger than the weakest (p >= 1), the same with s = that parameter.
It is B's own level on a class of s records whose values the other records do not share (s records at (1, 0), N - s
at (0, 1): KL and every Renyi order log(N/s)). Where s is A's level (a class size) or a class floor A declares, it is
attained (docs/proofs/tight-divergence-ceiling.md) where a table of that shape satisfies A at every level T: s records
uniform over m values in a class of their own and N - s records uniform over m other values in another (2 m buckets),
m = 1 or the fewest whole number of values meeting T (ceiling(T)), whichever A's exact level meets T on at every point
sampled (:func:`attaining_values`). The class of s holds each of its values with mass 1/m where the table holds
s/(N m): ratio N/s on its whole support, so KL and every Renyi order are log(N/s); the other class's are
log(N/(N - s)) <= log(N/s) where 2 s <= N, the condition stated (two classes of >= s records). The certificate
carries the family; the checker re-derives B's level symbolically and A's exactly at sampled points.
"""

from __future__ import annotations

import sympy

from implgraph.core import methods
from implgraph.definitions.capabilities import (ClassSizeLevel, FiniteLevelOf, MinClassSize,
                                                MinClassSizeAboveWeakest)
from implgraph.definitions.divergences import divergence_of
from implgraph.prover.answer import Bound, T
from implgraph.prover.registry import argument, certificate_parts
from implgraph.prover.shapes import any_partition, decide, ratio_sides
from implgraph.prover.tables import uniform_classes
from implgraph.core.formula import Word

METHOD = methods.DIVERGENCE_CEILING

__all__ = ["ceiling"]


def _applies(ctx):
    div = divergence_of(ctx.b, ctx.b_params)     # an order read from B's parameters
    return div is not None and div.compares == "class" and div.kind in ("kl", "renyi")


def _by_class_size(ctx):
    """A's level is its smallest class's size (``ClassSizeLevel``, no parameters, any partition): s = T."""
    return (_applies(ctx) and ctx.a.has(ClassSizeLevel) and not ctx.a_params and any_partition(ctx.a_classes)
            and any_partition(ctx.b_classes))


def _direct(ctx):
    """Tried directly except where A declares its level another's where finite (``FiniteLevelOf``: the prover's
    chain then runs that definition's arguments) or A is a two-sided ratio of averages the chord left (subsets of
    another size than N - 1: the prover's composition through another ratio level then bounds B below its
    ceiling, engines/prove.py); this ceiling stays B's supremum."""
    return _applies(ctx) and ctx.a.declared(FiniteLevelOf) is None and ratio_sides(ctx.a) != "two-sided"


@argument(METHOD, order=202, applies=_direct)
def ceiling(ctx):
    """``log(N/s)`` on every table, whatever A is; None where the classes' size is not within 1..N on the condition."""
    N, spec = ctx.N, ctx.b_classes or {}
    s = sympy.sympify(spec.get("min_size", 1))
    if decide(ctx.region, sympy.And(sympy.Ge(s, 1), sympy.Le(s, N))) is not True:
        return None
    return Bound(sympy.log(N / s), False, METHOD.name,
                 f"{ctx.b.name} is a divergence of a class from the table: in each bucket a class of >= {s} records "
                 f"holds at most the whole table's mass (values >= 0), so its ratio to the table is at most N/({s}), "
                 f"and KL or a Renyi divergence is at most the log of the largest ratio: log(N/({s})) on every table "
                 "of N records whatever A is (an upper bound; not argued to be attained)",
                 checks=[f"1 <= {s} <= N on the condition: True"])


@argument(METHOD, order=201.5, applies=_by_class_size)
def class_size_ceiling(ctx):
    """``log(N/T)``: at A's level T (a class-size level) every class has >= T records, the ceiling with s = T."""
    N = ctx.N
    bound = Bound(sympy.log(N / T), False, METHOD.name,
                  f"{ctx.a.name}'s level is its smallest class's size, so at level T every class has >= T records; "
                  f"{ctx.b.name} is a divergence of a class from the table: in each bucket a class of >= T records "
                  "holds at most the whole table's mass (values >= 0), so its ratio to the table is at most N/T, and KL "
                  "or a Renyi divergence is at most the log of the largest ratio: log(N/T) (an upper bound; not argued "
                  "to be attained)",
                  checks=["A declares class_size_level: True", "1 <= T <= N: a class of T records exists"])
    return attained(ctx, bound, T)


#: the levels and table sizes at which the prover tries an attaining family (the checker re-checks at its own points)
_SAMPLE_T = (sympy.Integer(1), sympy.Rational(3, 2), sympy.Integer(2), sympy.Integer(3))
_SAMPLE_N = range(2, 9)


def attaining_values(ctx, s):
    """The number of values m (1, else ceiling(T)) of the family where s records uniform over m values form a class of
    their own and N - s records uniform over m other values another (:func:`implgraph.prover.tables.uniform_classes`),
    on which A's exact level meets T at every point sampled (N <= 8, 2 s <= N, a few levels of the condition); None
    where neither does or no point is sampled. The checker re-checks the family at its own points."""
    from fractions import Fraction

    from implgraph.core.concrete import INF
    from implgraph.core.errors import InputError
    from implgraph.engines.recheck import raw_level
    N = ctx.N
    s = sympy.sympify(s)
    if not isinstance(N, sympy.Symbol) or s.free_symbols - {T, N}:
        return None
    integer = (getattr(ctx.region, "kinds", None) or {}).get(T) == "integer"
    larger = ctx.a.stronger == "larger"
    for m in (sympy.Integer(1), sympy.ceiling(T)):
        build, tried = uniform_classes(N, m, s), 0
        for n in _SAMPLE_N:
            for t in _SAMPLE_T:
                point = {T: t, N: sympy.Integer(n)}
                sv = s.subs(point)
                if (integer and not t.is_Integer) or not (sv.is_Integer and 1 <= sv and 2 * sv <= n) \
                        or ctx.region.contains(point) is not True:
                    continue
                try:
                    raw = raw_level(ctx.a, ctx.a_params, build(point))
                except InputError:
                    raw = None
                tf = Fraction(int(t.p), int(t.q))
                if raw is None or raw == INF or not (raw >= tf if larger else raw <= tf):
                    tried = -1
                    break
                tried += 1
            if tried < 0:
                break
        if tried > 0:
            return m
    return None


#: what an attained ceiling's checks add (the certificate's family then says which table)
ATTAINED_CHECK = "two classes of >= s records (2 s <= N): s records uniform over m values attain log(N/s): True"


def attained(ctx, bound, s):
    """``bound`` (log(N/s)), tight where 2 s <= N where the family of :func:`attaining_values` satisfies A at every
    level; ``bound`` itself where no family is found (or None)."""
    if bound is None:
        return None
    m = attaining_values(ctx, s)
    if m is None:
        return bound
    N = ctx.N
    values = "one value" if m == 1 else f"m = {m} values"
    text = (bound.argument.replace(" (an upper bound; not argued to be attained)", "")
            + f"; attained where 2 ({s}) <= N (two classes of >= {s} records): {s} records uniform over {values} in a "
            f"class of their own and N - ({s}) uniform over {'another value' if m == 1 else 'm other values'} in "
            f"another satisfy {ctx.a.name} at T (its exact level, re-checked at sampled points), and the class of {s} "
            f"holds each of its values with mass 1/m where the table holds ({s})/(N m): ratio N/({s}) on its whole "
            f"support, so KL and every Renyi order are log(N/({s})) (the other class's log(N/(N - ({s}))) is not "
            "larger)")
    return Bound(bound.upper, True, METHOD.name, text, build=uniform_classes(N, m, s),
                 checks=bound.checks + [ATTAINED_CHECK], buckets=None if m == 1 else 2 * m,
                 attained_where=sympy.Le(2 * sympy.sympify(s), N))


#: the check a bound by A's declared minimum class size carries (its certificate part reads it)
FLOOR_CHECK = "A declares a minimum class size among its parameters: True"


#: the check a bound by A's minimum class size above its weakest level carries (its certificate part reads it)
FLOOR_ABOVE_CHECK = ("A declares a minimum class size among its parameters above its weakest level, and T is stronger: "
                     "True")


def class_floor(ctx):
    """A's declared minimum class size (``MinClassSize``) at its parameters, where both sides are on any partition,
    or None."""
    if ctx.a is None:
        return None
    declared = ctx.a.declared(MinClassSize)
    value = None if declared is None else (ctx.a_params or {}).get(declared.param)
    if value is None or isinstance(value, Word) or not (any_partition(ctx.a_classes) and any_partition(ctx.b_classes)):
        return None
    return sympy.sympify(value)


def floor_above_weakest(ctx):
    """A's minimum class size above its weakest level (``MinClassSizeAboveWeakest``) at its parameters, where both
    sides are on any partition and the condition makes A's raw level T stronger than its weakest on N records (a
    table meeting T then has no smaller class); None otherwise."""
    if ctx.a is None:
        return None
    declared = ctx.a.declared(MinClassSizeAboveWeakest)
    value = None if declared is None else (ctx.a_params or {}).get(declared.param)
    if value is None or isinstance(value, Word) or not (any_partition(ctx.a_classes) and any_partition(ctx.b_classes)):
        return None
    if ctx.a.level_scale.weakest_depends_on_N:     # (the checker reads a weakest level that is one number)
        return None
    weakest = ctx.a.raw_from_level(ctx.a.weakest(ctx.N))
    if weakest is sympy.oo or weakest is sympy.zoo:
        return None
    stronger = sympy.Gt(T, weakest) if ctx.a.stronger == "larger" else sympy.Lt(T, weakest)
    return sympy.sympify(value) if decide(ctx.region, stronger) is True else None


def _by_floor_above(ctx):
    return _applies(ctx) and floor_above_weakest(ctx) is not None


def _floor_bound(ctx, s, premise, check):
    """``log(N/s)`` where the condition puts 1 <= s <= N, s a class floor the ``premise`` (A's declaration, in words)
    gives on every table of the condition; else None."""
    N = ctx.N
    if decide(ctx.region, sympy.And(sympy.Ge(s, 1), sympy.Le(s, N))) is not True:
        return None
    return Bound(sympy.log(N / s), False, METHOD.name,
                 premise + f"{ctx.b.name} is a divergence of a class from the table: in each bucket a class of >= {s} "
                 f"records holds at most the whole table's mass (values >= 0), so its ratio to the table is at most "
                 f"N/({s}), and KL or a Renyi divergence is at most the log of the largest ratio: log(N/({s})) "
                 "(an upper bound; not argued to be attained)",
                 checks=[check, f"1 <= {s} <= N on the condition: True"])


@argument(METHOD, order=201.7, applies=_by_floor_above)
def floor_above_ceiling(ctx):
    """``log(N/s)``, s A's minimum class size above its weakest level: at a stronger level every class has >= s
    records."""
    s = floor_above_weakest(ctx)
    return attained(ctx, _floor_bound(ctx, s, floor_above_premise(ctx, s) + "; ", FLOOR_ABOVE_CHECK), s)


def floor_above_premise(ctx, s) -> str:
    """Why every table of the condition has classes of >= s records, s A's minimum class size above its weakest level
    (:func:`floor_above_weakest`), in words."""
    name = ctx.a.declared(MinClassSizeAboveWeakest).param
    return (f"{ctx.a.name} declares its parameter {name} = {s} a minimum class size above its weakest level (on a "
            f"table with a smaller class its level is the weakest, {ctx.a.weakest(ctx.N)}), so every table meeting a "
            f"stronger level, as every level T of the condition is, has classes of >= {s} records")


def _by_floor(ctx):
    return _applies(ctx) and class_floor(ctx) is not None and not ctx.a.has(ClassSizeLevel)


@argument(METHOD, order=201.6, applies=_by_floor)
def floor_ceiling(ctx):
    """``log(N/s)``, s A's declared minimum class size: every table where A is finite has classes of >= s records."""
    s = class_floor(ctx)
    name = ctx.a.declared(MinClassSize).param
    return attained(ctx, _floor_bound(ctx, s, f"{ctx.a.name} declares its parameter {name} = {s} a minimum class "
                                      f"size (its level is infinite on a table with a smaller class), so every table "
                                      f"where it is finite has classes of >= {s} records; ", FLOOR_CHECK), s)


# also B's own supremum (log(N/s) is B's level on s records holding a value the others lack): an implication proved at
# it says nothing of A (implgraph.engines.prove.ProofRun); it caps no other bound
argument(METHOD, order=10, applies=_applies, stage="supremum")(ceiling)


def _s_of(cert, ctx):
    """``(s, by_size, floor, above)``: the class size s of the certificate's U = log(N/s) (text), and which premise
    gives it."""
    by_size = ctx.a.has(ClassSizeLevel) and ctx.bound.upper.has(T)      # s = T, A's class-size level
    by_floor = FLOOR_CHECK in ctx.bound.checks                           # s = A's declared minimum class size
    floor = ctx.a.declared(MinClassSize).param if by_floor else None
    above = ctx.a.declared(MinClassSizeAboveWeakest).param if FLOOR_ABOVE_CHECK in ctx.bound.checks else None
    s_ = "T" if by_size else cert["A"]["params"][floor] if by_floor else cert["A"]["params"][above] \
        if above is not None else cert["B"].get("min_class", "1")
    return s_, by_size, floor, above


def _family(cert, ctx):
    """The attaining family of a tight ceiling (:func:`attained`): s records uniform over m values in class E1, N - s
    uniform over m others in E2, where 2 s <= N."""
    s_ = _s_of(cert, ctx)[0]
    m = sympy.Integer(1) if ctx.bound.buckets is None else sympy.sympify(ctx.bound.buckets) / 2
    return {"uniform_blocks": [{"count": str(s_), "values": str(m), "class": "E1"},
                               {"count": f"N - ({s_})", "values": str(m), "class": "E2"}],
            "domain": [f"2*({s_}) <= N"]}


@certificate_parts(METHOD, family=_family)
def upper_certificate(cert, ctx):
    s_, by_size, floor, above = _s_of(cert, ctx)
    by_floor = floor is not None
    cert["domain"] += [f"({s_}) >= 1", f"({s_}) <= N"]
    from implgraph.definitions import get
    div = divergence_of(get(cert["B"]["definition"]), cert["B"].get("params"))
    cert["upper_certificate"] = {"lemma": METHOD.lemma, "kind": div.kind,
                                 "order": None if div.order is None else str(div.order),
                                 **({"class_size": True} if by_size else {}),
                                 **({"class_floor": floor} if by_floor else {}),
                                 **({"class_floor_above_weakest": above} if above is not None else {})}
