"""``kind: math`` claims (the plain shape): ``formula`` decided on the condition with z3.

``holds`` (a proof on the whole condition, with the sound rewriting rules used named in the evidence),
``refuted`` with an exact point, or ``unknown``. The rules: each sqrt(X) with X > 0 replaced by a free
positive number, the triangle inequality term by term, the mediant inequality for ratios of sums, and
Max comparisons split term by term; each only ever yields a proof, never a refutation.

With ``derivatives:`` (a function and its printed partial derivatives), the set where the formulas have no
real value is found and reported exactly (:mod:`implgraph.checks.definedness`); on the rest of the
condition each printed derivative is compared with sympy's, its sign decided, and the monotonicity proved
on every slice that is an interval. A claim undefined on part of its condition stays ``unknown``.
"""

from __future__ import annotations

import sympy

from implgraph.checks.common import edge_verdict
from implgraph.checks.math_derivatives import _derivative_claim
from implgraph.checks.math_rules import _RULES, _abstract_sqrt, _decide_relevant, _decide_split, _triangle
from implgraph.core.point_values import value_at
from implgraph.core.errors import InputError
from implgraph.core.formula import parse_condition, parse_expr
from implgraph.core.region import Region
from implgraph.io.table_data import make_symbols
from implgraph.core.verdict import Verdict, checker
from implgraph.io.datafile import Node

__all__ = ["check_math", "check_math_claim"]


def check_math(claim, context=None) -> Verdict:
    """Decide ``formula`` (with ``definitions`` substituted) on ``when`` (and each instantiation).

    Parameters
    ----------
    claim : Node
        A ``kind: math`` claim.
    context : dict, optional
        The run's shared context (unused here; kept for the checker signature).

    Returns
    -------
    Verdict
        ``holds``, ``refuted`` (with an exact point) or ``unknown``.
    """
    formula = claim.get("formula")
    if not formula:
        return edge_verdict(claim, "unknown", evidence="no formula to check")
    _RULES.clear()
    groups = claim.get("instantiations") or [None]
    results, points, undefined = [], [], []
    for inst in groups:
        names, kinds, subs, cond, when = _parse_group(claim, formula, inst)
        free = set()
        for c in [cond] + when:
            free |= sympy.sympify(c).free_symbols
        region = Region({s: kinds.get(s, "real") for s in free}, tuple(w for w in when if w is not sympy.true))
        r, point, undefined_point = _decide_group(region, cond)
        if undefined_point is not None:
            undefined.append(undefined_point)
        if point is not None:
            points.append(point)
        results.append(r)
    der_ok, der_notes, undefined_text = True, [], ""
    if claim.get("derivatives") and not claim.get("instantiations"):
        der_ok, der_notes, undefined_text = _derivative_claim(claim, names, subs, region)
        if der_ok is not True or undefined_text:
            results.append(None)
    return _math_verdict(claim, formula, len(groups), results, points, undefined, der_notes, undefined_text)


def _parse_group(claim, formula, inst):
    """Parse one instantiation of a math claim (``inst`` None: the claim itself).

    Parameters
    ----------
    claim : Node
        The claim (``symbols``, ``definitions``, ``formula``, ``when``).
    formula : str
        The claim's formula.
    inst : dict or None
        One entry of ``instantiations`` (its symbols, definitions and ``when`` added to the claim's).

    Returns
    -------
    tuple
        ``(names, kinds, subs, cond, when)``: the symbols by name, their kinds, the definitions as a
        substitution, the formula with the definitions substituted, and the parsed conditions.
    """
    spec = dict(claim.get("symbols") or {})
    if inst:
        spec.update(inst.get("symbols") or {})
    names, kinds = make_symbols(spec, claim)
    defs = dict(claim.get("definitions") or {})
    if inst:
        defs.update(inst.get("definitions") or {})
    try:
        subs = {}
        for k, text in defs.items():
            if k not in names:
                names[k] = sympy.Symbol(k, real=True)
            subs[names[k]] = parse_expr(str(text), names)
        cond = parse_condition(str(formula), names)
        for _ in range(4):
            cond, before = cond.subs(subs), cond
            if cond == before:
                break           # a fixed point: substituting again gives the same formula
        when = [parse_condition(str(w), names) for w in (claim.get("when") or [])]
        if inst:
            when += [parse_condition(str(w), names) for w in (inst.get("when") or [])]
    except InputError as exc:
        raise InputError(exc.reason, file=claim.file, line=claim.line_of("formula"), fix=exc.fix) from None
    return names, kinds, subs, cond, when


