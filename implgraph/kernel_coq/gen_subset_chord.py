"""Coq proofs of ``subset-chord`` certificates: a two-sided subset level of size j (1 <= j <= N - 1) bounds a class
divergence (KL, Renyi of order 2; every partition) by the chord of phi on the range of one record's ratio to the table
(``SubsetChord.v``; docs/proofs/subset-closeness-chord.md).

The library proves the lemma once for any size j and raw level T: each record's ratio lies in [sublo, subhi] with
sublo = max(0, N - (N - 1) T, (j (N - 1)/T - (j - 1) N)/(N - j)) and subhi = min(N - (N - 1)/T, (j T (N - 1) -
(j - 1) N)/(N - j)) (``subset_xconf``), and so does a class's mean; where T > 1, B is at most the chord's value on any
[lo, hi] around it (``subset_chord_kl``, ``subset_chord_kl0`` with lo = 0, ``subset_chord_renyi2``); at T = 1 it is
phi(1) (``subset_chord_one``).

The certificate's U is ``Piecewise((0, T <= 1), (V, True))`` (Renyi of order 2, V = log(X)) or ``Piecewise((0, T <=
1), (log(hi), cond), (W, True))`` (KL, W the chord with lo > 0), its ends written as a ``Max`` and a ``Min``; the
theorem states it clause by clause (as ``gen_extreme_points``). The certificate's data enter as follows: its size
equals A's (``ring``); the certificate's ``lo`` and ``hi`` contain the library's [sublo, subhi] and U's ends contain
the certificate's, argument by argument: each argument of a ``Max`` at most the other ``Max``'s argument equal to it by
exact algebra, each of a ``Min``'s at least the other's (the shift argument, ``chord_steps._ineq``); lo > 0 from the
negated condition (each conjunct's ``L - R`` equal to c times an argument of lo, c >= 0 by the shift argument); the
chord's value equals W (``field``, the ends and their logarithms atoms), ``hi + lo - lo hi`` equals X. Where no
argument is equal the first is taken and ``coqc`` rejects the step: an edited number in U, in lo or hi, in the size
or in the condition fails ``coqc`` at that step. Not covered (:class:`Untranslatable`): B other than KL or Renyi of
order 2 between each class and the table, A other than a two-sided subset level, a U of another shape.
"""

from __future__ import annotations

import ast
import dataclasses

import sympy

from implgraph.kernel_coq.obligations import _need

__all__ = ["subset_chord", "MODULES"]

#: the library modules the lemmas live in
MODULES = ("Divergence", "RemovalChord", "RemovalChordPieces", "SubsetChord")


def _call_name(node):
    return getattr(node.func, "id", None) if isinstance(node, ast.Call) else None


def _end(text, func):
    """The text of the one ``func(...)`` (Max or Min) in ``text`` whose arguments hold no log, Max or Min (None if
    there is none)."""
    found = []
    for node in ast.walk(ast.parse(str(text).strip(), mode="eval").body):
        if _call_name(node) == func and not any(_call_name(n) in ("log", "Max", "Min")
                                                for a in node.args for n in ast.walk(a)):
            seg = ast.unparse(node)
            if seg not in found:
                found.append(seg)
    _need(len(found) <= 1, f"a subset chord's U with more than one {func} end")
    return found[0] if found else None


def _args(text, func):
    """The argument texts of ``func(...)``, or [text]."""
    node = ast.parse(str(text).strip(), mode="eval").body
    return [ast.unparse(a) for a in node.args] if _call_name(node) == func else [str(text)]


def _expr(f, text):
    from implgraph.kernel_coq.chord_steps import _sym
    return _sym(f, text)[0]


def _pick(f, text, choices, below):
    """The index of the choice equal to ``text`` by exact algebra, else of one the shift argument shows at least
    (``below``; at most otherwise) ``text`` on the domain, else 0 (coqc then rejects the step)."""
    same = [j for j, c in enumerate(choices) if sympy.simplify(_expr(f, text) - _expr(f, c)) == 0]
    if same:
        return same[0]
    gaps = [f"({c}) - ({text})" if below else f"({text}) - ({c})" for c in choices]
    return next((j for j, g in enumerate(gaps) if _signed(f, g)), 0)


