"""The chord argument: a ratio definition A bounds an f-divergence B of two averages (docs/sections/divergences.md).

B's level is a divergence declared with :class:`implgraph.definitions.divergences.Divergence` between two
distributions x and y over the buckets (two records, a class and the table, the table and the table without one
record). It is ``sum_l y_l phi(r_l)`` with r_l = x_l / y_l and phi convex (r log r for KL, r^alpha for
exp((alpha - 1) D_alpha), |r - 1|/2 for total variation, max(r - gamma, 0) for the hockey-stick slack).

A is a two-sided ratio of averages (its declared family and sides, never its name) at raw level T: it bounds every
ratio r_l between the two distributions B compares to [lo, hi] = [1/T, T]:

- B compares pairs of records, A is pairwise: A's own ratios;
- B compares the table with the table without one record (KL, Renyi of a finite order, total variation), A is
  pairwise: Q_i/P = N/(N - 1 + x_i/Q_i) with x_i/Q_i in [1/T, T] (a mediant of records within ratio T of x_i), so the
  interval narrows to [N/(N - 1 + T), N T/((N - 1) T + 1)]; B is at most the larger chord of phi and of its
  perspective there (:func:`removal_upper`; total variation is its own), both attained by one record at
  (T, 1)/(T + 1) and N - 1 at (1, T)/(T + 1), for every N (docs/proofs/tight-pairwise-removal.md); the hockey-stick
  at a number gamma >= 1 too (:func:`implgraph.prover.removal_supremum.hockey_both_ways`);
- B compares the table with the table without one record (KL, Renyi of a finite order, both ways; total variation,
  the hockey-stick), A compares each record with the table (a subset level of size 1): Q_i/P = (N - x_i/P)/(N - 1)
  lies in [1/T, (N - 1/T)/(N - 1)], narrower piece by piece in T (:func:`single_removal_supremum`: lower end
  (N - T)/(N - 1) where T <= N - 1), tight (docs/proofs/tight-lip-removal.md);
- the same B, A every subset of N - k records against the table (k not 1, N - 1): :func:`subset_removal_interval`;
- B compares a class with the table, A compares the classes of the same partition with the table (KL, Renyi of order
  2, classes of >= 1 record: also <= N - (N - 1)/T, tight piece by piece as below), or A is pairwise;
- B compares the table with the table without one record, A compares the subsets of N - 1 records with the table, or A
  is pairwise; for the former the interval of q = Q_i/P narrows to [1/T, h], tight for every N (proof page
  docs/proofs/chord-removal.md): x_i = N P - (N - 1) Q_i >= 0 gives q <= N/(N - 1), and at N = 2 (Q_1 = x_2,
  Q_2 = x_1) Q_1/P = 2 - Q_2/P <= 2 - 1/T; so h = 2 - 1/T at N = 2, T where N >= 3 and T <= N/(N - 1), N/(N - 1)
  beyond. D(Q_i || P) = sum_l P_l phi(q_l) and D(P || Q_i) = sum_l P_l psi(q_l) with psi(q) = q phi(1/q), the
  perspective (-log q for KL, q^(1 - alpha) for Renyi), convex too: B is at most the larger of the two chords, and
  both are attained by one table, P = (L, 1 - L), L = (1 - 1/T)/(h - 1/T), N - 1 records at Q = (h L, (1 - L)/T) and
  one at N P - (N - 1) Q (:func:`removal_supremum`, KL and Renyi of a finite order);
- B compares a class of >= s records with the table, A is pairwise: the class's ratio to the table is
  N/(s' + (N - s') r), r (the rest's mean over the class's) in [1/T, T], so it lies in
  [N/(s + (N - s) T), N T/(s T + N - s)]; attained by s records at (T, 1)/(T + 1) in one class and N - s at
  (1, T)/(T + 1) in another, where N >= 2 s;
- B compares a class of >= s records with the table, A a two-sided level of each record against the table (a subset
  level of size 1): a class's mean is an average of records, so its ratios lie in [1/T, T] on any partition; attained
  by s records at (T, 1)/(T + 1) in one class and N - s at ((N - s T)/((N - s)(T + 1)), ...) in another where
  N >= s (T + 1). For s = 1 (KL, Renyi of order 2) also <= N - (N - 1)/T (the others each >= 1/T): the supremum
  piece by piece in T, tight for every N (:mod:`implgraph.prover.removal_record_class`);
- B compares a class with the table, A is a one-sided class level on the same partition (only m_l/P_l <= T where the
  class lies above the table): every ratio lies in [0, T] (at most 1 <= T elsewhere), so KL and every Renyi order are
  at most the chord's log T (L = 1/T). An upper bound: A bounds no ratio from below, and the two-point table
  (s records at (1, 0), N - s at ((N/T - s)/(N - s), ...)) attains it only where N/(N - s) <= T <= N/s
  (docs/proofs/chord-one-sided.md); on classes of >= 1 record the others narrow it as for one record below (a class's
  ratio >= N - (N - 1) T, the rest a union of classes each <= T, and <= N): the supremum piece by piece in T;
- B compares a class with the table, A is a one-sided level of one record against the table (pointwise maximal
  leakage: x_i(l) <= T P_l for every record): a class's mean is an average of records, so every ratio lies in [0, T] on
  any partition and KL and every Renyi order are at most log T (tight where N/(N - 1) <= T <= N); for KL and Renyi of
  order 2 also >= N - (N - 1) T and <= N (the others' ratios each in [0, T]): the supremum piece by piece in T, tight
  for every N (:func:`implgraph.prover.removal_record_class.one_record_supremum`);
- B compares a class with the table, A compares the subsets of N - 1 records with the table (record removal): each
  record is x_i = N P - (N - 1) Q_i with Q_i/P in [1/T, T], so x_i/P and a class's mean's ratio lie in
  [max(0, N - (N - 1) T), N - (N - 1)/T]: the bound log(N - (N - 1)/T) for every T, and beside it the supremum piece
  by piece (:func:`removal_class_supremum`: the chord on [0, c] where T >= N/(N - 1), on [N - (N - 1) T, c] below,
  on [1/T, 2 - 1/T] at N = 2, where x_1 = Q_2), attained by one record at ratios (c, lo) in a class of its own and the
  N - 1 others alike. Against the removal total variation and hockey-stick the pieces of :func:`removal_supremum`
  (docs/proofs/chord-small-pieces.md).

Since sum_l y_l r_l = 1 and phi lies below its chord on [lo, hi], sum_l y_l phi(r_l) <= L phi(hi) + (1 - L) phi(lo)
with L = (1 - lo)/(hi - lo) (the y-mass at hi): D <= L phi(hi) + (1 - L) phi(lo), and for Renyi
D_alpha <= log(L hi^alpha + (1 - L) lo^alpha)/(alpha - 1). Renyi of order oo (the largest log ratio) is at most log hi.
The bound is attained by two records of two buckets with ratios hi and lo (y = (L, 1 - L)), as each case says. Where
A compares other record sets than B the bound is stated as an upper bound only. :func:`bound` returns the
:class:`implgraph.engines.bounds.Bound` or None (not its case); :func:`certificate_parts` writes the certificate's
lemma data, which :mod:`implgraph.certify.lemmas.chord` re-checks on its own.
"""

