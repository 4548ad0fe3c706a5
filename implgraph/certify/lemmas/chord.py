"""The chord lemma: an f-divergence of two distributions whose ratios lie in [lo, hi] is at most the chord's value.

**Lemma.** Let x, y be distributions over the buckets with r_l = x_l / y_l in [lo, hi] (lo <= 1 <= hi, lo < hi) and
phi convex on [lo, hi]. Then sum_l y_l phi(r_l) <= L phi(hi) + (1 - L) phi(lo), L = (1 - lo)/(hi - lo).
*Proof.* Each r_l = w_l hi + (1 - w_l) lo with w_l = (r_l - lo)/(hi - lo) in [0, 1]; convexity gives
phi(r_l) <= w_l phi(hi) + (1 - w_l) phi(lo); summing with weights y_l, and
sum_l y_l w_l = (sum_l y_l r_l - lo)/(hi - lo)
= (1 - lo)/(hi - lo) = L because sum_l y_l r_l = sum_l x_l = 1. (A bucket with y_l = 0 has x_l = 0 when the ratio is
bounded, and counts for nothing.)

What the checker re-derives from the certificate's statement, not from its data:

- B's side names a registered definition that declares a divergence (:mod:`implgraph.definitions.divergences`); its
  kind, order and the distributions it compares are read from the registry, and phi from the kind (the certificate's
  ``phi``, ``kind``, ``order``, ``compares`` must be those);
- A's side (a registered, two-sided ratio of averages: the registry check of :func:`implgraph.certify._registered`)
  confines the compared ratios to [1/T, T]: A pairwise against pairs of records or a removal (two records' ratios,
  and averages of records, a mediant); A pairwise against a removal KL, Renyi of a finite order or total variation to
  [N/(N - 1 + T), N T/((N - 1) T + 1)] (Q_i/P = N/(N - 1 + x_i/Q_i), decreasing in x_i/Q_i, a mediant in [1/T, T]), U
  then the larger chord of phi and of its perspective (``chord_removal``; total variation, its own perspective: one
  chord, a maximum resolved at T = 1 + u and, where the domain states N >= 2, N = 2 + v; the hockey-stick at
  gamma >= 1: max(0, L (hi - gamma), (1 - L)(1 - gamma lo)), as lo <= 1 <= hi, its family's ratios exactly hi and lo);
  A a two-sided subset level of size 1 against a removal total variation or hockey-stick to [lo, (N - 1/T)/(N - 1)],
  lo = 1/T, or (N - T)/(N - 1) where the domain states T <= N - 1 (Q_i/P = (N - x_i/P)/(N - 1), and >= 1/T as a mean
  of the others); A a class level against a class divergence on the same partition; A a subset
  level of size N - 1 against record removal. A pairwise against a class divergence of classes of >= s records: a
  class of s' >= s records has ratio N/(s' + (N - s') r) to the table, r (the rest's mean over the class's) in
  [1/T, T], so [N/(s + (N - s) T), N T/(s T + N - s)]. A a subset level of size N - 1 against a class divergence: each
  record's ratio x_i/P = N - (N - 1) Q_i/P with Q_i/P in [1/T, T], and a class's mean lies between its records', so
  [0, N - (N - 1)/T], or [N - (N - 1) T, N - (N - 1)/T] where the domain states T <= N/(N - 1) or T < N/(N - 1) (the
  lower end >= 0), or [1/T, 2 - 1/T] where the domain states N <= 2 (x_1 = Q_2, x_2 = Q_1, x_1/P + x_2/P = 2).
  A a two-sided subset level of size 1 (each record against the table) against a class divergence, any partition:
  every x_i(l) lies in [P_l/T, T P_l], so every class's mean does: [1/T, T]; where the domain states T >= N - 1
  (or >), [1/T, N - (N - 1)/T] (x_i(l)/P_l is N minus the others' N - 1 ratios, each >= 1/T).
  A two-sided class level on B's partition: [1/T, T], or [1/T, N - (N - 1)/T] where the domain states T >= N - 1
  (a class of s records has ratio (N - the others' N - s)/s, the others' classes each >= 1/T).
  A a one-sided class level against a class divergence on the same partition: m_l/P_l <= T where the class lies
  above the table, <= 1 <= T elsewhere, >= 0, so [0, T] (A bounds no ratio from below: a tight claim only as below);
  on classes of >= 1 record also >= N - (N - 1) T and <= N (the rest a union of classes each <= T), read as for one
  record below where the domain states the piece.
  A a one-sided subset level of size 1 (one record against the table) against a class divergence, any partition:
  every record has x_i(l) <= T P_l, so every class's mean does: [0, T]. For either one-sided case a tight claim is
  accepted only with the family's own domain exactly T >= N/(N - s), T <= N/s (s = 1 for one record, B's smallest
  class for a class level): s records at (1, 0) in a class of their own and N - s at ((N/T - s)/(N - s), ...) reach
  the ends T and 0 there (docs/proofs/tight-one-sided-chord.md); the family is then checked as below.
  Any other pair of sides is refused;
- phi is convex on the interval (a maximum of functions affine in r, or phi'' >= 0 for r > 0, sympy's assumptions);
- U is the chord's value, L phi(hi) + (1 - L) phi(lo) with L = (1 - lo)/(hi - lo) (phi(0) its limit), by exact
  algebra (for Renyi of order alpha, exp((alpha - 1) U) is it; log is increasing; order oo: U = log hi);
- the domain states T >= 1;
- a class side: the certificate holds for every partition, one class included (each class's divergence from the table
  is bounded by A's ratios of that class alone; a table of one class is at divergence 0 <= U);
- where the certificate claims tightness: its family (rows of two buckets in T and N) is a table satisfying A at raw
  level <= T with B's level equal to U, checked in exact arithmetic with the registry's levels at each N of ``ns`` and
  T in {1, 5/4, 3/2, 2, 3, 5} where the family's domain and the certificate's hold (U read at 0 log 0 by its limit),
  and symbolically in T: B's divergence between the family's compared rows (for pairs the two rows, for a class the
  first class and the table) minus U simplifies to 0;
- A a subset level of size N - 1 against record removal (:mod:`implgraph.certify.lemmas.chord_removal`): the
  interval of Q_i/P is [1/T, h] with h = T or N/(N - 1), or 2 - 1/T where the domain states N <= 2; U is the larger
  of the chords of phi and of its perspective psi(q) = q phi(1/q) there (total variation: its own perspective, one
  chord; the hockey-stick: its three arguments, a chord <= 0 on the domain may be left out); a tight family's others
  (Q) and table (P) give U both ways.
"""

