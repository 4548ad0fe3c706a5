"""``subset-to-classes``: a class mean lies between the means of its size's extreme values
(docs/arguments/subset-to-classes.md).

A a subset definition with subset size j, B a two-sided class definition with classes of size >= s >= j: a class mean
lies between the mean of the s smallest and the s largest values, hence between the j-extremes (``U = T``; tight when
s = j).
"""

from __future__ import annotations

import sympy

from implgraph.core import methods
from implgraph.core.simplified import simplified
from implgraph.prover.answer import Bound, T
from implgraph.prover.parts import lemma_only, level_T
from implgraph.prover.registry import argument, certificate_parts
from implgraph.prover.shapes import compares, decide

METHOD = methods.SUBSET_TO_CLASSES


def _applies(ctx):
    return ctx.ja is not None and compares(ctx.b, "class") and ctx.b_classes \
        and ctx.b_classes.get("min_size") is not None


@argument(METHOD, order=80, applies=_applies)
def bound(ctx):
    """``U = T`` where every class has >= j_A records on the condition; None (not this argument's case) otherwise."""
    ja = ctx.ja
    s = sympy.sympify(ctx.b_classes["min_size"])
    ok = decide(ctx.region, sympy.Ge(s, ja))
    if ok is not True:
        return None
    same = simplified(s - ja) == 0
    return Bound(T, bool(same), METHOD.name,
                 f"every class has >= {s} >= j_A = {ja} records; a class mean lies between the means "
                 f"of its size's smallest and largest values, hence between the j_A-extreme means, so "
                 f"each class ratio is at most A's ratio" + (
                     "; tight: the class of the j_A extreme records of the bucket that attains A's "
                     "level has exactly A's ratio" if same else ""),
                 checks=[f"min class size >= j_A on the condition: {ok}"])


certificate_parts(METHOD, family=level_T)(lemma_only(METHOD.lemma))
