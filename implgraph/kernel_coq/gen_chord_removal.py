"""Coq proofs of the ``chord`` certificates on record removal both ways, and the domain's conditions with a
denominator (helpers of :mod:`implgraph.kernel_coq.gen_chord`; the steps they share with it, a U that is a maximum
among them: :mod:`implgraph.kernel_coq.chord_steps`).

The library's ``RemovalChord.v`` proves once that where every ratio Q_i/P lies in [lo, hi] (``rconf``), B compares
the table P and the table without record i, Q_i, both ways at U when the chord of phi on [lo, hi] (D(Q_i || P)) and
on [1/hi, 1/lo] (D(P || Q_i): the chord of phi's perspective on [lo, hi]) are both at most U (``chord_rconf``; at
T = 1 the two means are equal, ``one_rconf``). What A gives is a lemma per A (``pairwise_rconf``, ``single_rconf_*``,
``subset_rconf*``); the certificate's [lo, hi] must contain it (``rconf_weaken``, each end by the shift argument).
Where U is a maximum (the larger of the two chords, or the hockey stick's max(., 0)), each chord's value is shown
equal to one of its arguments (exact algebra, logarithms split into their factors' as in ``chord_steps``) and that
argument at most the maximum (``Rmax_l``, ``Rmax_r``); no argument equal to the value: the proof goes
through the first argument, and ``coqc`` rejects it. An edited lo, hi or U therefore fails ``coqc``: an interval A
does not give, a chord value no argument equals.
"""

from __future__ import annotations

import ast

import sympy

from implgraph.kernel_coq.chord_steps import _same, below, hockey_value, log_of, max_parts, path
from implgraph.kernel_coq.coqexpr import Untranslatable
from implgraph.kernel_coq.obligations import _need

__all__ = ["domain_lines", "positive", "below", "max_parts", "path", "rconf_removal", "hockey_value",
           "subset_class_above", "log_of", "one_sided_class", "MODULES"]

#: the library modules the lemmas live in
MODULES = ("Divergence", "RemovalChord")


# the domain ------------------------------------------------------------------------------------------------------

def domain_lines(f):
    """Lines asserting each domain condition with a denominator, cleared (``DCi : 0 < num`` by ``frac_pos``, the
    denominator shown > 0), and the conditions' polynomial atoms (conjunctions' parts too) added to ``f``'s domain
    for the shift argument."""
    from implgraph.kernel_coq.statement import conjuncts
    lines = []
    texts = [d for t in f.cert.domain for d in conjuncts(t)]
    for i, text in enumerate(texts):
        try:
            atom = f.rd.relation_poly(text)
        except Exception:       # a relation with a denominator: cleared below
            atom = None
        if atom is not None:
            if atom not in f.domain.atoms:
                f.domain.atoms.append(atom)
            continue
        cleared = _cleared(f, text, f"D{i}", f"DC{i}")
        if cleared is not None:
            lines.append(cleared[0])
            f.domain.atoms.append(cleared[1])
    return lines