from __future__ import annotations

import sympy

from implgraph.certify.domain import conditions_over, declared_names
from implgraph.certify.family import sampled_family_step
from implgraph.certify.lemmas import chord_removal, chord_subset_removal, lemma
from implgraph.certify.lemmas.chord_family import family_at
from implgraph.certify.lemmas.chord_narrowed import (_hockey, _hockey_value_ok, _pairwise_removal, _self_perspective,
                                                     _single_class_hi, _single_interval_ok, _single_removal,
                                                     _states_le, _states_n_two, _two_point_ok, _without_max,
                                                     one_record_ends, one_record_narrowed)
from implgraph.certify.report import lemma_steps, steps_report as _report
from implgraph.core import methods
from implgraph.core.formula import parse_condition, parse_expr

__all__ = ["check"]

_R = sympy.Symbol("r", positive=True)
_T = sympy.Symbol("T", positive=True)
_N = sympy.Symbol("N", integer=True, positive=True)


def _expr(text, extra=()):
    names = {"T": _T, "N": _N, "r": _R, **{s.name: s for s in extra}}
    return parse_expr(str(text), names)


def _divergence(cert):
    from implgraph.certify.kernel import registered
    from implgraph.definitions.divergences import divergence_of
    name = (cert.get("B") or {}).get("definition")
    d = registered(name) if name else None
    return d, (divergence_of(d, (cert.get("B") or {}).get("params")) if d is not None else None)


