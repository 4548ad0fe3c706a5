"""The checker's lemmas towards an additive slack on record removal ((eps, delta)-DP).

``slack-target-removal`` (method ``slack-target-removal``)
    A a two-sided subset level of size N - 1 (the table against the table without one record, eps-DP on record
    removal) without a slack, B the same comparison with an additive slack delta in (0, 1) (``B["slack"]``,
    ``compares == "removal"``). With x and y the two tables' masses on an event, A gives h1 = T y - x >= 0;
    U = T: ``T y - x + delta >= 0`` from h1 and delta >= 0 (multipliers 1, 1). Stated only as an upper bound.

``slack-averaging`` (method ``slack-pairs-to-removal``)
    A an additive slack delta_A between any two records (``A["slack"]``, ``compares == "pairs"``), B an additive
    slack delta_B >= delta_A on record removal, U = T. With x a record's mass on an event and q the mean of the
    other N - 1 records' masses, A averaged over the others gives ``T q - x + delta_A >= 0``, and averaged over the
    whole table (a record against itself: x <= T x + delta_A as T >= 1), then over the others,
    ``T ((N - 1) q + x) - N q + N delta_A >= 0``. The obligations, with P = ((N - 1) q + x)/N:
    *removed* ``N (T q + delta_B) - ((N - 1) q + x) >= 0`` (P <= T q + delta_B), and *kept*
    ``T ((N - 1) q + x) - N q + N delta_B >= 0`` (q <= T P + delta_B), each as the certificate's multipliers times
    those facts.
"""

from __future__ import annotations

from fractions import Fraction

__all__ = ["removal_structure", "removal_obligations", "averaging_structure", "averaging_obligations"]


def _slack(side, compares):
    """The side's additive slack delta (a Fraction in [0, 1)) where it declares one comparing ``compares``."""
    slack = side.get("slack") or {}
    if slack.get("compares") != compares:
        return None
    try:
        d = Fraction(str(slack.get("delta")))
    except (ValueError, ZeroDivisionError):
        return None
    return d if 0 <= d < 1 else None


def _is_T(cert, rd):
    try:
        P, Q = rd.ratio(cert["upper"])
    except ValueError:
        return False
    return P == rd.gens["T"] * Q


def _multipliers(data, rd):
    return {k: {f: rd.poly(x) for f, x in v.items()} for k, v in (data.get("multipliers") or {}).items()}


def removal_structure(cert, A, B, rd):
    """The shape of ``slack-target-removal``."""
    N = rd.gens["N"]
    d = _slack(B, "removal")
    removal = (A.get("family") == "subset" and A.get("sides") == "two-sided" and not A.get("slack")
               and rd.poly(A.get("size") or 0) == N - 1)
    return [("A the table against the table without one record (a two-sided subset level of size N - 1), B the same "
             "comparison with a slack delta in (0, 1)", removal and d is not None and d > 0),
            ("U = T", _is_T(cert, rd))]


def removal_obligations(cert, A, B, rd, data, Obligation):
    """The obligations of ``slack-target-removal``."""
    g = rd.gens
    T, X, Y = g["T"], g["b_"], g["a_"]
    d = _slack(B, "removal")
    if d is None:
        return []
    h1 = T * Y - X
    box = [(">=", X), (">=", 1 - X), (">=", Y), (">=", 1 - Y), (">=", T - 1)]
    facts = {"A on the event: T*y - x >= 0": h1, "delta >= 0": d * rd.poly("1")}
    return [Obligation("ratio: T*y - x + delta >= 0 (x <= U y + delta)", T * Y - X + d, box + [(">=", h1)],
                       facts=facts, multipliers=_multipliers(data, rd).get("ratio")),
            Obligation("U >= 1: T - 1 >= 0", T - 1, [])]


def averaging_structure(cert, A, B, rd):
    """The shape of ``slack-averaging``."""
    da, db = _slack(A, "pairs"), _slack(B, "removal")
    return [("A an additive slack between any two records, B one on record removal with delta_B >= delta_A",
             da is not None and db is not None and da <= db),
            ("U = T", _is_T(cert, rd))]


def averaging_obligations(cert, A, B, rd, data, Obligation):
    """The obligations of ``slack-averaging`` (see the module notes)."""
    g = rd.gens
    T, N, X, Q = g["T"], g["N"], g["b_"], g["q_"]
    da, db = _slack(A, "pairs"), _slack(B, "removal")
    if da is None or db is None:
        return []
    one = rd.poly("1")
    removed = T * Q - X + da
    kept = T * ((N - 1) * Q + X) - N * Q + N * da
    box = [(">=", X), (">=", 1 - X), (">=", Q), (">=", 1 - Q), (">=", T - 1), (">=", N - 2)]
    facts = {"A averaged over the others: T*q - x + delta_A >= 0": removed, "q >= 0": Q,
             "delta_A >= 0": da * one, "delta_B - delta_A >= 0": (db - da) * one,
             "A averaged over the table, then over the others: T*((N - 1)*q + x) - N*q + N*delta_A >= 0": kept}
    mults = _multipliers(data, rd)
    return [Obligation("removed: N*(T*q + delta_B) - ((N - 1)*q + x) >= 0 (P <= T q + delta_B)",
                       N * (T * Q + db) - ((N - 1) * Q + X), box + [(">=", removed)], facts=facts,
                       multipliers=mults.get("removed")),
            Obligation("kept: T*((N - 1)*q + x) - N*q + N*delta_B >= 0 (q <= T P + delta_B)",
                       T * ((N - 1) * Q + X) - N * Q + N * db, box + [(">=", kept)], facts=facts,
                       multipliers=mults.get("kept")),
            Obligation("U >= 1: T - 1 >= 0", T - 1, [])]
