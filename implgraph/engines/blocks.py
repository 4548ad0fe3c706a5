"""Witnesses at any N from tables of a few blocks of equal rows.

Permuting records changes no level, and the extreme tables of the prover's arguments are made of
two blocks of equal rows (``s`` records at one value, ``N - s`` at another, the classes following
the blocks). :func:`block_witness` searches such tables at one N: block sizes from a short list
(1, 2, 3, the parameters' values, N/2 and their complements), bucket-1 values from the extreme
families at each sampled level of A (values a and T a of a pairwise box; a zero block, which makes
every ratio involving it infinite). Nothing is enumerated over subsets or partitions, and each table is
stored as its two distinct rows with their counts (a weighted table: its levels are those of the table
written out), so N = 1000 costs about as much as N = 10. Every table found is re-checked exactly with
the definitions' own levels (:func:`implgraph.engines.recheck.is_witness`). A search that finds
nothing proves nothing (the caller says so).
"""

from __future__ import annotations

import math
from fractions import Fraction

import sympy

from implgraph.core.concrete import INF
from implgraph.io.weighted import WeightedConcreteTable
from implgraph.engines.recheck import is_witness, raw_level, witness_dict

__all__ = ["block_witness", "block_sizes", "candidate_tables"]


def block_sizes(N, params=()):
    """Sizes s of the first block (1 <= s <= N - 1): 1, 2, 3, N/2, the parameters and complements."""
    base = {1, 2, 3, N // 2} | {int(p) for p in params if isinstance(p, (int, sympy.Integer))}
    sizes = base | {N - s for s in base}
    return sorted(s for s in sizes if 1 <= s <= N - 1)


def _value_pairs(a_def, N):
    """Bucket-1 values (first block, second block): zero blocks, then the box corners a, T a with
    a = 1/(T + 1) at each sampled raw level T > 1 of A."""
    pairs = [(Fraction(0), Fraction(1, 2)), (Fraction(1, 2), Fraction(0))]
    for t in a_def.level_scale.samples(N):
        t = Fraction(t)
        if t > 1:
            a = 1 / (t + 1)
            pairs += [(a, t * a), (t * a, a)]
    return pairs


def _two_blocks(x, y, sizes, classed, one_class=False):
    """The binary table of ``sizes[0]`` rows (x, 1 - x) and ``sizes[1]`` rows (y, 1 - y), classes E1 and E2
    following the blocks (``one_class``: both blocks in E1), stored as its two distinct rows with their counts
    (:class:`~implgraph.io.weighted.WeightedConcreteTable`: every level is the one of the table written out,
    at a cost independent of N)."""
    den = math.lcm(x.denominator, y.denominator)
    rows = [[int(v * den), int((1 - v) * den)] for v in (x, y)]
    if classed and one_class:
        return WeightedConcreteTable(rows, den, ["b1", "b2"], list(sizes), row_class=[0, 0], class_labels=["E1"])
    return WeightedConcreteTable(rows, den, ["b1", "b2"], list(sizes), row_class=[0, 1] if classed else None,
                                 class_labels=["E1", "E2"] if classed else None)


def candidate_tables(a_def, b_def, N, params=(), classed=False, min_class=None, max_class=None, one_class=False):
    """Binary two-block tables at N records, classes following the blocks; with ``one_class`` (and classes), then the
    same tables with both blocks in one class of N records (where its size is allowed)."""
    whole = one_class and classed and (min_class is None or N >= min_class) and (max_class is None or N <= max_class)
    for together in ((False, True) if whole else (False,)):
        for s in block_sizes(N, params):
            sizes = (s, N - s)
            if classed and not together and ((min_class is not None and min(sizes) < min_class)
                                             or (max_class is not None and max(sizes) > max_class)):
                continue
            for x, y in _value_pairs(a_def, N):
                yield _two_blocks(x, y, sizes, classed, together)


def block_witness(a_def, a_params, b_def, b_params, N, f_raw=None, classed=False, min_class=None,
                  max_class=None, one_class=False):
    """A two-block witness at N records, or None.

    Without ``f_raw``: a table with A's level finite and B's infinite. With ``f_raw`` (A's raw level
    -> B's raw target): a table satisfying A at its own level whose B level is weaker than f there.

    Returns
    -------
    dict or None
        :func:`implgraph.engines.recheck.witness_dict` of the table (``kind``: ``non-implication``
        or ``f``), re-checked exactly.
    """
    params = list(a_params.values()) + list(b_params.values())
    for ct in candidate_tables(a_def, b_def, N, params, classed, min_class, max_class, one_class):
        ra = raw_level(a_def, a_params, ct)
        if ra is None or ra == INF:
            continue
        if raw_level(b_def, b_params, ct) == INF and is_witness(a_def, a_params, b_def, b_params, ct):
            return dict(witness_dict(ct, a_def, a_params, b_def, b_params), kind="non-implication")
        if f_raw is None:
            continue
        ra_s = sympy.Rational(ra.numerator, ra.denominator) if isinstance(ra, Fraction) else ra
        target = f_raw(ra_s)
        if is_witness(a_def, a_params, b_def, b_params, ct, a_raw=ra, f_raw=target):
            return dict(witness_dict(ct, a_def, a_params, b_def, b_params,
                                     {"level": str(a_def.level_from_raw(ra_s)),
                                      "f_at_level": str(b_def.level_from_raw(target))}), kind="f")
    return None