def _confines(A, B, div, domain=()):
    """``(lo, hi, same)``: the interval A's side confines B's compared ratios to, and whether it compares the same
    record sets (None: it confines none)."""
    if A.get("sides") == "one-sided" and A.get("family") == "class" and div.compares == "class":
        # m_l/P_l <= T where the class lies above the table, <= 1 <= T elsewhere, >= 0: [0, T] (an upper bound only);
        # narrower where the domain states T < N/(N - 1) or T >= N (one_record_ends: a class of s records has ratio
        # (N - the rest's N - s)/s, the rest a union of classes each <= T: >= (N - (N - s) T)/s >= N - (N - 1) T,
        # and <= N/s <= N), only on B's classes of >= 1 record
        if not _same_classes(A, B):
            return None
        ends = one_record_ends(domain) if str(B.get("min_class") or "1") == "1" else (sympy.Integer(0), _T)
        return (*ends, False)
    if A.get("sides") == "one-sided" and A.get("family") == "subset" and div.compares == "class" \
            and A.get("size") is not None and sympy.simplify(_expr(A["size"]) - 1) == 0:
        # one record against the table: x_i(l) <= T P_l for every record, so every class mean, on any partition:
        # [0, T] (an upper bound only); narrower where the domain states T < N/(N - 1) or T >= N (one_record_ends)
        return (*one_record_ends(domain), False)
    if A.get("sides") != "two-sided":
        return None
    if A.get("family") == "subset" and div.compares == "class" and A.get("size") is not None \
            and sympy.simplify(_expr(A["size"]) - 1) == 0:
        # each record against the table within [1/T, T]: a class's mean is an average of records, on any partition;
        # also <= N - (N - 1)/T where the domain states T >= N - 1 (from the others' records, _single_class_hi)
        return 1 / _T, _single_class_hi(domain) if not B.get("max_class") else _T, not B.get("max_class")
    removal = A.get("family") == "subset" and A.get("size") is not None \
        and sympy.simplify(_expr(A["size"]) - (_N - 1)) == 0
    if A.get("family") == "pairwise" and div.compares == "class":
        # a class of s' >= s records: its ratio to the table is N/(s' + (N - s') r), r its rest's mean over its own, in
        # [1/T, T] (averages of records); within the interval of s' = s
        s = _expr(B.get("min_class") or "1")
        return _N / (s + (_N - s) * _T), _N * _T / (s * _T + _N - s), not B.get("max_class")
    if A.get("family") == "pairwise" and _pairwise_removal(A, div):
        # Q_i/P = N/(N - 1 + x_i/Q_i), x_i/Q_i in [1/T, T] (a mediant of records within ratio T of x_i), decreasing in
        # x_i/Q_i; both ends at once where x_i/Q_i is T in one bucket and 1/T in the other
        return _N / (_N - 1 + _T), _N * _T / ((_N - 1) * _T + 1), True
    if A.get("family") == "pairwise":
        return 1 / _T, _T, div.compares == "pairs"
    if div.compares == "class" and A.get("family") == "class":      # the narrowed end: the other classes each >= 1/T
        return (1 / _T, _single_class_hi(domain), True) if _same_classes(A, B) else None
    if div.compares == "removal" and removal:
        return 1 / _T, _T, True
    if (k := chord_subset_removal.removed(A, div)) is not None:    # a subset of N - k records, k >= 2: its interval
        return (*chord_subset_removal.interval(k), True)
    if _single_removal(A, div):     # the ends are the certificate's, checked by _single_interval_ok
        return 1 / _T, (_N - 1 / _T) / (_N - 1), True
    if div.compares == "class" and removal and _states_le(domain, _N, 2):
        # N = 2: x_1 = Q_2 and x_2 = Q_1, each within [1/T, T] of the table, and x_1/P + x_2/P = 2: [1/T, 2 - 1/T]
        return 1 / _T, 2 - 1 / _T, True
    if div.compares == "class" and removal:      # x_i = N P - (N - 1) Q_i, Q_i/P in [1/T, T]; a class mean too
        # x_i/P >= N - (N - 1) T as well, which is >= 0 where T <= N/(N - 1): that interval where the domain says so
        low = _N - (_N - 1) * _T if _below_cut(domain) else sympy.Integer(0)
        return low, _N - (_N - 1) / _T, True
    return None


def _same_classes(A, B) -> bool:
    """A and B read the same classes: the same minimum size, neither a maximum."""
    return str(A.get("min_class") or "1") == str(B.get("min_class") or "1") and not B.get("max_class") \
        and not A.get("max_class")


