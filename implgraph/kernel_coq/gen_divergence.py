"""Coq proofs of ``divergence-order`` certificates between two divergences of the same distributions.

Two facts of the library's ``Divergence.v``, each proved once for any two distributions:

- ``monotone-order``, A Renyi of order 2 and B Kullback-Leibler (``kl_le_renyi2``: with r = p/q and
  m = sum q r^2 >= 1, r ln r <= r (ln m + r/m - 1), summed: KL <= ln m = D_2), between every two records
  (``renyi2_kl_pairs``) or each class and the table (``renyi2_kl_class``);
- ``hockey-below-tv``, A total variation and B the hockey stick of order g >= 1 (``hockey_of_tv``: max(p - g q, 0)
  <= max(p - q, 0), whose sum is the total variation as sum p = sum q), between every two records
  (``tv_hockey_pairs``); a certificate with it is refused before its proof (``statement._File``: A's total variation
  would be stated with domination, more than it asks).

U = T (``field``); g >= 1 from the certificate's parameters (a quotient's sign).

- ``pinsker``, A KL or Renyi of order 2 (read as KL first) and B the total variation of the same distributions (two
  records, or the table against the table without each record), B stated as its additive slack (exactly its level):
  ``Pinsker.pinsker_pairs_slack`` / ``pinsker_removal_slack`` at g = U = sqrt(T/2) (``Pinsker.pinsker_g``); with
  ``joint-convexity+pinsker``, A between records and B of record removal, A's KL is first the removal's
  (``pairs_to_removal``).

- ``zcdp-order``, A zero-concentrated between every two records (``ZcdpChord.zcdp_pairs_le``) and B KL or Renyi of a
  natural order n >= 2 between them: ``ZcdpPairs.zcdp_kl_pairs`` (U = T) / ``zcdp_renyi_pairs`` (U = n T, the
  library's ``T * INR n``); with ``joint-convexity+zcdp-order``, B of a class against the table or of record removal,
  then ``pairs_to_class`` / ``pairs_to_removal``; with ``pinsker``, A's KL from ``zcdp_kl_pairs``
  (:func:`implgraph.kernel_coq.gen_tv_distance.kl_of`). A zero-concentrated on record removal
  (``ZcdpRemoval.zcdp_removal_le``, ``zcdp-dp``) and B KL or Renyi of a natural order of the same pairs:
  ``ZcdpRemoval.zcdp_kl_removal`` / ``zcdp_renyi_removal`` (U = T, n T); with ``pinsker``, A's KL from
  ``zcdp_kl_removal``. ``joint-convexity+monotone-order`` from zero-concentrated between records into
  zero-concentrated on record removal (``zcdp-ldp => zcdp-dp``, U = T): ``ZcdpRemoval.zcdp_pairs_to_removal`` (the
  tangent of r^alpha below each Renyi term, summed over the two means' weights: each order's Renyi sum of the
  means at most the largest over pairs of records).

The other facts (orders that are not natural numbers, Renyi of order oo) raise :class:`Untranslatable`.
"""

from __future__ import annotations

from implgraph.kernel_coq import adapter
from implgraph.kernel_coq.coqexpr import Untranslatable
from implgraph.kernel_coq.chord_steps import _ineq
from implgraph.kernel_coq.obligations import _need, _u_is
from implgraph.kernel_coq.statement import divergence_kind

__all__ = ["divergence_order", "METHODS", "MODULES"]

MODULES = ("Divergence", "Slack", "SlackOrder", "Pinsker", "ZcdpPairs", "ZcdpRemoval")


def _same_classes(a, b):
    return str(a.min_class or "1") == str(b.min_class or "1") and not a.max_class and not b.max_class


def divergence_order(f):
    """Proof lines of a ``divergence-order`` certificate."""
    cert = f.cert
    fact = (cert.raw.get("upper_certificate") or {}).get("fact")
    da, db = adapter.divergence_side(cert.A), adapter.divergence_side(cert.B)
    _need(da is not None and db is not None, "a divergence-order certificate whose sides are not both divergences")
    if (f.a or "").startswith("slack_"):
        return _slack(f, da, db)
    if fact in ("pinsker", "joint-convexity+pinsker"):
        return _pinsker(f, da, db, mixing=fact != "pinsker")
    if fact == "joint-convexity+monotone-order" and da.compares == "pairs" and db.compares in ("class", "removal"):
        if da.kind == db.kind == "zcdp":
            return _zcdp_joint(f, db)
        return _joint(f, da, db)
    if fact in ("zcdp-order", "joint-convexity+zcdp-order"):
        return _zcdp(f, da, db, mixing=fact != "zcdp-order")
    _need(da.compares == db.compares, "a divergence-order certificate between different distributions, other than "
          "from pairs to averages")
    if fact == "monotone-order" and da.kind == "renyi" and str(da.order) == "2" and db.kind == "kl":
        if da.compares == "pairs":
            return _u_is(f, "T") + ["exact (renyi2_kl_pairs N K x T Htab HA)."]
        if da.compares == "class" and _same_classes(cert.A, cert.B):
            return _u_is(f, "T") + ["exact (renyi2_kl_class N K x cls T Htab HA)."]
        if da.compares == "removal":
            return _u_is(f, "T") + ["exact (renyi2_kl_removal N K x T Htab ltac:(lra) HA)."]
    if fact == "hockey-below-tv" and da.kind == "tv" and db.kind == "hockey-stick" and da.compares == "pairs":
        g = str(db.order)
        return _u_is(f, "T") + _ineq(f, "1", g, "Hg") + [
            f"exact (tv_hockey_pairs N K x ({f.tr.expr(g)}) T Hg Htab HA)."]
    raise Untranslatable(f"a divergence-order fact the library does not prove yet ({fact}: {da.kind} to {db.kind}, "
                         f"{da.compares})")


