"""Tightness in Coq: the certificate's attaining family, stated symbolically and proved for every N of the domain.

A certificate that claims tightness gives a table family (``tightness.blocks``: blocks of equal binary rows, their
counts and values expressions in N, T and the parameters), which the Python checker samples at N = 2..12. For a
family of two blocks (the first ``n1`` records at ``(v1, 1 - v1)``, the others at ``(v2, 1 - v2)``, the blocks the
classes; ``coq/theories/Tight.v``), a Coq theorem ``tNNN`` states, for every value of the symbols satisfying the
certificate's domain (and the family's own, where it has one):

- the family is a table (``0 <= v1, v2 <= 1``, the counts natural numbers summing to N, both blocks nonempty) and,
  where a side has classes, a partition into classes of the sides' minimum size;
- A's predicate holds at T (the library's lemma for two blocks reduces it to a few inequalities between rational
  functions of the symbols, each proved as ``P / Q >= 0`` with P >= 0 and Q > 0 by the shift argument);
- B's level is not below U: for every ``U' < U`` B's predicate fails, because one constraint (a block and a bucket,
  a set of the first or last records) attains U exactly (``field``); with the certificate's theorem (B <= U) the
  bound is attained.

The constraint attaining U is found by evaluating the candidates at sample points of the domain; Coq proves the
identity for every point. Families of other shapes (three blocks, singleton classes, records uniform over values of
their own, a split into many buckets), with a ``Min`` or ``Max`` in their values or U, or sides without a two-block
lemma are not stated yet; the reason is kept.
"""

from __future__ import annotations

import ast

from implgraph.kernel_coq import adapter
from implgraph.kernel_coq.coqexpr import Untranslatable
from implgraph.kernel_coq.generate import _File, side_predicate

__all__ = ["tightness_blocks", "tight_theorem"]

TIGHT_MODULES = ("Tight",)


def _has_minmax(texts):
    for t in texts:
        node = ast.parse(str(t).strip(), mode="eval").body
        if any(isinstance(n, ast.Call) and getattr(n.func, "id", None) in ("Min", "Max") for n in ast.walk(node)):
            return True
    return False


