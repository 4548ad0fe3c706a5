"""Coq proofs of ``binary-program`` certificates: a Renyi-2 or KL level bounds an (eps, delta) additive slack.

The statement is the certificate's Piecewise U as written, one clause per piece: the piece's condition (a
disjunction where the prover merged two pieces of equal bound) and the negation of every earlier one give B, the
additive slack delta between records (``slack_pairs_le``) or on record removal (``slack_removal_le``), at the piece's
bound. Each clause applies a theorem of the library's ``BinaryTables.v`` (its pieces in ``BinaryProgram.v``), proved
once for every table:

- ``bp_pairs`` (Renyi 2 between records, B between records), ``bp_removal_same`` (Renyi 2 of record removal, B the
  same pair), ``bp_removal_pairs`` (Renyi 2 between records, B on record removal: the removal pair's program at
  ``c/(N (N - 1))``), each given the program's bound ``bp_ok c d U`` with ``c = (exp T - 1)/s``; the pieces
  ``flat_piece``, ``middle_piece`` (the KKT identity) and ``top_piece`` prove it from the clause's hypotheses: a
  condition ``T <= ln r`` gives ``exp T <= r`` (``exp_le_of_ln``), a negated one ``r < exp T``, and the certificate's
  ``r``, ``U`` and the middle piece's ``g`` (the square root in U) meet the pieces' premises by ``lra``/``nra`` and
  ``field``;
- ``kl_pairs``, ``kl_removal_same``, ``kl_removal_pairs`` (KL; on record removal from records by joint convexity),
  given ``kl_piece``: Pinsker's ``U = 1`` where ``T <= 2 d^2``, or the tangent at ``t = exp s`` with ``s d = T`` and
  ``U T = (exp s - 1) d`` (``s`` the argument of the exponential in U);
- ``bp_removal_tv``: ``U = 1`` on record removal where ``N d >= 1``, whatever A is;
- a zero-concentrated A between records (``zcdp_pairs_le``) is first read as KL at the same level by
  ``ZcdpPairs.zcdp_kl_pairs`` (KL <= rho), one on record removal (``zcdp_removal_le``) by
  ``ZcdpRemoval.zcdp_kl_removal``, then the KL theorems above apply.

An edited number in U, in a condition or in delta leaves a premise false, so ``coqc`` rejects the file.
"""

from __future__ import annotations

import ast
import dataclasses

from implgraph.kernel_coq import adapter
from implgraph.kernel_coq.generate import _block
from implgraph.kernel_coq.obligations import _need
from implgraph.kernel_coq.statement import _File

__all__ = ["binary_program", "MODULES"]

MODULES = ("Divergence", "Pinsker", "ChiSquare", "RemovalChord", "BinaryProgram", "BinaryTables", "ZcdpPairs",
           "ZcdpRemoval")

#: (A's kind, A compares, B compares) -> (the table theorem's call head, its premises before the bound, the scale)
_TABLE = {
    ("chi", "pairs", "pairs"): ("bp_pairs N K x T", "[exact Htab | lra | lra | exact HA |]", "1"),
    ("chi", "removal", "removal"): ("bp_removal_same N K x T", "[exact Htab | lra | exact HA |]", "1"),
    ("chi", "pairs", "removal"): ("bp_removal_pairs N K x T", "[exact Htab | lra | lra | exact HA |]",
                                  "(INR N * (INR N - 1))"),
    ("kl", "pairs", "pairs"): ("kl_pairs N K x T", "[exact Htab | exact HA |]", None),
    ("kl", "removal", "removal"): ("kl_removal_same N K x T", "[exact Htab | lra | exact HA |]", None),
    ("kl", "pairs", "removal"): ("kl_removal_pairs N K x T", "[exact Htab | lra | lra | exact HA |]", None),
    # (zero-concentrated between records: KL at the same level first, ZcdpPairs.zcdp_kl_pairs)
    ("zcdp", "pairs", "pairs"): ("kl_pairs N K x T", "[exact Htab | exact (zcdp_kl_pairs N K x T Htab HA) |]", None),
    ("zcdp", "pairs", "removal"): ("kl_removal_pairs N K x T",
                                   "[exact Htab | lra | lra | exact (zcdp_kl_pairs N K x T Htab HA) |]", None),
    # (zero-concentrated on record removal: KL of the same pairs first, ZcdpRemoval.zcdp_kl_removal)
    ("zcdp", "removal", "removal"): ("kl_removal_same N K x T",
                                     "[exact Htab | lra | exact (zcdp_kl_removal N K x T Htab ltac:(lra) HA) |]", None),
}

