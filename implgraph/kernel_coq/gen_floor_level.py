"""A level with a class floor above its weakest level and the level it is where the floor holds, stated in Coq
(``FloorLevel.v``; :class:`~implgraph.definitions.capabilities.MinClassSizeAboveWeakest` with ``level_of``:
p-sensitive k-anonymity, the fewest values in a class wherever every class has at least k records, else 0).

"At least T" is ``floor_level_ge N cls k w T X``: T at most the weakest level w (every table meets it), or every
class of at least k records and X, the other level's predicate at T (``Entropy.support_ge``, the fewest values a class
holds, where the other level declares that class level). Read from the registered declaration, never from a name.
"""

from __future__ import annotations

import sympy

__all__ = ["floor_level_predicate", "MODULES"]

#: the library modules the predicate lives in (``support_ge``: Entropy)
MODULES = ("FloorLevel", "Entropy")


def floor_level_predicate(tr, side, level, K="K", x="x", cls="cls"):
    """The predicate "``side``'s raw level is at least ``level``" for a side whose registered definition declares a
    minimum class size above its weakest level (a rational number, larger stronger, not depending on N) and the level
    it equals where the floor holds, that level a class's number of values; None otherwise."""
    from implgraph.certify.lemma_chain import _declares
    from implgraph.definitions.capabilities import MinClassSizeAboveWeakest
    from implgraph.kernel_coq import adapter
    d = adapter.registered(side.definition) if side.definition else None
    declared = None if d is None else d.declared(MinClassSizeAboveWeakest)
    if (declared is None or declared.level_of is None or side.params.get(declared.param) is None
            or d.stronger != "larger" or d.level_scale.weakest_depends_on_N or not _declares(declared.level_of,
                                                                                            "support")):
        return None
    w = sympy.nsimplify(d.raw_from_level(d.weakest()))
    if not w.is_Rational:
        return None
    k = tr.expr(str(side.params[declared.param]))
    return (f"floor_level_ge N {cls} ({k}) ({tr.expr(str(w))}) ({level}) "
            f"(support_ge N {K} {x} {cls} ({level}))")


def weakest_of(side):
    """The weakest raw level (text) of a side :func:`floor_level_predicate` states."""
    from implgraph.kernel_coq import adapter
    d = adapter.registered(side.definition)
    return str(sympy.nsimplify(d.raw_from_level(d.weakest())))
