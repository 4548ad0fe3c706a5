"""Coq proofs of the ``one-sided-removal`` certificates: each record at most T times the table (a one-sided subset
level of size 1, pml) bounds the total variation between the table and the table without one record by
U = min((T - 1)/N, (T - 1)/(T (N - 1)), 1/N), and the hockey-stick there at a number gamma >= 2 by
U = min(1/N, max(0, W)), W = (gamma T - gamma N + N - 1)/(T (N - 1)) (``OneSidedRemoval.v``; docs/proofs/pml-tv.md).

B is stated as the additive slack on every event, both ways (``slack_removal_le N K x U gamma``), exactly its level.
For the hockey-stick, the argument ``1/N`` is the total variation's weakest level at ratio gamma
(``slack_removal_ratio1``), and an argument ``Max(0, W')`` is ``onesided_removal_hockey``'s after ``W = W'`` by
``field`` (``Hu``: an edited W' fails there). For the total variation the
proof: A's size equals 1 (``ring``); the library proves B at each of the three values once (``onesided_removal_n``,
``onesided_removal_t``, ``onesided_removal_weakest``); each argument of U's ``Min`` (or U itself) is matched by exact
algebra to the value it equals (an argument equal to none, e.g. a forged one, to the nearest at three sample points)
and shown at least that value by the shift argument (``chord_steps._ineq``), then ``slack_removal_weaken`` and
``slack_removal_min`` take the ``Min``. An edited number in U or in the domain makes ``coqc`` reject the file at that
step.
"""

from __future__ import annotations

import sympy

import ast

from implgraph.kernel_coq.gen_subset_pairs import _min_args
from implgraph.kernel_coq.obligations import _need

__all__ = ["one_sided_removal", "one_sided_removal_theorem", "METHODS", "MODULES"]

#: the library modules the lemmas live in
MODULES = ("OneSidedRemoval",)

#: the lemma's three values (certificate syntax) and, for each, the library theorem giving B at it
_VALUES = (("(T - 1)/N", "onesided_removal_n N K x {t} Htab HA HN2 HT1", "((({t}) - 1) / INR N)"),
           ("(T - 1)/(T*(N - 1))", "onesided_removal_t N K x {t} Htab HA HN2 HT1",
            "((({t}) - 1) / (({t}) * (INR N - 1)))"),
           ("1/N", "onesided_removal_weakest N K x Htab HN2", "(1 / INR N)"))


def _check_sides(f):
    """B's divergence, or :class:`Untranslatable` where the sides are not this lemma's."""
    from implgraph.kernel_coq import adapter
    A = f.cert.A
    _need(A.family == "subset" and A.sides == "OneSided" and A.size is not None and f.a is not None,
          "a one-sided-removal certificate whose A is not a one-sided subset level")
    div = adapter.divergence_side(f.cert.B)
    from implgraph.kernel_coq.gen_tv_distance import gamma
    g = gamma(div) if div is not None and div.kind in ("tv", "hockey-stick") else None
    ok = g is not None and div.compares == "removal" and (sympy.sympify(g) == 1 or bool(sympy.sympify(g) >= 2))
    _need(ok, "a one-sided-removal certificate whose B is not the total variation or a hockey stick at gamma >= 2 "
              "on record removal")
    return div, g


def _which(f, text):
    """The lemma value (index in :data:`_VALUES`) that the Min argument ``text`` equals; for an argument equal to none
    (a forged one), the nearest at three sample points, so that coqc rejects its step ``Hu``."""
    from implgraph.kernel_coq.chord_steps import _sym
    arg = _sym(f, text)[0]
    values = [_sym(f, v)[0] for v, _, _ in _VALUES]
    for i, v in enumerate(values):
        if sympy.simplify(arg - v) == 0:
            return i
    points = [{"N": 3, "T": sympy.Rational(5, 4)}, {"N": 3, "T": 2}, {"N": 4, "T": 5}]

    def gap(v):
        out = 0
        for pt in points:
            env = {s: pt[s.name] for s in (arg - v).free_symbols if s.name in pt}
            out += abs((arg - v).subs(env))
        return out
    gaps = [gap(v) for v in values]
    _need(all(g.is_number for g in gaps), f"a one-sided-removal U argument {text} in other symbols")
    return min(range(len(values)), key=lambda i: gaps[i])


