"""The prover's evidence texts: whether a claimed f dominates the bound, how tight it is, where the attaining table
exists, a vacuous bound (B's own ceiling) and a refutation at a gap below the tight bound."""

from __future__ import annotations

import sympy

from implgraph.core.point_values import not_identically_zero
from implgraph.core.region import Region
from implgraph.core.simplified import simplified
from implgraph.prover.answer import ANY_BUCKETS, BINARY_EXTREMAL, T
from implgraph.prover.shapes import decide, level_conditions, lowest_raw
from implgraph.engines.prove_claim import Claim, best_text, ceiling_of
from implgraph.engines.prove_points import point_text, probe_tightness, raw_at
from implgraph.engines.witness import witness_json

__all__ = ["f_dominates", "proof_evidence", "gap_refutation", "vacuous", "dropped_text", "buckets_text", "note_attained"]


def _same(f, v) -> bool:
    """``f == v`` identically: their difference simplifies to 0, or both are a Min (Max) of arguments that pair off
    one to one, each pair identical."""
    if not not_identically_zero(f - v) and simplified(f - v) == 0:
        return True
    if isinstance(f, (sympy.Min, sympy.Max)) and f.func == v.func and len(f.args) == len(v.args):
        left = list(v.args)
        for x in f.args:
            match = next((y for y in left if _same(x, y)), None)
            if match is None:
                return False
            left.remove(match)
        return True
    return False


def vacuous(c, bound, b_classes, region, own_of=None):
    """``(text, ceiling)`` where U is B's own ceiling on every table of N records whatever A (or above it:
    :func:`implgraph.engines.bounds.ceiling_bound` with B's own classes, e.g. N - 1 for basic beta-likeness, (N - 1)/N
    for a class's total variation distance): every table meets U, so A => B at U says nothing of A; else None."""
    own = (own_of or ceiling_of)(c, b_classes, region)
    if own is None:
        return None
    U = bound.upper
    if not (_same(U, own.upper) or decide(region, sympy.Ge(U, own.upper)) is True):
        return None
    level = c.b.level_from_raw(own.upper)
    return (f"vacuous: f = {level} is {c.b.name}'s own ceiling on every table of N records, whatever "
            f"{c.a.name} ({own.method}: {own.argument}): every table meets it, so it says nothing of {c.a.name} and "
            "is no implication"), own


def dropped_text(dropped) -> str:
    """What is said of an argument for partitions into >= 2 classes that a table of one class is outside."""
    if dropped is None:
        return ""
    return (f"; the prover's argument ({dropped.method}) is for partitions into at least 2 classes, and a table of one "
            "class (the whole table) is outside it")


def f_dominates(c: Claim, bound) -> bool:
    """f >= U on the whole condition: in raw units, else in level units in terms of alpha (keeps
    e.g. eps0 <= eps1 linear)."""
    if decide(c.region, sympy.Ge(c.raw_f, bound.upper)) is True:
        return True
    dom = c.alpha >= c.a.level_from_raw(lowest_raw(c.a))      # A's strongest level, in A's own units
    areg = Region({**{s: k for s, k in c.kinds.items() if s != T}, c.alpha: "real"}, tuple(c.conds) + (dom, c.N >= 2))
    if decide(areg, sympy.Ge(c.fx, c.to_level(bound.upper))) is True:
        return True
    return _dominates_by_pieces(c.raw_f, bound.upper, c.region)


def _dominates_by_pieces(f, U, region) -> bool:
    """``f >= U`` on ``region`` piece by piece where U or f is a Piecewise (a solver takes neither whole): on each
    piece of U (its condition, after the earlier pieces' negations, added to the region) f's piece there (the first
    whose condition holds on it) is U's identically or is decided >= it."""
    if not (isinstance(U, sympy.Piecewise) or isinstance(f, sympy.Piecewise)):
        return False
    before = sympy.false
    for u, cond in (U.args if isinstance(U, sympy.Piecewise) else [(U, sympy.true)]):
        here = region.add(sympy.And(cond, sympy.Not(before)))
        before = sympy.Or(before, cond)
        if here.is_empty() is True:
            continue
        g = _piece_on(f, here)
        if g is None or not (_identical(g, u) or decide(here, sympy.Ge(g, u)) is True):
            return False
    return True


