"""A Coq file per certificate: the implication stated in the library's terms (``coq/theories``), proved by
instantiating its argument's lemma with the certificate's data.

The statement: for every value of the certificate's symbols satisfying its domain, every table of N records
(``table N K x``, any number K of buckets) and every partition ``cls`` into classes the sides declare, A's level at
most T implies B's level at most U (U the certificate's ``upper``). Each side is the library's predicate for its
declared kind (:func:`side_predicate`). The proof applies the method's general lemma (proved once in the library)
and discharges its premises with the certificate's own data:

- sizes are natural numbers (``isnat``), orderings and signs on the domain by ``lra``;
- U equals the lemma's bound (``field``) or, for the vertex lemma, each obligation
  ``P den - Q num = sum(multiplier * fact)`` by ``ring`` with every multiplier >= 0 on the domain by the shift
  argument (:mod:`implgraph.kernel_coq.shift`) and every fact >= 0 by ``lra``.

An edited number or relation in a certificate makes one of these steps fail, so ``coqc`` rejects the file.
A certificate of a method the generator does not cover raises :class:`Untranslatable` with the reason.
"""

from __future__ import annotations

from implgraph.kernel_coq.coqexpr import Translator, Untranslatable
from implgraph.kernel_coq.shift import nonneg_tactic

__all__ = ["generate", "COVERED", "side_predicate", "Untranslatable"]

HEADER = """From Coq Require Import Reals Lra Lia.
From Implgraph Require Import Sums Tables Tactics Extreme Vertex Mass Compose Distance MaxValue.
Open Scope R_scope.
"""

#: certificate method -> the library lemma its proof instantiates
COVERED = {
    "same-level": "(the hypothesis itself: one level predicate)",
    "subset-monotone": "Extreme.subset_monotone",
    "subset-to-classes": "Extreme.subset_to_classes",
    "vertex": "Vertex.vertex_subset / Vertex.vertex_class",
    "one-sided-ceiling": "Mass.set_mass_subset / Mass.set_mass_class",
    "min": "Compose.min_bound",
    "distance-ceiling": "Distance.tv_mass",
    "same-distance": "Distance.tv_mass and Compose.min_bound",
    "subset-to-one-sided": "MaxValue.max_value",
}

_OTHER_KINDS = ("finite_level_of", "increase_cap", "uniform_class_level", "tail_ratio", "class_size_level")


def _sd(side):
    return {"two-sided": "TwoSided", "one-sided": "OneSided"}.get(side.get("sides"))


def side_predicate(tr, side, level):
    """The library's predicate "``side``'s raw level is at most ``level``" (a Coq term), or None where the side's
    declared kind has no predicate in the library."""
    if any(side.get(k) for k in _OTHER_KINDS):
        return None
    fam, sd = side.get("family"), _sd(side)
    slack = side.get("slack")
    if slack:
        if slack.get("compares") == "pairs" and fam == "pairwise":
            return f"slack_pairs_le N K x ({tr.expr(slack['delta'])}) ({level})"
        return None
    if side.get("distance") is not None:
        return f"tv_le N K x cls ({level})" if side["distance"] == "total-variation" and fam == "class" else None
    if fam == "pairwise" and sd == "TwoSided":
        return f"pairwise_le N K x ({level})"
    if fam == "subset" and sd and side.get("size") is not None:
        return f"subset_le {sd} N K x ({tr.expr(side['size'])}) ({level})"
    if fam == "class" and sd:
        return f"class_le {sd} N K x cls ({level})"
    return None


def _partition_hyps(tr, cert):
    """The partition the class sides declare: classes of at least ``min_class`` (and at most ``max_class``)."""
    out = []
    for side in (cert["A"], cert["B"]):
        if side.get("family") != "class":
            continue
        h = f"partition N cls ({tr.expr(side.get('min_class') or '1')})"
        if h not in out:
            out.append(h)
        if side.get("max_class") is not None:
            h = f"max_class N cls ({tr.expr(side['max_class'])})"
            if h not in out:
                out.append(h)
    return out


