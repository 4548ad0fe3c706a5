"""``finite-level-of``: A's level is B's wherever it is finite (docs/arguments/finite-level-of.md).

A declares ``FiniteLevelOf(B)`` (no parameters on either side, the same scale and direction): where A's level is
finite it is B's, so ``U = T`` (an upper bound; tightness not derived).
"""

from __future__ import annotations

from implgraph.core import methods
from implgraph.definitions.capabilities import FiniteLevelOf
from implgraph.prover.answer import Bound, T
from implgraph.prover.parts import lemma_only
from implgraph.prover.registry import argument, certificate_parts

METHOD = methods.FINITE_LEVEL_OF


def _applies(ctx):
    a, b = ctx.a, ctx.b
    finite = a.declared(FiniteLevelOf)
    return finite is not None and finite.name == b.name and not a.params and not b.params \
        and a.scale == b.scale and a.stronger == b.stronger


@argument(METHOD, order=60, applies=_applies)
def bound(ctx):
    a, b = ctx.a, ctx.b
    return Bound(T, False, METHOD.name,
                 f"{a.name} declares that its optimal level is {b.name}'s wherever it is finite (a condition "
                 f"added to {b.name}'s makes the rest infinite), in the same units: a table satisfying A at "
                 "level alpha has B's level <= alpha (an upper bound; tightness not derived)")


certificate_parts(METHOD)(lemma_only(METHOD.lemma))
