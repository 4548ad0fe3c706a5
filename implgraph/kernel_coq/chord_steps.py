"""The proof steps the ``chord`` generators share, and many other generators use: a symbol's reading, an
inequality on the certificate's domain, logarithms split into their arguments' factors, a U that is a maximum, and
the chord's value at most U.

- :func:`_ineq`: ``small <= large`` (or ``<``) on the domain: ``large - small = P/Q`` by ``field``, ``Q > 0`` and
  ``P >= 0`` by the shift argument (``ge_from_ratio`` / ``gt_from_ratio``); :func:`positive` and :func:`_positive`
  a polynomial > 0 (a multiple of a domain atom, the shift argument, or its irreducible factors each);
- :class:`_Logs` and :func:`_log_identity`: each logarithm split into the logarithms of its argument's irreducible
  factors (each shown > 0 on the domain; ``ln_frac`` and ``ln_mult``), then the identity by ``field``;
- :func:`below`: ``small <= U`` where U may be ``Max(args)`` (or ``Max(args)/den``): through the argument equal to
  small (exact algebra), at most the maximum by ``Rmax_l`` / ``Rmax_r`` (:func:`path`); no argument equal: the
  first, and ``coqc`` rejects the file;
- :func:`_value`, :func:`_value0`, :func:`hockey_value`, :func:`_at_one_value`: the chord's value (on [lo, hi], on
  [0, hi], at T = 1) at most U, by the library's ``chord_kl'``, ``chord_tv'``, ``chord_renyi2'``, ``chord_kl0``,
  ``chord_hockey_max``, ``one_*``.

An edited certificate (lo, hi or U) makes one of these steps fail, so ``coqc`` rejects the file.
"""

from __future__ import annotations

import ast

import sympy

from implgraph.kernel_coq.coqexpr import Untranslatable
from implgraph.kernel_coq.obligations import _need
from implgraph.kernel_coq.statement import divergence_kind

__all__ = ["positive", "below", "max_parts", "path", "hockey_value", "log_of"]


# symbols and inequalities on the domain (the shift argument) --------------------------------------------------------

def _sym(f, text):
    """``text`` as a sympy expression over the certificate's symbols (the project's safe parser)."""
    from implgraph.core.formula import parse_expr
    names = {n: sympy.Symbol(n, positive=True) for n in f.tr.kinds}
    return parse_expr(str(text), names), names


def _rat(c):      # a rational's Coq text
    return str(c.p) if c.q == 1 else f"({c.p} / {c.q})"


def positive(f, p):
    """A tactic proving ``0 < p``: ``lra`` where p is a positive multiple of a domain atom ``q > 0`` (a condition
    the shift argument cannot use as a variable's bound), else the shift argument."""
    for op, q in f.domain.atoms:
        if op != ">" or q.is_ground:
            continue
        ratio = sympy.cancel(p.as_expr() / q.as_expr())
        if ratio.is_Number and ratio > 0:
            return "lra"
    return f.nonneg(p, strict=True)


def _positive(f, P):
    """A tactic proving ``0 < P`` (``0 < P - Q * 0``): the shift argument, or where it cannot sign P (a product of
    factors each > 0 only strictly, e.g. (N - 1)(T - 1) with T > 1), P's irreducible factors each by the shift
    argument and their product by ``Rmult_lt_0_compat``."""
    from implgraph.kernel_coq.shift import shift_choice
    if shift_choice(P, f.atoms(), strict=True) is not None:
        return f.nonneg(P, strict=True)
    if positive(f, P) == "lra":
        return "lra"
    c, facs = sympy.factor_list(P.as_expr())
    c = sympy.Rational(c)
    if c <= 0 or not facs:
        return "nra"
    terms = [_rat(c)] + [f.tr.expr(str(fac)) for fac, m in facs for _ in range(int(m))]
    tacs = ["lra"] + [f.nonneg(f.rd.poly(str(fac)), strict=True) for fac, m in facs for _ in range(int(m))]
    prod, tac = terms[-1], tacs[-1]
    for t, tc in zip(reversed(terms[:-1]), reversed(tacs[:-1])):
        prod = f"(({t}) * {prod})"
        tac = f"apply Rmult_lt_0_compat; [{tc} | {tac}]"
    return f"(match goal with |- _ < ?g => replace g with {prod} by ringq end; {tac})"