def _piece_on(e, region):
    """The piece of a Piecewise ``e`` that holds on the whole region (the first whose condition is decided true
    there, the earlier ones false), or None where that is not decided; ``e`` itself if it is no Piecewise."""
    if not isinstance(e, sympy.Piecewise):
        return e
    for value, cond in e.args:
        holds = decide(region, cond)
        if holds is True:
            return _piece_on(value, region)
        if holds is not False:
            return None
    return None


def buckets_text(bound, c) -> str:
    """What the argument says of the number of buckets (and, when it is tight, of its attaining table)."""
    if not bound.tight:
        return ANY_BUCKETS
    parts = [ANY_BUCKETS] + ([] if _wider(bound) else [BINARY_EXTREMAL])
    return "; ".join(parts + ([_attained_text(bound, c)] if _noted(bound) else []))


def _wider(bound) -> bool:
    """Does the attaining table of a tight bound have more than two buckets somewhere (``buckets``, in T)?"""
    return bound.buckets is not None and sympy.sympify(bound.buckets) != 2


def _noted(bound) -> bool:
    """Is there something to say of a tight bound's attaining table: more than two buckets, levels where it does not
    exist, or a supremum approached and not attained?"""
    return _wider(bound) or bound.attained_where is not sympy.true or bound.approached


def note_attained(details, bound, c) -> None:
    """Where a tight bound's attaining table may have more than two buckets: say how many (``attained``, in A's
    level; ``attained_buckets``, in T, for check-edge's comparison with its instances)."""
    if _noted(bound):
        details["attained"] = _attained_text(bound, c)
    outside = _outside_weakest(c)
    if outside:     # (the f at A's weakest level would be false: every table meets A there)
        details["attained"] = "; ".join(x for x in (details.get("attained"), outside) if x)
    if _wider(bound):
        details["attained_buckets"] = str(bound.buckets)
    if bound.attained_where is not sympy.true:
        details["attained_where"] = str(bound.attained_where)


def _outside_weakest(c) -> str:
    """Where the proof's region on A's raw level T leaves out A's weakest level (a count from 0: p >= 1), the levels it
    claims, in A's level; else ''. Every table meets A at its weakest level, where B's tight f is B's own weakest."""
    w = c.a.raw_from_level(c.a.weakest())
    if w is None or not sympy.sympify(w).is_finite:
        return ""
    out = [x for x in c.region.constraints if x.free_symbols == {T} and x.subs(T, w) is sympy.false]
    if not out:
        return ""
    return (f"for levels of {c.a.name} where {level_conditions(sympy.And(*out), c.a, c.alpha)} (the proof's domain; "
            f"at its weakest level, which every table meets, B's tight f is B's own weakest level)")


def _attained_text(bound, c) -> str:
    """The attaining table's number of buckets where it may be more than two, and the levels where it exists when
    not all, in A's level."""
    raw = c.a.raw_from_level(c.alpha)
    out = []
    if bound.attained_where is not sympy.true:
        out.append(f"tight where {level_conditions(bound.attained_where, c.a, c.alpha)}, where the attaining table "
                   "exists (elsewhere not derived)")
    if bound.approached:
        many = bound.buckets is not None and sympy.sympify(bound.buckets) == sympy.oo
        out.append("approached, not attained above A's weakest level: " + ("the approaching tables have more and more buckets" if many else
                   f"the approaching tables have {sympy.sympify(bound.buckets or 2).subs(T, raw)} buckets"))
    elif _wider(bound):
        out.append(f"the attaining table has {bound.buckets.subs(T, raw)} buckets (with fewer the supremum may be "
                   "smaller: not derived)")
    return "; ".join(out)


def _identical(f, upper) -> bool:
    """``f == upper`` identically (a Piecewise: on every piece; simplifying a whole Piecewise is slow, and a
    difference with an exact non-zero value at a point is not simplified at all)."""
    pieces = [v for v, _ in upper.args] if isinstance(upper, sympy.Piecewise) else [upper]
    return all(_same(f, v) for v in pieces)


def _equal_piece_by_piece(region, f, upper) -> bool:
    """``f == upper`` on ``region``, a Piecewise ``upper`` decided piece by piece (each value on its condition and not
    the earlier ones'), each piece identically or by the solver; False where ``upper`` is no Piecewise."""
    if not isinstance(upper, sympy.Piecewise):
        return False
    before = []
    for value, cond in upper.args:
        here = region.add(*before, cond) if cond is not sympy.true else region.add(*before)
        if here.is_empty() is not True and not (_same(f, value) or decide(here, sympy.Eq(f, value)) is True):
            return False
        before.append(sympy.Not(cond))
    return True


