"""Coq proofs of ``tv-distance`` certificates whose A is total variation or the hockey stick.

A ``tv-distance`` certificate bounds each class's total variation distance from the table (B) by A's divergence
between records: ``g`` bounds the total variation between two records (or between a record and the table), then the
class's mean. Where A is the total variation or the hockey stick of order ``gamma``, A at most T is exactly an
additive slack on every event (the hockey stick is the largest ``P(E) - gamma Q(E)`` over the events E, the total
variation the case ``gamma = 1``), so A is stated as the library's slack predicate, which asks nothing more (the
library's divergence predicate would also ask domination, more than they ask): ``slack_pairs_le N K x T gamma``
between every two records, ``slack_removal_le N K x T gamma`` between the table and the table without a record, both
ways. The library's ``DistanceLemmas.slack_pairwise_distance`` and ``slack_removal_distance`` then reduce B at most
U to an obligation on a few reals (the class's and the other records' masses of an event), which ``nra`` proves; a U
that is a ``Min`` is bounded component by component (``Compose.min_bound``).

Pinsker's inequality (A KL or Renyi of order 2: ``fact: pinsker``) is the library's ``Pinsker.v``: A's KL at most T
(Renyi of order 2 first read as KL by ``Divergence.renyi2_kl_pairs`` / ``_class`` / ``_removal``, a zero-concentrated
level by ``ZcdpPairs.zcdp_kl_pairs`` between records, ``ZcdpRemoval.zcdp_kl_removal`` on record removal) gives the
additive slack g = sqrt(T/2) (the certificate's text ``sqrt(2)*sqrt(T)/2``, ``Pinsker.pinsker_g``: g >= 0 and T <= 2
g^2) on every event of the same distributions (``pinsker_pairs_slack``, ``pinsker_class_tv``,
``pinsker_removal_slack``), and ``slack_pairs_tv``, ``class_tv_min``, ``slack_removal_tv`` compose it to the class's
distance at the composition's bound; that bound is the certificate's U by ``field`` (``Pinsker.ucmp``: argument by
argument under a ``Min``, square roots and minima read as atoms). The chi-square bound (``fact: chi-square``, A Renyi of
order 2 between records or of record removal, both ways) is the library's ``ChiSquare.v``: the slack ``chi_g T`` =
sqrt(exp(T) - 1)/sqrt(exp(T) + 3) (the certificates' text; ``chi_pairs_slack``, ``chi_removal_slack``), composed the
same way (between records the bound is at most 1, so the composition's ``Min(1, g)`` is g).
"""

from __future__ import annotations

import ast

import sympy

from implgraph.kernel_coq import adapter
from implgraph.kernel_coq.coqexpr import Untranslatable
from implgraph.kernel_coq.obligations import _need

__all__ = ["tv_distance", "METHODS", "MODULES", "SLACK_A"]

MODULES = ("Divergence", "Pinsker", "ChiSquare", "ZcdpPairs", "ZcdpRemoval")

#: the divergence kinds whose level is an additive slack on every event: kind -> its ratio gamma (None: the order)
SLACK_A = {"tv": "1", "hockey-stick": None}


def gamma(div):
    """The ratio of the slack ``P(E) <= gamma Q(E) + T`` that A's divergence at most T is (text), or None."""
    if div is None or div.kind not in SLACK_A:
        return None
    if SLACK_A[div.kind] is not None:
        return SLACK_A[div.kind]
    g = sympy.simplify(sympy.sympify(str(div.order)))
    return str(g) if g.is_Rational and g >= 1 else None


def slack_predicate(tr, div, level, K="K", x="x"):
    """The library's slack predicate of A's total variation or hockey stick at most ``level``, or None."""
    g = gamma(div)
    if g is None:
        return None
    if div.compares == "pairs":
        return f"slack_pairs_le N {K} {x} ({level}) ({tr.expr(g)})"
    if div.compares == "removal":
        return f"slack_removal_le N {K} {x} ({level}) ({tr.expr(g)})"
    return None


def _components(text):
    """The arguments of a ``Min`` at the top of U (texts), or ``[U]``."""
    node = ast.parse(str(text).strip(), mode="eval").body
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Min" \
            and len(node.args) == 2:
        return [ast.unparse(a) for a in node.args]
    return [str(text)]


