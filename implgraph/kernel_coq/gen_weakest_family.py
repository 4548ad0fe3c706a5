"""Coq proofs of ``weakest-family`` certificates: B's weakest level, met by every table whatever A (``WeakestFamily.v``;
docs/arguments/weakest-family.md).

A ``weakest-family`` certificate says that B's supremum under A is U, B's weakest raw level: its ``family`` (the lower
bound, a tightness claim re-checked by the Python checker) is not stated here; the theorem is the upper bound, on
every table, with no hypothesis on A (a stronger statement). B a total variation or a hockey stick at gamma between
two records is stated as its additive slack on every event (``slack_pairs_le N K x U gamma``: ``x_i(E) <= gamma
x_k(E) + U``), on record removal likewise (``slack_removal_le``), not as the library's divergence predicate, which also
asks domination (two records with disjoint supports, the family's, have none); B the smallest class's size as
``class_size_ge N cls U``. The proof applies ``weakest_pairs`` (gamma >= 0, U >= 1), ``weakest_removal`` (N >= 2,
gamma >= 1, U >= 1/N) or ``weakest_class_size`` (U <= 1), each side condition shown on the certificate's domain by
the shift argument (``chord_steps._ineq``): an edited U (a smaller one: 1/2 between records, 1/(2 N) on removal, 2 for
the class size) makes ``coqc`` reject the file at that step.
"""

from __future__ import annotations

from implgraph.kernel_coq.obligations import _need

__all__ = ["weakest_family", "COMPOSITES", "MODULES"]

#: the library modules the lemmas live in
MODULES = ("WeakestFamily", "FloorLevel", "Entropy")


def _lines(f):
    """The proof lines (module notes), B's statement set on ``f``."""
    from implgraph.kernel_coq import adapter
    from implgraph.kernel_coq.chord_steps import _ineq
    from implgraph.kernel_coq.gen_chord_removal import domain_lines
    from implgraph.kernel_coq.gen_tv_distance import gamma, slack_predicate
    B, U = f.cert.B, str(f.cert.upper)
    div = adapter.divergence_side(B)
    lines = domain_lines(f)
    if div is not None:
        g = gamma(div)
        _need(div.kind in ("tv", "hockey-stick") and div.compares in ("pairs", "removal") and g is not None,
              "a weakest-family certificate whose B is not a total variation or hockey stick between records or on "
              "removal at a ratio gamma >= 1")
        f.b = slack_predicate(f.tr, div, f.upper)
        cg = f.tr.expr(g)
        lines += _ineq(f, "1", g, "Hg")
        if div.compares == "pairs":
            lines += _ineq(f, "1", U, "Hd")
            return lines + [f"apply (weakest_pairs N K x ({cg}) ({f.upper})); [exact Htab | lra | exact Hd]."]
        lines += _ineq(f, "1/N", U, "Hd") + [f"assert (HN2 : 2 <= INR N) by lra."]
        return lines + [f"apply (weakest_removal N K x ({cg}) ({f.upper})); [exact Htab | exact HN2 | exact Hg | "
                        "exact Hd]."]
    if B.family == "subset" and B.sides == "OneSided" and str(B.size) == "1":
        f.b = f"subset_le OneSided N K x (1) ({f.upper})"        # a one-sided ratio of one record to the table
        return lines + _ineq(f, "N", U, "Hd") + [f"apply (weakest_record_ratio N K x ({f.upper})); [exact Htab | "
                                                 "exact Hd]."]
    if f.b.startswith("floor_level_ge"):     # a class floor above the weakest level (gen_floor_level)
        from implgraph.kernel_coq.gen_floor_level import weakest_of
        return lines + _ineq(f, U, weakest_of(B), "Hd") + ["apply weakest_floor_level. exact Hd."]
    _need(bool(B.class_size_level), "a weakest-family certificate whose B is neither a divergence between records or "
                                    "on removal, a ratio of one record to the table, a class floor above the weakest "
                                    "level, nor the smallest class's size")
    f.b = f"class_size_ge N cls ({f.upper})"
    return lines + _ineq(f, U, "1", "Hd") + [f"apply (weakest_class_size N cls ({f.upper})). exact Hd."]


def weakest_family(cert, name):
    """The theorem ``name`` of a ``weakest-family`` certificate: B at most U on every table, whatever A."""
    from implgraph.kernel_coq.gen_floor_level import stated_file
    from implgraph.kernel_coq.generate import _block
    f = stated_file(cert, name)     # (B a class floor above its weakest level: FloorLevel.floor_level_ge)
    f.a, f.extra_binders = None, ""         # whatever A: no hypothesis on A (a stronger statement)
    lines = _lines(f)
    return _block(f.statement(), [f.intros()] + lines)


#: certificate method -> its text
COMPOSITES = {"weakest-family": weakest_family}
