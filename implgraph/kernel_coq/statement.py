"""The statement of a certificate's Coq theorem: each side's predicate in the library's terms (:func:`side_predicate`),
the partition the class sides declare, and :class:`_File`, the pieces of one theorem (its statement, intros and the
tactics its proof uses to show a polynomial nonnegative or a denominator nonzero on the domain).
"""

from __future__ import annotations

import ast

from implgraph.kernel_coq import adapter
from implgraph.kernel_coq.coqexpr import Translator, Untranslatable
from implgraph.kernel_coq.shift import nonneg_tactic

__all__ = ["side_predicate", "CLASS_LEVELS", "WHATEVER_A", "whatever_a"]

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
    div = adapter.divergence_side(side)
    if div is not None:
        return _divergence_predicate(tr, div, level, K, x, cls)
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


def divergence_kind(tr, div):
    """The library's ``dkind`` term of a declared divergence (``KL``, ``Renyi 2``, ``TV``, ``Hockey (g)``), or None
    where the library has none (Renyi of an order that is not a natural number)."""
    import sympy
    if div.kind == "kl":
        return "KL"
    if div.kind == "tv":
        return "TV"
    if div.kind == "renyi":
        order = sympy.sympify(div.order)
        return f"(Renyi {int(order)})" if order.is_Integer and order >= 2 else None
    if div.kind == "hockey-stick":
        return f"(Hockey ({tr.expr(str(div.order))}))"
    return None


def _divergence_predicate(tr, div, level, K, x, cls):
    """"The divergence compared is at most ``level``" for every pair, every class against the table, or the table
    against the table without each record (both ways); zero-concentrated privacy between every two records is
    ZcdpChord's ``zcdp_pairs_le``, on record removal (the table's mean against the mean without each record, both
    ways) ZcdpRemoval's ``zcdp_removal_le``."""
    if div.kind == "zcdp":
        pred = {"pairs": "zcdp_pairs_le", "removal": "zcdp_removal_le"}.get(div.compares)
        return None if pred is None else f"{pred} N {K} {x} ({level})"
    k = divergence_kind(tr, div)
    if k is None:
        return None
    if div.compares == "pairs":
        return f"div_pairs_le {k} N {K} {x} ({level})"
    if div.compares == "class":
        return f"div_class_le {k} N {K} {x} {cls} ({level})"
    if div.compares == "removal":
        return f"div_removal_le {k} N {K} {x} ({level})"
    return None


#: methods whose proof reads a total-variation or hockey-stick A as the additive slack on every event it is
SLACK_A_METHODS = ("tv-distance", "ceiling-chord", "divergence-order", "removal-scaling", "slack-pairs-tv")

#: methods whose lemma holds whatever A is (the theorem states no hypothesis on A)
WHATEVER_A = ("one-sided-ceiling", "distance-ceiling")


def whatever_a(cert) -> bool:
    """Whether the certificate's lemma holds whatever A is: B's own ceiling (a one-sided ratio at most N/s, a total
    variation distance at most (N - s)/N, a class divergence at most log(N/s) with s the classes' declared minimum,
    not one that A's level gives)."""
    if cert.method in WHATEVER_A:
        return True
    if cert.method == "ceiling-family":         # the upper bound is its one part's
        return len(cert.parts) == 1 and whatever_a(cert.parts[0])
    data = cert.raw.get("upper_certificate") or {}
    return (cert.method == "divergence-ceiling" and not data.get("class_size") and data.get("class_floor") is None
            and not cert.A.class_size_level)


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


def conjuncts(text):
    """The relations of a domain condition: a conjunction ``(a) & (b)`` is its parts (each a hypothesis of the
    theorem, the same statement curried), any other condition itself."""
    node = ast.parse(str(text).strip(), mode="eval").body
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitAnd):
        return conjuncts(ast.unparse(node.left)) + conjuncts(ast.unparse(node.right))
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And):
        return [c for v in node.values for c in conjuncts(ast.unparse(v))]
    return [str(text)]


def _describe(side):
    keys = ("family", "sides", "distance", "slack", "class_size_level", "uniform_class_level", "tail_ratio",
            "finite_level_of", "class_level")
    return ", ".join(f"{k} {getattr(side, k)}" for k in keys if getattr(side, k) not in (None, False))


