"""The proofs of the methods whose lemmas are in the library's modules Extreme, Vertex, Mass, Distance, MaxValue and
Declared: one function per certificate method, from a :class:`~implgraph.kernel_coq.statement._File` to the lines
of its proof (after the intros).
"""

from __future__ import annotations

from implgraph.kernel_coq.coqexpr import Untranslatable
from implgraph.kernel_coq.obligations import _bounded, _components, _goal_is_sum, _need, _sd, _u_is

__all__ = []


def _same_level(f):
    if f.a is None or f.a.replace("(T)", f"({f.upper})") != f.b:
        raise Untranslatable("same-level between sides with different predicates in the library")
    return _u_is(f, "T") + ["exact HA."]


def _size(f, side):
    return f.tr.expr(side.size)


def _subset_monotone(f):
    A, B = f.cert.A, f.cert.B
    if f.a is None or A.family != "subset" or B.family != "subset" or _sd(A) != _sd(B) or not _sd(A):
        raise Untranslatable("subset-monotone needs two subset sides with the same declared sides")
    ja, jb = _size(f, A), _size(f, B)
    return _u_is(f, "T") + [
        f"apply (subset_monotone {_sd(A)} N K x ({ja}) ({jb}) T); [isnat | lra | lra | lra | exact HA]."]


def _subset_to_classes(f):
    A, B = f.cert.A, f.cert.B
    if f.a is None or A.family != "subset" or B.family != "class" or _sd(A) != _sd(B) or not _sd(A):
        raise Untranslatable("subset-to-classes needs a subset side and a class side with the same declared sides")
    j, s = _size(f, A), f.tr.expr(B.min_class or "1")
    k = f.part_index(B.min_class)
    return _u_is(f, "T") + [
        f"apply (subset_to_classes {_sd(A)} N K x cls ({j}) ({s}) T); "
        f"[isnat | lra | lra | lra | exact P{k} | exact HA]."]


def _nat_pos():
    return "(apply INR_lt; simpl; lra)"


def _vertex(f):
    A, B = f.cert.A, f.cert.B
    if f.a is None or A.family != "pairwise":
        raise Untranslatable("vertex needs A pairwise")
    mults = f.cert.multipliers or {}
    rd, tr = f.rd, f.tr
    g = rd.gens
    T, N = g["T"], g["N"]
    P, Q = rd.ratio(f.cert.upper)
    bound = f"({tr.poly(P)}) / ({tr.poly(Q)})"
    lines = _u_is(f, bound)
    if B.family == "subset":
        j = rd.poly(B.size)
        u, m = g["u_"], g["m_"]
        facts = {"u>=0": u, "j-u>=0": j - u, "m-u>=0": m - u, "N-j-(m-u)>=0": N - j - m + u}
        mean_s, mean_d = (u * T + j - u, j), (m * T + N - m, N)
        binders = "vu vm"
        lemma = (f"apply (vertex_subset {_sd(B)} N K x ({tr.expr(B.size)}) T); "
                 f"[exact Htab | {_nat_pos()} | exact HA | |].")
    else:
        k = rd.poly(B.min_class or "1")
        e, u, v = g["e_"], g["u_"], g["v_"]
        facts = {"u>=0": u, "v>=0": v, "e-u>=0": e - u, "e-k>=0": e - k, "N-e>=0": N - e, "N-e-v>=0": N - e - v}
        mean_s, mean_d = (u * T + e - u, e), ((u + v) * T + N - u - v, N)
        binders = "ve vu vv"
        s = tr.expr(B.min_class or "1")
        part = f.part_index(B.min_class)
        lemma = (f"apply (vertex_class {_sd(B)} N K x cls ({s}) T); [exact Htab | {_nat_pos()} | exact HA | "
                 f"exact (proj1 P{part}) | |].")
    lines.append(lemma)
    if _sd(B) != "TwoSided":
        lines.append("2: (intros Hsd; discriminate).")
    fact_atoms = [(">=", x) for x in facts.values()]
    ratios = [("mean_S/mean_D", mean_s, mean_d)]
    if _sd(B) == "TwoSided":
        ratios.append(("mean_D/mean_S", mean_d, mean_s))
    q_pos = f.nonneg(Q, strict=True)
    kind = "subset" if B.family == "subset" else "class"
    for i, (label, _, _) in enumerate(ratios):
        given = mults.get(label) if isinstance(mults, dict) else None
        if not given:
            raise Untranslatable(f"no multipliers for {label}")
        if i == 0:
            lines.append(f"- (* {label} *) unfold vertex_{kind}_upper.")
        else:
            lines.append(f"- (* {label} *) intros _. unfold vertex_{kind}_lower.")
        lines.append(f"  intros {binders}. intros.")
        lines.append(f"  apply ratio_from_poly; [{q_pos} |].")
        lines += _goal_is_sum(f, given, facts, fact_atoms)
    return lines


