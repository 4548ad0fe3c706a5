"""``slack-removal-distance``: a class's distance under an additive slack on removal
(docs/arguments/slack-removal-distance.md).

A compares the table with the table without one record on every event with an additive slack delta
(``a <= T b + delta``, both ways; ``AdditiveSlack("removal")``), B a class's total variation distance from the table
(any classes): a class's mass on the buckets S where it lies above the table is at most the largest record's, M;
without that record the other N - 1 give T (N P - M) >= (N - 1)(P - delta) on S and
(N - 1) T (1 - P) >= N (1 - P) - (1 - M) - (N - 1) delta on its complement; their sum, the first with
(N - 1)(T - 1)(1 - M) >= 0, and the other records' mass with M <= 1 give
``U = Min((N - 1)(T - 1 + delta)/(N T - N + 1), (N - 1)(T - 1 + 2 delta)/(T + 1), (N - 1)/N)``, attained for every
N >= 3; at N = 2 the supremum is ``slack-removal-distance-pair``'s (``exact``, piece by piece).
"""

from __future__ import annotations

import sympy

from implgraph.core import methods
from implgraph.prover.answer import Bound, T, final
from implgraph.prover.arguments.slack_pairwise_distance import slack_delta, slack_distance_upper, slack_shape
from implgraph.prover.arguments.slack_removal_distance_pair import slack_removal_pair_bound
from implgraph.prover.registry import argument, certificate_parts
from implgraph.prover.shapes import decide
from implgraph.prover.tables import at, binary_column_table, frac, pair_piece_supremum

METHOD = methods.SLACK_REMOVAL_DISTANCE


def _applies(ctx):
    return slack_shape(ctx, "removal") and sympy.sympify((ctx.b_classes or {}).get("min_size", 1)) == 1


@argument(METHOD, order=181, applies=_applies)
def bound(ctx):
    return final(slack_removal_bound(slack_delta(ctx), ctx.region, ctx.N))


def _identities(N, d):
    M_, P_ = sympy.symbols("M_ P_")
    f1 = T * (N * P_ - M_) - (N - 1) * P_ + (N - 1) * d
    f2 = (N - 1) * T * (1 - P_) - N * (1 - P_) + (1 - M_) + (N - 1) * d
    near = sympy.expand((N - 1) * (T - 1 + 2 * d) - (T + 1) * (M_ - P_) - (f1 + f2)) == 0
    far = sympy.expand((N - 1) * (T - 1 + d) - (N * T - N + 1) * (M_ - P_) - (f1 + (N - 1) * (T - 1) * (1 - M_))) == 0
    mass = sympy.expand((N - 1) - N * (M_ - P_) - ((N * P_ - M_) + (N - 1) * (1 - M_))) == 0
    return near, far, mass


def slack_removal_bound(delta, region, N):
    """The bound (module notes); None where an identity fails."""
    d = sympy.sympify(delta)
    near, far, mass = _identities(N, d)
    checks = [f"(T + 1)(M - P) <= (N - 1)(T - 1 + 2 delta) (identity): {near}",
              f"(N T - N + 1)(M - P) <= (N - 1)(T - 1 + delta) (identity): {far}",
              f"N (M - P) <= N - 1 from the other records' mass and M <= 1 (identity): {mass}"]
    if not (near and far and mass):
        return None
    U = slack_distance_upper("removal", d, N)

    def build(point):
        Tv, Nv, _ = at(point, N)
        if Nv < 3:
            return None
        x = min(sympy.Integer(1), (Nv * Tv - Nv + 1) * (1 - d) / (Tv + 1) + Nv * d)
        z = max(sympy.Integer(0), (x - Nv * d) / (Nv * Tv - Nv + 1))
        return binary_column_table([frac(x)] + [frac(z)] * (Nv - 1), labels=["E1"] + ["E2"] * (Nv - 1))

    common = (f"A compares the table with the table without one record on every event with an additive slack delta = "
              f"{d} (a <= T b + delta, both ways), B is a class's total variation distance from the table (any classes): "
              "a class's mass on the buckets S where it lies above the table is at most the largest record's, M; without "
              "that record the other N - 1 have masses on S and on its complement with T (N P - M) >= (N - 1)(P - delta) "
              "and (N - 1) T (1 - P) >= N (1 - P) - (1 - M) - (N - 1) delta; their sum gives (T + 1)(M - P) <= (N - 1)(T - "
              "1 + 2 delta), the first with (N - 1)(T - 1)(1 - M) >= 0 gives (N T - N + 1)(M - P) <= (N - 1)(T - 1 + "
              f"delta), and the other records' mass N P - M >= 0 with M <= 1 gives N (M - P) <= N - 1: U = {U}")
    attained = (", attained for every N >= 3 by one record at x = Min(1, (N T - N + 1)(1 - delta)/(T + 1) + N delta) in "
                "a class of its own and N - 1 at Max(0, (x - N delta)/(N T - N + 1))")
    tight = decide(region, N >= 3) is True
    checks.append(f"N >= 3 on the condition (the family attains U there): {tight}")
    exact = None
    if not tight:
        exact = pair_piece_supremum(METHOD.name, U, build, N, common + attained, checks, region,
                                    slack_removal_pair_bound(d))
    arg = common + attained + ("" if tight else " (at N = 2 the family breaks A and the supremum is smaller: an upper "
                                                "bound there)")
    return Bound(U, tight, METHOD.name, arg, build=build, checks=checks, exact=exact)


def _slack_removal_family(cert):
    """One record at x = Min(1, (N T - N + 1)(1 - delta)/(T + 1) + N delta) in class E1, N - 1 at
    Max(0, (x - N delta)/(N T - N + 1)) in E2 (N >= 3)."""
    d = f"({cert['A']['slack']['delta']})"
    x = f"Min(1, (N*T - N + 1)*(1 - {d})/(T + 1) + N*{d})"
    return [{"count": "1", "value": x, "class": "E1"},
            {"count": "N - 1", "value": f"Max(0, ({x} - N*{d})/(N*T - N + 1))", "class": "E2"}]


@certificate_parts(METHOD, family=lambda cert, ctx: {"blocks": _slack_removal_family(cert)})
def upper_certificate(cert, ctx):
    if cert.get("tight") and "N >= 3" not in cert["domain"]:
        cert["domain"].append("N >= 3")     # the family breaks A at N = 2 (slack-removal-distance-pair there)
    cert["upper_certificate"] = {"lemma": METHOD.lemma, "multipliers": {
        "near": {"without M on S: T*(N*P - M) - (N - 1)*(P - delta) >= 0": "1",
                 "without M on the rest: (N - 1)*T*(1 - P) - N*(1 - P) + (1 - M) + (N - 1)*delta >= 0": "1"},
        "far": {"without M on S: T*(N*P - M) - (N - 1)*(P - delta) >= 0": "1", "1 - M >= 0": "(N - 1)*(T - 1)"},
        "mass": {"other records on S: N*P - M >= 0": "1", "1 - M >= 0": "N - 1"}}}
