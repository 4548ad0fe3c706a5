"""Did discover re-find the papers' relations? Claim by claim, at the N checked.

:func:`compare_with_theorems` looks up, for every edge of ``theorems/``, the directions discover
checked at the same instances and says whether the relation (and the paper's f, where given) was
re-found unaided.
"""

from __future__ import annotations

import sympy

from implgraph.definitions.nodes import N_SYM, Node, parse_node
from implgraph.engines.direction import aggregate, check_direction
from implgraph.engines.discover import DiscoverResult
from implgraph.engines.recheck import is_degenerate
from implgraph.core.simplified import simplified

__all__ = ["compare_with_theorems"]


def compare_with_theorems(result: DiscoverResult, edges=None) -> list:
    """For every encoded implies / not-implies / equivalent / generalisation edge, what discover found.

    Each claim (and its proof's ``reading``) is instantiated at discover's N for every value of its
    parameters allowed by its ``when``. Claims that restrict the class sizes (``classes:
    {min_size, max_size}``) are re-checked on the spot with those restrictions; claims with
    ``scope: class`` are not modelled and reported as such.

    Returns a list of dicts: ``claim``, ``instance``, ``point``, ``claimed`` (kind), ``found``
    (relation), ``status``: ``re-found``, ``re-found, same f (tight)``, ``re-found, paper f is
    loose``, ``refuted: paper f below the tight f``, ``refuted: discover finds a witness``,
    ``contradicted: discover finds an implication``, ``undecided`` or ``not modelled``.
    """
    if edges is None:
        from implgraph.io.theorems import load_theorems
        edges = load_theorems()
    dirs = {}
    for fnd in result.findings:
        for d in (fnd.forward, fnd.backward):
            if d is not None:
                dirs[(d.a, d.b)] = d
    out = []
    for e in edges:
        for edge, tag in ((e, ""), (e.as_reading(), " (reading)")):
            if edge is None or edge.kind not in ("implies", "not-implies", "equivalent", "generalisation"):
                continue
            out += _compare_edge(edge, tag, dirs, result.N)
    return out


def _compare_edge(e, tag, dirs, N):
    """The rows comparing one claim with what discover found, one per integer instance at ``N``."""
    import itertools
    rows, seen = [], set()
    syms, free = _free_integers(e)
    Nsym = syms.get("N", sympy.Symbol("N"))
    for values in itertools.product(range(1, N), repeat=len(free)):
        point = {Nsym: N, **dict(zip(free, values))}
        try:
            if not all(bool(sympy.sympify(c).subs(point)) for c in e.when
                       if not (sympy.sympify(c).free_symbols & {e.a.level, e.b.level})):
                continue
        except TypeError:
            continue
        a = Node(e.a.name, tuple(sorted((k, _v(v, point)) for k, v in e.a.params.items())))
        b = Node(e.b.name, tuple(sorted((k, _v(v, point)) for k, v in e.b.params.items())))
        classes = e.a.classes or e.b.classes
        key = (a.label(), b.label(), tuple(sorted((str(k), str(_v(v, point))) for k, v in (classes or {}).items())))
        if key in seen:
            continue
        seen.add(key)
        rec = {"claim": e.id + tag, "instance": f"{a.label()} -> {b.label()}",
               "point": {str(k): int(v) for k, v in point.items()}, "claimed": e.kind,
               "expect": e.node.get("reading_expect") if tag else e.expect}
        if e.a.scope != "table" or e.b.scope != "table" or getattr(e.a, "of", None) or getattr(e.b, "of", None):
            rec.update(found=None, status="not modelled",
                       note="the claim evaluates a definition per class or of another mechanism")
            rows.append(rec)
            continue
        if classes:
            lim = {k: sympy.sympify(v).subs(point) for k, v in classes.items()}
            d = check_direction(a, b, None, (), N, n_min=N, classes=lim, prover=False)
            rec["note"] = "classes restricted: " + ", ".join(f"{k} = {v}" for k, v in lim.items())
        else:
            d = dirs.get((a.label(), b.label()))
        if d is None:
            continue
        whole = d
        d = _at_N(d, N)
        back = dirs.get((b.label(), a.label())) if e.kind == "generalisation" else None
        back = _at_N(back, N) if back is not None else None
        if d is None:
            continue
        _judge_instance(rec, e, d, whole, back, N, point, Nsym, classes)
        rows.append(rec)
    return rows


def _free_integers(e):
    """The claim's symbols by name, and the integer symbols its instances range over.

    Parameters
    ----------
    e : Edge
        The claim.

    Returns
    -------
    tuple
        ``(syms, free)``: the declared symbols by name, and the integer symbols (other than N and the
        levels) that its parameters, class sizes and condition use, sorted by name.
    """
    syms = {str(s): s for s in e.symbols.values()} if isinstance(e.symbols, dict) else {}
    used = set()
    for side in (e.a, e.b):
        for v in side.params.values():
            used |= getattr(sympy.sympify(v), "free_symbols", set()) if not isinstance(v, str) else set()
        for v in (side.classes or {}).values():
            used |= sympy.sympify(v).free_symbols
    for c in e.when:
        used |= sympy.sympify(c).free_symbols
    levels = {e.a.level.name, e.b.level.name}
    free = sorted((s for s in used if s.name != "N" and s.name not in levels and s.name in syms
                   and getattr(s, "is_integer", False)), key=lambda s: s.name)
    return syms, free


