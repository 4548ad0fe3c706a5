"""``skew-family``: B's weakest level is the tight f under A, approached by skewed classes and not attained beyond A's
weakest (docs/arguments/skew-family.md).

B's class level is ``1/max q`` (frequency l-diversity) or ``exp H`` (entropy l-diversity), names of the lemma chain
(:mod:`implgraph.certify.lemma_chain`), read from B's declared class level: its weakest level 1 is met by every table
(``max q <= 1``, ``H >= 0``). A's class level, larger stronger, declares no class floor, and is

``support`` (the number of values, distinct l-diversity)
    the family: one class of all N records, each ``(1 - e, e/(m - 1), ..., e/(m - 1))`` over m = max(2, ceiling(T))
    values, 0 < e < (m - 1)/m: A's level is m >= T for every such e, and B's ``1/(1 - e)`` or
    ``exp(-(1 - e) log(1 - e) - e log(e/(m - 1)))`` tends to 1 as e tends to 0;
``shannon`` (exp H, entropy l-diversity; B then 1/max q)
    the family: each record ``(1 - e, e/M, ..., e/M)`` over 1 + M values: ``H = h(e) + e log M`` grows without bound in
    M at a fixed e > 0, so some M meets T, while B = ``1/(1 - e)`` tends to 1 as e tends to 0 (M growing like
    T^(1/e): the buckets are unbounded).

Not attained where A's level T > 1: B = 1 needs a class whose top is 1, a class of a single value, whose A level is 1
(one value; exp H = 1), so the table's A level is at most 1 < T. The supremum is approached (as ceiling-family's
``approach`` family), which the argument says and the certificate's family states (``attained``: only where T <= 1).
:mod:`implgraph.certify.lemmas.skew_family` re-checks it; the argument answers only where the checker accepts.
"""

from __future__ import annotations

import math
from fractions import Fraction

import sympy

from implgraph.core import methods
from implgraph.definitions.capabilities import ClassSizeLevel, MinClassSize, MinClassSizeAboveWeakest
from implgraph.prover.answer import Bound, T
from implgraph.prover.certificate import accepted
from implgraph.prover.registry import argument, certificate_parts
from implgraph.prover.shapes import any_partition

METHOD = methods.SKEW_FAMILY

__all__ = ["bound", "kinds", "skew_row", "skew_certificate"]

#: the skew of the table ``build`` returns (an example of the family, B near its weakest)
E_BUILD = Fraction(1, 100)
#: the most buckets of that example (A = exp H needs M growing like T^(1/e))
MAX_BUILD = 4000


def kinds(a, b):
    """``(A's class level, B's)`` as the lemma chain names them where this argument applies, else None."""
    from implgraph.certify.lemma_chain import _declares
    if a.stronger != "larger" or b.stronger != "larger":
        return None
    if a.has(ClassSizeLevel) or a.declared(MinClassSize) or a.declared(MinClassSizeAboveWeakest):
        return None
    ka = next((k for k in ("support", "shannon") if _declares(a.name, k)), None)
    kb = next((k for k in ("min-entropy", "shannon") if _declares(b.name, k)), None)
    if ka is None or kb is None or ka == kb or (ka == "shannon" and kb != "min-entropy"):
        return None
    return ka, kb


def skew_row(ka, t, e):
    """One record of the family at A's level ``t`` and skew ``e`` (numbers), or None past :data:`MAX_BUILD`."""
    if ka == "support":
        m = max(2, math.ceil(t))
        return [1 - e] + [e / (m - 1)] * (m - 1)
    h = -(1 - e) * math.log(1 - e) - e * math.log(e)
    M = max(1, math.ceil(math.exp((math.log(t) - h) / e) * (1 + 1e-9)) + 1)
    return None if M > MAX_BUILD else [1 - e] + [e / M] * M


def _applies(ctx):
    return (ctx.a is not None and any_partition(ctx.a_classes) and any_partition(ctx.b_classes)
            and kinds(ctx.a, ctx.b) is not None)


@argument(METHOD, order=199.9, applies=_applies)
def bound(ctx):
    """B's weakest level 1, approached by the skew family, attained only where A's level is at most 1."""
    ka, kb = kinds(ctx.a, ctx.b)
    weakest = sympy.sympify(ctx.b.raw_from_level(ctx.b.weakest(ctx.N)))
    fam = ("one class of all N records, each (1 - e, e/(m - 1), ..., e/(m - 1)) over m = max(2, ceiling(T)) values: "
           f"{ctx.a.name}'s level is m >= T for every 0 < e < (m - 1)/m" if ka == "support" else
           "one class of all N records, each (1 - e, e/M, ..., e/M): exp H = exp(h(e)) M^e grows without bound in M, "
           f"so some M meets T (M growing like T^(1/e), the buckets unbounded)")
    what = "1/(1 - e)" if kb == "min-entropy" else "exp H, H = -(1 - e) log(1 - e) - e log(e/(m - 1))"
    arg = (f"{ctx.b.name}'s weakest level {ctx.b.weakest(ctx.N)} is met by every table, and it is the tight f whatever "
           f"{ctx.a.name}'s level T, approached, not attained where T > 1 (method skew-family): {fam}; "
           f"{ctx.b.name}'s level {what} tends to 1 as e tends to 0. Not attained: B = 1 needs a class of one value, "
           f"whose {ctx.a.name} level is 1 < T")

    def build(point):
        from implgraph.core.concrete import ConcreteTable
        tv = sympy.sympify(T).subs(point)
        if not tv.is_Rational:
            return None
        row = skew_row(ka, Fraction(int(tv.p), int(tv.q)), E_BUILD)
        if row is None:
            return None
        N = int(sympy.sympify(ctx.N).subs(point))
        return ConcreteTable.from_fractions([row] * N, classes=["E1"] * N)

    found = Bound(weakest, True, METHOD.name, arg, build=build,
                  checks=[f"A ({ctx.a.name}): class level {ka}, no class floor: True",
                          f"B ({ctx.b.name}): class level {kb}, weakest 1, approached: True"],
                  buckets=sympy.Max(2, sympy.ceiling(T)) if ka == "support" else sympy.oo, approached=True)
    # (approached, not attained: the verdict says so; attained_where would read "elsewhere not derived", while the
    # supremum is derived everywhere)
    return found if accepted(ctx, found) else None


@certificate_parts(METHOD, whole=True)
def skew_certificate(a, b, a_params, b_params, a_classes, b_classes, region, N, bound):
    """U = B's weakest raw level, the sides' class levels and the family (module notes)."""
    from implgraph.prover.certificate import FORMAT, side, symbols_and_domain
    kinds_, domain = symbols_and_domain(region, [*a_params.values(), *b_params.values()])
    ka, kb = kinds(a, b)
    return {"format": FORMAT, "method": METHOD.name, "symbols": kinds_, "domain": domain,
            "A": dict(side(a, a_params, a_classes, N), class_level=ka),
            "B": dict(side(b, b_params, b_classes, N), class_level=kb), "upper": str(bound.upper), "tight": True,
            "argument": bound.argument, "min_classes": 1,
            "family": {"kind": "skew-support" if ka == "support" else "skew-entropy", "attained": "T <= 1"}}