def _below(f, lhs, bound):
    """Lines proving the goal ``lhs <= bound`` (``bound`` a certificate text P/Q, Q > 0 on the domain): ``lhs * Q <=
    P`` by ``nra`` from the obligation's hypotheses, then the quotient (``field``)."""
    P, Q = f.rd.ratio(bound)
    cp, cq = f.tr.poly(P), f.tr.poly(Q)
    return [f"assert (HQ : 0 < {cq}) by ({f.nonneg(Q, strict=True)}).",
            f"assert (HP : {lhs} * {cq} <= {cp}) by nra.",
            f"apply (Rmult_le_reg_r ({cq})); [exact HQ |].",
            f"replace ({f.tr.expr(bound)} * {cq}) with ({cp}) by ({f.nonzero(texts=[bound], polys=[Q])}; field; "
            f"nz_from_hyps).",
            "lra."]


def _pairs(f, g, bound):
    B = f.cert.B
    s = f.tr.expr(B.min_class or "1")
    part = f.part_index(B.min_class)
    head = [f"apply (slack_pairwise_distance N K x cls ({s}) ({f.tr.expr(g)}) T); "
            f"[exact Htab | exact P{part} | lra | exact HA |].",
            "unfold pairwise_distance_obl. intros ve vX vY H1 H2 H3 H4 H5 H6 H7 H8."]
    # (N - e)(X - Y) <= U N: U N = P'/Q'
    return head + _below(f, "((INR N - ve) * (vX - vY))", f"({bound})*N")


def _removal(f, g, bound):
    head = [f"apply (slack_removal_distance N K x cls ({f.tr.expr(g)}) T); [exact Htab | lra | exact HA |].",
            "unfold slack_removal_obl. intros vP vM H1 H2 H3 H4 H5 H6 H7."]
    return head + _below(f, "(vM - vP)", bound)


def tv_distance(f):
    """Proof lines of a ``tv-distance`` certificate with A total variation or a hockey stick (module notes)."""
    cert = f.cert
    data = cert.raw.get("upper_certificate") or {}
    fact = data.get("fact")
    if fact == "pinsker":
        return _pinsker(f)
    if fact == "chi-square":
        return _chi_square(f)
    div = adapter.divergence_side(cert.A)
    g = gamma(div)
    _need(fact in ("tv", "hockey-stick") and g is not None and f.a is not None and f.a.startswith("slack_"),
          "a tv-distance certificate whose A is not a total variation or hockey stick stated as its slack")
    B = cert.B
    _need(B.distance == "total-variation" and B.family == "class" and B.max_class is None,
          "a tv-distance certificate whose B is not a class's total variation distance")
    comps = _components(cert.upper)
    proof = _pairs if div.compares == "pairs" else _removal
    if len(comps) == 1:
        return proof(f, g, comps[0])
    lines = [f"apply (min_bound (fun U => {f.b_of('U')}))."]
    for c in comps:
        body = proof(f, g, c)
        lines += ["- " + body[0]] + [f"  {ln}" for ln in body[1:]]
    return lines


#: Pinsker's g(T) = sqrt(T/2) as the certificates print it (``Pinsker.pinsker_g`` is about this text)
PINSKER_G = "sqrt(2)*sqrt(T)/2"


def kl_of(f, div, ha="HA", out="HK"):
    """Lines giving ``out``, A's KL at most T (Renyi of order 2 read as KL: ``Divergence.renyi2_kl_*``; the
    zero-concentrated level between records: ``ZcdpPairs.zcdp_kl_pairs``; on record removal:
    ``ZcdpRemoval.zcdp_kl_removal``), and the hypothesis name of that KL predicate."""
    if div.kind == "kl":
        return [], ha
    if div.kind == "zcdp":     # KL <= T (ZcdpPairs.zcdp_kl_pairs, ZcdpRemoval.zcdp_kl_removal)
        _need(div.compares in ("pairs", "removal"),
              "a zero-concentrated A other than between every two records or on record removal")
        if div.compares == "removal":
            return [f"pose proof (zcdp_kl_removal N K x T Htab ltac:(lra) {ha}) as {out}."], out
        return [f"pose proof (zcdp_kl_pairs N K x T Htab {ha}) as {out}."], out
    _need(div.kind == "renyi" and str(div.order) == "2", "Pinsker from a divergence other than KL or Renyi of order 2")
    lemma = {"pairs": "renyi2_kl_pairs N K x T Htab", "class": "renyi2_kl_class N K x cls T Htab",
             "removal": "renyi2_kl_removal N K x T Htab ltac:(lra)"}[div.compares]
    return [f"pose proof ({lemma} {ha}) as {out}."], out


