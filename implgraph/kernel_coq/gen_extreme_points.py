"""Coq proofs of ``extreme-points`` certificates and of their composite ``extreme-points-pieces``.

*A piece* (``extreme-points``) applies the library's ``ExtremePoints.extreme_points`` (A an additive slack between
two records) or ``extreme_points_ratio`` (A a pairwise ratio level): B, the table against the table without one
record with a slack d, holds at U wherever both requirements are at most U on A's polygon (``ep_obl``). The
obligation is proved for each requirement ``n <= U den`` from the certificate's data by ``ep_req``: U = P/Q
(``field``), Q > 0 and the scale D > 0 on the domain (the shift argument), ``D (P den - Q n) = sum mu_k g_k``
(``ring``, each ``g_k`` a side of the polygon named by its label) and every multiplier ``mu_k >= 0`` on the domain (the
shift argument, else ``nra``).

*The composite* states the Piecewise U as written in the certificate: for its pieces ``(e_i, c_i)`` in order,
``c_i`` and the negation of every earlier condition give B at ``e_i`` (the last piece's condition ``True``). Each
clause is proved by deciding the conditions of the parts whose bound is ``e_i`` (``Rle_dec`` and its kin): where all
of a part's hold, its theorem applies; where none of the parts' hold together, ``lra`` or ``nra`` derives a
contradiction from the domain and the clause's conditions (the parts cover the domain, as the checker's solver found).
"""

from __future__ import annotations

import ast
import dataclasses
import re

from implgraph.kernel_coq.coqexpr import Untranslatable
from implgraph.kernel_coq.generate import _block, _File, _leaf, _need
from implgraph.kernel_coq.signs import derived_facts, sign_tactic

__all__ = ["extreme_points", "extreme_points_pieces", "METHODS", "MODULES"]

MODULES = ("ExtremePoints",)

#: the polygon's sides, in the order of ``ep_polygon``'s conjunction: the prover's label (without A's slack
#: suffix) -> the side as a function of (T, da, u, v, one)
SIDES = {
    "u >= 0": lambda T, da, u, v, one: u,
    "1 - u >= 0": lambda T, da, u, v, one: one - u,
    "v >= 0": lambda T, da, u, v, one: v,
    "1 - v >= 0": lambda T, da, u, v, one: one - v,
    "x_1 <= T x_k, bucket 1": lambda T, da, u, v, one: T * v - u + da,
    "x_k <= T x_1, bucket 1": lambda T, da, u, v, one: T * u - v + da,
    "x_1 <= T x_k, bucket 2": lambda T, da, u, v, one: T * (one - v) - (one - u) + da,
    "x_k <= T x_1, bucket 2": lambda T, da, u, v, one: T * (one - u) - (one - v) + da,
}
_SLACK = re.compile(r" \+ delta_A(?=,)")

#: B's requirements in the order of ``ep_obl``'s conjunction (the certificate's labels)
REQUIREMENTS = ("(P - delta)/Q_1", "(Q_1 - delta)/P")


def _slacks(f):
    """``(da polynomial, da Coq term or None for a ratio level, d Coq term)``."""
    A, B = f.cert.A, f.cert.B
    _need(B.slack is not None and B.slack.compares == "removal" and B.sides is None,
          "extreme-points needs B the table against the table without one record, with a slack")
    if A.slack is not None:
        _need(A.slack.compares == "pairs" and A.sides is None and f.a is not None,
              "extreme-points needs A an additive slack between two records or a pairwise ratio level")
        return f.rd.poly(A.slack.delta), f.tr.expr(A.slack.delta), f.tr.expr(B.slack.delta)
    _need(A.family == "pairwise" and A.sides == "TwoSided" and f.a is not None,
          "extreme-points needs A a pairwise ratio level or an additive slack between two records")
    return f.rd.poly("0"), None, f.tr.expr(B.slack.delta)


