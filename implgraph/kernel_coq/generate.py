"""A Coq theorem per certificate: the implication stated in the library's terms (``coq/theories``), proved by
instantiating its argument's lemma with the certificate's data.

The statement: for every value of the certificate's symbols satisfying its domain, every table of N records
(``table N K x``, any number K of buckets) and every partition ``cls`` into classes the sides declare, A's level at
most T implies B's level at most U (U the certificate's ``upper``; at least ``lower`` for a level where larger is
stronger). Each side is the library's predicate for its declared kind (:func:`side_predicate`). The proof applies the
method's general lemma (proved once in the library) and discharges its premises with the certificate's own data:

- sizes are natural numbers (``isnat``), orderings and signs on the domain by ``lra``;
- U equals the lemma's bound (``field``), or each of U's ``Min`` components ``P/Q`` bounds the lemma's quantity: the
  lemma's obligation ``P B - Q A >= 0`` is, up to a factor > 0, the certificate's combination ``sum(multiplier *
  fact)`` (``ring``), every multiplier >= 0 on the domain by the shift argument (:mod:`implgraph.kernel_coq.shift`)
  and every fact >= 0 by ``lra`` (a hypothesis of the obligation).

An edited number or relation in a certificate makes one of these steps fail, so ``coqc`` rejects the file (the
generator does not judge: where the data do not fit it writes the step anyway). A certificate of a method the
generator does not cover raises :class:`Untranslatable` with the reason.

:func:`generate` writes one certificate's file; :func:`bundle` many theorems in one file (the cost of loading the
real numbers' library is paid once).
"""

from __future__ import annotations

import ast

from implgraph.kernel_coq import adapter
from implgraph.kernel_coq.coqexpr import Translator, Untranslatable
from implgraph.kernel_coq.shift import nonneg_tactic

__all__ = ["generate", "theorem", "bundle", "header", "COVERED", "side_predicate", "Untranslatable"]

#: the library's modules every generated file loads, and the ones a theorem may add
BASE_MODULES = ("Sums", "Tables", "Tactics", "Extreme", "Vertex", "Mass", "Compose", "Distance", "MaxValue", "Events",
                "Columns", "DistanceLemmas", "RatioLemmas", "Declared")
ENTROPY = "Entropy"
WITNESS = "Witness"
TIGHT = "Tight"


def header(extra=()) -> str:
    """The ``Require`` lines of a generated file (``extra``: more of the library's modules)."""
    mods = " ".join(BASE_MODULES)
    out = "From Coq Require Import Reals Lra Lia.\n"
    if WITNESS in extra:        # (before the library: its names, e.g. Tables.partition, win over List's)
        out += "From Coq Require Import QArith Qreals List.\nImport ListNotations.\n"
    out += f"From Implgraph Require Import {mods}.\n"
    if ENTROPY in extra or WITNESS in extra:
        out += f"From Flocq Require Import Raux.\nFrom Implgraph Require Import {ENTROPY}.\n"
    if WITNESS in extra:
        out += f"From Implgraph Require Import {WITNESS}.\n"
    if TIGHT in extra:
        out += f"From Implgraph Require Import {TIGHT}.\n"
    return out + "Open Scope R_scope.\n"


#: certificate method -> the library lemma its proof instantiates
COVERED = {
    "same-level": "(the hypothesis itself: one level predicate)",
    "subset-monotone": "Extreme.subset_monotone",
    "subset-to-classes": "Extreme.subset_to_classes",
    "vertex": "Vertex.vertex_subset / Vertex.vertex_class",
    "one-sided-ceiling": "Mass.set_mass_subset / Mass.set_mass_class",
    "min": "Compose.min_bound",
    "chain": "Declared.finite_level_of, then the second part's lemma",
    "distance-ceiling": "Distance.tv_mass",
    "same-distance": "Distance.tv_mass and Compose.min_bound",
    "subset-to-one-sided": "MaxValue.max_value",
    "subset-supremum": "RatioLemmas.supremum",
    "class-to-subset": "RatioLemmas.class_mass",
    "one-sided-class": "RatioLemmas.rest_mass",
    "product": "RatioLemmas.product (record_of_subset / record_of_classes)",
    "slack-target-pairs": "RatioLemmas.slack_target",
    "class-distance": "DistanceLemmas.class_distance",
    "one-sided-distance": "DistanceLemmas.one_sided_distance",
    "pairwise-distance": "DistanceLemmas.pairwise_distance",
    "slack-pairwise-distance": "DistanceLemmas.slack_pairwise_distance",
    "removal-distance": "DistanceLemmas.removal_distance",
    "removal-distance-pair": "DistanceLemmas.removal_pair",
    "subset-distance": "DistanceLemmas.subset_distance",
    "slack-removal-distance": "DistanceLemmas.slack_removal_distance",
    "slack-removal-distance-pair": "DistanceLemmas.slack_removal_pair",
    "class-size": "Mass.set_mass_class / Distance.tv_mass (classes of >= T records)",
    "class-size-floor": "Declared.class_size_floor",
    "finite-level-of": "Declared.finite_level_of",
    "inequality-lemmas": "Entropy.support_of_minent / support_of_shannon / shannon_of_minent",
}