def _pieces_of_removal(A, div) -> bool:
    """A subset level of size N - 1 against a removal KL, Renyi of a finite order, total variation or hockey-stick at
    gamma >= 1: the removal lemma's case (its intervals; the value both ways per kind, :func:`_value_steps`)."""
    return div.compares == "removal" and A.get("family") == "subset" and ((div.kind in ("kl", "renyi", "tv")
                                                                           and div.order is not sympy.oo)
                                                                          or _hockey(div))


def _below_cut(domain) -> bool:
    """Does the domain state T <= N/(N - 1) or T < N/(N - 1) (so that N - (N - 1) T >= 0)?"""
    return _states_le(domain, _T, _N / (_N - 1))


def _convex(phi) -> bool:
    if isinstance(phi, sympy.Max) or (phi.is_Mul and any(isinstance(x, sympy.Max) for x in phi.args)):
        maxes = [x for x in ([phi] if isinstance(phi, sympy.Max) else phi.args) if isinstance(x, sympy.Max)]
        rest = sympy.simplify(phi / maxes[0])
        return bool(rest.is_nonnegative and all(sympy.Poly(a, _R).degree() <= 1 for a in maxes[0].args))
    return sympy.simplify(sympy.diff(phi, _R, 2)).is_nonnegative is True


def _phi_at(phi, value):
    return sympy.limit(phi, _R, 0, "+") if value == 0 else phi.subs(_R, value)


def _chord_holds(div, upper, lo, hi, n_two=False) -> bool:
    """U is the chord's value on [lo, hi] (exact algebra)."""
    if div.kind == "renyi" and div.order is sympy.oo:
        return sympy.simplify(upper - sympy.log(hi)) == 0
    phi = div.phi(_R)
    L = (1 - lo) / (hi - lo)
    chord = L * _phi_at(phi, hi) + (1 - L) * _phi_at(phi, lo)
    if div.kind == "renyi":
        return sympy.simplify(sympy.exp((div.order - 1) * upper) - chord) == 0
    if chord.has(sympy.Max):        # T >= 1: T = 1 + u, u >= 0 resolves the maximum (N = 2 + v where N >= 2)
        return _without_max(upper - chord, n_two) == 0
    diff = sympy.expand_log(sympy.simplify(upper - chord), force=True)
    return sympy.simplify(diff) == 0


def _family_symbolic(cert, fam, div) -> bool:
    """B's divergence between the family's compared rows, in T (and N), minus U simplifies to 0."""
    rows = {str(r.get("class")): _expr(r["value"]) for r in fam.get("rows") or []}
    counts = {str(r.get("class")): _expr(r["count"]) for r in fam.get("rows") or []}
    first, second = rows.get("E1"), rows.get("E2")
    if first is None or second is None:
        return False
    if div.compares == "pairs":
        x, y = first, second
    elif div.compares == "class":
        x = first
        y = sympy.cancel((counts["E1"] * first + counts["E2"] * second) / _N)
    elif (_pairwise_removal(cert.get("A") or {}, div) or _single_removal(cert.get("A") or {}, div)) \
            and _hockey(div) or ((chord_subset_removal.removed(cert.get("A") or {}, div) is not None
                                  or _pieces_of_removal(cert.get("A") or {}, div))
                                 and div.kind in ("tv", "hockey-stick")):
        # the others' row Q against P at ratios exactly hi and lo: both chords equalities
        data = cert.get("upper_certificate") or {}
        y = sympy.cancel((counts["E1"] * first + counts["E2"] * second) / _N)
        return _two_point_ok(second, y, _expr(data.get("lo")), _expr(data.get("hi")))
    elif _pieces_of_removal(cert.get("A") or {}, div) or (_pairwise_removal(cert.get("A") or {}, div)
                                                          and div.kind != "tv"):  # Q against P, both ways
        y = sympy.cancel((counts["E1"] * first + counts["E2"] * second) / _N)
        return chord_removal.family_ok(div, _expr(cert["upper"]), second, y)
    else:
        x = second
        y = sympy.cancel((counts["E1"] * first + counts["E2"] * second) / _N)
    x2, y2 = (x, 1 - x), (y, 1 - y)
    rs = [sympy.cancel(a / b) for a, b in zip(x2, y2)]
    if div.kind == "renyi" and div.order is sympy.oo:
        value = None
    elif div.kind == "renyi":
        value = sympy.Add(*[b * r ** div.order for b, r in zip(y2, rs)])
        return sympy.simplify(value - sympy.exp((div.order - 1) * _expr(cert["upper"]))) == 0
    else:       # (phi at a ratio 0 is its limit: 0 log 0 = 0)
        value = sympy.Add(*[b * _phi_at(div.phi(_R), r) for b, r in zip(y2, rs)])
    if value is None:
        return sympy.simplify(sympy.Max(*rs) - _T) == 0 or set(map(sympy.simplify, rs)) == {_T, 1 / _T}
    gap = value - _expr(cert["upper"])
    if gap.has(sympy.Max):          # T >= 1: T = 1 + u, u >= 0 resolves the maximum (N = 2 + v where N >= 2)
        gap = _without_max(gap, _states_n_two(_read_domain(cert, cert.get("domain"))))
    return sympy.simplify(sympy.expand_log(gap, force=True)) == 0


