"""``slack-pairs-to-removal``: an additive slack between any two records bounds the one of record removal
(docs/arguments/slack-pairs-to-removal.md).

A compares any two records with an additive slack delta_A (``x_i <= T x_k + delta_A`` on every event), B the table with
the table without one record with a slack delta_B >= delta_A. Averaging A over the records k other than i gives
``x_i <= T Q_i + delta_A`` (Q_i the mean of the others), and ``N (T Q_i + delta_B - P) = (T Q_i + delta_A - x_i) +
(N - 1)(T - 1) Q_i + (N - 1) delta_A + N (delta_B - delta_A) >= 0`` with P = ((N - 1) Q_i + x_i)/N; averaging A over
every record m (m = k included, where ``x_k <= T x_k + delta_A`` holds as T >= 1) gives ``x_k <= T P + delta_A`` for
each record k, and over the records k other than i, ``Q_i <= T P + delta_A <= T P + delta_B``. B's raw level is at most
U = T, an upper bound (tightness not derived).
"""

from __future__ import annotations

import sympy

from implgraph.core import methods
from implgraph.prover.answer import Bound, T
from implgraph.prover.registry import argument, certificate_parts
from implgraph.prover.shapes import declared_slack

METHOD = methods.SLACK_PAIRS_TO_REMOVAL


def _deltas(ctx):
    return declared_slack(ctx.a, ctx.a_params, "pairs"), declared_slack(ctx.b, ctx.b_params)


def _applies(ctx):
    da, db = _deltas(ctx)
    return da is not None and db is not None and da <= db


@argument(METHOD, order=174, applies=_applies)
def bound(ctx):
    da, db = _deltas(ctx)
    N = ctx.N
    x_, q_ = sympy.symbols("x_ q_")
    h1 = T * q_ + da - x_
    first = sympy.expand(N * (T * q_ + db) - ((N - 1) * q_ + x_)
                         - (h1 + (N - 1) * (T - 1) * q_ + (N - 1) * da + N * (db - da))) == 0
    arg = (f"A compares any two records with an additive slack delta = {da} on every event (x_i <= T x_k + delta), B "
           f"the table with the table without one record with delta = {db} >= {da}: averaged over the records k other "
           "than i, x_i <= T Q_i + delta (Q_i their mean), and with P = ((N - 1) Q_i + x_i)/N, N (T Q_i + delta_B - P) = "
           "(T Q_i + delta_A - x_i) + (N - 1)(T - 1) Q_i + (N - 1) delta_A + N (delta_B - delta_A) >= 0; averaged over "
           "every record m (x_k <= T x_k + delta as T >= 1), x_k <= T P + delta_A for each k, and over the records other "
           "than i, Q_i <= T P + delta_A <= T P + delta_B: U = T, an upper bound (tightness not derived)")
    return Bound(T, False, METHOD.name, arg,
                 checks=[f"N (T Q + delta_B - P) = h1 + (N - 1)(T - 1) Q + (N - 1) delta_A + N (delta_B - delta_A) "
                         f"(identity): {first}"])


@certificate_parts(METHOD)
def upper_certificate(cert, ctx):
    """U = T: the two averagings of A's pairs."""
    cert["upper_certificate"] = {"lemma": METHOD.lemma, "multipliers": {
        "removed": {"A averaged over the others: T*q - x + delta_A >= 0": "1", "q >= 0": "(N - 1)*(T - 1)",
                    "delta_A >= 0": "N - 1", "delta_B - delta_A >= 0": "N"},
        "kept": {"A averaged over the table, then over the others: T*((N - 1)*q + x) - N*q + N*delta_A >= 0": "1",
                 "delta_B - delta_A >= 0": "N"}}}