def _nest(items):
    """``apply slack_removal_min_g; [item0 | ...]`` over a Min's nesting."""
    if len(items) == 1:
        return items[0]
    return f"apply (slack_removal_min_g N K x); [{items[0]} | {_nest(items[1:])}]"


def _max_of_zero(text):
    """W where ``text`` is ``Max(0, W)`` (either order), else None."""
    node = ast.parse(str(text).strip(), mode="eval").body
    if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Max" and len(node.args) == 2:
        args = [ast.unparse(a) for a in node.args]
        zero = [a for a in args if a.strip() == "0"]
        if len(zero) == 1:
            return [a for a in args if a.strip() != "0"][0]
    return None


def _hockey_items(f, g, t):
    """Lines and Min items of a hockey-stick certificate at the ratio ``g`` (module notes)."""
    from implgraph.kernel_coq.chord_steps import _ineq
    cg = f.tr.expr(g)
    lemma_w = f"(({g})*T - ({g})*N + N - 1)/(T*(N - 1))"
    coq_w = f"(({cg}) * {t} - ({cg}) * INR N + INR N - 1) / ({t} * (INR N - 1))"
    weakest = f"slack_removal_ratio1 N K x _ ({cg}) Htab HN2 Hg1 (onesided_removal_weakest N K x Htab HN2)"
    lines = [f"assert (Hg1 : 1 <= {cg}) by lra.", f"assert (Hg : INR N <= {cg} * (INR N - 1)) by lra."]
    items = []
    for i, a in enumerate(_min_args(f.cert.upper)):
        w = _max_of_zero(a)
        if w is None:       # 1/N (an edited value fails its step)
            lines += _ineq(f, "1/N", a, f"Hu{i}")
            items.append(f"apply (slack_removal_weaken_g N K x (1 / INR N)); [exact ({weakest}) | lra]")
            continue
        nz = f.nonzero(texts=[w, lemma_w])
        lines.append(f"assert (Hu{i} : {coq_w} = {f.tr.expr(w)}) by (first [ring | {nz}; field; nz_from_hyps]).")
        items.append(f"apply (slack_removal_weaken_g N K x (Rmax 0 ({coq_w}))); "
                     f"[exact (onesided_removal_hockey N K x {t} ({cg}) Htab HA HN2 HT1 Hg) | rewrite Hu{i}; lra]")
    return lines, items


def one_sided_removal(f):
    """Proof lines of a ``one-sided-removal`` certificate; states B as its slack on every event (module notes)."""
    from implgraph.kernel_coq.chord_steps import _ineq
    from implgraph.kernel_coq.gen_chord_removal import domain_lines
    from implgraph.kernel_coq.gen_tv_distance import slack_predicate
    div, g = _check_sides(f)
    f.b = slack_predicate(f.tr, div, f.upper)
    f.b_of = lambda level: slack_predicate(f.tr, div, level)
    _need(f.cert.upper is not None, "a one-sided-removal certificate without U")
    t = f.tr.name("T")
    lines = domain_lines(f) + [
        f"assert (Hj : {f.tr.expr(str(f.cert.A.size))} = 1) by ring.",
        "assert (HAj := eq_ind _ (fun s => subset_le OneSided N K x s T) HA _ Hj).", "clear HA. rename HAj into HA.",
        "assert (HN2 : 2 <= INR N) by lra.", f"assert (HT1 : 1 <= {t}) by lra."]
    if sympy.sympify(g) != 1:
        more, items = _hockey_items(f, g, t)
        return lines + more + [_nest(items) + "."]
    items = []
    for i, a in enumerate(_min_args(f.cert.upper)):
        value, term, coq = _VALUES[_which(f, a)]
        lines += _ineq(f, value, a, f"Hu{i}")
        items.append(f"apply (slack_removal_weaken_g N K x {coq.format(t=t)}); "
                     f"[exact ({term.format(t=t)}) | lra]")
    return lines + [_nest(items) + "."]


def one_sided_removal_theorem(cert, name):
    """The Coq text of a standalone ``one-sided-removal`` certificate's theorem ``name`` (certificates of their own
    only, as ``subset-pairs``)."""
    from implgraph.kernel_coq.generate import _block, _File
    f = _File(cert, name)
    lines = one_sided_removal(f)
    return _block(f.statement(), [f.intros()] + lines)


METHODS = {"one-sided-removal": one_sided_removal}