def _cleared(f, text, hyp, name):
    """``(line, atom)``: ``name : 0 < num`` (``<=``) from ``hyp : lhs < rhs`` with rhs - lhs = num/den, den > 0."""
    from implgraph.kernel_coq.chord_steps import _sym
    from implgraph.kernel_coq.shift import shift_choice
    node = ast.parse(str(text).strip(), mode="eval").body
    if not (isinstance(node, ast.Compare) and len(node.ops) == 1):
        return None
    op = type(node.ops[0])
    left, right = ast.unparse(node.left), ast.unparse(node.comparators[0])
    if op in (ast.Lt, ast.LtE):
        small, large = left, right
    elif op in (ast.Gt, ast.GtE):
        small, large = right, left
    else:
        return None
    strict = op in (ast.Lt, ast.Gt)
    gap, _ = _sym(f, f"({large}) - ({small})")
    num, den = sympy.fraction(sympy.cancel(sympy.together(gap)))
    try:
        pn, pd = f.rd.poly(str(num)), f.rd.poly(str(den))
    except Exception:
        return None
    if shift_choice(pd, f.atoms(), strict=True) is None:
        return None
    cn, cd = f.tr.poly(pn), f.tr.poly(pd)
    gap_c = f"({f.tr.expr(large)} - {f.tr.expr(small)})"
    lemma, rel = ("frac_pos", "<") if strict else ("frac_nonneg", "<=")
    line = (f"assert ({name} : 0 {rel} {cn}) by (apply ({lemma} ({cn}) ({cd})); "
            f"[{f.nonneg(pd, strict=True)} | replace (({cn}) / ({cd})) with {gap_c} "
            f"by ({f.nonzero(texts=[f'({large}) - ({small})'], polys=[pd])}; field; nz_from_hyps); "
            f"try unfold Rgt, Rge in {hyp}; lra]).")
    return line, (">" if strict else ">=", pn)


# the values of the chords ------------------------------------------------------------------------------------------

def _value(f, div, k, a, b, U, name):
    """Lines proving ``name : chord_val (phi_of k) a b <= dbound k U`` (``{name}lh : a < b`` proved before); and the
    term ``below_chord (phi_of k) a b``."""
    ca, cb = f.tr.expr(a), f.tr.expr(b)
    head = f"chord_val (phi_of {k}) ({ca}) ({cb}) <= dbound {k} ({f.upper})"
    if div.kind == "hockey-stick":
        return hockey_value(f, div, k, a, b, U, name), f"(below_hockey _ ({ca}) ({cb}) {name}lh)"
    if div.kind == "kl":
        from implgraph.kernel_coq.chord_steps import _ineq
        chord = f"((1 - ({a}))*(({b})*log({b})) + (({b}) - 1)*(({a})*log({a})))/(({b}) - ({a}))"
        lines = _ineq(f, "0", a, f"{name}0", strict=True) + below(f, chord, U, f"{name}c")
        return (lines + [f"assert ({name} : {head}) by (apply chord_kl; [exact {name}0 | exact {name}lh | "
                         f"exact {name}c])."], f"(below_kl ({ca}) ({cb}) ltac:(lra) {name}lh)")
    if div.kind == "tv":
        from implgraph.kernel_coq.chord_steps import _ineq
        lines = _ineq(f, a, "1", f"{name}1") + _ineq(f, "1", b, f"{name}2")
        lines += below(f, f"(1 - ({a}))*(({b}) - 1)/(({b}) - ({a}))", U, f"{name}c")
        return (lines + [f"assert ({name} : {head}) by (apply chord_tv; [exact {name}1 | exact {name}2 | "
                         f"exact {name}lh | exact {name}c])."], f"(below_tv ({ca}) ({cb}) {name}lh)")
    _need(div.kind == "renyi", f"a removal chord of {div.kind}")
    return _value_renyi2(f, a, b, U, name, k, head), f"(below_renyi2 ({ca}) ({cb}) {name}lh)"


