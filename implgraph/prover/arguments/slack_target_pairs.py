"""``slack-target-pairs``: an additive slack between two records as the target (docs/arguments/slack-target-pairs.md).

A a two-sided pairwise ratio level, B two records compared with an additive slack ``d`` in (0, 1) on every event: from
h1 = T y - x >= 0 and h2 = T (1 - x) - (1 - y) >= 0 (A summed over the event's buckets and its complement's),
T y - x + d = h1 + d >= 0 gives ``U = T`` everywhere (an upper bound), and the supremum is Max(1, (1 - d) T - d), one
piece each side of T = (1 + d)/(1 - d), each with its certificate: where (1 - d) T <= 1 + d,
(T + 1)(y - x + d) = h1 + h2 + ((1 + d) - (1 - d) T) >= 0 (U = 1), elsewhere
(T - 1)(U y - x + d) = (T - 1 - d T) h1 + d h2 >= 0, attained by one record at T/(T + 1) and N - 1 at 1/(T + 1).
"""

from __future__ import annotations

import sympy

from implgraph.core import methods
from implgraph.prover.answer import Bound, T, final
from implgraph.prover.registry import argument, certificate_parts
from implgraph.prover.shapes import compares, slack_between
from implgraph.prover.tables import at, binary_column_table, frac, piecewise_supremum

METHOD = methods.SLACK_TARGET_PAIRS


def _target(ctx):
    """B's slack between two records where B compares pairs with one, else None."""
    return sympy.sympify(ctx.b_params.get("delta", "none")) if slack_between(ctx.b) == "pairs" \
        else None


def _applies(ctx):
    target = _target(ctx)
    return target is not None and target.is_Rational and 0 < target < 1 and compares(ctx.a, "pairwise") \
        and not slack_between(ctx.a)


@argument(METHOD, order=170, applies=_applies)
def bound(ctx):
    return final(slack_target_bound(_target(ctx), ctx.region, ctx.N))


def _identities(d):
    x_, y_ = sympy.symbols("x_ y_")
    h1, h2 = T * y_ - x_, T * (1 - x_) - (1 - y_)
    U = (1 - d) * T - d
    flat_c = (1 + d) - (1 - d) * T
    ok = [sympy.expand(T * y_ - x_ + d - (h1 + d)) == 0,
          sympy.expand((T + 1) * (y_ - x_ + d) - (h1 + h2 + flat_c)) == 0,
          sympy.expand((T - 1) * (U * y_ - x_ + d) - ((T - 1 - d * T) * h1 + d * h2)) == 0]
    checks = [f"T y - x + delta = h1 + delta (identity): {ok[0]}",
              f"(T + 1)(y - x + delta) = h1 + h2 + ((1 + delta) - (1 - delta) T) (identity): {ok[1]}",
              f"(T - 1)(U y - x + delta) = (T - 1 - delta T) h1 + delta h2 (identity): {ok[2]}"]
    return U, flat_c, ok, checks


def slack_target_bound(d, region, N):
    """U = T (an upper bound) with the piecewise supremum as ``exact`` (module notes); None if an identity fails."""
    U, flat_c, ok, checks = _identities(d)
    if not all(ok):
        return None
    common = (f"B compares two records with an additive slack delta = {d} on every event (its raw level the least e^eps "
              ">= 1 with x <= e^eps y + delta, x and y two records' masses on the event), A bounds the ratio of any two "
              "records in every bucket by T: summed over the event's buckets and over its complement's, h1 = T y - x "
              ">= 0 and h2 = T (1 - x) - (1 - y) >= 0")

    def build(point):
        Tv, Nv, _ = at(point, N)
        return binary_column_table([frac(Tv / (Tv + 1))] + [frac(1 / (Tv + 1))] * (Nv - 1))
    flat = Bound(sympy.Integer(1), True, METHOD.name,
                 common + "; where (1 - delta) T <= 1 + delta, (T + 1)(y - x + delta) = h1 + h2 + ((1 + delta) - "
                 "(1 - delta) T) >= 0 (multipliers 1, 1, 1): U = 1, B's strongest level, which every table meets",
                 build=build, checks=checks[1:2])
    slope = Bound(U, True, METHOD.name,
                  common + f"; where (1 - delta) T >= 1 + delta, (T - 1)(U y - x + delta) = (T - 1 - delta T) h1 + "
                  f"delta h2 >= 0 (multipliers >= 0 there, T > 1): U = {U}, attained by one record at T/(T + 1) and "
                  "N - 1 at 1/(T + 1) (their ratio T in each bucket; on the first bucket (x - delta)/y = T - delta "
                  "(T + 1))", build=build, checks=checks[2:3])
    exact = piecewise_supremum(METHOD.name, [(flat_c >= 0, "where (1 - delta) T <= 1 + delta", flat),
                                             (flat_c <= 0, "elsewhere", slope)], region)
    return Bound(T, False, METHOD.name,
                 common + "; T y - x + delta = h1 + delta >= 0 (multipliers 1, 1): U = T, an upper bound; the supremum "
                 "is piecewise", checks=checks[:1], exact=exact)


@certificate_parts(METHOD, family=lambda cert, ctx: {"blocks": [{"count": "1", "value": "T/(T + 1)"},
                                                               {"count": "N - 1", "value": "1/(T + 1)"}]})
def upper_certificate(cert, ctx):
    d = f"({cert['B']['slack']['delta']})"
    U = sympy.sympify(cert["upper"])
    h1, h2 = "A on the event: T*y - x >= 0", "A on the complement: T*(1 - x) - (1 - y) >= 0"
    if str(U) == "T":
        mults = {"ratio": {h1: "1", "delta >= 0": "1"}}
    elif U == 1:
        mults = {"flat": {h1: "1", h2: "1", "(1 + delta) - (1 - delta)*T >= 0": "1"}}
    else:
        mults = {"slope": {h1: f"T - 1 - {d}*T", h2: d}}
    cert["upper_certificate"] = {"lemma": METHOD.lemma, "multipliers": mults}
