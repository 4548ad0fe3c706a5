"""``kind: not-implies`` claims: A does not imply B.

Evidence, strongest first: if the engine *proves* the implication for every parameter value, the
printed non-implication is ``refuted`` (the proof is the evidence); a parametric witness for every
parameter value (:func:`symbolic_nonimplication`); the witness table's family (A bounded while B grows
without bound), judged by the ``unbounded`` checker, when its instance fits the claim's condition
(:mod:`implgraph.checks.witness_fit`); the refuter's binary tables at each small parameter point
(:func:`_generalise`, a bounded check).
"""

from __future__ import annotations

import dataclasses
import itertools

import sympy

from implgraph.checks.common import context_max_n, edge_verdict
from implgraph.checks.implies import ASSUMPTION, implication_proof
from implgraph.checks.intruder_views import check_views
from implgraph.checks.unbounded import check_unbounded_claim
from implgraph.checks.witness_fit import witness_claim, witness_fit
from implgraph.core.region import Region
from implgraph.core.verdict import Verdict
from implgraph.definitions.capabilities import family_of
from implgraph.engines.bounds import T, subset_size_expr
from implgraph.engines.refute import find_witness
from implgraph.engines.smaller_subset import zero_records_witness
from implgraph.engines.witness import witness_json
from implgraph.io.theorems import Edge
from implgraph.core.simplified import simplified

__all__ = ["judge_witness_claim", "symbolic_nonimplication", "check_not_implies"]


def judge_witness_claim(claim_id, context=None):
    """Verdict of the table claim ``claim_id`` of kind ``unbounded`` (:func:`check_unbounded_claim`);
    None when there is no such claim."""
    node = witness_claim(claim_id)
    if node is None or node.get("kind") != "unbounded":
        return None
    return check_unbounded_claim(node, context)


def symbolic_nonimplication(edge: Edge):
    """A parametric witness for every parameter value of the condition: z records with Pr(a1) = 0 and
    N - z with Pr(a1) = 1/2 (z = 1, j_A - 1 or j_B), levels computed symbolically by the core. Returns
    (text, z) when A's level is finite and B's infinite on the whole condition, else None."""
    a, b = edge.a.definition, edge.b.definition
    if a.needs_classes or b.needs_classes or edge.a.scope == "class" or edge.b.scope == "class":
        return None
    if family_of(a) not in ("subset", "pairwise") or family_of(b) not in ("subset", "pairwise"):
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
    found = zero_records_witness(a, b, edge.a.params, edge.b.params, region, N, ja, jb)
    if found is None:
        return None
    z, la = found
    text = (f"for every parameter value of the condition: {z} record(s) with Pr(a1) = 0 and N - ({z}) "
            f"with Pr(a1) = 1/2 give {a.name} level {la} (finite) and {b.name} level oo (exact "
            f"symbolic levels)")
    return text, z


def check_not_implies(edge: Edge, context=None, witness=None, witness_claim=None) -> Verdict:
    """The verdict over every partition into classes (a table of one class included); where the engine proves the
    implication only under the assumption "partitions into at least 2 classes", the verdict says so and carries the
    verdict under the assumption in ``details["conditional"]``."""
    modelled = _about_another_quantity(edge, context, witness, witness_claim)
    if modelled is not None:
        return modelled
    v = _check_not_implies(edge, context, witness, witness_claim)
    if v.verdict == "refuted" or not (edge.a.definition.needs_classes or edge.b.definition.needs_classes):
        return v
    cond = _under_two_classes(edge)
    if cond is not None:
        v.evidence += (f"; under the assumption ({ASSUMPTION}) the engine proves the implication "
                       f"({cond['evidence'][:400]}): the non-implication needs a table of one class")
        v.details = dict(v.details or {}, conditional=cond)
    return v


