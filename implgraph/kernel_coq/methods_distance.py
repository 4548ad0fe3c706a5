"""The proofs of the methods whose lemmas are in the library's module DistanceLemmas (a total variation distance
bounded by a level of A): one function per certificate method."""

from __future__ import annotations

from implgraph.kernel_coq.obligations import _bounded, _need, _sd

__all__ = []


def _class_setting(f):
    """T, N, e, P, x (``e_``, ``a_``, ``b_``) and s of the class-distance lemmas."""
    g = f.rd.gens
    return g["T"], g["N"], g["e_"], g["a_"], g["b_"]


def _class_distance(f):
    A, B = f.cert.A, f.cert.B
    _need(f.a is not None and A.family == "class" and _sd(A) == "TwoSided" and B.distance == "total-variation",
          "class-distance needs A a two-sided class level, B a total variation distance")
    T, N, e, P, x = _class_setting(f)
    s = f.rd.poly(B.min_class or "1")
    on_s, on_rest = T * P - x, T * (1 - x) - (1 - P)
    others = T * N * P - T * e * x - (N - e) * P
    facts = {"A on S: T*P - x >= 0": on_s, "A on the rest: T*(1 - x) - (1 - P) >= 0": on_rest,
             "other classes: T*N*P - T*e*x - (N - e)*P >= 0": others, "e - s >= 0": e - s}
    hyps = [e - s, N - e - s, P, 1 - P, x, 1 - x, on_s, on_rest, others]
    kernel = [("near", T - 1, T + 1), ("far", (N - s) * (T - 1), N * T)]
    lines = [f"apply (class_distance N K x cls ({f.tr.expr(B.min_class or '1')}) T); "
             f"[exact Htab | exact P{f.part_index(B.min_class)} | lra | exact HA |].",
             "unfold class_distance_obl. intros ve va vb. intros."]
    return lines + _bounded(f, x - P, None, kernel, f.cert.multipliers, facts, [(">=", h) for h in hyps])


def _one_sided_distance(f):
    A, B = f.cert.A, f.cert.B
    _need(f.a is not None and A.family == "class" and _sd(A) == "OneSided" and B.distance == "total-variation",
          "one-sided-distance needs A a one-sided class level, B a total variation distance")
    T, N, e, P, x = _class_setting(f)
    s = f.rd.poly(B.min_class or "1")
    on_s, rest, others = T * P - x, (T - 1) * (N - e) * (1 - P) - e * (x - P), N * P - e * x
    facts = {"A on S: T*P - x >= 0": on_s, "1 - x >= 0": 1 - x,
             "other classes on the rest: (T - 1)*(N - e)*(1 - P) - e*(x - P) >= 0": rest, "e - s >= 0": e - s,
             "other records on S: N*P - e*x >= 0": others}
    hyps = [e - s, N - e - s, P, 1 - P, x, 1 - x, on_s, rest, others]
    one = f.rd.poly("1")
    kernel = [("near", T - 1, T), ("spread", (N - s) * (T - 1), N * one), ("mass", N - s, N * one)]
    lines = [f"apply (one_sided_distance N K x cls ({f.tr.expr(B.min_class or '1')}) T); "
             f"[exact Htab | exact P{f.part_index(B.min_class)} | lra | exact HA |].",
             "unfold one_sided_distance_obl. intros ve va vb. intros."]
    return lines + _bounded(f, x - P, None, kernel, f.cert.multipliers, facts, [(">=", h) for h in hyps])


def _delta(f, side, compares):
    sl = side.slack
    _need(sl is not None and sl.compares == compares, f"a side comparing {compares} with an additive slack")
    return f.rd.poly(sl.delta), f.tr.expr(sl.delta)