from __future__ import annotations

import sympy

from implgraph.core import methods
from implgraph.core.formula import parse_expr
from implgraph.definitions.capabilities import SubsetSize
from implgraph.definitions.divergences import divergence_of
from implgraph.prover import registry
from implgraph.prover.chord_value import chord_upper, convex_on
from implgraph.prover import removal_record_class as single_class
from implgraph.prover.removal_record_class import removal_class_pieces, removal_class_supremum, removal_class_upper
from implgraph.prover.removal_supremum import (_numeric_hockey, both_ways, narrows_pairwise_removal, piece_of,
                                               removal_pieces, removal_rows, removal_supremum, removal_upper)
from implgraph.prover.removal_chords import (SUBSET_REMOVAL_TEXT, single_pieces, single_record_removal,
                                             single_removal_supremum, subset_removal, subset_removal_bound,
                                             subset_removal_interval)
from implgraph.prover.shapes import compares as _two_sided
from implgraph.prover.shapes import decide, declared_subset_size, one_sided, ratio_sides

METHOD = methods.CHORD

__all__ = ["bound", "interval", "chord_upper", "family_rows", "certificate_parts", "certificate_family", "convex_on",
           "removal_pieces", "removal_upper", "removal_supremum", "removal_rows"]

_R = sympy.Symbol("r", positive=True)


