"""Coq proofs of the ``chord`` certificates on record removal against a two-sided subset level of a size s other than
1 and N - 1 (``RemovalChordPieces.v``), whose U is ``Piecewise((0, T <= 1), (V, True))`` with V written in the
interval's ends ``Max(...)`` and ``Min(...)`` (a helper of :mod:`implgraph.kernel_coq.gen_chord_removal`).

The statement reads the Piecewise U as written, clause by clause (as ``gen_extreme_points``): ``T <= 1`` gives B at 0,
its negation B at V. At T = 1 A's interval is the point 1 (``subset_rconf_k_one``, ``one_rconf``). Where T > 1 the
library's interval (``subset_rconf_k``: [max(1/T, (N - s T)/(N - s)), min(T, N/(N - 1), (N - s/T)/(N - s))]) is
weakened to U's ends, argument by argument: each argument of U's ``Max`` at most an argument of the library's, the
library's ``Min``'s arguments each at most one of U's (each comparison by the shift argument, ``chord_steps._ineq``);
0 < lo and lo < hi from every pair of their arguments (and, but for KL, lo <= 1 <= hi from each argument). The ends
are then named (``set``), and B both ways is ``rconf_kl`` (the chords of phi and of its perspective at most V),
``rconf_renyi2`` (``hi + lo - lo hi`` and ``(hi + lo - 1)/(lo hi)`` at most X, V = log X), ``rconf_tv``
(``(1 - lo)(hi - 1)/(hi - lo)``, TV its own perspective) or ``rconf_hockey`` of order g >= 1 (0, ``(1 - lo)(hi -
g)/(hi - lo)`` and ``(hi - 1)(1 - g lo)/(hi - lo)`` each at most V): each value equals an argument of V's maximum
(``field``, the ends and their logarithms atoms), chosen by exact algebra; where none is equal the first is taken
and ``coqc`` rejects the identity. An edited number in U, in an end, in the size or in the order therefore fails
``coqc``.
"""

from __future__ import annotations

import ast
import dataclasses

import sympy

from implgraph.kernel_coq.obligations import _need

__all__ = ["applies", "subset_pieces", "MODULES"]

#: the library modules the lemmas live in
MODULES = ("Divergence", "RemovalChord", "RemovalChordPieces")


def _call_name(node):
    return getattr(node.func, "id", None) if isinstance(node, ast.Call) else None


def applies(cert) -> bool:
    """A removal chord against a two-sided subset level whose U is a Piecewise (this module's certificates)."""
    from implgraph.kernel_coq import adapter
    if cert.method != "chord" or cert.upper is None or "Piecewise" not in str(cert.upper):
        return False
    div = adapter.divergence_side(cert.B)
    A = cert.A
    return div is not None and div.compares == "removal" and A.family == "subset" and A.sides == "TwoSided" \
        and A.size is not None


def _ends(text):
    """``(lo text, hi text)``: the one ``Max`` and the one ``Min`` of V whose arguments hold no log, Max or Min."""
    found = {"Max": [], "Min": []}
    for node in ast.walk(ast.parse(str(text).strip(), mode="eval").body):
        name = _call_name(node)
        if name in found and not any(_call_name(n) in ("log", "Max", "Min") for a in node.args for n in ast.walk(a)):
            seg = ast.unparse(node)
            if seg not in found[name]:
                found[name].append(seg)
    _need(len(found["Max"]) == 1 and len(found["Min"]) == 1, "a removal chord's U without one Max and one Min end")
    return found["Max"][0], found["Min"][0]


def _args(text, func):
    """The argument texts of ``func(...)`` (the translator nests them ``Rmax a0 (Rmax a1 ...)``), or [text]."""
    node = ast.parse(str(text).strip(), mode="eval").body
    return [ast.unparse(a) for a in node.args] if _call_name(node) == func else [str(text)]


def _equal(f, a, b):
    from implgraph.kernel_coq.chord_steps import _sym
    return sympy.simplify(_sym(f, a)[0] - _sym(f, b)[0]) == 0


def _pick(f, text, choices):
    """The index of the choice equal to ``text`` (the first where none is: ``coqc`` then rejects the step)."""
    same = [j for j, c in enumerate(choices) if _equal(f, text, c)]
    return same[0] if same else 0


def _path(side, j, m):
    """Tactics reducing ``c <= Rmax a0 (...)`` (side "max") or ``Rmin a0 (...) <= c`` ("min") to argument j of m."""
    return f"via_{side}_r; " * j + (f"via_{side}_l; " if j < m - 1 else "")


def _nest(lemma, items):
    """``apply lemma; [item0 | apply lemma; [item1 | ...]]`` over the nesting of a Max (Min)."""
    return items[0] if len(items) == 1 else f"apply {lemma}; [{items[0]} | {_nest(lemma, items[1:])}]"


