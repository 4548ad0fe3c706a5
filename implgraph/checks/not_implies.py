"""``kind: not-implies`` claims: A does not imply B.

Evidence, strongest first: if the engine *proves* the implication for every parameter value, the
printed non-implication is ``refuted`` (the proof is the evidence); a parametric witness for every
parameter value (:func:`symbolic_nonimplication`); the witness table's family (A bounded while B grows
without bound), judged by the ``unbounded`` checker, when its instance fits the claim's condition
(:mod:`implgraph.checks.witness_fit`); the refuter's binary tables at each small parameter point
(:func:`~implgraph.checks.not_implies_bounded.generalise`, a bounded check).
"""

from __future__ import annotations

import dataclasses

import sympy

from implgraph.checks.common import context_max_n, edge_verdict
from implgraph.checks.implies import ASSUMPTION, implication_proof
from implgraph.checks.intruder_views import check_views
from implgraph.checks.not_implies_bounded import generalise
from implgraph.checks.unbounded import check_unbounded_claim
from implgraph.checks.witness_fit import witness_claim, witness_fit
from implgraph.core.region import Region
from implgraph.core.verdict import Verdict
from implgraph.definitions.capabilities import family_of
from implgraph.engines.bounds import T, subset_size_expr
from implgraph.engines.smaller_subset import zero_records_witness
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
    """The evidence for ``A does not imply B``, strongest first (see the module's docstring).

    Parameters
    ----------
    edge : Edge
        The claim.
    context : dict, optional
        The run's shared context.
    witness, witness_claim : str, optional
        The witness table and the claim that judges it (default: the claim's own).

    Returns
    -------
    Verdict
    """
    proved = _refuted_by_proof(edge)
    if proved is not None:
        return proved
    wc = witness_claim or edge.node.get("witness_claim")
    sym = None
    try:
        sym = symbolic_nonimplication(edge)
    except Exception:
        sym = None
    gen = None if sym else generalise(edge, context)
    if sym:
        gen = {"text": sym[0], "all_refuted": True, "bound": None, "first": None, "symbolic": True}
    fit = witness_fit(edge, wc) if wc else None
    if wc:
        verdict = _witness_claim_verdict(edge, context, witness, wc, sym, gen, fit)
        if verdict is not None:
            return verdict
    if gen and gen["all_refuted"]:
        return edge_verdict(edge, "confirmed", evidence=gen["text"], witness=gen.get("first"), bound=gen["bound"],
                   details={"generalised": gen})
    return edge_verdict(edge, "unknown", evidence="no witness claim to check and no proof of the implication")


def _refuted_by_proof(edge: Edge):
    """``refuted`` when the engine proves A => B for every parameter value, or at an instance inside the
    claim's condition (:func:`_implication_at_an_instance`); else None.

    Parameters
    ----------
    edge : Edge
        The claim.

    Returns
    -------
    Verdict or None
    """
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
    return None


def _witness_claim_verdict(edge: Edge, context, witness, wc, sym, gen, fit):
    """The verdict from the witness claim ``wc``, or None when it gives none.

    Parameters
    ----------
    edge : Edge
        The claim.
    context : dict or None
        The run's shared context.
    witness, wc : str
        The witness table (None: the claim's) and the witness claim's id.
    sym : tuple or None
        The parametric witness (:func:`symbolic_nonimplication`), if any.
    gen : dict or None
        The refuter's bounded check (:func:`~implgraph.checks.not_implies_bounded.generalise`), or the
        parametric witness in its shape.
    fit : dict or None
        Whether the witness's instance fits the claim's condition (:func:`witness_fit`).

    Returns
    -------
    Verdict or None
    """
    if fit is not None and fit["fits"] is not True and not sym:
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
    wv = judge_witness_claim(wc, context)
    if wv is None:
        return None
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
