"""Checkers for the claims of ``theorems/*.yaml``: implies, not-implies, equivalent, reciprocal,
generalisation, math and map.

Each checker returns a :class:`~implgraph.core.verdict.Verdict` with its evidence:

- ``implies``: :func:`implgraph.engines.prove.check_implication` (proof for all parameters with the tight f,
  or an exact witness, or a bounded check). A claim about a quantity the engine does not model
  (``of:`` on a side, or ``assumptions:``) is ``unknown``; the literal reading's result is in ``details``.
- ``not-implies``: the witness table's family (A bounded while B grows without bound), judged by the
  tables checker of the ``unbounded`` claim when there is one, otherwise here (exact levels and
  sympy limits). If the engine *proves* the implication for every parameter value, the printed
  non-implication is ``refuted`` (the proof is the evidence).
- ``equivalent`` / ``reciprocal``: both directions proved.
- ``generalisation``: A => B proved and B =/=> A confirmed by the witness.
- ``math``: the formula decided on the condition with z3 (``holds`` / ``refuted`` with an exact
  point / ``unknown``).
- ``map``: every arrow checked (implies arrows: an implication exists; crossed arrows: the claim's
  witness confirmed).
"""

from __future__ import annotations

import sympy

from implgraph import definitions
from implgraph.io.datafile import Node
from implgraph.core.errors import InputError
from implgraph.core.formula import parse_condition, parse_expr
from implgraph.engines.prove import T, check_implication, tight_bound
from implgraph.core.region import Region
from implgraph.io.theorems import EDGE_KINDS, Edge, edge_from_node, witness_ids
from implgraph.core.verdict import Verdict, checker, find_checker

__all__ = ["check_edge", "judge_witness_claim", "check_math", "check_map"]

_WITNESS_CACHE: dict = {}


def _max_n(context):
    return int((context or {}).get("max_n", 8))


def _vd(edge_or_node, verdict, **kw):
    node = edge_or_node.node if isinstance(edge_or_node, Edge) else edge_or_node
    cid = edge_or_node.id if isinstance(edge_or_node, Edge) else str(node.get("id"))
    return Verdict(id=cid, verdict=verdict, printed=str(node.get("printed", "")),
                   reading=node.get("reading"), source=node.get("source"), **kw)


# -- implications ------------------------------------------------------------------------------

def _implication(edge: Edge, f, context, a=None, b=None, reverse=False):
    a = a or edge.a
    b = b or edge.b
    return check_implication(a.definition, b.definition, f, a_params=a.params, b_params=b.params,
                             when=edge.when, kinds=edge.kinds, alpha=a.level, a_classes=a.classes,
                             b_classes=b.classes, max_n=_max_n(context))


def _from_proof(edge, r, kind_label="", expect=None):
    return _vd(edge, r.verdict, evidence=kind_label + r.evidence, bound=r.bound, witness=r.witness,
               tight=r.tight_str, exact=r.tight_str, expect=expect,
               details={"tightness": r.tightness, "method": r.method, **(r.details or {})})


def check_implies(edge: Edge, context=None, f=None, a=None) -> Verdict:
    if (a or edge.a).scope == "class" or edge.b.scope == "class":
        return _vd(edge, "unknown", evidence="levels taken within each class (scope: class) are not encoded "
                                             "by the prover or the refuter")
    unmodelled = [s.of for s in (a or edge.a, edge.b) if s.of] + list(edge.node.get("assumptions") or [])
    if unmodelled:   # only the literal reading is checked, and only on small tables
        context = dict(context or {}, max_n=min(_max_n(context), 4))
    r = _implication(edge, edge.f if f is None else f, context, a=a)
    if unmodelled:
        v = _from_proof(edge, r)
        return _vd(edge, "unknown",
                   evidence=("the claim is about a quantity or assumptions the engine does not model ("
                             + "; ".join(map(str, unmodelled))[:300] + "); under the engine's literal definitions "
                             f"the verdict would be {r.verdict}: {r.evidence}"),
                   witness=r.witness, bound=r.bound, tight=r.tight_str,
                   details={"literal_verdict": r.verdict, "literal_tightness": r.tightness})
    return _from_proof(edge, r)


# -- non-implications --------------------------------------------------------------------------

def _find_table_claim(claim_id):
    from implgraph.io.theorems import load_claims
    if not _WITNESS_CACHE:
        for c in load_claims(kinds=("counterexamples",)):
            _WITNESS_CACHE[str(c.get("id"))] = c
    return _WITNESS_CACHE.get(str(claim_id))


def judge_witness_claim(claim_id, context=None):
    """Verdict of a table claim of kind ``unbounded`` (the tables checker, or the fallback here)."""
    node = _find_table_claim(claim_id)
    if node is None:
        return None
    func = find_checker(node)
    if func is not None and func is not _unbounded_fallback:
        try:
            return func(node, context)
        except InputError:
            raise
        except Exception as exc:  # fall back to our own limit computation
            v = _unbounded_fallback(node, context)
            v.details["tables_checker_error"] = f"{type(exc).__name__}: {exc}"
            return v
    return _unbounded_fallback(node, context)


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
    from implgraph.io.counterexamples import table_of_claim
    node = _find_table_claim(claim_id)
    table = table_of_claim(str(claim_id)) if node is not None else None
    if table is None:
        return None
    for key, side in (("from", edge.a), ("to", edge.b)):
        spec = node.get(key) or {}
        got = (str(spec.get("definition")), str(spec.get("scope") or "table"))
        if got != (side.name, side.scope or "table"):
            return {"fits": False, "covers": False,
                    "instance": f"its {key} side is {got[0]} (scope {got[1]}), the claim's is {side.name} "
                                f"(scope {side.scope or 'table'})"}
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
    conds = [c for c in conds if c is not sympy.true]
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
    covers = False
    if fits and not couples:
        base = Region({s: k for s, k in kinds.items() if s.name in claim_syms}, tuple(edge.when))
        covers = base.decide(sympy.And(*claim_only)) is True if claim_only else True
    return {"fits": fits, "covers": covers, "instance": instance}


