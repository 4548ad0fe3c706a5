"""Coq proofs of ``chord`` certificates: a two-sided ratio level A bounds an f-divergence B by the chord's value.

The library's ``Divergence.v`` proves the chord lemma once (``chord``: where every ratio of the two distributions
lies in [lo, hi] and phi lies below its chord there, the divergence is at most the chord's value at 1) and its two
instances by the compared distributions: ``chord_pairs`` (A pairwise at T, B between every two records) and
``chord_class`` (A a two-sided class level at T, B between each class and the table). Each needs A's interval
[1/T, T] inside the certificate's [lo, hi], phi below its chord (``below_kl``, ``below_renyi2``, ``below_tv``,
``below_hockey``) and the chord's value at most U (``chord_kl``, ``chord_renyi2``, ``chord_tv``, ``chord_hockey``).

The certificate's data enter as follows: lo and hi are the certificate's (``lo <= 1/T``, ``T <= hi``, ``lo < hi``
from ``lo = P/Q``-style quotients, signed by the shift argument: the library's ``ge_from_ratio``); U against the
chord's value: for KL each logarithm is split into the logarithms of its argument's irreducible factors (each shown
> 0 on the domain; ``ln_frac`` and ``ln_mult``), then the identity by ``field``; for Renyi of order 2 the chord's
value is at most exp(U) = X (X the certificate's U read back, ``ln X = U`` the same way); total variation and the
hockey stick by a quotient's sign. An edited lo, hi or U makes one of these steps fail, so ``coqc`` rejects the file.

Record removal both ways and the domain's denominators: :mod:`gen_chord_removal`; each record against the table
with the narrowed end N - (N - 1)/T: :mod:`gen_chord_record_class`; the steps all of them share (an inequality by
the shift argument, the logarithms split, a U that is a maximum, the chord's value at most U): :mod:`chord_steps`.
Not covered
(:class:`Untranslatable`): Renyi of an order other than 2 or oo, sides the library's lemmas do not pair."""

from __future__ import annotations

from implgraph.kernel_coq import adapter
from implgraph.kernel_coq import gen_chord_record_class as narrow
from implgraph.kernel_coq.chord_steps import _at_one_value, _ineq, _log_identity, _Logs, _value
from implgraph.kernel_coq.coqexpr import Untranslatable
from implgraph.kernel_coq.obligations import _need
from implgraph.kernel_coq.statement import divergence_kind

__all__ = ["chord", "METHODS", "MODULES"]

MODULES = ("Divergence", "RemovalChord", "RecordClassChord")      # the library modules the lemmas live in


def chord(f):
    """Proof lines of a ``chord`` certificate (``f`` the generator's file of it): the domain's conditions with a
    denominator cleared, then the argument's lemma."""
    from implgraph.kernel_coq.gen_chord_removal import domain_lines
    pre = domain_lines(f)
    return pre + _chord(f)