def _facts(f, da):
    """``{label: polynomial}`` of the polygon's sides (and ``1 >= 0``) in the certificate's ring."""
    g = f.rd.gens
    one = f.rd.poly("1")
    out = {label: side(g["T"], da, g["u_"], g["v_"], one) for label, side in SIDES.items()}
    out["1 >= 0"] = one
    return out


def _side_of(label, facts, slack):
    """The polynomial a multiplier's label names (A's slack suffix only where A has a slack)."""
    base = _SLACK.sub("", label)
    compares = base.startswith("x_")
    if (base != label) != (slack and compares) or base not in facts:
        raise Untranslatable(f"an extreme-points multiplier names the unknown side {label!r}")
    return facts[base]


def _combination(names):
    """A tactic proving ``0 <= l0 * g0 + ... `` from the hypotheses ``(L, G)`` of ``names`` (left-nested sums)."""
    tac = f"apply Rmult_le_pos; [exact {names[-1][0]} | exact {names[-1][1]}]"
    if len(names) == 1:
        return tac
    return f"apply Rplus_le_le_0_compat; [{_combination(names[:-1])} | {tac}]"


def _signs(f, r, data, facts, slack, extra):
    """``(lines, [(multiplier, side)], scale)``: one requirement's multipliers >= 0 and scale > 0 on the domain
    (asserted before the polygon's variables are introduced)."""
    tr, rd = f.tr, f.rd
    _need(isinstance(data, dict) and isinstance(data.get("multipliers"), dict), "a requirement without multipliers")
    scale = rd.poly(str(data.get("scale", "0")))
    lines, terms = [f"assert (Ls{r} : 0 < {tr.poly(scale)}) by {sign_tactic(f, scale, extra, strict=True)}."], []
    for k, (label, text) in enumerate(data["multipliers"].items()):
        mu, g = rd.poly(str(text)), _side_of(label, facts, slack)
        lines.append(f"assert (L{r}_{k} : 0 <= {tr.poly(mu)}) by {sign_tactic(f, mu, extra)}.")
        terms.append((mu, g))
    return lines, terms, scale


def _requirement(f, r, terms, scale, indent):
    """Lines proving one requirement ``n <= U den`` (the goal) by ``ep_req``."""
    tr, rd = f.tr, f.rd
    P, Q = rd.ratio(f.cert.upper)
    lines, names = [], []
    for k, (mu, g) in enumerate(terms):
        lines.append(f"assert (G{k} : 0 <= {tr.poly(g)}) by lra.")
        names.append((f"L{r}_{k}", f"G{k}"))
    total = " + ".join(f"({tr.poly(mu)}) * ({tr.poly(g)})" for mu, g in terms) or "0"
    lines += [f"apply (ep_req _ _ ({f.upper}) ({tr.poly(P)}) ({tr.poly(Q)}) ({tr.poly(scale)}) ({total})).",
              f"+ {f.nonzero([f.cert.upper], [Q])}; field; nz_from_hyps.",
              "+ exact LQ.", f"+ exact Ls{r}.", "+ ringq.",
              f"+ {_combination(names) if names else 'lra'}."]
    return [indent + ln for ln in lines]


def extreme_points(f):
    """Proof lines of an ``extreme-points`` certificate (``f`` the generator's file of it)."""
    da, da_coq, d = _slacks(f)
    given = (f.cert.raw.get("upper_certificate") or {}).get("requirements")
    _need(isinstance(given, dict) and set(given) == set(REQUIREMENTS),
          "extreme-points data for other than B's two requirements")
    facts = _facts(f, da)
    lines, extra = derived_facts(f)
    _, Q = f.rd.ratio(f.cert.upper)
    lines.append(f"assert (LQ : 0 < {f.tr.poly(Q)}) by {sign_tactic(f, Q, extra, strict=True)}.")
    data = []
    for r, label in enumerate(REQUIREMENTS):
        more, terms, scale = _signs(f, r, given[label], facts, da_coq is not None, extra)
        lines += more
        data.append((terms, scale))
    if da_coq is None:
        lines.append(f"apply (extreme_points_ratio N K x T ({d}) ({f.upper})); [exact Htab | lra | exact HA |].")
    else:
        lines.append(f"apply (extreme_points N K x T ({da_coq}) ({d}) ({f.upper})); [exact Htab | lra | exact HA |].")
    lines += ["unfold ep_obl. intros vu vv [H0 [H1 [H2 [H3 [H4 [H5 [H6 H7]]]]]]].", "split."]
    for r, label in enumerate(REQUIREMENTS):
        lines.append(f"- (* {label} *)")
        lines += _requirement(f, r, *data[r], "  ")
    return lines