def _ineq(f, small, large, label, strict=False):
    """Lines proving ``label : small <= large`` (``<``) on the certificate's domain: ``large - small = P/Q`` by
    ``field``, ``Q > 0`` and ``P >= 0`` (``> 0``) by the shift argument (``ge_from_ratio`` / ``gt_from_ratio``)."""
    cs, cl = f.tr.expr(small), f.tr.expr(large)
    P, Q = f.rd.ratio(f"({large}) - ({small})")
    gap = f"({cl} - {cs})"
    lemma, op = ("gt_from_ratio", ">") if strict else ("ge_from_ratio", ">=")
    return [f"assert ({label} : {cs} {'<' if strict else '<='} {cl}).",
            f"{{ assert ({gap} {op} 0) by (apply ({lemma} {gap} ({f.tr.poly(P)}) ({f.tr.poly(Q)}) 0); "
            f"[{f.nonzero(texts=[small, large], polys=[Q])}; field; nz_from_hyps | {_positive(f, Q)} | "
            f"{_positive(f, P) if strict else f.nonneg(P)}]). lra. }}"]


# logarithms, each split into its argument's factors -----------------------------------------------------------------

def _log_args(text):
    node = ast.parse(str(text).strip(), mode="eval").body
    return [ast.unparse(n.args[0]) for n in ast.walk(node)
            if isinstance(n, ast.Call) and getattr(n.func, "id", None) == "log" and len(n.args) == 1]


def log_of(text):
    """The argument's text of ``text`` = log(argument), or None."""
    node = ast.parse(str(text).strip(), mode="eval").body
    if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "log" and len(node.args) == 1:
        return ast.unparse(node.args[0])
    return None


def _factors(f, expr, names):
    """``(constant, [(factor, multiplicity)])`` of a polynomial in the certificate's symbols."""
    gens = [names[n] for n in sorted(names) if expr.has(names[n])]
    if not gens:
        return expr, []
    c, facs = sympy.factor_list(sympy.expand(expr), *gens)
    return c, facs