def _pairwise_distance(f, slack=False):
    A, B = f.cert.A, f.cert.B
    _need(f.a is not None and B.distance == "total-variation" and B.family == "class",
          "pairwise-distance needs B a class's total variation distance")
    g = f.rd.gens
    T, N, e, Y, X = g["T"], g["N"], g["e_"], g["a_"], g["b_"]
    s = f.rd.poly(B.min_class or "1")
    st = f.tr.expr(B.min_class or "1")
    part = f.part_index(B.min_class)
    if slack:
        d, dt = _delta(f, A, "pairs")
        names = ("A on S: T*Y - X + delta >= 0", "A on the rest: T*(1 - X) - (1 - Y) + delta >= 0")
        lemma = (f"apply (slack_pairwise_distance N K x cls ({st}) T ({dt})); "
                 f"[exact Htab | exact P{part} | lra | exact HA |].")
    else:
        _need(A.family == "pairwise", "pairwise-distance needs A pairwise")
        d, dt = f.rd.poly("0"), "0"
        names = ("A on S: T*Y - X >= 0", "A on the rest: T*(1 - X) - (1 - Y) >= 0")
        lemma = f"apply (pairwise_distance N K x cls ({st}) T); [exact Htab | exact P{part} | exact HA |]."
    on_s, on_rest = T * Y - X + d, T * (1 - X) - (1 - Y) + d
    facts = {names[0]: on_s, names[1]: on_rest, "e - s >= 0": e - s}
    hyps = [e - s, N - e - s, X, 1 - X, Y, 1 - Y, on_s, on_rest]
    kernel = [("pairs", (N - s) * (T - 1 + 2 * d), N * (T + 1))]
    lines = [lemma, "unfold pairwise_distance_obl. intros ve vb va. intros."]
    return lines + _bounded(f, (N - e) * (X - Y), N, kernel, f.cert.multipliers, facts, [(">=", h) for h in hyps])


def _subset_j(f):
    A = f.cert.A
    _need(f.a is not None and A.family == "subset" and _sd(A) == "TwoSided" and A.size is not None,
          "the lemma needs A a two-sided subset level")
    return f.rd.poly(A.size), f.tr.expr(A.size)


def _removal_distance(f):
    j, jt = _subset_j(f)
    _need(f.cert.B.distance == "total-variation", "removal-distance needs B a total variation distance")
    g = f.rd.gens
    T, N, P, M = g["T"], g["N"], g["a_"], g["b_"]
    on_s = T * (N * P - M) - (N - 1) * P
    on_rest = (N - 1) * T * (1 - P) - N * (1 - P) + (1 - M)
    facts = {"without M on S: T*(N*P - M) - (N - 1)*P >= 0": on_s,
             "without M on the rest: (N - 1)*T*(1 - P) - N*(1 - P) + (1 - M) >= 0": on_rest, "1 - M >= 0": 1 - M}
    hyps = [P, 1 - P, M, 1 - M, on_s, on_rest]
    kernel = [("near", (N - 1) * (T - 1), T + 1), ("far", (N - 1) * (T - 1), N * T - N + 1)]
    lines = [f"apply (removal_distance N K x cls ({jt}) T); [exact Htab | lra | isnat | lra | lra | lra | exact HA |].",
             "unfold removal_distance_obl. intros va vb. intros."]
    return lines + _bounded(f, M - P, None, kernel, f.cert.multipliers, facts, [(">=", h) for h in hyps])


def _removal_pair(f):
    j, jt = _subset_j(f)
    B = f.cert.B
    _need(B.distance == "total-variation", "removal-distance-pair needs B a total variation distance")
    g = f.rd.gens
    T, P, x1 = g["T"], g["a_"], g["b_"]
    on_s, on_rest = T * (2 * P - x1) - P, T * (1 - x1) - (1 - P)
    facts = {"A on S: T*x2 - P >= 0": on_s, "A on the rest: T*(1 - x1) - (1 - P) >= 0": on_rest}
    hyps = [P, 1 - P, x1, 1 - x1, on_s, on_rest]
    kernel = [("pair", T - 1, 2 * T)]
    st = f.tr.expr(B.min_class or "1")
    lines = [f"apply (removal_pair N K x cls ({st}) ({jt}) T); "
             f"[exact Htab | lra | exact P{f.part_index(B.min_class)} | lra | lra | lra | exact HA |].",
             "unfold removal_pair_obl. intros va vb. intros."]
    return lines + _bounded(f, x1 - P, None, kernel, f.cert.multipliers, facts, [(">=", h) for h in hyps])