_SOLVE = "first [lra | nra]"


def _tree(text):
    """The expression node of a certificate text (parsed, never evaluated)."""
    return ast.parse(str(text).strip(), mode="eval").body


def _pieces(text):
    """``[(bound text, condition node or None)]`` of a ``Piecewise`` (the last condition ``True``)."""
    node = _tree(text)
    _need(isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Piecewise" and len(node.args) >= 2,
          "a binary-program U that is not a Piecewise")
    out = []
    for k, arg in enumerate(node.args):
        _need(isinstance(arg, ast.Tuple) and len(arg.elts) == 2, "a Piecewise piece that is not (bound, condition)")
        bound, cond = arg.elts
        is_true = isinstance(cond, ast.Constant) and cond.value is True
        _need(is_true == (k == len(node.args) - 1), "a Piecewise whose last condition only is True")
        out.append((ast.unparse(bound), None if is_true else cond))
    return out


def _disjuncts(cond):
    """The comparisons a condition joins by ``|``."""
    if isinstance(cond, ast.BinOp) and isinstance(cond.op, ast.BitOr):
        return _disjuncts(cond.left) + _disjuncts(cond.right)
    return [cond]


def _relation(tr, cond):
    """The Coq proposition of a condition (comparisons joined by ``|``)."""
    parts = [tr.relation(ast.unparse(c)) for c in _disjuncts(cond)]
    return parts[0] if len(parts) == 1 else "(" + " \\/ ".join(f"({p})" for p in parts) + ")"


def _names(node):
    """The symbols a node mentions."""
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _ln_bound(cond):
    """``r`` (a text) of a condition ``T <= log(r)``, else None."""
    if isinstance(cond, ast.Compare) and len(cond.ops) == 1 and isinstance(cond.ops[0], ast.LtE) \
            and isinstance(cond.left, ast.Name) and cond.left.id == "T":
        rhs = cond.comparators[0]
        if isinstance(rhs, ast.Call) and getattr(rhs.func, "id", None) == "log" and len(rhs.args) == 1:
            return ast.unparse(rhs.args[0])
    return None


def _first_call(node, name):
    """The first call of the one-argument function ``name`` in a node, or None."""
    for n in ast.walk(node):
        if isinstance(n, ast.Call) and getattr(n.func, "id", None) == name and len(n.args) == 1:
            return n
    return None


class _Ctx:
    """One certificate's translation: its file (statement helpers), kind, the table theorem, delta, c's scale."""

    def __init__(self, whole, kind, table, delta):
        self.f, self.tr, self.kind, self.delta = whole, whole.tr, kind, delta
        self.head, self.prem, self.scale = table

    def apply_table(self, bound):
        """The line applying the table theorem at the clause's bound (left: the program's ``bp_ok`` or ``kl_piece``)."""
        return f"apply ({self.head} ({self.delta}) ({self.tr.expr(bound)})); {self.prem}."


def _exp_facts(ctx, negated, cond):
    """Lines turning the clause's condition ``T <= ln r`` into ``exp T <= r`` (HE) and the earlier ones' negations
    into ``r < exp T`` (HLj_k); returns ``(lines, r of the clause or None, [(r, name) of the earlier ones])``."""
    tr, lines, lows = ctx.tr, [], []
    for j, prev in enumerate(negated):
        ds = _disjuncts(prev)
        for k, dj in enumerate(ds):
            r = _ln_bound(dj)
            if r is None:
                continue
            lines.append(f"assert (NT{j}_{k} : ~ ({tr.relation(ast.unparse(dj))})) by (intro Z; apply NC{j}; "
                         f"{_inject(len(ds), k)}exact Z).")
            lines.append(f"pose proof (exp_gt_of_ln T ({tr.expr(r)}) ltac:({_SOLVE}) NT{j}_{k}) as HL{j}_{k}.")
            lows.append((r, f"HL{j}_{k}"))
    r = _ln_bound(cond) if cond is not None else None
    if r is not None:
        lines.append(f"pose proof (exp_le_of_ln T ({tr.expr(r)}) ltac:({_SOLVE}) C) as HE.")
    return lines, r, lows


def _inject(n, k):
    """The tactic prefix choosing the k-th of n disjuncts (``left``/``right`` nested to the right)."""
    if n == 1:
        return ""
    return "left; " if k == 0 else "right; " + _inject(n - 1, k - 1)