def _path(side, j, m):
    """Tactics reducing ``c <= Rmax a0 (...)`` (side "max") or ``Rmin a0 (...) <= c`` ("min") to argument j of m."""
    return f"via_{side}_r; " * j + (f"via_{side}_l; " if j < m - 1 else "")


def _nest(lemma, items):
    """``apply lemma; [item0 | apply lemma; [item1 | ...]]`` over the nesting of a Max (Min)."""
    return items[0] if len(items) == 1 else f"apply {lemma}; [{items[0]} | {_nest(lemma, items[1:])}]"


def _library_ends(size):
    s = f"({size})"
    return (["0", "N - (N - 1)*T", f"({s}*(N - 1)/T - ({s} - 1)*N)/(N - {s})"],
            ["N - (N - 1)/T", f"({s}*T*(N - 1) - ({s} - 1)*N)/(N - {s})"])


def _below(f, small, large, func, label):
    """``(lines, tactic)``: each argument of ``small`` at most an argument of ``large`` (``func`` Max), or each argument
    of ``large`` at least one of ``small``'s (Min), chosen by :func:`_pick`; the tactic closes ``small <= large``."""
    from implgraph.kernel_coq.chord_steps import _ineq
    side, lemma = ("max", "Rmax_lub") if func == "Max" else ("min", "Rmin_glb")
    outer, inner = (small, large) if func == "Max" else (large, small)
    inner_args = _args(inner, func)
    lines, items = [], []
    for i, a in enumerate(_args(outer, func)):
        j = _pick(f, a, inner_args, func == "Max")
        pair = (a, inner_args[j]) if func == "Max" else (inner_args[j], a)
        lines += _ineq(f, *pair, f"{label}{i}")
        items.append(f"{_path(side, j, len(inner_args))}exact {label}{i}")
    return lines, _nest(lemma, items)


def _chain(f, label, u_end, c_end, lib, func, name, cs):
    """Lines proving ``H<label>``: U's end against the certificate's (``Hu``: argument by argument) and the
    certificate's against the library's ``name N j T`` (``Hc``; ``lib`` its text, ``cs`` the size's Coq term), Max
    ``u <= c <= lib``, Min ``lib <= c <= u``."""
    cu, cc = f.tr.expr(u_end), f.tr.expr(c_end)
    lines, lib_tac = _below(f, c_end, lib, func, f"Hc{label}") if func == "Max" else \
        _below(f, lib, c_end, func, f"Hc{label}")
    lib_coq = f"{name} N ({cs}) T"
    first, second = (cc, lib_coq) if func == "Max" else (lib_coq, cc)
    lines.append(f"assert (Hc{label} : {first} <= {second}) by (unfold {name}; {lib_tac}).")
    if cu == cc:
        return lines + [f"assert (H{label} := Hc{label})."]
    more, tac = _below(f, u_end, c_end, func, f"Hu{label}") if func == "Max" else \
        _below(f, c_end, u_end, func, f"Hu{label}")
    first, second = (cu, cc) if func == "Max" else (cc, cu)
    lines += more + [f"assert (Hu{label} : {first} <= {second}) by ({tac})."]
    step = f"Rle_trans _ _ _ Hu{label} Hc{label}" if func == "Max" else f"Rle_trans _ _ _ Hc{label} Hu{label}"
    return lines + [f"assert (H{label} := {step})."]


def _ends_lines(f, lo, hi, size, cs):
    """Lines proving ``Hlo : lo <= sublo N j T`` (where lo is given) and ``Hhi : subhi N j T <= hi``: U's ends
    against the certificate's ``lo`` and ``hi``, and those against the library's, argument by argument (each against
    its equal one by exact algebra)."""
    lib_lo, lib_hi = _library_ends(size)
    data = f.cert.raw.get("upper_certificate") or {}
    _need(data.get("lo") is not None and data.get("hi") is not None, "a subset chord certificate without lo and hi")
    lines = []
    if lo is not None:
        lines += _chain(f, "lo", lo, str(data["lo"]), f"Max({', '.join(lib_lo)})", "Max", "sublo", cs)
    return lines + _chain(f, "hi", hi, str(data["hi"]), f"Min({', '.join(lib_hi)})", "Min", "subhi", cs)