class _File:
    """The pieces of one generated file."""

    def __init__(self, cert, name="certificate"):
        self.cert = cert
        self.tr = Translator(cert.get("symbols") or {})
        from implgraph.certify.domain import Domain
        self.domain = Domain(cert)
        self.rd = self.domain.reader
        self.name = name
        self.doms = [self.tr.relation(d) for d in dict.fromkeys(cert.get("domain") or [])]
        self._naturals_only()
        self.parts = _partition_hyps(self.tr, cert)
        self.upper = self.tr.expr(cert["upper"])
        a = side_predicate(self.tr, cert["A"], "T")
        b = side_predicate(self.tr, cert["B"], self.upper)
        self.b_of = lambda level: side_predicate(self.tr, cert["B"], level)
        if b is None:
            raise Untranslatable(f"B's level kind ({_describe(cert['B'])}) has no predicate in the library")
        self.a, self.b = a, b

    def _naturals_only(self):
        """An integer symbol is a natural number in Coq: the domain must give it a constant lower bound >= 0 (N, the
        number of records, is one by nature), or the Coq theorem would quantify over fewer values than the claim."""
        from implgraph.certify.positive import nonnegative
        for name, kind in self.tr.kinds.items():
            if kind != "integer" or name == "N":
                continue
            if nonnegative(self.rd.gens[name], self.domain.atoms) is None:
                raise Untranslatable(f"integer symbol {name} is not shown >= 0 on the domain (Coq reads it as a "
                                     "natural number)")

    def statement(self, a_pred=None):
        a = a_pred if a_pred is not None else self.a
        doms = "".join(f"  {d} ->\n" for d in self.doms)
        hyps = "".join(f"  {h} ->\n" for h in self.parts)
        # without a predicate for A (a lemma that holds whatever A is): B's bound on every table, a stronger statement
        a_line = f"  {a} ->\n" if a is not None else "  (* whatever A is: no hypothesis on A *)\n"
        return (f"Theorem {self.name} : forall {self.tr.binders()},\n{doms}"
                f"  forall (K : nat) (x : nat -> nat -> R) (cls : nat -> nat),\n  table N K x ->\n{hyps}{a_line}"
                f"  {self.b}.")

    def intros(self):
        names = " ".join(f"D{i}" for i in range(len(self.doms)))
        parts = " ".join(f"P{i}" for i in range(len(self.parts)))
        syms = " ".join(sorted(n for n, k in self.tr.kinds.items() if k == "integer")
                        + sorted(n for n, k in self.tr.kinds.items() if k != "integer"))
        a = " HA" if self.a is not None else ""
        return f"intros {syms} {names} K x cls Htab {parts}{a}.".replace("  ", " ")

    def atoms(self, extra=()):
        return list(self.domain.atoms) + list(extra)

    def nonneg(self, text_or_poly, extra=(), strict=False):
        p = self.rd.poly(text_or_poly) if isinstance(text_or_poly, str) else text_or_poly
        return nonneg_tactic(self.tr, p, self.atoms(extra), strict)


def _describe(side):
    keys = ("family", "sides", "distance", "slack", "class_size_level", "uniform_class_level", "tail_ratio",
            "finite_level_of")
    return ", ".join(f"{k} {side[k]}" for k in keys if side.get(k) not in (None, False))


def _u_is(f, bound):
    """Tactic lines turning the goal's U (the certificate's) into the lemma's ``bound``: U = bound by ``field``
    (the library's ``level_eq``)."""
    if f.upper == bound:
        return []
    return [f"apply (level_eq (fun LvlU => {f.b_of('LvlU')}) ({f.upper}) ({bound})); [field; nra |]."]


# the methods ---------------------------------------------------------------------------------------------------


def _same_level(f):
    if f.a is None or f.a.replace("(T)", f"({f.upper})") != f.b:
        raise Untranslatable("same-level between sides with different predicates in the library")
    return _u_is(f, "T") + ["exact HA."]


def _size(f, side):
    return f.tr.expr(side["size"])


def _subset_monotone(f):
    A, B = f.cert["A"], f.cert["B"]
    if f.a is None or A.get("family") != "subset" or B.get("family") != "subset" or _sd(A) != _sd(B) or not _sd(A):
        raise Untranslatable("subset-monotone needs two subset sides with the same declared sides")
    ja, jb = _size(f, A), _size(f, B)
    return _u_is(f, "T") + [
        f"apply (subset_monotone {_sd(A)} N K x ({ja}) ({jb}) T); [isnat | lra | lra | lra | exact HA]."]