def interval(a, b, N, ja, a_classes, b_classes, b_params=None):
    """``(lo, hi, same)``: the interval A at raw level T confines B's compared ratios to, and whether A compares the
    same record sets as B (then the bound is attained); None when A bounds none of them."""
    from implgraph.prover.answer import T
    div = divergence_of(b, b_params)
    if div is not None and div.compares == "class" and one_sided(a, "class"):
        # a one-sided class level on B's partition: every ratio m_l/P_l lies in [0, T] (at most 1 where m_l <= P_l)
        return (sympy.Integer(0), T, False) if _same_partition(a_classes, b_classes) else None
    if div is not None and div.compares == "class" and _one_record(a):
        # one record against the table, one-sided (pml): x_i(l) <= T P_l for every record, so a class's mean too: every
        # ratio m_l/P_l lies in [0, T], on any partition
        return sympy.Integer(0), T, False
    if div is None or ratio_sides(a) != "two-sided":
        return None
    if _two_sided(a, "pairwise") and div.compares == "class":
        # a class of s' >= s records against the table: N/(s' + (N - s') r) with r = the rest's mean over the class's,
        # in [1/T, T]: within the interval of s' = s
        s = sympy.sympify((b_classes or {}).get("min_size", 1))
        return N / (s + (N - s) * T), N * T / (s * T + N - s), not (b_classes or {}).get("max_size")
    if div.compares == "class" and _two_sided(a, "subset") and ja is not None and sympy.simplify(ja - 1) == 0:
        # each record against the table within [1/T, T] (a two-sided subset level of size 1): a class's mean is an
        # average of records, so its ratios to the table too, on any partition (docs/proofs/tight-one-sided-chord.md)
        return 1 / T, T, not (b_classes or {}).get("max_size")
    if _two_sided(a, "pairwise") and div.compares == "removal" and narrows_pairwise_removal(div):
        # Q_i/P = N/(N - 1 + x_i/Q_i), x_i/Q_i in [1/T, T] (Q_i a mean of records each within ratio T of x_i)
        return N / (N - 1 + T), N * T / ((N - 1) * T + 1), True
    if _two_sided(a, "pairwise"):
        return 1 / T, T, div.compares == "pairs"
    removal = _two_sided(a, "subset") and ja is not None and sympy.simplify(ja - (N - 1)) == 0
    if subset_removal(a, div, ja, N):
        # every subset of ja records within [1/T, T] of the table, k = N - ja >= 2 removed: Q_i/P (bucket by bucket) is
        # the mean of the others' ratios y; within [1/T, T] (a mean of subsets of the others), (N - k y)/(N - k) in
        # [1/T, T] (the mean of the subsets holding record i), y <= N/(N - 1) (x_i >= 0)
        return (*subset_removal_interval(N, N - ja), True)
    if single_record_removal(a, div, ja):
        # each record against the table: Q_i/P = (N - x_i/P)/(N - 1) <= (N - 1/T)/(N - 1), and >= 1/T (a mean of
        # records each >= 1/T of the table); narrower piece by piece (single_removal_supremum)
        return 1 / T, (N - 1 / T) / (N - 1), False
    if div.compares == "class" and _two_sided(a, "class"):
        return (1 / T, T, True) if _same_partition(a_classes, b_classes) else None
    if div.compares == "removal" and removal:
        return 1 / T, T, True
    if div.compares == "class" and removal:
        # each record x_i = N P - (N - 1) Q_i with Q_i/P in [1/T, T]: x_i/P <= N - (N - 1)/T; a class mean too
        return sympy.Integer(0), N - (N - 1) / T, False
    return None