def _read_domain(cert, texts):
    """The conditions ``texts`` read with N, T and the certificate's declared symbols, those over N and T kept (a
    condition on another parameter of the claim, e.g. the matrix's k1 where neither side states it, constrains nothing
    this lemma reads; leaving it out only strengthens what is re-checked)."""
    names = declared_names(cert, {"T": _T, "N": _N})
    read = [parse_condition(str(c), names) for c in texts or []]
    # a conjunction (a piece's condition) is its conjuncts, each a condition of the domain
    return conditions_over([a for c in read for a in (c.args if isinstance(c, sympy.And) else (c,))], (_T, _N))


@lemma(methods.CHORD, own_partitions=True)
def check(cert, ns=range(2, 13), timeout_ms=4000):
    """Re-check a chord certificate (see the module notes)."""
    with lemma_steps(cert) as steps:
        b, div = _divergence(cert)
        steps.append(("B's registered definition declares a divergence", div is not None, "registry"))
        if div is None:
            return _report(steps)
        A, B, data = cert.get("A") or {}, cert.get("B") or {}, cert.get("upper_certificate") or {}
        declared = {"lemma": methods.CHORD.lemma, "kind": div.kind, "compares": div.compares,
                    "order": None if div.order is None else str(div.order)}
        steps.append(("the certificate's divergence is B's declared one",
                      all(data.get(k) == v for k, v in declared.items()), "exact"))
        domain = _read_domain(cert, cert.get("domain"))
        got = _confines(A, B, div, domain)
        steps.append(("A confines B's compared ratios to an interval", got is not None, "declared families"))
        if got is None:
            return _report(steps)
        lo, hi, same = got
        single = _single_removal(A, div)
        subset = chord_subset_removal.removed(A, div) is not None
        removal = _pieces_of_removal(A, div) and not single and not subset
        if single:      # each record against the table (a subset level of size 1)
            lo, hi = _expr(data.get("lo")), _expr(data.get("hi"))
            steps.append((f"Q_i/P lies in [{lo}, {hi}] on every table at A's level (Q_i/P = (N - x_i/P)/(N - 1), "
                          "and >= 1/T as a mean of records)", _single_interval_ok(lo, hi, domain), "exact"))
        elif removal:     # Q_i/P in [1/T, h], h one of the removal lemma's ends (chord_removal)
            lo, hi = _expr(data.get("lo")), _expr(data.get("hi"))
            steps.append((f"Q_i/P lies in [{lo}, {hi}] on every table at A's level (removal lemma)",
                          chord_removal.interval_ok(lo, hi, domain), "exact"))
        else:
            steps.append((f"the interval is [{lo}, {hi}]", sympy.simplify(_expr(data.get("lo")) - lo) == 0
                          and sympy.simplify(_expr(data.get("hi")) - hi) == 0, "exact"))
        phi = div.phi(_R)
        if phi is not None:
            steps.append(("phi is the kind's generator", sympy.simplify(_expr(data.get("phi")) - phi) == 0, "exact"))
            steps.append(("phi is convex on the interval", _convex(phi), "phi'' >= 0 for r > 0, or a max of affine"))
        steps.append(("the domain has T >= 1", any(sympy.simplify(c) == sympy.Ge(_T, 1) for c in domain)
                      or any(str(c) in ("T >= 1", "1 <= T") for c in cert.get("domain") or []), "exact"))
        if "class" in (A.get("family"), B.get("family")):
            steps.append(("for every partition (each class is bounded against the table by itself; one class is the "
                          "table, at divergence 0 <= U)", cert.get("min_classes") in (1, 2),
                          f"min_classes {cert.get('min_classes')!r}"))
        if subset:      # U = Piecewise((0, T <= 1), (V, True)): V checked below in U's place
            steps += chord_subset_removal.size_steps(cert)
            ok, cert = chord_subset_removal.at_one(cert)
            steps.append(("U is 0 at T = 1 (every subset's mean is the table's, Q_i = P), the chord's value beyond",
                          ok, "exact"))
        steps += _value_steps(cert, A, div, (lo, hi), domain, removal or subset, single)
        if cert.get("tight"):
            steps += _tightness_steps(cert, div, same, ns)
    return _report(steps)