def _subset_to_classes(f):
    A, B = f.cert["A"], f.cert["B"]
    if f.a is None or A.get("family") != "subset" or B.get("family") != "class" or _sd(A) != _sd(B) or not _sd(A):
        raise Untranslatable("subset-to-classes needs a subset side and a class side with the same declared sides")
    j, s = _size(f, A), f.tr.expr(B.get("min_class") or "1")
    k = f.parts.index(f"partition N cls ({s})")
    return _u_is(f, "T") + [
        f"apply (subset_to_classes {_sd(A)} N K x cls ({j}) ({s}) T); "
        f"[isnat | lra | lra | lra | exact P{k} | exact HA]."]


def _nat_pos():
    return "(apply INR_lt; simpl; lra)"


def _vertex(f):
    A, B = f.cert["A"], f.cert["B"]
    if f.a is None or A.get("family") != "pairwise":
        raise Untranslatable("vertex needs A pairwise")
    mults = (f.cert.get("upper_certificate") or {}).get("multipliers") or {}
    rd, tr = f.rd, f.tr
    g = rd.gens
    T, N = g["T"], g["N"]
    P, Q = rd.ratio(f.cert["upper"])
    bound = f"({tr.poly(P)}) / ({tr.poly(Q)})"
    lines = _u_is(f, bound)
    if B["family"] == "subset":
        j = rd.poly(B["size"])
        u, m = g["u_"], g["m_"]
        facts = {"u>=0": u, "j-u>=0": j - u, "m-u>=0": m - u, "N-j-(m-u)>=0": N - j - m + u}
        mean_s, mean_d = (u * T + j - u, j), (m * T + N - m, N)
        binders = "vu vm"
        lemma = (f"apply (vertex_subset {_sd(B)} N K x ({tr.expr(B['size'])}) T); "
                 f"[exact Htab | {_nat_pos()} | exact HA | |].")
    else:
        k = rd.poly(B.get("min_class") or "1")
        e, u, v = g["e_"], g["u_"], g["v_"]
        facts = {"u>=0": u, "v>=0": v, "e-u>=0": e - u, "e-k>=0": e - k, "N-e>=0": N - e, "N-e-v>=0": N - e - v}
        mean_s, mean_d = (u * T + e - u, e), ((u + v) * T + N - u - v, N)
        binders = "ve vu vv"
        s = tr.expr(B.get("min_class") or "1")
        part = f.parts.index(f"partition N cls ({s})")
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
    for i, (label, (n1, d1), (n2, d2)) in enumerate(ratios):
        num, den = n1 * d2, d1 * n2
        given = mults.get(label)
        if not given:
            raise Untranslatable(f"no multipliers for {label}")
        unknown = set(given) - set(facts)
        if unknown:
            raise Untranslatable(f"multipliers name unknown facts {sorted(unknown)}")
        kind = "subset" if B["family"] == "subset" else "class"
        if i == 0:
            lines.append(f"- (* {label} *) unfold vertex_{kind}_upper.")
        else:
            lines.append(f"- (* {label} *) intros _. unfold vertex_{kind}_lower.")
        hyp_names = " ".join(f"F{n}" for n in range(len(facts)))
        lines.append(f"  intros {binders} {hyp_names}.")
        lines.append(f"  apply ratio_from_poly; [{q_pos} |].")
        terms, proofs = [], []
        for n, (fact, lam_text) in enumerate(given.items()):
            lam = rd.poly(lam_text)
            lines.append(f"  assert (L{n} : 0 <= {tr.expr(lam_text)}) by {f.nonneg(lam, fact_atoms)}.")
            lines.append(f"  assert (G{n} : 0 <= {tr.poly(facts[fact])}) by lra.")
            terms.append(f"({tr.expr(lam_text)}) * ({tr.poly(facts[fact])})")
            proofs.append(n)
        combo = " + ".join(terms)
        # the goal is 0 <= P den - Q num: the identity with the multipliers, by ring
        lines.append(f"  match goal with |- 0 <= ?g => replace g with ({combo}) by ring end.")
        lines.append("  " + _combination(proofs))
    return lines


def _combination(ns):
    """A tactic proving ``0 <= l0 * g0 + l1 * g1 + ...`` (left-nested sums) from ``L_i``, ``G_i``."""
    tac = f"apply Rmult_le_pos; [exact L{ns[-1]} | exact G{ns[-1]}]"
    if len(ns) == 1:
        return tac + "."
    return f"apply Rplus_le_le_0_compat; [{_combination(ns[:-1])[:-1]} | {tac}]."


