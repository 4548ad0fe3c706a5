"""Each record within [1/T, T] of the table (a two-sided subset level of size 1), or each class of B's partition (a
two-sided class level), against a class divergence: the interval of a class's ratio to the table narrowed by the
others' records, piece by piece in T (a helper of :mod:`implgraph.prover.arguments.chord`; docs/arguments/chord.md).
Also record removal (a subset level of size N - 1) against a class divergence: :func:`removal_class_supremum`; and
one record against the table at most T (a one-sided subset level of size 1, pml): :func:`one_record_supremum`.

A class level: the records outside a class of s records are a union of classes, each of mean ratio >= 1/T, so the
class's ratio r has s r + (N - s)/T <= N, r <= (N - (N - s)/T)/s <= N - (N - 1)/T (s >= 1, T >= 1: the gap is
N (s - 1)(1 - 1/T)/s); the same pieces and the same attaining tables follow (their classes' ratios are their
records', within [1/T, T]). Each record against the table:

A record's ratio a = x_i(l)/P_l also satisfies a = N - (sum of the others' ratios) <= N - (N - 1)/T, since each of
the N - 1 others is >= 1/T; a class's ratio is an average of its records', so it lies in
[1/T, min(T, N - (N - 1)/T)]. The two ends meet where (T - 1)(T - (N - 1)) = 0: the upper end is T where
T <= N - 1 and N - (N - 1)/T where T >= N - 1. B is at most the chord of phi on that interval, piece by piece:

- T <= N - 1: the chord on [1/T, T], attained by one record at (T, 1)/(T + 1) in a class of its own and N - 1 at
  ((N - T)/((N - 1)(T + 1)), ...) in another (the table (1, T)/(T + 1); the others' ratios lie in [1/T, T] exactly
  where N >= T + 1);
- T >= N - 1: the chord on [1/T, h], h = N - (N - 1)/T, whose mass at h is L = (1 - 1/T)/(h - 1/T) = 1/N: one
  record at ratios (h, 1/T) in a class of its own, the table P = (1/N, (N - 1)/N), and the N - 1 others alike in
  another class at ratios ((N - h)/(N - 1), (N - 1/T)/(N - 1)) = (1/T, (N T - 1)/((N - 1) T)), both in [1/T, T]
  ((N - 1) T^2 - N T + 1 = ((N - 1) T - 1)(T - 1) >= 0), for every N >= 2. The record's own ratios are h <= T and
  1/T: A's level is T, B's the chord's value.
"""

from __future__ import annotations

import sympy

from implgraph.core import methods
from implgraph.prover.chord_value import chord_upper

__all__ = ["applies", "narrow_end", "single_class_supremum", "single_class_rows", "certificate_hi", "family_of",
           "piece_upper", "two_records_upper", "removal_class_pieces", "removal_class_upper", "removal_class_supremum",
           "one_record_pieces", "one_record_value", "one_record_supremum",
           "one_record_ends", "one_record_family"]

_R = sympy.Symbol("r", positive=True)


def applies(div, b_classes) -> bool:
    """B a class divergence whose pieces are derived here: KL or Renyi of order 2, classes of >= 1 record with no
    maximum size (a class of one record is the widest)."""
    classes = b_classes or {}
    return div.compares == "class" and (div.kind == "kl" or (div.kind == "renyi" and div.order == 2)) \
        and sympy.sympify(classes.get("min_size", 1)) == 1 and not classes.get("max_size")


def narrow_end(N):
    """h = N - (N - 1)/T: a record's largest ratio to the table where the N - 1 others are each >= 1/T."""
    from implgraph.prover.answer import T
    return N - (N - 1) / T


def _value(div, N, lo, hi):
    """The chord's value on [lo, hi] as B's divergence: (phi(hi) + (N - 1) phi(lo))/N where L = 1/N (hi the narrow
    end), else the chord module's own form."""
    if sympy.simplify(hi - narrow_end(N)) != 0:
        return chord_upper(div, lo, hi)
    phi = div.phi(_R)
    return div.from_phi_mean(sympy.factor(sympy.cancel((phi.subs(_R, hi) + (N - 1) * phi.subs(_R, lo)) / N))
                             if div.kind == "renyi" else (phi.subs(_R, hi) + (N - 1) * phi.subs(_R, lo)) / N)