def _relation(text):
    """``(small, large)`` texts of a condition ``small <= large`` (``large >= small``)."""
    node = ast.parse(str(text).strip(), mode="eval").body
    _need(isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.LtE, ast.GtE)),
          f"a condition that is not one <= or >= ({text})")
    left, right = ast.unparse(node.left), ast.unparse(node.comparators[0])
    return (left, right) if isinstance(node.ops[0], ast.LtE) else (right, left)


def _factor(f, gap, los):
    """``(i, c)``: ``gap = c lo_i`` with c a positive constant (else a c the shift argument signs, else the simplest c
    that is not a constant <= 0; else (0, 1), whose identity coqc rejects)."""
    found = []
    for i, a in enumerate(los):
        if _expr(f, a) != 0:
            c = sympy.simplify(gap / _expr(f, a))
            if not (c.is_number and c <= 0):
                found.append((i, sympy.nsimplify(c) if c.is_number else c))
    rational = [(i, c) for i, c in found if c.is_Rational]
    return (rational or sorted(found, key=lambda ic: (not _signed(f, ic[1]), sympy.count_ops(ic[1])))
            or [(0, sympy.Integer(1))])[0]


def _signed(f, c):
    """Does the shift argument show c = P/Q >= 0 on the domain (P >= 0, Q > 0)?"""
    from implgraph.kernel_coq.shift import shift_choice
    try:
        P, Q = f.rd.ratio(str(c))
    except Exception:       # not a quotient of polynomials over the certificate's symbols
        return False
    return shift_choice(P, f.atoms()) is not None and shift_choice(Q, f.atoms(), strict=True) is not None


def _conjuncts_lines(f, conds, los):
    """``(lines, tactics)``: each conjunct ``L <= R`` of the condition (L possibly a Max) from ``Zi : lo_i <= 0``, each
    ``L_k - R`` equal to ``c lo_i`` (``field``) with ``0 <= c`` on the domain (``Hcf``, the shift argument)."""
    from implgraph.kernel_coq.chord_steps import _ineq
    lines, tactics = [], []
    for n, text in enumerate(conds):
        small, large = _relation(text)
        items = []
        for k, s in enumerate(_args(small, "Max")):
            i, c = _factor(f, _expr(f, f"({s}) - ({large})"), los)
            label = f"Hcf{n}_{k}"
            lines += _ineq(f, "0", str(c), label)
            lhs, rhs = f.tr.expr(f"({s}) - ({large})"), f.tr.expr(f"({c})*({los[i]})")
            items.append(f"assert ({lhs} = {rhs}) by ({f.nonzero(texts=[s, large, los[i], str(c)])}; field; "
                         f"nz_from_hyps); pose proof (Rmult_le_compat_l _ _ 0 {label} Z{i}); lra")
        tactics.append(_nest("Rmax_lub", items))
    return lines, tactics


def _lo_positive(f, lo, conds):
    """Lines proving ``Hl0 : 0 < lo`` from ``NC2 : ~ (cond)``, the clause's negated condition."""
    los = _args(lo, "Max")
    clo = f.tr.expr(lo)
    lines, tacs = _conjuncts_lines(f, conds, los)
    lines += [f"assert (Hl0 : 0 < {clo}).", "{ apply Rnot_le_lt. intro Z. apply NC2."]
    for i in range(len(los)):
        lines.append(f"  pose proof (Rle_trans {f.tr.expr(los[i])} {clo} 0 ltac:({_path('max', i, len(los))}"
                     f"apply Rle_refl) Z) as Z{i}.")
    if len(tacs) > 1:
        lines.append("  " + "refine (conj _ " * (len(tacs) - 1) + "_" + ")" * (len(tacs) - 1) + ".")
    lines += [f"  {{ {t}. }}" if len(tacs) > 1 else f"  {t}." for t in tacs]
    return lines + ["}"]