#: the class levels of inequality-lemmas: name -> the library's predicate
CLASS_LEVELS = {"min-entropy": "minent_ge", "support": "support_ge", "shannon": "shannon_ge"}


def side_predicate(tr, side, level, K="K", x="x", cls="cls"):
    """The library's predicate "``side``'s raw level is at most ``level``" (at least, where larger is stronger), a Coq
    term over the table ``x`` of ``K`` buckets and the classes ``cls`` (Coq terms), or None where the side's declared
    kind has no predicate in the library."""
    if side.increase_cap is not None or side.finite_level_of:
        if side.increase_cap != "-log(p)" or not side.finite_level_of:
            return None
        inner = adapter.registered_side(side.finite_level_of)
        inner_pred = side_predicate(tr, inner, level, K, x, cls) if inner is not None else None
        if inner_pred is None:
            return None
        return f"capped_level ({inner_pred}) (increase_cap_log N {K} {x} {cls})"
    if side.min_class_param:
        k = side.params.get(side.min_class_param)
        return None if k is None else f"min_class_level N {cls} ({tr.expr(str(k))}) Arest"
    if side.class_size_level:
        return f"class_size_ge N {cls} ({level})"
    if side.uniform_class_level or side.tail_ratio is not None:
        return None
    if side.class_level:
        pred = CLASS_LEVELS.get(side.class_level)
        return None if pred is None else f"{pred} N {K} {x} {cls} ({level})"
    if side.slack:
        delta = tr.expr(side.slack.delta)
        if side.slack.compares == "pairs":
            return f"slack_pairs_le N {K} {x} ({delta}) ({level})"
        if side.slack.compares == "removal":
            return f"slack_removal_le N {K} {x} ({delta}) ({level})"
        return None
    fam, sd = side.family, side.sides
    if side.distance is not None:
        return f"tv_le N {K} {x} {cls} ({level})" if side.distance == "total-variation" and fam == "class" else None
    if fam == "pairwise" and sd == "TwoSided":
        return f"pairwise_le N {K} {x} ({level})"
    if fam == "subset" and sd and side.size is not None:
        return f"subset_le {sd} N {K} {x} ({tr.expr(side.size)}) ({level})"
    if fam == "class" and sd:
        return f"class_le {sd} N {K} {x} {cls} ({level})"
    return None


def _partition_hyps(tr, cert):
    """The partition the class sides declare: classes of at least ``min_class`` (and at most ``max_class``)."""
    out = []
    for side in (cert.A, cert.B):
        if side.family != "class":
            continue
        h = f"partition N cls ({tr.expr(side.min_class or '1')})"
        if h not in out:
            out.append(h)
        if side.max_class is not None:
            h = f"max_class N cls ({tr.expr(side.max_class)})"
            if h not in out:
                out.append(h)
    return out


def _describe(side):
    keys = ("family", "sides", "distance", "slack", "class_size_level", "uniform_class_level", "tail_ratio",
            "finite_level_of", "class_level")
    return ", ".join(f"{k} {getattr(side, k)}" for k in keys if getattr(side, k) not in (None, False))


