"""Coq proofs of ``chord`` certificates: a two-sided ratio level A bounds an f-divergence B by the chord's value.

The library's ``Divergence.v`` proves the chord lemma once (``chord``: where every ratio of the two distributions
lies in [lo, hi] and phi lies below its chord there, the divergence is at most the chord's value at 1) and its two
instances by the compared distributions: ``chord_pairs`` (A pairwise at T, B between every two records) and
``chord_class`` (A a two-sided class level at T, B between each class and the table). Each needs A's interval
[1/T, T] inside the certificate's [lo, hi], phi below its chord (``below_kl``, ``below_renyi2``, ``below_tv``,
``below_hockey``) and the chord's value at most U (``chord_kl``, ``chord_renyi2``, ``chord_tv``, ``chord_hockey``).

The certificate's data enter as follows: lo and hi are the certificate's (``lo <= 1/T``, ``T <= hi``, ``lo < hi``
from ``lo = P/Q``-style quotients, signed by the shift argument: the library's ``ge_from_ratio``); U against the
chord's value: for KL each logarithm is split into the logarithms of its argument's irreducible factors (each shown
> 0 on the domain; ``ln_frac`` and ``ln_mult``), then the identity by ``field``; for Renyi of order 2 the chord's
value is at most exp(U) = X (X the certificate's U read back, ``ln X = U`` the same way); total variation and the
hockey stick by a quotient's sign. An edited lo, hi or U makes one of these steps fail, so ``coqc`` rejects the file.

Record removal both ways, the hockey stick's maximum and the domain's denominators: :mod:`gen_chord_removal`; each
record against the table with the narrowed end N - (N - 1)/T: :mod:`gen_chord_record_class`. Not covered
(:class:`Untranslatable`): Renyi of an order other than 2 or oo, sides the library's lemmas do not pair."""

from __future__ import annotations

import ast

import sympy

from implgraph.kernel_coq import adapter
from implgraph.kernel_coq import gen_chord_record_class as narrow
from implgraph.kernel_coq.coqexpr import Untranslatable
from implgraph.kernel_coq.obligations import _need
from implgraph.kernel_coq.statement import divergence_kind

__all__ = ["chord", "METHODS", "MODULES"]

MODULES = ("Divergence", "RemovalChord", "RecordClassChord")      # the library modules the lemmas live in


def _sym(f, text):
    """``text`` as a sympy expression over the certificate's symbols (the project's safe parser)."""
    from implgraph.core.formula import parse_expr
    names = {n: sympy.Symbol(n, positive=True) for n in f.tr.kinds}
    return parse_expr(str(text), names), names


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


def _positive(f, P):
    """A tactic proving ``0 < P`` (``0 < P - Q * 0``): the shift argument, or where it cannot sign P (a product of
    factors each > 0 only strictly, e.g. (N - 1)(T - 1) with T > 1), P's irreducible factors each by the shift
    argument and their product by ``Rmult_lt_0_compat``."""
    from implgraph.kernel_coq.gen_chord_removal import positive
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


def _rat(c):      # a rational's Coq text
    return str(c.p) if c.q == 1 else f"({c.p} / {c.q})"


def _log_args(text):
    node = ast.parse(str(text).strip(), mode="eval").body
    return [ast.unparse(n.args[0]) for n in ast.walk(node)
            if isinstance(n, ast.Call) and getattr(n.func, "id", None) == "log" and len(n.args) == 1]


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
        from implgraph.kernel_coq.gen_chord_removal import positive
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


def chord(f):
    """Proof lines of a ``chord`` certificate (``f`` the generator's file of it): the domain's conditions with a
    denominator cleared, then the argument's lemma."""
    from implgraph.kernel_coq.gen_chord_removal import domain_lines
    pre = domain_lines(f)
    return pre + _chord(f)