def _renyi(f, V, size, cs):
    """Lines of Renyi's clause where T > 1: V = log(X), X = hi + lo - lo hi by ``field``."""
    from implgraph.kernel_coq.chord_steps import log_of
    X = log_of(V)
    _need(X is not None, "a Renyi subset chord whose U is not log(X)")
    lo, hi = _end(X, "Max"), _end(X, "Min")
    _need(lo is not None and hi is not None, "a Renyi subset chord's X without a Max and a Min end")
    lines = _ends_lines(f, lo, hi, size, cs)
    lines += [f"set (lo := {f.tr.expr(lo)}) in *.", f"set (hi := {f.tr.expr(hi)}) in *.",
              f"match goal with |- div_class_le _ _ _ _ _ (ln ?X) => apply (subset_chord_renyi2 N K x cls ({cs}) T lo "
              f"hi X _ Htab HA Hs Hs1 HsN HT1 Hlo Hhi); [| apply Rle_refl] end.",
              "apply Req_le. field."]
    return lines


def _kl_zero(f, V, size, cs):
    """Lines of KL's clause with lo = 0: V = log(hi)."""
    hi = _end(V, "Min")
    _need(hi is not None and _end(V, "Max") is None, "a KL subset chord's log(hi) clause without one Min end")
    lines = _ends_lines(f, None, hi, size, cs)
    lines.append(f"apply (subset_chord_kl0 N K x cls ({cs}) T ({f.tr.expr(hi)}) ({f.upper}) "
                 f"Htab HA Hs Hs1 HsN HT1 Hhi).")
    if f.tr.expr(f"log({hi})") == f.upper:
        return lines + ["apply Rle_refl."]
    return lines + ["apply Req_le. set (hi := " + f.tr.expr(hi) + "). field."]


def _kl(f, W, conds, size, cs):
    """Lines of KL's clause where lo > 0 (``NC2``: the previous clause's condition fails): W the chord's value."""
    lo, hi = _end(W, "Max"), _end(W, "Min")
    _need(lo is not None and hi is not None, "a KL subset chord's W without a Max and a Min end")
    lines = _ends_lines(f, lo, hi, size, cs) + _lo_positive(f, lo, conds)
    lines += [f"assert (Hord := sub_lt N ({cs}) T _ _ Hs1 HsN HT1 Hlo Hhi).",
              f"set (lo := {f.tr.expr(lo)}) in *.", f"set (hi := {f.tr.expr(hi)}) in *.",
              "destruct Hord as [Hlo1 Hhi1].",
              f"apply (subset_chord_kl N K x cls ({cs}) T lo hi _ Htab HA Hs Hs1 HsN HT1 Hlo Hhi Hl0).",
              "apply Req_le. field. nz_from_hyps."]
    return lines


def _statement(f, pieces):
    """The theorem: the domain, the partition's hypotheses, A, then B at each clause's bound under its condition and
    the negations of the earlier ones."""
    tr = f.tr
    conds = ["(" + " /\\ ".join(tr.relation(c) for c in cs) + ")" for _, cs in pieces]
    clauses = []
    for i, (bound, cs) in enumerate(pieces):
        hyps = [f"~ {conds[j]}" for j in range(i)] + ([conds[i]] if cs else [])
        clauses.append("(" + " -> ".join(hyps + [f.b_of(f"({tr.expr(bound)})")]) + ")")
    doms = "".join(f"  {d} ->\n" for d in f.doms)
    hyps = "".join(f"  {h} ->\n" for h in f.parts)
    return (f"Theorem {f.name} : forall {tr.binders()},\n{doms}"
            f"  forall (K : nat) (x : nat -> nat -> R) (cls : nat -> nat),\n"
            f"  table N K x ->\n{hyps}  {f.a} ->\n  " + " /\\\n  ".join(clauses) + ".")