def _unbounded_fallback(node, context=None):
    """A's level bounded while B's level -> oo along ``free`` -> ``limit`` (exact levels, sympy limits)."""
    from implgraph.core.levels import optimal_level
    from implgraph.core.table import load_table_file
    table = load_table_file(node["_table_file"], node["_table"])
    names = dict(table.symbols)
    fix = {names[k]: parse_expr(str(v), names) for k, v in (node.get("fix") or {}).items() if k in names}
    t2 = table.subs(fix)
    free = names[str(node["free"])]
    limit = parse_expr(str(node.get("limit", "0")), names)
    fam = [parse_expr(str(x), names) for x in node.get("family") or []]

    def side(key):
        spec = node[key]
        params = {k: parse_expr(str(v), names).subs(fix) for k, v in (spec.get("params") or {}).items()}
        return spec["definition"], params

    out = {}
    for key in ("from", "to"):
        name, params = side(key)
        scope = str(node[key].get("scope") or "table")
        parts = [t2] if scope != "class" or not t2.has_classes else [t2.restrict(c) for c in t2.classes]
        vals = []
        for x in fam:
            levels = [optimal_level(part.subs({free: x}), name, **params).value for part in parts]
            vals.append(sympy.Max(*levels) if all(v is not None for v in levels) else None)
        # the limit from the family's side
        lims = []
        for part in parts:
            lim = None
            try:
                lv = optimal_level(part, name, **params)
                if lv.defined and fam:
                    pick = None
                    for p in lv.pieces:
                        if sympy.sympify(p.condition).subs({free: fam[-1]}) in (sympy.true, True):
                            pick = p
                            break
                    if pick is not None:
                        val = lv.definition.level_from_raw(pick.value)
                        d = "+" if fam[-1] > limit else "-"
                        lim = sympy.limit(val, free, limit, dir=d) if val is not sympy.oo else sympy.oo
            except Exception:
                lim = None
            lims.append(lim)
        lim = None if any(x is None for x in lims) else sympy.Max(*lims)
        out[key] = (vals, lim)
    a_vals, a_lim = out["from"]
    b_vals, b_lim = out["to"]
    a_bounded = a_lim is not None and a_lim.is_finite
    b_unbounded = b_lim is sympy.oo or (b_vals and all(v is sympy.oo for v in b_vals))
    fam_s = ", ".join(f"{free} = {x}: A {a} / B {b}" for x, a, b in zip(fam, a_vals, b_vals))
    if a_bounded and b_unbounded:
        verdict, ev = "confirmed", (f"A's level tends to {a_lim} while B's level tends to oo as {free} -> {limit} "
                                    f"(fix {node.get('fix')}); family: {fam_s}")
    elif a_lim is None or b_lim is None:
        verdict, ev = "unknown", f"could not take the limits; family: {fam_s}"
    else:
        verdict, ev = "refuted", f"A's limit {a_lim}, B's limit {b_lim}: not an unbounded family; family: {fam_s}"
    return Verdict(id=str(node.get("id")), verdict=verdict, printed=str(node.get("printed", "")), evidence=ev,
                   exact=f"A -> {a_lim}, B -> {b_lim}", details={"checker": "theorem_checks fallback"})


def _implication_holds(edge: Edge, a=None, b=None):
    """A Bound when the engine proves A => B for every parameter value (some f), else None."""
    a = a or edge.a
    b = b or edge.b
    if a.scope == "class" or b.scope == "class":
        return None   # levels taken within each class: none of the all-N arguments covers them
    N = next((s for s in edge.kinds if s.name == "N"), sympy.Symbol("N", integer=True))
    kinds = {s: k for s, k in edge.kinds.items() if s not in (edge.a.level, edge.b.level)}
    kinds[T] = "real"
    kinds.setdefault(N, "integer")
    # conditions on the levels are dropped (a larger region: a proof on it is still a proof)
    conds = tuple(c for c in edge.when if not (sympy.sympify(c).free_symbols & {edge.a.level, edge.b.level}))
    region = Region(kinds, conds + (T >= 1, N >= 2))
    try:
        return tight_bound(a.definition, b.definition, a.params, b.params, region, N, a.classes, b.classes)
    except Exception:
        return None