def _has_sqrt(text):
    """Does the text take a square root?"""
    return _first_call(_tree(text), "sqrt") is not None


def _chi_piece(ctx, bound, cond, negated):
    """Lines proving ``bp_ok c d U`` for one piece of the chi-square program (after the table theorem): the top
    piece where there is no condition, the middle one where U has a square root, the flat one elsewhere."""
    tr, d, s = ctx.tr, ctx.delta, ctx.scale
    lines, r, lows = _exp_facts(ctx, negated, cond)
    lines.append("pose proof (exp_ge1 T ltac:(lra)) as HE1.")
    if s == "1":
        lines.append("apply bp_ok_div1.")
    if cond is None:
        return lines + [f"apply (top_piece (exp T) {s} ({d}) ({tr.expr(bound)})); "
                        f"[{_SOLVE} | {_SOLVE} | {_SOLVE} | field; nz_from_hyps]."]
    _need(r is not None, "a piece of the chi-square program whose condition is not T <= log(r)")
    if not _has_sqrt(bound):
        return lines + [f"apply (flat_piece (exp T) {s} ({d}) ({tr.expr(r)})); {_SOLVE}."]
    _need(bool(lows), "a middle piece without an earlier condition T <= log(r)")
    return lines + _middle(ctx, bound, r, lows[-1])


def _middle(ctx, bound, r1, low):
    """``middle_piece``: g the square root in U = (g + k)/den, den = 1 - g by ``ring``, then U (1 - g) by
    ``field`` with g an atom."""
    tr, d, s = ctx.tr, ctx.delta, ctx.scale
    r0, hl = low
    node = _tree(bound)
    _need(isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div), "a middle piece that is not a quotient")
    g = _g_of(node.left)
    gc = tr.expr(ast.unparse(g))
    c = f"((exp T - 1) / {s})"
    if isinstance(g, ast.Call):
        facts = (f"destruct (g_sqrt ({tr.expr(ast.unparse(g.args[0]))}) {c} (scaled_nonneg (exp T) {s} "
                 f"ltac:({_SOLVE}) HE1) "
                 f"ltac:(field; nz_from_hyps)) as [G0 G2].")
    else:
        a, b = g.left.args[0], g.right.args[0]
        facts = (f"destruct (g_sqrt2 ({tr.expr(ast.unparse(a))}) ({tr.expr(ast.unparse(b))}) {c} ltac:({_SOLVE}) "
                 f"ltac:({_SOLVE}) ltac:(field; nz_from_hyps)) as [G0 G2].")
    den = tr.expr(ast.unparse(node.right))
    return [facts,
            f"pose proof (g_lt1 _ {c} (scaled_nonneg (exp T) {s} ltac:({_SOLVE}) HE1) G2) as Hg1.",
            f"apply (middle_piece (exp T) {s} ({d}) {gc} ({tr.expr(bound)}) ({tr.expr(r0)}) ({tr.expr(r1)})); "
            f"[lra | lra | lra | lra | exact {hl} | exact HE | {_SOLVE} | {_SOLVE} | exact G0 | exact G2 |].",
            f"assert (Hden : {den} = 1 - {gc}) by (unfold Rdiv; ring).",
            f"try rewrite Hden. set (gv := {gc}) in *. clearbody gv.",
            "field. nz_from_hyps."]


def _g_of(num):
    """The square root term of the middle piece's numerator ``g + k`` (``sqrt(X)`` or ``sqrt(A)/sqrt(B)``)."""
    for side in ((num.left, num.right) if isinstance(num, ast.BinOp) and isinstance(num.op, ast.Add) else ()):
        if isinstance(side, ast.Call) and getattr(side.func, "id", None) == "sqrt":
            return side
        if isinstance(side, ast.BinOp) and isinstance(side.op, ast.Div) and all(
                isinstance(t, ast.Call) and getattr(t.func, "id", None) == "sqrt" for t in (side.left, side.right)):
            return side
    _need(False, "a middle piece whose numerator is not a square root plus a constant")


def _kl_piece(ctx, bound, cond):
    """Lines proving ``kl_piece T d U``: Pinsker where the clause's condition is ``T <= 2 d^2``, the tangent at
    ``exp s`` (s the exponential's argument in U) elsewhere."""
    tr, d = ctx.tr, ctx.delta
    if cond is not None:
        return [f"left. split; [lra | split; [{_SOLVE} | first [reflexivity | field]]]."]
    e = _first_call(_tree(bound), "exp")
    _need(e is not None, "a KL piece whose U has no exponential")
    sv = tr.expr(ast.unparse(e.args[0]))
    return [f"right. exists ({sv}). split; [lra | split; [lra | split; [field | field; nz_from_hyps]]]."]


