"""Coq proofs of the ``chord`` certificates of each record within [1/T, T] of the table (a two-sided subset level of
size 1), or of a two-sided class level on B's partition, against a class divergence whose upper end is the narrowed
N - (N - 1)/T (``RecordClassChord.v``; the prover's :mod:`implgraph.prover.removal_record_class`; for a class level
``chord_class_narrow``: the records outside a class are a union of classes, each of mean ratio >= 1/T).

The library proves once that every record's ratio, and so every class's, lies in [1/T, N - (N - 1)/T] (the others'
N - 1 ratios each >= 1/T; ``record_class_xconf``) and that B is then at most the chord's value on any [lo, hi] around
it (``chord_record_class``); at T = 1 B is phi(1) (``record_class_one``). The certificate's data enter as in
:mod:`implgraph.kernel_coq.gen_chord`: ``lo <= 1/T``, ``N - (N - 1)/T <= hi`` and ``lo < hi`` by the shift argument
(``chord_steps._ineq``), the chord's value at most U by ``chord_steps._value`` (KL: the logarithms split into their
arguments' factors, then ``field``; Renyi of order 2: the chord's value at most X = exp(U)). An edited end or U fails
one of these steps, so ``coqc`` rejects the file.
"""

from __future__ import annotations

import sympy

__all__ = ["applies", "record_class", "removal_two", "removal_class_two"]


def _single(f) -> bool:
    """A two-sided subset level of size 1 (each record against the table)."""
    A = f.cert.A
    return A.family == "subset" and A.sides == "TwoSided" and A.size is not None and f.rd.poly(A.size) == f.rd.poly("1")


def applies(f, div, hi) -> bool:
    """A two-sided subset level of size 1, or a two-sided class level on B's classes (the same minimum size, neither a
    maximum), against a class divergence whose certificate's upper end is not T (the narrowed end: this module's)."""
    A, B = f.cert.A, f.cert.B
    same = A.family == "class" and A.sides == "TwoSided" and str(A.min_class or "1") == str(B.min_class or "1") \
        and not A.max_class
    return div.compares == "class" and not B.max_class and (((_single(f) or same) and str(hi) != "T")
                                                            or ((_one_record(f) or _one_sided_class(f))
                                                                and _narrowed(f)))


def _one_sided_class(f) -> bool:
    """A one-sided class level on B's classes of >= 1 record (basic beta-likeness), no maximum."""
    A, B = f.cert.A, f.cert.B
    return A.family == "class" and A.sides == "OneSided" and str(A.min_class or "1") == "1" \
        and str(B.min_class or "1") == "1" and not A.max_class


def _one_record(f) -> bool:
    """A one-sided subset level of size 1 (one record against the table at most T: pml)."""
    A = f.cert.A
    return A.family == "subset" and A.sides == "OneSided" and A.size is not None and f.rd.poly(A.size) == f.rd.poly("1")


def _narrowed(f) -> bool:
    """The certificate's interval is a narrowed piece of one record against the table at most T: lo not 0, or hi N
    (any other [0, hi] is :func:`gen_chord_removal.one_sided_class`'s)."""
    data = f.cert.raw.get("upper_certificate") or {}
    return f.rd.poly(str(data.get("lo"))) != f.rd.poly("0") or f.rd.poly(str(data.get("hi"))) == f.rd.poly("N")


def one_record(f, div, k, lo, hi, U):
    """Proof lines of one record against the table at most T, or of a one-sided class level on B's classes: on
    [0, hi] with hi >= N ``chord_class_upper`` at T0 = N (``cmean_le_N``, every table); on [lo, hi] with
    lo <= N - (N - 1) T, T <= hi ``chord_onesub_low`` (``chord_oneclass_low``) where T > 1, ``onesub_one``
    (``oneclass_one``) at T = 1."""
    from implgraph.kernel_coq.chord_steps import _at_one_value, _ineq, _value, _value0
    clo, chi = f.tr.expr(lo), f.tr.expr(hi)
    if f.rd.poly(lo) == f.rd.poly("0"):
        lines = ["assert (HN2 : 2 <= INR N) by lra."] + _ineq(f, "N", hi, "Hhi")
        value, below = _value0(f, div, k, hi, U)
        return lines + value + [f"exact (chord_class_upper {k} N K x cls (INR N) ({chi}) ({f.upper}) Htab "
                                f"(cmean_le_N N K x cls Htab) ltac:(lra) Hhi {below} Hval)."]
    low, at_one = ("chord_oneclass_low", "oneclass_one") if _one_sided_class(f) else ("chord_onesub_low", "onesub_one")
    one = ["rewrite <- E1 in HA |- *.", f"apply ({at_one} {k} N K x cls); [exact Htab | exact HA | lra |]."] \
        + _at_one_value(f, div, U)
    f.domain.atoms.append((">", f.rd.poly("T - 1")))      # the other case: T > 1 (lo < hi)
    try:
        lines = (["assert (HT : 0 < T) by lra.", "assert (HN2 : 2 <= INR N) by lra."]
                 + _ineq(f, lo, "N - (N - 1)*T", "Hlo") + _ineq(f, "T", hi, "Hhi")
                 + _ineq(f, lo, hi, "Hlh", strict=True))
        if div.kind == "kl":
            lines += _ineq(f, "0", lo, "Hl0", strict=True)
        lines += _value(f, div, lo, hi, U)
    finally:
        f.domain.atoms.pop()
    below_term = (f"(below_kl ({clo}) ({chi}) ltac:(lra) Hlh)" if div.kind == "kl"
                  else f"(below_renyi2 ({clo}) ({chi}) Hlh)")
    main = lines + [f"exact ({low} {k} N K x cls T ({clo}) ({chi}) ({f.upper}) Htab HA HN2 ltac:(lra) "
                    f"Hlo Hhi Hlh {below_term} Hval)."]
    return (["destruct (Rle_lt_or_eq_dec 1 T ltac:(lra)) as [HT1|E1]."]
            + ["{ " + main[0]] + [f"  {ln}" for ln in main[1:]] + ["}"]
            + ["{ " + one[0]] + [f"  {ln}" for ln in one[1:]] + ["}"])


