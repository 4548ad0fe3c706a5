"""The proofs of the methods whose lemmas are in the library's module RatioLemmas: one function per certificate
method."""

from __future__ import annotations

from implgraph.kernel_coq.coqexpr import Untranslatable
from implgraph.kernel_coq.methods_distance import _delta
from implgraph.kernel_coq.obligations import _bounded, _components, _goal_is_sum, _need, _sd

__all__ = []


def _slack_target(f):
    A, B = f.cert.A, f.cert.B
    _need(f.a is not None and A.family == "pairwise", "slack-target-pairs needs A pairwise")
    d, dt = _delta(f, B, "pairs")
    g = f.rd.gens
    T, X, Y = g["T"], g["b_"], g["a_"]
    h1, h2 = T * Y - X, T * (1 - X) - (1 - Y)
    one = f.rd.poly("1")
    flat = (1 + d) - (1 - d) * T
    facts = {"A on the event: T*y - x >= 0": h1, "A on the complement: T*(1 - x) - (1 - y) >= 0": h2,
             "delta >= 0": d * one, "(1 + delta) - (1 - delta)*T >= 0": flat}
    hyps = [X, 1 - X, Y, 1 - Y, h1, h2]
    kernel = [("ratio", T, one), ("flat", one, one), ("slope", (1 - d) * T - d, one)]
    lines = [f"apply (slack_target N K x T ({dt})); [exact Htab | exact HA |].",
             "unfold slack_target_obl. intros vb va. intros."]
    return lines + _bounded(f, X - d, Y, kernel, f.cert.multipliers, facts, [(">=", h) for h in hyps])


def _rest_mass(f):
    A, B = f.cert.A, f.cert.B
    _need(f.a is not None and A.family == "class" and _sd(A) == "TwoSided" and B.family == "class"
          and _sd(B) == "OneSided", "rest-mass needs A a two-sided and B a one-sided class level")
    g = f.rd.gens
    T, N, e, y = g["T"], g["N"], g["e_"], g["v_"]
    s = f.rd.poly(A.min_class or "1")
    x_e = N - (N - e) * y
    facts = {"A: T*e - e*x >= 0": T * e - x_e, "e - s >= 0": e - s, "T*y - 1 >= 0": T * y - 1}
    hyps = [e - s, N - e - s, y, x_e, T * y - 1, T * e - x_e]
    kernel = [("below T", T, f.rd.poly("1")), ("rest", N * T - N + s, s * T)]
    lines = [f"apply (rest_mass N K x cls ({f.tr.expr(A.min_class or '1')}) T); "
             f"[exact Htab | exact P{f.part_index(A.min_class)} | lra | exact HA |].",
             "unfold rest_mass_obl. intros ve vv. intros."]
    return lines + _bounded(f, x_e, e, kernel, f.cert.multipliers, facts, [(">=", h) for h in hyps])


def _class_mass(f):
    A, B = f.cert.A, f.cert.B
    _need(f.a is not None and A.family == "class" and _sd(A) == "TwoSided" and B.family == "subset",
          "class-mass needs A a two-sided class level and B a subset level")
    g = f.rd.gens
    T, N, L, e = g["T"], g["N"], g["a_"], g["e_"]
    one = f.rd.poly("1")
    s = f.rd.poly(A.min_class or "1")
    st = f.tr.expr(A.min_class or "1")
    mults = f.cert.multipliers if isinstance(f.cert.multipliers, dict) else {}
    (P0, Q0), = f.rd.ratio_components(f.cert.upper)
    lower = {"T*L >= N - e": T * L - N + e, "N - e - s >= 0": N - e - s}
    upper = {"T - 1 >= 0": T - 1, "N - 2s >= 0": N - 2 * s, "1": one}
    pair = {"N - 2s >= 0": N - 2 * s, "N - 2 == 0": N - 2}
    if B.size is None:
        raise Untranslatable("class-mass needs B's subset size")
    u_nonneg = (f"apply (nonneg_frac ({f.tr.poly(P0)}) ({f.tr.poly(Q0)})); [{f.nonneg(P0)} | "
                f"{f.nonneg(Q0, strict=True)} | field; nonzero]")
    lines = [f"replace ({f.tr.expr(B.size)}) with (INR N - 1) by ring.",
             f"apply (class_mass N K x cls ({st}) T); [exact Htab | exact P{f.part_index(A.min_class)} | isnat | lra | "
             f"lra | {u_nonneg} | exact HA | | | |].",
             "- unfold class_mass_lower. intros va ve. intros."]
    hl = [(">=", L), (">=", e - s), (">=", T * L - N + e), (">=", N - e - s)]
    lines += _bounded(f, N - one, L, [("lower", P0, Q0)], mults, lower, hl)
    lines.append("- unfold class_mass_upper. intros.")
    lines += _bounded(f, N, N - one, [("upper", P0, Q0)], mults, upper, [(">=", N - 4)])
    lines.append("- unfold class_mass_three. intros.")
    lines += _bounded(f, N, N - one, [("three", P0, Q0)], {}, {}, [("==", N - 3), ("==", s - 1)])
    lines.append("- unfold class_mass_pair. intros.")
    lines += _bounded(f, T, None, [("pair", P0, Q0)], mults, pair, [("==", N - 2)])
    return lines