def _joint(f, da, db):
    """A between every two records, B between two averages of records (a class and the table, the table and the
    table without a record): the library's ``pairs_to_class`` / ``pairs_to_removal`` (joint convexity), after
    ``renyi2_kl_pairs`` where A is Renyi of order 2 and B KL. U = T, and phi(1) <= U (U >= 0 on the domain)."""
    ka, kb = _kind(da), _kind(db)
    _need(ka is not None and kb is not None and (ka == kb or (ka == "(Renyi 2)" and kb == "KL")),
          f"joint convexity from {da.kind} to {db.kind} (the library has KL and Renyi of order 2)")
    lines = _u_is(f, "T")
    ha = "HA"
    if ka != kb:
        lines.append("pose proof (renyi2_kl_pairs N K x T Htab HA) as HA2.")
        ha = "HA2"
    one = "apply one_kl; lra" if kb == "KL" else "apply one_renyi; [lia | lra]"
    mix = "(or_introl eq_refl)" if kb == "KL" else "(or_intror eq_refl)"
    if db.compares == "class":
        return lines + [f"apply (pairs_to_class {kb} N K x cls T {mix} Htab {ha}). {one}."]
    return lines + [f"apply (pairs_to_removal {kb} N K x T {mix} Htab ltac:(lra) {ha}). {one}."]


def _zcdp_joint(f, db):
    """A zero-concentrated between every two records, B zero-concentrated on record removal, U = T:
    ``ZcdpRemoval.zcdp_pairs_to_removal`` (joint convexity of each order's Renyi sum, T >= 0)."""
    _need(db.compares == "removal", "zero-concentrated between records into a class's level (the library has record "
          "removal)")
    return _u_is(f, "T") + ["exact (zcdp_pairs_to_removal N K x T Htab ltac:(lra) HA ltac:(lra))."]


def _zcdp_lines(f, da, kb, out="HZ"):
    """Lines giving ``out``: A's zero-concentrated level T between every two records (or on record removal) bounds
    B's kind ``kb`` (``KL`` or ``(Renyi n)``) between them (on the same pairs) (``ZcdpPairs.zcdp_kl_pairs`` at T,
    ``zcdp_renyi_pairs`` at T * INR n; ``ZcdpRemoval.zcdp_kl_removal``, ``zcdp_renyi_removal``); and that bound's Coq
    text."""
    _need(da.kind == "zcdp" and da.compares in ("pairs", "removal"),
          "a zero-concentrated A other than between every two records or on record removal")
    if da.compares == "removal":
        if kb == "KL":
            return [f"pose proof (zcdp_kl_removal N K x T Htab ltac:(lra) HA) as {out}."], "T"
        n = kb.removeprefix("(Renyi ").removesuffix(")")
        return ([f"pose proof (zcdp_renyi_removal N K x T {n}%nat Htab ltac:(lra) HA ltac:(lia)) as {out}."],
                f"T * INR {n}")
    if kb == "KL":
        return [f"pose proof (zcdp_kl_pairs N K x T Htab HA) as {out}."], "T"
    n = kb.removeprefix("(Renyi ").removesuffix(")")
    return [f"pose proof (zcdp_renyi_pairs N K x T {n}%nat Htab HA ltac:(lia)) as {out}."], f"T * INR {n}"