class _File:
    """The pieces of one theorem: its statement's parts and the helpers its proof uses."""

    def __init__(self, cert, name="certificate"):
        self.cert = cert
        self.tr = Translator(cert.symbols)
        self.domain = adapter.domain(cert)
        self.rd = self.domain.reader
        self.name = name
        self.doms = [self.tr.relation(d) for d in cert.domain]
        self._naturals_only()
        self.parts = _partition_hyps(self.tr, cert)
        bound = cert.upper if cert.upper is not None else cert.lower
        if bound is None:
            raise Untranslatable("a certificate without upper or lower")
        self.upper = self.tr.expr(bound)
        self.a = side_predicate(self.tr, cert.A, self.tr.name("T"))
        self.b = side_predicate(self.tr, cert.B, self.upper)
        self.b_of = lambda level: side_predicate(self.tr, cert.B, level)
        if self.b is None:
            raise Untranslatable(f"B's level kind ({_describe(cert.B)}) has no predicate in the library")
        self.extra_binders = " (Arest : Prop)" if (self.a or "").count("Arest") else ""

    def _naturals_only(self):
        """An integer symbol is a natural number in Coq: the domain must give it a constant lower bound >= 0 (N, the
        number of records, is one by nature), or the Coq theorem would quantify over fewer values than the claim."""
        for name, kind in self.tr.kinds.items():
            if kind != "integer" or name == "N":
                continue
            if adapter.positive.nonnegative(self.rd.gens[name], self.domain.atoms) is None:
                raise Untranslatable(f"integer symbol {name} is not shown >= 0 on the domain (Coq reads it as a "
                                     "natural number)")

    def statement(self):
        doms = "".join(f"  {d} ->\n" for d in self.doms)
        hyps = "".join(f"  {h} ->\n" for h in self.parts)
        # without a predicate for A (a lemma that holds whatever A is): B's bound on every table, a stronger statement
        a_line = f"  {self.a} ->\n" if self.a is not None else "  (* whatever A is: no hypothesis on A *)\n"
        return (f"Theorem {self.name} : forall {self.tr.binders()},\n{doms}"
                f"  forall (K : nat) (x : nat -> nat -> R) (cls : nat -> nat){self.extra_binders},\n"
                f"  table N K x ->\n{hyps}{a_line}  {self.b}.")

    def syms(self):
        return (sorted(n for n, k in self.tr.kinds.items() if k == "integer")
                + sorted(n for n, k in self.tr.kinds.items() if k != "integer"))

    def intros(self):
        names = " ".join(f"D{i}" for i in range(len(self.doms)))
        parts = " ".join(f"P{i}" for i in range(len(self.parts)))
        a = " HA" if self.a is not None else ""
        rest = " Arest" if self.extra_binders else ""
        return " ".join(f"intros {' '.join(self.syms())} {names} K x cls{rest} Htab {parts}{a}.".split()) \
            .replace(" .", ".")

    def part_index(self, side_min_class):
        h = f"partition N cls ({self.tr.expr(side_min_class or '1')})"
        return self.parts.index(h)

    def atoms(self, extra=()):
        return list(self.domain.atoms) + list(extra)

    def nonneg(self, p, extra=(), strict=False):
        p = self.rd.poly(p) if isinstance(p, str) else p
        return nonneg_tactic(self.tr, p, self.atoms(extra), strict)

    def nonzero(self, texts=(), polys=(), atoms=()):
        """A tactic proving the side conditions of ``field`` (each denominator of ``texts``, and each of ``polys``,
        nonzero): each factor is shown > 0 or < 0 on the domain by the shift argument, then ``field``'s conditions
        follow (a product of nonzero factors is nonzero)."""
        factors = []
        for t in texts:
            factors += _denominators(ast.parse(str(t).strip(), mode="eval").body)
        seen, lines = set(), []
        for node in factors:
            text = ast.unparse(node)
            if text in seen:
                continue
            seen.add(text)
            try:
                p = self.rd.poly(text)
            except Exception:       # a denominator that is not a polynomial: left to nra
                continue
            lines.append(self._nz(self.tr.expr(text), p, atoms))
        for p in polys:
            lines.append(self._nz(self.tr.poly(p), p, atoms))
        lines = [ln for ln in lines if ln]
        return "(" + "; ".join(lines or ["idtac"]) + ")"

    def _nz(self, coq, p, atoms):
        if p.is_ground:
            return ""
        from implgraph.kernel_coq.shift import shift_choice
        if shift_choice(p, self.atoms(atoms), strict=True) is not None:
            return f"assert ({coq} <> 0) by (apply pos_nz; {self.nonneg(p, atoms, strict=True)})"
        if shift_choice(-p, self.atoms(atoms), strict=True) is not None:
            return (f"assert ({coq} <> 0) by (apply (neg_nz _ ({self.tr.poly(-p)})); "
                    f"[ringq | {self.nonneg(-p, atoms, strict=True)}])")
        return ""


def _denominators(node):
    """The factors of the denominators of an expression's divisions (ast nodes)."""
    out = []
    for sub in ast.walk(node):
        if isinstance(sub, ast.BinOp) and isinstance(sub.op, ast.Div):
            out += _factors(sub.right)
    return out


def _factors(node):
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        return _factors(node.left) + _factors(node.right)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return _factors(node.operand)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
        return _factors(node.left)
    return [node]


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


# the methods -----------------------------------------------------------------------------------------------------


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


# the lemmas of DistanceLemmas ----------------------------------------------------------------------------------