def _check_sides(cert):
    """B's divergence (:func:`implgraph.kernel_coq.adapter.divergence_side`), or :class:`Untranslatable` where the
    sides are not this lemma's."""
    from implgraph.kernel_coq import adapter
    A, B = cert.A, cert.B
    _need(A.family == "subset" and A.sides == "TwoSided" and A.size is not None,
          "a subset chord whose A is not a two-sided subset level")
    div = adapter.divergence_side(B)
    _need(div is not None and div.compares == "class" and not B.max_class,
          "a subset chord whose B is not a divergence between each class and the table")
    _need(div.kind == "kl" or (div.kind == "renyi" and str(div.order) == "2"),
          "a subset chord of other than KL or Renyi of order 2")
    return div


def _setup(f, cs, size_a, size):
    """The lines before the clauses: the domain, the certificate's size equal to A's, its bounds."""
    from implgraph.kernel_coq.chord_steps import _ineq
    from implgraph.kernel_coq.gen_chord_removal import domain_lines
    lines = [f.intros()] + domain_lines(f) + [
        f"assert (Hj : {f.tr.expr(size_a)} = {cs}) by ring.",
        "assert (HAj := eq_ind _ (fun s => subset_le TwoSided N K x s T) HA _ Hj).", "clear HA. rename HAj into HA.",
        f"assert (Hs : IsNat ({cs})) by isnat."]
    return lines + _ineq(f, "1", size, "Hs1") + _ineq(f, size, "N - 1", "HsN")


def subset_chord(cert, name):
    """The Coq text of a ``subset-chord`` certificate's theorem ``name``."""
    from implgraph.kernel_coq.chord_steps import _at_one_value
    from implgraph.kernel_coq.gen_extreme_points import _pieces
    from implgraph.kernel_coq.generate import _block
    from implgraph.kernel_coq.statement import _File, divergence_kind
    div = _check_sides(cert)
    data = cert.raw.get("upper_certificate") or {}
    _need(cert.upper is not None and data.get("size") is not None, "a subset chord without U and size")
    pieces = _pieces(cert.upper)
    shape = [len(cs) for _, cs in pieces]
    _need(shape == [1, 0] if div.kind == "renyi" else (len(shape) == 3 and shape[0] == 1 and shape[1] and not shape[2]),
          "a subset chord's U other than Piecewise((0, T <= 1), ..., (V, True))")
    f = _File(dataclasses.replace(cert, upper=pieces[-1][0]), name)
    _need(f.a is not None, "A's level has no predicate in the library")
    k = divergence_kind(f.tr, div)
    size = str(data["size"])
    cs = f.tr.expr(size)
    lines = _setup(f, cs, str(cert.A.size), size)
    blocks = [["intros C.", "assert (E1 : 1 = T) by lra.", "rewrite <- E1 in HA.",
               f"apply (subset_chord_one {k} N K x cls ({cs}) _ Htab HA Hs Hs1 HsN)."]
              + _at_one_value(f, div, pieces[0][0])]
    f.domain.atoms.append((">", f.rd.poly("T - 1")))      # the other clauses: T > 1
    try:
        head = ["apply Rnot_le_lt in NC.", "assert (HT1 : 1 < T) by lra."]
        if div.kind == "renyi":
            blocks.append(["intros NC."] + head + _renyi(f, pieces[1][0], size, cs))
        else:
            f.upper = f.tr.expr(pieces[1][0])
            blocks.append(["intros NC C2."] + head + _kl_zero(f, pieces[1][0], size, cs))
            f.upper = f.tr.expr(pieces[2][0])
            blocks.append(["intros NC NC2."] + head + _kl(f, pieces[2][0], pieces[1][1], size, cs))
    finally:
        f.domain.atoms.pop()
    n = len(blocks)
    lines.append("refine (" + "conj _ (" * (n - 1) + "_" + ")" * (n - 1) + ").")
    for b in blocks:
        lines += ["{ " + b[0]] + [f"  {ln}" for ln in b[1:]] + ["}"]
    return _block(_statement(f, pieces), lines)