def _one_record(a) -> bool:
    """Is ``a`` a one-sided subset level of one record (its declared size the number 1, whatever the parameters)?"""
    size = a.declared(SubsetSize)
    return one_sided(a, "subset") and size is not None and size.formula() == 1


def _same_partition(a_classes, b_classes) -> bool:
    """Do A and B read the same classes (the same minimum size, B without a maximum)?"""
    one = {"min_size": sympy.Integer(1)}
    return (a_classes or one) == (b_classes or one) and not (b_classes or {}).get("max_size")


def family_rows(compares, T, N, s=1, a_family=None):
    """The attaining table: ``[(count, first bucket's value, class)]`` of binary rows."""
    x, y = T / (T + 1), 1 / (T + 1)
    if compares == "pairs" or (compares == "class" and a_family == "pairwise"):
        if compares == "class":
            return [(str(s), x, "E1"), (f"N - {s}", y, "E2")]
        return [("1", x, "E1"), ("N - 1", y, "E2")]
    if compares == "class":
        return [(str(s), x, "E1"), (f"N - {s}", sympy.cancel((N - s * T) / ((N - s) * (T + 1))), "E2")]
    # removal: Q (the others) = (T, 1)/(T + 1) against P = (1, T)/(T + 1): the removed record at N P - (N - 1) Q
    return [("1", sympy.cancel(N / (T + 1) - (N - 1) * T / (T + 1)), "E1"), ("N - 1", x, "E2")]


def _attained_where(compares, T, N, s, a_family=None):
    if compares == "removal" and a_family == "pairwise":
        return sympy.true
    if compares == "pairs" or (compares == "class" and a_family == "pairwise" and s == 1):
        return sympy.true
    if compares == "class" and a_family == "pairwise":
        return sympy.Ge(N, 2 * s)
    if compares == "class":
        return sympy.Ge(N, s * (T + 1))
    return sympy.And(sympy.Ge(N, 3), sympy.Le(T, N / (N - 1)))