def _slack_tv_b(cert) -> bool:
    """Is B the total variation a ``slack-pairs-tv`` certificate (or a composition through one) concludes from A's
    declared slack: B is then stated as its slack, as the lemma concludes it."""
    if cert.method == "composition" and cert.parts:
        return _slack_tv_b(cert.parts[0])
    return cert.method == "slack-pairs-tv"


def _pinsker_b(cert) -> bool:
    """Is B a total variation Pinsker's inequality bounds (a ``divergence-order`` certificate of fact ``pinsker``, or a
    composition through one): B is then stated as its additive slack, as the fact's theorem concludes it."""
    if cert.method == "composition" and cert.parts:
        return _pinsker_b(cert.parts[0])
    return (cert.method == "divergence-order" and (cert.raw.get("upper_certificate") or {}).get("fact") in (
        "pinsker", "joint-convexity+pinsker")) or (cert.method == "chi-square-tv" and (
            cert.raw.get("upper_certificate") or {}).get("case") in ("pairs", "removal"))


class _File:
    """The pieces of one theorem: its statement's parts and the helpers its proof uses."""

    def __init__(self, cert, name="certificate"):
        self.cert = cert
        self.tr = Translator(cert.symbols)
        self.domain = adapter.domain(cert)
        self.rd = self.domain.reader
        self.name = name
        self.doms = [self.tr.relation(d) for text in cert.domain for d in conjuncts(text)]
        self._naturals_only()
        self.parts = _partition_hyps(self.tr, cert)
        bound = cert.upper if cert.upper is not None else cert.lower
        if bound is None:
            raise Untranslatable("a certificate without upper or lower")
        self.upper = self.tr.expr(bound)
        self.a = side_predicate(self.tr, cert.A, self.tr.name("T"))
        div_a = adapter.divergence_side(cert.A)
        if div_a is not None and div_a.kind in ("tv", "hockey-stick"):
            # the library's divergence predicate also asks domination (q_l = 0 forces p_l = 0), more than total
            # variation or the hockey stick ask: as B a stronger conclusion, as A it would weaken the theorem; where
            # the lemma holds whatever A is, the theorem states B's bound on every table without A (stronger)
            if whatever_a(cert):
                self.a = None
            elif cert.method in SLACK_A_METHODS or (cert.method == "composition" and cert.parts
                                                     and cert.parts[0].method in SLACK_A_METHODS):
                # A at most T is exactly an additive slack on every event (gen_tv_distance): stated as such
                from implgraph.kernel_coq.gen_tv_distance import slack_predicate
                self.a = slack_predicate(self.tr, div_a, self.tr.name("T"))
            else:
                raise Untranslatable(f"A's {div_a.kind} predicate in the library asks domination, more than the "
                                     "definition (a theorem assuming it would claim less)")
        self.b = side_predicate(self.tr, cert.B, self.upper)
        self.b_of = lambda level: side_predicate(self.tr, cert.B, level)
        div_b = adapter.divergence_side(cert.B)
        pinsker_b = _pinsker_b(cert)
        if ((self.a or "").startswith("slack_") or pinsker_b) and (div_a is not None or _slack_tv_b(cert)) \
                and div_b is not None \
                and div_b.kind in ("tv", "hockey-stick"):
            # B of the same kinds as A, or B the total variation Pinsker's inequality bounds (gen_divergence), stated
            # as its slack too (exactly its level: no domination asked)
            from implgraph.kernel_coq.gen_tv_distance import slack_predicate
            if slack_predicate(self.tr, div_b, self.upper) is None:
                raise Untranslatable(f"B's {div_b.kind} ({div_b.compares}, order {div_b.order}) has no slack "
                                     "predicate in the library")
            self.b = slack_predicate(self.tr, div_b, self.upper)
            self.b_of = lambda level: slack_predicate(self.tr, div_b, level)
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
            except Exception:       # a denominator that is not a polynomial: left to nra (a square root: tried)
                if text.startswith("sqrt("):
                    lines.append(f"try (assert ({self.tr.expr(text)} <> 0) by {_SQRT_NZ})")
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


#: a square root nonzero where its argument is > 0 by lra (an exponential's sign known): field's side condition
_SQRT_NZ = ("(apply Rgt_not_eq, Rlt_gt, sqrt_lt_R0; first [lra | match goal with |- context [exp ?t] => "
            "pose proof (exp_pos t); lra end])")


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
