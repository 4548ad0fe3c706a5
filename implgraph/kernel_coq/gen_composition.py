"""Coq proofs of ``composition`` certificates: A => C with bound h, then C => B at every threshold, so A => B.

The file states three theorems: the first part's (``NAME_part1``: A at T gives C at h), the second part's
(``NAME_part2``: C at T gives B at g(T), for every T of its domain) and the certificate's own (``NAME``: A at T gives B
at U). The last applies the first part, then the second part's theorem at ``T = h``: each condition of the second
part's domain that mentions T is ``T >= r`` or ``T > r`` (r a number, as the checker requires), and ``h >= r`` (``>``)
is proved from ``h = P/Q`` (``field``), ``Q > 0`` and ``P - Q r >= 0`` (``> 0``) on the certificate's domain by the
shift argument (the library's ``Compose.ge_from_ratio``); each other condition is one of the certificate's own or
follows from them by ``lra``. Finally U = g(h) by ``field`` (or, for U = log(a) and g(h) = log(b), a = b by
``field``). A part whose method the generator does not cover makes the whole untranslatable.

Where h is a ``Min`` of arguments (``Min(a1, a2, ...)``), the second part is applied at ``T = h`` all the same: each
threshold ``h >= r`` holds because every argument's does (``a_i = P_i/Q_i`` as above; ``MinSplit.min_ge``), and each
``Min`` of U's is h with its arguments written as U writes them: each argument equal to one of h's by ``field``,
and the two ``Min``s equal whatever the order (every ``Rmin`` split into its cases, ``lra``), so that U = g(h) by
``field`` with h an atom. Where U and g are both a ``Min`` of as many arguments, each of U's arguments is shown
equal to one of g's at h (``field``; paired by their values at a few points, only to choose the pairs) and the two
``Min``s equal whatever the order. Where the first part states A by its class floor above A's weakest level
(:mod:`implgraph.kernel_coq.gen_floor_above`), the whole states A so too.
"""

from __future__ import annotations

import ast
import math

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


def _threshold_lines(whole, h_text, r_text, op, label, term="hv", unfold="unfold hv. "):
    """Lines proving ``label : term OP r`` (``term`` h's local name, or the Coq text of h) on the certificate's
    domain."""
    rd, tr = whole.rd, whole.tr
    try:
        P, Q = rd.ratio(h_text)
    except NotPolynomial:       # square roots in h (Pinsker's, the chi-square bound): h > 0 read off its atoms
        from implgraph.kernel_coq.gen_tv_distance import positive_threshold
        lines = positive_threshold(whole, h_text, r_text, op, label, term=term)
        if lines is None:
            raise
        return lines
    r = rd.poly(r_text)
    _need(r.is_ground, f"a threshold {r_text} that is not a number")
    lemma = "ge_from_ratio" if op == ">=" else "gt_from_ratio"
    gap = P - Q * r
    return [f"assert ({label} : {term} {op} {tr.expr(r_text)}).",
            f"{{ apply ({lemma} {term} ({tr.poly(P)}) ({tr.poly(Q)}) ({tr.expr(r_text)})).",
            f"  - {unfold}{whole.nonzero(texts=[h_text], polys=[Q])}; field; nz_from_hyps.",
            f"  - {whole.nonneg(Q, strict=True)}.",
            f"  - {whole.nonneg(gap, strict=op == '>')}. }}"]


def _min_args(text):
    """The arguments' texts of ``text`` when it is ``Min(...)`` at the top, else None."""
    node = ast.parse(str(text).strip(), mode="eval").body
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Min" \
            and len(node.args) >= 2 and not node.keywords:
        return [ast.unparse(a) for a in node.args]
    return None


def _min_threshold_lines(whole, args, r_text, op, label):
    """Lines proving ``label : hv OP r`` for h = Min(args): each argument's threshold, then the Min's."""
    lines = []
    for i, a in enumerate(args):
        lines += _threshold_lines(whole, a, r_text, op, f"{label}_{i}", term=f"({whole.tr.expr(a)})", unfold="")
    lines.append(f"assert ({label} : hv {op} {whole.tr.expr(r_text)}) by (unfold hv; min_threshold).")
    return lines


def _same(rd, a, b):
    """Whether two rational functions' texts are equal (their cross products agree as polynomials)."""
    try:
        pa, qa = rd.ratio(a)
        pb, qb = rd.ratio(b)
    except Exception:       # not a rational function: no match (the step is written anyway and fails)
        return False
    return (pa * qb - pb * qa).is_zero