def _set_mass(f):
    B = f.cert["B"]
    tr = f.tr
    if _sd(B) != "OneSided":
        raise Untranslatable("set-mass needs B one-sided")
    if B["family"] == "subset":
        s = tr.expr(B["size"])
        core = f"apply (set_mass_subset N K x ({s})); [exact Htab | lra]."
    elif B["family"] == "class":
        s = tr.expr(B.get("min_class") or "1")
        part = f.parts.index(f"partition N cls ({s})")
        core = f"apply (set_mass_class N K x cls ({s})); [exact Htab | lra | exact (proj1 P{part})]."
    else:
        raise Untranslatable("set-mass needs B a subset or class side")
    return _u_is(f, f"INR N / ({s})") + [core]


def _tv_mass_core(f):
    B = f.cert["B"]
    if not (B.get("family") == "class" and B.get("distance") == "total-variation" and B.get("max_class") is None):
        raise Untranslatable("distance-mass needs B a class's total variation distance without a maximum class size")
    s = f.tr.expr(B.get("min_class") or "1")
    part = f.parts.index(f"partition N cls ({s})")
    return s, f"apply (tv_mass N K x cls ({s})); [exact Htab | lra | exact (proj1 P{part})]."


def _distance_ceiling(f):
    s, core = _tv_mass_core(f)
    return _u_is(f, f"(INR N - ({s})) / INR N") + [core]


def _components(f, text):
    """The arguments of a top-level Min of the certificate's U, as Coq terms (or U alone)."""
    import ast
    node = ast.parse(text.strip(), mode="eval").body
    if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Min":
        return [f.tr.expr(ast.unparse(a)) for a in node.args]
    return [f.tr.expr(text)]


def _same_distance(f):
    if f.a is None or f.a.replace("(T)", "(LvlU)") != f.b_of("LvlU"):
        raise Untranslatable("same-distance between sides with different predicates")
    s, core = _tv_mass_core(f)
    comps = _components(f, f.cert["upper"])
    out = []
    if len(comps) == 2:
        out.append(f"apply (min_bound (fun LvlU => {f.b_of('LvlU')})).")
    for comp in comps:
        lead = "- " if len(comps) == 2 else ""
        if comp == "T":
            out.append(lead + "exact HA.")
        else:
            out.append(lead + f"apply (level_eq (fun LvlU => {f.b_of('LvlU')}) ({comp}) "
                       f"((INR N - ({s})) / INR N)); [field; nra | {core[:-1]}].")
    return out


def _identity_lines(f, given, facts, fact_atoms, indent="  "):
    """``0 <= target`` (the goal) from ``target = sum(multiplier * fact)`` by ring: each multiplier >= 0 on the
    domain by the shift argument, each fact >= 0 by lra (a hypothesis), then the nonnegative combination."""
    rd, tr = f.rd, f.tr
    unknown = set(given) - set(facts)
    if unknown or not given:
        raise Untranslatable(f"multipliers name unknown facts {sorted(unknown)}" if unknown else "no multipliers")
    lines, terms = [], []
    for n, (fact, lam_text) in enumerate(given.items()):
        lam = rd.poly(lam_text)
        lines.append(f"{indent}assert (L{n} : 0 <= {tr.expr(lam_text)}) by {f.nonneg(lam, fact_atoms)}.")
        lines.append(f"{indent}assert (G{n} : 0 <= {tr.poly(facts[fact])}) by lra.")
        terms.append(f"({tr.expr(lam_text)}) * ({tr.poly(facts[fact])})")
    lines.append(f"{indent}match goal with |- 0 <= ?g => replace g with ({' + '.join(terms)}) by ring end.")
    lines.append(indent + _combination(list(range(len(terms)))))
    return lines


