"""Coq proofs of ``removal-scaling`` certificates: a removal total variation or hockey stick (B) from A's between
every two records (at most 1/N of it) or from A's own removal level (a larger ratio keeps the slack).

A and B are total variations or hockey sticks, stated as the additive slacks on every event they are (``P(E) <= g
Q(E) + T``, :mod:`implgraph.kernel_coq.gen_tv_distance`). Where A compares every two records (ratio ``ga``) and B
the table with the table without each record, both ways (ratio ``g``), the library's
``RemovalScaling.removal_scaling`` gives B with slack T/N for ``g >= 1`` and ``ga <= g`` (the averaging identity
``N (P - g Q_i) = x_i - (g N - N + 1) Q_i`` and its mirror); where A is a removal slack too,
``SlackOrder.slack_removal_ratio`` gives B with slack T. U is shown equal to that slack by ``field``; the ratios'
orders by ``lra`` on the domain. An edited U or ratio makes ``coqc`` reject the file.
"""

from __future__ import annotations

from implgraph.kernel_coq import adapter
from implgraph.kernel_coq.gen_tv_distance import gamma
from implgraph.kernel_coq.obligations import _need, _u_is

__all__ = ["removal_scaling", "METHODS", "MODULES"]

MODULES = ("RemovalScaling", "SlackOrder")


def removal_scaling(f):
    """Proof lines of a ``removal-scaling`` certificate (A pairs: ``removal_scaling``; A removal:
    ``slack_removal_ratio``)."""
    cert = f.cert
    div_a, div_b = adapter.divergence_side(cert.A), adapter.divergence_side(cert.B)
    ga, gb = gamma(div_a), gamma(div_b)
    _need(ga is not None and gb is not None and div_b.compares == "removal"
          and (f.a or "").startswith("slack_") and f.b.startswith("slack_removal_le"),
          "a removal-scaling certificate other than a total variation or hockey stick into a removal one")
    t, tr = f.tr.name("T"), f.tr
    if div_a.compares == "pairs":
        return _u_is(f, f"({t} / (INR N))") + [
            f"exact (removal_scaling N K x {t} ({tr.expr(ga)}) ({tr.expr(gb)}) Htab ltac:(lra) ltac:(lra) "
            "ltac:(lra) HA)."]
    _need(div_a.compares == "removal", f"a removal-scaling certificate whose A compares {div_a.compares}")
    return _u_is(f, f"({t})") + [
        f"exact (slack_removal_ratio N K x {t} ({tr.expr(ga)}) ({tr.expr(gb)}) Htab ltac:(lra) ltac:(lra) HA)."]


METHODS = {"removal-scaling": removal_scaling}