def _class_setting(f):
    """T, N, e, P, x (``e_``, ``a_``, ``b_``) and s of the class-distance lemmas."""
    g = f.rd.gens
    return g["T"], g["N"], g["e_"], g["a_"], g["b_"]


def _need(ok, what):
    if not ok:
        raise Untranslatable(what)


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


# the lemmas of RatioLemmas -------------------------------------------------------------------------------------


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


METHODS = {"same-level": _same_level, "subset-monotone": _subset_monotone, "subset-to-classes": _subset_to_classes,
           "vertex": _vertex, "one-sided-ceiling": _set_mass,
           "distance-ceiling": _distance_ceiling, "same-distance": _same_distance,
           "subset-to-one-sided": _max_value, "class-distance": _class_distance,
           "one-sided-distance": _one_sided_distance, "pairwise-distance": _pairwise_distance,
           "slack-pairwise-distance": lambda f: _pairwise_distance(f, slack=True),
           "removal-distance": _removal_distance, "removal-distance-pair": _removal_pair,
           "subset-distance": _subset_distance, "slack-removal-distance": _slack_removal,
           "slack-removal-distance-pair": _slack_removal_pair, "slack-target-pairs": _slack_target,
           "one-sided-class": _rest_mass, "class-to-subset": _class_mass, "product": _product,
           "subset-supremum": _supremum, "class-size": _class_size, "class-size-floor": _class_size_floor,
           "finite-level-of": _finite_level}

#: methods whose lemma holds whatever A is (no hypothesis on A in the statement when A has no predicate)
_WHATEVER_A = ("one-sided-ceiling", "distance-ceiling")


def _leaf(cert, name):
    """``(file, proof lines)`` of a leaf certificate (one lemma)."""
    method = cert.method
    if method not in METHODS:
        raise Untranslatable(f"method {method!r} is not covered by the generator yet")
    f = _File(cert, name)
    if f.a is None and method not in _WHATEVER_A:
        raise Untranslatable(f"A's level kind ({_describe(cert.A)}) has no predicate in the library")
    lines = METHODS[method](f)
    return f, lines


def _block(statement, lines):
    body = "\n".join(f"  {ln}" for ln in lines)
    return f"{statement}\nProof.\n{body}\nQed.\n"


def _call(whole, part, part_name, ha):
    """``part_name`` applied to the whole certificate's own intros: its symbols, the domain conditions and partition
    hypotheses it states (each one of the whole's), the table and ``ha`` (A's hypothesis for the part)."""
    if part.syms() != whole.syms():
        raise Untranslatable("a part whose symbols differ from the certificate's")
    try:
        doms = [f"D{whole.doms.index(d)}" for d in part.doms]
        parts = [f"P{whole.parts.index(p)}" for p in part.parts]
    except ValueError:
        raise Untranslatable("a part whose domain or partition is not among the certificate's") from None
    rest = ["Arest"] if part.extra_binders else []
    return f"({part_name} {' '.join(whole.syms() + doms + ['K', 'x', 'cls'] + rest + ['Htab'] + parts + [ha])})"


def _min(cert, name):
    """``min``: each part its own theorem, then U = Min of the parts' bounds by ``min_bound``."""
    parts = cert.parts
    if len(parts) != 2:
        raise Untranslatable("min of other than two parts")
    out, fs = [], []
    for i, part in enumerate(parts):
        f, lines = _leaf(part, f"{name}_part{i + 1}")
        out.append(_block(f.statement(), [f.intros()] + lines))
        fs.append(f)
    whole = _File(cert, name)
    order = [0, 1] if whole.upper == f"(Rmin {fs[0].upper} {fs[1].upper})" else [1, 0]
    if whole.upper != f"(Rmin {fs[order[0]].upper} {fs[order[1]].upper})":
        raise Untranslatable("min whose U is not the Min of its two parts' bounds as written")
    lines = [whole.intros(), f"apply (min_bound (fun U => {whole.b_of('U')}))."]
    for i in order:
        pf = fs[i]
        ha = "HA" if pf.a is not None else ""
        call = _call(whole, pf, f"{name}_part{i + 1}", ha)
        lines.append(f"- exact {call.replace(' )', ')')}.")
    out.append(_block(whole.statement(), lines))
    return "\n".join(out)