def _pinsker(f):
    """A's KL (or Renyi of order 2) at most T, B the class's total variation at U (module notes)."""
    cert = f.cert
    div = adapter.divergence_side(cert.A)
    B = cert.B
    _need(div is not None and div.kind in ("kl", "renyi", "zcdp") and div.compares in ("pairs", "class", "removal"),
          "a Pinsker certificate whose A is not a KL or Renyi divergence")
    _need(B.distance == "total-variation" and B.family == "class" and B.max_class is None,
          "a tv-distance certificate whose B is not a class's total variation distance")
    g = f.tr.expr(PINSKER_G)
    s = f.tr.expr(B.min_class or "1")
    part = f.part_index(B.min_class)
    lines, hk = kl_of(f, div)
    lines.append("destruct (pinsker_g T ltac:(lra)) as [Hg0 Hg2].")
    if div.compares == "pairs":
        lines += [f"pose proof (pinsker_pairs_slack N K x T {g} Htab {hk} Hg0 Hg2) as HS.",
                  f"apply (slack_pairs_tv N K x cls ({s}) {g}); [exact Htab | exact P{part} | lra | exact Hg0 "
                  f"| exact HS | ucmp]."]
    elif div.compares == "class":
        lines += [f"apply (class_tv_min N K x cls ({s}) {g}); [exact Htab | exact P{part} | lra | "
                  f"apply (pinsker_class_tv N K x cls T {g} Htab ltac:(lra) {hk} Hg0 Hg2) | ucmp]."]
    else:
        lines += [f"pose proof (pinsker_removal_slack N K x T {g} Htab ltac:(lra) {hk} Hg0 Hg2) as HS.",
                  f"apply (slack_removal_tv N K x cls ({s}) {g}); [exact Htab | exact P{part} | lra | lra "
                  f"| exact Hg0 | exact HS | ucmp]."]
    return lines


def positive_threshold(whole, h_text, r_text, op, label, term="hv"):
    """Lines proving ``label : term > 0`` (or ``>= 0``) for a composition's first bound h with square roots
    (Pinsker's and the chi-square bound, perhaps under a minimum), by ``Pinsker.pos_atoms`` (a product, quotient,
    minimum or square root of terms each > 0 on the certificate's domain by ``lra``); ``term`` is h's local name
    ``hv`` (unfolded first) or h's own Coq text (an argument of h's minimum). None for an h without a square root
    (the caller's refusal stands); other thresholds than 0 are refused."""
    if "sqrt(" not in str(h_text):
        return None
    _need(whole.rd.poly(r_text).is_zero, f"a threshold {r_text} other than 0 for a bound that is not a rational "
          f"function ({h_text})")
    unfold = "unfold hv; " if term == "hv" else ""
    return [f"assert ({label} : {term} {op} 0) by ({unfold}apply Rlt_gt; pos_atoms)." if op == ">" else
            f"assert ({label} : {term} {op} 0) by ({unfold}apply Rle_ge; left; pos_atoms)."]


def _chi_square(f):
    """A's Renyi divergence of order 2 at most T both ways (between records or of record removal), B the class's
    total variation at U (module notes)."""
    cert = f.cert
    div = adapter.divergence_side(cert.A)
    B = cert.B
    _need(div is not None and div.kind == "renyi" and str(div.order) == "2" and div.compares in ("pairs", "removal"),
          "a chi-square certificate whose A is not Renyi of order 2 between records or of record removal")
    _need(B.distance == "total-variation" and B.family == "class" and B.max_class is None,
          "a tv-distance certificate whose B is not a class's total variation distance")
    s = f.tr.expr(B.min_class or "1")
    part = f.part_index(B.min_class)
    if div.compares == "pairs":
        return ["pose proof (chi_pairs_slack N K x T ltac:(lra) Htab HA) as HS.",
                f"apply (slack_pairs_tv N K x cls ({s}) (chi_g T)); [exact Htab | exact P{part} | lra "
                f"| apply chi_g_nonneg; lra | exact HS |].",
                "rewrite (Rmin_right 1 (chi_g T)) by (apply chi_g_le1; lra). unfold chi_g. ucmp."]
    return ["pose proof (chi_removal_slack N K x T ltac:(lra) Htab ltac:(lra) HA) as HS.",
            f"apply (slack_removal_tv N K x cls ({s}) (chi_g T)); [exact Htab | exact P{part} | lra | lra "
            f"| apply chi_g_nonneg; lra | exact HS |].",
            "unfold chi_g. ucmp."]


#: certificate method -> proof lines (leaf methods of the generator)
METHODS = {"tv-distance": tv_distance}
