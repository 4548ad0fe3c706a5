"""``one-sided-ceiling``: a set holds at most the whole table's mass (docs/arguments/one-sided-ceiling.md).

B a one-sided ratio of averages (a ``RatioLevel`` declared ``"one-sided"``) over classes of >= s records or over
subsets of j records, whatever A is: in each bucket a set S of the table D holds at most all of D's mass (values
>= 0), so ``|S| mean_S <= N mean_D`` and B's raw level is at most ``U = N / s`` (``N / j``) on every table of N
records. An upper bound (the ``ceiling`` stage, the prover's last resort); tight where a table satisfying A reaches it
(:mod:`implgraph.prover.attained`), and as a direct argument where A is a class's total variation distance, which a
rare value escapes (one record at x = Min(1, N T/(N - 1)) in a class of its own, N - 1 at 0).
Where A declares a parameter a minimum class size above its weakest level (``MinClassSizeAboveWeakest``, p-sensitive
k-anonymity's k) and the condition makes A's level stronger than the weakest, B's classes have >= that many records:
``U = N / k``, a direct argument (an upper bound; where A and B's classes are any partition, ``floor-level``'s
``share`` kind answers before it with the tight f, 1 below 2 k records).
"""

from __future__ import annotations

import sympy

from implgraph.core import methods
from implgraph.core.simplified import simplified
from implgraph.definitions.capabilities import MinClassSizeAboveWeakest, family_of
from implgraph.prover.arguments.divergence_ceiling import FLOOR_ABOVE_CHECK, floor_above_premise, floor_above_weakest
from implgraph.prover.answer import Bound
from implgraph.prover.parts import set_mass_multipliers, uniform_family
from implgraph.prover.registry import argument, certificate_parts
from implgraph.prover.shapes import any_partition, declared_subset_size, decide, one_sided
from implgraph.prover.tables import at, binary_column_table, frac

METHOD = methods.ONE_SIDED_CEILING


def _escapes(ctx):
    """A a class's total variation distance, B a one-sided class ratio (not a distance), both on any partition."""
    return ctx.a_distance == "total-variation" and one_sided(ctx.b, "class") and ctx.b_distance is None \
        and any_partition(ctx.a_classes) and any_partition(ctx.b_classes)


@argument(METHOD, order=50, applies=_escapes)
def escape_bound(ctx):
    """B's ceiling N, attained under every distance T > 0."""
    N = ctx.N

    def build(point):
        Tv, Nv, _ = at(point, N)
        x = min(sympy.Integer(1), Tv * Nv / (Nv - 1))
        return binary_column_table([frac(x)] + [frac(0)] * (Nv - 1), labels=["E1"] + ["E2"] * (Nv - 1))

    arg = ("B is a one-sided class ratio: in each bucket a class of e >= 1 records holds at most the table's mass "
           "(values >= 0), so its mean is at most N times the table's (U = N, whatever A is). A is a class's total "
           "variation distance from the table, which a rare value escapes: one record at x = Min(1, N T/(N - 1)) in "
           "a class of its own and N - 1 at 0 in another (binary rows) are at distances x (N - 1)/N <= T and x/N <= T "
           "from the table, and the lone class's ratio in the first bucket is x/(x/N) = N, for every T > 0")
    return Bound(N, True, METHOD.name, arg, build=build,
                 checks=["A: a class's total variation distance, any partition: True",
                         "B: a one-sided class ratio, any partition: True"])


def _floor_above(ctx):
    """B a one-sided class ratio on any partition, A a minimum class size above its weakest level that the condition
    makes hold (p-sensitive k-anonymity at p >= 1)."""
    return one_sided(ctx.b, "class") and ctx.b_distance is None and floor_above_weakest(ctx) is not None


