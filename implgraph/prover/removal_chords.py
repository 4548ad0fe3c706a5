"""Record removal against a level between records or of each record: the narrowed intervals of Q_i/P and the bound
both ways (helpers of :mod:`implgraph.prover.arguments.chord`; docs/proofs/tight-pairwise-removal.md).

- A pairwise (every two records within ratio T): Q_i/P = N/(N - 1 + x_i/Q_i), x_i/Q_i in [1/T, T], so Q_i/P lies in
  [N/(N - 1 + T), N T/((N - 1) T + 1)], both ends attained by one record at (T, 1)/(T + 1) and N - 1 at
  (1, T)/(T + 1);
- A a two-sided subset level of size 1 (each record within ratio T of the table): Q_i/P = (N - x_i/P)/(N - 1) lies in
  [max((N - T)/(N - 1), 1/T), (N - 1/T)/(N - 1)], piece by piece in T (:func:`single_removal_supremum`).

B's bound both ways on such an interval is the larger chord of phi and of its perspective psi(q) = q phi(1/q)
(:func:`implgraph.prover.removal_supremum.both_ways`): KL and Renyi of a finite order, total variation (its own
perspective), the hockey-stick at a number gamma >= 1.
"""

from __future__ import annotations

import sympy

from implgraph.core import methods
from implgraph.prover.removal_supremum import both_ways, narrows_pairwise_removal

__all__ = ["single_record_removal", "single_pieces",
           "single_removal_supremum", "subset_removal", "subset_removal_interval", "subset_removal_bound",
           "SUBSET_REMOVAL_TEXT"]

#: the argument's words where A is every subset of N - k records against the table (:func:`subset_removal`)
SUBSET_REMOVAL_TEXT = ("; every subset of the others is within [1/T, T], and so is the mean of the subsets holding "
                       "record i, (N - k y)/(N - k) with y = Q_i/P and k = N - (the subset size), and x_i >= 0: the "
                       "interval above; B <= the larger chord of phi and of its perspective psi(q) = q phi(1/q), both "
                       "attained by one record at N P - (N - 1) Q and N - 1 at Q with ratios Q/P in {lo, hi} "
                       "(docs/proofs/tight-subset-removal.md)")


def _two_sided(d, family):
    from implgraph.prover.shapes import compares
    return compares(d, family)


def single_record_removal(a, div, ja) -> bool:
    """A two-sided subset level of size 1 (each record against the table) against a removal divergence whose bound
    both ways on a narrowed interval is written here (:func:`narrows_pairwise_removal`: KL and Renyi of a finite order,
    the larger chord of phi and of its perspective; total variation, its own perspective; the hockey-stick)."""
    return narrows_pairwise_removal(div) and _two_sided(a, "subset") \
        and ja is not None \
        and sympy.simplify(ja - 1) == 0


def single_pieces(N):
    """``[(condition, lo, hi)]``: the interval of Q_i/P where every record is within ratio T of the table, piece by
    piece in T (:func:`single_removal_supremum`)."""
    from implgraph.prover.answer import T
    hi = (N - 1 / T) / (N - 1)
    return [(sympy.Le(T, N - 1), (N - T) / (N - 1), hi), (sympy.Ge(T, N - 1), 1 / T, hi)]


def single_removal_supremum(div, N, argument):
    """The tight bound of a subset level of size 1 against a removal total variation, piece by piece in T:
    Q_i/P = (N - r)/(N - 1) with r = x_i/P in [1/T, T], and Q_i/P >= 1/T (the others' mean), so Q_i/P lies in
    [max((N - T)/(N - 1), 1/T), (N - 1/T)/(N - 1)]; the chord there is attained by the two-bucket table with those
    ratios (the removed record's ratios 1/T and N - (N - 1) lo <= T; the others' hi <= T and lo >= 1/T)."""
    from implgraph.prover.answer import Bound
    parts = []
    for cond, lo, hi in single_pieces(N):
        text = (argument + f"; where {cond}, every ratio Q_i/P lies in [{lo}, {hi}] (Q_i/P = (N - x_i/P)/(N - 1), "
                "x_i/P in [1/T, T]; and Q_i/P >= 1/T, a mean of records each >= 1/T of the table): the chord there, "
                "both ways (the larger chord of phi and of its perspective), attained by one record at "
                "N P - (N - 1) Q and N - 1 at Q with ratios Q/P in {lo, hi}")
        parts.append((cond, Bound(both_ways(div, lo, hi), True, methods.CHORD.name, text,
                                  checks=[f"phi convex on [{lo}, {hi}]: True"])))
    upper = sympy.Piecewise((parts[0][1].upper, parts[0][0]), (parts[1][1].upper, True))
    return Bound(upper, True, methods.CHORD.name, argument + "; tight for every N, piece by piece in T",
                 checks=[c for _, b in parts for c in b.checks], parts=parts)


def subset_removal(a, div, ja, N) -> bool:
    """A two-sided subset level of size ja, neither 1 (each record against the table) nor N - 1 (record removal
    itself, :func:`removal_supremum`), against a removal KL, Renyi of a finite order, total variation or hockey-stick
    at a number gamma >= 1 (:func:`narrows_pairwise_removal`: their bound both ways is :func:`both_ways`)
    (docs/proofs/tight-subset-removal.md). The size a formula of N alone: a size in a parameter's symbol (the symbols
    matrix) is not read here (its certificate states the size in that symbol, which the checker does not parse)."""
    return narrows_pairwise_removal(div) and _two_sided(a, "subset") and ja is not None and ja.free_symbols <= {N} and sympy.simplify(ja - 1) != 0 \
        and sympy.simplify(ja - (N - 1)) != 0


def subset_removal_interval(N, k):
    """``(lo, hi)``: where every subset of N - k records is within [1/T, T] of the table (1 <= k <= N - 1), the ratio
    y = Q_i/P of one bucket lies in [max(1/T, (N - (N - k) T)/k), min(T, N/(N - 1), (N - (N - k)/T)/k)], and every
    value there is reached with the others at y and record i at N - (N - 1) y (docs/proofs/tight-subset-removal.md)."""
    from implgraph.prover.answer import T
    return (sympy.Max(1 / T, (N - (N - k) * T) / k),
            sympy.Min(T, N / (N - 1), (N - (N - k) / T) / k))


def subset_removal_bound(upper, ja, N):
    """``(attained_where, U)`` of :func:`subset_removal`: the family (the others at y, record i at N - (N - 1) y) is a
    table wherever a record is removed, N >= ja + 1; at T = 1 the interval is the point 1 (the chord reads 0/0) and
    every subset's mean is the table's, so U is 0 there."""
    from implgraph.prover.answer import T
    return sympy.Ge(N, ja + 1), sympy.Piecewise((0, sympy.Le(T, 1)), (upper, True))