def _value_renyi2(f, a, b, U, name, k, head):
    """Renyi of order 2: X = exp(U) (a maximum of rationals, or a rational), the chord's value at most X, ln X <= U."""
    from implgraph.kernel_coq.chord_steps import _ineq, _log_identity, _Logs, _sym
    inner = log_of(U)
    if inner is not None and max_parts(inner) is not None:      # U = log(Max(...)): X its argument as written
        xt = inner
    else:
        expr, _ = _sym(f, U)
        X = sympy.simplify(sympy.exp(expr))
        _need(not X.has(sympy.exp, sympy.log), f"exp(U) is not a rational function ({X})")
        xt = str(X)
    cx = f.tr.expr(xt)
    lines = []
    parts = max_parts(xt)
    first = parts[0][0] if parts else xt
    lines += _ineq(f, "0", first, f"{name}x0", strict=True)
    lines.append(f"assert ({name}x : 0 < {cx}) by (apply Rlt_le_trans with ({f.tr.expr(first)}); "
                 f"[exact {name}x0 | {path(f, parts[0], 0) if parts else 'apply Rle_refl'}]).")
    lines += below(f, f"((1 - ({a}))*({b})**2 + (({b}) - 1)*({a})**2)/(({b}) - ({a}))", xt, f"{name}c")
    if f.tr.expr(f"log({xt})") == f.upper:
        lines.append(f"assert ({name}l : ln ({cx}) <= {f.upper}) by (apply Rle_refl).")
    else:
        lines += [f"assert ({name}l : ln ({cx}) <= {f.upper}).", "{"] + [
            f"  {ln}" for ln in _log_identity(f, f"log({xt})", U, _Logs(f))] + ["}"]
    return lines + [f"assert ({name} : {head}) by (apply (chord_renyi2 _ _ ({cx})); [exact {name}lh | "
                    f"exact {name}x | exact {name}c | exact {name}l])."]


# record removal both ways ------------------------------------------------------------------------------------------

def _a_interval(f, A, lo, hi):
    """``(term, lo_A, hi_A, term at T = 1, lo_A(1), hi_A(1))``: A's lemma (a Coq term of ``rconf N K x lo_A hi_A``,
    with ``HN2 : 2 <= INR N``, ``HT1 : 1 <= T``, ``HT : 0 < T`` in scope) and its interval's texts."""
    rd = f.rd
    if A.family == "pairwise":
        return "(pairwise_rconf N K x T Htab HA HN2 HT1)", "N/(N + T - 1)", "N*T/(T*(N - 1) + 1)"
    if A.family == "subset" and rd.poly(A.size) == rd.poly("N - 1"):
        if _equal(f, hi, "T"):
            return "(subset_rconf N K x T Htab HA HN2 HT)", "1/T", "T"
        if _equal(f, hi, "N/(N - 1)"):
            return "(subset_rconf_n N K x T Htab HA HN2 HT)", "1/T", "N/(N - 1)"
        return "(subset_rconf_sum N K x T Htab HA HN2 HT)", "1/T", "N - (N - 1)/T"
    if A.family == "subset" and rd.poly(A.size) == rd.poly("1"):
        if _equal(f, lo, "(N - T)/(N - 1)"):
            low = "(fun i l Hi Hl => single_rconf_lo N K x T i l Htab HA HN2 Hi Hl)"
            return (f"(single_rconf_hi N K x T ((INR N - T) / (INR N - 1)) Htab HA HN2 HT1 {low})",
                    "(N - T)/(N - 1)", "(N - 1/T)/(N - 1)")
        low = "(fun i l Hi Hl => single_rconf_inv N K x T i l Htab HA HN2 HT1 Hi Hl)"
        return f"(single_rconf_hi N K x T (1 / T) Htab HA HN2 HT1 {low})", "1/T", "(N - 1/T)/(N - 1)"
    raise Untranslatable("a removal chord whose A confines Q_i/P to no interval the library states")


def _equal(f, a, b):
    return _same(f, a, b)


def _at_one_interval(f, A, lo, hi):
    """A's lemma at T = 1 (after ``rewrite <- E1 in HA``): the [1/T, T]-type interval whose ends are 1 there."""
    if A.family == "subset" and f.rd.poly(A.size) == f.rd.poly("N - 1"):
        return "(subset_rconf N K x 1 Htab HA HN2 ltac:(lra))", "1/1", "1"
    if A.family == "subset":
        low = "(fun i l Hi Hl => single_rconf_inv N K x 1 i l Htab HA HN2 ltac:(lra) Hi Hl)"
        return f"(single_rconf_hi N K x 1 (1 / 1) Htab HA HN2 ltac:(lra) {low})", "1/1", "(N - 1/1)/(N - 1)"
    return "(pairwise_rconf N K x 1 Htab HA HN2 ltac:(lra))", "N/(N + 1 - 1)", "N*1/(1*(N - 1) + 1)"


