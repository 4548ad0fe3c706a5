"""Coq proofs of ``subset-corners`` certificates: a two-sided subset level of size j (1 <= j <= N - 1) bounds the
hockey stick of order gamma >= 1 between every two records by max(hi - gamma lo, 0) min(1 - lo, hi - 1)/(hi - lo) on
one record's ratio range [lo, hi] (``CornersSubset.v``; docs/arguments/subset-corners.md).

B is stated as the additive slack on every event it is (``slack_pairs_le N K x U gamma``: x_i(E) <= gamma x_k(E) +
U), not as the library's divergence predicate, which also asks domination (x_k = 0 forcing x_i = 0 bucket by bucket):
where lo = 0 two records may have disjoint supports, so that statement would be false.

The certificate's U is ``Piecewise((0, T <= 1), (W, True))``, W written with the ends as a ``Max`` (lo) and a ``Min``
(hi); the theorem states it clause by clause (as ``gen_subset_chord``). The proof: the certificate's size equals A's
(``ring``), is a natural number in [1, N - 1] (the shift argument); gamma >= 1; at T = 1 the library's
``corners_subset_one``; beyond, U's ends against the certificate's and those against the library's [sublo, subhi],
argument by argument (``gen_subset_chord``'s steps), 0 <= lo through lo's argument 0, the library's
``corners_subset_hockey``, and the library's ``box_val`` against W by cases of each maximum and minimum (``box_close``:
linear arithmetic or ``field`` in each case). An edited number in U, in lo or hi, in the size or in gamma makes one of
these steps fail, so ``coqc`` rejects the file. Not covered (:class:`Untranslatable`): B other than a hockey stick of
a rational order between every two records, A other than a two-sided subset level, a U of another shape.
"""

from __future__ import annotations

import dataclasses

import sympy

from implgraph.kernel_coq.obligations import _need

__all__ = ["subset_corners", "MODULES"]

#: the library modules the lemmas live in
MODULES = ("Divergence", "RemovalChord", "RemovalChordPieces", "SubsetChord", "CornersSubset")


def _check_sides(cert):
    """B's divergence and its order's text, or :class:`Untranslatable` where the sides are not this lemma's."""
    from implgraph.kernel_coq import adapter
    from implgraph.kernel_coq.gen_tv_distance import gamma
    A = cert.A
    _need(A.family == "subset" and A.sides == "TwoSided" and A.size is not None,
          "a subset corners certificate whose A is not a two-sided subset level")
    div = adapter.divergence_side(cert.B)
    _need(div is not None and div.compares == "pairs" and div.kind == "hockey-stick" and gamma(div) is not None,
          "a subset corners certificate whose B is not a hockey stick of a rational order >= 1 between two records")
    return div, gamma(div)


def _beyond_one(f, W, size, cs, g):
    """Lines of the clause T > 1: the ends, 0 <= lo, the library's theorem and ``box_val`` against W."""
    from implgraph.kernel_coq.gen_subset_chord import _args, _end, _ends_lines, _expr, _path
    lo, hi = _end(W, "Max"), _end(W, "Min")
    _need(lo is not None and hi is not None, "a subset corners U without a Max and a Min end")
    los = _args(lo, "Max")
    zero = [i for i, a in enumerate(los) if _expr(f, a) == 0]
    _need(bool(zero), "a subset corners lo without the argument 0")
    lines = _ends_lines(f, lo, hi, size, cs)
    lines += [f"assert (H0 : 0 <= {f.tr.expr(lo)}) by ({_path('max', zero[0], len(los))}apply Rle_refl).",
              f"set (lo := {f.tr.expr(lo)}) in *.", f"set (hi := {f.tr.expr(hi)}) in *.",
              f"destruct (sub_lt N ({cs}) T lo hi Hs1 HsN HT1 Hlo Hhi) as [Hl1 Hh1].",
              f"apply (corners_subset_hockey ({g}) N K x ({cs}) T lo hi _ Hg Htab HA Hs Hs1 HsN HT1 Hlo Hhi H0).",
              "box_close."]
    return lines


def subset_corners(cert, name):
    """The Coq text of a ``subset-corners`` certificate's theorem ``name``."""
    from implgraph.kernel_coq.chord_steps import _ineq
    from implgraph.kernel_coq.gen_extreme_points import _pieces
    from implgraph.kernel_coq.gen_subset_chord import _expr, _setup, _statement
    from implgraph.kernel_coq.gen_tv_distance import slack_predicate
    from implgraph.kernel_coq.generate import _block
    from implgraph.kernel_coq.statement import _File
    div, gtext = _check_sides(cert)
    data = cert.raw.get("upper_certificate") or {}
    _need(cert.upper is not None and data.get("size") is not None, "a subset corners certificate without U and size")
    pieces = _pieces(cert.upper)
    _need([len(cs) for _, cs in pieces] == [1, 0], "a subset corners U other than Piecewise((0, T <= 1), (W, True))")
    f = _File(dataclasses.replace(cert, upper=pieces[-1][0]), name)
    _need(_expr(f, pieces[0][0]) == 0, "a subset corners U whose piece at T <= 1 is not 0")
    _need(f.a is not None, "A's level has no predicate in the library")
    f.b_of = lambda level: slack_predicate(f.tr, div, level)
    f.b = f.b_of(f.upper)
    size = str(data["size"])
    cs, g = f.tr.expr(size), f.tr.expr(gtext)
    lines = _setup(f, cs, str(cert.A.size), size) + _ineq(f, "1", gtext, "Hg")
    blocks = [["intros C.", "assert (E1 : 1 = T) by lra.", "rewrite <- E1 in HA.",
               f"apply (corners_subset_one ({g}) N K x ({cs}) _ Hg Htab HA Hs Hs1 HsN).", "lra."]]
    f.domain.atoms.append((">", f.rd.poly("T - 1")))      # the other clause: T > 1
    try:
        blocks.append(["intros NC.", "apply Rnot_le_lt in NC.", "assert (HT1 : 1 < T) by lra."]
                      + _beyond_one(f, pieces[1][0], size, cs, g))
    finally:
        f.domain.atoms.pop()
    lines.append("refine (conj _ _).")
    for b in blocks:
        lines += ["{ " + b[0]] + [f"  {ln}" for ln in b[1:]] + ["}"]
    return _block(_statement(f, pieces), lines)