def _about_another_quantity(edge, context, witness, witness_claim):
    """As for ``implies`` (:func:`implgraph.checks.implies.check_implies`): a non-implication about the intruder's
    views (``views:``) is judged under that model, refuted where the model's argument proves A => B; one about
    any other quantity the engine does not model (``of:`` on a side, ``assumptions:``) is unknown, the literal
    reading's verdict in ``details``. None for a claim about the release's own levels."""
    if edge.node.get("views") is not None:
        v = check_views(edge, context)
        if v.verdict == "proved":
            return edge_verdict(edge, "refuted", evidence="the engine proves the implication under the claim's model "
                                                          "of the views: " + v.evidence,
                                tight=v.tight_str, details=v.details, refuted_by="proved")
        return edge_verdict(edge, "unknown", evidence="under the claim's model of the views: " + v.evidence,
                            details=v.details)
    unmodelled = [s.of for s in (edge.a, edge.b) if s.of] + list(edge.node.get("assumptions") or [])
    if not unmodelled:
        return None
    lit = _check_not_implies(edge, dict(context or {}, max_n=min(context_max_n(context), 4)), witness, witness_claim)
    return edge_verdict(edge, "unknown", evidence=(
        "the claim is about a quantity or assumptions the engine does not model ("
        + "; ".join(map(str, unmodelled))[:300] + "); under the engine's literal definitions the verdict would be "
        f"{lit.verdict}: {lit.evidence}"), witness=lit.witness, bound=lit.bound,
        details={"literal_verdict": lit.verdict})


def _under_two_classes(edge):
    """The claim's verdict under the assumption "partitions into at least 2 classes" where the engine proves the
    implication there (for every parameter value, or at one instance), else None."""
    proof = implication_proof(edge, min_classes=2)
    where = ""
    if proof is None:
        at = _implication_at_an_instance(edge, min_classes=2)
        if at is None:
            return None
        point, *proof = at
        where = "at " + ", ".join(f"{k} = {v}" for k, v in point.items()) + ": "
    bound, cert = proof
    return {"assumption": ASSUMPTION, "verdict": "refuted", "refuted_by": "proved",
            "evidence": f"{where}{bound.method}: {bound.argument}", "certificate": cert}


