"""``top-cap``: A's level caps every class's top frequency, B a class level of the class's distribution
(docs/arguments/top-cap.md).

Read from declarations only:

A (the cap)
    ``top``: a class level declared as the class's top frequency ``max q`` (``ClassLevel`` whose formula is ``cls.top``),
    smaller stronger, the table's level its worst class's: at level t every class has ``q_b <= t`` in every bucket
    ((alpha,k)-anonymity; a declared minimum class size only adds classes' sizes, which B does not read).
    ``tail``: a tail ratio with parameter l = 2 (``TailRatio``; recursive (c,2)-diversity): the tail is everything but
    the top, so at level c every class has ``r_1 <= c (1 - r_1)``, i.e. ``q_b <= c/(1 + c)``.
    Either way ``1/max q >= x`` in every class: ``x = max(1, 1/t)`` (``max q <= 1`` always) or ``x = 1 + 1/c``.
B (a class level of the distribution)
    one the lemma chain names (:mod:`implgraph.certify.lemma_chain`): ``1/max q`` (frequency l-diversity, f = x),
    the number of values (distinct, ``ceiling(x)``: ``1 = sum q <= k max q``), ``exp H`` (entropy, ``capped(x)`` =
    ``g(x) = x (x - floor x)^((floor x - x)/x)``, the entropy of the capped distribution, the least where every value
    is at most 1/x).

B may instead declare a class floor k_B above its weakest level w and the class level it equals where every class has
at least k_B records (``MinClassSizeAboveWeakest(k, level_of=X)``: p-sensitive k-anonymity, X distinct l-diversity),
X one of the above: where A declares a minimum class size k_A (``MinClassSize``; every table meeting A has classes of
at least k_A records) with k_B <= k_A, the floor holds on every table meeting A and B is X there, so X's bound is B's.
Both k read from the declarations; where their order is not decided (symbols) U is the Piecewise
``(f(x), k_B <= k_A), (w, True)``: w, B's weakest, holds on every table, and tightness is claimed where k_B <= k_A.

Tight: one class of all N records, each the capped distribution at x (floor(x) values at 1/x, one at 1 - floor(x)/x):
its top is 1/x (= t where t <= 1; at c, c/(1 + c)), so A meets its level, and B's level is f(x) exactly. A's class
floor (at most N) is met by the one class. Where t <= 0 (alpha = 0) no table meets A (U = oo there).
The certificate (method ``top-cap``) is re-checked by :mod:`implgraph.certify.lemmas.top_cap`; the argument answers
only where the checker accepts it.
"""

from __future__ import annotations

import sympy

from implgraph.core import methods
from implgraph.definitions.capabilities import ClassLevel, TailRatio
from implgraph.prover.answer import Bound, T
from implgraph.prover.certificate import accepted
from implgraph.prover.parts import said
from implgraph.prover.registry import argument, certificate_parts
from implgraph.prover.shapes import any_partition

METHOD = methods.TOP_CAP

__all__ = ["bound", "cap_kind", "b_kind", "class_floor", "b_side", "floor_upper", "x_of", "upper_of", "capped", "capped_row", "top_cap_certificate"]

#: B's class level -> (the lemma chain's facts from 1/max q to it, the map f of x)
B_KINDS = {"min-entropy": ([], "x"), "support": (["support>=min-entropy"], "ceiling(x)"),
           "shannon": (["shannon>=capped"], "capped(x)")}


def capped(x):
    """``g(x) = x (x - floor x)^((floor x - x)/x)``: exp of the entropy of the capped distribution at ``x >= 1``."""
    return x * (x - sympy.floor(x)) ** ((sympy.floor(x) - x) / x)


def _map(name, x):
    return {"x": x, "ceiling(x)": sympy.ceiling(x), "capped(x)": capped(x)}[name]


def cap_kind(a, a_params):
    """``"top"`` (A's declared class level is the class's top frequency, smaller stronger), ``"tail"`` (a tail ratio
    with l = 2 at A's parameters), or None."""
    from implgraph.definitions._classes import GenericClass
    declared = a.declared(ClassLevel)
    if declared is not None and a.stronger == "smaller":
        cls = GenericClass()
        try:
            if sympy.simplify(sympy.sympify(declared.formula(cls)) - cls.top) == 0:
                return "top"
        except (TypeError, ValueError):
            return None
    tail = a.declared(TailRatio)
    if tail is not None and a.stronger == "smaller":
        value = sympy.sympify((a_params or {}).get(tail.param, 0))
        if value == 2:
            return "tail"
    return None


