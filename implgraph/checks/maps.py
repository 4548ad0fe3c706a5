"""``kind: map`` claims: every arrow of a printed map checked.

Implies arrows: an implication exists (proved by the engine, or the arrow's claim established within
its condition); crossed arrows: the arrow's claim confirmed within its condition.
"""

from __future__ import annotations

import sympy

from implgraph import definitions
from implgraph.checks.common import edge_verdict, theorem_claim
from implgraph.checks.edges import check_edge_claim
from implgraph.checks.implies import implication_holds
from implgraph.core.errors import InputError
from implgraph.core.formula import parse_condition, parse_expr
from implgraph.core.region import Region
from implgraph.io.table_data import make_symbols
from implgraph.core.verdict import Verdict, checker
from implgraph.io.datafile import Node
from implgraph.io.datafile import EDGE_KINDS
from implgraph.io.theorems import edge_from_node

__all__ = ["check_map", "run_edge_claim"]


@checker("map")
def check_map(claim, context=None) -> Verdict:
    """Every arrow of a map claim checked (implies arrows: an implication exists; crossed arrows: the
    claim's witness confirmed), each within its claim's condition."""
    verdicts = (context or {}).get("verdicts", {})
    names, kinds = make_symbols(claim.get("symbols") or {}, claim)
    rows, bad, open_ = [], [], []
    for arrow in claim.get("arrows") or []:
        cid = str(arrow.get("claim", ""))
        kind = arrow.get("kind")
        rk = arrow.get("reading_kind")
        judged = rk or kind
        label = f"{arrow.get('label', cid)}: {judged}"
        v = verdicts.get(cid)
        if v is None and cid:
            v = run_edge_claim(cid, context)
        state = "unknown"
        if judged == "implies" or judged == "equivalent":
            # the arrow's claim established within its condition: holds without a proof of its own
            if v is not None and (v.verdict in ("proved", "verified-bounded")
                                  or v.details.get("reading_verdict") == "proved") \
                    and _arrow_within_claim(arrow, cid, names, kinds):
                rows.append({"arrow": label, "claim": cid, "state": "holds"})
                continue
            node = Node({"id": cid + "#arrow", "kind": "implies", "from": _with_level(arrow["from"]),
                         "to": _with_level(arrow["to"], "b"), "f": "1", "symbols": claim.get("symbols") or {},
                         "when": arrow.get("when") or []})
            node.file, node.line = claim.file, arrow.line if hasattr(arrow, "line") else claim.line
            try:
                e = edge_from_node(node)
                ok = implication_holds(e) is not None
            except InputError:
                ok = False
            if ok:
                state = "holds"
        elif judged == "not-implies":
            # the claim's verdict speaks for the arrow only where the arrow's condition lies in the claim's
            if v is not None and (v.verdict == "confirmed" or v.details.get("reading_verdict") == "proved") \
                    and _arrow_within_claim(arrow, cid, names, kinds):
                state = "holds"
            elif v is not None and v.verdict == "refuted" and not rk and v.details.get("reading_verdict") != "proved":
                state = "refuted"
        rows.append({"arrow": label, "claim": cid, "state": state})
        if state == "refuted":
            bad.append(label)
        elif state != "holds":
            open_.append(label)
    if bad:
        verdict = "refuted"
    elif open_:
        verdict = "unknown"
    else:
        verdict = "holds"
    ev = f"{len(rows)} arrows: {len(rows) - len(bad) - len(open_)} hold, {len(bad)} refuted, {len(open_)} open"
    if bad:
        ev += "; refuted: " + "; ".join(bad)
    if open_:
        ev += "; open: " + "; ".join(open_)
    return edge_verdict(claim, verdict, evidence=ev, details={"arrows": rows})


def _arrow_within_claim(arrow, cid, names, kinds) -> bool:
    """Is every parameter value of the arrow's ``when`` one of its claim's ``when``? (True only when proved;
    symbols are matched by name.)"""
    node = theorem_claim(cid)
    if node is None:
        return False
    names, kinds = dict(names), dict(kinds)
    try:
        cnames, ckinds = make_symbols(node.get("symbols") or {}, node)
        for n_, sym in cnames.items():
            if n_ not in names:
                names[n_] = sym
                kinds[sym] = ckinds.get(sym, "real")
        claim_when = [parse_condition(str(w), names) for w in node.get("when") or []]
        arrow_when = [parse_condition(str(w), names) for w in arrow.get("when") or []]
    except InputError:
        return False
    if not claim_when:
        return True
    # the arrow's parameters are meaningful only in their ranges (declared by the definitions), and a
    # minimum class size k needs two classes of >= k records (Definition 4: classes are proper subsets)
    N = names.get("N")
    if N is not None:
        for key in ("from", "to"):
            spec = arrow.get(key) or {}
            try:
                d = definitions.get(str(spec.get("definition")))
                ps = {k: parse_expr(str(x), names) for k, x in (spec.get("params") or {}).items() if k in d.params}
                if set(ps) == set(d.params):
                    arrow_when += d.param_ranges(N, **ps)
                lo = (spec.get("classes") or {}).get("min_size")
                if lo is not None:
                    lo = parse_expr(str(lo), names)
                    arrow_when += [1 <= lo, 2 * lo <= N]
            except InputError:
                continue
    free = set().union(*(sympy.sympify(c).free_symbols for c in claim_when + arrow_when))
    region = Region({s_: kinds.get(s_, "real") for s_ in free}, tuple(arrow_when))
    return region.decide(sympy.And(*claim_when)) is True


def run_edge_claim(cid, context):
    """Run the edge claim ``cid`` of theorems/ (for a map checked on its own); None for another kind."""
    c = theorem_claim(cid)
    if c is None or c.get("kind") not in EDGE_KINDS:
        return None
    ctx = context if context is not None else {}
    v = check_edge_claim(c, ctx)
    ctx.setdefault("verdicts", {})[cid] = v
    ctx.pop("extra_rows", None)
    return v


def _with_level(spec, which="a"):
    out = Node(dict(spec))
    out.file = getattr(spec, "file", None)
    out.line = getattr(spec, "line", None)
    out.setdefault("level", "alpha_" if which == "a" else "beta_")
    return out

