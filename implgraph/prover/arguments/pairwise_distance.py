"""``pairwise-distance``: a class's total variation distance under pairwise ratios
(docs/arguments/pairwise-distance.md).

A pairwise, B a class's total variation distance from the table (classes of >= s records, no maximum). For a class E
of e records and the buckets S where E lies above the table, let X and Y be the means, on S, of E's records and of the
others: B's distance for E is x - P = (N - e)(X - Y)/N. Every record of E and every other record are within ratio T on
S and on its complement (A, a mediant), so averaging, X <= T Y and T (1 - X) >= 1 - Y, whence
(T + 1)(X - Y) <= T - 1: ``U = (N - s)(T - 1)/(N (T + 1))``, tight: s records at T/(T + 1) in one class, the rest at
1/(T + 1) (binary rows).
"""

from __future__ import annotations

import sympy

from implgraph.core import methods
from implgraph.prover.answer import Bound, T, final
from implgraph.prover.parts import two_classes
from implgraph.prover.registry import argument, certificate_parts
from implgraph.prover.shapes import compares
from implgraph.prover.tables import two_blocks

METHOD = methods.PAIRWISE_DISTANCE


def _applies(ctx):
    return compares(ctx.a, "pairwise") and ctx.b_distance == "total-variation" \
        and not (ctx.b_classes or {}).get("max_size")


@argument(METHOD, order=120, applies=_applies)
def bound(ctx):
    return final(pairwise_distance_bound(sympy.sympify(ctx.b_classes["min_size"]), ctx.N))


def pairwise_distance_bound(s, N):
    """The bound (module notes); None where the identity fails."""
    X_, Y_, e_ = sympy.symbols("X_ Y_ e_")
    h1, h2 = T * Y_ - X_, T * (1 - X_) - (1 - Y_)
    ok = sympy.expand((N - s) * (T - 1) - (T + 1) * (N - e_) * (X_ - Y_)
                      - ((N - e_) * (h1 + h2) + (T - 1) * (e_ - s))) == 0
    checks = [f"(T + 1)(N - e)(X - Y) <= (N - s)(T - 1) from A on S and on its complement (identity): {ok}"]
    if not ok:
        return None
    U = (N - s) * (T - 1) / (N * (T + 1))

    build = two_blocks(N, s, lambda Tv, Nv, sv: (Tv / (Tv + 1), 1 / (Tv + 1)))

    arg = (f"A is pairwise, B a class's total variation distance from the table (classes of >= {s} records): for a "
           "class E of e records and the buckets S where E lies above the table, with X and Y the means on S of "
           "E's records and of the others, B's distance for E is (N - e)(X - Y)/N; every record of E and every "
           "other record are within ratio T on S and on its complement (a mediant), so X <= T Y and "
           "T (1 - X) >= 1 - Y, and (T + 1)(N - e)(X - Y) <= (N - s)(T - 1) (multipliers N - e, N - e, T - 1; "
           f"e >= s): U = {U}, attained by s records at T/(T + 1) in one class and the rest at 1/(T + 1)")
    return Bound(U, True, METHOD.name, arg, build=build, checks=checks)


def _pairwise_distance_family(B):
    """s records at T/(T + 1) in class E1, N - s at 1/(T + 1) in E2."""
    s_ = f"({B.get('min_class', '1')})"
    return [{"count": s_, "value": "T/(T + 1)", "class": "E1"},
            {"count": f"N - {s_}", "value": "1/(T + 1)", "class": "E2"}]


@certificate_parts(METHOD, family=lambda cert, ctx: {"blocks": _pairwise_distance_family(cert["B"])})
def upper_certificate(cert, ctx):
    s_ = cert["B"].get("min_class", "1")
    two_classes(cert, s_)
    cert["upper_certificate"] = {"lemma": METHOD.lemma, "multipliers": {
        "pairs": {"A on S: T*Y - X >= 0": "N - e_", "A on the rest: T*(1 - X) - (1 - Y) >= 0": "N - e_",
                  "e - s >= 0": "T - 1"}}}