class _Logs:
    """The logarithms of a proof, each split into the logarithms of irreducible factors > 0 on the domain."""

    def __init__(self, f):
        self.f = f
        self.lines = []
        self.factors = {}           # factor's Coq text -> its hypothesis name
        self.rewrites = []

    def _factor(self, fac):
        coq = self.f.tr.expr(str(fac))
        if coq not in self.factors:
            name = f"PF{len(self.factors)}"
            p = self.f.rd.poly(str(fac))
            self.lines.append(f"assert ({name} : 0 < {coq}) by {positive(self.f, p)}.")
            self.factors[coq] = name
        return coq

    def _side(self, expr, names):
        """``(product's Coq text, [(coefficient, factor's Coq text)])`` of a polynomial > 0."""
        c, facs = _factors(self.f, expr, names)
        c = sympy.Rational(c)
        if c < 0:       # a factor of odd multiplicity taken with its sign flipped (e.g. N + T - N T > 0)
            odd = [j for j, (_, m) in enumerate(facs) if m % 2]
            if odd:
                fac, m = facs[odd[0]]
                facs = [*facs[:odd[0]], (sympy.expand(-fac), m), *facs[odd[0] + 1:]]
                c = -c
        _need(c > 0, f"a logarithm's argument with a factor that is not positive ({expr})")
        terms, prod = [], []
        if c.q != 1:
            raise Untranslatable(f"a logarithm's factor with a fractional constant ({expr})")
        if c != 1:
            terms.append((1, str(c.p)))
            prod.append(str(c.p))
        for fac, m in facs:
            coq = self._factor(fac)
            terms.append((m, coq))
            prod += [coq] * int(m)
        text = " * ".join(f"({t})" for t in prod) if prod else "1"
        return text, terms

    def split(self, arg_text):
        """Assert ``ln (arg) = sum of multiples of ln (factor)`` and remember to rewrite it."""
        f = self.f
        expr, names = _sym(f, arg_text)
        num, den = sympy.fraction(sympy.cancel(sympy.together(expr)))
        ptext, pterms = self._side(num, names)
        qtext, qterms = self._side(den, names)
        coq_arg = f.tr.expr(arg_text)
        rhs = " + ".join([f"{m} * ln ({t})" for m, t in pterms] + [f"(- {m}) * ln ({t})" for m, t in qterms]) or "0"
        name = f"LN{len(self.rewrites)}"
        self.lines.append(
            f"assert ({name} : ln ({coq_arg}) = {rhs}).")
        self.lines.append(
            f"{{ rewrite (ln_frac ({coq_arg}) ({ptext}) ({qtext})) by "
            f"(lnpos || ({f.nonzero(texts=[arg_text])}; field; nz_from_hyps)). "
            f"rewrite ?ln_1, ?ln_mult by lnpos. rewrite ?ln_1. ring. }}")
        self.rewrites.append(name)

    def rewrite(self):
        return [f"rewrite {', '.join(self.rewrites)}."] if self.rewrites else []


def _log_identity(f, lhs_text, rhs_text, logs):
    """Lines proving the goal ``lhs <= rhs`` (Coq texts of ``lhs_text``, ``rhs_text``), both rational in the
    logarithms of the arguments: each logarithm split (``logs``), then the identity by ``field``."""
    seen = []
    for t in _log_args(lhs_text) + _log_args(rhs_text):
        if t not in seen:
            seen.append(t)
    for t in seen:
        logs.split(t)
    return logs.lines + logs.rewrite() + [
        f"apply Req_le. {f.nonzero(texts=[lhs_text, rhs_text])}; field; nz_from_hyps."]


# U a maximum --------------------------------------------------------------------------------------------------------

def max_parts(text):
    """``(args, den)`` of U = Max(args) (den None) or Max(args)/den (texts), or None."""
    node = ast.parse(str(text).strip(), mode="eval").body
    den = None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
        node, den = node.left, ast.unparse(node.right)
    if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Max" and len(node.args) >= 2:
        return [ast.unparse(a) for a in node.args], den
    return None


def _same(f, a, b):
    ea, _ = _sym(f, a)
    eb, _ = _sym(f, b)
    return sympy.simplify(sympy.expand_log(sympy.simplify(ea - eb), force=True)) == 0


def path(f, args, i):
    """A tactic proving ``args[i] <= Max(args)`` (the translator's nesting ``Rmax a0 (Rmax a1 ...)``)."""
    if len(args) == 1:
        return "apply Rle_refl"
    if i == 0:
        return "apply Rmax_l"
    if len(args) == 2:
        return "apply Rmax_r"
    rest = f.tr.expr(f"Max({', '.join(args[1:])})")
    return f"apply Rle_trans with ({rest}); [{path(f, args[1:], i - 1)} | apply Rmax_r]"


