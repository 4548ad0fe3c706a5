"""Coq proofs of ``zcdp-chord`` certificates: a pairwise ratio level T bounds the zero-concentrated level between
every two records by U = ln T (T - 1)/(T + 1); a ratio level confining Q_i/P to [1/R, R] bounds it on record removal by
U = ln R (R - 1)/(R + 1).

The statement is the generator's (:mod:`implgraph.kernel_coq.statement`): on the domain (T >= 1), every table of N
records and K buckets with ``pairwise_le N K x T`` has ``zcdp_pairs_le N K x (U)`` (B's predicate for a zero-concentrated
divergence between pairs, ``ZcdpChord.zcdp_pairs_le``). The proof rewrites U into the library's form by ``field``
and applies ``ZcdpChord.zcdp_chord_pairs`` (the chord of r^alpha over [1/T, T] and ``Zcdp.tanh_bound``). An edited U
makes the ``replace ... by (field; lra)`` step fail, so ``coqc`` rejects the file. The tightness family (randomized
response, ``ZcdpChord.rr_kl`` and ``zcdp_rr_lower``) is re-checked by the Python checker
(:mod:`implgraph.certify.lemmas.zcdp_chord`), not stated here.

On record removal (B ``ZcdpRemoval.zcdp_removal_le``: the table's mean P against the mean Q_i without record i, both
ways), the library's R is A's (:data:`REMOVAL`): A a two-sided pairwise ratio, R = (N + T - 1)/N
(``ZcdpRemoval.zcdp_chord_removal_pairs``); a two-sided subset level of size N - 1, R = T
(``zcdp_chord_removal_subset``); of size 1 (each record against the table), R = T (``zcdp_chord_removal_single``);
each an instance of ``zcdp_rconf`` (Q_i/P in A's interval, within [1/R, R]). The certificate's R must be the library's
(``field``: an assertion ``HR``) and its U ln R (R - 1)/(R + 1) at that R (``replace ... by (field; lra)``, ln R an
atom); an edited U or R fails ``coqc``.

A side other than A a two-sided pairwise ratio and B the zero-concentrated level between pairs, or than the removal
cases above, raises :class:`Untranslatable`.
"""

from __future__ import annotations

from implgraph.kernel_coq import adapter
from implgraph.kernel_coq.obligations import _need

__all__ = ["zcdp_chord", "METHODS", "MODULES"]

MODULES = ("Divergence", "Zcdp", "ZcdpOrder", "ZcdpChord", "RemovalChord", "ZcdpRemoval")

#: A on record removal (its family, and a subset's size) -> (the library's R (Coq), the theorem)
REMOVAL = {("pairwise", None): ("((INR N + T - 1) / INR N)", "zcdp_chord_removal_pairs"),
           ("subset", "N - 1"): ("T", "zcdp_chord_removal_subset"),
           ("subset", "1"): ("T", "zcdp_chord_removal_single")}


def _removal_a(f):
    """The key of :data:`REMOVAL` of the certificate's A (a two-sided ratio level stated as its library predicate at
    T), or None."""
    A = f.cert.A
    if A.sides != "TwoSided" or not (f.a or "").startswith(("pairwise_le", "subset_le TwoSided")):
        return None
    if A.family == "pairwise":
        return ("pairwise", None)
    if A.family == "subset" and A.size is not None:
        size = f.rd.poly(str(A.size))
        return next((k for k in REMOVAL if k[0] == "subset" and (size - f.rd.poly(k[1])).is_zero), None)
    return None


def zcdp_chord(f):
    """Proof lines of a ``zcdp-chord`` certificate (``f`` the generator's file of it)."""
    cert = f.cert
    div = adapter.divergence_side(cert.B)
    if div is not None and div.kind == "zcdp" and div.compares == "removal":
        return _removal(f)
    _need(div is not None and div.kind == "zcdp" and div.compares == "pairs",
          "a zcdp-chord certificate whose B is not the zero-concentrated level between pairs")
    _need(cert.A.family == "pairwise" and cert.A.sides == "TwoSided",
          "a zcdp-chord certificate whose A is not a two-sided pairwise ratio")
    _need(f.a is not None and f.a.startswith("pairwise_le"), "A's predicate is not pairwise_le")
    _need(f.upper is not None, "a zcdp-chord certificate without U")
    return [f"replace ({f.upper}) with (ln T * (T - 1) / (T + 1)) by (field; lra).",
            "exact (zcdp_chord_pairs N K x T Htab HA ltac:(lra))."]


def _removal(f):
    """Proof lines of a ``zcdp-chord`` certificate on record removal (module notes)."""
    cert = f.cert
    data = cert.raw.get("upper_certificate") or {}
    _need(data.get("compares") == "removal" and data.get("R") is not None,
          "a zcdp-chord certificate on record removal without its R")
    key = _removal_a(f)
    _need(key is not None, f"a zcdp-chord on record removal from an A the library has no interval for ({f.a})")
    r_lib, lemma = REMOVAL[key]
    r = f.tr.expr(str(data["R"]))
    return [f"assert (HR : {r} = {r_lib}) by (field; lra).",
            f"replace ({f.upper}) with (ln ({r}) * (({r}) - 1) / (({r}) + 1)) by (field; lra).",
            "try rewrite HR.",     # (the same term: nothing to rewrite)
            f"exact ({lemma} N K x T Htab HA ltac:(lra) ltac:(lra))."]


METHODS = {"zcdp-chord": zcdp_chord}