def bound(a, b, a_params, b_params, region, N, a_classes=None, b_classes=None, ja=None):
    """The chord :class:`Bound` of B's divergence given A's ratio level T, or None (not its case)."""
    from implgraph.prover.answer import T, Bound
    div = divergence_of(b, b_params)
    if div is None:
        return None
    got = interval(a, b, N, ja, a_classes, b_classes, b_params)
    if got is None:
        return None
    lo, hi, same = got
    phi = div.phi(_R)
    if phi is None and div.order is not sympy.oo:      # no f-divergence (the zero-concentrated level): not its case
        return None
    if phi is not None and convex_on(phi, lo, hi) is not True:
        return None
    pairwise_removal = _two_sided(a, "pairwise") and narrows_pairwise_removal(div)
    subset = subset_removal(a, div, ja, N)
    # (record removal against the hockey-stick: its two chords' maximum, as the checker reads it)
    hockey = div.compares == "removal" and _numeric_hockey(div) and _two_sided(a, "subset")
    upper = both_ways(div, lo, hi, subset) if pairwise_removal or subset or hockey \
        or single_record_removal(a, div, ja) else chord_upper(div, lo, hi)
    s = sympy.sympify((b_classes or {}).get("min_size", 1))
    where = _attained_where(div.compares, T, N, s, "pairwise" if _two_sided(a, "pairwise") else None) if same \
        else sympy.false
    where, upper = subset_removal_bound(upper, ja, N) if subset else (where, upper)
    if where not in (sympy.true, sympy.false) and decide(region, where) is True:
        where = sympy.true      # the claim's condition implies it (A's size k <= N - 1 gives N >= k + 1)
    one_sided_class = not same and lo == 0 and hi == T and div.compares == "class" and phi is not None \
        and (one_sided(a, "class") or _one_record(a))
    if one_sided_class:
        # s records at (1, 0) alone, N - s at ((N/T - s)/(N - s), ...): the class's ratios T and 0
        s_one = sympy.Integer(1) if _one_record(a) else s
        where = sympy.And(sympy.Ge(T, N / (N - s_one)), sympy.Le(T, N / s_one))
    argument = (f"B is the {div.kind} divergence{_order_text(div)} between the distributions it compares "
                f"({div.compares}); A bounds each of their bucket ratios r to [{lo}, {hi}]; phi(r) = {phi} is convex "
                "there and sum y r = 1, so B <= L phi(hi) + (1 - L) phi(lo) with L = (1 - lo)/(hi - lo)"
                + (" (Renyi: of exp((alpha - 1) D), log is increasing)" if div.kind == "renyi" else "")
                + ("; the table against the table without record i both ways: B <= the larger chord of phi and of "
                   "its perspective psi(q) = q phi(1/q) (convex too; for total variation psi = phi), both attained by "
                   "one record at (T, 1)/(T + 1) and N - 1 at (1, T)/(T + 1) (x_i/Q_i = T, 1/T)"
                   if pairwise_removal else SUBSET_REMOVAL_TEXT if subset else "")
                + ("; attained by two buckets with ratios hi and lo" if same else
                   f"; A bounds the ratios from above only, yet the chord's ends T and 0 are reached where {where}: "
                   f"{s_one} record(s) at (1, 0) in a class of their own and N - {s_one} at ((N/T - {s_one})/(N - "
                   f"{s_one}), ...) in another put the table's first bucket at 1/T, so the class's ratios are T and 0, "
                   f"the others' at most 1 and N/(N - {s_one}) <= T (A at T); elsewhere tightness is not derived "
                   "(docs/proofs/tight-one-sided-chord.md)" if one_sided_class else
                   "; A bounds the ratios from above only: an upper bound, tightness not derived"
                   if one_sided(a, "class") or _one_record(a) else
                   "; A compares other record sets than B: an upper bound, tightness not derived"))
    build = None
    if one_sided_class:
        from implgraph.prover.tables import two_blocks
        build = two_blocks(N, s_one, lambda t, n, sv: (1, (sympy.Rational(n) / t - sv) / (n - sv)))
    out = Bound(upper, bool(same) or one_sided_class, methods.CHORD.name, argument, build=build,
                checks=[f"phi'' >= 0 on [{lo}, {hi}]: True"], attained_where=where)
    return _with_supremum(out, a, div, N, ja, b_classes, argument, (lo, hi, same, subset))


def _with_supremum(out, a, div, N, ja, b_classes, argument, case):
    """``out`` with its ``exact``: the supremum, piece by piece, where the interval narrows beyond the chord's bound
    (where ``out`` was tight on [1/T, T], it is then stated as a bound, the supremum beside it)."""
    from implgraph.prover.answer import T
    lo, hi, same, subset = case
    if lo == 0 and div.compares == "class" and div.phi(_R) is not None and _two_sided(a, "subset"):
        out.exact = removal_class_supremum(div, N, argument)
    if single_record_removal(a, div, ja):
        out.exact = single_removal_supremum(div, N, argument)
    exact = None
    if lo == 1 / T and hi == T and same and not _two_sided(a, "pairwise") and single_class.applies(div, b_classes):
        exact = single_class.single_class_supremum(div, N, argument)      # a class's ratio also <= N - (N - 1)/T
    elif div.compares == "removal" and same and _two_sided(a, "subset") and not subset:
        exact = removal_supremum(div, N, argument)
    elif lo == 0 and hi == T and (_one_record(a) or one_sided(a, "class")) and single_class.applies(div, b_classes):
        # also >= N - (N - 1) T and <= N (the others' records, or the other classes, each <= T)
        exact = single_class.one_record_supremum(div, N, argument, classes=not _one_record(a))
    if exact is not None:
        out.tight, out.attained_where, out.exact = False, sympy.false, exact
    return out