def symbolic_nonimplication(edge: Edge):
    """A parametric witness for every parameter value of the condition: z records with Pr(a1) = 0 and
    N - z with Pr(a1) = 1/2 (z = 1, j_A - 1 or j_B), levels computed symbolically by the core. Returns
    (text, z) when A's level is finite and B's infinite on the whole condition, else None."""
    from implgraph.core.levels import optimal_level
    from implgraph.engines.prove import subset_size_expr
    from implgraph.core.table import Block, Table
    a, b = edge.a.definition, edge.b.definition
    if a.needs_classes or b.needs_classes or edge.a.scope == "class" or edge.b.scope == "class":
        return None
    if a.z3_shape not in ("subset-ratio", "pairwise") or b.z3_shape not in ("subset-ratio", "pairwise"):
        return None
    N = next((s_ for s_ in edge.kinds if s_.name == "N"), None)
    if N is None:
        return None
    kinds = {s_: k for s_, k in edge.kinds.items() if s_ not in (edge.a.level, edge.b.level)}
    conds = tuple(c for c in edge.when if not (sympy.sympify(c).free_symbols & {edge.a.level, edge.b.level}))
    ranges = []
    for d, ps in ((a, edge.a.params), (b, edge.b.params)):
        if "k" in d.params and "k" in ps:
            ranges += [sympy.Ge(ps["k"], 1), sympy.Le(ps["k"], N - 1)]
    region = Region(kinds, conds + tuple(ranges) + (N >= 2,))
    ja, jb = subset_size_expr(a, N, edge.a.params), subset_size_expr(b, N, edge.b.params)
    cands = [sympy.Integer(1)] + [j for j in (None if ja is None else ja - 1, jb) if j is not None]
    half = sympy.Rational(1, 2)
    for z in cands:
        if region.decide(sympy.And(sympy.Ge(z, 1), sympy.Le(z, N - 1))) is not True:
            continue
        table = Table(blocks=[Block(probs=(sympy.Integer(0), sympy.Integer(1)), count=z),
                              Block(probs=(half, half), count=N - z)], region=region)
        try:
            la = optimal_level(table, a, **edge.a.params)
            lb = optimal_level(table, b, **edge.b.params)
        except Exception:
            continue
        if not la.defined or not lb.defined:
            continue
        a_finite = all(p_.value is not None and p_.value is not sympy.oo for p_ in la.pieces)
        b_inf = all(p_.value is sympy.oo for p_ in lb.pieces)
        if a_finite and b_inf:
            text = (f"for every parameter value of the condition: {z} record(s) with Pr(a1) = 0 and N - ({z}) "
                    f"with Pr(a1) = 1/2 give {a.name} level {la} (finite) and {b.name} level oo (exact "
                    f"symbolic levels)")
            return text, z
    return None


def check_not_implies(edge: Edge, context=None, witness=None, witness_claim=None) -> Verdict:
    bound = _implication_holds(edge)
    if bound is not None:
        tight = bound.upper.subs(T, edge.a.definition.raw_from_level(edge.a.level))
        tight = sympy.simplify(edge.b.definition.level_from_raw(tight))
        return _vd(edge, "refuted", evidence=(f"the engine proves the implication for every parameter value "
                                             f"({bound.method}): {bound.argument}; with f = {tight}"),
                   tight=str(tight) if bound.tight else None, details={"checks": bound.checks})
    wc = witness_claim or edge.node.get("witness_claim")
    sym = None
    try:
        sym = symbolic_nonimplication(edge)
    except Exception:
        sym = None
    gen = None if sym else _generalise(edge, context)
    if sym:
        gen = {"text": sym[0], "all_refuted": True, "bound": None, "first": None, "symbolic": True}
    fit = witness_fit(edge, wc) if wc else None
    if wc and fit is not None and fit["fits"] is not True and not sym:
        # the witness is not an instance of the claim's condition: it confirms nothing about it
        why = ("is not an instance of the claim's condition" if fit["fits"] is False
               else "could not be shown to be an instance of the claim's condition")
        ev = f"the witness claim {wc} {why} (its instance: {fit['instance']})"
        if gen and gen["all_refuted"]:
            return _vd(edge, "confirmed", evidence=gen["text"] + "; " + ev, witness=gen.get("first"),
                       bound=gen["bound"], details={"generalised": gen, "witness_fit": fit})
        if gen:
            ev += "; " + gen["text"]
        return _vd(edge, "unknown", evidence=ev, bound=gen and gen["bound"], witness=gen and gen.get("first"),
                   details={"witness_fit": fit, "generalised": gen})
    if wc:
        wv = judge_witness_claim(wc, context)
        if wv is not None:
            ev = f"witness {witness or edge.witness} ({wc}): {wv.evidence}"
            if gen:
                ev += "; " + gen["text"]
            if edge.node.get("witness_map") is not None:
                ev += f" [table symbols -> claim symbols: {dict(edge.node.get('witness_map'))}]"
            ok = wv.verdict in ("confirmed", "holds") or bool(sym)
            bound, verdict = None, ("confirmed" if ok else wv.verdict)
            if sym and fit is not None and fit["fits"] is not True:
                ev = (f"{gen['text']}; the witness {witness or edge.witness} ({wc}) is not an instance of the "
                      f"claim's condition (its instance: {fit['instance']})")
            elif ok and not sym and fit is not None and not fit["covers"]:
                # the claim is for every parameter value of its condition; the witness speaks for its own
                # instance: bounded evidence, and none at all where the refuter finds no witness
                bound = f"at the witness's instance only: {fit['instance']}"
                ev += f" (the witness covers its instance only: {fit['instance']})"
                verdict = "verified-bounded"
                if gen is not None and not gen["all_refuted"]:
                    verdict = "unknown"
            return _vd(edge, verdict, evidence=ev, bound=bound,
                       witness={"table": str(witness or edge.witness), "claim": str(wc)}, exact=wv.exact,
                       details={"witness_verdict": wv.verdict, "generalised": gen, "witness_fit": fit})
    if gen and gen["all_refuted"]:
        return _vd(edge, "confirmed", evidence=gen["text"], witness=gen.get("first"), bound=gen["bound"],
                   details={"generalised": gen})
    return _vd(edge, "unknown", evidence="no witness claim to check and no proof of the implication")