def b_kind(b):
    """B's class level as the lemma chain names it (``min-entropy``, ``support``, ``shannon``), or None."""
    from implgraph.certify.lemma_chain import _declares
    if b.stronger != "larger":
        return None
    return next((k for k in B_KINDS if _declares(b.name, k)), None)


def x_of(kind, f, level):
    """A lower bound x of ``1/max q`` in every class meeting A at ``level`` (module notes): ``1 + 1/c`` under a tail
    ratio; under a top cap ``1/t``, or ``max(1, 1/t)`` where B's map needs x >= 1 or is x itself (``max q <= 1``)."""
    if kind == "tail":
        return 1 + 1 / level
    return 1 / level if f == "ceiling(x)" else sympy.Max(1, 1 / level)


def upper_of(kind, bkind, level):
    """B's level at least U (in B's raw units, the l-diversities' counts) wherever A is at ``level`` (module notes):
    ``f(x)``; oo where a top cap is <= 0 (no table meets it). Under a tail ratio x = 1 + 1/c lies in (1, 2] (c >= 1,
    A's scale), so floor(x) = 1 below c = 1: the number of values is 2 and ``g(x) = (1 + c)/c^(c/(1 + c))`` (at c = 1
    both give g(2) = 2)."""
    f = B_KINDS[bkind][1]
    if kind == "tail" and f == "ceiling(x)":
        return sympy.Integer(2)
    if kind == "tail" and f == "capped(x)":
        return (1 + level) / level ** (level / (1 + level))
    body = _map(f, x_of(kind, f, level))
    if kind == "top":
        return sympy.Piecewise((sympy.oo, level <= 0), (body, True))
    return body


