"""Coq proofs of the additive-slack targets on record removal (``slack-target-removal``, ``slack-pairs-to-removal``).

Both instantiate a lemma of the library's ``Slack.v`` proved once for every table:

- ``slack_target_removal``: A a two-sided subset level of size N - 1 at T (the table against the table without one
  record), B the same comparison with an additive slack delta >= 0 (``slack_removal_le``) at U = T;
- ``slack_averaging``: A an additive slack delta_A between any two records at T >= 1 (``slack_pairs_le``), B one on
  record removal with delta_B >= delta_A at U = T.

The lemmas' premises (N >= 2, T >= 1, the slacks' signs and order, A's size N - 1) are discharged by ``lra`` from the
certificate's domain, so an edited slack, size or domain makes ``coqc`` reject the file; U = T by ``field``. The
certificate's multipliers are not needed: each lemma is proved for every table and event, not per obligation.
"""

from __future__ import annotations

from implgraph.kernel_coq.generate import _need, _u_is

__all__ = ["slack_target_removal", "slack_averaging", "METHODS", "MODULES"]

#: the library module the lemmas live in (loaded by every file that uses them)
MODULES = ("Slack",)


def _sd(side):
    return side.sides


def _delta(f, side, compares):
    """``(delta as a polynomial, as a Coq term)`` of a side's additive slack comparing ``compares``."""
    sl = side.slack
    _need(sl is not None and sl.compares == compares, f"a side comparing {compares} with an additive slack")
    return f.rd.poly(sl.delta), f.tr.expr(sl.delta)


def slack_target_removal(f):
    """Proof lines of a ``slack-target-removal`` certificate (``f`` the generator's file of it)."""
    A, B = f.cert.A, f.cert.B
    _need(f.a is not None and A.family == "subset" and _sd(A) == "TwoSided" and not A.slack and A.size is not None,
          "slack-target-removal needs A a two-sided subset level without slack")
    _, dt = _delta(f, B, "removal")
    j = f.tr.expr(A.size)
    return _u_is(f, "T") + [
        f"apply (slack_target_removal N K x ({j}) ({dt}) T); [exact Htab | lra | lra | lra | exact HA]."]


def slack_averaging(f):
    """Proof lines of a ``slack-pairs-to-removal`` certificate (lemma ``slack-averaging``)."""
    A, B = f.cert.A, f.cert.B
    _need(f.a is not None, "slack-pairs-to-removal needs A an additive slack between two records")
    _, da = _delta(f, A, "pairs")
    _, db = _delta(f, B, "removal")
    return _u_is(f, "T") + [
        f"apply (slack_averaging N K x ({da}) ({db}) T); [exact Htab | lra | lra | lra | lra | exact HA]."]


#: certificate method -> proof lines (leaf methods of the generator)
METHODS = {"slack-target-removal": slack_target_removal, "slack-pairs-to-removal": slack_averaging}
