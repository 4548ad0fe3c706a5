"""``slack-pairwise-distance``: a class's distance under an additive slack on pairs
(docs/arguments/slack-pairwise-distance.md).

A's constraints ``a <= T b + delta`` between two records on every event (``AdditiveSlack("pairs")``), B a class's
total variation distance (classes of >= s records, no maximum): for a class E of e records and the buckets S where E
lies above the table, with X and Y the means on S of E's records and of the others, B's distance for E is
(N - e)(X - Y)/N; averaging A's constraints, X <= T Y + delta on S and 1 - Y <= T (1 - X) + delta on its complement, so
(T + 1)(N - e)(X - Y) <= (N - s)(T - 1 + 2 delta): ``U = (N - s)(T - 1 + 2 delta)/(N (T + 1))``, tight: s records at
(T + delta)/(T + 1) in one class and the rest at (1 - delta)/(T + 1).
"""

from __future__ import annotations

import sympy

from implgraph.core import methods
from implgraph.prover.answer import Bound, T, final
from implgraph.prover.parts import two_classes
from implgraph.prover.registry import argument, certificate_parts
from implgraph.prover.shapes import any_partition, slack_between
from implgraph.prover.tables import two_blocks

METHOD = methods.SLACK_PAIRWISE_DISTANCE


def slack_delta(ctx):
    """A's additive slack delta where A declares one (``AdditiveSlack``), else None."""
    return sympy.sympify(ctx.a_params.get("delta", "none")) if slack_between(ctx.a) else None


def slack_shape(ctx, compares_slack):
    """A's constraints ``a <= T b + delta`` (delta rational in [0, 1)) between the records ``compares_slack`` names, on
    any partition; B a class's total variation distance, no maximum class size."""
    delta = slack_delta(ctx)
    return slack_between(ctx.a) == compares_slack and delta is not None and delta.is_Rational \
        and 0 <= delta < 1 and ctx.b_distance == "total-variation" and not (ctx.b_classes or {}).get("max_size") \
        and any_partition(ctx.a_classes)


@argument(METHOD, order=180, applies=lambda ctx: slack_shape(ctx, "pairs"))
def bound(ctx):
    s = sympy.sympify((ctx.b_classes or {}).get("min_size", 1))
    return final(slack_pairwise_bound(slack_delta(ctx), s, ctx.N))


def slack_distance_upper(compares, delta, N, s=1):
    """U of the ``slack-pairwise-distance`` argument (``compares == "pairs"``: ``(N - s)(T - 1 + 2 delta)/(N (T + 1))``)
    or of ``slack-removal-distance`` (``"removal"``: ``Min((N - 1)(T - 1 + delta)/(N T - N + 1),
    (N - 1)(T - 1 + 2 delta)/(T + 1), (N - 1)/N)``), raw levels, T = e^eps."""
    if compares == "pairs":
        return (N - s) * (T - 1 + 2 * delta) / (N * (T + 1))
    return sympy.Min((N - 1) * (T - 1 + delta) / (N * T - N + 1), (N - 1) * (T - 1 + 2 * delta) / (T + 1), (N - 1) / N)


def slack_pairwise_bound(delta, s, N):
    """The bound (module notes); None where the identity fails."""
    d = sympy.sympify(delta)
    X_, Y_, e_ = sympy.symbols("X_ Y_ e_")
    h1, h2 = T * Y_ - X_ + d, T * (1 - X_) - (1 - Y_) + d
    ok = sympy.expand((N - s) * (T - 1 + 2 * d) - (T + 1) * (N - e_) * (X_ - Y_)
                      - ((N - e_) * (h1 + h2) + (T - 1 + 2 * d) * (e_ - s))) == 0
    checks = [f"(T + 1)(N - e)(X - Y) <= (N - s)(T - 1 + 2 delta) from A on S and on its complement (identity): {ok}"]
    if not ok:
        return None
    U = slack_distance_upper("pairs", d, N, s)

    build = two_blocks(N, s, lambda Tv, Nv, sv: ((Tv + d) / (Tv + 1), (1 - d) / (Tv + 1)))
    arg = (f"A compares two records on every event with an additive slack delta = {d} (a <= T b + delta), B is a "
           f"class's total variation distance from the table (classes of >= {s} records): for a class E of e records "
           "and the buckets S where E lies above the table, with X and Y the means on S of E's records and of the "
           "others, B's distance for E is (N - e)(X - Y)/N; averaging A's constraints over the pairs, X <= T Y + "
           "delta on S and 1 - Y <= T (1 - X) + delta on its complement, so (T + 1)(N - e)(X - Y) <= (N - s)(T - 1 + "
           f"2 delta) (multipliers N - e, N - e, T - 1 + 2 delta; e >= s): U = {U}, attained by s records at "
           "(T + delta)/(T + 1) in one class and the rest at (1 - delta)/(T + 1)")
    return Bound(U, True, METHOD.name, arg, build=build, checks=checks)


def _slack_pairwise_family(cert):
    """s records at (T + delta)/(T + 1) in class E1, N - s at (1 - delta)/(T + 1) in E2."""
    s_, d = f"({cert['B'].get('min_class', '1')})", f"({cert['A']['slack']['delta']})"
    return [{"count": s_, "value": f"(T + {d})/(T + 1)", "class": "E1"},
            {"count": f"N - {s_}", "value": f"(1 - {d})/(T + 1)", "class": "E2"}]


@certificate_parts(METHOD, family=lambda cert, ctx: {"blocks": _slack_pairwise_family(cert)})
def upper_certificate(cert, ctx):
    s_, d = cert["B"].get("min_class", "1"), f"({cert['A']['slack']['delta']})"
    two_classes(cert, s_)
    cert["upper_certificate"] = {"lemma": METHOD.lemma, "multipliers": {
        "pairs": {"A on S: T*Y - X + delta >= 0": "N - e_", "A on the rest: T*(1 - X) - (1 - Y) + delta >= 0": "N - e_",
                  "e - s >= 0": f"T - 1 + 2*{d}"}}}
