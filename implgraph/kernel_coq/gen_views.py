"""Coq proofs of ``intruder-views`` certificates (domingo-ferrer2015, Proposition 3).

The statement (the library's ``Views.v``): for every two data sets (tables of N1 and N2 records over the same K
values, sharing the whole table's distribution) whose two-sided class level is at most T, and wherever individual I
is in each (not in it, or one of its records), the intruder's view of I is U-private: every set of values has
``Pr(view1 in E) <= U Pr(view2 in E)``. The proof applies ``Views.intruder_views`` and proves its obligation on one
bucket from the certificate's data: for each pair of views (P/P, P/w, v/P, v/w) ``U y - x = sum(multiplier * fact)``
by ``ring``, each multiplier >= 0 on the domain by the shift argument, each fact a hypothesis.
"""

from __future__ import annotations

from implgraph.kernel_coq import adapter
from implgraph.kernel_coq.coqexpr import Translator, Untranslatable
from implgraph.kernel_coq.shift import nonneg_tactic

__all__ = ["intruder_views", "MODULES"]

MODULES = ("Views",)
#: the views model the library states (the certificate's B["model"] must be it)
MODEL = {"prior": "whole-table", "posterior": "class", "same_prior": True}
#: the obligation's facts: the certificate's name -> (Coq term, the hypothesis holding it >= 0)
FACTS = {"P_": ("vP", "F0"), "v_": ("vv", "F1"), "w_": ("vw", "F2"), "T*P_ - v_": ("T * vP - vv", "F3"),
         "T*v_ - P_": ("T * vv - vP", "F4"), "T*P_ - w_": ("T * vP - vw", "F5"), "T*w_ - P_": ("T * vw - vP", "F6"),
         "T - 1": ("T - 1", "F7")}
#: the pairs of views in the order of ``views_obl``'s conjunction: (x under D1, y under D2)
CASES = (("P/P", "vP", "vP"), ("P/w", "vP", "vw"), ("v/P", "vv", "vP"), ("v/w", "vv", "vw"))
_BOUND = {"K", "N1", "N2", "x1", "x2", "cls1", "cls2", "o1", "o2", "vP", "vv", "vw"}


def _case_lines(tr, rd, atoms, upper, x, y, mults):
    lines, terms = [], []
    for k, (fact, mult) in enumerate(mults.items()):
        if fact not in FACTS:
            raise Untranslatable(f"an intruder-views fact the library does not state: {fact}")
        lines.append(f"assert (L{k} : 0 <= {tr.expr(mult)}) by ({nonneg_tactic(tr, rd.poly(mult), atoms)}).")
        terms.append(f"({tr.expr(mult)}) * ({FACTS[fact][0]})")
        lines.append(f"pose proof {FACTS[fact][1]} as G{k}.")
    total = " + ".join(terms) if terms else "0"
    lines += [f"assert (HU : {upper} * {y} - {x} = {total}) by ring.",
              f"assert (G : 0 <= {total}) by "
              "(repeat apply Rplus_le_le_0_compat; apply Rmult_le_pos; assumption).",
              "lra."]
    return lines


def intruder_views(cert, name):
    """The Coq text of an ``intruder-views`` certificate's theorem ``name``."""
    raw = cert.raw if isinstance(cert, adapter.Cert) else cert
    B, A = raw.get("B") or {}, raw.get("A") or {}
    if B.get("view") != "k_I" or dict(B.get("model") or {}) != MODEL:
        raise Untranslatable("a view or views model the library does not state")
    if A.get("family") != "class" or A.get("sides") != "two-sided" or str(A.get("min_class", "1")) != "1":
        raise Untranslatable("intruder-views needs A a two-sided class level over every partition")
    symbols = dict(raw.get("symbols") or {})
    if _BOUND & set(symbols):
        raise Untranslatable(f"a symbol named like the theorem's own variables: {sorted(_BOUND & set(symbols))}")
    mults = (raw.get("upper_certificate") or {}).get("multipliers") or {}
    if set(mults) != {c for c, _, _ in CASES}:
        raise Untranslatable("intruder-views multipliers for other than the four pairs of views")
    tr = Translator(symbols)
    c = adapter.read(raw)
    dom = adapter.domain(c)
    for sym, kind in tr.kinds.items():
        if kind == "integer" and sym != "N" and adapter.positive.nonnegative(dom.reader.gens[sym], dom.atoms) is None:
            raise Untranslatable(f"integer symbol {sym} is not shown >= 0 on the domain (Coq reads it as a natural "
                                 "number)")
    upper = tr.expr(str(raw["upper"]))
    doms = [tr.relation(d) for d in c.domain]
    nats = sorted(s for s, k in tr.kinds.items() if k == "integer")
    reals = sorted(s for s, k in tr.kinds.items() if k != "integer")
    lines = [f"Theorem {name} : forall {tr.binders()},"] + [f"  {d} ->" for d in doms] + [
        "  forall (K N1 N2 : nat) (x1 x2 : nat -> nat -> R) (cls1 cls2 : nat -> nat) (o1 o2 : option nat),",
        "  table N1 K x1 -> table N2 K x2 -> (0 < N1)%nat -> (0 < N2)%nat ->",
        "  in_data N1 o1 -> in_data N2 o2 -> same_prior N1 N2 K x1 x2 ->",
        "  class_le TwoSided N1 K x1 cls1 (T) -> class_le TwoSided N2 K x2 cls2 (T) ->",
        f"  views_le N1 N2 K x1 x2 cls1 cls2 o1 o2 ({upper}).", "Proof."]
    hyps = " ".join(f"D{i}" for i in range(len(doms)))
    body = [" ".join(f"intros {' '.join(nats + reals)} {hyps} K N1 N2 x1 x2 cls1 cls2 o1 o2 "
                     "H1 H2 HN1 HN2 Ho1 Ho2 Hp HA1 HA2.".split()),
            f"apply (intruder_views N1 N2 K x1 x2 cls1 cls2 o1 o2 T ({upper})); [exact H1 | exact H2 | exact HN1 | "
            "exact HN2 | lra | exact Ho1 | exact Ho2 | exact Hp | exact HA1 | exact HA2 |].",
            "unfold views_obl. intros vP vv vw F0 F1 F2 F3 F4 F5 F6 F7.",
            "split; [| split; [| split]]."]
    atoms = list(dom.atoms)
    for case, x, y in CASES:
        body.append(f"- (* {case} *)")
        body += ["  " + ln for ln in _case_lines(tr, dom.reader, atoms, upper, x, y, mults[case])]
    return "\n".join(lines + ["  " + ln for ln in body] + ["Qed.\n"])