def _order_text(div):      # " of order alpha" where B's divergence has one
    return "" if div.order is None else f" of order {div.order}"


def certificate_parts(cert, ctx):
    """The lemma data of a chord certificate: the divergence, the interval and the generator."""
    from implgraph.definitions import get
    from implgraph.prover.answer import T
    b = get(cert["B"]["definition"])
    div, phi = divergence_of(b, cert["B"].get("params")), divergence_of(b, cert["B"].get("params")).phi(_R)
    ja = None if cert["A"].get("size") is None else parse_expr(cert["A"]["size"], {"N": ctx.N})
    spec = {"min_size": sympy.Integer(1)}
    lo, hi, _ = interval(ctx.a, b, ctx.N, ja, spec, {"min_size": sympy.sympify(cert["B"].get("min_class") or 1)},
                         cert["B"].get("params"))
    if div.compares == "removal" and cert["A"].get("family") == "subset" and single_record_removal(ctx.a, div, ja):
        lo, hi = next(((x, y) for _, x, y in single_pieces(ctx.N)
                       if ctx.bound.tight and ctx.bound.upper == both_ways(div, x, y)), (lo, hi))
    elif div.compares == "removal" and cert["A"].get("family") == "subset":     # a piece of removal_supremum
        lo, hi = piece_of(div, ctx.N, ctx.bound.upper) or (lo, hi)
    hi = single_class.certificate_hi(div, ctx.N, ctx.bound, hi) if lo == 1 / T and hi == T else hi   # its piece?
    if lo == 0 and hi == T and cert["A"].get("sides") == "one-sided" and div.compares == "class":   # pml's piece?
        lo, hi = single_class.one_record_ends(div, ctx.N, ctx.bound) or (lo, hi)
    if lo == 0 and div.compares == "class" and ctx.bound.tight:      # a piece of removal_class_supremum
        lo, hi = next(((x, y) for _, x, y in removal_class_pieces(ctx.N)
                       if ctx.bound.upper == removal_class_upper(div, x, y)), (lo, hi))
    cert["upper_certificate"] = {"lemma": methods.CHORD.lemma, "kind": div.kind,
                                 "order": None if div.order is None else str(div.order), "compares": div.compares,
                                 "phi": None if phi is None else str(phi), "lo": str(lo), "hi": str(hi)}