def _check_not_implies(edge: Edge, context=None, witness=None, witness_claim=None) -> Verdict:
    proof = implication_proof(edge)
    if proof is not None:
        bound, cert = proof
        tight = bound.upper.subs(T, edge.a.definition.raw_from_level(edge.a.level))
        tight = simplified(edge.b.definition.level_from_raw(tight))
        return edge_verdict(edge, "refuted", evidence=(f"the engine proves the implication for every parameter value "
                                             f"({bound.method}): {bound.argument}; with f = {tight}"),
                   tight=str(tight) if bound.tight else None, details={"checks": bound.checks, "certificate": cert},
                   refuted_by="proved")
    at = _implication_at_an_instance(edge)
    if at is not None:
        point, bound, cert = at
        where = ", ".join(f"{k} = {v}" for k, v in point.items())
        tight = bound.upper.subs(T, edge.a.definition.raw_from_level(edge.a.level)).subs(point)
        tight = simplified(edge.b.definition.level_from_raw(tight))
        return edge_verdict(edge, "refuted", evidence=(
            f"at {where}, inside the claim's condition, the engine proves the implication for every N "
            f"({bound.method}): {bound.argument}; with f = {tight}: the non-implication claimed for every value "
            f"fails there"), tight=str(tight) if bound.tight else None,
            details={"checks": bound.checks, "instance": {str(k): str(v) for k, v in point.items()},
                     "certificate": cert}, refuted_by="proved")
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
            return edge_verdict(edge, "confirmed", evidence=gen["text"] + "; " + ev, witness=gen.get("first"),
                       bound=gen["bound"], details={"generalised": gen, "witness_fit": fit})
        if gen:
            ev += "; " + gen["text"]
        return edge_verdict(edge, "unknown", evidence=ev, bound=gen and gen["bound"], witness=gen and gen.get("first"),
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
            return edge_verdict(edge, verdict, evidence=ev, bound=bound,
                       witness={"table": str(witness or edge.witness), "claim": str(wc)}, exact=wv.exact,
                       details={"witness_verdict": wv.verdict, "generalised": gen, "witness_fit": fit})
    if gen and gen["all_refuted"]:
        return edge_verdict(edge, "confirmed", evidence=gen["text"], witness=gen.get("first"), bound=gen["bound"],
                   details={"generalised": gen})
    return edge_verdict(edge, "unknown", evidence="no witness claim to check and no proof of the implication")


#: the values of an integer parameter at which the prover is asked for the implication (its smallest ones)
INSTANCE_VALUES = (1, 2, 3)


def _implication_at_an_instance(edge: Edge, min_classes=1):
    """``(point, Bound, certificate)``: an instance of one integer parameter of the two sides (other than N; its
    smallest values) inside the claim's condition at which the engine proves A => B for every N, or None."""
    used = set()
    for side in (edge.a, edge.b):
        for v in side.params.values():
            used |= sympy.sympify(v).free_symbols
    params = sorted((s for s in used if s.name != "N" and edge.kinds.get(s) == "integer"), key=lambda s: s.name)
    for s in params:
        for v in INSTANCE_VALUES:
            # (the sides at the instance: their certificate states the instance's parameters, e.g. a subset size N - 1)
            a, b = (_at(side, {s: v}) for side in (edge.a, edge.b))
            proof = implication_proof(edge, a=a, b=b, extra=(sympy.Eq(s, v),), min_classes=min_classes)
            if proof is not None:
                return ({s: v}, *proof)
    return None


def _at(side, point):
    """``side`` with ``point`` substituted in its parameters and class sizes."""
    def put(x):
        return x.subs(point) if isinstance(x, sympy.Basic) else x     # (a word parameter, a number: as it is)
    classes = None if side.classes is None else {k: put(x) for k, x in side.classes.items()}
    return dataclasses.replace(side, params={k: put(x) for k, x in side.params.items()}, classes=classes)


def _generalise(edge: Edge, context=None):
    """For every parameter point with N <= 6 (at most 12), a table where A's level is finite and B's
    infinite (the refuter, f = None): the non-implication at each of those parameter values."""
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
    hi = min(context_max_n(context), 6)
    points = []
    for combo in itertools.product(range(0, hi + 1), repeat=len(ints)):
        pt = dict(zip(ints, map(sympy.Integer, combo)))
        if pt[ints[0]] < 2:
            continue
        if edge.region.contains(pt) is not True:
            continue
        ok = True
        for d, ps in ((a, edge.a.params), (b, edge.b.params)):
            for v in (v for k, v in ps.items() if k not in d.words):     # a word (EMD's ground) is no size
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
        aps = {k: str(v) if k in a.words else int(sympy.sympify(v).subs(pt)) for k, v in edge.a.params.items()}
        bps = {k: str(v) if k in b.words else int(sympy.sympify(v).subs(pt)) for k, v in edge.b.params.items()}
        opts = [None]
        if a.needs_classes or b.needs_classes:
            spec = edge.a.classes or edge.b.classes or {}
            lo = int(sympy.sympify(spec.get("min_size", 1)).subs(pt))
            top = spec.get("max_size")
            # two classes, then (every partition counts) the table of one class
            opts = ([[lo, Nv - lo]] if 2 * lo <= Nv else []) + (
                [[Nv]] if lo <= Nv and (top is None or Nv <= int(sympy.sympify(top).subs(pt))) else [])
        hit = False
        for classes in opts:
            r = find_witness(a, b, None, N=Nv, a_params=aps, b_params=bps, classes=classes, timeout_ms=1000,
                             canonical=first is None)  # only the first witness is shown
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