def _min_equations(whole, u_text, h_args):
    """``(lines, names)``: for each distinct ``Min`` of U, ``EMj : <that Min> = hv`` (its arguments rewritten into
    h's by ``field``, then every ``Rmin`` split into its cases)."""
    tr, rd = whole.tr, whole.rd
    seen, lines, names = [], [], []
    for node in ast.walk(ast.parse(str(u_text).strip(), mode="eval").body):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Min"):
            continue
        coq = tr.expr(ast.unparse(node))
        u_args = [ast.unparse(a) for a in node.args]
        if coq in seen or len(u_args) != len(h_args) or not any(_same(rd, a, b) for a in u_args for b in h_args):
            continue        # another Min of U (its own arguments; the final step decides)
        seen.append(coq)
        steps, free = [], list(range(len(h_args)))
        for k, a in enumerate(u_args):
            match = next((j for j in free if _same(rd, a, h_args[j])), free[0] if free else None)
            _need(match is not None, "a Min of U with more arguments than the first part's bound")
            free.remove(match)
            if tr.expr(a) != tr.expr(h_args[match]):
                steps.append(f"replace ({tr.expr(a)}) with ({tr.expr(h_args[match])}) "
                             f"by ({whole.nonzero(texts=[a, h_args[match]])}; field; nz_from_hyps)")
        _need(not free, "a Min of U with fewer arguments than the first part's bound")
        name = f"EM{len(names)}"
        names.append(name)
        lines.append(f"assert ({name} : {coq} = hv) by (unfold hv; {'; '.join(steps + ['min_split; lra'])}).")
    return lines, names


_FUNCS = {"Min": min, "Max": max, "log": math.log, "exp": math.exp}


def _value(node, at):
    """A float value of an expression's tree at the point ``at`` (only to pair U's arguments with g's; Coq checks
    each pair), None where it is undefined."""
    try:
        if isinstance(node, ast.Constant) and type(node.value) in (int, float):
            return float(node.value)
        if isinstance(node, ast.Name):
            return at[node.id]
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -_value(node.operand, at)
        if isinstance(node, ast.BinOp):
            a, b = _value(node.left, at), _value(node.right, at)
            op = type(node.op)
            return {ast.Add: lambda: a + b, ast.Sub: lambda: a - b, ast.Mult: lambda: a * b,
                    ast.Div: lambda: a / b, ast.Pow: lambda: a ** b}[op]()
        if isinstance(node, ast.Call) and node.func.id in _FUNCS:
            return _FUNCS[node.func.id](*[_value(a, at) for a in node.args])
    except (AttributeError, KeyError, TypeError, ValueError, ZeroDivisionError, OverflowError):
        return None
    return None


def _at_h(text, h_text):
    """``text``'s tree with T replaced by h's."""
    h = ast.parse(str(h_text).strip(), mode="eval").body

    class _Sub(ast.NodeTransformer):
        def visit_Name(self, node):
            return h if node.id == "T" else node
    return _Sub().visit(ast.parse(str(text).strip(), mode="eval").body)


def _argument_equations(whole, u_text, u_args, g_text, g_args, h_text, min_names):
    """Lines proving ``EAi : <U's argument i> = <the matching argument of g> at h`` (h unfolded, or U's Mins of h
    rewritten into it; ``field``); arguments paired by their values at a few points (else in order: coqc decides)."""
    tr = whole.tr
    points = [{**{n: v for n, v in zip(sorted(tr.kinds), vals)}} for vals in
              ((7.0, 2.3, 3.0, 5.0), (11.0, 1.7, 2.0, 4.0), (5.0, 3.1, 4.0, 2.0))]
    for pt in points:
        pt.setdefault("N", 9.0)
    free, lines = list(range(len(g_args))), []
    for i, ua in enumerate(u_args):
        def close(j):
            vals = [(_value(ast.parse(ua, mode="eval").body, pt), _value(_at_h(g_args[j], h_text), pt))
                    for pt in points]
            return all(a is not None and b is not None and abs(a - b) <= 1e-9 * (1 + abs(a)) for a, b in vals)
        j = next((j for j in free if close(j)), free[0])
        free.remove(j)
        if "T" not in {n.id for n in ast.walk(ast.parse(g_args[j], mode="eval")) if isinstance(n, ast.Name)} \
                and tr.expr(ua) == tr.expr(g_args[j]):
            continue        # the same argument, written alike
        reach = f"rewrite ?{', ?'.join(min_names)}" if min_names else "unfold hv"
        nz = whole.nonzero([t for t in (ua, g_args[j]) if "Min" not in t])
        lines.append(f"assert (EA{i} : {tr.expr(ua)} = (fun T : R => {tr.expr(g_args[j])}) hv) by "
                     f"(cbv beta; {reach}; {nz}; first [field; nz_from_hyps | f_equal; field; nz_from_hyps]).")
        lines.append(f"cbv beta in EA{i}.")
    return lines