# the composite --------------------------------------------------------------------------------------------------

_DEC = {ast.GtE: "Rge_dec", ast.Gt: "Rgt_dec", ast.LtE: "Rle_dec", ast.Lt: "Rlt_dec"}


def _conjuncts(node):
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitAnd):
        return _conjuncts(node.left) + _conjuncts(node.right)
    return [ast.unparse(node)]


def _pieces(text):
    """``[(bound text, [condition texts])]`` of a ``Piecewise`` (the last condition ``True``: no condition)."""
    node = ast.parse(str(text).strip(), mode="eval").body
    _need(isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Piecewise" and not node.keywords
          and len(node.args) >= 2, "an extreme-points-pieces U that is not a Piecewise")
    out = []
    for k, arg in enumerate(node.args):
        _need(isinstance(arg, ast.Tuple) and len(arg.elts) == 2, "a Piecewise piece that is not (bound, condition)")
        bound, cond = arg.elts
        last = k == len(node.args) - 1
        is_true = isinstance(cond, ast.Constant) and cond.value is True
        _need(is_true == last, "a Piecewise whose last condition only is True")
        out.append((ast.unparse(bound), [] if is_true else _conjuncts(cond)))
    return out


def _decide(tr, text):
    """``(Coq relation, the tactic deciding it)`` of a condition's text."""
    node = ast.parse(str(text).strip(), mode="eval").body
    _need(isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _DEC,
          f"a condition that is not one comparison: {text}")
    left, right = tr.expr(ast.unparse(node.left)), tr.expr(ast.unparse(node.comparators[0]))
    return tr.relation(text), f"{_DEC[type(node.ops[0])]} ({left}) ({right})"


def _same_bound(whole, a, b):
    """Are two bounds' texts the same quotient of polynomials?"""
    (P1, Q1), (P2, Q2) = whole.rd.ratio(a), whole.rd.ratio(b)
    return P1 * Q2 == P2 * Q1


def _apply_part(whole, clause, part, k, own):
    """The tactic closing a clause's goal (``clause``: its bound's text and Coq term) with part ``k``'s theorem
    (``own``: its extra conditions' hypotheses)."""
    args = []
    for coq in part.doms:
        if coq in whole.doms:
            args.append(f"D{whole.doms.index(coq)}")
        else:
            args.append(own[coq])
    call = f"({whole.name}_part{k + 1} {' '.join(whole.syms() + args)} K x cls Htab HA)"
    if part.upper == clause[1]:
        return f"exact {call}."
    texts = [clause[0], part.cert.upper]
    return (f"apply (level_eq (fun LvlU => {whole.b_of('LvlU')}) ({clause[1]}) ({part.upper})); "
            f"[{whole.nonzero(texts)}; field; nz_from_hyps | exact {call}].")


def _tree(whole, clause, cands, indent, depth=0):
    """Lines deciding the conditions of the candidate parts ``[(k, part file)]`` one by one: the first part whose
    conditions all hold proves the goal; where none does, the hypotheses contradict each other."""
    if not cands:
        return [f"{indent}exfalso; first [lra | nra]."]
    k, part = cands[0]
    extras = [(t, c) for t, c in zip(part.cert.domain, part.doms) if c not in whole.doms]
    return _branch(whole, clause, (k, part), extras, cands[1:], {}, indent, depth)


