"""Helpers shared by the claim checkers: verdict constructors, parsing with the claim's file and line,
three-valued solver calls, exact truth of relations, and the claim nodes of the bundled theorems/.
"""

from __future__ import annotations

import sympy

from implgraph.core.errors import InputError
from implgraph.core.formula import parse_condition, parse_expr
from implgraph.core.region import Region
from implgraph.io.table_data import make_symbols
from implgraph.core.verdict import Verdict
from implgraph.io.theorems import Edge, load_claims
from implgraph.core.simplified import simplified

__all__ = ["context_max_n", "edge_verdict", "claim_error", "claim_symbols", "parse_in", "condition_in",
           "parse_definitions", "put", "when_region", "py_distribution", "as_float", "printed_text",
           "claim_verdict", "decide", "find_point", "is_true", "truth", "witness_params", "rows_verdict",
           "theorem_claim", "reading_row"]


def context_max_n(context):
    return int((context or {}).get("max_n", 8))


def edge_verdict(edge_or_node, verdict, **kw):
    node = edge_or_node.node if isinstance(edge_or_node, Edge) else edge_or_node
    cid = edge_or_node.id if isinstance(edge_or_node, Edge) else str(node.get("id"))
    return Verdict(id=cid, verdict=verdict, printed=str(node.get("printed", "")),
                   reading=node.get("reading"), source=node.get("source"), **kw)


def claim_error(claim, message, fix, key=None):
    if hasattr(claim, "error"):
        return claim.error(message, key=key, fix=fix)
    return InputError(message, fix=fix)


def claim_symbols(claim):
    return make_symbols(claim.get("symbols") or {}, claim if hasattr(claim, "error") else None)


def parse_in(claim, text, names):
    try:
        return parse_expr(str(text), names)
    except InputError as exc:
        raise exc.at(getattr(claim, "file", None), getattr(claim, "line", None)) from None


def condition_in(claim, text, names):
    try:
        return parse_condition(str(text), names)
    except InputError as exc:
        raise exc.at(getattr(claim, "file", None), getattr(claim, "line", None)) from None


def parse_definitions(claim, names, kinds, values=None):
    """Parse ``definitions:`` in order; each may use the previous ones. Returns {name: expr}."""
    out = {}
    values = dict(values or {})
    for name, text in (claim.get("definitions") or {}).items():
        if name not in names:
            names[name] = sympy.Symbol(name, real=True)
            kinds[names[name]] = "real"
        expr = parse_in(claim, text, names)
        out[name] = put(put(expr, {names[k]: v for k, v in out.items()}), values)
    return out


def put(expr, mapping):
    """Substitute symbols by expressions without re-evaluating (sympy's Max pruning is slow)."""
    with sympy.evaluate(False):
        return sympy.sympify(expr).xreplace(dict(mapping))


def when_region(claim, names, kinds, key="when", conds=None):
    """The claim's ``when:`` as (region, substitutions): ``x == e`` with ``x`` a symbol substitutes."""
    subs, cons = {}, []
    for text in (claim.get(key) or []) if conds is None else conds:
        c = condition_in(claim, text, names)
        if isinstance(c, sympy.Eq) and c.lhs.is_Symbol:
            subs[c.lhs] = c.rhs
        elif c is not sympy.true:
            cons.append(c)
    for _ in range(len(subs)):          # ``py1 == m/N`` and ``N == 100``: every value in the free symbols only
        resolved = {s: sympy.sympify(v).xreplace(subs) for s, v in subs.items()}
        if resolved == subs:
            break
        subs = resolved
    cons = [sympy.sympify(c).subs(subs) for c in cons]
    region_kinds = {s: k for s, k in kinds.items() if s not in subs}
    return Region(region_kinds, tuple(c for c in cons if c is not sympy.true)), subs


def py_distribution(names, subs):
    """``[py1, py2, ...]`` from the declared symbols, with the ``when`` equalities substituted."""
    py, i = [], 1
    while f"py{i}" in names:
        py.append(sympy.sympify(names[f"py{i}"]).subs(subs))
        i += 1
    return py or None


def as_float(x, digits=6):
    return round(float(sympy.N(x, 20)), digits)


def printed_text(claim):
    return str(claim.get("printed", ""))


def claim_verdict(claim, verdict, **kw):
    return Verdict(id=str(claim.get("id")), verdict=verdict, printed=printed_text(claim),
                   source=claim.get("source"), **kw)


def decide(region, cond):
    try:
        return region.decide(cond)
    except Exception:  # an untranslatable piece: unknown, never a proof
        return None


def find_point(region, cond):
    try:
        return region.find_point(cond)
    except Exception:
        return None


def is_true(x) -> bool:
    return x is True or x is sympy.true


def truth(rel):
    """Exact truth of a relation between numbers (True, False, or None if sympy cannot tell)."""
    rel = sympy.sympify(rel)
    if rel in (sympy.true, sympy.false):
        return bool(rel)
    if isinstance(rel, sympy.Eq):
        return simplified(rel.lhs - rel.rhs) == 0
    if isinstance(rel, sympy.Ne):
        return simplified(rel.lhs - rel.rhs) != 0
    if isinstance(rel, (sympy.And, sympy.Or, sympy.Not)):
        vals = [truth(a) for a in rel.args]
        if None in vals:
            return None
        return {sympy.And: all, sympy.Or: any}.get(rel.func, lambda v: not v[0])(vals)
    d = sympy.nsimplify(simplified(rel.lhs - rel.rhs))
    out = rel.func(d, 0)
    return bool(out) if out in (sympy.true, sympy.false) else None


def witness_params(point, relevant=None):
    """The point's coordinates as strings (only the ``relevant`` symbols, when given)."""
    return {str(s): str(v) for s, v in sorted(point.items(), key=lambda kv: str(kv[0]))
            if relevant is None or s in relevant}


def rows_verdict(rows):
    if rows and all(r["decided"] is True for r in rows):
        return "holds"
    if any(r.get("witness") for r in rows):
        return "refuted"
    return "unknown"


_CLAIM_NODES: dict = {}


def theorem_claim(cid):
    """The claim node ``cid`` of the bundled theorems/ (the files read once), or None."""
    if not _CLAIM_NODES:
        for c in load_claims(kinds=("theorems",)):
            _CLAIM_NODES[str(c.get("id"))] = c
    return _CLAIM_NODES.get(str(cid))


def reading_row(claim, reading, verdict, witness, evidence) -> Verdict:
    """The row ``<id>#reading`` of a printed formula with an integer symbol read as the channel's number of
    values (the claim's ``reading:`` text, or the substitution itself)."""
    text = str(claim.get("reading") or reading)
    return Verdict(id=f"{claim.get('id')}#reading", verdict=verdict, printed=text, reading=reading,
                   expect=claim.get("reading_expect"), source=claim.get("source"), evidence=evidence,
                   witness=witness)