def _generalise(edge: Edge, context=None):
    """For every parameter point with N <= 6 (at most 12), a table where A's level is finite and B's
    infinite (the refuter, f = None): the non-implication at each of those parameter values."""
    import itertools
    from implgraph.engines.refute import find_witness, witness_json
    if edge.a.scope == "class" or edge.b.scope == "class":
        return None
    a, b = edge.a.definition, edge.b.definition
    ints = [s for s, k in edge.kinds.items() if k == "integer"]
    if not any(s.name == "N" for s in ints):
        ints.append(sympy.Symbol("N", integer=True))
    ints.sort(key=lambda s: (s.name != "N", s.name))
    reals = [s for s, k in edge.kinds.items() if k == "real" and s not in (edge.a.level, edge.b.level)]
    if reals:
        return None
    hi = min(_max_n(context), 6)
    points = []
    for combo in itertools.product(range(0, hi + 1), repeat=len(ints)):
        pt = dict(zip(ints, map(sympy.Integer, combo)))
        if pt[ints[0]] < 2:
            continue
        if edge.region.contains(pt) is not True:
            continue
        ok = True
        for d, ps in ((a, edge.a.params), (b, edge.b.params)):
            for v in ps.values():
                v = sympy.sympify(v).subs(pt)
                if not (1 <= int(v) <= int(pt[ints[0]]) - 1):
                    ok = False
        if ok:
            points.append(pt)
        if len(points) >= 12:
            break
    if not points:
        return None
    found, missing, first = 0, [], None
    for pt in points:
        Nv = int(pt[ints[0]])
        aps = {k: int(sympy.sympify(v).subs(pt)) for k, v in edge.a.params.items()}
        bps = {k: int(sympy.sympify(v).subs(pt)) for k, v in edge.b.params.items()}
        opts = [None]
        if a.needs_classes or b.needs_classes:
            spec = edge.a.classes or edge.b.classes or {}
            lo = int(sympy.sympify(spec.get("min_size", 1)).subs(pt))
            opts = [[lo, Nv - lo]] if 2 * lo <= Nv else []
        hit = False
        for classes in opts:
            r = find_witness(a, b, None, N=Nv, a_params=aps, b_params=bps, classes=classes, timeout_ms=1000)
            if r.status == "refuted":
                hit = True
                if first is None:
                    first = witness_json(r.witness, {str(k): v for k, v in pt.items()})
                break
        if hit:
            found += 1
        else:
            missing.append(", ".join(f"{k} = {v}" for k, v in pt.items()))
    bound = f"N <= {hi}"
    text = (f"the refuter found, for {found} of {len(points)} parameter points with {bound}, a binary table "
            f"where A's level is finite and B's infinite")
    if missing:
        text += f" (none found at: {'; '.join(missing[:3])})"
    return {"text": text, "found": found, "points": len(points), "all_refuted": found == len(points),
            "bound": bound, "first": first}


# -- equivalences, generalisations -------------------------------------------------------------

def check_equivalent(edge: Edge, context=None) -> Verdict:
    fwd = _implication(edge, edge.f, context)
    rev = check_implication(edge.b.definition, edge.a.definition, edge.g, a_params=edge.b.params,
                            b_params=edge.a.params, when=edge.when, kinds=edge.kinds, alpha=edge.b.level,
                            a_classes=edge.b.classes, b_classes=edge.a.classes, max_n=_max_n(context))
    order = ["refuted", "unknown", "verified-bounded", "proved"]
    verdict = min(fwd.verdict, rev.verdict, key=lambda v: order.index(v) if v in order else 1)
    ev = f"A => B with f = {edge.f}: {fwd.verdict} ({fwd.evidence}); B => A with g = {edge.g}: {rev.verdict} ({rev.evidence})"
    wit = fwd.witness if fwd.verdict == "refuted" else rev.witness
    return _vd(edge, verdict, evidence=ev, witness=wit, tight=fwd.tight_str, bound=fwd.bound or rev.bound,
               details={"forward": fwd.verdict, "reverse": rev.verdict, "tightness": [fwd.tightness, rev.tightness]})


def check_generalisation(edge: Edge, context=None) -> Verdict:
    f = edge.f
    fwd = _implication(edge, f, context)
    wc = edge.node.get("reading_witness_claim") if edge.extra.get("reading") else edge.node.get("witness_claim")
    wv = judge_witness_claim(wc, context) if wc else None
    rev_ok = wv is not None and wv.verdict in ("confirmed", "holds")
    ev = f"A => B with f = {f}: {fwd.verdict} ({fwd.evidence}); B =/=> A: " + (
        f"{wv.verdict} by {wc} ({wv.evidence})" if wv else "no witness")
    if fwd.verdict in ("proved", "verified-bounded") and rev_ok:
        verdict = fwd.verdict
    elif fwd.verdict == "refuted" or (wv is not None and wv.verdict == "refuted"):
        verdict = "refuted"
    else:
        verdict = "unknown"
    return _vd(edge, verdict, evidence=ev, tight=fwd.tight_str, bound=fwd.bound, witness=fwd.witness,
               details={"forward": fwd.verdict, "reverse_witness": None if wv is None else wv.verdict,
                        "tightness": fwd.tightness})