def _closing(whole, cert, second, f2, h_text, h_args, lines):
    """The composition's last step: U equals the second part's bound g at h (its ``Min`` arguments matched where U
    and g are both a ``Min``, or U's ``Min``s rewritten into h), then B at U from B at g(h)."""
    g_at_h = f"((fun T : R => {f2.upper}) hv)"
    texts = [t for t in (cert.upper, second.upper, h_text) if t is not None]
    u_args, g_args = _min_args(cert.upper), _min_args(second.upper)
    eqs, names = _min_equations(whole, cert.upper, h_args) if h_args is not None else ([], [])
    more = list(eqs)
    if u_args is not None and g_args is not None and len(u_args) == len(g_args):
        # U and g both a Min: each of U's arguments is one of g's at h (field), then the Mins agree in any order
        more += _argument_equations(whole, cert.upper, u_args, second.upper, g_args, h_text, names)
        stated = lines + more
        # (the longest left side first: rewriting a bare T first would rewrite the T inside another's left side)
        order = sorted(range(len(u_args)), key=lambda i: -len(whole.tr.expr(u_args[i])))
        rewrite = ", ".join(n for n in (f"EA{i}" for i in order) if any(f"({n} :" in ln for ln in stated))
        rewrite = f"rewrite {rewrite}; " if rewrite else ""
        more.append(f"apply (level_eq (fun LvlU => {whole.b_of('LvlU')}) ({whole.upper}) {g_at_h}); "
                     f"[cbv beta; {rewrite}min_split; lra | exact HB].")
    elif h_args is None:
        more.append(f"apply (level_eq (fun LvlU => {whole.b_of('LvlU')}) ({whole.upper}) {g_at_h}); "
                     f"[cbv beta; unfold hv; {whole.nonzero(texts)}; "
                     f"first [field; nz_from_hyps | f_equal; field; nz_from_hyps] | exact HB].")
    else:
        # h an atom: U's Mins rewritten into it, then U = g(h) by field
        rewrite = f"rewrite {', '.join(names)}; " if names else ""
        more.append(f"apply (level_eq (fun LvlU => {whole.b_of('LvlU')}) ({whole.upper}) {g_at_h}); "
                     f"[cbv beta; {rewrite}{whole.nonzero([t for t in texts if 'Min' not in t])}; "
                     f"first [field; nz_from_hyps | f_equal; field; nz_from_hyps] | exact HB].")
    return more


def composition(cert, name):
    """The Coq text of a ``composition`` certificate's theorem ``name`` (and its parts' ``name_part1``, ``_part2``)."""
    heads, text = _composition(cert, name)[1:]
    return "".join(f"From Implgraph Require Import {m}.\n" for m in sorted(heads)) + text


def _part(cert, name):
    """``(file, heads, text)`` of a part's theorem ``name``: a leaf's lemma, or a composition's (two intermediates:
    its own parts' theorems first)."""
    if cert.method == "composition":
        return _composition(cert, name)
    f, lines = _leaf(cert, name)
    return f, set(), _block(f.statement(), [f.intros()] + lines)


def _composition(cert, name):
    """``(file, heads, text)``: the whole's statement file, the library modules its proof needs beyond the header
    (``MinSplit``) and the text of its parts' theorems and its own."""
    parts = cert.parts
    _need(len(parts) == 2, "composition of other than two parts")
    first, second = parts
    _need(first.method != "composition" or all(p.method != "composition" for p in first.parts + second.parts),
          "a composition nested deeper than two intermediates")
    _need(second.method != "composition", "a composition whose second part is a composition")
    f1, heads, text1 = _part(first, f"{name}_part1")
    f2, heads2, text2 = _part(second, f"{name}_part2")
    heads = heads | heads2
    out = [text1, text2]
    whole = _File(cert, name)
    if whole.a is None and (f1.a or "").startswith("floor_above_level") and cert.raw.get("A") == first.raw.get("A"):
        # the first part states A by its class floor above A's weakest level (gen_floor_above): the whole the same
        whole.a, whole.extra_binders = f1.a, f1.extra_binders
    _need(whole.a is not None, "a composition whose A has no predicate in the library")
    _need(f2.syms() == whole.syms(), "a second part whose symbols differ from the certificate's")
    h_text = first.upper
    _need(h_text is not None, "a first part without an upper bound")
    h_args = _min_args(h_text)
    lines = [whole.intros(), f"pose proof {_call(whole, f1, f'{name}_part1', 'HA')} as HC.",
             f"set (hv := {f1.upper}) in HC."]
    args = []
    for k, text in enumerate(second.domain):
        if not _mentions_t(text):
            coq = f2.doms[k]
            # a condition the certificate does not state is shown from its domain by lra (coqc rejects the file
            # where it does not follow)
            args.append(f"D{whole.doms.index(coq)}" if coq in whole.doms else "ltac:(lra)")
            continue
        thr = _threshold(text)
        _need(thr is not None, f"a condition of the second part on T other than T >= r ({text})")
        if h_args is None:
            lines += _threshold_lines(whole, h_text, thr[0], thr[1], f"E{k}")
        else:
            lines += _min_threshold_lines(whole, h_args, thr[0], thr[1], f"E{k}")
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
    lines += _closing(whole, cert, second, f2, h_text, h_args, lines)
    out.append(_block(whole.statement(), lines))
    if h_args is not None or "min_split" in lines[-1]:
        heads.add("MinSplit")
    return whole, heads, "\n".join(out)