def single_class_supremum(div, N, argument):
    """The tight bound, piece by piece in T (module notes): a Bound whose ``upper`` is the Piecewise of the two
    chords and whose ``parts`` are the pieces, each its own tight Bound."""
    from implgraph.prover.answer import T, Bound
    cut = N - 1
    pieces = []
    for cond, hi, where in ((sympy.Le(T, cut), T, sympy.Ge(N, T + 1)), (sympy.Gt(T, cut), narrow_end(N), sympy.true)):
        u = _value(div, N, 1 / T, hi)
        text = (argument + f"; where {cond}, a class's ratio to the table lies in [1/T, {hi}] (a class of s records "
                "has ratio (N - the others' N - s ratios)/s, the others' each >= 1/T (each record's, or each class's), "
                "so <= (N - (N - s)/T)/s <= N - (N - 1)/T, and <= T): the chord there, "
                + ("attained by one record at (T, 1)/(T + 1) in a class of its own and N - 1 at ((N - T)/((N - 1)"
                   "(T + 1)), ...) in another" if hi == T else
                   "attained for every N >= 2 by one record at ratios (h, 1/T) in a class of its own, the table at "
                   "(1/N, (N - 1)/N) and the N - 1 others alike in another class at ratios (1/T, (N T - 1)/((N - 1) "
                   "T)), within [1/T, T]"))
        pieces.append((cond, Bound(u, True, methods.CHORD.name, text, checks=[f"phi'' >= 0 on [1/T, {hi}]: True"],
                                   attained_where=where)))
    upper = sympy.Piecewise((pieces[0][1].upper, pieces[0][0]), (pieces[1][1].upper, True))
    return Bound(upper, True, methods.CHORD.name, argument + "; tight for every N, piece by piece in T",
                 checks=[c for _, b in pieces for c in b.checks], parts=pieces)


def single_class_rows(N):
    """The attaining family of the piece T >= N - 1: ``[(count, first bucket's value, class)]`` of binary rows, one
    record at (h/N, (N - 1)/(N T)) and N - 1 at (1/(N T), (N T - 1)/(N T))."""
    from implgraph.prover.answer import T
    return [("1", sympy.cancel(narrow_end(N) / N), "E1"), ("N - 1", sympy.cancel(1 / (N * T)), "E2")]


def certificate_hi(div, N, bound, hi):
    """The certificate's upper end: h where ``bound`` is the piece T >= N - 1 (its value the chord's on [1/T, h]),
    else ``hi``."""
    from implgraph.prover.answer import T
    if applies(div, None) and bound.tight and bound.upper == _value(div, N, 1 / T, narrow_end(N)):
        return narrow_end(N)
    return hi


def family_of(N, data):
    """The family of the piece T >= N - 1 (``data`` the certificate's lemma data, its upper end h), or None (another
    piece)."""
    from implgraph.core.formula import parse_expr
    from implgraph.prover.answer import T
    if data.get("lo") != "1/T" or data.get("hi") is None \
            or sympy.simplify(parse_expr(str(data["hi"]), {"N": N, "T": T}) - narrow_end(N)) != 0:
        return None
    return {"rows": [{"count": c, "value": str(v), "class": k} for c, v, k in single_class_rows(N)], "domain": []}


def piece_upper(div, low, hi):
    """The chord's value of a piece of :func:`removal_class_supremum`: below N/(N - 1) the mass at hi is
    L = T/(T + 1), so for KL or a finite Renyi order the mean of phi is (T phi(hi) + phi(low))/(T + 1), written so;
    else :func:`chord_upper`."""
    from implgraph.prover.answer import T
    if low == 0 or div.kind not in ("kl", "renyi") or div.order is sympy.oo:
        return chord_upper(div, low, hi)
    phi = div.phi(_R)
    return div.from_phi_mean((T * phi.subs(_R, hi) + phi.subs(_R, low)) / (T + 1))


def two_records_upper(div):
    """The chord's value on [1/T, 2 - 1/T] (N = 2), whose mass at each end is L = 1/2: the mean of phi at the ends."""
    from implgraph.prover.answer import T
    phi = div.phi(_R)
    mean = (phi.subs(_R, 2 - 1 / T) + phi.subs(_R, 1 / T)) / 2
    return div.from_phi_mean(sympy.factor(sympy.cancel(mean)) if div.kind == "renyi" else mean)