def below(f, small, large, label):
    """Lines proving ``label : small <= large`` (texts; logarithms split as by
    :func:`_log_identity`), where large
    may be Max(args) or Max(args)/den: through the argument equal to small."""
    parts = max_parts(large)
    cs, cl = f.tr.expr(small), f.tr.expr(large)
    if parts is None:
        if _log_args(small) or _log_args(large):
            return [f"assert ({label} : {cs} <= {cl}).", "{"] + [
                f"  {ln}" for ln in _log_identity(f, small, large, _Logs(f))] + ["}"]
        return _ineq(f, small, large, label)
    args, den = parts
    pick = [i for i, a in enumerate(args) if _same(f, small, a if den is None else f"({a})/({den})")]
    i = pick[0] if pick else 0      # none equal: the first, whose identity coqc then rejects
    mid = args[i] if den is None else f"({args[i]})/({den})"
    how = path(f, args, i)
    if den is not None:
        pd = f.rd.poly(den)
        how = (f"unfold Rdiv; apply Rmult_le_compat_r; [left; apply Rinv_0_lt_compat; {positive(f, pd)} | "
                f"{how}]")
    lines = below(f, small, mid, f"{label}m")
    return lines + [f"assert ({label} : {cs} <= {cl}) by (apply Rle_trans with ({f.tr.expr(mid)}); "
                    f"[exact {label}m | {how}])."]


# the chord's value at most U ----------------------------------------------------------------------------------------

def hockey_value(f, div, k, lo, hi, U, name):
    """Lines proving ``name : chord_val (phi_of (Hockey g)) lo hi <= dbound (Hockey g) U`` (``chord_hockey_max``:
    lo <= g, 0 <= U and (1 - lo)(hi - g)/(hi - lo) <= U); needs ``Hlh : lo < hi`` in scope of the caller's names
    ``{name}lh``."""
    g = str(div.order)
    lines = _ineq(f, lo, g, f"{name}g") + below(f, "0", U, f"{name}z")
    lines += below(f, f"(1 - ({lo}))*(({hi}) - ({g}))/(({hi}) - ({lo}))", U, f"{name}c")
    return lines + [f"assert ({name} : chord_val (phi_of {k}) ({f.tr.expr(lo)}) ({f.tr.expr(hi)}) <= "
                    f"dbound {k} ({f.upper})) by (apply chord_hockey_max; [exact {name}g | exact {name}lh | "
                    f"exact {name}z | exact {name}c])."]


def _value(f, div, lo, hi, U):
    """Lines proving ``Hval : chord_val (phi_of k) lo hi <= dbound k U``."""
    clo, chi = f.tr.expr(lo), f.tr.expr(hi)
    k = divergence_kind(f.tr, div)
    head = f"assert (Hval : chord_val (phi_of {k}) ({clo}) ({chi}) <= dbound {k} ({f.upper}))."
    if div.kind == "kl":
        chord_text = f"(1 - ({lo}))*(({hi})*log({hi})) + (({hi}) - 1)*(({lo})*log({lo}))"
        body = _log_identity(f, chord_text, f"({U})*(({hi}) - ({lo}))", _Logs(f))
        return [head, "{ apply chord_kl'; [exact Hl0 | exact Hlh |].", *[f"  {ln}" for ln in body], "}"]
    if div.kind == "tv":
        lines = _ineq(f, lo, "1", "Ht1") + _ineq(f, "1", hi, "Ht2")
        chord_text = f"(1 - ({lo}))*(({hi}) - 1)"
        lines += _ineq(f, chord_text, f"({U})*(({hi}) - ({lo}))", "Hc")
        return lines + [head, "{ apply chord_tv'; [exact Ht1 | exact Ht2 | exact Hlh | exact Hc]. }"]
    if div.kind == "hockey-stick":       # (1 - lo) max(hi - g, 0)/(hi - lo): U a maximum through its arguments
        return [f"assert (Hvallh : {clo} < {chi}) by exact Hlh."] + hockey_value(f, div, k, lo, hi, U, "Hval")
    # Renyi of order 2: X = exp(U), the chord's value at most X, ln X <= U
    expr, _ = _sym(f, U)
    X = sympy.simplify(sympy.exp(expr))
    _need(not X.has(sympy.exp, sympy.log), f"exp(U) is not a rational function ({X})")
    xt = str(X) if "**(-" not in str(X) else str(sympy.cancel(X))      # (a negative power: one quotient)
    lines = _ineq(f, "0", xt, "HX", strict=True)
    chord_text = f"(1 - ({lo}))*({hi})**2 + (({hi}) - 1)*({lo})**2"
    lines += _ineq(f, chord_text, f"({xt})*(({hi}) - ({lo}))", "Hc")
    logs = _Logs(f)
    body = _log_identity(f, f"log({xt})", U, logs)
    lines += ["assert (HlnX : ln (" + f.tr.expr(xt) + f") <= {f.upper}).", "{", *[f"  {ln}" for ln in body], "}"]
    return lines + [head, "{ apply (chord_renyi2' _ _ (" + f.tr.expr(xt) + ")); [exact Hlh | exact HX | exact Hc | "
                    "exact HlnX]. }"]