def proof_evidence(c: Claim, bound, tight_f, details, a_classes, b_classes):
    """(evidence, tightness) of a proved f: tight, loose (with the tight f), tight at some points, or
    probed on samples when the bound is not known to be tight."""
    region, raw_f = c.region, c.raw_f
    extra, proof_method, proof_argument = "", bound.method, bound.argument
    if not bound.tight and bound.exact is not None:      # the supremum is a smaller bound than the proof's
        extra = f"; the supremum ({bound.exact.method}): {bound.exact.argument}"
        bound = bound.exact
    is_eq = _identical(raw_f, bound.upper)
    tightness = ("tight" if is_eq else "loose") if bound.tight else "not derived"
    if bound.tight and not is_eq and (decide(region, sympy.Eq(raw_f, bound.upper)) is True
                                      or _equal_piece_by_piece(region, raw_f, bound.upper)):
        tightness = "tight"
    equal_at = None
    if tightness == "loose":
        equal_at = region.find_point(sympy.Eq(raw_f, bound.upper))
    if tightness == "not derived":
        probe = probe_tightness(c.a, c.b, c.fx, region, c.kinds, c.alpha, c.a_params, c.b_params, a_classes,
                                 b_classes, c.N)
        if probe:
            details["tightness_probe"] = probe["text"]
            tightness = probe["label"]
    ev = f"proved for every parameter value ({bound.method}): {bound.argument}" if not extra else \
        f"proved for every parameter value ({proof_method}): {proof_argument}{extra}"
    ev += f"; {buckets_text(bound, c)}"
    if bound.tight:
        note_attained(details, bound, c)
    if tightness == "loose" and equal_at:
        tightness = "tight at some parameter values, loose at others"
        ev += f"; f is tight at some parameter values and loose at others: the tight f is {tight_f}"
        ev += (" (f equals it at some parameter values, e.g. "
               + ", ".join(f"{'A raw level' if k == T else k} = {v}" for k, v in equal_at.items()) + ")")
        upper = bound.upper.rewrite(sympy.Piecewise) if isinstance(bound.upper, (sympy.Min, sympy.Max)) else bound.upper
        pieces = upper.args if isinstance(upper, sympy.Piecewise) else ()
        where = [cond for value, cond in pieces if cond is not sympy.true and _identical(raw_f, value)]
        if where:   # the pieces of the supremum that f is: exactly where f is tight
            exact = sympy.Or(*where).subs(T, c.a.raw_from_level(c.alpha))
            ev += (f"; exactly: the tight f is f where {exact} (with A's level {c.alpha}); elsewhere it is the "
                   "tight f's other piece")
            details["tight_where"] = str(exact)
    elif tightness == "loose":
        ev += f"; f is loose: the tight f is {tight_f}"
    elif tightness == "tight":
        ev += "; f is tight"
    if "tightness_probe" in details:
        ev += "; tightness (sampled): " + details["tightness_probe"]
    return ev, tightness


def gap_refutation(c: Claim, bound, tight_f, wit) -> dict:
    """``evidence``, ``tight`` and ``witness`` of a refutation by a table where f is below the tight U."""
    pt, table, alpha_value = wit
    a, b, fx, alpha_sym = c.a, c.b, c.fx, c.alpha
    ev = (f"f is below the tight bound at {point_text(pt)}: the witness satisfies {a.name} at "
          f"{alpha_sym} = {alpha_value} and has {b.name} level {b.level_from_raw(raw_at(table, b, c.b_params, pt))} "
          f"> f = {simplified(fx.subs(alpha_sym, alpha_value).subs(pt))}; tight f = {tight_f} "
          f"({bound.method}: {bound.argument})")
    if bool(simplified(c.raw_f.subs(pt)) < lowest_raw(b)):
        ev += (f"; this is a degenerate level (f is below {best_text(b)}, no valid level): no witness "
               "was found at a point where f is a valid level")
    return {"evidence": ev, "tight": tight_f,
            "witness": witness_json(table, {str(k): v for k, v in pt.items() if k != T}, **{str(alpha_sym): alpha_value})}