def check_edge(edge: Edge, context=None) -> Verdict:
    """Verdict on an edge of the kind it is printed with."""
    kind = edge.kind
    if kind == "implies":
        return check_implies(edge, context)
    if kind == "not-implies":
        return check_not_implies(edge, context)
    if kind in ("equivalent", "reciprocal"):
        return check_equivalent(edge, context)
    if kind == "generalisation":
        return check_generalisation(edge, context)
    return _vd(edge, "unknown", evidence=f"no checker for edge kind {kind!r}")


def check_reading(edge: Edge, context=None) -> Verdict | None:
    """The verdict on the proof's reading of an edge (None if there is none)."""
    r = edge.as_reading()
    if r is None:
        return None
    if r.kind == "not-implies":
        v = check_not_implies(r, context, witness=r.witness, witness_claim=edge.node.get("reading_witness_claim"))
    else:
        v = check_edge(r, context)
    v.id = edge.id + "#reading"
    v.printed = str(edge.node.get("reading", ""))
    v.reading = str(edge.node.get("reading", ""))
    v.expect = edge.node.get("reading_expect")
    return v


_KNOWN = None


def _edge(claim):
    global _KNOWN
    if isinstance(claim, Edge):
        return claim
    if _KNOWN is None:
        _KNOWN = witness_ids()
    return edge_from_node(claim, _KNOWN)


@checker(*EDGE_KINDS)
def _edge_checker(claim, context=None):
    edge = _edge(claim)
    v = check_edge(edge, context)
    if edge.reading_kind:
        import time as _time
        t0 = _time.perf_counter()
        rv = check_reading(edge, context)
        if rv is not None:
            rv.seconds = round(_time.perf_counter() - t0, 3)
        if rv is not None:
            v.details["reading_verdict"] = rv.verdict
            v.details["reading_evidence"] = rv.evidence
            if context is not None:
                context.setdefault("extra_rows", []).append(rv)
    if context is not None:
        context.setdefault("verdicts", {})[edge.id] = v
    return v


# -- math ------------------------------------------------------------------------------------

def check_math(claim, context=None) -> Verdict:
    """Decide ``formula`` (with ``definitions`` substituted) on ``when`` (and each instantiation)."""
    formula = claim.get("formula")
    if not formula:
        return _vd(claim, "unknown", evidence="no formula to check")
    _RULES.clear()
    groups = claim.get("instantiations") or [None]
    results, points, undefined = [], [], []
    for inst in groups:
        spec = dict(claim.get("symbols") or {})
        if inst:
            spec.update(inst.get("symbols") or {})
        from implgraph.core.table import make_symbols
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
                cond = cond.subs(subs)
            when = [parse_condition(str(w), names) for w in (claim.get("when") or [])]
            if inst:
                when += [parse_condition(str(w), names) for w in (inst.get("when") or [])]
        except InputError as exc:
            raise InputError(exc.reason, file=claim.file, line=claim.line_of("formula"), fix=exc.fix) from None
        free = set()
        for c in [cond] + when:
            free |= sympy.sympify(c).free_symbols
        region = Region({s: kinds.get(s, "real") for s in free}, tuple(w for w in when if w is not sympy.true))
        if any(isinstance(x, sympy.Pow) and x.exp in (sympy.S.Half, -sympy.S.Half)
               for x in sympy.preorder_traversal(cond)):
            abstracted = _abstract_sqrt(region, cond)
            if abstracted is not None:
                cond_a, extra_syms = abstracted
                reg_a = Region({**region.kinds, **{s_: "real" for s_ in extra_syms}},
                               region.constraints + tuple(s_ > 0 for s_ in extra_syms))
                if all(_decide_relevant(reg_a, part) is True for part in sympy.And.make_args(cond_a)):
                    _RULES.add("each sqrt(X) with X > 0 on the region replaced by a free positive number")
                    results.append(True)
                    continue
        if _triangle(region, cond):
            _RULES.add("the triangle inequality term by term (convexity of |.|)")
            r = True
        else:
            r = _decide_split(region, cond)
        if r is not True:
            pt = region.find_point(sympy.Not(cond))
            if pt is not None:
                try:
                    val = sympy.sympify(cond).subs(pt)
                except (ValueError, TypeError, ZeroDivisionError):
                    # e.g. a division by zero inside Max: the formula is undefined at this point
                    undefined.append({str(k): str(v) for k, v in pt.items()})
                    val = None
                if val in (sympy.false, False) and region.contains(pt) is True:
                    points.append({str(k): str(v) for k, v in pt.items()})
                    results.append(False)
                    continue
        results.append(r)
    der_ok, der_notes = True, []
    if claim.get("derivatives") and not claim.get("instantiations"):
        der_ok, der_notes = _check_derivatives(claim, names, subs, region)
        if der_ok is not True:
            results.append(None)
    if all(r is True for r in results):
        rules = f" (with {'; '.join(sorted(_RULES))})" if _RULES else ""
        rules += ("; " + "; ".join(der_notes)) if der_notes else ""
        return _vd(claim, "holds", evidence=f"proved `{formula}` on the whole condition{rules}"
                   + (f" for each of {len(groups)} instantiations" if len(groups) > 1 else ""))
    if any(r is False for r in results) and points:
        return _vd(claim, "refuted", evidence=f"`{formula}` fails at the exact point {points[0]}",
                   witness={"point": points[0]})
    why = (f"`{formula}` is undefined at the exact point {undefined[0]} of the condition (a division by "
           f"zero; the checker gives x/0 no value)" if undefined else
           f"z3 could not decide `{formula}` on the condition ({results})")
    return _vd(claim, "unknown", evidence=why + (("; " + "; ".join(der_notes)) if der_notes else ""))