def _zcdp(f, da, db, mixing):
    """A zero-concentrated between every two records (or on record removal), B KL or Renyi of a natural order n >= 2
    of the same pairs (``ZcdpPairs``, ``ZcdpRemoval``: U = T, U = n T), or, with ``mixing`` (A between records), of a
    class against the table or of record removal
    (``pairs_to_class`` / ``pairs_to_removal``, joint convexity, then U = T or n T). U is turned into the lemma's
    bound by ``level_eq`` (``INR n`` computed by ``simpl``, then ``lra``)."""
    # (the library's kind of B: KL, or Renyi of a natural order >= 2; statement.divergence_kind reads no translator
    # for these two kinds)
    kb = divergence_kind(None, db) if db.kind in ("kl", "renyi") else None
    _need(kb is not None, f"zero-concentrated into {db.kind} of order {db.order} (the library has KL and Renyi of a "
          "natural order >= 2)")
    same = db.compares == da.compares
    _need(same if not mixing else (da.compares == "pairs" and db.compares in ("class", "removal")),
          f"zero-concentrated on {da.compares} into {db.compares} ({'with' if mixing else 'without'} joint convexity)")
    lines, bound = _zcdp_lines(f, da, kb)
    lines.append(f"apply (level_eq (fun LvlU => {f.b_of('LvlU')}) ({f.upper}) ({bound})); [simpl INR; lra |].")
    if not mixing:
        return lines + ["exact HZ."]
    one = "apply one_kl; lra" if kb == "KL" else "apply one_renyi; [lia | simpl INR; nra]"
    mix = "(or_introl eq_refl)" if kb == "KL" else "(or_intror eq_refl)"
    if db.compares == "class":
        return lines + [f"apply (pairs_to_class {kb} N K x cls ({bound}) {mix} Htab HZ). {one}."]
    return lines + [f"apply (pairs_to_removal {kb} N K x ({bound}) {mix} Htab ltac:(lra) HZ). {one}."]


def _slack(f, da, db):
    """A total variation or hockey stick, stated as its slack (``P(E) <= gA Q(E) + T`` on every event), and B one
    too with ``gB >= gA`` (``SlackOrder.slack_pairs_ratio`` / ``slack_removal_ratio``), from pairs of records to
    record removal by ``Slack.slack_averaging`` (gA >= 1). U = T."""
    from implgraph.kernel_coq.gen_tv_distance import gamma
    ga, gb = gamma(da), gamma(db)
    _need(ga is not None and gb is not None and (f.b or "").startswith("slack_"),
          "a divergence order from a slack to other than a total variation or hockey stick")
    ca, cb = f.tr.expr(ga), f.tr.expr(gb)
    lines = _u_is(f, "T") + _ineq(f, ga, gb, "Hg")
    if da.compares == db.compares == "pairs":
        return lines + [f"exact (slack_pairs_ratio N K x T ({ca}) ({cb}) Htab Hg HA)."]
    if da.compares == db.compares == "removal":
        return lines + [f"exact (slack_removal_ratio N K x T ({ca}) ({cb}) Htab ltac:(lra) Hg HA)."]
    _need(da.compares == "pairs" and db.compares == "removal",
          f"a divergence order between slacks from {da.compares} to {db.compares}")
    return lines + _ineq(f, "1", ga, "H1") + [
        f"exact (slack_removal_ratio N K x T ({ca}) ({cb}) Htab ltac:(lra) Hg "
        f"(slack_averaging N K x T T ({ca}) Htab ltac:(lra) H1 ltac:(lra) (Rle_refl T) HA))."]


def _pinsker(f, da, db, mixing=False):
    """Pinsker's inequality between the same distributions, B the total variation stated as its slack at U =
    sqrt(T/2) (the certificate's text must be ``PINSKER_G``: Coq checks the two are the same term); with ``mixing``
    (``joint-convexity+pinsker``), A's KL between every two records is first KL of record removal
    (``Divergence.pairs_to_removal``, joint convexity)."""
    from implgraph.kernel_coq.gen_tv_distance import PINSKER_G, kl_of
    compares = "removal" if mixing else da.compares
    _need(db.kind == "tv" and db.compares == compares and compares in ("pairs", "removal")
          and (not mixing or da.compares == "pairs") and (f.b or "").startswith("slack_"),
          "Pinsker's inequality other than between records or record removal (or from pairs to record removal) into "
          "a total variation stated as its slack")
    lines, hk = kl_of(f, da)
    if mixing:
        lines.append(f"pose proof (pairs_to_removal KL N K x T (or_introl eq_refl) Htab ltac:(lra) {hk} "
                     f"ltac:(apply one_kl; lra)) as HKR.")
        hk = "HKR"
    g = f.tr.expr(PINSKER_G)
    lines.append("destruct (pinsker_g T ltac:(lra)) as [Hg0 Hg2].")
    if compares == "pairs":
        return lines + [f"exact (pinsker_pairs_slack N K x T {g} Htab {hk} Hg0 Hg2)."]
    return lines + [f"exact (pinsker_removal_slack N K x T {g} Htab ltac:(lra) {hk} Hg0 Hg2)."]


def _kind(div):
    if div.kind == "kl":
        return "KL"
    if div.kind == "renyi" and str(div.order) == "2":
        return "(Renyi 2)"
    return None


#: certificate method -> proof lines (leaf methods of the generator)
METHODS = {"divergence-order": divergence_order}