def _chord(f):
    from implgraph.kernel_coq.gen_chord_removal import (one_sided_class, rconf_removal, single_to_classes,
                                                        subset_class_above)
    cert = f.cert
    A = cert.A
    div = adapter.divergence_side(cert.B)
    _need(div is not None, "a chord certificate whose B declares no divergence")
    k = divergence_kind(f.tr, div)
    _need(k is not None, f"a divergence the library does not state ({div.kind} of order {div.order})")
    _need(div.kind != "renyi" or int(div.order) == 2, "Renyi of another order than 2")
    pre, data = [], cert.raw.get("upper_certificate") or {}
    lo, hi, U = str(data.get("lo")), str(data.get("hi")), cert.upper
    _need(cert.upper is not None and data.get("lo") is not None and data.get("hi") is not None,
          "a chord certificate without lo, hi and U")
    if narrow.applies(f, div, hi):      # each record or class against the table, the end N - (N - 1)/T
        return narrow.record_class(f, div, k, lo, hi, U)
    if A.family == "pairwise" and A.sides == "TwoSided" and div.compares == "pairs":
        lemma = "chord_pairs"
    elif A.family == "class" and A.sides == "TwoSided" and div.compares == "class" and _same(A, cert.B):
        lemma = "chord_class"
    elif A.family == "class" and A.sides == "OneSided" and div.compares == "class" and _same(A, cert.B):
        return one_sided_class(f, div, k, lo, hi, U)
    elif A.family == "pairwise" and A.sides == "TwoSided" and div.compares == "removal":
        if hi != "T" or "Max" in str(U):     # the narrowed interval, both ways
            return rconf_removal(f, div, k, lo, hi, U)
        lemma = "chord_pairs_removal"
    elif A.family == "pairwise" and A.sides == "TwoSided" and div.compares == "class" \
            and str(cert.B.min_class or "1") == "1" and not cert.B.max_class:
        lemma = "chord_pairwise_class"
    elif A.family == "subset" and A.sides == "TwoSided" and A.size is not None and div.compares == "removal" \
            and f.rd.poly(A.size) == f.rd.poly("N - 1"):
        if hi != "T" or "Max" in str(U):     # the larger of two chords (phi's and its perspective's)
            return rconf_removal(f, div, k, lo, hi, U)
        lemma = "chord_subset_removal"
    elif A.family == "subset" and A.sides == "TwoSided" and A.size is not None and div.compares == "class" \
            and f.rd.poly(A.size) == f.rd.poly("N - 1"):
        if lo != "0":       # the piece N <= 2 ([1/T, 2 - 1/T]), or N - (N - 1) T below N/(N - 1)
            return (narrow.removal_class_two if narrow.removal_two(f, lo) else subset_class_above)(f, div, k, lo, hi, U)
        return _subset_class(f, div, k, lo, hi, U)
    elif A.family == "subset" and A.sides == "TwoSided" and A.size is not None and div.compares == "removal" \
            and f.rd.poly(A.size) == f.rd.poly("1"):
        return rconf_removal(f, div, k, lo, hi, U)
    elif A.family == "subset" and A.sides == "OneSided" and A.size is not None and div.compares == "class" \
            and f.rd.poly(A.size) == f.rd.poly("1"):
        return one_sided_class(f, div, k, lo, hi, U, "(onesub_upper N K x cls T HA)")
    elif pre := single_to_classes(f, div):      # each record against the table: every class too
        lemma = "chord_class"
    else:
        raise Untranslatable("a chord certificate other than A pairwise against pairs, A a class level against the "
                             "same classes or A a removal level against the classes (lo = 0)")
    one = _at_one(f, div, k, lemma, U)
    f.domain.atoms.append((">", f.rd.poly("T - 1")))      # the other case: T > 1 (lo < hi)
    try:
        main = _above_one(f, div, k, lemma, lo, hi, U)
    finally:
        f.domain.atoms.pop()
    return pre + (["destruct (Rle_lt_or_eq_dec 1 T ltac:(lra)) as [HT1|E1]."]
            + ["{ " + main[0]] + [f"  {ln}" for ln in main[1:]] + ["}"]
            + ["{ " + one[0]] + [f"  {ln}" for ln in one[1:]] + ["}"])


def _same(a, b):      # two class sides on the same classes: the same minimum size, neither a maximum
    return str(a.min_class or "1") == str(b.min_class or "1") and not a.max_class and not b.max_class


def _subset_class(f, div, k, lo, hi, U):
    """A the subset level of size N - 1 against each class and the table (``chord_subset_class``), lo = 0: every
    ratio lies in [0, N - (N - 1)/T], and 0 < hi for every T >= 1 (no case T = 1)."""
    clo, chi = f.tr.expr(lo), f.tr.expr(hi)
    lines = _ineq(f, lo, "0", "Hlo0") + _ineq(f, "N - (N - 1)/T", hi, "Hhi") + _ineq(f, lo, hi, "Hlh", strict=True)
    lines += ["assert (HT : 0 < T) by lra.", "assert (HN2 : 2 <= INR N) by lra."]
    if div.kind == "kl":
        lines += _ineq(f, "0", hi, "Hh0", strict=True)
        head = f"assert (Hval : chord_val (phi_of {k}) ({clo}) ({chi}) <= dbound {k} ({f.upper}))."
        body = _log_identity(f, f"log({hi})", U, _Logs(f))
        lines += [head,
                  f"{{ replace ({clo}) with 0 by lra. apply chord_kl0; [exact Hh0 |].",
                  *[f"  {ln}" for ln in body], "}"]
        below_term = f"(below_kl ({clo}) ({chi}) Hl0 Hlh)"
        lines.insert(0, f"assert (Hl0 : 0 <= {clo}) by lra.")
    else:
        lines += _value(f, div, lo, hi, U)
        below_term = f"(below_renyi2 ({clo}) ({chi}) Hlh)"
    lines.append(f"exact (chord_subset_class {k} N K x cls T ({clo}) ({chi}) ({f.upper}) Htab HA HN2 HT "
                 f"(or_introl Hlo0) Hhi Hlh "
                 f"{below_term} Hval).")
    return lines