def _weaken(f, lo, hi, size):
    """Lines proving ``HC : rconf N K x lo hi`` from the library's interval, argument by argument."""
    from implgraph.kernel_coq.chord_steps import _ineq
    s = f"({size})"
    lib_lo = ["1/T", f"(N - {s}*T)/(N - {s})"]
    lib_hi = ["T", "N/(N - 1)", f"(N - {s}/T)/(N - {s})"]
    lines, low, high = [], [], []
    for i, a in enumerate(_args(lo, "Max")):
        j = _pick(f, a, lib_lo)
        lines += _ineq(f, a, lib_lo[j], f"Hwl{i}")
        low.append(f"{_path('max', j, len(lib_lo))}exact Hwl{i}")
    for k, b in enumerate(_args(hi, "Min")):
        j = _pick(f, b, lib_hi)
        lines += _ineq(f, lib_hi[j], b, f"Hwh{k}")
        high.append(f"{_path('min', j, len(lib_hi))}exact Hwh{k}")
    return lines + [
        f"assert (HC0 := subset_rconf_k N K x ({f.tr.expr(size)}) T Htab HA Hs Hs1 HsN HT).",
        f"assert (HC : rconf N K x ({f.tr.expr(lo)}) ({f.tr.expr(hi)})).",
        f"{{ apply (rconf_weaken N K x _ _ ({f.tr.expr(lo)}) ({f.tr.expr(hi)}) Htab HC0); "
        f"[{_nest('Rmax_lub', low)} | {_nest('Rmin_glb', high)}]. }}"]


def _order(f, lo, hi, ones):
    """Lines proving ``Hl0 : 0 < lo``, ``Hlh : lo < hi`` (every pair of arguments) and, where ``ones`` (every kind but
    KL), ``Hlo1 : lo <= 1``, ``Hhi1 : 1 <= hi``."""
    from implgraph.kernel_coq.chord_steps import _ineq
    los, his = _args(lo, "Max"), _args(hi, "Min")
    clo, chi = f.tr.expr(lo), f.tr.expr(hi)
    lines = _ineq(f, "0", los[0], "Hp0", strict=True)
    lines.append(f"assert (Hl0 : 0 < {clo}) by (apply Rlt_le_trans with ({f.tr.expr(los[0])}); "
                 f"[exact Hp0 | {'apply Rmax_l' if len(los) > 1 else 'apply Rle_refl'}]).")
    rows = []
    for i, a in enumerate(los):
        cells = []
        for k, b in enumerate(his):
            lines += _ineq(f, a, b, f"Hs{i}_{k}", strict=True)
            cells.append(f"exact Hs{i}_{k}")
        rows.append(_nest("Rmin_glb_lt", cells))
    lines.append(f"assert (Hlh : {clo} < {chi}) by ({_nest('Rmax_lub_lt', rows)}).")
    if ones:
        for i, a in enumerate(los):
            lines += _ineq(f, a, "1", f"Hu{i}")
        for k, b in enumerate(his):
            lines += _ineq(f, "1", b, f"Hv{k}")
        lines.append(f"assert (Hlo1 : {clo} <= 1) by "
                     f"({_nest('Rmax_lub', [f'exact Hu{i}' for i in range(len(los))])}).")
        lines.append(f"assert (Hhi1 : 1 <= {chi}) by "
                     f"({_nest('Rmin_glb', [f'exact Hv{k}' for k in range(len(his))])}).")
    return lines


def _chords(f, div, V, L, H):
    """``(text, values)``: the maximum whose arguments bound B (V, or X where V = log X) and the values each must be
    at most, in the library lemma's order (``rconf_kl``, ``rconf_renyi2``, ``rconf_tv``, ``rconf_hockey``), in the
    ends' atoms L and H."""
    from implgraph.kernel_coq.chord_steps import _sym
    if div.kind == "kl":
        return V, [((1 - L) * H * sympy.log(H) + (H - 1) * L * sympy.log(L)) / (H - L),
                   ((H - 1) * -sympy.log(L) + (1 - L) * -sympy.log(H)) / (H - L)]
    if div.kind == "tv":        # its own perspective: one value both ways
        return V, [(1 - L) * (H - 1) / (H - L)]
    if div.kind == "hockey-stick":      # 0 (the stick's floor), the chord of phi, of its perspective
        g = _sym(f, str(div.order))[0]
        return V, [sympy.Integer(0), (1 - L) * (H - g) / (H - L), (H - 1) * (1 - g * L) / (H - L)]
    from implgraph.kernel_coq.chord_steps import log_of
    inner = log_of(V)
    _need(inner is not None, "a Renyi removal chord whose U is not log(X)")
    return inner, [H + L - L * H, (H + L - 1) / (L * H)]


def _values(f, div, V, lo, hi):
    """Tactics closing the library lemma's value goals (after ``set``): each through the argument of V's maximum
    equal to its value (``field``; the ends and their logarithms atoms)."""
    from implgraph.kernel_coq.chord_steps import _sym
    L, H = sympy.Symbol("lo_", positive=True), sympy.Symbol("hi_", positive=True)
    ends = {_sym(f, lo)[0]: L, _sym(f, hi)[0]: H}
    inner, chords = _chords(f, div, V, L, H)
    args = _args(inner, "Max")
    values = [_sym(f, a)[0].xreplace(ends) for a in args]
    tacs = []
    for c in chords:
        same = [j for j, v in enumerate(values) if sympy.cancel(sympy.together(v - c)) == 0]
        j = same[0] if same else 0
        tacs.append(f"{_path('max', j, len(args))}apply Req_le; field; nz_from_hyps.")
    return tacs


