"""``kind: math`` claims with ``converse:``: a statement and its converse, each decided by z3 on its
own region.
"""

from __future__ import annotations

import sympy

from implgraph.checks.common import (claim_symbols, claim_verdict, condition_in, decide, find_point,
                                     parse_definitions, rows_verdict, truth, witness_params)
from implgraph.core.region import Region
from implgraph.core.verdict import checker

__all__ = ["check_converse"]


def _drop_floor(cond, kinds):
    """For an integer ``a``: ``a <= floor(x)`` <=> ``a <= x`` and ``a > floor(x)`` <=> ``a > x`` (same
    for the mirrored forms), so comparisons of an integer with a floor become comparisons with its argument."""
    cond = sympy.sympify(cond)
    if isinstance(cond, (sympy.Le, sympy.Lt, sympy.Ge, sympy.Gt)):
        a, b = cond.lhs, cond.rhs
        integer = lambda e: all(kinds.get(s) == "integer" for s in e.free_symbols) and e.is_integer is not False
        if isinstance(b, sympy.floor) and integer(a) and isinstance(cond, (sympy.Le, sympy.Gt)):
            return cond.func(a, b.args[0])
        if isinstance(a, sympy.floor) and integer(b) and isinstance(cond, (sympy.Ge, sympy.Lt)):
            return cond.func(a.args[0], b)
    return cond


@checker("math", when=lambda c: "converse" in c)
def check_converse(claim, context=None):
    """``formula:`` on the ``when`` region and the ``converse:`` formula on its region, both decided by z3."""
    names, kinds = claim_symbols(claim)
    defs = parse_definitions(claim, names, kinds)
    dsub = {names[k]: v for k, v in defs.items()}
    out = {}
    for label, node in (("statement", claim), ("converse", claim.get("converse"))):
        if not node:
            continue
        conds = [_drop_floor(condition_in(claim, c, names).subs(dsub), kinds) for c in node.get("when") or []]
        region = Region({s: k for s, k in kinds.items() if s not in dsub}, tuple(conds))
        formula = condition_in(claim, node["formula"], names).subs(dsub)
        decided = decide(region, formula)
        point = find_point(region, sympy.Not(formula)) if decided is not True else None
        try:
            fails = bool(point) and truth(sympy.Not(formula).subs(point)) is True
        except TypeError:   # undefined at the point (a division by zero): no witness
            fails = False
        out[label] = {"when": [str(c) for c in conds], "formula": str(formula), "decided": decided,
                      "witness": witness_params(point) if fails else None}
    verdict = rows_verdict([{"decided": v["decided"], "witness": v["witness"]} for v in out.values()])
    return claim_verdict(claim, verdict, exact="; ".join(f"{k}: {v['formula']} on {v['when']}" for k, v in out.items()),
                    evidence=("With k substituted and, for integer l, l <= floor(x) <=> l <= x (and l > floor(x) <=> "
                              "l > x), z3 decides: " + "; ".join(f"{k}: {v['decided']}" for k, v in out.items())
                              + ".  Not shown in Section 6.1 (as the paper claims): b <= k."),
                    witness=next((v["witness"] for v in out.values() if v["witness"]), None), details=out)