def _at_one(f, div, k, lemma, U):
    """At T = 1 (``E1 : 1 = T``) A's compared distributions are equal and B's divergence is phi(1): the library's
    ``one_pairs`` / ``one_class``, and phi(1) <= U(1) (``one_kl``, ...: U(1) >= 0)."""
    one, extra = {"chord_class": ("one_class", " cls"), "chord_pairs": ("one_pairs", ""),
                  "chord_pairwise_class": ("one_pairwise_class", " cls"),
                  "chord_pairs_removal": ("one_pairs_removal", ""),
                  "chord_subset_removal": ("one_subset_removal", "")}[lemma]
    n2 = " | lra" if "removal" in lemma else ""
    lines = ["rewrite <- E1 in HA |- *.", f"apply ({one} {k} N K x{extra}); [exact Htab | exact HA{n2} |]."]
    return lines + _at_one_value(f, div, U)


def _above_one(f, div, k, lemma, lo, hi, U):
    """Where T > 1: the chord lemma on [lo, hi] (lo < hi)."""
    clo, chi = f.tr.expr(lo), f.tr.expr(hi)
    if lemma == "chord_pairwise_class":     # a class's ratio to the table: [N/(1 + (N - 1) T), N T/(N + T - 1)]
        lines = (_ineq(f, lo, "N/(1 + (N - 1)*T)", "Hlo") + _ineq(f, "N*T/(N + T - 1)", hi, "Hhi")
                 + _ineq(f, lo, hi, "Hlh", strict=True) + _ineq(f, "0", lo, "Hl0", strict=True))
        value = _value(f, div, lo, hi, U)
        below = (f"(below_kl ({clo}) ({chi}) ltac:(lra) Hlh)" if div.kind == "kl"
                 else f"(below_renyi2 ({clo}) ({chi}) Hlh)")
        return lines + value + [f"exact (chord_pairwise_class {k} N K x cls T ({clo}) ({chi}) ({f.upper}) Htab HA "
                                f"ltac:(lra) Hlo Hhi Hlh ltac:(lra) {below} Hval)."]
    lines = _ineq(f, lo, "1/T", "Hlo") + _ineq(f, "T", hi, "Hhi") + _ineq(f, lo, hi, "Hlh", strict=True)
    lines += ["assert (HT : 0 < T) by lra."]
    value = _value(f, div, lo, hi, U)
    below = {"kl": "below_kl", "renyi": "below_renyi2", "tv": "below_tv", "hockey-stick": "below_hockey"}[div.kind]
    if div.kind == "kl":
        lines += _ineq(f, "0", lo, "Hl0", strict=True)
        below_term = f"(below_kl ({clo}) ({chi}) ltac:(lra) Hlh)"
    elif div.kind == "hockey-stick":
        below_term = f"(below_hockey _ ({clo}) ({chi}) Hlh)"
    else:
        below_term = f"({below} ({clo}) ({chi}) Hlh)"
    lines += value
    n2 = "ltac:(lra) " if "removal" in lemma else ""
    lines.append(f"exact ({lemma} {k} N K x {'cls ' if lemma == 'chord_class' else ''}T ({clo}) ({chi}) ({f.upper}) "
                 f"Htab HA {n2}HT Hlo Hhi Hlh {below_term} Hval).")
    return lines


METHODS = {"chord": chord}       # certificate method -> proof lines (leaf methods of the generator)