def _chord(f):
    from implgraph.kernel_coq.gen_chord_removal import (one_sided_class, rconf_removal, single_to_classes,
                                                        subset_class_above)
    cert = f.cert
    A = cert.A
    div = adapter.divergence_side(cert.B)
    _need(div is not None, "a chord certificate whose B declares no divergence")
    k = divergence_kind(f.tr, div)
    _need(k is not None, f"a divergence the library does not state ({div.kind} of order {div.order})")
    _need(div.kind != "renyi" or int(div.order) == 2, "Renyi of another order than 2")
    pre, data = [], cert.raw.get("upper_certificate") or {}
    lo, hi, U = str(data.get("lo")), str(data.get("hi")), cert.upper
    _need(cert.upper is not None and data.get("lo") is not None and data.get("hi") is not None,
          "a chord certificate without lo, hi and U")
    if narrow.applies(f, div, hi):      # each record or class against the table, the end N - (N - 1)/T
        return narrow.record_class(f, div, k, lo, hi, U)
    if A.family == "pairwise" and A.sides == "TwoSided" and div.compares == "pairs":
        lemma = "chord_pairs"
    elif A.family == "class" and A.sides == "TwoSided" and div.compares == "class" and _same(A, cert.B):
        lemma = "chord_class"
    elif A.family == "class" and A.sides == "OneSided" and div.compares == "class" and _same(A, cert.B):
        return one_sided_class(f, div, k, lo, hi, U)
    elif A.family == "pairwise" and A.sides == "TwoSided" and div.compares == "removal":
        if hi != "T" or "Max" in str(U):     # the narrowed interval, both ways
            return rconf_removal(f, div, k, lo, hi, U)
        lemma = "chord_pairs_removal"
    elif A.family == "pairwise" and A.sides == "TwoSided" and div.compares == "class" \
            and str(cert.B.min_class or "1") == "1" and not cert.B.max_class:
        lemma = "chord_pairwise_class"
    elif A.family == "subset" and A.sides == "TwoSided" and A.size is not None and div.compares == "removal" \
            and f.rd.poly(A.size) == f.rd.poly("N - 1"):
        if hi != "T" or "Max" in str(U):     # the larger of two chords (phi's and its perspective's)
            return rconf_removal(f, div, k, lo, hi, U)
        lemma = "chord_subset_removal"
    elif A.family == "subset" and A.sides == "TwoSided" and A.size is not None and div.compares == "class" \
            and f.rd.poly(A.size) == f.rd.poly("N - 1"):
        if lo != "0":       # the piece N <= 2 ([1/T, 2 - 1/T]), or N - (N - 1) T below N/(N - 1)
            return (narrow.removal_class_two if narrow.removal_two(f, lo) else subset_class_above)(f, div, k, lo, hi, U)
        return _subset_class(f, div, k, lo, hi, U)
    elif A.family == "subset" and A.sides == "TwoSided" and A.size is not None and div.compares == "removal" \
            and f.rd.poly(A.size) == f.rd.poly("1"):
        return rconf_removal(f, div, k, lo, hi, U)
    elif A.family == "subset" and A.sides == "OneSided" and A.size is not None and div.compares == "class" \
            and f.rd.poly(A.size) == f.rd.poly("1"):
        return one_sided_class(f, div, k, lo, hi, U, "(onesub_upper N K x cls T HA)")
    elif pre := single_to_classes(f, div):      # each record against the table: every class too
        lemma = "chord_class"
    else:
        raise Untranslatable("a chord certificate other than A pairwise against pairs, A a class level against the "
                             "same classes or A a removal level against the classes (lo = 0)")
    one = _at_one(f, div, k, lemma, U)
    f.domain.atoms.append((">", f.rd.poly("T - 1")))      # the other case: T > 1 (lo < hi)
    try:
        main = _above_one(f, div, k, lemma, lo, hi, U)
    finally:
        f.domain.atoms.pop()
    return pre + (["destruct (Rle_lt_or_eq_dec 1 T ltac:(lra)) as [HT1|E1]."]
            + ["{ " + main[0]] + [f"  {ln}" for ln in main[1:]] + ["}"]
            + ["{ " + one[0]] + [f"  {ln}" for ln in one[1:]] + ["}"])


def _same(a, b):      # two class sides on the same classes: the same minimum size, neither a maximum
    return str(a.min_class or "1") == str(b.min_class or "1") and not a.max_class and not b.max_class


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


def _subset_class(f, div, k, lo, hi, U):
    """A the subset level of size N - 1 against each class and the table (``chord_subset_class``), lo = 0: every
    ratio lies in [0, N - (N - 1)/T], and 0 < hi for every T >= 1 (no case T = 1)."""
    clo, chi = f.tr.expr(lo), f.tr.expr(hi)
    lines = _ineq(f, lo, "0", "Hlo0") + _ineq(f, "N - (N - 1)/T", hi, "Hhi") + _ineq(f, lo, hi, "Hlh", strict=True)
    lines += ["assert (HT : 0 < T) by lra.", "assert (HN2 : 2 <= INR N) by lra."]
    if div.kind == "kl":
        lines += _ineq(f, "0", hi, "Hh0", strict=True)
        head = f"assert (Hval : chord_val (phi_of {k}) ({clo}) ({chi}) <= dbound {k} ({f.upper}))."
        body = _log_identity(f, f"log({hi})", U, _Logs(f))
        lines += [head,
                  f"{{ replace ({clo}) with 0 by lra. apply chord_kl0; [exact Hh0 |].",
                  *[f"  {ln}" for ln in body], "}"]
        below_term = f"(below_kl ({clo}) ({chi}) Hl0 Hlh)"
        lines.insert(0, f"assert (Hl0 : 0 <= {clo}) by lra.")
    else:
        lines += _value(f, div, lo, hi, U)
        below_term = f"(below_renyi2 ({clo}) ({chi}) Hlh)"
    lines.append(f"exact (chord_subset_class {k} N K x cls T ({clo}) ({chi}) ({f.upper}) Htab HA HN2 HT "
                 f"(or_introl Hlo0) Hhi Hlh "
                 f"{below_term} Hval).")
    return lines


