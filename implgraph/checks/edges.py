"""The edge claims (``implies``, ``not-implies``, ``equivalent``, ``reciprocal``, ``generalisation``):
one checker for their kinds, dispatching on the edge's printed kind, and the proof's reading of an
edge judged as an extra row ``<id>#reading``.
"""

from __future__ import annotations

import time

from implgraph.checks.common import edge_verdict
from implgraph.checks.equivalent import check_equivalent, check_generalisation
from implgraph.checks.implies import check_implies
from implgraph.checks.not_implies import check_not_implies
from implgraph.core.verdict import Verdict, checker
from implgraph.io.datafile import EDGE_KINDS, data_files
from implgraph.io.theorems import Edge, edge_from_node, witness_ids

__all__ = ["check_edge", "check_reading", "check_edge_claim"]


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
    return edge_verdict(edge, "unknown", evidence=f"no checker for edge kind {kind!r}")


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


_KNOWN: dict = {}
"""The witness ids of the table files read, keyed by the list of those files (so that a later command in
the same process, with other ``--tables``, reads its own)."""


def _edge(claim):
    if isinstance(claim, Edge):
        return claim
    key = tuple(data_files("counterexamples"))
    if key not in _KNOWN:
        _KNOWN[key] = witness_ids()
    return edge_from_node(claim, _KNOWN[key])


@checker(*EDGE_KINDS)
def check_edge_claim(claim, context=None):
    """Decide an edge claim (its printed kind, and its proof's reading as an extra row)."""
    edge = _edge(claim)
    v = check_edge(edge, context)
    if edge.reading_kind:
        t0 = time.perf_counter()
        rv = check_reading(edge, context)
        if rv is not None:
            rv.seconds = round(time.perf_counter() - t0, 3)
        if rv is not None:
            v.details["reading_verdict"] = rv.verdict
            v.details["reading_evidence"] = rv.evidence
            if context is not None:
                context.setdefault("extra_rows", []).append(rv)
    if context is not None:
        context.setdefault("verdicts", {})[edge.id] = v
    return v
