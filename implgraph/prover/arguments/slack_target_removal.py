"""``slack-target-removal``: an additive slack on record removal as the target, under a ratio bound on record removal
(docs/arguments/slack-target-removal.md).

A bounds by T the ratio between the table and the table without one record on every event (a two-sided subset level
of size N - 1, as eps-DP on record removal), B is that comparison with an additive slack delta in (0, 1):
``a <= e^eps b + delta``. For the table's mass x on an event and the mass y left when a record is removed, A gives
h1 = T y - x >= 0, and ``T y - x + delta = h1 + delta >= 0``: B's raw level is at most U = T. The same obligation as
``slack-target-pairs``' first (two masses on an event); unlike two records, a table and the table without one record
cannot take every such pair of masses, so the bound is not claimed tight.
"""

from __future__ import annotations

import sympy

from implgraph.core import methods
from implgraph.core.simplified import simplified
from implgraph.prover.answer import Bound, T
from implgraph.prover.registry import argument, certificate_parts
from implgraph.prover.shapes import declared_slack, slack_between

METHOD = methods.SLACK_TARGET_REMOVAL


def _applies(ctx):
    d = declared_slack(ctx.b, ctx.b_params)
    return d is not None and d > 0 and ctx.ja is not None and not slack_between(ctx.a) \
        and simplified(ctx.ja - (ctx.N - 1)) == 0


@argument(METHOD, order=172, applies=_applies)
def bound(ctx):
    d = declared_slack(ctx.b, ctx.b_params)
    x_, y_ = sympy.symbols("x_ y_")
    h1 = T * y_ - x_
    ok = sympy.expand(T * y_ - x_ + d - (h1 + d)) == 0
    arg = (f"B compares the table with the table without one record with an additive slack delta = {d} on every event "
           "(its raw level the least e^eps >= 1 with x <= e^eps y + delta both ways, x and y the two tables' masses on "
           "the event), A bounds the ratio of the same two masses by T on every event: h1 = T y - x >= 0, and "
           "T y - x + delta = h1 + delta >= 0 (multipliers 1, 1): U = T, an upper bound (the tight f is not derived: "
           "a table and the table without one record do not take every pair of masses two records do)")
    return Bound(T, False, METHOD.name, arg, checks=[f"T y - x + delta = h1 + delta (identity): {ok}"])


@certificate_parts(METHOD)
def upper_certificate(cert, ctx):
    """U = T only: ``T*y - x + delta = h1 + delta``."""
    cert["upper_certificate"] = {"lemma": METHOD.lemma, "multipliers": {
        "ratio": {"A on the event: T*y - x >= 0": "1", "delta >= 0": "1"}}}
