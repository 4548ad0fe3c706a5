"""Coq proofs of ``ceiling-chord`` certificates: a class's total variation distance from the table bounds its KL or
Renyi-2 divergence, its ratios being at most N.

The library's ``CeilingChord.v`` proves once that where every ratio ``r_l = p_l / q_l`` lies in ``[0, H]`` and
``phi`` lies below its chords on ``[0, 1]`` and ``[1, H]``, the divergence is at most ``phi(1) + (phi(0) - phi(1) +
(phi(H) - phi(1))/(H - 1)) TV`` (``ceiling_chord``), and its instances for a class against the table with
``H = N`` (a class of >= 1 record holds at most the table's mass: ``class_ratio_n``): ``ceiling_chord_kl``
(``N ln N/(N - 1) V <= U``) and ``ceiling_chord_renyi2`` (``1 + N V <= exp(U)``), V a bound on the classes' total
variation distance. V is A's level T where A is a class's total variation distance (``factor`` 1), and
``(N - 1) T/N`` where A is the total variation between every two records (stated as its slack,
:mod:`implgraph.kernel_coq.gen_tv_distance`; ``factor`` (N - 1)/N), shown by ``slack_pairwise_distance``. The last
step is an identity (``field``, ``exp_ln`` for Renyi's logarithm); an edited U or factor makes it fail.
"""

from __future__ import annotations

import ast

import sympy

from implgraph.kernel_coq import adapter
from implgraph.kernel_coq.coqexpr import Untranslatable
from implgraph.kernel_coq.gen_tv_distance import _pairs
from implgraph.kernel_coq.obligations import _need

__all__ = ["ceiling_chord", "METHODS", "MODULES"]

MODULES = ("CeilingChord", "Divergence")


def _same(a, b):
    from implgraph.core.formula import parse_expr
    names = {n: sympy.Symbol(n, positive=True) for n in ("N", "T")}
    return sympy.simplify(parse_expr(str(a), names) - parse_expr(str(b), names)) == 0


def _tv_bound(f):
    """``(V, lines)``: the classes' total variation bound V (a certificate text) and the lines proving ``HTV :
    tv_le N K x cls V``."""
    cert = f.cert
    factor = str((cert.raw.get("upper_certificate") or {}).get("factor") or "")
    if f.a is not None and f.a.startswith("tv_le "):
        _need(_same(factor, "1"), "a ceiling chord from a class's total variation whose factor is not 1")
        _need(str(cert.A.min_class or "1") == str(cert.B.min_class or "1") and not cert.A.max_class,
              "a ceiling chord whose A's classes are not B's")
        return "T", ["pose proof HA as HTV."]
    div = adapter.divergence_side(cert.A)
    if f.a is not None and f.a.startswith("slack_pairs_le ") and div is not None and div.kind == "tv":
        _need(_same(factor, "(N - 1)/N"), "a ceiling chord from the total variation between records whose factor "
              "is not (N - 1)/N")
        V = "(N - 1)*T/N"
        body = _pairs(f, "1", V)
        return V, [f"assert (HTV : tv_le N K x cls ({f.tr.expr(V)}))."] + ["{ " + body[0]] + \
            [f"  {ln}" for ln in body[1:]] + ["}"]
    raise Untranslatable("a ceiling chord whose A is not a class's total variation or the total variation between "
                         "records")


def ceiling_chord(f):
    """Proof lines of a ``ceiling-chord`` certificate (module notes)."""
    cert = f.cert
    div = adapter.divergence_side(cert.B)
    _need(div is not None and div.compares == "class" and not cert.B.max_class,
          "a ceiling chord whose B is not a class divergence")
    V, lines = _tv_bound(f)
    part = f.part_index(cert.B.min_class)
    s = f.tr.expr(cert.B.min_class or "1")
    lines = lines + [f"pose proof (class_ratio_n N K x cls ({s}) Htab P{part} ltac:(lra)) as HR."]
    v, U = f.tr.expr(V), f.upper
    nz = "assert (HN0 : INR N <> 0) by lra. assert (HN1 : INR N - 1 <> 0) by lra."
    if div.kind == "kl":
        return lines + [nz, f"apply (ceiling_chord_kl N K x cls ({v}) ({U}) Htab ltac:(lra) HR HTV).",
                        "apply Req_le. field; nz_from_hyps."]
    _need(div.kind == "renyi" and str(div.order) == "2", f"a ceiling chord of {div.kind} (the library has KL and "
          "Renyi of order 2)")
    node = ast.parse(str(cert.upper).strip(), mode="eval").body
    _need(isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "log"
          and len(node.args) == 1, "a Renyi ceiling chord whose U is not a logarithm")
    arg = f.tr.expr(ast.unparse(node.args[0]))
    return lines + [nz, f"apply (ceiling_chord_renyi2 N K x cls ({v}) ({U}) Htab ltac:(lra) HR HTV).",
                    f"assert (Hpos : 0 < {arg}) by nra.", "rewrite exp_ln by exact Hpos.",
                    "apply Req_le. field; nz_from_hyps."]


#: certificate method -> proof lines (leaf methods of the generator)
METHODS = {"ceiling-chord": ceiling_chord}
