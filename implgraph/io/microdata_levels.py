"""Every registered definition's exact level on a grouped microdata table, and why an infinite one is infinite.

:func:`table_levels` gives each definition its declared parameters and reads the grouped table through the
definition's exact ``concrete`` view (or, for a definition with a symbolic view only, the same records as blocks
with counts); :func:`infinite_reason` reads the cause of an infinite level from what the definition declares.
"""

from __future__ import annotations

import sympy

from implgraph.core.errors import InputError
from implgraph.core.pieces import Piece
from implgraph.definitions import all_definitions
from implgraph.definitions.base import read_shared_params
from implgraph.definitions.capabilities import FiniteLevelOf, MinClassSize, SubsetSize, family_of
from implgraph.definitions.levels import Level, has_fast_path, optimal_level
from implgraph.io.weighted import WeightedConcreteTable

__all__ = ["table_levels", "infinite_reason"]


def _params(d, n, params) -> dict:
    """The values of ``params`` for the parameters ``d`` declares (k defaults to 2, or 1 when N <= 2)."""
    out = {name: params[name] for name in d.params if params.get(name) is not None}
    if "k" in d.params and "k" not in out:
        out["k"] = 2 if n > 2 else 1
    return out


def table_levels(ct: WeightedConcreteTable, params: dict | None = None, ground=None, only=None) -> dict:
    """``{definition name: Level}`` for every registered definition on one grouped table.

    ``params`` maps a parameter name (``k``, ``delta``, ``l``, ``ground``...) to the value every
    definition declaring that parameter gets; a definition missing a value it needs is reported
    undefined with the reason. ``ground`` is a default ground distance, used where the definition
    accepts it (an explicit ``params["ground"]`` always wins). A definition with an exact concrete
    view reads the grouped table; one without (a plugin with a symbolic view only) reads the same
    records as blocks with counts. ``only``: the names of the definitions to compute (default: every one).
    """
    params = read_shared_params(params, ct.N)
    out = {}
    blocks = None
    for d in all_definitions():
        if only is not None and d.name not in only:
            continue
        mine = _params(d, ct.N, params)
        tries = [{**mine, "ground": ground}, mine] if "ground" in d.params and "ground" not in mine and ground \
            else [mine]
        for i, attempt in enumerate(tries):
            try:
                if has_fast_path(d):
                    out[d.name] = optimal_level(ct, d, **attempt)
                else:
                    blocks = blocks or _blocks_table(ct)
                    out[d.name] = optimal_level(blocks, d, **attempt)
                break
            except InputError as exc:
                if i == len(tries) - 1:
                    out[d.name] = Level(d, attempt, [Piece(sympy.true, None)], note=exc.reason)
    return out


def _blocks_table(ct: WeightedConcreteTable):
    """The grouped table as a :class:`~implgraph.core.table.Table` of blocks with counts."""
    from implgraph.core.table import Block, Table
    blocks = []
    for r in range(len(ct.counts)):
        probs = tuple(sympy.Rational(int(x), ct.denom) for x in ct.rows[r])
        cls = None if ct.row_class is None else ct.class_labels[int(ct.row_class[r])]
        blocks.append(Block(probs=probs, count=sympy.Integer(int(ct.counts[r])), cls=cls, line=r + 2))
    return Table(blocks=blocks, buckets=list(ct.buckets), id=ct.id)


def infinite_reason(level, ct) -> str:
    """Why ``level`` is infinite on the deterministic table ``ct`` ('' if it is finite).

    The cause is read from what the definition declares: a minimum class size (:class:`MinClassSize`) that a
    class is below; a cap on a class's increase (:class:`FiniteLevelOf`) that a class exceeds; otherwise, every
    probability of a deterministic table being 0 or 1, a level that compares probabilities by their ratio is
    infinite as soon as a 0 meets a positive probability, and the record sets the definition compares (its
    declared ``family``) say which (a class lacking a value is named).
    """
    if level.value is not sympy.oo:
        return ""
    d = level.definition
    floor = d.declared(MinClassSize)
    if floor is not None and ct.class_labels is not None and level.params.get(floor.param) is not None:
        k = int(level.params[floor.param])
        sizes, _ = ct.class_sums()
        small = [i for i, s in enumerate(sizes.tolist()) if s < k]
        if small:
            i = min(small, key=lambda j: (int(sizes[j]), j))
            return (f"infinite because {len(small)} class(es) have fewer than {floor.param} = {k} records "
                    f"(the smallest, {ct.class_labels[i]}, has {int(sizes[i])})")
    finite = d.declared(FiniteLevelOf)
    if finite is not None and finite.increase_cap:
        from implgraph.definitions import get
        other = optimal_level(ct, get(finite.name), **{k: v for k, v in level.params.items()
                                                      if k in get(finite.name).params})
        if other.value is not sympy.oo:
            return (f"infinite because a class's increase q/p - 1 over the table's share p of a value exceeds the cap "
                    f"{finite.increase_cap} ({finite.name} alone is {other.value})")
    why = "a probability 0 is compared with a positive one"
    family = family_of(d)
    if family == "pairwise":
        why = "two records hold different values (probability 1 for one, 0 for the other)"
    elif family == "class":
        why = "a class lacks a value the table holds (probability 0 in the class" + _lacking(ct) + ")"
    elif family == "subset":
        j = d.declared(SubsetSize).size(ct.N, {k: int(v) for k, v in level.params.items() if k == "k"})
        why = f"some set of {j} records lacks a value the table holds (probability 0 in the set)"
    return f"infinite because the table is deterministic: {why}"


def _lacking(ct) -> str:
    """``; e.g. CLASS lacks VALUE`` for the first class lacking a value the table holds ('' if none)."""
    if ct.class_labels is None:
        return ""
    _, sums = ct.class_sums()
    totals = sums.sum(axis=0)
    for i, row in enumerate(sums.tolist()):
        for v, c in enumerate(row):
            if c == 0 and totals[v] > 0:
                return f"; e.g. {ct.class_labels[i]} lacks {ct.buckets[v]}"
    return ""