def _product(f):
    A, B = f.cert.A, f.cert.B
    _need(f.a is not None and B.family == "pairwise" and _sd(A) == "TwoSided",
          "extremes-and-mean needs A two-sided, B pairwise")
    g = f.rd.gens
    T, N, a, b, m = g["T"], g["N"], g["a_"], g["b_"], g["m_"]
    names = ("max<=T*mean", "mean<=T*min", "mean>=extremes", "mean<=extremes", "min>=0", "max>=min")
    facts = dict(zip(names, (T * m - b, T * a - m, N * m - b - (N - 1) * a, a + (N - 1) * b - N * m, a, b - a)))
    if A.family == "subset" and A.size is not None and f.rd.poly(A.size) == 1:
        record = "apply record_of_subset; exact HA"
    elif A.family == "class" and A.max_class is not None and f.rd.poly(A.max_class) == 1:
        k = f.parts.index(f"max_class N cls ({f.tr.expr(A.max_class)})")
        record = f"apply (record_of_classes N K x cls T); [exact HA | exact P{k}]"
    else:
        raise Untranslatable("extremes-and-mean needs A of subset size 1 or singleton classes")
    comps = _components(f, f.cert.upper)
    mults = f.cert.multipliers if isinstance(f.cert.multipliers, list) else []
    kernel = [(i, P, Q) for i, (_, (P, Q), _) in enumerate(comps)]
    mdict = {i: mm for i, mm in enumerate(mults)}
    lines = [f"apply (product N K x T); [exact Htab | lra | rmin_nra | {record} |].",
             "unfold product_obl. intros va vb vm. intros."]
    return lines + _bounded(f, b, a, kernel, mdict, facts, [(">=", h) for h in facts.values()])


def _supremum(f):
    A, B = f.cert.A, f.cert.B
    _need(f.a is not None and A.family == B.family == "subset" and _sd(A) == _sd(B) == "TwoSided",
          "extreme-means-supremum needs two two-sided subset levels")
    if f.cert.q is None:
        raise Untranslatable("no q")
    rd, tr = f.rd, f.tr
    g = rd.gens
    T, N, q, a, b, m = g["T"], g["N"], g["q_"], g["a_"], g["b_"], g["m_"]
    D = N - (N - q) * T
    qt = tr.expr(f.cert.q)
    comps = rd.components(f.cert.q)
    if len(comps) > 2:
        raise Untranslatable("q a Min of more than two")
    facts_lower = {"N*m = q*low_q + (N-q)*high_(N-q)": q * a + (N - q) * b - N * m, "high_(N-q) <= T*m": T * m - b}
    facts_upper = {"N*m = q*high_q + (N-q)*low_(N-q)": N * m - q * b - (N - q) * a, "low_(N-q) >= m/T": T * a - m}
    facts_gap = {"(T-1)^2 >= 0": (T - 1) ** 2}
    mults = f.cert.multipliers if isinstance(f.cert.multipliers, dict) else {}
    ja, jb = tr.expr(A.size), tr.expr(B.size)
    lines = [f"apply (supremum N K x ({ja}) ({jb}) ({qt}) T); [exact Htab | isnat | isnat_full | lra | lra | rmin_lra | "
             "rmin_lra | rmin_lra | lra | exact HA | | |]."]

    for label, unfold, binders, facts in (("lower", "supremum_lower", "va vb vm", facts_lower),
                                          ("upper", "supremum_upper", "va vb vm", facts_upper),
                                          ("gap", "supremum_gap", "", facts_gap)):
        lines.append(f"- (* {label} *) unfold {unfold}. set (vq := {qt}).")
        if binders:
            lines.append(f"  intros {binders}. intros.")
        hyps = [(">=", x) for x in facts.values()] + ([(">=", a), (">=", b), (">=", m)] if binders else [])
        if len(comps) == 1:
            lines.append(f"  assert (Hq0 : vq = {tr.poly(comps[0])}) by (unfold vq; ring).")
            lines += _goal_is_sum(f, mults.get(label) or {}, facts, hyps + [("==", q - comps[0])])
        else:
            c1, c2 = (tr.poly(c) for c in comps)
            lines.append(f"  assert (Hq : (vq = {c1} /\\ {c1} <= {c2}) \\/ (vq = {c2} /\\ {c2} <= {c1})) by "
                         "(unfold vq, Rmin; match goal with |- context [Rle_dec ?a ?b] => destruct (Rle_dec a b) end; "
                         "[left | right]; split; lra).")
            lines.append("  destruct Hq as [[Hq0 Hq1] | [Hq0 Hq1]].")
            for ci, co in ((comps[0], comps[1]), (comps[1], comps[0])):
                lines.append("  + idtac.")
                lines += _goal_is_sum(f, mults.get(label) or {}, facts,
                                      hyps + [("==", q - ci), (">=", co - ci)], indent="    ")
    return lines