class _Tight:
    """The pieces of one tightness theorem."""

    def __init__(self, cert_dict, name):
        fam = cert_dict.get("tightness") or {}
        raw = {**cert_dict, "domain": list(cert_dict.get("domain") or []) + list(fam.get("domain") or [])}
        self.c = adapter.read(raw)
        self.f = _File(self.c, name)
        self.rd, self.tr = self.f.rd, self.f.tr
        self.fam = fam
        self.name = name

    # expressions: (sympy text, Coq term) pairs -----------------------------------------------------------------

    def ratio(self, text):
        return self.rd.ratio(text)

    def le(self, a, b):
        """A tactic proving the goal ``a <= b`` (``a``, ``b`` texts in the certificate's notation whose Coq forms are
        the goal's sides): ``b - a = P / Q`` with P >= 0, Q > 0."""
        P, Q = self.ratio(f"({b}) - ({a})")
        P, Q = self._oriented(P, Q)
        return (f"(apply (le_frac _ _ ({self.tr.poly(P)}) ({self.tr.poly(Q)})); [{self.f.nonneg(P)} | "
                f"{self.f.nonneg(Q, strict=True)} | field; nz_from_hyps])")

    def lt0(self, e):
        """A tactic proving ``0 < e``."""
        P, Q = self.ratio(f"({e})")
        P, Q = self._oriented(P, Q)
        return (f"(apply (lt_frac _ ({self.tr.poly(P)}) ({self.tr.poly(Q)})); [{self.f.nonneg(P, strict=True)} | "
                f"{self.f.nonneg(Q, strict=True)} | field; nz_from_hyps])")

    def _oriented(self, P, Q):
        from implgraph.kernel_coq.shift import shift_choice
        if Q.is_ground or shift_choice(Q, self.f.atoms(), strict=True) is not None:
            return P, Q
        if shift_choice(-Q, self.f.atoms(), strict=True) is not None:
            return -P, -Q
        return P, Q

    def nz(self):
        """The denominators of the family's values and U, nonzero (for ``field``)."""
        texts = [self.v1, self.v2, self.c.upper]
        return self.f.nonzero(texts)

    # the family --------------------------------------------------------------------------------------------------

    def read_family(self):
        fam = self.fam
        if self.c.method in ("min", "chain", "inequality-lemmas", "class-size-floor"):
            raise Untranslatable(f"a {self.c.method} certificate's family (its own lemma)")
        if fam.get("split") is not None or fam.get("uniform_blocks") or fam.get("singleton_classes"):
            raise Untranslatable("a family split into many buckets, of uniform records or singleton classes")
        blocks = fam.get("blocks") or []
        if len(blocks) != 2:
            raise Untranslatable(f"a family of {len(blocks)} blocks (two-block families only)")
        (b1, b2) = blocks
        self.n1, n2 = str(b1["count"]), str(b2["count"])
        self.v1, self.v2 = str(b1["value"]), str(b2["value"])
        texts = [self.n1, n2, self.v1, self.v2, self.c.upper] + [s.size for s in (self.c.A, self.c.B) if s.size]
        if _has_minmax(texts):
            raise Untranslatable("a family or bound with Min or Max (not stated yet)")
        if self.rd.poly(self.n1) + self.rd.poly(n2) != self.rd.gens["N"]:
            raise Untranslatable("the blocks' counts do not sum to N")
        if (b1.get("class") is not None and b1.get("class") == b2.get("class")):
            raise Untranslatable("one class for both blocks")
        tr = self.tr
        self.N1, self.V1, self.V2, self.U = (tr.expr(self.n1), tr.expr(self.v1), tr.expr(self.v2),
                                             tr.expr(self.c.upper))
        self.X = f"(blk ({self.N1}) ({self.V1}) ({self.V2}))"
        self.CLS = f"(bcls ({self.N1}))"

    # the statement -----------------------------------------------------------------------------------------------

    def statement(self):
        f, tr = self.f, self.tr
        a = side_predicate(tr, self.c.A, tr.name("T"), "2", self.X, self.CLS)
        b = side_predicate(tr, self.c.B, "Up", "2", self.X, self.CLS)
        if a is None or b is None:
            raise Untranslatable("a side without a predicate in the library")
        self.a_pred, self.b_pred = a, b
        parts = [f"table N 2 {self.X}"]
        self.partitions = []
        for side in (self.c.A, self.c.B):
            if side.family == "class":
                s = side.min_class or "1"
                if s not in self.partitions:
                    self.partitions.append(s)
        parts += [f"partition N {self.CLS} ({tr.expr(s)})" for s in self.partitions]
        parts += [a, f"(forall Up, Up < {self.U} -> ~ {b})"]
        doms = "".join(f"  {d} ->\n" for d in f.doms)
        body = " /\\\n  ".join(parts)
        return f"Theorem {self.name} : forall {tr.binders()},\n{doms}  {body}."

    # the proof ---------------------------------------------------------------------------------------------------

    def proof(self):
        f, tr = self.f, self.tr
        names = " ".join(f"D{i}" for i in range(len(f.doms)))
        lines = [" ".join(f"intros {' '.join(f.syms())} {names}.".split()).replace(" .", ".")]
        n1, N = self.n1, "N"
        lines += [f"{self.nz()}.",
                  f"assert (Hn1 : IsNat ({self.N1})) by isnat.",
                  f"assert (Hn1p : 0 < {self.N1}) by {self.lt0(n1)}.",
                  f"assert (Hn1N : {self.N1} < INR N) by (assert (0 < INR N - ({self.N1})) by {self.lt0(f'N - ({n1})')}; "
                  "lra).",
                  f"assert (Hv1 : 0 <= {self.V1} <= 1) by (split; [{self.le('0', self.v1)} | {self.le(self.v1, '1')}]).",
                  f"assert (Hv2 : 0 <= {self.V2} <= 1) by (split; [{self.le('0', self.v2)} | {self.le(self.v2, '1')}]).",
                  "split; [apply blk_table; assumption |]."]
        for s in self.partitions:
            lines.append(f"split; [apply blk_partition; [exact Hn1 | exact Hn1p | exact Hn1N | {self.le(s, n1)} | "
                         f"{self.le(s, f'N - ({n1})')}] |].")
        lines.append(f"split; [{self.a_proof()} |].")
        lines.append(self.b_proof() + ".")
        return lines

    def _bsum(self, w1, w2):
        return f"({self.n1})*({w1}) + (N - ({self.n1}))*({w2})"

    def a_proof(self):
        A = self.c.A
        T = "T"
        v1, v2 = self.v1, self.v2
        if A.class_size_level:
            return (f"apply blk_class_size; [exact Hn1 | exact Hn1p | exact Hn1N | {self.le(T, self.n1)} | "
                    f"{self.le(T, f'N - ({self.n1})')}]")
        if A.family == "pairwise" and A.sides == "TwoSided":
            return (f"apply blk_pairwise; [exact Hv1 | exact Hv2 | lra | {self.le(v1, f'T*({v2})')} | "
                    f"{self.le(v2, f'T*({v1})')} | {self.le(f'1 - ({v1})', f'T*(1 - ({v2}))')} | "
                    f"{self.le(f'1 - ({v2})', f'T*(1 - ({v1}))')}]")
        if A.distance == "total-variation" and A.family == "class":
            D = self._bsum(v1, v2)
            return (f"apply blk_tv; [exact Hn1 | exact Hn1p | exact Hn1N | lra | unfold tv_cond, bsum; "
                    f"split; [{self.le(f'N*({v1}) - ({D})', 'T*N')} | split; [{self.le(f'({D}) - N*({v1})', 'T*N')} | "
                    f"split; [{self.le(f'N*({v2}) - ({D})', 'T*N')} | {self.le(f'({D}) - N*({v2})', 'T*N')}]]]]")
        if A.family == "class" and A.sides:
            two = A.sides == "TwoSided"
            conds = []
            for w1, w2 in ((v1, v2), (f"1 - ({v1})", f"1 - ({v2})")):
                D = self._bsum(w1, w2)
                lower = (f"intros _; split; [{self.le(D, f'T*(N*({w1}))')} | {self.le(D, f'T*(N*({w2}))')}]" if two
                         else "intros Hf; discriminate")
                conds.append(f"unfold class_cond, bsum, two_sided; split; [{self.le(f'N*({w1})', f'T*({D})')} | "
                             f"split; [{self.le(f'N*({w2})', f'T*({D})')} | {lower}]]")
            return f"apply blk_class; [exact Hn1 | exact Hn1p | exact Hn1N | {conds[0]} | {conds[1]}]"
        if A.family == "subset" and A.sides and A.size is not None:
            return self.subset_a(A)
        raise Untranslatable(f"A ({A.definition}) has no two-block lemma")

    def _provable_le(self, a, b):
        """Can the shift argument show ``a <= b`` on the domain (``b - a = P/Q``, P >= 0, Q > 0)?"""
        from implgraph.kernel_coq.shift import shift_choice
        P, Q = self._oriented(*self.ratio(f"({b}) - ({a})"))
        atoms = self.f.atoms()
        return shift_choice(P, atoms) is not None and shift_choice(Q, atoms, strict=True) is not None

    def _decide_min(self, a, b):
        """``(coq rewrite, chosen text)`` replacing ``Rmin a b`` (texts) by the branch the domain decides."""
        if self._provable_le(a, b):
            return f"rewrite (Rmin_left ({self.tr.expr(a)}) ({self.tr.expr(b)})) by {self.le(a, b)}", a
        if self._provable_le(b, a):
            return f"rewrite (Rmin_right ({self.tr.expr(a)}) ({self.tr.expr(b)})) by {self.le(b, a)}", b
        raise Untranslatable(f"Min({a}, {b}) not decided on the domain")

    def _decide_max(self, a, b):
        if self._provable_le(b, a):
            return f"rewrite (Rmax_left ({self.tr.expr(a)}) ({self.tr.expr(b)})) by {self.le(b, a)}", a
        if self._provable_le(a, b):
            return f"rewrite (Rmax_right ({self.tr.expr(a)}) ({self.tr.expr(b)})) by {self.le(a, b)}", b
        raise Untranslatable(f"Max({a}, {b}) not decided on the domain")

    def subset_a(self, A):
        j = A.size
        two = A.sides == "TwoSided"
        n2 = f"N - ({self.n1})"
        rw_lo, lo = self._decide_max("0", f"({j}) - ({n2})")
        rw_hi, hi = self._decide_min(j, self.n1)
        buckets = []
        for w1, w2 in ((self.v1, self.v2), (f"1 - ({self.v1})", f"1 - ({self.v2})")):
            D = self._bsum(w1, w2)
            ends = []
            for rw, a in ((rw_lo, lo), (rw_hi, hi)):
                S = f"({a})*({w1}) + (({j}) - ({a}))*({w2})"
                lower = (f"intros _; {self.le(f'({j})*({D})', f'T*(N*({S}))')}" if two else "intros Hf; discriminate")
                ends.append(f"({rw}; split; [{self.le(f'N*({S})', f'T*(({j})*({D}))')} | {lower}])")
            buckets.append(f"(destruct Ha as [Ha|Ha]; rewrite Ha; cbv [sub_cond bsum wv two_sided Nat.eqb]; "
                           f"[{ends[0]} | {ends[1]}])")
        return (f"apply blk_subset; [exact Hn1 | lra | intros b Hb a Ha; destruct b as [|[|b]]; "
                f"[{buckets[0]} | {buckets[1]} | lia]]")

    # B ------------------------------------------------------------------------------------------------------------

    def _points(self):
        pts = []
        for env in self.f.domain.points(range(2, 9)):
            pts.append(env)
            if len(pts) >= 24:
                break
        if not pts:
            raise Untranslatable("no point of the domain to find the attaining constraint")
        return pts

    def _attains(self, level_text):
        """Does the candidate ``level_text`` equal U at every sampled point (where defined)?"""
        f_u, f_l = self.rd.function(self.c.upper), self.rd.function(level_text)
        for env in self._points():
            try:
                if f_l(dict(env)) != f_u(dict(env)):
                    return False
            except ZeroDivisionError:
                return False
        return True

    def b_proof(self):
        """The Coq tactic proving that the two-block table attains U under B (by B's family)."""
        B = self.c.B
        if B.family == "class" and B.sides and B.distance is None:
            return self._b_class_ratio()
        if B.family == "class" and B.distance == "total-variation":
            return self._b_class_distance()
        if B.family == "pairwise" and B.sides == "TwoSided":
            return self._b_pairwise()
        if B.family == "subset" and B.sides and B.size is not None:
            return self._b_subset()
        raise Untranslatable(f"B ({B.definition}) has no two-block lemma")

    def _b_class_ratio(self):
        """B a ratio of a class to the table (one- or two-sided): a block whose ratio attains U."""
        B = self.c.B
        v1, v2 = self.v1, self.v2
        sd = B.sides
        for first in (True, False):
            for b in (0, 1):
                w = (lambda v: v) if b == 0 else (lambda v: f"1 - ({v})")
                wc = w(v1) if first else w(v2)
                D = self._bsum(w(v1), w(v2))
                fl = "true" if first else "false"
                if self._attains(f"N*({wc})/({D})"):
                    return (f"apply (blk_class_reach {sd} N ({self.N1}) ({self.V1}) ({self.V2}) ({self.U}) {fl} {b}); "
                            f"[exact Hn1 | exact Hn1p | exact Hn1N | lia | cbv [bsum wv Nat.eqb]; {self.lt0(D)} | "
                            f"cbv [bsum wv Nat.eqb]; field; nz_from_hyps]")
                if sd == "TwoSided" and self._attains(f"({D})/(N*({wc}))"):
                    return (f"apply (blk_class_reach_low N ({self.N1}) ({self.V1}) ({self.V2}) ({self.U}) {fl} {b}); "
                            f"[exact Hn1 | exact Hn1p | exact Hn1N | lia | cbv [wv Nat.eqb]; {self.lt0(wc)} | "
                            f"cbv [bsum wv Nat.eqb]; field; nz_from_hyps]")
        raise Untranslatable("no block ratio attains U at the sampled points")

    def _b_class_distance(self):
        """B a class's total-variation distance: a block whose distance attains U."""
        v1, v2 = self.v1, self.v2
        D = self._bsum(v1, v2)
        for first in (True, False):
            vc = v1 if first else v2
            for up in (True, False):
                lvl = f"(N*({vc}) - ({D}))/N" if up else f"(({D}) - N*({vc}))/N"
                if self._attains(lvl):
                    return (f"apply (blk_tv_reach N ({self.N1}) ({self.V1}) ({self.V2}) ({self.U}) "
                            f"{'true' if first else 'false'} {'true' if up else 'false'}); [exact Hn1 | exact Hn1p | "
                            f"exact Hn1N | cbv [bsum]; field; nz_from_hyps]")
        raise Untranslatable("no block's distance attains U at the sampled points")

    def _b_pairwise(self):
        """B a two-sided pairwise ratio: a pair of records whose ratio attains U."""
        v1, v2 = self.v1, self.v2
        for first in (True, False):
            for b in (0, 1):
                w = (lambda v: v) if b == 0 else (lambda v: f"1 - ({v})")
                num, den = (w(v1), w(v2)) if first else (w(v2), w(v1))
                if self._attains(f"({num})/({den})"):
                    return (f"apply (blk_pairwise_reach N ({self.N1}) ({self.V1}) ({self.V2}) ({self.U}) "
                            f"{'true' if first else 'false'} {b}); [exact Hn1 | exact Hn1p | exact Hn1N | lia | "
                            f"cbv [wv Nat.eqb]; {self.lt0(den)} | cbv [wv Nat.eqb]; field; nz_from_hyps]")
        raise Untranslatable("no pair of records attains U at the sampled points")

    def _b_subset(self):
        """B a ratio of a subset of the first or last records to the table: a set whose ratio attains U."""
        B = self.c.B
        v1, v2, n1 = self.v1, self.v2, self.n1
        j = B.size
        for first in (True, False):
            if first:
                rw, a = self._decide_min(j, n1)
            else:
                rw, m = self._decide_min(n1, f"N - ({j})")
                a = f"({n1}) - ({m})"
            for b in (0, 1):
                w = (lambda v: v) if b == 0 else (lambda v: f"1 - ({v})")
                D = self._bsum(w(v1), w(v2))
                S = f"({a})*({w(v1)}) + (({j}) - ({a}))*({w(v2)})"
                fl = "true" if first else "false"
                common = (f"exact Hn1 | isnat | lra | {self.le(j, 'N')} | lia")
                if self._attains(f"N*({S})/(({j})*({D}))"):
                    return (f"apply (blk_subset_reach {B.sides} N ({self.N1}) ({self.V1}) ({self.V2}) "
                            f"({self.tr.expr(j)}) ({self.U}) {fl} {b}); [{common} | cbv [bsum wv Nat.eqb]; "
                            f"{self.lt0(f'({j})*({D})')} | cbv [bsum wv Nat.eqb]; {rw}; {self.nz()}; field; "
                            "nz_from_hyps]")
                if B.sides == "TwoSided" and self._attains(f"(({j})*({D}))/(N*({S}))"):
                    return (f"apply (blk_subset_reach_low N ({self.N1}) ({self.V1}) ({self.V2}) "
                            f"({self.tr.expr(j)}) ({self.U}) {fl} {b}); [{common} | cbv [bsum wv Nat.eqb]; {rw}; "
                            f"{self.lt0(f'N*({S})')} | cbv [bsum wv Nat.eqb]; {rw}; {self.nz()}; field; "
                            "nz_from_hyps]")
        raise Untranslatable("no set of the first or last records attains U at the sampled points")


