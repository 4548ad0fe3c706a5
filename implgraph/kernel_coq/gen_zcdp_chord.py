"""Coq proofs of ``zcdp-chord`` certificates: a pairwise ratio level T bounds the zero-concentrated level between
every two records by U = ln T (T - 1)/(T + 1).

The statement is the generator's (:mod:`implgraph.kernel_coq.statement`): on the domain (T >= 1), every table of N
records and K buckets with ``pairwise_le N K x T`` has ``zcdp_pairs_le N K x (U)`` (B's predicate for a zero-concentrated
divergence between pairs, ``ZcdpChord.zcdp_pairs_le``). The proof rewrites U into the library's form by ``field``
and applies ``ZcdpChord.zcdp_chord_pairs`` (the chord of r^alpha over [1/T, T] and ``Zcdp.tanh_bound``). An edited U
makes the ``replace ... by (field; lra)`` step fail, so ``coqc`` rejects the file. The tightness family (randomized
response, ``ZcdpChord.rr_kl`` and ``zcdp_rr_lower``) is re-checked by the Python checker
(:mod:`implgraph.certify.lemmas.zcdp_chord`), not stated here.

A side other than A a two-sided pairwise ratio and B the zero-concentrated level between pairs raises
:class:`Untranslatable`.
"""

from __future__ import annotations

from implgraph.kernel_coq import adapter
from implgraph.kernel_coq.obligations import _need

__all__ = ["zcdp_chord", "METHODS", "MODULES"]

MODULES = ("Divergence", "Zcdp", "ZcdpOrder", "ZcdpChord")


def zcdp_chord(f):
    """Proof lines of a ``zcdp-chord`` certificate (``f`` the generator's file of it)."""
    cert = f.cert
    div = adapter.divergence_side(cert.B)
    _need(div is not None and div.kind == "zcdp" and div.compares == "pairs",
          "a zcdp-chord certificate whose B is not the zero-concentrated level between pairs")
    _need(cert.A.family == "pairwise" and cert.A.sides == "TwoSided",
          "a zcdp-chord certificate whose A is not a two-sided pairwise ratio")
    _need(f.a is not None and f.a.startswith("pairwise_le"), "A's predicate is not pairwise_le")
    _need(f.upper is not None, "a zcdp-chord certificate without U")
    return [f"replace ({f.upper}) with (ln T * (T - 1) / (T + 1)) by (field; lra).",
            "exact (zcdp_chord_pairs N K x T Htab HA ltac:(lra))."]


METHODS = {"zcdp-chord": zcdp_chord}