def _at_one(f, div, k, lemma, U):
    """At T = 1 (``E1 : 1 = T``) A's compared distributions are equal and B's divergence is phi(1): the library's
    ``one_pairs`` / ``one_class``, and phi(1) <= U(1) (``one_kl``, ...: U(1) >= 0)."""
    one, extra = {"chord_class": ("one_class", " cls"), "chord_pairs": ("one_pairs", ""),
                  "chord_pairwise_class": ("one_pairwise_class", " cls"),
                  "chord_pairs_removal": ("one_pairs_removal", ""),
                  "chord_subset_removal": ("one_subset_removal", "")}[lemma]
    n2 = " | lra" if "removal" in lemma else ""
    lines = ["rewrite <- E1 in HA |- *.", f"apply ({one} {k} N K x{extra}); [exact Htab | exact HA{n2} |]."]
    return lines + _at_one_value(f, div, U)


def _at_one_value(f, div, U):
    """Lines proving the goal ``phi_of k 1 <= dbound k U(1)`` (U(1) >= 0; a maximum through its argument 0)."""
    from implgraph.kernel_coq.gen_chord_removal import below
    u1 = _at(U, "T", "1")
    lines = []
    if div.kind == "hockey-stick":
        lines += _ineq(f, "1", str(div.order), "Hg1") + ["apply one_hockey; [exact Hg1 |]."]
    elif div.kind == "renyi":
        lines.append("apply one_renyi; [lia |].")
    else:
        lines.append(f"apply one_{div.kind}.")
    from implgraph.kernel_coq.gen_chord_removal import log_of
    inner = log_of(u1)
    if inner is not None and "Max" in inner:      # log(max(...)) >= 0: an argument >= 1
        from implgraph.kernel_coq.gen_chord_removal import max_parts, path
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


def _at(text, name, value):
    """``text`` with the symbol ``name`` replaced by the constant ``value`` (as Coq reads the goal after rewriting)."""
    tree = ast.parse(str(text).strip(), mode="eval")

    class _Sub(ast.NodeTransformer):
        def visit_Name(self, node):
            return ast.copy_location(ast.Constant(int(value)), node) if node.id == name else node
    return ast.unparse(_Sub().visit(tree))


def _above_one(f, div, k, lemma, lo, hi, U):
    """Where T > 1: the chord lemma on [lo, hi] (lo < hi)."""
    clo, chi = f.tr.expr(lo), f.tr.expr(hi)
    if lemma == "chord_pairwise_class":     # a class's ratio to the table: [N/(1 + (N - 1) T), N T/(N + T - 1)]
        lines = (_ineq(f, lo, "N/(1 + (N - 1)*T)", "Hlo") + _ineq(f, "N*T/(N + T - 1)", hi, "Hhi")
                 + _ineq(f, lo, hi, "Hlh", strict=True) + _ineq(f, "0", lo, "Hl0", strict=True))
        value = _value(f, div, lo, hi, U)
        below = (f"(below_kl ({clo}) ({chi}) ltac:(lra) Hlh)" if div.kind == "kl"
                 else f"(below_renyi2 ({clo}) ({chi}) Hlh)")
        return lines + value + [f"exact (chord_pairwise_class {k} N K x cls T ({clo}) ({chi}) ({f.upper}) Htab HA "
                                f"ltac:(lra) Hlo Hhi Hlh ltac:(lra) {below} Hval)."]
    lines = _ineq(f, lo, "1/T", "Hlo") + _ineq(f, "T", hi, "Hhi") + _ineq(f, lo, hi, "Hlh", strict=True)
    lines += ["assert (HT : 0 < T) by lra."]
    value = _value(f, div, lo, hi, U)
    below = {"kl": "below_kl", "renyi": "below_renyi2", "tv": "below_tv", "hockey-stick": "below_hockey"}[div.kind]
    if div.kind == "kl":
        lines += _ineq(f, "0", lo, "Hl0", strict=True)
        below_term = f"(below_kl ({clo}) ({chi}) ltac:(lra) Hlh)"
    elif div.kind == "hockey-stick":
        below_term = f"(below_hockey _ ({clo}) ({chi}) Hlh)"
    else:
        below_term = f"({below} ({clo}) ({chi}) Hlh)"
    lines += value
    n2 = "ltac:(lra) " if "removal" in lemma else ""
    lines.append(f"exact ({lemma} {k} N K x {'cls ' if lemma == 'chord_class' else ''}T ({clo}) ({chi}) ({f.upper}) "
                 f"Htab HA {n2}HT Hlo Hhi Hlh {below_term} Hval).")
    return lines


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
        from implgraph.kernel_coq.gen_chord_removal import hockey_value
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


METHODS = {"chord": chord}       # certificate method -> proof lines (leaf methods of the generator)