def _judge_instance(rec, e, d, whole, back, N, point, Nsym, classes) -> None:
    """Set ``rec``'s ``found``, ``tight`` and ``status``: what discover found for one instance of the claim.

    Parameters
    ----------
    rec : dict
        The instance's row (updated).
    e : Edge
        The claim.
    d : Direction
        What discover found at ``N``; ``whole`` the same over every N checked.
    back : Direction or None
        The reverse direction at ``N`` (for a generalisation).
    N : int
        The number of records.
    point : dict
        The instance's parameter values; ``Nsym`` its N.
    classes : dict or None
        The class sizes the claim restricts the tables to.
    """
    rec["found"] = d.relation
    rec["tight"] = d.tight
    want = "non-implication" if e.kind == "not-implies" else "implication"
    elsewhere = _witness_elsewhere(d, N) if _instance_depends_on_N(e, Nsym) else None
    if d.relation == "unknown":
        rec["status"] = "undecided"
    elif elsewhere is not None:
        # the claim's instance holds at this N only (its condition or parameters read N): a table of another
        # number of records is no evidence about it; the instance is judged by what was found at this N alone
        rec["note"] = (f"the only witness has N = {elsewhere}; the claim's instance {rec['instance']} is for "
                       f"N = {N} (its condition reads N), judged by the tables of N = {N} alone")
        at_n = aggregate(parse_node(d.a), parse_node(d.b), None, [i for i in d.instances if i.N == N], 2)
        if at_n.relation != "non-implication":
            _judge_instance(rec, e, at_n, at_n, back, N, point, Nsym, classes)
        else:
            rec["status"] = "undecided"
    elif d.relation != want:
        rec["status"] = ("refuted: discover finds a witness" if want == "implication"
                         else "contradicted: discover finds an implication")
    elif back is not None and back.relation == "implication":
        rec["status"] = "contradicted: the reverse implication holds too (not a generalisation)"
    else:
        rec["status"] = "re-found"
        if e.f is not None and e.kind in ("implies", "equivalent"):
            rec["status"] = _compare_f(e.f.subs(point), d, e.a.level, e.a.definition, e.b.definition)
            if whole.tight_in_N and rec["status"] == "re-found, same f (tight)" and not classes:
                ns = sorted({i.N for i in whole.instances})
                if _same_in_N(e.f, whole.tight_in_N, point, Nsym, e.a.level, e.a.definition):
                    rec["status"] = f"re-found, same f for every N = {ns[0]}..{ns[-1]} (tight)"


def _instance_depends_on_N(e, Nsym) -> bool:
    """Does the claim's instance at one N change with N (its condition, parameters or class sizes read N)?"""
    texts = list(e.when) + [v for side in (e.a, e.b) for v in (side.params or {}).values() if not isinstance(v, str)]
    texts += [v for side in (e.a, e.b) for v in (side.classes or {}).values()]
    return any(s.name == Nsym.name for t in texts for s in sympy.sympify(t).free_symbols)


def _witness_elsewhere(d, N):
    """The N of ``d``'s witness where ``d`` is a non-implication shown only by a table of another N (a witness family
    found beyond the N checked), else None."""
    if d.relation != "non-implication":
        return None
    wN = ((d.witness or {}).get("point") or {}).get("N")
    if wN is None or int(wN) == int(N) or any(i.N == N and i.relation == "non-implication" for i in d.instances):
        return None
    return int(wN)


def _same_in_N(paper_f, tight_in_N, point, Nsym, level, a_def):
    """Is the claim's f (other parameters substituted) the expression in N discover fitted?"""
    alpha = sympy.Symbol(a_def.level_symbol, positive=True)
    pf = sympy.sympify(paper_f).subs({k: v for k, v in point.items() if k != Nsym})
    pf = pf.subs({Nsym: N_SYM, level: alpha})
    tf = sympy.sympify(tight_in_N, locals={alpha.name: alpha, "N": N_SYM})
    return simplified(pf - tf) == 0


def _at_N(d, N):
    """The direction restricted to its instance(s) at N (discover may have checked a range of N)."""
    insts = [i for i in d.instances if i.N == N]
    if not insts:
        return None
    if len(insts) == len(d.instances):
        return d
    return aggregate(parse_node(d.a), parse_node(d.b), None, insts, 2)


def _v(v, point):
    if isinstance(v, str):
        return v
    return sympy.sympify(v).subs(point)


def _compare_f(paper_f, d, level, a_def, b_def):
    """Compare a paper's f with the exact tight values discover computed at the sample levels."""
    inst = d.instances[-1] if d.instances else None
    if inst is None or not inst.samples:
        return "re-found (f not compared)"
    less, degenerate, more = [], [], []
    for a_s, F_s in inst.samples:
        if F_s in ("None", "inf", "oo"):
            continue
        a_raw, F_raw = sympy.Rational(a_s), sympy.Rational(F_s)
        target = simplified(b_def.raw_from_level(sympy.sympify(paper_f).subs(level, a_def.level_from_raw(a_raw))))
        diff = sympy.nsimplify(target - F_raw) if target.is_number else None
        if diff is None or not diff.is_number:
            return "re-found (f not compared)"
        if diff < 0:
            (degenerate if is_degenerate(b_def, target) else less).append(str(a_def.level_from_raw(a_raw)))
        elif diff > 0:
            more.append(a_s)
    sym = a_def.level_symbol
    if less:
        return f"refuted: paper f below the tight value at {sym} = {less[0]}" + (
            f" (and at the degenerate level {sym} = {degenerate[0]}, where f is no valid level)" if degenerate else "")
    if degenerate:
        return (f"refuted only at degenerate levels: paper f below the tight value at {sym} = {degenerate[0]}, "
                "where f is no valid level")
    if more:
        return "re-found, paper f is loose" + (" (tight on the fitted range)" if d.tight_upto else "")
    return "re-found, same f (tight)"