@argument(METHOD, order=51, applies=_floor_above)
def floor_above_bound(ctx):
    """``N / s``, s A's minimum class size above its weakest level: at a stronger level every class has >= s records,
    and a class of >= s records holds at most the table's mass."""
    N, s = ctx.N, floor_above_weakest(ctx)
    if decide(ctx.region, sympy.And(sympy.Ge(s, 1), sympy.Le(s, N))) is not True:
        return None
    return Bound(simplified(N / s), False, METHOD.name,
                 f"{floor_above_premise(ctx, s)}; {ctx.b.name} is a one-sided ratio of averages over classes: in "
                 f"each bucket a class of >= {s} records holds at most the whole table's mass (values >= 0), so its "
                 f"mean is at most N/({s}) times the table's mean "
                 "(an upper bound; not argued to be attained)",
                 checks=[FLOOR_ABOVE_CHECK, f"1 <= {s} <= N on the condition: True"])


def _one_sided_set(ctx):
    return one_sided(ctx.b, "class") or one_sided(ctx.b, "subset")


@argument(METHOD, order=20, applies=_one_sided_set, stage="ceiling")
def ceiling(ctx):
    """``N / s`` (``N / j``) on every table, whatever A is; None where B's set size is not >= 1 on the condition."""
    b, b_classes, region, N = ctx.b, ctx.b_classes, ctx.region, ctx.N
    if family_of(b) == "class":
        s = sympy.sympify((b_classes or {}).get("min_size", 1))
        what = f"a class of >= {s} records"
    else:
        s = declared_subset_size(b, N, ctx.b_params)
        if s is None:
            return None
        what = f"a set of {s} records"
    if decide(region, sympy.Ge(s, 1)) is not True:
        return None
    return Bound(simplified(N / s), False, METHOD.name,
                 f"{b.name} is a one-sided ratio of averages: in each bucket {what} holds at most the "
                 f"whole table's mass (values >= 0), so its mean is at most N/({s}) times the table's mean, "
                 f"on every table of N records whatever A is (an upper bound; not argued to be attained)",
                 checks=["B's set size >= 1 on the condition: True"])


def escape_family(cert, ctx):
    """Where A is a class's total variation distance: one record at x = Min(1, N T/(N - 1)) in class E1, N - 1 at 0
    in E2 (a rare value escapes the distance); where A's level is a uniform class's or a tail ratio,
    :func:`~implgraph.prover.parts.uniform_family`; where A has an additive slack delta, one record at delta in E1
    and N - 1 at 0 in E2 (:mod:`implgraph.prover.attained`); None otherwise (the ceiling is then an upper bound
    only)."""
    if cert["A"].get("uniform_class_level") or cert["A"].get("tail_ratio"):
        return uniform_family(cert["A"], ctx)
    if cert["A"].get("slack"):      # one record at delta in a class of its own, the rest at 0: A at its strongest
        return {"blocks": [{"count": "1", "value": cert["A"]["slack"]["delta"], "class": "E1"},
                           {"count": "N - 1", "value": "0", "class": "E2"}]}
    if cert["A"].get("distance") != "total-variation":
        return None
    return {"blocks": [{"count": "1", "value": "Min(1, N*T/(N - 1))", "class": "E1"},
                       {"count": "N - 1", "value": "0", "class": "E2"}]}


@certificate_parts(METHOD, family=escape_family)
def upper_certificate(cert, ctx):
    B = cert["B"]
    s_ = B.get("min_class", "1") if B["family"] == "class" else B["size"]
    above = None
    if ctx.bound is not None and FLOOR_ABOVE_CHECK in ctx.bound.checks:      # s = A's floor above its weakest level
        above = ctx.a.declared(MinClassSizeAboveWeakest).param
        s_ = cert["A"]["params"][above]
    cert["domain"] += [f"({s_}) >= 1", f"({s_}) <= N"]      # where a set of s records exists
    cert["upper_certificate"] = {"lemma": METHOD.lemma, "multipliers": {"mass": set_mass_multipliers(s_)},
                                 **({"class_floor_above_weakest": above} if above is not None else {})}
