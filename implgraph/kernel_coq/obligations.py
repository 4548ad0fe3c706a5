"""The proof steps every method's proof is built of: U turned into the lemma's bound (:func:`_u_is`), and an
obligation's goal proved from the certificate's combination ``sum(multiplier * fact)`` (:func:`_goal_is_sum`,
:func:`_scaled_goal`), one ``Min`` component of U at a time (:func:`_bounded`).
"""

from __future__ import annotations

import ast

from implgraph.kernel_coq.coqexpr import Untranslatable

__all__ = []


def _u_is(f, bound):
    """Tactic lines turning the goal's U (the certificate's) into the lemma's ``bound``: U = bound by ``field``
    (the library's ``level_eq``)."""
    if f.upper == bound:
        return []
    texts = [t for t in (f.cert.upper, f.cert.lower) if t is not None]
    return [f"apply (level_eq (fun LvlU => {f.b_of('LvlU')}) ({f.upper}) ({bound})); "
            f"[{f.nonzero(texts)}; field; nz_from_hyps |]."]


def _sd(side):
    return side.sides




def _need(ok, what):
    if not ok:
        raise Untranslatable(what)


# the combination sum(multiplier * fact) ---------------------------------------------------------------------------


def _combination(ns):
    """A tactic proving ``0 <= l0 * g0 + l1 * g1 + ...`` (left-nested sums) from ``L_i``, ``G_i``."""
    tac = f"apply Rmult_le_pos; [exact L{ns[-1]} | exact G{ns[-1]}]"
    if len(ns) == 1:
        return tac + "."
    return f"apply Rplus_le_le_0_compat; [{_combination(ns[:-1])[:-1]} | {tac}]."


def _sum_lines(f, given, facts, atoms, indent="  "):
    """``(lines, combo, total)``: each multiplier >= 0 on the domain (the shift argument over ``atoms``) and each fact
    >= 0 (``lra``: a hypothesis), the Coq text of ``sum(multiplier * fact)`` and that sum as a polynomial."""
    rd, tr = f.rd, f.tr
    if not isinstance(given, dict) or not given:
        raise Untranslatable("no multipliers for an obligation")
    lines, terms, total = [], [], rd.poly("0")
    for n, (fact, lam_text) in enumerate(given.items()):
        if fact not in facts:
            raise Untranslatable(f"a multiplier names the unknown fact {fact!r}")
        lam = rd.poly(str(lam_text))
        lines.append(f"{indent}assert (L{n} : 0 <= {tr.poly(lam)}) by {f.nonneg(lam, atoms)}.")
        lines.append(f"{indent}assert (G{n} : 0 <= {tr.poly(facts[fact])}) by fact.")
        terms.append(f"({tr.poly(lam)}) * ({tr.poly(facts[fact])})")
        total = total + lam * facts[fact]
    return lines, " + ".join(terms), total


def _goal_is_sum(f, given, facts, atoms, indent="  "):
    """Lines proving the goal ``0 <= g`` where g is the certificate's combination (``ring``)."""
    lines, combo, _ = _sum_lines(f, given, facts, atoms, indent)
    return lines + [f"{indent}match goal with |- 0 <= ?g => replace g with ({combo}) by ringq end.",
                    indent + _combination(list(range(len(given))))]


def _scaled_goal(f, g, given, facts, atoms, indent="  "):
    """Lines proving the goal ``0 <= g`` (g a polynomial of the obligation's variables) from the combination
    ``t = sum(multiplier * fact)``: ``a g = b t`` with polynomials a > 0 and b >= 0 (g / t reduced; ``ring``), where
    the data fit; otherwise ``g = t``, which fails in Coq."""
    lines, combo, total = _sum_lines(f, given, facts, atoms, indent)
    comb = indent + _combination(list(range(len(given))))
    same = [f"{indent}match goal with |- 0 <= ?g => replace g with ({combo}) by ringq end.", comb]
    if not g or not total or g == total:
        return lines + same
    b, a = g.cancel(total)          # g / t = b / a
    if a.is_ground and b.is_ground and a.LC < 0:
        a, b = -a, -b
    tr = f.tr
    return lines + [f"{indent}apply (pos_ratio ({tr.poly(a)}) ({tr.poly(b)}) _ ({combo})); "
                    f"[{f.nonneg(a, atoms, strict=True)} | {f.nonneg(b, atoms)} | ringq |].", comb]


def _components(f, text):
    """The arguments of a top-level Min of the certificate's U, as ``(Coq term, (P, Q))`` (or U alone)."""
    node = ast.parse(text.strip(), mode="eval").body
    args = node.args if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Min" else [node]
    quotients = f.rd.ratio_components(text)
    return [(f.tr.expr(ast.unparse(a)), pq, ast.unparse(a)) for a, pq in zip(args, quotients)]


def _bounded(f, A, B, kernel, mults, facts, atoms, text=None):
    """Lines proving the obligation's goal ``A <= U * B`` (``B`` None: ``A <= U``) for U = the certificate's upper
    (``text``): each of U's ``Min`` components ``c = P/Q`` by the kernel obligation it matches (``kernel``: ``[(name,
    num, den)]``, compared as quotients; the first where none does) with the certificate's multipliers
    ``mults[name]``."""
    comps = _components(f, text or f.cert.upper)
    rd = f.rd
    one = rd.poly("1")
    lines = []
    Bp = one if B is None else B
    b_nonneg = f.nonneg(Bp, atoms) if B is not None else None

    def comp_lines(c, pq, ctext, indent):
        P0, Q0 = pq
        name = next((n for n, num, den in kernel if P0 * den == Q0 * num), kernel[0][0])
        given = (mults or {}).get(name) if isinstance(mults, dict) else None
        out = []
        if B is None:
            out.append(f"{indent}apply (comp_le _ ({c}) ({f.tr.poly(P0)}) ({f.tr.poly(Q0)})).")
        else:
            out.append(f"{indent}apply (comp_le_mul _ _ ({c}) ({f.tr.poly(P0)}) ({f.tr.poly(Q0)})).")
        out.append(f"{indent}{{ {f.nonzero([ctext], [Q0], atoms)}; field; nz_from_hyps. }}")
        out.append(f"{indent}{{ {f.nonneg(Q0, atoms, strict=True)}. }}")
        out.append(f"{indent}{{")
        out += _scaled_goal(f, P0 * Bp - Q0 * A, given or {}, facts, atoms, indent + "  ") if given else \
            [f"{indent}  {f.nonneg(P0 * Bp - Q0 * A, atoms)}."]
        out.append(f"{indent}}}")
        return out

    def rec(cs, indent):
        if len(cs) == 1:
            return comp_lines(*cs[0], indent)
        head = (f"{indent}apply rmin_le." if B is None else f"{indent}apply rmin_mul; [{b_nonneg} | |].")
        out = [head, f"{indent}{{"] + comp_lines(*cs[0], indent + "  ") + [f"{indent}}}",
                                                                                       f"{indent}{{"]
        return out + rec(cs[1:], indent + "  ") + [f"{indent}}}"]

    lines += rec(comps, "")
    return lines