def rconf_removal(f, div, k, lo, hi, U):
    """Proof lines: A confines Q_i/P to [lo, hi] (its lemma, weakened), B both ways (``chord_rconf``); at T = 1
    ``one_rconf``."""
    from implgraph.kernel_coq.chord_steps import _at_one_value, _ineq
    A = f.cert.A
    head = ["assert (HN2 : 2 <= INR N) by lra.", "assert (HT : 0 < T) by lra.", "assert (HT1 : 1 <= T) by lra."]
    term1, l1, h1 = _at_one_interval(f, A, lo, hi)
    one = (["rewrite <- E1 in HA |- *."] + _ineq(f, "1", l1, "Hw1") + _ineq(f, h1, "1", "Hw2")
           + [f"apply (one_rconf {k} N K x); [exact Htab | exact HN2 | "
              f"exact (rconf_weaken N K x ({f.tr.expr(l1)}) ({f.tr.expr(h1)}) 1 1 Htab {term1} Hw1 Hw2) |]."]
           + _at_one_value(f, div, U))
    f.domain.atoms.append((">", f.rd.poly("T - 1")))      # the other case: T > 1
    try:
        main = _rconf_main(f, div, k, lo, hi, U, A)
    finally:
        f.domain.atoms.pop()
    return (head + ["destruct (Rle_lt_or_eq_dec 1 T ltac:(lra)) as [HT1'|E1]."]
            + ["{ " + main[0]] + [f"  {ln}" for ln in main[1:]] + ["}"]
            + ["{ " + one[0]] + [f"  {ln}" for ln in one[1:]] + ["}"])


def _rconf_main(f, div, k, lo, hi, U, A):
    from implgraph.kernel_coq.chord_steps import _ineq
    term, la, ha = _a_interval(f, A, lo, hi)
    clo, chi = f.tr.expr(lo), f.tr.expr(hi)
    lines = _ineq(f, lo, la, "Hw1") + _ineq(f, ha, hi, "Hw2")
    lines.append(f"assert (HC : rconf N K x ({clo}) ({chi})) by exact (rconf_weaken N K x ({f.tr.expr(la)}) "
                 f"({f.tr.expr(ha)}) ({clo}) ({chi}) Htab {term} Hw1 Hw2).")
    lines += _ineq(f, "0", lo, "Hl0", strict=True) + _ineq(f, lo, hi, "HVlh", strict=True)
    ilo, ihi = _inverse(f, hi), _inverse(f, lo)       # P/Q_i in [1/hi, 1/lo]
    lines += (_ineq(f, f"({ilo})*({hi})", "1", "HIl") + _ineq(f, "1", f"({ihi})*({lo})", "HIh")
              + _ineq(f, ilo, ihi, "HWlh", strict=True))
    v1, b1 = _value(f, div, k, lo, hi, U, "HV")
    v2, b2 = _value(f, div, k, ilo, ihi, U, "HW")
    return lines + v1 + v2 + [f"exact (chord_rconf {k} N K x ({clo}) ({chi}) ({f.tr.expr(ilo)}) ({f.tr.expr(ihi)}) "
                              f"({f.upper}) Htab HN2 HC Hl0 HVlh {b1} HV HIl HIh HWlh {b2} HW)."]


def _inverse(f, text):
    """1/text, reduced (a quotient of polynomials)."""
    from implgraph.kernel_coq.chord_steps import _sym
    e, _ = _sym(f, text)
    return str(sympy.factor(sympy.cancel(1 / e)))


