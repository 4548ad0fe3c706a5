"""``distance-ceiling``: a class of >= s records is at most (N - s)/N from the table
(docs/arguments/distance-ceiling.md).

B a class's total variation distance over classes of >= s records (no maximum), whatever A is: the other records
hold N P - e x >= 0 on the buckets where a class lies above the table, so ``U = (N - s)/N``, an upper bound (the
``ceiling`` stage, the prover's last resort; tight where a table satisfying A reaches it,
:mod:`implgraph.prover.attained`).
"""

from __future__ import annotations

import sympy

from implgraph.core import methods
from implgraph.core.simplified import simplified
from implgraph.definitions.capabilities import family_of
from implgraph.prover.answer import Bound, final
from implgraph.prover.parts import distance_mass_multipliers, two_classes, uniform_family
from implgraph.prover.registry import argument, certificate_parts
from implgraph.prover.shapes import class_distance_of, decide

METHOD = methods.DISTANCE_CEILING


def _applies(ctx):
    return class_distance_of(ctx.b, ctx.b_params) == "total-variation" and family_of(ctx.b) == "class" \
        and not (ctx.b_classes or {}).get("max_size")


@argument(METHOD, order=10, applies=_applies, stage="ceiling")
def ceiling(ctx):
    return final(distance_ceiling(sympy.sympify((ctx.b_classes or {}).get("min_size", 1)), ctx.region, ctx.N))


def distance_ceiling(s, region, N):
    """A class of >= s records is at most (N - s)/N from the table, whatever A is; None where s >= 1 and 2 s <= N
    are not decided on the condition."""
    ok = decide(region, sympy.And(s >= 1, 2 * s <= N))
    if ok is not True:
        return None
    return Bound(simplified((N - s) / N), False, METHOD.name,
                 f"B is a class's total variation distance from the table: for a class E of e >= {s} records and the "
                 "buckets S where it lies above the table (E's mass x, the table's P), the other records hold "
                 f"N P - e x >= 0 on S, so x - P <= (N - e) x/N <= (N - {s})/N on every table of N records whatever A "
                 "is (an upper bound; not argued to be attained)",
                 checks=[f"s >= 1 and 2 s <= N on the condition: {ok}"])


@certificate_parts(METHOD, family=lambda cert, ctx: uniform_family(cert["A"], ctx) if (
    cert["A"].get("uniform_class_level") or cert["A"].get("tail_ratio")) else None)
def upper_certificate(cert, ctx):
    s_ = cert["B"].get("min_class", "1")
    two_classes(cert, s_)
    cert["upper_certificate"] = {"lemma": METHOD.lemma, "multipliers": {"mass": distance_mass_multipliers()}}
