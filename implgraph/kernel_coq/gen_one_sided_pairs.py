"""Coq proofs of the ``one-sided-pairs`` certificates: a one-sided subset level of size j bounds the total
variation between any two records, and every hockey-stick at a ratio gamma >= 1 there, by U = min(1, j (T - 1))
(``OneSidedPairs.v``; docs/arguments/one-sided-pairs.md).

B is stated as the additive slack on every event it is (``slack_pairs_le N K x U gamma``: ``x_i(E) <= gamma x_k(E) +
U``, gamma = 1 for the total variation, B's registered number otherwise), not as the library's divergence predicate,
which also asks domination (a one-sided level does not give it: a record may vanish where another does not). The
proof: the goal at gamma is reduced to gamma = 1 (``slack_pairs_ratio``, gamma >= 1 by ``lra``); the certificate's
size equals A's (``ring``), is a natural number (``isnat``) in [1, N - 1] (the shift argument, ``chord_steps._ineq``);
the library's ``onesided_pairs`` gives B at j (T - 1) and ``slack_pairs_one`` at 1; each argument of U's ``Min`` (or
U itself) is at least the one of the two it equals (chosen by exact algebra: 1, else j (T - 1)), by the shift
argument (``slack_pairs_weaken``), and ``slack_pairs_min`` takes the ``Min``. An edited number in U, the size or the
domain makes ``coqc`` reject the file at that step.
"""

from __future__ import annotations

from implgraph.kernel_coq.gen_subset_pairs import _is_one, _min_args, _nest
from implgraph.kernel_coq.obligations import _need

__all__ = ["one_sided_pairs", "one_sided_pairs_theorem", "METHODS", "MODULES"]

#: the library modules the lemmas live in
MODULES = ("SubsetPairs", "OneSidedPairs")


def _check_sides(f):
    """B's divergence and its ratio gamma (text), or :class:`Untranslatable` where the sides are not this lemma's."""
    from implgraph.kernel_coq import adapter
    from implgraph.kernel_coq.gen_tv_distance import gamma
    A = f.cert.A
    _need(A.family == "subset" and A.sides == "OneSided" and A.size is not None and f.a is not None,
          "a one-sided-pairs certificate whose A is not a one-sided subset level")
    div = adapter.divergence_side(f.cert.B)
    g = gamma(div) if div is not None and div.kind in ("tv", "hockey-stick") else None
    _need(g is not None and div.compares == "pairs",
          "a one-sided-pairs certificate whose B is not a total variation or hockey stick between two records")
    return div, g


def one_sided_pairs(f):
    """Proof lines of a ``one-sided-pairs`` certificate; states B as its slack on every event (module notes)."""
    from implgraph.kernel_coq.chord_steps import _ineq
    from implgraph.kernel_coq.gen_chord_removal import domain_lines
    from implgraph.kernel_coq.gen_tv_distance import slack_predicate
    div, g = _check_sides(f)
    f.b = slack_predicate(f.tr, div, f.upper)
    f.b_of = lambda level: slack_predicate(f.tr, div, level)
    size = str((f.cert.raw.get("upper_certificate") or {}).get("size") or "")
    _need(size != "" and f.cert.upper is not None, "a one-sided-pairs certificate without a size and U")
    cs, t = f.tr.expr(size), f.tr.name("T")
    lines = domain_lines(f) + [
        f"apply (slack_pairs_ratio N K x _ ({f.tr.expr(g)}) Htab); [lra |].",
        f"assert (Hj : {f.tr.expr(str(f.cert.A.size))} = {cs}) by ring.",
        "assert (HAj := eq_ind _ (fun s => subset_le OneSided N K x s T) HA _ Hj).", "clear HA. rename HAj into HA.",
        f"assert (Hs : IsNat ({cs})) by isnat."]
    lines += _ineq(f, "1", size, "Hs1") + _ineq(f, size, "N - 1", "HsN")
    lines.append(f"assert (HT1 : 1 <= {t}) by lra.")
    lines.append(f"assert (HP := onesided_pairs N K x ({cs}) {t} Htab HA Hs Hs1 HsN HT1).")
    items = []
    for i, a in enumerate(_min_args(f.cert.upper)):
        if _is_one(f, a):
            bound, coq, term = "1", "1", "(slack_pairs_one N K x Htab)"
        else:       # j (T - 1); where U's argument is smaller the step fails
            bound, coq, term = f"({size})*(T - 1)", f"({cs}) * ({t} - 1)", "HP"
        lines += _ineq(f, bound, a, f"Hu{i}")
        items.append(f"apply (slack_pairs_weaken N K x ({coq})); [exact {term} | lra]")
    return lines + [_nest(items) + "."]


def one_sided_pairs_theorem(cert, name):
    """The Coq text of a standalone ``one-sided-pairs`` certificate's theorem ``name`` (certificates of their own
    only, as ``subset-pairs``: a certificate of parts states its own B by the divergence predicate)."""
    from implgraph.kernel_coq.generate import _block, _File
    f = _File(cert, name)
    lines = one_sided_pairs(f)
    return _block(f.statement(), [f.intros()] + lines)


METHODS = {"one-sided-pairs": one_sided_pairs}