def tight_theorem(cert, name):
    """The Coq text of a certificate's tightness theorem ``name`` (raises :class:`Untranslatable`)."""
    if not cert.get("tight"):
        raise Untranslatable("the certificate does not claim tightness")
    t = _Tight(cert, name)
    t.read_family()
    statement = t.statement()
    lines = t.proof()
    body = "\n".join(f"  {ln}" for ln in lines)
    return f"{statement}\nProof.\n{body}\nQed.\n"


def tightness_blocks(items):
    """``(rows, blocks)``: a summary row per certificate that claims tightness and a theorem block ``tNNN`` per one
    stated (for :func:`implgraph.kernel_coq.check.check_blocks`)."""
    rows, blocks = [], []
    for i, item in enumerate(items):
        cert = item["certificate"]
        if not cert.get("tight"):
            continue
        name = f"t{i:03d}"
        row = {"kind": "tightness", "name": name, "index": i, "method": cert.get("method"),
               "sources": item.get("sources", [])}
        try:
            text = tight_theorem(cert, name)
        except (Untranslatable, KeyError, ValueError, TypeError, ZeroDivisionError) as exc:
            row.update(generated=False, reason=f"{exc.__class__.__name__}: {exc}")
            rows.append(row)
            continue
        comment = "(* tightness of " + "; ".join(item.get("sources", [])[:2]) + f" [{cert.get('method')}] *)\n"
        blocks.append((name, text, set(TIGHT_MODULES), comment))
        row.update(generated=True)
        rows.append(row)
    return rows, blocks
