"""Coq proofs of ``slack-pairs-tv`` certificates: an additive slack d at a ratio g, between two records or on record
removal, bounds the total variation between two records (``SlackPairsTV.v``; the math in
:mod:`implgraph.certify.lemmas.slack_pairs_tv`).

The sides are stated as the additive slacks on every event they are, exactly their levels: B, the total variation
between two records at most U, is ``slack_pairs_le N K x U 1``; A is an (eps, delta) level's declared slack
``slack_pairs_le N K x delta T`` (between records) or ``slack_removal_le N K x delta T`` (the table against the table
without each record, both ways), or a hockey-stick level of order gamma (total variation: gamma = 1) at most T, the
slack T at the ratio gamma (:func:`implgraph.kernel_coq.gen_tv_distance.slack_predicate`). The library proves once
that such an A gives U = (g - 1 + 2 d)/(g + 1) between records (``slack_pairs_tv_pairs``) and U = min(1, (N - 1)(1 -
(1 - 2 d)/g)) on removal (``slack_pairs_tv_removal``, ``slack_pairs_tv_one``, for any g > 0).

The certificate's data enter as follows: its slack d and ratio g (``upper_certificate``: ``slack.delta`` at g = T, or
``a_divergence.gamma`` at d = T) equal A's as the statement declares them (``Hd``, ``Hg``, by ``ring``/``field``); U
equals the lemma's value at (d, g) by ``field`` (``HU``), on removal U's ``Min`` argument by argument (``HU0``,
``HU1``: an argument equal to 1 is the total variation's ceiling, the other the lemma's value). An edited number in
U, in delta or in gamma therefore fails ``coqc`` at its own step. Not covered (:class:`Untranslatable`): B other than
the total variation between two records, A other than such a slack, a certificate whose slack compares other records
than A's.
"""

from __future__ import annotations

import ast
import dataclasses

import sympy

from implgraph.kernel_coq.obligations import _need

__all__ = ["slack_pairs_tv", "slack_pairs_tv_lines", "METHODS", "MODULES"]

#: the library module the lemmas live in
MODULES = ("SlackPairsTV",)


def _a_slack(cert):
    """``(compares, d, g)`` texts of A's slack as the statement declares it: an (eps, delta) level's declared slack at
    the ratio T, or a total variation or hockey-stick level at most T (the slack T at its ratio gamma)."""
    from implgraph.kernel_coq import adapter
    from implgraph.kernel_coq.gen_tv_distance import gamma
    A = cert.A
    if A.slack is not None:
        _need(A.slack.compares in ("pairs", "removal"), "a slack-pairs-tv A whose slack compares other records")
        return A.slack.compares, str(A.slack.delta), "T"
    div = adapter.divergence_side(A)
    g = gamma(div)
    _need(g is not None and div.compares in ("pairs", "removal"),
          "a slack-pairs-tv A that is neither a declared slack nor a total variation or hockey stick at a number")
    return div.compares, "T", g


def _cert_slack(cert):
    """``(compares, d, g)`` texts of the slack the certificate's data name."""
    data = cert.raw.get("upper_certificate") or {}
    sl, ad = data.get("slack"), data.get("a_divergence")
    _need((sl is None) != (ad is None), "a slack-pairs-tv certificate without exactly one of slack and a_divergence")
    if sl is not None:
        _need(sl.get("delta") is not None, "a slack-pairs-tv certificate's slack without delta")
        return sl.get("compares"), str(sl["delta"]), "T"
    _need(ad.get("gamma") is not None, "a slack-pairs-tv certificate's a_divergence without gamma")
    return ad.get("compares"), "T", str(ad["gamma"])


def _b_tv(cert):
    """B's divergence, the total variation between two records (else :class:`Untranslatable`)."""
    from implgraph.kernel_coq import adapter
    div_b = adapter.divergence_side(cert.B)
    _need(div_b is not None and div_b.kind == "tv" and div_b.compares == "pairs",
          "a slack-pairs-tv certificate whose B is not the total variation between two records")
    return div_b


def _file(cert, name):
    """The theorem's pieces (:class:`implgraph.kernel_coq.statement._File`), A and B stated as their slacks."""
    from implgraph.kernel_coq import adapter
    from implgraph.kernel_coq.gen_tv_distance import slack_predicate
    from implgraph.kernel_coq.statement import _File
    div_b = _b_tv(cert)
    # the statement's other pieces (symbols, domain) from the certificate without A: both sides are stated here
    f = _File(dataclasses.replace(cert, A=adapter.Side()), name)
    f.cert = cert
    compares, d, g = _a_slack(cert)
    pred = "slack_pairs_le" if compares == "pairs" else "slack_removal_le"
    f.a = f"{pred} N K x ({f.tr.expr(d)}) ({f.tr.expr(g)})"
    f.b = slack_predicate(f.tr, div_b, f.upper)
    f.b_of = lambda level: slack_predicate(f.tr, div_b, level)
    return f