def _branch(whole, clause, cand, extras, rest, own, indent, depth):
    if not extras:
        return [indent + _apply_part(whole, clause, cand[1], cand[0], own)]
    (text, coq), more = extras[0], extras[1:]
    name = f"E{depth}_{len(own)}"
    inner = _branch(whole, clause, cand, more, rest, {**own, coq: name}, indent + "  ", depth)
    return ([f"{indent}destruct ({_decide(whole.tr, text)[1]}) as [{name} | F{depth}_{len(own)}].", f"{indent}{{"]
            + inner + [f"{indent}}}", f"{indent}{{"] + _tree(whole, clause, rest, indent + "  ", depth + 1) + [f"{indent}}}"])


def _pattern(names):
    return names[0] if len(names) == 1 else f"[{names[0]} {_pattern(names[1:])}]"


def _clause(whole, parts, i, pieces):
    """Lines proving the i-th clause of the statement."""
    bound, conds = pieces[i]
    names = [f"NC{j}" for j in range(i)] + (["C"] if conds else [])
    lines = [f"intros {' '.join(names)}." if names else "idtac."]
    if len(conds) > 1:
        lines.append(f"destruct C as {_pattern([f'C{j}' for j in range(len(conds))])}.")
    # the parts of this bound (none: every part, whose bound Coq then fails to equate with the clause's)
    cands = [(k, p) for k, p in enumerate(parts) if _same_bound(whole, p.cert.upper, bound)] or list(enumerate(parts))
    return lines + _tree(whole, (bound, whole.tr.expr(bound)), cands, "")


def _statement(whole, pieces):
    tr = whole.tr
    conds = ["(" + " /\\ ".join(tr.relation(c) for c in cs) + ")" for _, cs in pieces]
    clauses = []
    for i, (bound, cs) in enumerate(pieces):
        hyps = [f"~ {conds[j]}" for j in range(i)] + ([conds[i]] if cs else [])
        clauses.append("(" + " -> ".join(hyps + [whole.b_of(f"({tr.expr(bound)})")]) + ")")
    doms = "".join(f"  {d} ->\n" for d in whole.doms)
    return (f"Theorem {whole.name} : forall {tr.binders()},\n{doms}"
            f"  forall (K : nat) (x : nat -> nat -> R) (cls : nat -> nat),\n"
            f"  table N K x ->\n  {whole.a} ->\n  " + " /\\\n  ".join(clauses) + ".")


def extreme_points_pieces(cert, name):
    """The Coq text of an ``extreme-points-pieces`` certificate's theorem ``name`` (its parts ``name_partI``)."""
    _need(len(cert.parts) >= 2 and all(p.method == "extreme-points" for p in cert.parts),
          "extreme-points-pieces of other than two or more extreme-points parts")
    out, parts = [], []
    whole = _File(dataclasses.replace(cert, upper="1"), name)     # (U, a Piecewise, is stated clause by clause)
    for k, part in enumerate(cert.parts):
        f, lines = _leaf(part, f"{name}_part{k + 1}")
        _need(f.syms() == whole.syms() and not f.parts, "a part whose symbols differ from the whole's")
        out.append(_block(f.statement(), [f.intros()] + lines))
        parts.append(f)
    _need(whole.a is not None and not whole.parts, "extreme-points-pieces needs A a level the library states")
    pieces = _pieces(cert.upper)
    lines = [whole.intros(), "refine (" + "conj _ (" * (len(pieces) - 1) + "_" + ")" * (len(pieces) - 1) + ")."]
    for i in range(len(pieces)):
        lines.append("{")
        lines += ["  " + ln for ln in _clause(whole, parts, i, pieces)]
        lines.append("}")
    out.append(_block(_statement(whole, pieces), lines))
    return "\n".join(out)


#: leaf methods of this module (proof lines of a generator's file)
METHODS = {"extreme-points": extreme_points}