def _value_steps(cert, A, div, ends, domain, removal, single):
    """U is the chord's value: both ways on record removal (the larger of two chords; the hockey-stick's three
    arguments; total variation its own perspective), one way elsewhere."""
    (lo, hi), upper, n_two = ends, _expr(cert.get("upper")), _states_n_two(domain)
    if chord_subset_removal.removed(A, div) is not None:
        own = chord_subset_removal.value_steps(cert, div, lo, hi, upper)
        if own is not None:         # total variation, the hockey-stick
            return own
    both = _pairwise_removal(A, div) or single or (removal and div.kind in ("tv", "hockey-stick"))
    if both and _hockey(div):
        return [("U is the larger of the hockey-stick's two chords, max(0, L (hi - gamma), (1 - L)(1 - gamma lo)) "
                 "(lo <= 1 <= hi, gamma >= 1; exact algebra)", _hockey_value_ok(div, upper, lo, hi, n_two), "exact")]
    if both and div.kind != "tv" or removal and div.kind != "tv":
        return [("U is the larger chord's value, of phi and of its perspective (exact algebra)",
                 chord_removal.value_ok(div, upper, lo, hi), "exact")]
    out = [("phi is its own perspective (B the same both ways)", _self_perspective(div.phi(_R)), "exact")] \
        if both else []       # total variation: D(P || Q_i) = D(Q_i || P), one chord
    return out + [("U is the chord's value (exact algebra)", _chord_holds(div, upper, lo, hi, n_two), "exact")]


def _one_sided_ends(cert, div, fam) -> bool:
    """A one-sided A against a class divergence (the interval [0, T]): a tight claim only where the family's own domain
    is exactly T >= N/(N - s), T <= N/s (s = 1 for one record against the table, B's smallest class for a one-sided
    class level), where s records at (1, 0) in a class of their own reach the ends T and 0
    (docs/proofs/tight-one-sided-chord.md)."""
    A, B = cert.get("A") or {}, cert.get("B") or {}
    if A.get("sides") != "one-sided" or div.compares != "class":
        return False
    s1 = "1" if A.get("family") == "subset" else str(B.get("min_class") or "1")
    return list(fam.get("domain") or []) == [f"T >= N/(N - {s1})", f"T <= N/{s1}"]


def _tightness_steps(cert, div, same, ns):
    fam = cert.get("tightness") or {}
    if not same and one_record_narrowed(cert, div):
        steps = [("A bounds the ratios from above only: the piece's narrowed ends reached by its family (its checks)",
                  True, "declared families")]
    elif not same and _one_sided_ends(cert, div, fam):
        steps = [("A bounds the ratios from above only: tight where T >= N/(N - s) and T <= N/s, the family's own "
                  "domain (the chord's ends T and 0 reached by s records at (1, 0))", True, "declared families")]
    else:
        steps = [("A compares the same record sets as B (a tight claim)", same, "declared families")]
    steps.append(("the family's divergence is U (symbolic in T and N)", _family_symbolic(cert, fam, div), "exact"))
    return steps + [sampled_family_step(cert, fam, ns, lambda t, n: family_at(cert, fam, t, n, div), _read_domain)]