_RULES: set = set()


def _max_args(e):
    return list(e.args) if isinstance(e, sympy.Max) else [e]


def _mediant(region, x, ys):
    """x = (n_1 + ... + n_m)/(d_1 + ... + d_m) with every d_i > 0 and every n_i/d_i among ys: then x is at
    most the largest n_i/d_i (the mediant inequality), so x <= Max(ys)."""
    import itertools
    num, den = sympy.fraction(sympy.together(x))
    if not (num.is_Add and den.is_Add) or len(num.args) != len(den.args) or len(num.args) > 4:
        return False
    keys = set(ys)
    for perm in itertools.permutations(den.args):
        if all((n / d) in keys for n, d in zip(num.args, perm)):
            return all(region.decide(sympy.Gt(d, 0)) is True for d in perm)
    return False


def _prove_le(region, x, y):
    """x <= y on the region; for y = Max(ys) it suffices that x <= Max(ys over x's symbols) (sound)."""
    ys = _max_args(y)
    if x in set(ys) or any(sympy.cancel(x - yy) == 0 for yy in ys):
        return True
    if _mediant(region, x, ys):
        _RULES.add("ratios of sums bounded by the mediant inequality")
        return True
    # equalities of the region (e.g. a1 + a2 + a3 == 1) simplify x
    for c in region.constraints:
        if isinstance(c, sympy.Eq):
            syms = sorted(c.free_symbols & x.free_symbols, key=str)
            if syms:
                sol = sympy.solve(c, syms[-1], dict=True)
                if len(sol) == 1:
                    x2 = sympy.simplify(x.subs(sol[0]))
                    if len(x2.free_symbols) < len(x.free_symbols):
                        x = x2
    cands = []
    sub = [yy for yy in ys if yy.free_symbols <= x.free_symbols]
    if sub and len(sub) < len(ys):
        cands.append(sub)
    groups = {}
    for yy in ys:
        groups.setdefault(frozenset(yy.free_symbols), []).append(yy)
    cands += [g for syms, g in groups.items() if x.free_symbols <= syms and len(g) < len(ys)]
    for cand in cands:
        if region.decide(sympy.Le(x, sympy.Max(*cand))) is True:
            return True
    return region.decide(sympy.Le(x, y))


def _decide_relevant(region, cond):
    """Decide ``cond`` under only the constraints whose symbols it mentions (sound for True: fewer
    assumptions), falling back to the whole region."""
    syms = sympy.sympify(cond).free_symbols
    sub = tuple(c for c in region.constraints if sympy.sympify(c).free_symbols <= syms)
    if len(sub) < len(region.constraints):
        r = Region({k: v for k, v in region.kinds.items() if k in syms}, sub).decide(cond)
        if r is True:
            return True
    return region.decide(cond)


def _abstract_sqrt(region, cond):
    """Replace every sqrt(X) by a fresh positive symbol when X > 0 on the whole region (sound: the claim
    is then proved for every positive value in its place). None if some X is not provably positive."""
    roots = {x for x in sympy.preorder_traversal(cond) if isinstance(x, sympy.Pow) and x.exp == sympy.S.Half}
    inv = {x for x in sympy.preorder_traversal(cond) if isinstance(x, sympy.Pow) and x.exp == -sympy.S.Half}
    subs, syms = {}, []
    for i, r in enumerate(sorted(roots | {sympy.sqrt(x.base) for x in inv}, key=str)):
        if region.decide(sympy.Gt(r.base, 0)) is not True:
            return None
        s_ = sympy.Symbol(f"_sqrt{i}", real=True)   # no assumption: `s_ > 0` must stay a constraint
        subs[r] = s_
        subs[1 / r] = 1 / s_
        syms.append(s_)
    return cond.xreplace(subs), syms


def _check_derivatives(claim, names, subs, region):
    """``derivatives:`` entries: the printed derivative equals d/dvar of the function (squares equal and
    both of the claimed sign); returns (ok, notes)."""
    ders = claim.get("derivatives") or []
    if not ders:
        return True, []
    fname = claim.get("function") or next(iter((claim.get("definitions") or {}).keys()), None)
    if fname is None or names.get(fname) not in subs:
        return None, ["no function to differentiate"]
    func = subs[names[fname]]
    notes, ok_all = [], True
    for d in ders:
        var = names.get(str(d.get("with_respect_to")))
        printed = parse_expr(str(d.get("formula")), names)
        mine = sympy.diff(func, var)
        same_sq = sympy.cancel(sympy.together(mine ** 2 - printed ** 2)) == 0
        sign = str(d.get("claimed_sign", ">= 0")).replace(" ", "")
        rel = (lambda e: sympy.Ge(e, 0)) if sign.startswith(">") else (lambda e: sympy.Le(e, 0))
        both = []
        for e in (mine, printed):
            ab = _abstract_sqrt(region, rel(e))
            if ab is None:
                both.append(None)
                continue
            c, syms_ = ab
            reg_a = Region({**region.kinds, **{x: "real" for x in syms_}}, region.constraints + tuple(x > 0 for x in syms_))
            both.append(_decide_relevant(reg_a, c))
        good = same_sq and all(b is True for b in both)
        notes.append(f"d{fname}/d{var}: {'equals the printed derivative' if good else 'not confirmed'}"
                     f" (squares equal: {same_sq}, signs {sign}: {both})")
        ok_all = ok_all and good
    return ok_all, notes