def _chain(cert, name):
    """``chain``: A => X at the same level (``finite-level-of``), then X => B (the second part's theorem)."""
    parts = cert.parts
    if len(parts) != 2 or parts[0].method != "finite-level-of":
        raise Untranslatable("a chain other than finite-level-of followed by one part")
    f2, lines2 = _leaf(parts[1], f"{name}_part2")
    out = [_block(f2.statement(), [f2.intros()] + lines2)]
    whole = _File(cert, name)
    _need(whole.a is not None and whole.a.startswith("capped_level"), "a chain whose A is not a capped level")
    call = _call(whole, f2, f"{name}_part2", "(finite_level_of _ _ HA)")
    lines = [whole.intros()] + _u_is(whole, f2.upper) + [f"exact {call}."]
    out.append(_block(whole.statement(), lines))
    return "\n".join(out)


#: inequality-lemmas: fact -> (the library's theorem, the class level it assumes, the one it bounds, f, needs T >= 1)
FACTS = {"support>=min-entropy": ("support_of_minent", "min-entropy", "support", "ceiling(x)", False),
         "support>=shannon": ("support_of_shannon", "shannon", "support", "ceiling(x)", False),
         "shannon>=capped": ("shannon_of_minent", "min-entropy", "shannon", "capped(x)", True)}
_F = {"x": "T", "ceiling(x)": "IZR (Zceil T)", "capped(x)": "capped T"}


def _inequality_lemmas(cert, name):
    """``inequality-lemmas`` (one fact): B's class level at least f(T) wherever A's is at least T."""
    if len(cert.steps) != 1 or cert.steps[0] not in FACTS:
        raise Untranslatable("an inequality-lemmas certificate other than one known fact")
    lemma, _, _, _, needs_one = FACTS[cert.steps[0]]
    a = CLASS_LEVELS.get(cert.A.class_level)
    b = CLASS_LEVELS.get(cert.B.class_level)
    fb = _F.get(cert.f)
    if a is None or b is None or fb is None:
        raise Untranslatable("a class level or map the library does not state")
    one = "1 <= T -> " if needs_one else ""
    statement = (f"Theorem {name} : forall (T : R), {one}forall (N K : nat) (x : nat -> nat -> R) (cls : nat -> nat),\n"
                 f"  table N K x -> {a} N K x cls T -> {b} N K x cls ({fb}).")
    intros = "intros T H1 N K x cls Htab HA." if needs_one else "intros T N K x cls Htab HA."
    app = f"exact ({lemma} N K x cls T Htab {'H1 ' if needs_one else ''}HA)."
    return _block(statement, [intros, app])


def theorem(cert, name="certificate"):
    """``(text, modules)``: the Coq text of one certificate's theorem ``name`` (and its parts' theorems, named
    ``name_partI``), and the library's modules it needs beyond :data:`BASE_MODULES`. Raises :class:`Untranslatable`."""
    if isinstance(cert, dict):
        cert = adapter.read(cert)
    if cert.method == "min":
        return _min(cert, name), set()
    if cert.method == "chain":
        return _chain(cert, name), set()
    if cert.method == "inequality-lemmas":
        return _inequality_lemmas(cert, name), {ENTROPY}
    f, lines = _leaf(cert, name)
    return _block(f.statement(), [f.intros()] + lines), set()


def _comment(cert, sources):
    raw = cert if isinstance(cert, dict) else cert.raw
    return ("(* " + "".join(f"source: {s}\n   " for s in list(sources)[:6]) + f"method: {raw.get('method')} *)\n")


def generate(cert, sources=()) -> str:
    """The Coq file of one certificate (raises :class:`Untranslatable`)."""
    text, mods = theorem(cert, "certificate")
    head = "(* Generated by implgraph.kernel_coq from a certificate; do not edit. *)\n" + _comment(cert, sources)
    return head + header(mods) + "\n" + text + "\nPrint Assumptions certificate.\n"


#: the name of a bundle's tuple of all its theorems (its one ``Print Assumptions``)
ALL = "all_theorems"


def bundle(blocks) -> str:
    """One file of many theorems: ``blocks`` is ``[(name, text, modules, comment)]`` (from :func:`theorem`). One
    ``Print Assumptions`` at the end, of the tuple of all the theorems (:data:`ALL`): its axioms are every theorem's
    together (Print Assumptions walks the real numbers' library once per command: once per file, not per theorem)."""
    mods = set().union(*(m for _, _, m, _ in blocks)) if blocks else set()
    out = ["(* Generated by implgraph.kernel_coq; do not edit. *)\n", header(mods)]
    for name, text, _, comment in blocks:
        out.append("\n" + comment + text)
    names = ", ".join(name for name, *_ in blocks)
    out.append(f"\nDefinition {ALL} := ({names}{', I' if len(blocks) == 1 else ''}).\nPrint Assumptions {ALL}.\n")
    return "".join(out)
