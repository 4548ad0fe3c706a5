"""Coq proofs of ``slack-hockey-stick`` certificates: an (eps, delta) level between records bounds the hockey-stick
slack at a number gamma between records or on record removal (``SlackHockeyStick.v``; the math in
:mod:`implgraph.certify.lemmas.slack_hockey_stick`).

The sides are stated as the additive slacks on every event they are, exactly their levels: A, the declared slack
between records, ``slack_pairs_le N K x delta T``; B, the hockey-stick at gamma at most U, ``slack_pairs_le N K x U
gamma`` between records or ``slack_removal_le N K x U gamma`` on record removal (both ways)
(:func:`implgraph.kernel_coq.gen_tv_distance.slack_predicate`).

The certificate's data enter as follows: its delta (``upper_certificate.slack.delta``) equals A's and its gamma
(``upper_certificate.b_divergence.gamma``) B's (``Hd``, ``Hg``, by ``ring``/``field``); U is a ``Max`` whose two
arguments equal the lemma's at that delta and gamma (``HU0``, ``HU1``, by ``field``; in either order). An edited
number in U, in delta or in gamma therefore fails ``coqc`` at its own step. Not covered (:class:`Untranslatable`):
A other than a slack between records, B other than a hockey-stick at a rational gamma between records or on removal,
U not a ``Max`` of two arguments.
"""

from __future__ import annotations

import ast
import dataclasses

import sympy

from implgraph.kernel_coq.obligations import _need

__all__ = ["slack_hockey_stick", "MODULES"]

#: the library module the lemmas live in
MODULES = ("SlackHockeyStick",)


def _sides(cert):
    """``(delta text, gamma text, compares)``: A's declared slack between records and B's hockey-stick at a number."""
    from implgraph.kernel_coq import adapter
    from implgraph.kernel_coq.gen_tv_distance import gamma
    _need(cert.A.slack is not None and cert.A.slack.compares == "pairs",
          "a slack-hockey-stick A that is not a slack between records")
    div = adapter.divergence_side(cert.B)
    _need(div is not None and div.kind == "hockey-stick" and div.compares in ("pairs", "removal")
          and gamma(div) is not None, "a slack-hockey-stick B that is not a hockey stick at a rational gamma")
    return str(cert.A.slack.delta), gamma(div), div.compares, div


def _data(cert):
    """``(delta, gamma)`` texts the certificate's data state."""
    data = cert.raw.get("upper_certificate") or {}
    sl, bd = data.get("slack") or {}, data.get("b_divergence") or {}
    _need(sl.get("delta") is not None and bd.get("gamma") is not None,
          "a slack-hockey-stick certificate without its slack's delta or B's gamma")
    return str(sl["delta"]), str(bd["gamma"])


def _max_args(text):
    """The two argument texts of the ``Max`` at the top of U (else :class:`Untranslatable`)."""
    node = ast.parse(str(text).strip(), mode="eval").body
    _need(isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Max" and len(node.args) == 2,
          "a slack-hockey-stick U that is not a Max of two arguments")
    return [ast.unparse(a) for a in node.args]


def lemma_args(compares, d, g):
    """The lemma's two arguments (texts in N, T and the data's ``d``, ``g``) in the library's order."""
    if compares == "pairs":
        return [f"({d})", f"((T) - ({g}) + (1 + ({g}))*({d}))/((T) + 1)"]
    r = f"(1 + N*(({g}) - 1))"
    return [f"({d})/N", f"((T) - {r} + (1 + {r})*({d}))/((T) + 1)/N"]


def _equal(f, label, left, right, polys=()):
    """Line proving ``label : left = right`` (texts) by ``ring``, else ``field`` with its denominators nonzero."""
    nz = f.nonzero(texts=[left, right], polys=[f.rd.poly(p) for p in polys])
    return (f"assert ({label} : {f.tr.expr(left)} = {f.tr.expr(right)}) by "
            f"(first [ring | {nz}; field; nz_from_hyps]).")


def _swapped(f, args, mine) -> bool:
    """Do U's arguments come in the other order than the lemma's (decided exactly; a forged U keeps the order)?"""
    from implgraph.kernel_coq.gen_subset_chord import _expr
    same = sympy.simplify(_expr(f, args[0]) - _expr(f, mine[0])) == 0
    other = sympy.simplify(_expr(f, args[0]) - _expr(f, mine[1])) == 0
    return other and not same


def _lines(f):
    """Proof lines after the intros: the data's delta and gamma equal the statement's, U's arguments the lemma's."""
    from implgraph.kernel_coq.gen_chord_removal import domain_lines
    cert = f.cert
    d_a, g_b, compares, _ = _sides(cert)
    d, g = _data(cert)
    args, mine = _max_args(cert.upper), lemma_args(compares, d, g)
    swap = _swapped(f, args, mine)
    order = [mine[1], mine[0]] if swap else mine
    cd, cg = f.tr.expr(d), f.tr.expr(g)
    kind = "pairs" if compares == "pairs" else "removal"
    lines = domain_lines(f) + [_equal(f, "Hd", d_a, d), _equal(f, "Hg", g_b, g),
                               _equal(f, "HU0", args[0], order[0], polys=["T + 1", "N"]),
                               _equal(f, "HU1", args[1], order[1], polys=["T + 1", "N"]),
                               f"apply ({kind}_max_eq N K x _ _ ({f.tr.expr(order[0])}) ({f.tr.expr(order[1])}) _ "
                               "HU0 HU1)."]
    if swap:
        lines.append(f"apply {kind}_max_swap.")
    if compares == "pairs":
        lines.append(f"apply (slack_hockey_pairs_at N K x _ _ ({cd}) T ({cg}) Hd Hg Htab); "
                     "[lra | lra | exact HA].")
    else:
        lines.append(f"apply (slack_hockey_removal_at N K x _ _ ({cd}) T ({cg}) Hd Hg Htab); "
                     "[lra | lra | lra | lra | exact HA].")
    return lines


def _file(cert, name):
    """The theorem's pieces (:class:`implgraph.kernel_coq.statement._File`), A and B stated as their slacks."""
    from implgraph.kernel_coq import adapter
    from implgraph.kernel_coq.gen_tv_distance import slack_predicate
    from implgraph.kernel_coq.statement import _File
    d_a, _, _, div_b = _sides(cert)
    # the statement's other pieces (symbols, domain) from the certificate without its sides: both are stated here
    f = _File(dataclasses.replace(cert, A=adapter.Side()), name)
    f.cert = cert
    f.a = f"slack_pairs_le N K x ({f.tr.expr(d_a)}) (T)"
    f.b = slack_predicate(f.tr, div_b, f.upper)
    f.b_of = lambda level: slack_predicate(f.tr, div_b, level)
    return f


def slack_hockey_stick(cert, name):
    """The Coq text of a ``slack-hockey-stick`` certificate's theorem ``name``."""
    from implgraph.kernel_coq.generate import _block
    _need(cert.upper is not None, "a slack-hockey-stick certificate without U")
    f = _file(cert, name)
    return _block(f.statement(), [f.intros()] + _lines(f))