def subset_class_above(f, div, k, lo, hi, U):
    """A the subset level of size N - 1 against each class and the table, lo = N - (N - 1) T > 0 where the domain
    says T < N/(N - 1): every ratio in [lo, N - (N - 1)/T] (``chord_subset_class``), where T > 1; at T = 1 every
    record is the table's mean (``one_subset_class``)."""
    from implgraph.kernel_coq.chord_steps import _at_one_value, _ineq, _value
    clo, chi = f.tr.expr(lo), f.tr.expr(hi)
    one = (["rewrite <- E1 in HA |- *.", f"apply (one_subset_class {k} N K x cls); [exact Htab | exact HA | lra |]."]
           + _at_one_value(f, div, U))
    f.domain.atoms.append((">", f.rd.poly("T - 1")))      # the other case: T > 1 (lo < hi)
    try:
        lines = (_ineq(f, lo, "N - (N - 1)*T", "Hlo0") + _ineq(f, "N - (N - 1)/T", hi, "Hhi")
                 + _ineq(f, lo, hi, "Hlh", strict=True) + _ineq(f, "0", lo, "Hl0", strict=True))
        lines += ["assert (HT : 0 < T) by lra.", "assert (HN2 : 2 <= INR N) by lra."] + _value(f, div, lo, hi, U)
    finally:
        f.domain.atoms.pop()
    below_term = (f"(below_kl ({clo}) ({chi}) ltac:(lra) Hlh)" if div.kind == "kl"
                  else f"(below_renyi2 ({clo}) ({chi}) Hlh)")
    main = lines + [f"exact (chord_subset_class {k} N K x cls T ({clo}) ({chi}) ({f.upper}) Htab HA HN2 HT "
                    f"(or_intror Hlo0) Hhi Hlh {below_term} Hval)."]
    return (["destruct (Rle_lt_or_eq_dec 1 T ltac:(lra)) as [HT1|E1]."]
            + ["{ " + main[0]] + [f"  {ln}" for ln in main[1:]] + ["}"]
            + ["{ " + one[0]] + [f"  {ln}" for ln in one[1:]] + ["}"])


def one_sided_class(f, div, k, lo, hi, U, upper="(oneclass_upper N K x cls T HA)"):
    """A one-sided class level at T against each class and the table, on the same classes, or one record against
    the table at most T (``upper`` the lemma: ``onesub_upper``, any partition): every ratio in [0, T]
    (``oneclass_upper``, ``chord_class_upper``)."""
    from implgraph.kernel_coq.chord_steps import _ineq, _value0
    _need(f.rd.poly(lo) == f.rd.poly("0"), "a one-sided class level's chord with lo other than 0")
    lines = ["assert (HT : 0 < T) by lra."] + _ineq(f, "T", hi, "Hhi")
    value, below = _value0(f, div, k, hi, U)
    return lines + value + [f"exact (chord_class_upper {k} N K x cls T ({f.tr.expr(hi)}) ({f.upper}) Htab "
                            f"{upper} HT Hhi {below} Hval)."]


def single_to_classes(f, div):
    """Where A is each record within ratio T of the table, both ways (a subset level of size 1), and B a divergence of
    each class against the table (no maximum class size): lines turning ``HA`` into the two-sided class level at T of
    the partition B declares (``Extreme.subset_to_classes``: every class has at least s >= 1 records, and a set of at
    least one record is within ratio T of the table); else []."""
    from implgraph.kernel_coq.chord_steps import _ineq
    A = f.cert.A
    if not (A.family == "subset" and A.sides == "TwoSided" and A.size is not None and div.compares == "class"
            and not f.cert.B.max_class and f.rd.poly(A.size) == f.rd.poly("1")):
        return []
    s = f.cert.B.min_class or "1"
    cs = f.tr.expr(s)
    return _ineq(f, "1", s, "Hcs") + [
        f"pose proof (subset_to_classes TwoSided N K x cls 1 ({cs}) T ltac:(isnat) ltac:(lra) ltac:(lra) Hcs "
        f"P{f.part_index(f.cert.B.min_class)} HA) as HAc.", "clear HA.", "rename HAc into HA."]