def _abs_terms(expr):
    """expr = rest + sum c_i |u_i| -> ({u_i: c_i}, rest), with u and -u merged."""
    terms, rest = {}, sympy.Integer(0)
    for term in sympy.Add.make_args(sympy.expand(expr)):
        absf = [f for f in sympy.Mul.make_args(term) if isinstance(f, sympy.Abs)]
        if len(absf) != 1:
            rest += term
            continue
        arg = sympy.expand(absf[0].args[0])
        coef = sympy.expand(term / absf[0])
        neg = sympy.expand(-arg)
        key = neg if neg in terms else arg
        terms[key] = sympy.expand(terms.get(key, 0) + coef)
    return terms, rest


def _triangle(region, cond):
    """L <= R where L = sum a_i |u_i| and R = sum b_j |v_j|: each u_i is a combination of two v_j with
    coefficients b_j / a_i (up to sign), all coefficients >= 0 on the region -> the triangle inequality
    gives L <= R term by term (the convexity of |.|). Sound; False when the pattern does not apply."""
    import itertools
    if not isinstance(cond, (sympy.Le, sympy.Ge)):
        return False
    lhs, rhs = (cond.lhs, cond.rhs) if isinstance(cond, sympy.Le) else (cond.rhs, cond.lhs)
    L, lrest = _abs_terms(lhs)
    R, rrest = _abs_terms(rhs)
    if not L or sympy.expand(lrest - rrest) != 0:
        return False
    used = set()
    for u, a in L.items():
        if region.decide(sympy.Gt(a, 0)) is not True:
            return False
        found = False
        for (v1, b1), (v2, b2) in itertools.combinations([(v, b) for v, b in R.items() if v not in used], 2):
            for s1, s2 in itertools.product((1, -1), repeat=2):
                if sympy.expand(sympy.cancel(u - s1 * b1 / a * v1 - s2 * b2 / a * v2)) == 0:
                    used |= {v1, v2}
                    found = True
                    break
            if found:
                break
        if not found:
            return False
    return all(region.decide(sympy.Ge(b, 0)) is True for b in R.values())


def _decide_split(region, cond):
    """Region.decide, helped by splitting Max(...) <= / == comparisons into one inequality per term.

    Only a True answer is taken from the split (each part is a sufficient condition); otherwise the
    plain decision is returned.
    """
    if isinstance(cond, (sympy.Eq, sympy.Le, sympy.Ge)) and (isinstance(cond.lhs, sympy.Max) or
                                                             isinstance(cond.rhs, sympy.Max)):
        lhs, rhs = cond.lhs, cond.rhs
        if isinstance(cond, sympy.Ge):
            lhs, rhs = rhs, lhs
        parts = [(lhs, rhs)] if not isinstance(cond, sympy.Eq) else [(lhs, rhs), (rhs, lhs)]
        ok = True
        for x, y in parts:
            if not all(_prove_le(region, xx, y) is True for xx in _max_args(x)):
                ok = False
                break
        if ok:
            _RULES.add("Max comparisons split term by term")
            return True
        if sum(len(_max_args(e)) for e in (cond.lhs, cond.rhs)) > 8:
            return None   # the unsplit problem is hopeless for z3; do not spend its timeout
    return region.decide(cond)


@checker("math")
def _math_checker(claim, context=None):
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


# -- maps ------------------------------------------------------------------------------------

def check_map(claim, context=None) -> Verdict:
    verdicts = (context or {}).get("verdicts", {})
    from implgraph.core.table import make_symbols
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
            v = _verdict_of(cid, context)
        state = "unknown"
        if judged == "implies" or judged == "equivalent":
            node = Node({"id": cid + "#arrow", "kind": "implies", "from": _with_level(arrow["from"]),
                         "to": _with_level(arrow["to"], "b"), "f": "1", "symbols": claim.get("symbols") or {},
                         "when": arrow.get("when") or []})
            node.file, node.line = claim.file, arrow.line if hasattr(arrow, "line") else claim.line
            try:
                e = edge_from_node(node)
                ok = _implication_holds(e) is not None
            except InputError:
                ok = False
            if ok:
                state = "holds"
            elif v is not None and (v.verdict in ("proved", "verified-bounded")
                                    or v.details.get("reading_verdict") == "proved") \
                    and _arrow_within_claim(arrow, cid, names, kinds):
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
    return _vd(claim, verdict, evidence=ev, details={"arrows": rows})


