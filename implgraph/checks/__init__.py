"""Claim checkers: one module per claim kind (and per shape of a kind), and the dispatch.

Every checker module registers its checkers with :func:`implgraph.core.verdict.checker` when it is
imported; this package imports each of them explicitly, in the order their shape predicates are tried
(:data:`implgraph.core.verdict.CHECKERS`). :func:`check_claim` dispatches a claim to its checker.

Table claims: :mod:`.level` (``kind: level``), :mod:`.unbounded` (``kind: unbounded``).
Edge claims: :mod:`.edges` dispatching to :mod:`.implies`, :mod:`.not_implies` and :mod:`.equivalent`.
Formula claims: :mod:`.math_claims`; maps: :mod:`.maps`, :mod:`.reachability`.
Mechanism claims (by the data's shape): :mod:`.mechanism_level`, :mod:`.utility_equation`,
:mod:`.rounded_value`, :mod:`.figure`, :mod:`.unique_solution`, :mod:`.converse`, :mod:`.layout_table`;
the randomized set channel (``mechanism: {set_channel: ...}``): :mod:`.set_channel`; a transportation program's
convexity (``kind: math`` with ``linear_program:``): :mod:`.lp_convexity`.
"""

from __future__ import annotations

import time

# the order matters: checkers of one kind with a shape predicate are tried in this order
from implgraph.checks import mechanism_level  # noqa: I001 (registration order)
from implgraph.checks import utility_equation
from implgraph.checks import rounded_value
from implgraph.checks import figure
from implgraph.checks import unique_solution
from implgraph.checks import converse
from implgraph.checks import layout_table
from implgraph.checks import level
from implgraph.checks import unbounded
from implgraph.checks import edges
from implgraph.checks import math_claims
from implgraph.checks import maps
from implgraph.checks import reachability
from implgraph.checks import lp_convexity
from implgraph.checks import set_channel
from implgraph.core.verdict import CHECKERS, Verdict

__all__ = ["check_claim", "find_checker", "load_checkers"]

_REGISTERING = (mechanism_level, utility_equation, rounded_value, figure, unique_solution, converse, layout_table,
                level, unbounded, edges, math_claims, maps, reachability, lp_convexity, set_channel)


def load_checkers() -> tuple:
    """The modules that register checkers (imported with this package; they register on import)."""
    return _REGISTERING


def find_checker(claim):
    """The checker for ``claim``: the first of its kind whose predicate holds (None if there is none)."""
    for when, func in CHECKERS.get(claim.get("kind"), []):
        if when is None or when(claim):
            return func
    return None


def check_claim(claim, context=None) -> Verdict:
    """Dispatch a claim (a data-file mapping with ``kind``) to its checker; time it."""
    kind = claim.get("kind")
    func = find_checker(claim)
    start = time.perf_counter()
    if func is None:
        v = Verdict(id=str(claim.get("id")), verdict="unknown", printed=str(claim.get("printed", "")),
                    evidence=f"no checker for claim kind {kind!r}")
    else:
        v = func(claim, context)
    v.seconds = round(time.perf_counter() - start, 3)
    if v.expect is None and claim.get("expect"):
        v.expect = str(claim.get("expect"))
    if not v.source and claim.get("source"):
        v.source = str(claim.get("source"))
    return v
