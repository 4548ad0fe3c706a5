"""``subset-monotone``: the mean of the j extreme values is monotone in j (docs/arguments/subset-monotone.md).

A and B are two-sided subset definitions (``RatioLevel("subset")``, subset sizes j_A and j_B from ``SubsetSize``) with
j_B >= j_A on the whole condition (decided by the region's solver): the mean of the j smallest values is nondecreasing
in j and the mean of the j largest nonincreasing, so B's ratio is at most A's (``U = T``; tight when j_B = j_A
identically). Where j_B > j_A the supremum is ``subset-supremum``'s (``Bound.exact``).
"""

from __future__ import annotations

import sympy

from implgraph.core import methods
from implgraph.core.simplified import simplified
from implgraph.prover.answer import Bound, T
from implgraph.prover.arguments.subset_supremum import subset_supremum
from implgraph.prover.parts import lemma_only, level_T
from implgraph.prover.registry import argument, certificate_parts
from implgraph.prover.shapes import decide

METHOD = methods.SUBSET_MONOTONE


@argument(METHOD, order=70, applies=lambda ctx: ctx.ja is not None and ctx.jb is not None)
def bound(ctx):
    """``U = T`` where j_B >= j_A on the condition; None (not this argument's case) otherwise."""
    ja, jb, region, N = ctx.ja, ctx.jb, ctx.region, ctx.N
    same = simplified(ja - jb) == 0 or decide(region, sympy.Eq(jb, ja)) is True
    ok = True if same else decide(region, sympy.Ge(jb, ja))
    if ok is not True:
        return None
    arg = (f"both are subset-ratio levels (subset sizes j_A = {ja}, j_B = {jb}); "
           + ("j_A = j_B on the whole condition, so the two level functions coincide (both are read "
              "off the same subset ratio)" if same else
              "j_B >= j_A on the whole condition (z3), and the mean of the j smallest values "
              "is nondecreasing in j, the mean of the j largest nonincreasing, so B's ratio is "
              "at most A's"))
    return Bound(T, bool(same), METHOD.name, arg,
                 checks=[f"j_B >= j_A on the condition: {ok}"],
                 exact=None if same else subset_supremum(ja, jb, region, N))


certificate_parts(METHOD, family=level_T)(lemma_only(METHOD.lemma))