def capped_row(x):
    """The capped distribution at ``x >= 1`` (numbers): floor(x) values at 1/x, one at 1 - floor(x)/x; two buckets
    at least."""
    from fractions import Fraction
    x = Fraction(str(x)) if not isinstance(x, Fraction) else x
    n = int(x.numerator // x.denominator)
    row = [1 / x] * n + ([1 - n / x] if n / x != 1 else [])
    return row + [Fraction(0)] * max(0, 2 - len(row))


def class_floor(a, a_params, b, b_params):
    """``(X, k_A, k_B, w)`` where B declares a class floor above its weakest level w and the definition X (a class
    level :func:`b_kind` names) it equals where the floor holds, and A a minimum class size (module notes); else
    None. k_A and k_B are the parameters' values (numbers or symbols), w B's weakest raw level."""
    from implgraph.core.formula import Word
    from implgraph.definitions import get
    from implgraph.definitions.capabilities import MinClassSize, MinClassSizeAboveWeakest
    declared, floor = b.declared(MinClassSizeAboveWeakest), a.declared(MinClassSize)
    if declared is None or not declared.level_of or floor is None or b.stronger != "larger":
        return None
    k_a, k_b = (a_params or {}).get(floor.param), (b_params or {}).get(declared.param)
    if k_a is None or k_b is None or isinstance(k_a, Word) or isinstance(k_b, Word):
        return None
    try:
        x_def = get(declared.level_of)
    except (KeyError, ValueError):
        return None
    w = sympy.sympify(b.raw_from_level(b.weakest()))
    if b_kind(x_def) is None or b.level_scale.weakest_depends_on_N or not w.is_Rational:
        return None
    return x_def, sympy.sympify(k_a), sympy.sympify(k_b), w


def b_side(a, a_params, b, b_params):
    """``(B's class level, floor)``: B's own (floor None) or, through :func:`class_floor`, the level B equals where
    its floor holds; ``(None, None)`` where neither."""
    if b_kind(b) is not None:
        return b_kind(b), None
    floor = class_floor(a, a_params, b, b_params)
    return (None, None) if floor is None else (b_kind(floor[0]), floor)


def floor_upper(U, floor, level, kind):
    """U under B's class floor (module notes): X's bound where k_B <= k_A, B's weakest w elsewhere."""
    if floor is None:
        return U
    _, k_a, k_b, w = floor
    finite = U.args[1][0] if kind == "top" else U
    pieces = [(finite, sympy.Le(k_b, k_a)), (w, True)]
    return sympy.Piecewise((sympy.oo, level <= 0), *pieces) if kind == "top" else sympy.Piecewise(*pieces)


def _applies(ctx):
    if ctx.a is None or not (any_partition(ctx.a_classes) and any_partition(ctx.b_classes)):
        return False
    return cap_kind(ctx.a, ctx.a_params) is not None and b_side(ctx.a, ctx.a_params, ctx.b, ctx.b_params)[0] is not None


@argument(METHOD, order=199.8, applies=_applies)
def bound(ctx):
    """f(x) with x A's cap on 1/max q, attained by one class of capped rows (module notes)."""
    kind = cap_kind(ctx.a, ctx.a_params)
    bkind, floor = b_side(ctx.a, ctx.a_params, ctx.b, ctx.b_params)
    level = ctx.a.level_from_raw(T)
    U = floor_upper(upper_of(kind, bkind, level), floor, level, kind)
    x = x_of(kind, B_KINDS[bkind][1], level)
    where = level > 0 if kind == "top" else sympy.true
    if floor is not None:
        where = sympy.And(where, sympy.Le(floor[2], floor[1]))
    cap = (f"{ctx.a.name}'s class level is the class's top frequency, so at level t every class has q_b <= t "
           "(t >= max q >= 1/(number of values)); max q <= 1 always: 1/max q >= max(1, 1/t); no table meets t <= 0"
           if kind == "top" else
           f"{ctx.a.name}'s level is a tail ratio with l = 2, whose tail is everything but the top: at level c every "
           "class has r_1 <= c (1 - r_1), so max q <= c/(1 + c) and 1/max q >= 1 + 1/c")
    what = {"min-entropy": "1/max q", "support": "the number k of values, 1 = sum q <= k max q: k >= ceiling(1/max q)",
            "shannon": "exp H >= g(1/max q), g the entropy of the capped distribution (the least where every value "
                       "is at most 1/x), nondecreasing"}[bkind]
    via = "" if floor is None else (
        f"{ctx.a.name} declares every class at least {floor[1]} records and {ctx.b.name} is {floor[0].name}'s level "
        f"on every table whose classes have at least {floor[2]} records (else its weakest {floor[3]}): where "
        f"{floor[2]} <= {floor[1]} it is {floor[0].name}'s; ")
    arg = (f"{cap}; {via}{(floor[0] if floor else ctx.b).name}'s class level is {what}, the table's its worst class's "
           "(method top-cap): B >= "
           f"{said(U)}; tight: one class of all N records, each the capped distribution at x = {x} (floor(x) values at "
           "1/x, one at 1 - floor(x)/x), has A at its level and B exactly f(x)")

    def build(point):
        from implgraph.core.concrete import ConcreteTable
        xv = sympy.sympify(x_of(kind, "x", level)).subs(point)
        if not xv.is_Rational:
            return None
        N = int(sympy.sympify(ctx.N).subs(point))
        return ConcreteTable.from_fractions([capped_row(xv)] * N, classes=["E1"] * N)

    found = Bound(U, True, METHOD.name, arg, build=build,
                  checks=[f"A ({ctx.a.name}): a cap on the top frequency ({kind}): True",
                          f"B ({ctx.b.name}): class level {bkind}: True"],
                  buckets=None if kind == "tail" else sympy.Max(2, sympy.ceiling(1 / level)), attained_where=where)
    return found if accepted(ctx, found) else None


@certificate_parts(METHOD, whole=True)
def top_cap_certificate(a, b, a_params, b_params, a_classes, b_classes, region, N, bound):
    """The cap, x, the chain's facts, U and the family (module notes)."""
    from implgraph.prover.certificate import FORMAT, side, symbols_and_domain
    kinds, domain = symbols_and_domain(region, [*a_params.values(), *b_params.values()])
    kind = cap_kind(a, a_params)
    bkind, floor = b_side(a, a_params, b, b_params)
    steps, f = B_KINDS[bkind]
    B = dict(side(b, b_params, b_classes, N), class_level=bkind)
    if floor is not None:
        B["floor"] = {"level_of": floor[0].name, "A_floor": str(floor[1]), "B_floor": str(floor[2]),
                      "weakest": str(floor[3])}
    return {"format": FORMAT, "method": METHOD.name, "symbols": kinds, "domain": domain,
            "A": side(a, a_params, a_classes, N), "B": B, "cap": kind, "x": str(x_of(kind, f, a.level_from_raw(T))),
            "steps": list(steps), "map": f, "upper": str(bound.upper), "tight": True, "argument": bound.argument,
            "family": {"kind": "capped-one-class"}, "min_classes": 1}