def _max_value(f):
    A, B = f.cert["A"], f.cert["B"]
    if f.a is None or A.get("family") != "subset" or _sd(A) != "TwoSided" or B.get("family") != "class" \
            or _sd(B) != "OneSided":
        raise Untranslatable("max-value needs A a two-sided subset level and B a one-sided class level")
    rd, tr = f.rd, f.tr
    g = rd.gens
    T, N, M, H = g["T"], g["N"], g["b_"], g["a_"]
    j = rd.poly(A["size"])
    kernel = [("all", N * T - N + 1, T), ("j largest", j * T * (N - 1) - (j - 1) * N, N - j)]
    facts = {"T*(N - M) - (N - 1) >= 0": T * (N - M) - (N - 1), "j*T - (j - 1)*H - M >= 0": j * T - (j - 1) * H - M,
             "(N - 1)*H - (N - M) >= 0": (N - 1) * H - (N - M)}
    fact_atoms = [(">=", M), (">=", H)] + [(">=", x) for x in facts.values()]
    mults = {k: v for k, v in ((f.cert.get("upper_certificate") or {}).get("multipliers") or {}).items()}
    comps = _components(f, f.cert["upper"])
    quotients = rd.ratio_components(f.cert["upper"])
    lines = [f"apply (max_value N K x cls ({tr.expr(A['size'])}) T); [exact Htab | isnat | lra | lra | lra | exact HA |].",
             "unfold max_value_obl. intros vb va F0 F1 F2 F3 F4."]
    if len(comps) == 2:
        lines.append("apply Rmin_glb.")
    elif len(comps) != 1:
        raise Untranslatable("a Min of more than two components")
    for comp, (P0, Q0) in zip(comps, quotients):
        hit = next(((name, P, Q) for name, P, Q in kernel if P0 * Q == Q0 * P), None)
        if hit is None:
            raise Untranslatable(f"component {comp} is not one of max-value's bounds")
        name, P, Q = hit
        lead = "- " if len(comps) == 2 else ""
        lines.append(f"{lead}assert (HC : {comp} = ({tr.poly(P)}) / ({tr.poly(Q)})) by (field; nra). rewrite HC.")
        lines.append(f"  apply le_from_poly; [{f.nonneg(Q, strict=True)} |].")
        lines += _identity_lines(f, mults.get(name) or {}, facts, fact_atoms)
    return lines


METHODS = {"same-level": _same_level, "subset-monotone": _subset_monotone, "subset-to-classes": _subset_to_classes,
           "vertex": _vertex, "one-sided-ceiling": _set_mass,
           "distance-ceiling": _distance_ceiling, "same-distance": _same_distance,
           "subset-to-one-sided": _max_value}


def _theorem(cert, name):
    """``(statement, proof lines)`` of a leaf certificate (one lemma)."""
    method = cert.get("method")
    if method not in METHODS:
        raise Untranslatable(f"method {method!r} is not covered by the generator yet")
    f = _File(cert, name)
    if f.a is None and method not in ("one-sided-ceiling", "distance-ceiling"):
        raise Untranslatable(f"A's level kind ({_describe(cert['A'])}) has no predicate in the library")
    lines = METHODS[method](f)
    return f, lines


def _min(cert):
    """``min``: each part its own theorem, then U = Min of the parts' bounds by ``min_bound``."""
    parts = cert.get("parts") or []
    if len(parts) != 2:
        raise Untranslatable("min of other than two parts")
    out, fs = [], []
    for i, part in enumerate(parts):
        f, lines = _theorem(part, f"part{i + 1}")
        out.append(_block(f.statement(), lines))
        fs.append(f)
    whole = _File(cert, "certificate")
    want = f"(Rmin {fs[0].upper} {fs[1].upper})"
    if whole.upper != want:
        raise Untranslatable("min whose U is not the Min of its two parts' bounds as written")
    if any(p.doms != whole.doms or p.a != whole.a for p in fs):
        raise Untranslatable("min whose parts' domains differ from the certificate's")
    args = whole.intros().replace("intros ", "").rstrip(".")
    lines = [whole.intros(), f"apply (min_bound (fun U => {whole.b.replace(whole.upper, 'U')}))."]
    lines += [f"- exact (part{i + 1} {args})." for i in range(2)]
    out.append(_block(whole.statement(), lines))
    return "\n".join(out)


def _block(statement, lines):
    body = "\n".join(f"  {ln}" for ln in lines)
    return f"{statement}\nProof.\n{body}\nQed.\n"


def generate(cert, sources=()) -> str:
    """The Coq file of one certificate (raises :class:`Untranslatable`)."""
    head = "(* Generated by implgraph.kernel_coq from a certificate; do not edit.\n" + "".join(
        f"   source: {s}\n" for s in list(sources)[:6]) + f"   method: {cert.get('method')}\n*)\n"
    if cert.get("method") == "min":
        body = _min(cert)
    else:
        f, lines = _theorem(cert, "certificate")
        body = _block(f.statement(), [f.intros()] + lines)
    return head + HEADER + "\n" + body + "\nPrint Assumptions certificate.\n"