def _equal(f, label, left, right, polys=()):
    """Line proving ``label : left = right`` (texts) by ``ring``, else ``field`` with its denominators nonzero."""
    rd = f.rd
    nz = f.nonzero(texts=[left, right], polys=[rd.poly(p) for p in polys])
    return (f"assert ({label} : {f.tr.expr(left)} = {f.tr.expr(right)}) by "
            f"(first [ring | {nz}; field; nz_from_hyps]).")


def _min_args(text):
    """The argument texts of a ``Min`` at the top of U, or None."""
    node = ast.parse(str(text).strip(), mode="eval").body
    if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Min" and len(node.args) == 2:
        return [ast.unparse(a) for a in node.args]
    return None


def _pairs_lines(f, d, g, cd, cg):
    """Lines proving B between records: ``HU``, U equal to (g - 1 + 2 d)/(g + 1) (``d``, ``g`` texts, ``cd``, ``cg``
    their Coq terms), then the lemma at (d, g)."""
    value = f"(({g}) - 1 + 2*({d}))/(({g}) + 1)"
    return [_equal(f, "HU", f.cert.upper, value, polys=[f"({g}) + 1"]),
            f"apply (slack_pairs_eq N K x _ (({cg} - 1 + 2 * {cd}) / ({cg} + 1)) 1 HU).",
            f"apply (slack_pairs_tv_pairs N K x ({cd}) ({cg})); [exact Htab | lra | exact HA']."]


def _removal_lines(f, d, g, cd, cg):
    """Lines proving B from A on removal: U equal to (N - 1)(1 - (1 - 2 d)/g) (``HU``), or U's ``Min`` split, each
    argument equal to 1 or to that value (``HUi``), each by its lemma."""
    from implgraph.kernel_coq.gen_subset_chord import _expr
    value = f"(N - 1)*(1 - (1 - 2*({d}))/({g}))"
    lemma = f"apply (slack_pairs_tv_removal N K x ({cd}) ({cg})); [exact Htab | lra | lra | exact HA']"
    coq_value = f"((INR N - 1) * (1 - (1 - 2 * {cd}) / {cg}))"
    args = _min_args(f.cert.upper)
    if args is None:
        return [_equal(f, "HU", f.cert.upper, value, polys=[g]),
                f"apply (slack_pairs_eq N K x _ {coq_value} 1 HU).", f"{lemma}."]
    lines, items = [], []
    for i, a in enumerate(args):
        if sympy.simplify(_expr(f, a) - 1) == 0:
            lines.append(_equal(f, f"HU{i}", a, "1"))
            items.append(f"apply (slack_pairs_eq N K x _ 1 1 HU{i}); exact (slack_pairs_tv_one N K x Htab)")
        else:
            lines.append(_equal(f, f"HU{i}", a, value, polys=[g]))
            items.append(f"apply (slack_pairs_eq N K x _ {coq_value} 1 HU{i}); {lemma}")
    return lines + ["apply (min_bound (fun U => slack_pairs_le N K x U 1)).",
                    f"- {items[0]}.", f"- {items[1]}."]


def slack_pairs_tv_lines(f):
    """Proof lines of a ``slack-pairs-tv`` certificate after its intros (``f`` its theorem's pieces, A stated as its
    slack ``HA``, B as the slack at the ratio 1): the certificate's slack and ratio equal A's, then U the lemma's."""
    from implgraph.kernel_coq.gen_chord_removal import domain_lines
    cert = f.cert
    _need(cert.upper is not None, "a slack-pairs-tv certificate without U")
    _b_tv(cert)
    compares, d_a, g_a = _a_slack(cert)
    c_compares, d, g = _cert_slack(cert)
    _need(c_compares == compares, "a slack-pairs-tv certificate whose slack compares other records than A's")
    cd, cg = f.tr.expr(d), f.tr.expr(g)
    same = "slack_pairs_same" if compares == "pairs" else "slack_removal_same"
    lines = domain_lines(f) + [
        _equal(f, "Hd", d_a, d), _equal(f, "Hg", g_a, g),
        f"assert (HA' := {same} N K x _ _ ({cd}) ({cg}) Hd Hg HA)."]
    return lines + (_pairs_lines if compares == "pairs" else _removal_lines)(f, d, g, cd, cg)


def slack_pairs_tv(cert, name):
    """The Coq text of a ``slack-pairs-tv`` certificate's theorem ``name``."""
    from implgraph.kernel_coq.generate import _block
    f = _file(cert, name)
    return _block(f.statement(), [f.intros()] + slack_pairs_tv_lines(f))


#: certificate method -> proof lines from the theorem's pieces (a leaf of the generator's once
#: :class:`implgraph.kernel_coq.statement._File` states this method's sides as their slacks)
METHODS = {"slack-pairs-tv": slack_pairs_tv_lines}