def check_reachability(claim, context=None) -> Verdict:
    """A statement about the implication paths of a map: every node of the ``to`` families is reached
    (an implication path of established edges) from some node of the ``from`` families, and, with
    ``converse: false`` ("but not vice versa"), some ``from`` node is reached from no ``to`` node.

    Judged on the engine's map (the computed verdicts of the edge claims) at each ``N`` of ``at_N``
    (a bounded check: the bound is stated), and on the claims as the paper asserts them. Families are
    node families of :func:`implgraph.map.graph.groups_map` (``kdp@class`` for per-class evaluation).
    """
    import networkx as nx

    from implgraph.map.deduce import analyse, as_asserted
    from implgraph.map.graph import family_of, groups_map, load_edges, rules_from_edges
    ctx = context if context is not None else {"verdicts": {}}
    edges = load_edges()
    verdicts = dict(ctx.get("verdicts", {}))
    for e in edges:
        if e.id not in verdicts:
            v = _verdict_of(e.id, ctx)
            if v is not None:
                verdicts[e.id] = v
    rules = rules_from_edges(edges, verdicts)
    src = [str(x) for x in claim.need("from_families", list, fix="list node families, e.g. [dp, ldp, kdp]")]
    dst = [str(x) for x in claim.need("to_families", list, fix="list node families, e.g. [kt-closeness]")]
    Ns = [int(n) for n in (claim.get("at_N") or [4, 5, 6])]
    if not Ns or min(Ns) < 2 or max(Ns) > 12:
        raise claim.error("`at_N` must list group counts N with 2 <= N <= 12", key="at_N", fix="e.g. at_N: [4, 5, 6]")
    converse_expected = claim.get("converse")
    results = {}
    for basis in ("engine", "printed", "reading"):
        fwd_fail, rev_fail, examples = [], [], {}
        for N in Ns:
            G = groups_map(rules, N, families=set(src) | set(dst))
            if basis != "engine":
                G = as_asserted(G, basis)
            an = analyse(G, extra_established=("asserted",) if basis != "engine" else ())
            closure = nx.transitive_closure(an.H, reflexive=False)
            fam = {n: family_of(n) for n in G.nodes}
            S = [n for n in G.nodes if fam[n] in src]
            D = [n for n in G.nodes if fam[n] in dst]
            for n in D:
                if not any(closure.has_edge(m, n) for m in S):
                    fwd_fail.append(f"{n} (N = {N})")
            for n in S:
                if not any(closure.has_edge(m, n) for m in D):
                    rev_fail.append(f"{n} (N = {N})")
        forward = not fwd_fail
        not_vice_versa = bool(rev_fail)
        ok = forward and (converse_expected is None or not_vice_versa == (not converse_expected))
        results[basis] = {"forward": forward, "unreached": fwd_fail, "not_vice_versa": not_vice_versa,
                          "dp_nodes_not_reached": rev_fail, "holds": ok}
    r = results["engine"]
    bound = f"the maps at N = {', '.join(map(str, Ns))}"
    ev = (f"on the engine's map ({bound}): every {'/'.join(dst)} node reached from a {'/'.join(src)} node: "
          f"{'yes' if r['forward'] else 'no, e.g. ' + ', '.join(r['unreached'][:3])}")
    if converse_expected is not None:
        ev += (f"; some {'/'.join(src)} node reached from no {'/'.join(dst)} node: "
               f"{'yes, e.g. ' + ', '.join(r['dp_nodes_not_reached'][:3]) if r['not_vice_versa'] else 'no (every one is reached)'}")
    ev += "; with the papers' claims as printed: " + ("holds" if results["printed"]["holds"] else "fails")
    ev += ", under the proofs' readings: " + ("holds" if results["reading"]["holds"] else "fails")
    verdict = "verified-bounded" if r["holds"] else "refuted"
    return _vd(claim, verdict, evidence=ev, bound=bound, details=results)


def _arrow_within_claim(arrow, cid, names, kinds) -> bool:
    """Is every parameter value of the arrow's ``when`` one of its claim's ``when``? (True only when proved;
    symbols are matched by name.)"""
    node = _theorem_claim(cid)
    if node is None:
        return False
    names, kinds = dict(names), dict(kinds)
    try:
        from implgraph.core.table import make_symbols
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


_CLAIM_NODES: dict = {}


def _theorem_claim(cid):
    """The claim node ``cid`` of the bundled theorems/ (the files read once)."""
    from implgraph.io.theorems import load_claims
    if not _CLAIM_NODES:
        for c in load_claims(kinds=("theorems",)):
            _CLAIM_NODES[str(c.get("id"))] = c
    return _CLAIM_NODES.get(str(cid))


def _verdict_of(cid, context):
    """Run the claim ``cid`` of theorems/ (for a map checked on its own)."""
    from implgraph.core.verdict import check_claim
    c = _theorem_claim(cid)
    if c is None or c.get("kind") == "map":
        return None
    ctx = context if context is not None else {}
    v = check_claim(c, ctx)
    ctx.setdefault("verdicts", {})[cid] = v
    ctx.pop("extra_rows", None)
    return v


def _with_level(spec, which="a"):
    out = Node(dict(spec))
    out.file = getattr(spec, "file", None)
    out.line = getattr(spec, "line", None)
    out.setdefault("level", "alpha_" if which == "a" else "beta_")
    return out




@checker("map")
def _map_checker(claim, context=None):
    return check_map(claim, context)


@checker("reachability")
def _reachability_checker(claim, context=None):
    return check_reachability(claim, context)
