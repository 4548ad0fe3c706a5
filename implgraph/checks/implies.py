"""``kind: implies`` claims: :func:`implgraph.engines.prove.check_implication` (a proof for all
parameters with the tight f, an exact witness, or a bounded check).

A claim about the intruder's view under stated assumptions (``views:``) is judged by
:mod:`implgraph.checks.intruder_views`; any other claim about a quantity the engine does not model
(``of:`` on a side, or ``assumptions:``) is ``unknown``, the literal reading's result in ``details``. :func:`implication_holds` asks whether
the engine proves A => B for every parameter value with some f (used by the non-implication and map
checkers).
"""

from __future__ import annotations

import sympy

from implgraph.checks.common import context_max_n, edge_verdict
from implgraph.checks.intruder_views import check_views
from implgraph.core.region import Region
from implgraph.core.verdict import Verdict
from implgraph.engines.bounds import T, param_ranges, tight_bound
from implgraph.engines.certificates import EVERY_TABLE_METHODS, certificate, every_partition_certificate
from implgraph.engines.direction import ASSUMPTION
from implgraph.engines.prove_claim import premises_nowhere
from implgraph.engines.prove import check_implication, covers_one_class, one_class_possible
from implgraph.io.theorems import Edge

__all__ = ["implication_result", "check_implies", "implication_holds", "implication_proof", "ASSUMPTION"]


def implication_result(edge: Edge, f, context, a=None, b=None, reverse=False, min_classes=1):
    a = a or edge.a
    b = b or edge.b
    return check_implication(a.definition, b.definition, f, a_params=a.params, b_params=b.params,
                             when=edge.when, kinds=edge.kinds, alpha=a.level, a_classes=a.classes,
                             b_classes=b.classes, max_n=context_max_n(context), min_classes=min_classes)


def _one_class_witness(r) -> bool:
    """Is the proof's witness a table whose records all lie in one class?"""
    labels = (r.witness or {}).get("classes")
    return bool(labels) and len(set(labels)) == 1


def _beside_two_classes(edge, r, f, context, a=None):
    """Where a table of one class refutes the claim: the verdict under the assumption "partitions into at least 2
    classes" (``{"assumption", "verdict", "evidence", "tight"}``), else None."""
    a = a or edge.a
    if r.verdict != "refuted" or not _one_class_witness(r) or not (a.definition.needs_classes
                                                                  or edge.b.definition.needs_classes):
        return None
    r2 = implication_result(edge, f, context, a=a, min_classes=2)
    return {"assumption": ASSUMPTION, "verdict": r2.verdict, "evidence": r2.evidence, "tight": r2.tight_str}


def _from_proof(edge, r, kind_label="", expect=None):
    return edge_verdict(edge, r.verdict, evidence=kind_label + r.evidence, bound=r.bound, witness=r.witness,
               tight=r.tight_str, exact=r.tight_str, expect=expect,
               details={"tightness": r.tightness, "method": r.method, **(r.details or {})})


def check_implies(edge: Edge, context=None, f=None, a=None) -> Verdict:
    if (a or edge.a).scope == "class" or edge.b.scope == "class":
        return edge_verdict(edge, "unknown", evidence="levels taken within each class (scope: class) are not encoded "
                                             "by the prover or the refuter")
    if edge.node.get("views") is not None:   # the intruder's views under the stated assumptions
        return check_views(edge, context, edge.f if f is None else f)
    unmodelled = [s.of for s in (a or edge.a, edge.b) if s.of] + list(edge.node.get("assumptions") or [])
    if unmodelled:   # only the literal reading is checked, and only on small tables
        context = dict(context or {}, max_n=min(context_max_n(context), 4))
    r = implication_result(edge, edge.f if f is None else f, context, a=a)
    cond = _beside_two_classes(edge, r, edge.f if f is None else f, context, a=a)
    if cond is not None:
        r.evidence += (f"; the witness is a table of one class: under the assumption ({ASSUMPTION}) the claim is "
                       f"{cond['verdict']} ({cond['evidence'][:300]})")
        r.details = dict(r.details or {}, conditional=cond)
    if unmodelled:
        v = _from_proof(edge, r)
        return edge_verdict(edge, "unknown",
                   evidence=("the claim is about a quantity or assumptions the engine does not model ("
                             + "; ".join(map(str, unmodelled))[:300] + "); under the engine's literal definitions "
                             f"the verdict would be {r.verdict}: {r.evidence}"),
                   witness=r.witness, bound=r.bound, tight=r.tight_str,
                   details={"literal_verdict": r.verdict, "literal_tightness": r.tightness})
    return _from_proof(edge, r)


def implication_holds(edge: Edge, a=None, b=None, extra=(), min_classes=1):
    """A Bound when the engine proves A => B for every parameter value (some f), else None; ``extra``:
    conditions added to the claim's (e.g. ``k == 1``, for one instance of a parameter); a region they leave
    empty (with the parameters' ranges) gives None: nothing would be proved about any instance. Where a side compares
    classes, the argument must hold over every partition (``min_classes`` 1: a table of one class too,
    :func:`implgraph.engines.prove.covers_one_class`) or over partitions into >= 2 classes (``min_classes`` 2, the
    assumption)."""
    found = implication_proof(edge, a, b, extra, min_classes)
    return None if found is None else found[0]


def implication_proof(edge: Edge, a=None, b=None, extra=(), min_classes=1):
    """``(Bound, certificate)`` as :func:`implication_holds` finds the Bound, with its certificate for
    :mod:`implgraph.certify` (on the region the Bound is proved on); None as there, and where the certificate's
    premises (e.g. a partition into two classes of >= s records) hold at no point of that region."""
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
    region = Region(kinds, conds + tuple(extra) + (T >= 1, N >= 2))
    # a proof on an empty region proves nothing about an instance: the region, with the ranges where the
    # parameters mean something, must have a point
    ranged = region.add(*param_ranges(a.definition, b.definition, a.params, b.params, N, b.classes))
    if ranged.is_empty() is not False:
        return None
    try:
        bound = tight_bound(a.definition, b.definition, a.params, b.params, region, N, a.classes, b.classes)
    except Exception:
        return None
    if bound is None:
        return None
    cert = certificate(a.definition, b.definition, a.params, b.params, a.classes, b.classes, region, N, bound)
    if not (min_classes >= 2 or not (a.definition.needs_classes or b.definition.needs_classes)
            or bound.method in EVERY_TABLE_METHODS or not one_class_possible(a.classes, b.classes, ranged, N)):
        # an argument about partitions into >= 2 classes: every partition only where a table of one class is covered
        if not covers_one_class(b.definition, b.params, bound, ranged, a.definition, N):
            return None
        cert = every_partition_certificate(cert)
    return None if premises_nowhere(cert, region) else (bound, cert)
