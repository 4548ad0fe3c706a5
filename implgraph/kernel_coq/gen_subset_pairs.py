"""Coq proofs of the ``subset-pairs`` certificates: a two-sided subset level of size j bounds the total variation
between any two records by U = min(1, j (1 - 1/T)) (``SubsetPairs.v``; docs/arguments/subset-pairs.md).

B is stated as the additive slack on every event it is (``slack_pairs_le N K x U 1``: ``x_i(E) <= x_k(E) + U``), not
as the library's divergence predicate, which also asks domination (``x_k = 0`` forcing ``x_i = 0`` bucket by bucket): a
subset level of size j >= 2 does not give it (two records may have disjoint supports), so that statement would be
false. The proof: the certificate's size equals A's (``ring``), is a natural number (``isnat``) in [1, N - 1] (the
shift argument, ``chord_steps._ineq``); the library's ``subset_pairs`` gives B at j (1 - 1/T) and ``slack_pairs_one`` at
1; each argument of U's ``Min`` (or U itself) is at least the one of the two it equals (chosen by exact algebra: 1,
else j (1 - 1/T)), by the shift argument (``slack_pairs_weaken``), and ``slack_pairs_min`` takes the ``Min``. An
edited number in U, the size or the domain makes ``coqc`` reject the file at that step.
"""

from __future__ import annotations

import ast

import sympy

from implgraph.kernel_coq.obligations import _need

__all__ = ["subset_pairs", "subset_pairs_theorem", "METHODS", "MODULES"]

#: the library modules the lemmas live in
MODULES = ("SubsetPairs",)


def _min_args(text):
    """The argument texts of ``Min(...)`` at the top of ``text`` (nested ``Rmin a0 (Rmin a1 ...)`` in Coq), or
    [text]."""
    node = ast.parse(str(text).strip(), mode="eval").body
    if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Min" and len(node.args) >= 2:
        return [ast.unparse(a) for a in node.args]
    return [str(text)]


def _nest(items):
    """``apply slack_pairs_min; [item0 | apply slack_pairs_min; [item1 | ...]]`` over a Min's nesting."""
    if len(items) == 1:
        return items[0]
    return f"apply (slack_pairs_min N K x); [{items[0]} | {_nest(items[1:])}]"


def _is_one(f, text):
    from implgraph.kernel_coq.chord_steps import _sym
    return sympy.simplify(_sym(f, text)[0] - 1) == 0


def _check_sides(f):
    """B's divergence, or :class:`Untranslatable` where the sides are not this lemma's."""
    from implgraph.kernel_coq import adapter
    A = f.cert.A
    _need(A.family == "subset" and A.sides == "TwoSided" and A.size is not None and f.a is not None,
          "a subset-pairs certificate whose A is not a two-sided subset level")
    div = adapter.divergence_side(f.cert.B)
    _need(div is not None and div.kind == "tv" and div.compares == "pairs",
          "a subset-pairs certificate whose B is not the total variation between two records")
    return div


def subset_pairs(f):
    """Proof lines of a ``subset-pairs`` certificate; states B as its slack on every event (module notes)."""
    from implgraph.kernel_coq.chord_steps import _ineq
    from implgraph.kernel_coq.gen_chord_removal import domain_lines
    from implgraph.kernel_coq.gen_tv_distance import slack_predicate
    div = _check_sides(f)
    f.b = slack_predicate(f.tr, div, f.upper)
    f.b_of = lambda level: slack_predicate(f.tr, div, level)
    size = str((f.cert.raw.get("upper_certificate") or {}).get("size") or "")
    _need(size != "" and f.cert.upper is not None, "a subset-pairs certificate without a size and U")
    cs, t = f.tr.expr(size), f.tr.name("T")
    lines = domain_lines(f) + [
        f"assert (Hj : {f.tr.expr(str(f.cert.A.size))} = {cs}) by ring.",
        "assert (HAj := eq_ind _ (fun s => subset_le TwoSided N K x s T) HA _ Hj).", "clear HA. rename HAj into HA.",
        f"assert (Hs : IsNat ({cs})) by isnat."]
    lines += _ineq(f, "1", size, "Hs1") + _ineq(f, size, "N - 1", "HsN")
    lines.append(f"assert (HT1 : 1 <= {t}) by lra.")
    lines.append(f"assert (HP := subset_pairs N K x ({cs}) {t} Htab HA Hs Hs1 HsN HT1).")
    items = []
    for i, a in enumerate(_min_args(f.cert.upper)):
        if _is_one(f, a):
            bound, coq, term = "1", "1", "(slack_pairs_one N K x Htab)"
        else:       # j (1 - 1/T); where U's argument is smaller the step fails
            bound, coq, term = f"({size})*(1 - 1/T)", f"({cs}) * (1 - 1 / {t})", "HP"
        lines += _ineq(f, bound, a, f"Hu{i}")
        items.append(f"apply (slack_pairs_weaken N K x ({coq})); [exact {term} | lra]")
    return lines + [_nest(items) + "."]


def subset_pairs_theorem(cert, name):
    """The Coq text of a standalone ``subset-pairs`` certificate's theorem ``name`` (registered for certificates of
    their own only: a certificate of parts states its own B by the divergence predicate, with domination)."""
    from implgraph.kernel_coq.generate import _block, _File
    f = _File(cert, name)
    lines = subset_pairs(f)
    return _block(f.statement(), [f.intros()] + lines)


METHODS = {"subset-pairs": subset_pairs}
