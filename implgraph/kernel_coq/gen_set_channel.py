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


#: the library module of ``set-channel-whole-domain``
WHOLE_MODULES = ("Bayes", "Transport")


def _nat(text, symbols):
    """A natural number's Coq term: an integer symbol or a constant >= 0 (the channel's eta and domain size)."""
    t = str(text).strip()
    if t.isdigit():
        return t
    if symbols.get(t) == "integer":
        return t
    raise Untranslatable(f"a channel size that is not an integer symbol or a natural constant: {text}")


def set_channel_whole_domain(cert, name):
    """The Coq text of a ``set-channel-whole-domain`` certificate's theorem ``name`` (sei2019 Table V): every class's
    mean Bayes posterior of any release of the channel is within the certificate's ``level`` of the prior (EMD, any
    ground distance), by ``Bayes.whole_domain``; its premises (eta = d, d >= 1, 0 <= p <= 1, level >= 0) from the
    domain by ``lra``."""
    raw = cert.raw if isinstance(cert, adapter.Cert) else cert
    symbols = dict(raw.get("symbols") or {})
    B, ch = raw.get("B") or {}, raw.get("channel") or {}
    if B.get("definition") != "emd-t-closeness" or B.get("inference") != "bayes":
        raise Untranslatable("a whole-domain release judged by other than EMD t-closeness of the Bayes posteriors")
    if set(symbols) & {"N", "a", "dist", "Z", "cls", "i"}:
        raise Untranslatable("a symbol named like the theorem's own variables")
    tr = Translator(symbols)
    K, eta = _nat(ch.get("domain_size"), symbols), _nat(ch.get("eta"), symbols)
    p, level = tr.expr(str(ch.get("p"))), tr.expr(str(raw.get("level")))
    doms = [tr.relation(d) for d in dict.fromkeys(raw.get("domain") or [])]
    nats = sorted(s for s, k in symbols.items() if k == "integer")
    reals = sorted(s for s, k in symbols.items() if k != "integer")
    binders = " ".join(b for b in (f"({' '.join(nats)} : nat)" if nats else "",
                                   f"({' '.join(reals)} : R)" if reals else "") if b)
    hyps = " ".join(f"D{i}" for i in range(len(doms)))
    lines = [f"Theorem {name} : forall {binders},"] + [f"  {d} ->" for d in doms] + [
        "  forall (N : nat) (a : nat -> R) (dist : nat -> nat -> R) (Z : nat -> rset) (cls : nat -> nat),",
        f"  prior {K} a -> ground {K} dist -> releases N {K} {eta} Z ->",
        f"  forall i, (i < N)%nat -> emd_le {K} dist a (class_posterior N {K} {eta} ({p}) a Z cls i) ({level}).",
        "Proof.",
        "  " + " ".join(f"intros {' '.join(nats + reals)} {hyps} N a dist Z cls Ha Hd HZ i Hi.".split()),
        f"  apply (whole_domain N {K} {eta} ({p}) a dist Z cls ({level})); [first [reflexivity | apply INR_eq; lra] "
        "| apply INR_le; simpl; lra | lra | exact Ha | exact Hd | exact HZ | lra | exact Hi].", "Qed.\n"]
    return "\n".join(lines)