def removal_class_pieces(N):
    """``[(condition, lo, hi)]``: a record's (a class's) ratio to the table under record removal, piece by piece in N
    and T (:func:`removal_class_supremum`)."""
    from implgraph.prover.answer import T
    cut, three = N / (N - 1), sympy.Ge(N, 3)
    # the last piece strictly below the cut: at T = N/(N - 1) its lo is 0 and its value reads 0 log 0 (the second's)
    return [(sympy.Le(N, 2), 1 / T, 2 - 1 / T), (sympy.And(three, sympy.Ge(T, cut)), sympy.Integer(0), narrow_end(N)),
            (sympy.And(three, sympy.Lt(T, cut)), N - (N - 1) * T, narrow_end(N))]


def removal_class_upper(div, lo, hi):
    """The value of a piece of :func:`removal_class_pieces`."""
    from implgraph.prover.answer import T
    return two_records_upper(div) if sympy.simplify(lo - 1 / T) == 0 else piece_upper(div, lo, hi)


def removal_class_supremum(div, N, argument):
    """The tight bound of record removal against a class divergence, piece by piece in N and T: at N = 2 a record is
    the other's removal (x_1 = Q_2), so its ratio lies in [1/T, 2 - 1/T] (x_1/P = 2 - x_2/P); for N >= 3 a record's
    ratio x_i/P lies in [max(0, N - (N - 1) T), N - (N - 1)/T] (module notes). The chord on that interval, attained
    by one record in a class of its own at ratios (hi, lo) and the N - 1 others alike."""
    from implgraph.prover.answer import T, Bound
    pieces = []
    for cond, low, hi in removal_class_pieces(N):
        why = ("x_1 = Q_2 and x_2 = Q_1, each within [1/T, T] of the table, and x_1/P + x_2/P = 2" if low == 1 / T
               else "x_i/P = N - (N - 1) Q_i/P, Q_i/P in [1/T, T], and x_i >= 0")
        pieces.append((cond, Bound(removal_class_upper(div, low, hi), True, methods.CHORD.name,
                                   argument + f"; where {cond}, every record's ratio to the table lies in [{low}, {hi}]"
                                   f" ({why}), a class's mean too: the chord there, attained by one record in a class "
                                   "of its own at ratios (hi, lo), the N - 1 others alike (their ratios "
                                   "(N - hi)/(N - 1), (N - lo)/(N - 1) lie in [1/T, T])",
                                   checks=[f"phi'' >= 0 on [{low}, {hi}]: True"], attained_where=sympy.true)))
    upper = sympy.Piecewise(*[(b.upper, c) for c, b in pieces[:-1]], (pieces[-1][1].upper, True))
    return Bound(upper, True, methods.CHORD.name, argument + "; tight for every N, piece by piece in N and T",
                 checks=[c for _, b in pieces for c in b.checks], parts=pieces)


def one_record_pieces(N):
    """One record against the table at most T (a one-sided subset level of size 1) against a class divergence:
    ``[(condition, lo, hi)]``, the interval of a record's (hence a class's) ratio to the table piece by piece in T.
    The others' N - 1 ratios are each <= T, so a record's is >= N - (N - 1) T (> 0 where T < N/(N - 1)); the others'
    are >= 0, so a record's is <= N (below T where T > N)."""
    from implgraph.prover.answer import T
    cut = N / (N - 1)
    return [(sympy.Lt(T, cut), N - (N - 1) * T, T), (sympy.And(sympy.Ge(T, cut), sympy.Le(T, N)), sympy.Integer(0), T),
            (sympy.Gt(T, N), sympy.Integer(0), N)]


def one_record_value(div, N, lo, hi):
    """The chord's value on a piece of :func:`one_record_pieces`; on [N - (N - 1) T, T] the mass at T is
    L = (N - 1)/N, so the mean of phi is ((N - 1) phi(T) + phi(lo))/N, written so."""
    from implgraph.prover.answer import T
    if lo == 0:
        return chord_upper(div, lo, hi)
    phi = div.phi(_R)
    return div.from_phi_mean(((N - 1) * phi.subs(_R, T) + phi.subs(_R, lo)) / N)