def certificate_family(cert, ctx):
    """The attaining family of a tight chord bound: rows of two buckets (count, first bucket's value, class) in T and
    N, and the condition where it is a table satisfying A."""
    from implgraph.definitions import get
    from implgraph.prover.answer import T
    div = divergence_of(get(cert["B"]["definition"]), cert["B"].get("params"))
    s = sympy.sympify(cert["B"].get("min_class") or 1)
    N = ctx.N
    data = cert.get("upper_certificate") or {}
    if div.compares == "class" and (narrow := single_class.family_of(N, data)) is not None:
        return narrow       # the piece T >= N - 1 (removal_record_class)
    if div.compares == "class" and (narrow := single_class.one_record_family(N, data)) is not None:
        return narrow       # a narrowed piece of one record against the table at most T (removal_record_class)
    if div.compares == "class" and cert["A"].get("sides") == "one-sided":      # the chord's ends T and 0, one-sided A
        s1 = "1" if cert["A"].get("family") == "subset" else str(s)
        return {"rows": [{"count": s1, "value": "1", "class": "E1"},
                         {"count": f"N - {s1}", "value": f"(N/T - {s1})/(N - {s1})", "class": "E2"}],
                "domain": [f"T >= N/(N - {s1})", f"T <= N/{s1}"]}
    if div.compares == "class" and cert["A"].get("family") == "subset" and cert["A"].get("sides") == "two-sided" \
            and str(cert["A"].get("size")) == "1":      # each record against the table: the two-sided class family
        rows = family_rows("class", T, N, s)
        return {"rows": [{"count": c, "value": str(v), "class": k} for c, v, k in rows],
                "domain": [str(ctx.bound.attained_where)]}
    if div.compares == "class" and cert["A"].get("family") == "subset":     # removal: one record at ratios (hi, lo)
        lo, hi = (parse_expr(data[k], {"N": N, "T": T}) for k in ("lo", "hi"))
        L = sympy.cancel((1 - lo) / (hi - lo))
        return {"rows": [{"count": "1", "value": str(sympy.cancel(hi * L)), "class": "E1"},
                         {"count": "N - 1", "value": str(sympy.cancel(L * (N - hi) / (N - 1))), "class": "E2"}],
                "domain": [] if sympy.simplify(lo - 1 / T) == 0 else ["N >= 3"]}      # [1/T, 2 - 1/T]: N = 2
    subset = cert["A"].get("size") is not None and div.compares == "removal" \
        and subset_removal(ctx.a, div, parse_expr(str(cert["A"].get("size")), {"N": N}), N)
    if div.compares == "removal" and cert["A"].get("family") == "subset" and (subset or narrows_pairwise_removal(div)):
        # a piece of removal_supremum, or a subset of N - k records: one record at N P - (N - 1) Q
        lo, hi = (parse_expr(data[k], {"N": N, "T": T}) for k in ("lo", "hi"))
        where = ctx.bound.attained_where
        return {"rows": [{"count": c, "value": str(v), "class": k} for c, v, k in removal_rows(lo, hi, N)],
                "domain": ([] if where is sympy.true or where is None else [str(where)])
                + (["T > 1"] if subset else [])}      # at T = 1 the rows read 0/0 (U is 0 there)
    if div.compares == "removal" and cert["A"].get("family") == "subset" and str(cert["A"].get("size")) == "1" \
            and (div.kind == "tv" or _numeric_hockey(div)):     # single_removal_supremum's piece: N P - (N - 1) Q
        lo, hi = (parse_expr(data[k], {"N": N, "T": T}) for k in ("lo", "hi"))
        return {"rows": [{"count": c, "value": str(v), "class": k} for c, v, k in removal_rows(lo, hi, N)],
                "domain": []}
    if div.compares == "removal" and cert["A"].get("family") == "pairwise":     # one record at x, N - 1 at y
        rows = family_rows("pairs", T, N)
        return {"rows": [{"count": c, "value": str(v), "class": k} for c, v, k in rows], "domain": []}
    rows = family_rows(div.compares, T, N, s, cert["A"].get("family"))
    return {"rows": [{"count": c, "value": str(v), "class": k} for c, v, k in rows],
            "domain": [] if ctx.bound.attained_where is sympy.true else [str(ctx.bound.attained_where)]}


certificate_parts_of = registry.certificate_parts(methods.CHORD, family=certificate_family)(certificate_parts)


@registry.argument(methods.CHORD, order=200, applies=lambda ctx: divergence_of(ctx.b, ctx.b_params) is not None)
def handler(ctx):
    """B a declared divergence, A a ratio level bounding the compared ratios (module notes)."""
    return bound(ctx.a, ctx.b, ctx.a_params, ctx.b_params, ctx.region, ctx.N, ctx.a_classes, ctx.b_classes,
                 declared_subset_size(ctx.a, ctx.N, ctx.a_params))