#: the library lemma of B both ways on [lo, hi] per kind, and the hypotheses it takes before the value goals
_LEMMAS = {"kl": ("rconf_kl N K x lo hi", ""), "tv": ("rconf_tv N K x lo hi", " | exact Hlo1 | exact Hhi1"),
           "hockey-stick": ("rconf_hockey N K x ({g}) lo hi", " | exact Hlo1 | exact Hhi1 | exact Hg1")}


def _main(f, div, k, V, size):
    """Lines of the clause where T > 1."""
    from implgraph.kernel_coq.chord_steps import _ineq
    lo, hi = _ends(V)
    lines = _weaken(f, lo, hi, size) + _order(f, lo, hi, div.kind != "kl")
    if div.kind == "hockey-stick":
        lines += _ineq(f, "1", str(div.order), "Hg1")
    lines += [f"set (lo := {f.tr.expr(lo)}) in *.", f"set (hi := {f.tr.expr(hi)}) in *."]
    values = _values(f, div, V, lo, hi)
    if div.kind == "renyi":
        lines.append("match goal with |- div_removal_le _ _ _ _ (ln ?X) => apply (rconf_renyi2 N K x lo hi X); "
                     "[exact Htab | exact HN2 | exact HC | exact Hl0 | exact Hlh | exact Hlo1 | exact Hhi1 | | | "
                     "apply Rle_refl] end.")
    else:
        lemma, more = _LEMMAS[div.kind]
        lemma = lemma.format(g=f.tr.expr(str(div.order)) if div.order is not None else "")
        lines.append(f"apply ({lemma}); [exact Htab | exact HN2 | exact HC | exact Hl0 | exact Hlh{more}"
                     f"{' |' * len(values)}].")
    return lines + [f"{{ {v} }}" for v in values]


def subset_pieces(cert, name):
    """The Coq text of the theorem ``name`` of a removal chord against a subset level of size s, U a Piecewise."""
    from implgraph.kernel_coq import adapter
    from implgraph.kernel_coq.chord_steps import _at_one_value, _ineq
    from implgraph.kernel_coq.gen_chord_removal import domain_lines
    from implgraph.kernel_coq.gen_extreme_points import _pieces, _statement
    from implgraph.kernel_coq.generate import _block
    from implgraph.kernel_coq.statement import _File, divergence_kind
    pieces = _pieces(cert.upper)
    _need(len(pieces) == 2 and len(pieces[0][1]) == 1 and not pieces[1][1],
          "a removal chord's Piecewise U other than (e, one condition), (V, True)")
    (e0, _), (V, _) = pieces       # the prover's (0, T <= 1): another e or condition, and coqc rejects the clause
    f = _File(dataclasses.replace(cert, upper=V), name)
    div = adapter.divergence_side(cert.B)
    k = divergence_kind(f.tr, div)
    _need(div.kind in ("kl", "tv", "hockey-stick") or (div.kind == "renyi" and str(div.order) == "2"),
          "a removal chord of other than KL, Renyi of order 2, TV or the hockey stick against a subset level")
    _need(f.a is not None, "A's level has no predicate in the library")
    size = str(cert.A.size)
    cs = f.tr.expr(size)
    lines = [f.intros()] + domain_lines(f) + [
        "assert (HN2 : 2 <= INR N) by lra.", "assert (HT : 0 < T) by lra.",
        f"assert (Hs : IsNat ({cs})) by isnat."] + _ineq(f, "1", size, "Hs1") + _ineq(f, size, "N - 1", "HsN")
    lines.append("refine (conj _ _).")
    one = ["intros C.", "assert (E1 : 1 = T) by lra.", "rewrite <- E1 in HA.", "try rewrite <- E1.",
           f"apply (one_rconf {k} N K x); [exact Htab | exact HN2 | "
           f"exact (subset_rconf_k_one N K x ({cs}) Htab HA Hs Hs1 HsN) |]."] + _at_one_value(f, div, e0)
    f.domain.atoms.append((">", f.rd.poly("T - 1")))      # the other clause: T > 1
    try:
        main = ["intros NC.", "apply Rnot_le_lt in NC.", "assert (HT1 : 1 < T) by lra."] + _main(f, div, k, V,
                                                                                                     size)
    finally:
        f.domain.atoms.pop()
    lines += ["{ " + one[0]] + [f"  {ln}" for ln in one[1:]] + ["}"]
    lines += ["{ " + main[0]] + [f"  {ln}" for ln in main[1:]] + ["}"]
    return "From Implgraph Require Import RemovalChordPieces.\n" + _block(_statement(f, pieces), lines)

