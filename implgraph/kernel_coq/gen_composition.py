"""Coq proofs of ``composition`` certificates: A => C with bound h, then C => B at every threshold, so A => B.

The file states three theorems: the first part's (``NAME_part1``: A at T gives C at h), the second part's
(``NAME_part2``: C at T gives B at g(T), for every T of its domain) and the certificate's own (``NAME``: A at T gives B
at U). The last applies the first part, then the second part's theorem at ``T = h``: each condition of the second
part's domain that mentions T is ``T >= r`` or ``T > r`` (r a number, as the checker requires), and ``h >= r`` (``>``)
is proved from ``h = P/Q`` (``field``), ``Q > 0`` and ``P - Q r >= 0`` (``> 0``) on the certificate's domain by the
shift argument (the library's ``Compose.ge_from_ratio``); each other condition must be one of the certificate's
own. Finally U = g(h) by ``field`` (or, for U = log(a) and g(h) = log(b), a = b by ``field``). A part whose method
the generator does not cover makes the whole untranslatable.
"""

from __future__ import annotations

import ast

from implgraph.certify.expr import NotPolynomial
from implgraph.kernel_coq.coqexpr import Untranslatable
from implgraph.kernel_coq.generate import _block, _call, _File, _leaf, _need

__all__ = ["composition"]

_OPS = {ast.GtE: (">=", False), ast.Gt: (">", False), ast.LtE: (">=", True), ast.Lt: (">", True)}


def _threshold(text):
    """``(r, op)`` of a condition ``T >= r`` / ``T > r`` (either way round, r without T), else None."""
    node = ast.parse(str(text).strip(), mode="eval").body
    if not (isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _OPS):
        return None
    op, flip = _OPS[type(node.ops[0])]
    var, other = (node.comparators[0], node.left) if flip else (node.left, node.comparators[0])
    if not (isinstance(var, ast.Name) and var.id == "T"):
        return None
    if any(isinstance(n, ast.Name) for n in ast.walk(other)):
        return None
    return ast.unparse(other), op


def _mentions_t(text):
    return any(isinstance(n, ast.Name) and n.id == "T" for n in ast.walk(ast.parse(str(text).strip(), mode="eval")))


def _threshold_lines(whole, h_text, r_text, op, label):
    """Lines proving ``label : hv OP r`` (hv the local name of h) on the certificate's domain."""
    rd, tr = whole.rd, whole.tr
    try:
        P, Q = rd.ratio(h_text)
    except NotPolynomial:       # square roots in h (Pinsker's, the chi-square bound): h > 0 read off its atoms
        from implgraph.kernel_coq.gen_tv_distance import positive_threshold
        lines = positive_threshold(whole, h_text, r_text, op, label)
        if lines is None:
            raise
        return lines
    r = rd.poly(r_text)
    _need(r.is_ground, f"a threshold {r_text} that is not a number")
    lemma = "ge_from_ratio" if op == ">=" else "gt_from_ratio"
    gap = P - Q * r
    return [f"assert ({label} : hv {op} {tr.expr(r_text)}).",
            f"{{ apply ({lemma} hv ({tr.poly(P)}) ({tr.poly(Q)}) ({tr.expr(r_text)})).",
            f"  - unfold hv. {whole.nonzero(texts=[h_text], polys=[Q])}; field; nz_from_hyps.",
            f"  - {whole.nonneg(Q, strict=True)}.",
            f"  - {whole.nonneg(gap, strict=op == '>')}. }}"]


def composition(cert, name):
    """The Coq text of a ``composition`` certificate's theorem ``name`` (and its parts' ``name_part1``, ``_part2``)."""
    parts = cert.parts
    _need(len(parts) == 2, "composition of other than two parts")
    first, second = parts
    f1, lines1 = _leaf(first, f"{name}_part1")
    f2, lines2 = _leaf(second, f"{name}_part2")
    out = [_block(f1.statement(), [f1.intros()] + lines1), _block(f2.statement(), [f2.intros()] + lines2)]
    whole = _File(cert, name)
    _need(whole.a is not None, "a composition whose A has no predicate in the library")
    _need(f2.syms() == whole.syms(), "a second part whose symbols differ from the certificate's")
    h_text = first.upper
    _need(h_text is not None, "a first part without an upper bound")
    lines = [whole.intros(), f"pose proof {_call(whole, f1, f'{name}_part1', 'HA')} as HC.",
             f"set (hv := {f1.upper}) in HC."]
    args = []
    for k, text in enumerate(second.domain):
        if not _mentions_t(text):
            coq = f2.doms[k]
            _need(coq in whole.doms, f"a condition of the second part ({text}) not among the certificate's")
            args.append(f"D{whole.doms.index(coq)}")
            continue
        thr = _threshold(text)
        _need(thr is not None, f"a condition of the second part on T other than T >= r ({text})")
        lines += _threshold_lines(whole, h_text, thr[0], thr[1], f"E{k}")
        lines.append(f"assert (F{k} : (fun T : R => {f2.doms[k]}) hv) by (cbv beta; lra).")
        args.append(f"F{k}")
    try:
        parts_args = [f"P{whole.parts.index(p)}" for p in f2.parts]
    except ValueError:
        raise Untranslatable("a second part whose partition is not among the certificate's") from None
    syms = ["hv" if s == "T" else s for s in f2.syms()]
    rest = ["Arest"] if f2.extra_binders else []
    call = " ".join(syms + args + ["K", "x", "cls"] + rest + ["Htab"] + parts_args + ["HC"])
    lines.append(f"pose proof ({name}_part2 {call}) as HB.")
    g_at_h = f"((fun T : R => {f2.upper}) hv)"
    texts = [t for t in (cert.upper, second.upper, h_text) if t is not None]
    lines.append(f"apply (level_eq (fun LvlU => {whole.b_of('LvlU')}) ({whole.upper}) {g_at_h}); "
                 f"[cbv beta; unfold hv; {whole.nonzero(texts)}; "
                 f"first [field; nz_from_hyps | f_equal; field; nz_from_hyps] | exact HB].")
    out.append(_block(whole.statement(), lines))
    return "\n".join(out)