def one_record_supremum(div, N, argument, classes=False):
    """The tight bound of one record against the table at most T (pml), or of a one-sided class level on B's partition
    (``classes``: basic beta-likeness), against a class divergence, piece by piece in T (:func:`one_record_pieces`),
    each attained by a two-row table (:func:`one_record_family`). A class level: a class of s records has ratio
    (N - the rest's N - s)/s, the rest a union of classes each <= T, so >= (N - (N - s) T)/s >= N - (N - 1) T (the gap
    N (s - 1)(T - 1)/s) and <= N/s <= N."""
    from implgraph.prover.answer import Bound
    pieces = []
    why = ("a class of s records has ratio (N - the rest's N - s ratios)/s, the rest a union of classes each <= T, so "
           ">= (N - (N - s) T)/s >= N - (N - 1) T; the rest's >= 0, so <= N/s <= N" if classes else
           "the others' N - 1 ratios each <= T, so a record's >= N - (N - 1) T; the others' >= 0, so <= N), a "
           "class's too (an average of records")
    for cond, lo, hi in one_record_pieces(N):
        how = {0: "one record at ratios (T, N - (N - 1) T) in a class of its own, the table at ((N - 1)/N, 1/N), the "
                  "N - 1 others at ratios ((N - T)/(N - 1), T)",
               1: "one record at (1, 0) in a class of its own and N - 1 at ((N/T - 1)/(N - 1), ...): ratios T and 0",
               2: "one record at (1, 0) in a class of its own and N - 1 at (0, 1): ratios N and 0"}[len(pieces)]
        text = (argument + f"; where {cond}, {'a class' if classes else 'a record'}'s ratio to the table lies in "
                f"[{lo}, {hi}] ({why}): the chord there, attained by {how}"
                + (" (the N - 1 others in one class)" if classes else ""))
        pieces.append((cond, Bound(one_record_value(div, N, lo, hi), True, methods.CHORD.name, text,
                                   build=_one_record_build(N, lo, hi), checks=[f"phi'' >= 0 on [{lo}, {hi}]: True"],
                                   attained_where=sympy.true)))
    upper = sympy.Piecewise(*[(b.upper, c) for c, b in pieces[:-1]], (pieces[-1][1].upper, True))
    return Bound(upper, True, methods.CHORD.name, argument + "; tight for every N, piece by piece in T",
                 checks=[c for _, b in pieces for c in b.checks], parts=pieces)


def _one_record_build(N, lo, hi):
    """The attaining table of a piece of :func:`one_record_supremum` at a point (one record in E1, N - 1 in E2)."""
    from implgraph.prover.answer import T
    from implgraph.prover.tables import rows_build
    if lo == 0 and hi == T:         # one record at (1, 0), N - 1 at ((N/T - 1)/(N - 1), ...): ratios T and 0
        return rows_build([(1, sympy.Integer(1), "E1"), (N - 1, (N / T - 1) / (N - 1), "E2")])
    if lo == 0:                     # ratios N and 0
        return rows_build([(1, sympy.Integer(1), "E1"), (N - 1, sympy.Integer(0), "E2")])
    return rows_build([(1, T * (N - 1) / N, "E1"), (N - 1, (N - T) / N, "E2")])


def one_record_ends(div, N, bound):
    """``(lo, hi)`` of the piece of :func:`one_record_supremum` whose value is ``bound``'s (a tight piece), or None."""
    if not bound.tight:
        return None
    return next(((lo, hi) for _, lo, hi in one_record_pieces(N) if bound.upper == one_record_value(div, N, lo, hi)),
                None)


def one_record_family(N, data):
    """The attaining family of a piece of :func:`one_record_supremum` other than [0, T] (``data`` the certificate's
    lemma data), or None: ``lo = N - (N - 1) T``: one record at (T (N - 1)/N, (N - (N - 1) T)/N), N - 1 at
    ((N - T)/N, T/N); ``hi = N``: one record at (1, 0), N - 1 at (0, 1)."""
    from implgraph.core.formula import parse_expr
    from implgraph.prover.answer import T
    if data.get("lo") is None or data.get("hi") is None:
        return None
    lo, hi = (parse_expr(str(data[k]), {"N": N, "T": T}) for k in ("lo", "hi"))
    if sympy.simplify(lo - (N - (N - 1) * T)) == 0 and sympy.simplify(hi - T) == 0:
        rows = [("1", sympy.cancel(T * (N - 1) / N), "E1"), ("N - 1", sympy.cancel((N - T) / N), "E2")]
    elif lo == 0 and sympy.simplify(hi - N) == 0:
        rows = [("1", sympy.Integer(1), "E1"), ("N - 1", sympy.Integer(0), "E2")]
    else:
        return None
    return {"rows": [{"count": c, "value": str(v), "class": k} for c, v, k in rows], "domain": []}