def record_class(f, div, k, lo, hi, U):
    """Proof lines: where T > 1 ``chord_record_class`` (``chord_class_narrow`` for a class level) on [lo, hi]; at
    T = 1 ``record_class_one`` (``Divergence.one_class``)."""
    from implgraph.kernel_coq.chord_steps import _at_one_value, _ineq, _value
    if _one_record(f) or _one_sided_class(f):
        return one_record(f, div, k, lo, hi, U)
    clo, chi = f.tr.expr(lo), f.tr.expr(hi)
    single = _single(f)
    at_one = f"record_class_one {k} N K x cls); [exact Htab | exact HA | lra |]" if single else \
        f"one_class {k} N K x cls); [exact Htab | exact HA |]"
    one = ["rewrite <- E1 in HA |- *.", f"apply ({at_one}."] + _at_one_value(f, div, U)
    f.domain.atoms.append((">", f.rd.poly("T - 1")))      # the other case: T > 1 (lo < hi)
    try:
        lines = (_ineq(f, lo, "1/T", "Hlo") + _ineq(f, "N - (N - 1)/T", hi, "Hhi")
                 + _ineq(f, lo, hi, "Hlh", strict=True))
        if div.kind == "kl":
            lines += _ineq(f, "0", lo, "Hl0", strict=True)
        lines += ["assert (HT : 0 < T) by lra.", "assert (HN2 : 2 <= INR N) by lra."] + _value(f, div, lo, hi, U)
    finally:
        f.domain.atoms.pop()
    below_term = (f"(below_kl ({clo}) ({chi}) ltac:(lra) Hlh)" if div.kind == "kl"
                  else f"(below_renyi2 ({clo}) ({chi}) Hlh)")
    lemma = "chord_record_class" if single else "chord_class_narrow"
    main = lines + [f"exact ({lemma} {k} N K x cls T ({clo}) ({chi}) ({f.upper}) Htab HA HN2 ltac:(lra) "
                    f"Hlo Hhi Hlh {below_term} Hval)."]
    return (["destruct (Rle_lt_or_eq_dec 1 T ltac:(lra)) as [HT1|E1]."]
            + ["{ " + main[0]] + [f"  {ln}" for ln in main[1:]] + ["}"]
            + ["{ " + one[0]] + [f"  {ln}" for ln in one[1:]] + ["}"])


def removal_two(f, lo) -> bool:
    """Record removal against a class divergence on the piece N <= 2: the certificate's lower end 1/T (the pieces
    N >= 3 have 0 or N - (N - 1) T); the domain's N <= 2 is then a hypothesis ``chord_removal_two`` needs."""
    from implgraph.kernel_coq.chord_steps import _sym
    expr, names = _sym(f, lo)
    return "T" in names and sympy.simplify(expr - 1 / names["T"]) == 0


def removal_class_two(f, div, k, lo, hi, U):
    """Proof lines of record removal against a class divergence at N = 2 (the domain states N <= 2): where T > 1
    ``chord_removal_two`` on [lo, hi] around [1/T, 2 - 1/T]; at T = 1 ``one_subset_class``."""
    from implgraph.kernel_coq.chord_steps import _at_one_value, _ineq, _value
    clo, chi = f.tr.expr(lo), f.tr.expr(hi)
    one = (["rewrite <- E1 in HA |- *.", f"apply (one_subset_class {k} N K x cls); [exact Htab | exact HA | lra |]."]
           + _at_one_value(f, div, U))
    f.domain.atoms.append((">", f.rd.poly("T - 1")))      # the other case: T > 1 (lo < hi)
    try:
        lines = (["assert (HT : 0 < T) by lra.", "assert (HN2 : 2 <= INR N) by lra.",
                  "assert (HNle2 : INR N <= 2) by lra."]
                 + _ineq(f, lo, "1/T", "Hlo") + _ineq(f, "2 - 1/T", hi, "Hhi") + _ineq(f, lo, hi, "Hlh", strict=True))
        if div.kind == "kl":
            lines += _ineq(f, "0", lo, "Hl0", strict=True)
        lines += _value(f, div, lo, hi, U)
    finally:
        f.domain.atoms.pop()
    below_term = (f"(below_kl ({clo}) ({chi}) ltac:(lra) Hlh)" if div.kind == "kl"
                  else f"(below_renyi2 ({clo}) ({chi}) Hlh)")
    main = lines + [f"exact (chord_removal_two {k} N K x cls T ({clo}) ({chi}) ({f.upper}) Htab HA HN2 HNle2 HT "
                    f"Hlo Hhi Hlh {below_term} Hval)."]
    return (["destruct (Rle_lt_or_eq_dec 1 T ltac:(lra)) as [HT1|E1]."]
            + ["{ " + main[0]] + [f"  {ln}" for ln in main[1:]] + ["}"]
            + ["{ " + one[0]] + [f"  {ln}" for ln in one[1:]] + ["}"])
