"""The lemma ``slack-target-pairs``: an additive slack between two records as the target.

A a two-sided pairwise ratio level <= T (every ordered pair of records, every bucket), B comparing two records with
an additive slack (``B["slack"]``, ``compares == "pairs"``, delta a number in (0, 1)): B's raw level is the least
e^eps >= 1 with x <= e^eps y + delta for the masses x, y of two records on every event. Summing A over the event's
buckets, h1 = T y - x >= 0, and over the complement's, h2 = T (1 - x) - (1 - y) >= 0. ``U`` is one of: ``T``
(*ratio* ``T y - x + delta >= 0``, multipliers 1 on h1 and on delta >= 0); ``1`` where the domain gives
(1 + delta) - (1 - delta) T >= 0 (*flat* ``(T + 1)(y - x + delta) >= 0``, multipliers 1 on h1, h2 and that
condition; T + 1 > 0); ``(1 - delta) T - delta`` where the domain gives (1 - delta) T - 1 - delta >= 0 (*slope*
``(T - 1)(U y - x + delta) >= 0``, multipliers T - 1 - delta T on h1 and delta on h2, each >= 0 on the domain;
T - 1 > 0). In each case ``U >= 1`` on the domain, so e^eps = U meets every constraint.
"""

from __future__ import annotations

from implgraph.certify.lemmas import lemma
from implgraph.certify.obligation import Obligation, multipliers, slack, two_sided, upper_is
from implgraph.core import methods


def _slack_target_kind(cert, B, rd):
    """``(delta, kind)`` of a ``slack-target-pairs`` certificate: B's slack delta in (0, 1) and which U it states,
    ``"ratio"`` (T), ``"flat"`` (1) or ``"slope"`` ((1 - delta) T - delta); ``(delta, None)`` otherwise."""
    T = rd.gens["T"]
    d = slack(B, "pairs")
    if d is None or d <= 0:
        return d, None
    return d, next((k for k, num in (("ratio", T), ("flat", rd.poly("1")), ("slope", (1 - d) * T - d))
                    if upper_is(cert, rd, num, 1)), None)


def _slack_target_structure(cert, A, B, rd):
    d, kind = _slack_target_kind(cert, B, rd)
    return [("A a two-sided pairwise ratio level, B two records compared with a slack delta in (0, 1)",
             d is not None and d > 0 and A.get("family") == "pairwise" and two_sided(A) and not A.get("slack")),
            ("U = T, 1 or (1 - delta) T - delta", kind is not None)]


def _slack_target(cert, A, B, rd, data):
    """The obligations of ``slack-target-pairs`` (see the module notes)."""
    g = rd.gens
    T, X, Y = g["T"], g["b_"], g["a_"]
    d, kind = _slack_target_kind(cert, B, rd)
    if kind is None:
        return []
    mults = multipliers(data, rd)
    h1, h2 = T * Y - X, T * (1 - X) - (1 - Y)
    box = [(">=", X), (">=", 1 - X), (">=", Y), (">=", 1 - Y), (">=", T - 1)]
    facts = {"A on the event: T*y - x >= 0": h1, "A on the complement: T*(1 - x) - (1 - y) >= 0": h2}
    one = rd.poly("1")
    if kind == "ratio":
        return [Obligation("ratio: T*y - x + delta >= 0 (x <= U y + delta)", T * Y - X + d, box + [(">=", h1)],
                           facts={**facts, "delta >= 0": d * one}, multipliers=mults.get("ratio")),
                Obligation("U >= 1: T - 1 >= 0", T - 1, [])]
    if kind == "flat":
        flat = (1 + d) - (1 - d) * T
        return [Obligation("on the domain: (1 + delta) - (1 - delta)*T >= 0", flat, []),
                Obligation("flat: (T + 1)*(y - x + delta) >= 0 (x <= y + delta)", (T + 1) * (Y - X + d),
                           box + [(">=", h1), (">=", h2), (">=", flat)],
                           facts={**facts, "(1 + delta) - (1 - delta)*T >= 0": flat}, multipliers=mults.get("flat")),
                Obligation("flat: T + 1 > 0", T + 1, [], strict=True)]
    U = (1 - d) * T - d
    return [Obligation("on the domain: (1 - delta)*T - 1 - delta >= 0 (U >= 1)", U - 1, []),
            Obligation("slope: (T - 1)*(U*y - x + delta) >= 0 (x <= U y + delta)", (T - 1) * (U * Y - X + d),
                       box + [(">=", h1), (">=", h2)], facts=facts, multipliers=mults.get("slope")),
            Obligation("slope: T - 1 > 0", T - 1, [], strict=True)]


lemma(methods.SLACK_TARGET_PAIRS, structure=_slack_target_structure, obligations=_slack_target)