def _subset_distance(f):
    j, jt = _subset_j(f)
    _need(f.cert.B.distance == "total-variation", "subset-distance needs B a total variation distance")
    g = f.rd.gens
    T, N, y, M = g["T"], g["N"], g["a_"], g["b_"]
    D = M - y
    lower = {"the j smallest: L >= P/T": (j, j * (N * (T - 1) * y - D)),
             "the j largest: H <= T P": (N - T * j, N * j * (T - 1) * y - (N - T * j) * D)}
    upper = {"the j smallest on the complement: 1 - L <= T (1 - P)": (j * T, j * (N * (T - 1) * (1 - y) - T * D)),
             "the j largest on the complement: 1 - H >= (1 - P)/T": (N * T - j, N * j * (T - 1) * (1 - y)
                                                                     - (N * T - j) * D),
             "M <= 1": (N * j * (T - 1), N * j * (T - 1) * (1 - M))}
    facts = {**{k: v for k, (_, v) in lower.items()}, **{k: v for k, (_, v) in upper.items()}}
    kernel = [(f"{lo} + {up}", (N - 1) * j * (T - 1), a + b) for lo, (a, _) in lower.items()
              for up, (b, _) in upper.items()]
    hyps = [y, 1 - y, D, 1 - M, *facts.values()]
    lines = [f"apply (subset_distance N K x cls ({jt}) T); [exact Htab | lra | isnat | lra | lra | lra | exact HA |].",
             "unfold subset_distance_obl. intros vb va. intros."]
    return lines + _bounded(f, (N - 1) * D, N, kernel, f.cert.multipliers, facts, [(">=", h) for h in hyps])


def _slack_removal(f):
    A, B = f.cert.A, f.cert.B
    _need(f.a is not None and B.distance == "total-variation", "slack-removal-distance needs B a total variation "
                                                               "distance")
    d, dt = _delta(f, A, "removal")
    g = f.rd.gens
    T, N, P, M = g["T"], g["N"], g["a_"], g["b_"]
    on_s = T * (N * P - M) - (N - 1) * (P - d)
    on_rest = (N - 1) * T * (1 - P) - N * (1 - P) + (1 - M) + (N - 1) * d
    others = N * P - M
    facts = {"without M on S: T*(N*P - M) - (N - 1)*(P - delta) >= 0": on_s,
             "without M on the rest: (N - 1)*T*(1 - P) - N*(1 - P) + (1 - M) + (N - 1)*delta >= 0": on_rest,
             "1 - M >= 0": 1 - M, "other records on S: N*P - M >= 0": others}
    hyps = [P, 1 - P, M, 1 - M, on_s, on_rest, others]
    one = f.rd.poly("1")
    kernel = [("near", (N - 1) * (T - 1 + 2 * d), T + 1), ("far", (N - 1) * (T - 1 + d), N * T - N + 1),
              ("mass", N - 1, N * one)]
    lines = [f"apply (slack_removal_distance N K x cls T ({dt})); [exact Htab | lra | exact HA |].",
             "unfold slack_removal_obl. intros va vb. intros."]
    return lines + _bounded(f, M - P, None, kernel, f.cert.multipliers, facts, [(">=", h) for h in hyps])


def _slack_removal_pair(f):
    A, B = f.cert.A, f.cert.B
    _need(f.a is not None and B.distance == "total-variation", "slack-removal-distance-pair needs B a total "
                                                               "variation distance")
    d, dt = _delta(f, A, "removal")
    g = f.rd.gens
    T, P, x1 = g["T"], g["a_"], g["b_"]
    on_s, on_rest = T * (2 * P - x1) - P + d, T * (1 - x1) - (1 - P) + d
    facts = {"A on S: T*x2 - P + delta >= 0": on_s, "A on the rest: T*(1 - x1) - (1 - P) + delta >= 0": on_rest,
             "1 - x1 >= 0": 1 - x1, "x2 = 2*P - x1 >= 0": 2 * P - x1}
    hyps = [P, 1 - P, x1, 1 - x1, 2 * P - x1, on_s, on_rest]
    one = f.rd.poly("1")
    kernel = [("pair", T - 1 + 2 * d, 2 * T), ("half", one, 2 * one)]
    st = f.tr.expr(B.min_class or "1")
    lines = [f"apply (slack_removal_pair N K x cls ({st}) T ({dt})); "
             f"[exact Htab | lra | exact P{f.part_index(B.min_class)} | lra | exact HA |].",
             "unfold slack_removal_pair_obl. intros va vb. intros."]
    return lines + _bounded(f, x1 - P, None, kernel, f.cert.multipliers, facts, [(">=", h) for h in hyps])
