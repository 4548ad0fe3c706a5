"""Coq proofs of ``set-channel-diversity`` certificates (sei2019 Theorems 2, 3 and Section VII-D).

The statement: for every value of the certificate's symbols on its domain, every table whose rows put at most
``1/eta`` on each value (``SetChannel.set_release``: a release of the set channel, each record's row uniform over its
``eta`` released values, is one) has B's class level (min-entropy ``1 / max q`` or Shannon ``exp H``) at least the
certificate's ``level`` in every class. The proof instantiates ``SetChannel.set_channel_minent`` (a class's mean row is
at most ``1/eta``), ``minent_mono`` (``level <= eta`` on the domain, by ``lra``) and, for Shannon,
``shannon_of_minent_level`` (``H(q) >= ln level``). The channel's p and domain size do not enter: the theorem holds
for every table of that shape, releases among them. Integer symbols must be >= 0 on the domain (Coq's naturals).
"""

from __future__ import annotations

from implgraph.kernel_coq import adapter
from implgraph.kernel_coq.coqexpr import Translator, Untranslatable

__all__ = ["set_channel_diversity", "MODULES"]

MODULES = ("SetChannel",)
#: B's class level -> (the library's predicate, the steps of lemma_chain the certificate names)
LEVELS = {"min-entropy": ("minent_ge", []), "shannon": ("shannon_ge", ["shannon>=min-entropy"])}


def set_channel_diversity(cert, name):
    """The Coq text of a ``set-channel-diversity`` certificate's theorem ``name``."""
    raw = cert.raw if isinstance(cert, adapter.Cert) else cert
    symbols = dict(raw.get("symbols") or {})
    level_kind = (raw.get("B") or {}).get("class_level")
    if level_kind not in LEVELS or list(raw.get("steps") or []) != LEVELS[level_kind][1]:
        raise Untranslatable(f"a set-channel class level or chain the library does not state ({level_kind}, "
                             f"{raw.get('steps')})")
    for reserved in ("N", "K", "x", "cls", "T"):
        if reserved in symbols:
            raise Untranslatable(f"a symbol named {reserved}")
    tr = Translator(symbols)
    dom = adapter.domain(adapter.read(raw))
    for sym, kind in symbols.items():
        if kind == "integer" and adapter.positive.nonnegative(dom.reader.gens[sym], dom.atoms) is None:
            raise Untranslatable(f"integer symbol {sym} is not shown >= 0 on the domain (Coq reads it as a natural "
                                 "number)")
    eta = tr.expr(str((raw.get("channel") or {})["eta"]))
    level = tr.expr(str(raw["level"]))
    doms = [tr.relation(d) for d in dict.fromkeys(raw.get("domain") or [])]
    nats = sorted(s for s, k in symbols.items() if k == "integer")
    reals = sorted(s for s, k in symbols.items() if k != "integer")
    binders = " ".join(b for b in (f"({' '.join(nats)} : nat)" if nats else "",
                                   f"({' '.join(reals)} : R)" if reals else "") if b)
    pred = LEVELS[level_kind][0]
    lines = [f"Theorem {name} : forall {binders},"] + [f"  {d} ->" for d in doms] + [
        "  forall (N K : nat) (x : nat -> nat -> R) (cls : nat -> nat),",
        f"  table N K x -> set_release N K x ({eta}) ->",
        f"  {pred} N K x cls ({level}).", "Proof."]
    hyps = " ".join(f"D{i}" for i in range(len(doms)))
    lines.append("  " + " ".join(f"intros {' '.join(nats + reals)} {hyps} N K x cls Htab HR.".split()))
    minent = (f"apply (minent_mono N K x cls ({eta}) ({level})); [exact Htab | lra | "
              f"apply (set_channel_minent N K x cls ({eta})); [exact Htab | lra | exact HR]]")
    if level_kind == "min-entropy":
        lines.append(f"  {minent}.")
    else:
        lines.append(f"  apply (shannon_of_minent_level N K x cls ({level})); [exact Htab | lra | {minent}].")
    return "\n".join(lines + ["Qed.\n"])
