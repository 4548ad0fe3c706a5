"""``kind: equivalent`` / ``reciprocal`` (both directions proved) and ``kind: generalisation``
(A => B proved and B =/=> A confirmed by the witness) claims.
"""

from __future__ import annotations

from implgraph.checks.common import context_max_n, edge_verdict
from implgraph.checks.implies import implication_result
from implgraph.checks.not_implies import judge_witness_claim
from implgraph.core.verdict import Verdict
from implgraph.engines.prove import check_implication
from implgraph.io.theorems import Edge

__all__ = ["check_equivalent", "check_generalisation"]


def check_equivalent(edge: Edge, context=None) -> Verdict:
    fwd = implication_result(edge, edge.f, context)
    rev = check_implication(edge.b.definition, edge.a.definition, edge.g, a_params=edge.b.params,
                            b_params=edge.a.params, when=edge.when, kinds=edge.kinds, alpha=edge.b.level,
                            a_classes=edge.b.classes, b_classes=edge.a.classes, max_n=context_max_n(context))
    order = ["refuted", "unknown", "verified-bounded", "proved"]
    verdict = min(fwd.verdict, rev.verdict, key=lambda v: order.index(v) if v in order else 1)
    ev = f"A => B with f = {edge.f}: {fwd.verdict} ({fwd.evidence}); B => A with g = {edge.g}: {rev.verdict} ({rev.evidence})"
    wit = fwd.witness if fwd.verdict == "refuted" else rev.witness
    return edge_verdict(edge, verdict, evidence=ev, witness=wit, tight=fwd.tight_str, bound=fwd.bound or rev.bound,
               details={"forward": fwd.verdict, "reverse": rev.verdict, "tightness": [fwd.tightness, rev.tightness],
                        "certificates": [(r.details or {}).get("certificate") for r in (fwd, rev)]
                        + [c for r in (fwd, rev) for c in (r.details or {}).get("certificates") or []]})


def check_generalisation(edge: Edge, context=None) -> Verdict:
    f = edge.f
    fwd = implication_result(edge, f, context)
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
    return edge_verdict(edge, verdict, evidence=ev, tight=fwd.tight_str, bound=fwd.bound, witness=fwd.witness,
               details={"forward": fwd.verdict, "reverse_witness": None if wv is None else wv.verdict,
                        "tightness": fwd.tightness, "certificate": (fwd.details or {}).get("certificate"),
                        "certificates": list((fwd.details or {}).get("certificates") or [])})