def _clause_body(ctx, bound, cond, negated):
    """Lines proving B at ``bound`` under one disjunct ``cond`` (None: no condition) and the earlier negations."""
    if cond is not None and "T" not in _names(cond):
        return [f"apply (bp_removal_tv N K x ({ctx.delta})); [exact Htab | lra | {_SOLVE}]."]
    lines = [ctx.apply_table(bound)]
    if ctx.kind == "kl":
        return lines + _kl_piece(ctx, bound, cond)
    return lines + _chi_piece(ctx, bound, cond, negated)


def _clause(ctx, pieces, i):
    """Lines proving the i-th clause of the statement (a disjunctive condition one case per disjunct)."""
    bound, cond = pieces[i]
    negated = [c for _, c in pieces[:i]]
    names = [f"NC{j}" for j in range(i)] + (["C"] if cond is not None else [])
    lines = [f"intros {' '.join(names)}." if names else "idtac."]
    if cond is None:
        return lines + _clause_body(ctx, bound, None, negated)
    ds = _disjuncts(cond)
    if len(ds) == 1:
        return lines + _clause_body(ctx, bound, cond, negated)
    lines.append("destruct C as " + _or_pattern(len(ds)) + ".")
    for dj in ds:
        lines += ["- " + ln if k == 0 else "  " + ln for k, ln in enumerate(_clause_body(ctx, bound, dj, negated))]
    return lines


def _or_pattern(n):
    """The intro pattern of n disjuncts, each named C."""
    return "C" if n == 1 else f"[C | {_or_pattern(n - 1)}]"


def _statement(whole, pieces):
    """The theorem: for each piece, its condition and the earlier ones' negations give B at its bound."""
    tr = whole.tr
    conds = [None if c is None else _relation(tr, c) for _, c in pieces]
    clauses = []
    for i, (bound, _) in enumerate(pieces):
        hyps = [f"~ ({conds[j]})" for j in range(i)] + ([f"({conds[i]})"] if conds[i] is not None else [])
        clauses.append("(" + " -> ".join(hyps + [whole.b_of(f"({tr.expr(bound)})")]) + ")")
    doms = "".join(f"  {d} ->\n" for d in whole.doms)
    return (f"Theorem {whole.name} : forall {tr.binders()},\n{doms}"
            f"  forall (K : nat) (x : nat -> nat -> R) (cls : nat -> nat),\n"
            f"  table N K x ->\n  {whole.a} ->\n  " + " /\\\n  ".join(clauses) + ".")


def _kind(cert):
    """``(program kind, key of the table theorem, delta's text)`` from the registry's sides."""
    div = adapter.divergence_side(cert.A)
    _need(div is not None and (div.kind in ("kl", "zcdp") or (div.kind == "renyi" and str(div.order) == "2")),
          "a binary-program certificate whose A is not KL, zero-concentrated or Renyi of order 2")
    sl = cert.B.slack
    _need(sl is not None and sl.compares in ("pairs", "removal"), "a binary-program B without an additive slack")
    kind = "chi" if div.kind == "renyi" else "kl"
    key = ("zcdp" if div.kind == "zcdp" else kind, div.compares, sl.compares)
    _need(key in _TABLE, f"a binary program from {div.compares} into {sl.compares}")
    return kind, key, sl.delta


def binary_program(cert, name):
    """The Coq text of a ``binary-program`` certificate's theorem ``name`` (module notes)."""
    kind, key, delta = _kind(cert)
    whole = _File(dataclasses.replace(cert, upper="1"), name)      # (U, a Piecewise, is stated clause by clause)
    _need(whole.a is not None and not whole.parts and whole.syms() == ["N", "T"],
          "a binary-program certificate over other symbols than N and T")
    ctx = _Ctx(whole, kind, _TABLE[key], whole.tr.expr(delta))
    pieces = _pieces(cert.upper)
    lines = [whole.intros(), "refine (" + "conj _ (" * (len(pieces) - 1) + "_" + ")" * (len(pieces) - 1) + ")."]
    for i in range(len(pieces)):
        lines.append("{")
        lines += ["  " + ln for ln in _clause(ctx, pieces, i)]
        lines.append("}")
    return _block(_statement(whole, pieces), lines)
