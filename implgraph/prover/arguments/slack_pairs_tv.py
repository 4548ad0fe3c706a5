"""``slack-pairs-tv``: an (eps, delta) level, between two records or on record removal, bounds the total variation
between two records, tight for every N (docs/arguments/slack-pairs-tv.md); so does a hockey-stick level at a number
gamma >= 1 (``delta-ldp``, ``delta-dp``; total variation ``tv-dp`` at gamma = 1), whose level is the slack delta at the
ratio gamma: the same inequalities with T replaced by gamma and delta by the level.

The case: A at raw level T = e^eps declares an additive slack delta in [0, 1) on every event S, between every two
records (x_i(S) <= T x_k(S) + delta: ``eps-delta-ldp``) or between the table P and the table without one record Q_i
(P(S) <= T Q_i(S) + delta and Q_i(S) <= T P(S) + delta: ``eps-delta-dp``); B the total variation between two records
(its declared divergence compares ``pairs``, kind ``tv``). TV(x_i, x_k) = max over S of x_i(S) - x_k(S).

**Between records.** With u = x_i(S), v = x_k(S): u <= T v + delta, and on the complement
1 - v <= T (1 - u) + delta; their sum over T + 1 gives

    U = (T - 1 + 2 delta)/(T + 1)

attained for every N >= 2 by x_i = (T + delta, 1 - delta)/(T + 1) (N - 1 records) and x_k = (1 - delta, T + delta)/(T + 1)
(both events at equality).

**On record removal.** x_i - x_k = (N - 1)(Q_k - Q_i), Q_i(S) >= (P(S) - delta)/T and
Q_k(S) = 1 - Q_k(S^c) <= 1 - (1 - P(S) - delta)/T, so

    U = min(1, (N - 1)(1 - (1 - 2 delta)/T))

attained for every N >= 2 by two buckets with t = U: x_i = (1 + t, 1 - t)/2, x_k = (1 - t, 1 + t)/2, the N - 2 others
at (1/2, 1/2) (P = (1/2, 1/2); removing x_i or x_k meets both events' conditions as t <= U and
U/(N - 1) <= T - 1 + 2 delta, i.e. (T - 1)(T - 1 + 2 delta) >= 0).
"""

from __future__ import annotations

import sympy

from implgraph.core import methods
from implgraph.definitions.divergences import divergence_of
from implgraph.prover.answer import Bound, T
from implgraph.prover.registry import argument, certificate_parts
from implgraph.prover.shapes import declared_slack, slack_between
from implgraph.prover.tables import apart_rows, rows_build

METHOD = methods.SLACK_PAIRS_TV

__all__ = ["upper", "family_rows", "bound"]


def upper(compares, d, N, g=T):
    """U for A's slack ``d`` between ``compares`` (``"pairs"`` or ``"removal"``) at the ratio ``g`` (A's raw level T
    for an (eps, delta) level; for a hockey-stick level, its declared number and ``d`` = T)."""
    if compares == "pairs":
        return (g - 1 + 2 * d) / (g + 1)
    return sympy.Min(1, (N - 1) * (1 - (1 - 2 * d) / g))


def family_rows(compares, d, N, g=T):
    """The attaining family: ``[(count, first bucket's value, class)]`` of binary rows (module notes)."""
    if compares == "pairs":
        return [(N - 1, (g + d) / (g + 1), "E1"), (sympy.Integer(1), (1 - d) / (g + 1), "E2")]
    return apart_rows(N, upper(compares, d, N, g))


def _slack(ctx):
    """``(compares, delta, gamma)``: A's declared slack delta at the ratio gamma = T; or, for A a hockey-stick at a number
    gamma >= 1 (total variation: gamma = 1) between records or on removal, delta = T (its level) at that gamma; or None."""
    compares = slack_between(ctx.a)
    d = declared_slack(ctx.a, ctx.a_params, compares) if compares in ("pairs", "removal") else None
    if d is not None:
        return compares, d, T
    div = divergence_of(ctx.a, ctx.a_params)
    if div is None or div.compares not in ("pairs", "removal"):
        return None
    if div.kind == "tv":
        return div.compares, T, sympy.Integer(1)
    numeric = div.kind == "hockey-stick" and div.order.is_number and div.order.is_finite and bool(div.order >= 1)
    return (div.compares, T, div.order) if numeric else None


def _applies(ctx):
    div = divergence_of(ctx.b, ctx.b_params)
    return div is not None and div.compares == "pairs" and div.kind == "tv" and _slack(ctx) is not None


@argument(METHOD, order=174.5, applies=_applies)
def bound(ctx):
    """B the total variation between two records, A an (eps, delta) level between records or on removal."""
    compares, d, g = _slack(ctx)
    text = ("B is the total variation between two records, the largest x_i(S) - x_k(S) over events S; "
            + (f"A gives u <= {g} v + {d} on S and 1 - v <= {g} (1 - u) + {d} on its complement (u = x_i(S), "
               f"v = x_k(S)), whose sum over {g} + 1 is U; attained for every N by N - 1 records at "
               f"({g} + {d}, 1 - {d})/({g} + 1) and one at (1 - {d}, {g} + {d})/({g} + 1)" if compares == "pairs" else
               f"x_i - x_k = (N - 1)(Q_k - Q_i) and A gives Q_i(S) >= (P(S) - {d})/{g}, "
               f"Q_k(S) <= 1 - (1 - P(S) - {d})/{g}, so U = min(1, (N - 1)(1 - (1 - 2 ({d}))/{g})); attained for every "
               "N by x_i = (1 + t, 1 - t)/2, x_k = (1 - t, 1 + t)/2 and the N - 2 others at (1/2, 1/2), t = U"))
    # a hockey-stick level between records: U reaches 1 at the level T = 1 (beyond, every table is at most 1 < U)
    where = sympy.Le(T, 1) if compares == "pairs" and g != T else sympy.true
    return Bound(upper(compares, d, ctx.N, g), True, METHOD.name, text,
                 build=rows_build(family_rows(compares, d, ctx.N, g)), attained_where=where,
                 checks=[f"A's slack delta = {d} at the ratio {g} between {compares}"])


def _level(cert, ctx):
    """``(compares, delta, gamma)`` from the certificate's A side: its slack, or its divergence (the registry's)."""
    slack = cert["A"].get("slack")
    if slack:
        return slack["compares"], sympy.Rational(str(slack["delta"])), T
    from implgraph.definitions import get
    div = divergence_of(get(cert["A"]["definition"]), cert["A"].get("params"))
    return div.compares, T, sympy.Integer(1) if div.kind == "tv" else div.order


def _upper_certificate(cert, ctx):
    """The lemma data: B's kind, and A's slack or A's divergence (its kind, gamma and what it compares)."""
    compares, _, g = _level(cert, ctx)
    cert["upper_certificate"] = {"lemma": METHOD.lemma, "kind": "tv", "compares": "pairs",
                                 "slack": cert["A"].get("slack"),
                                 "a_divergence": None if cert["A"].get("slack") else {"compares": compares,
                                                                                     "gamma": str(g)}}


def _family(cert, ctx):
    """The attaining family's binary rows in T and N (for a hockey-stick level between records, where T <= 1)."""
    compares, d, g = _level(cert, ctx)
    out = {"rows": [{"count": str(c), "value": str(v), "class": k} for c, v, k in family_rows(compares, d, ctx.N, g)]}
    if compares == "pairs" and g != T:
        out["domain"] = ["T <= 1"]
    return out


certificate_parts(METHOD, family=_family)(_upper_certificate)
