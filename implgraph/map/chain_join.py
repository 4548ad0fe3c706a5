"""Joining the rules of one chain (:func:`implgraph.map.compose.compose_chain`): each rule's symbols renamed
apart (:func:`_rename`), the rules joined end to end with the parameters at each junction equated
(:func:`_join`), the target values and N substituted and the equalities eliminated (:func:`_unify`,
:func:`_eliminate`), and the renamed symbols given back their names where no other symbol takes them
(:func:`_clean_names`).
"""

from __future__ import annotations

import sympy

from implgraph import definitions
from implgraph.core.errors import InputError
from implgraph.map.rules import N_SYM, Endpoint, Rule

__all__: list = []


def _rename(rule: Rule, i: int) -> dict:
    """Fresh copies of a rule's symbols for position ``i`` of a chain (N stays shared)."""
    out = {}
    for s in list(rule.kinds) + [rule.a.level, rule.b.level]:
        if s is None or s == N_SYM or s in out:
            continue
        out[s] = sympy.Symbol(f"{s.name}__{i}", **s.assumptions0)
    return out


def _params(ep: Endpoint, as_target: bool) -> dict:
    p = dict(ep.params)
    if ep.generic and as_target:
        p["k"] = sympy.Integer(1)      # "some partition": minimum class size >= 1
    return p


def _level_domain(ep: Endpoint, sym):
    try:
        d = definitions.get(ep.definition)
    except InputError:
        return []
    return d.level_scale.domain(sym)


def _join(rules, source):
    """The rules renamed apart and joined end to end.

    Parameters
    ----------
    rules : list of Rule
        The chain.
    source : dict or None
        Integer values for A's parameters.

    Returns
    -------
    tuple or None
        ``(kinds, conds, f, level, ends)``: the symbols' kinds, the conditions (A's level domain, the source
        values, each junction's equalities and each rule's ``when``), the composed f, A's level symbol and
        each rule's ``(a params, b params)``; None when a source parameter or a junction does not fit.
    """
    kinds: dict = {N_SYM: "integer"}
    conds: list = []
    f = None
    level = None
    ends = []                      # [(a params, b params)] per rule, renamed
    for i, r in enumerate(rules):
        ren = _rename(r, i)
        for s, k in r.kinds.items():
            kinds[ren.get(s, s)] = k
        for ep in (r.a, r.b):
            if ep.level is not None:
                kinds[ren.get(ep.level, ep.level)] = "real"
        a_p = {k: sympy.sympify(v).xreplace(ren) for k, v in _params(r.a, False).items()}
        b_p = {k: sympy.sympify(v).xreplace(ren) for k, v in _params(r.b, True).items()}
        when = [sympy.sympify(c).xreplace(ren) for c in r.when]
        a_level = ren.get(r.a.level, r.a.level)
        rf = sympy.sympify(r.f).xreplace(ren)
        if i == 0:
            level = a_level
            f_now = rf
            conds += _level_domain(r.a, a_level)
            for key, value in (source or {}).items():
                if key not in a_p:
                    if r.a.generic and key == "k":
                        continue          # any partition covers every minimum class size
                    return None
                conds.append(sympy.Eq(a_p[key], value))
        else:
            prev = ends[-1][1]
            if r.a.family != rules[i - 1].b.family:
                return None
            # the junction: the previous target must be (at least) the next source
            if not r.a.generic:
                if not set(a_p) <= set(prev):
                    return None
                conds += [sympy.Eq(prev[key], expr) for key, expr in a_p.items()]
            f_now = rf.xreplace({a_level: f})
        conds += when
        ends.append((a_p, b_p))
        f = f_now
    return kinds, conds, f, level, ends


def _unify(rules, conds, f, ends, kinds, target, N):
    """The target values and ``N`` substituted, the equalities eliminated.

    Parameters
    ----------
    rules : list of Rule
        The chain.
    conds, f, ends, kinds
        As returned by :func:`_join`.
    target : dict or None
        Integer values for C's parameters.
    N : int or None
        The number of records.

    Returns
    -------
    tuple or None
        ``(conds, f, ends)``; None when a target parameter is unknown, a condition is false, or a rule within
        one family has two equal ends (a detour).
    """
    for key, value in (target or {}).items():
        if key not in ends[-1][1]:
            return None
        conds.append(sympy.Eq(ends[-1][1][key], value))
    if N is not None:
        conds = [sympy.sympify(c).subs(N_SYM, N) for c in conds]
        f = f.subs(N_SYM, N)
    flat = [f] + [e for a_p, b_p in ends for e in list(a_p.values()) + list(b_p.values())]
    conds, flat = _eliminate(conds, flat, kinds, N)
    f = flat[0]
    it = iter(flat[1:])
    ends = [({k: next(it) for k in a_p}, {k: next(it) for k in b_p}) for a_p, b_p in ends]
    if any(c is sympy.false for c in conds):
        return None
    # a rule within one family whose two ends coincide is a detour
    for r, (a_p, b_p) in zip(rules, ends):
        if r.a.family == r.b.family and a_p == b_p:
            return None
    return conds, f, ends


def _canonical(c):
    c = sympy.sympify(c)
    return c.canonical if isinstance(c, sympy.Rel) else c


def _eliminate(conds, exprs, kinds, N=None):
    """Use equations ``sym == expr`` to eliminate integer symbols (parameter unification)."""
    conds = [sympy.sympify(c) for c in conds]
    exprs = [sympy.sympify(e) for e in exprs]
    if N is not None:
        exprs = [e.subs(N_SYM, N) for e in exprs]
    changed = True
    while changed:
        changed = False
        for idx, c in enumerate(conds):
            if not isinstance(c, sympy.Equality):
                continue
            target = None
            for a, b in ((c.lhs, c.rhs), (c.rhs, c.lhs)):
                if a.is_Symbol and a != N_SYM and a not in b.free_symbols:
                    target = (a, b)
                    break
            if target is None:
                for s in sorted(c.free_symbols, key=str):
                    if s == N_SYM or kinds.get(s) != "integer":
                        continue
                    sol = sympy.solve(c, s)
                    if len(sol) == 1:
                        target = (s, sol[0])
                        break
            if target is None:
                continue
            s, value = target
            conds = [sympy.sympify(x.subs(s, value)) for j, x in enumerate(conds) if j != idx]
            exprs = [e.subs(s, value) for e in exprs]
            changed = True
            break
    return conds, exprs


def _clean_names(comp):
    """``k1__1`` -> ``k1`` where the base name is not taken by another remaining symbol."""
    syms = set(comp.f.free_symbols) | {comp.level}
    for c in comp.conditions:
        syms |= sympy.sympify(c).free_symbols
    by_base: dict = {}
    for s in syms:
        by_base.setdefault(s.name.split("__")[0], []).append(s)
    ren = {}
    for base, ss in by_base.items():
        if len(ss) == 1 and ss[0].name != base:
            ren[ss[0]] = sympy.Symbol(base, **ss[0].assumptions0)
    if not ren:
        return
    comp.f = comp.f.xreplace(ren)
    comp.level = ren.get(comp.level, comp.level)
    comp.conditions = tuple(sympy.sympify(c).xreplace(ren) for c in comp.conditions)
    comp.source = {k: sympy.sympify(v).xreplace(ren) for k, v in comp.source.items()}
    comp.target = {k: sympy.sympify(v).xreplace(ren) for k, v in comp.target.items()}
    comp.kinds = {ren.get(s, s): k for s, k in comp.kinds.items()}
