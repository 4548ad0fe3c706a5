"""Does a non-implication's witness table speak to the claim's condition (:func:`witness_fit`)?

The witness claims are the ``kind: unbounded`` claims of the bundled counterexamples/
(:func:`witness_claim`).
"""

from __future__ import annotations

import sympy

from implgraph.core.formula import parse_condition, parse_expr
from implgraph.core.region import Region
from implgraph.io.counterexamples import table_of_claim
from implgraph.io.theorems import Edge, load_claims

__all__ = ["witness_claim", "witness_fit"]


_WITNESS_CACHE: dict = {}


def witness_claim(claim_id):
    """The table claim ``claim_id`` of the bundled counterexamples/ (the files read once), or None."""
    if not _WITNESS_CACHE:
        for c in load_claims(kinds=("counterexamples",)):
            _WITNESS_CACHE[str(c.get("id"))] = c
    return _WITNESS_CACHE.get(str(claim_id))


def witness_fit(edge: Edge, claim_id) -> dict | None:
    """Does the witness claim ``claim_id`` speak to ``edge``'s condition?

    The witness's instance is the conjunction, in the edge's symbols, of the witness table's region,
    its size (``N`` = the number of records of the table), the witness claim's parameters (equated
    with the edge's parameters side by side), its ``when`` and its ``fix`` values; table symbols are
    renamed through ``witness_map`` (or by name). Returns ``{"fits": True/False/None, "covers": bool,
    "instance": str}``: ``fits`` is False when no parameter value of the edge's condition is an
    instance of the witness (the witness then confirms nothing about the claim), ``covers`` True only
    when every parameter value of the condition is one (proved with the solver; otherwise the witness
    confirms the claim at its instance only). None when the claim is not a table claim.
    """
    node = witness_claim(claim_id)
    table = table_of_claim(str(claim_id)) if node is not None else None
    if table is None:
        return None
    mismatch = _side_mismatch(edge, node)
    if mismatch is not None:
        return mismatch
    claim_syms, subs, kinds = _renaming(edge, table)
    conds = _instance_conditions(edge, node, table, subs, claim_syms)
    claim_only = [c for c in conds if not any(s.name.startswith("_w_") for s in c.free_symbols)]
    table_only = [c for c in conds if c not in claim_only]

    def _show(c):
        return f"{c.lhs} = {c.rhs}" if isinstance(c, sympy.Eq) else str(c)
    # the instance in the claim's symbols (the table's own parameters are existential)
    instance = ", ".join(_show(c) for c in claim_only if c is not sympy.false) or "every value"
    if any(c is sympy.false for c in conds):
        return {"fits": False, "covers": False, "instance": instance}
    joint = Region(kinds, tuple(edge.when) + tuple(conds))
    empty = joint.is_empty()
    fits = False if empty is True else (True if empty is False else None)
    couples = any(s.name in claim_syms for c in table_only for s in c.free_symbols)
    if node.get("for_every") is not None:
        # a family for every value of its `for_every:` symbols: its judge decides that, for every value in
        # their range (the constraints on them alone), the family lies in the region near its limit (and is
        # not confirmed otherwise); the table's constraints coupling them with the other symbols hold there
        couples = False
    covers = False
    if fits and not couples:
        base = Region({s: k for s, k in kinds.items() if s.name in claim_syms}, tuple(edge.when))
        covers = base.decide(sympy.And(*claim_only)) is True if claim_only else True
    return {"fits": fits, "covers": covers, "instance": instance}


def _side_mismatch(edge: Edge, node):
    """The answer of :func:`witness_fit` when a side of the witness is another definition or scope.

    Parameters
    ----------
    edge : Edge
        The non-implication.
    node : Node
        The witness claim.

    Returns
    -------
    dict or None
        ``{"fits": False, "covers": False, "instance": why}``, or None when both sides match.
    """
    for key, side in (("from", edge.a), ("to", edge.b)):
        spec = node.get(key) or {}
        got = (str(spec.get("definition")), str(spec.get("scope") or "table"))
        if got != (side.name, side.scope or "table"):
            return {"fits": False, "covers": False,
                    "instance": f"its {key} side is {got[0]} (scope {got[1]}), the claim's is {side.name} "
                                f"(scope {side.scope or 'table'})"}
    return None


def _renaming(edge: Edge, table):
    """The witness table's symbols in the edge's symbols.

    Parameters
    ----------
    edge : Edge
        The non-implication (its ``witness_map`` renames table symbols; else they match by name).
    table : Table
        The witness table.

    Returns
    -------
    tuple
        ``(claim_syms, subs, kinds)``: the edge's symbols by name (the levels left out), the substitution
        of the table's symbols (a symbol of the table only becomes an existential ``_w_NAME``), and the
        kinds of the symbols.
    """
    names = dict(table.symbols)
    claim_syms = {s.name: s for s in edge.kinds if s not in (edge.a.level, edge.b.level)}
    wmap = edge.node.get("witness_map") or {}
    subs, kinds = {}, {s: k for s, k in edge.kinds.items() if s.name in claim_syms}
    for tname, tsym in names.items():
        if tname in wmap:
            subs[tsym] = parse_expr(str(wmap[tname]), dict(claim_syms))
        elif tname in claim_syms:
            subs[tsym] = claim_syms[tname]
        else:   # a symbol of the table only: existential, renamed apart from the claim's symbols
            fresh = sympy.Symbol(f"_w_{tname}", **tsym.assumptions0)
            subs[tsym] = fresh
            kinds[fresh] = table.region.kinds.get(tsym, "real")
    return claim_syms, subs, kinds


def _instance_conditions(edge: Edge, node, table, subs, claim_syms):
    """The witness's instance as conditions in the edge's symbols.

    Parameters
    ----------
    edge : Edge
        The non-implication.
    node : Node
        The witness claim.
    table : Table
        The witness table.
    subs, claim_syms
        As returned by :func:`_renaming`.

    Returns
    -------
    list
        The table's region, its size (``N``), the witness's parameters equated with the edge's side by
        side, its ``when`` and its ``fix`` values; conditions that are identically true left out.
    """
    names = dict(table.symbols)

    def tr(text):
        return parse_expr(str(text), names).subs(subs, simultaneous=True)

    conds = [sympy.sympify(c).subs(subs, simultaneous=True) for c in table.region.constraints]
    if "N" in claim_syms:
        conds.append(sympy.Eq(claim_syms["N"], sum((b.count for b in table.blocks), sympy.Integer(0))
                              .subs(subs, simultaneous=True)))
    for key, side in (("from", edge.a), ("to", edge.b)):
        wparams = (node.get(key) or {}).get("params") or {}
        for pk, pv in wparams.items():
            if pk in side.params:
                conds.append(sympy.Eq(side.params[pk], tr(pv)))
    for w in node.get("when") or []:
        conds.append(parse_condition(str(w), names).subs(subs, simultaneous=True))
    for fk, fv in (node.get("fix") or {}).items():
        if fk in names:
            conds.append(sympy.Eq(subs[names[fk]], tr(fv)))
    return [c for c in conds if c is not sympy.true]