def _set_mass(f):
    B = f.cert.B
    tr = f.tr
    if _sd(B) != "OneSided":
        raise Untranslatable("set-mass needs B one-sided")
    if (f.cert.raw.get("upper_certificate") or {}).get("class_floor_above_weakest") is not None:
        raise Untranslatable("set-mass with A's minimum class size above its weakest level (no Coq lemma)")
    if B.family == "subset":
        s = tr.expr(B.size)
        core = f"apply (set_mass_subset N K x ({s})); [exact Htab | lra]."
    elif B.family == "class":
        s = tr.expr(B.min_class or "1")
        part = f.part_index(B.min_class)
        core = f"apply (set_mass_class N K x cls ({s})); [exact Htab | lra | exact (proj1 P{part})]."
    else:
        raise Untranslatable("set-mass needs B a subset or class side")
    return _u_is(f, f"INR N / ({s})") + [core]


def _tv_mass_core(f):
    B = f.cert.B
    if not (B.family == "class" and B.distance == "total-variation" and B.max_class is None):
        raise Untranslatable("distance-mass needs B a class's total variation distance without a maximum class size")
    s = f.tr.expr(B.min_class or "1")
    part = f.part_index(B.min_class)
    return s, f"apply (tv_mass N K x cls ({s})); [exact Htab | lra | exact (proj1 P{part})]."


def _distance_ceiling(f):
    s, core = _tv_mass_core(f)
    return _u_is(f, f"(INR N - ({s})) / INR N") + [core]


def _same_distance(f):
    if f.a is None or f.a.replace("(T)", "(LvlU)") != f.b_of("LvlU"):
        raise Untranslatable("same-distance between sides with different predicates")
    s, core = _tv_mass_core(f)
    comps = [c for c, _, _ in _components(f, f.cert.upper)]
    out = []
    if len(comps) == 2:
        out.append(f"apply (min_bound (fun LvlU => {f.b_of('LvlU')})).")
    elif len(comps) != 1:
        raise Untranslatable("a Min of more than two components")
    for comp in comps:
        lead = "- " if len(comps) == 2 else ""
        if comp == "T":
            out.append(lead + "exact HA.")
        else:
            out.append(lead + f"apply (level_eq (fun LvlU => {f.b_of('LvlU')}) ({comp}) "
                       f"((INR N - ({s})) / INR N)); [field; nonzero | {core[:-1]}].")
    return out


def _max_value(f):
    A, B = f.cert.A, f.cert.B
    if f.a is None or A.family != "subset" or _sd(A) != "TwoSided" or B.family != "class" or _sd(B) != "OneSided":
        raise Untranslatable("max-value needs A a two-sided subset level and B a one-sided class level")
    rd, tr = f.rd, f.tr
    g = rd.gens
    T, N, M, H = g["T"], g["N"], g["b_"], g["a_"]
    j = rd.poly(A.size)
    kernel = [("all", N * T - N + 1, T), ("j largest", j * T * (N - 1) - (j - 1) * N, N - j)]
    facts = {"T*(N - M) - (N - 1) >= 0": T * (N - M) - (N - 1), "j*T - (j - 1)*H - M >= 0": j * T - (j - 1) * H - M,
             "(N - 1)*H - (N - M) >= 0": (N - 1) * H - (N - M)}
    atoms = [(">=", M), (">=", H)] + [(">=", x) for x in facts.values()]
    lines = [f"apply (max_value N K x cls ({tr.expr(A.size)}) T); [exact Htab | isnat | lra | lra | lra | exact HA |].",
             "unfold max_value_obl. intros vb va. intros."]
    return lines + _bounded(f, M, None, kernel, f.cert.multipliers, facts, atoms)


def _class_size(f):
    A, B = f.cert.A, f.cert.B
    _need(f.a is not None and A.class_size_level, "class-size needs A a class-size level")
    if B.distance == "total-variation":
        return _u_is(f, f"(INR N - ({f.tr.name('T')})) / INR N") + [
            f"apply (tv_mass N K x cls ({f.tr.name('T')})); [exact Htab | lra | exact HA]."]
    _need(_sd(B) == "OneSided" and B.family == "class", "class-size needs B one-sided or a distance")
    return _u_is(f, f"INR N / ({f.tr.name('T')})") + [
        f"apply (set_mass_class N K x cls ({f.tr.name('T')})); [exact Htab | lra | exact HA]."]


def _class_size_floor(f):
    A = f.cert.A
    _need(f.a is not None and A.min_class_param and f.cert.B.class_size_level,
          "class-size-floor needs A with a declared minimum class size and B a class-size level")
    k = f.tr.expr(str(A.params.get(A.min_class_param)))
    return _u_is(f, k) + [f"exact (class_size_floor N cls ({k}) Arest HA)."]


def _finite_level(f):
    _need(f.a is not None and f.a.startswith("capped_level"), "finite-level-of needs A a capped level")
    return _u_is(f, "T") + ["exact (finite_level_of _ _ HA)."]