def _value0(f, div, k, hi, U):
    """Lines proving ``Hval : chord_val (phi_of k) 0 hi <= dbound k U`` (KL: ``chord_kl0``, ln hi = U; Renyi of
    order 2 as :func:`_value`), and ``Hh0 : 0 < hi``; the term ``below_chord (phi_of k) 0 hi``."""
    chi = f.tr.expr(hi)
    lines = _ineq(f, "0", hi, "Hh0", strict=True)
    if div.kind == "kl":
        head = f"assert (Hval : chord_val (phi_of {k}) 0 ({chi}) <= dbound {k} ({f.upper}))."
        body = _log_identity(f, f"log({hi})", U, _Logs(f))
        lines += [head, "{ apply chord_kl0; [exact Hh0 |].", *[f"  {ln}" for ln in body], "}"]
        return lines, f"(below_kl 0 ({chi}) (Rle_refl 0) Hh0)"
    _need(div.kind == "renyi", f"a chord on [0, hi] of {div.kind}")
    lines.append(f"assert (Hlh : 0 < {chi}) by exact Hh0.")
    return lines + _value(f, div, "0", hi, U), f"(below_renyi2 0 ({chi}) Hh0)"


def _at(text, name, value):
    """``text`` with the symbol ``name`` replaced by the constant ``value`` (as Coq reads the goal after rewriting)."""
    tree = ast.parse(str(text).strip(), mode="eval")

    class _Sub(ast.NodeTransformer):
        def visit_Name(self, node):
            return ast.copy_location(ast.Constant(int(value)), node) if node.id == name else node
    return ast.unparse(_Sub().visit(tree))


def _at_one_value(f, div, U):
    """Lines proving the goal ``phi_of k 1 <= dbound k U(1)`` (U(1) >= 0; a maximum through its argument 0)."""
    u1 = _at(U, "T", "1")
    lines = []
    if div.kind == "hockey-stick":
        lines += _ineq(f, "1", str(div.order), "Hg1") + ["apply one_hockey; [exact Hg1 |]."]
    elif div.kind == "renyi":
        lines.append("apply one_renyi; [lia |].")
    else:
        lines.append(f"apply one_{div.kind}.")
    inner = log_of(u1)
    if inner is not None and "Max" in inner:      # log(max(...)) >= 0: an argument >= 1
        args = max_parts(inner)[0]
        pick = [a for a in args if _sym(f, a)[0] == 1 or sympy.simplify(_sym(f, a)[0] - 1) == 0]
        i = args.index(pick[0]) if pick else 0      # none is 1: coqc rejects the first
        return lines + _ineq(f, "1", args[i], "HU1a") + [
            f"apply (ln_ge_0 ({f.tr.expr(args[i])})); [exact HU1a | {path(f, args, i)}]."]
    if "Max" in u1:
        return lines + below(f, "0", u1, "HU1") + ["exact HU1."]
    if _log_args(u1):
        return lines + _log_identity(f, "0", u1, _Logs(f))
    return lines + _ineq(f, "0", u1, "HU1") + ["exact HU1."]
