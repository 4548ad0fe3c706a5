"""Two arguments towards (eps, delta)-DP on record removal: upper bounds for every N, not claimed tight.

``slack-target-removal``
    A bounds by T the ratio between the table and the table without one record on every event (a
    two-sided subset level of size N - 1, as eps-DP on record removal), B is that comparison with an
    additive slack delta in (0, 1): ``a <= e^eps b + delta``. For the table's mass x on an event and the
    mass y left when a record is removed, A gives h1 = T y - x >= 0, and ``T y - x + delta = h1 + delta
    >= 0``: B's raw level is at most U = T. The same obligations as ``slack-target-pairs`` (two masses on
    an event and on its complement); unlike two records, a table and the table without one record
    cannot take every such pair of masses, so the bound is not claimed tight.

``slack-pairs-to-removal``
    A compares any two records with an additive slack delta_A (``x_i <= T x_k + delta_A`` on every event),
    B the table with the table without one record with a slack delta_B >= delta_A. Averaging A over the
    records k other than i gives ``x_i <= T Q_i + delta_A`` (Q_i the mean of the others), and
    ``N (T Q_i + delta_B - P) = (T Q_i + delta_A - x_i) + (N - 1)(T - 1) Q_i + (N - 1) delta_A + N (delta_B -
    delta_A)`` >= 0 with P = ((N - 1) Q_i + x_i)/N; averaging A over every record m (m = k included, where
    ``x_k <= T x_k + delta_A`` holds as T >= 1) gives ``x_k <= T P + delta_A`` for each record k, and over the
    records k other than i, ``Q_i <= T P + delta_A <= T P + delta_B``. B's raw level is at most U = T.
"""

from __future__ import annotations

import sympy

from implgraph.core import methods

__all__ = ["slack_target_removal_bound", "slack_pairs_to_removal_bound"]


def slack_target_removal_bound(d, N, Bound, T):
    """``slack-target-removal``: U = T, an upper bound (see the module notes); ``d`` is B's delta in (0, 1)."""
    x_, y_ = sympy.symbols("x_ y_")
    h1 = T * y_ - x_
    ok = sympy.expand(T * y_ - x_ + d - (h1 + d)) == 0
    arg = (f"B compares the table with the table without one record with an additive slack delta = {d} on every event "
           "(its raw level the least e^eps >= 1 with x <= e^eps y + delta both ways, x and y the two tables' masses on "
           "the event), A bounds the ratio of the same two masses by T on every event: h1 = T y - x >= 0, and "
           "T y - x + delta = h1 + delta >= 0 (multipliers 1, 1): U = T, an upper bound (the tight f is not derived: "
           "a table and the table without one record do not take every pair of masses two records do)")
    return Bound(T, False, methods.SLACK_TARGET_REMOVAL.name, arg,
                 checks=[f"T y - x + delta = h1 + delta (identity): {ok}"])


def slack_pairs_to_removal_bound(da, db, N, Bound, T):
    """``slack-pairs-to-removal``: U = T, an upper bound; ``da`` is A's delta, ``db`` B's (0 <= da <= db < 1)."""
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
    return Bound(T, False, methods.SLACK_PAIRS_TO_REMOVAL.name, arg,
                 checks=[f"N (T Q + delta_B - P) = h1 + (N - 1)(T - 1) Q + (N - 1) delta_A + N (delta_B - delta_A) "
                         f"(identity): {first}"])