def _decide_group(region, cond):
    """Decide one parsed formula on its region.

    Parameters
    ----------
    region : Region
        The condition.
    cond : sympy.Basic
        The formula, definitions substituted.

    Returns
    -------
    tuple
        ``(result, point, undefined_point)``: True (proved), False (refuted at ``point``, an exact point
        of the region where the formula is false) or None/unknown; ``undefined_point`` an exact point
        found where the formula has no value (else None). Points are dicts of strings.
    """
    if any(isinstance(x, sympy.Pow) and x.exp in (sympy.S.Half, -sympy.S.Half)
           for x in sympy.preorder_traversal(cond)):
        abstracted = _abstract_sqrt(region, cond)
        if abstracted is not None:
            cond_a, extra_syms = abstracted
            reg_a = Region({**region.kinds, **{s_: "real" for s_ in extra_syms}},
                           region.constraints + tuple(s_ > 0 for s_ in extra_syms))
            if all(_decide_relevant(reg_a, part) is True for part in sympy.And.make_args(cond_a)):
                _RULES.add("each sqrt(X) with X > 0 on the region replaced by a free positive number")
                return True, None, None
    if _triangle(region, cond):
        _RULES.add("the triangle inequality term by term (convexity of |.|)")
        r = True
    else:
        r = _decide_split(region, cond)
    undefined_point = None
    if r is not True:
        pt = region.find_point(sympy.Not(cond))
        if pt is not None:
            try:
                val = value_at(cond, pt)   # the whole point at once, bottom-up
                if val is None:
                    val = sympy.sympify(cond).subs(pt)
            except (ValueError, TypeError, ZeroDivisionError):
                # a sub-term without a value (x/0, 0/0, sqrt of a negative number): undefined here
                undefined_point = {str(k): str(v) for k, v in pt.items()}
                val = None
            if val in (sympy.false, False) and region.contains(pt) is True:
                return False, {str(k): str(v) for k, v in pt.items()}, undefined_point
    return r, None, undefined_point


def _math_verdict(claim, formula, n_groups, results, points, undefined, der_notes, undefined_text):
    """The verdict of a math claim from the results of its instantiations.

    Parameters
    ----------
    claim : Node
        The claim.
    formula : str
        Its formula (quoted in the evidence).
    n_groups : int
        The number of instantiations decided.
    results : list
        One result (True, False, None) per instantiation, plus None for unconfirmed derivatives.
    points, undefined : list of dict
        Exact points where the formula fails, and where it has no value.
    der_notes : list of str
        The notes of the ``derivatives:`` check.
    undefined_text : str
        Where the definitions have no real value ("" if nowhere).

    Returns
    -------
    Verdict
    """
    if all(r is True for r in results):
        rules = f" (with {'; '.join(sorted(_RULES))})" if _RULES else ""
        rules += ("; " + "; ".join(der_notes)) if der_notes else ""
        return edge_verdict(claim, "holds", evidence=f"proved `{formula}` on the whole condition{rules}"
                   + (f" for each of {n_groups} instantiations" if n_groups > 1 else ""))
    if any(r is False for r in results) and points:
        return edge_verdict(claim, "refuted", evidence=f"`{formula}` fails at the exact point {points[0]}",
                   witness={"point": points[0]})
    why = undefined_text or (
        f"`{formula}` is undefined at the exact point {undefined[0]} of the condition (a division by "
        f"zero; the checker gives x/0 no value)" if undefined else
        f"z3 could not decide `{formula}` on the condition ({results})")
    return edge_verdict(claim, "unknown", evidence=why + (("; " + "; ".join(der_notes)) if der_notes else ""))


@checker("math")
def check_math_claim(claim, context=None):
    """:func:`check_math` with a longer solver timeout, and the proof's reading (``reading_when``) as an
    extra row."""
    from implgraph.core import region as _region
    saved = _region.TIMEOUT_MS
    _region.TIMEOUT_MS = max(saved, 1500)   # one-off decisions: give z3 more time than the level splitter
    try:
        v = check_math(claim, context)
        if claim.get("reading_when"):
            # the proof's reading: the same formula on the paper's condition plus the reading's restrictions
            node = Node({k: x for k, x in claim.items() if k not in ("reading_when", "when_sources")})
            node.file, node.line = getattr(claim, "file", None), getattr(claim, "line", None)
            node["when"] = list(claim.get("when") or []) + list(claim.get("reading_when") or [])
            rv = check_math(node, context)
            rv.id = f"{claim.get('id')}#reading"
            rv.printed = rv.reading = str(claim.get("reading", ""))
            rv.expect = claim.get("reading_expect")
            v.details["reading_verdict"] = rv.verdict
            v.details["reading_evidence"] = rv.evidence
            if context is not None:
                context.setdefault("extra_rows", []).append(rv)
        return v
    finally:
        _region.TIMEOUT_MS = saved
