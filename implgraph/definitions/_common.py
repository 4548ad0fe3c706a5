"""The exact levels of a ratio of averages (symbolic and concrete), one function per record family.

``subset_ratio`` is the optimal t of Definition 7 for subsets of size ``j``: for every bucket the
mean over all records is compared with the smallest and the largest mean over j records, which are
the means of the j smallest and of the j largest values. ``class_ratio`` compares every equivalence
class with the whole table. With ``one_sided=True`` only the ratio ``mean_S / mean_D`` counts (a
set above the table), never its inverse.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import sympy

from implgraph.core.concrete import INF, max_ratio, ratio
from implgraph.core.errors import InputError

__all__ = ["pairwise_ratio", "pairwise_ratio_concrete", "subset_ratio", "subset_ratio_concrete", "class_ratio",
           "class_ratio_concrete", "check_subset_size", "check_subset_size_concrete", "emd_concrete"]


def check_subset_size(ctx_or_region, table_size, j, name, low=1, high_offset=1):
    """k must satisfy low <= k <= N - high_offset on the whole region."""
    from implgraph.core.symbolic import Ctx
    region = ctx_or_region.region if isinstance(ctx_or_region, Ctx) else ctx_or_region
    # a context's ``known`` holds facts of an enclosing region: proved once, true on every piece
    known = ctx_or_region.known if isinstance(ctx_or_region, Ctx) else {}
    cond = sympy.And(sympy.Ge(j, low), sympy.Le(j, table_size - high_offset))
    key = ("subset-size", cond)
    ok = known.get(key)
    if ok is None:
        ok = region.decide(cond) if not isinstance(cond, sympy.logic.boolalg.BooleanAtom) else bool(cond)
    if ok is True:
        known[key] = True
    else:
        raise InputError(f"{name}: group size {j} is out of range [{low}, N - {high_offset}] with N = {table_size}",
                         fix=f"choose k with {low} <= k <= N - {high_offset}")


def check_subset_size_concrete(n, j, name):
    """The subset size ``j`` must satisfy 1 <= j <= N - 1 (InputError otherwise)."""
    if not 1 <= j <= n - 1:
        raise InputError(f"{name}: subset size {j} is out of range [1, {n - 1}] for N = {n}",
                         fix="choose parameters with 1 <= subset size <= N - 1")


def _sides(one_sided, down, up):
    """The ratios that count, computed in this order: ``table / set`` (``down``, two-sided only),
    then ``set / table`` (``up``); both are functions of no argument."""
    return [up()] if one_sided else [down(), up()]


def pairwise_ratio(ctx, table):
    """max over buckets of (largest value) / (smallest value): the pairwise ratio of Definition 6."""
    best = 1
    for l in range(table.p):
        values = [v for v, _ in table.column(l)]
        best = ctx.max([best, ctx.ratio(ctx.max(values), ctx.min(values))])
    return best


def pairwise_ratio_concrete(ct):
    best = Fraction(1)
    rows = getattr(ct, "rows", None)        # a grouped table's distinct rows: the same largest and smallest values
    rows = ct.numer if rows is None else rows
    for l in range(ct.p):
        col = rows[:, l]
        best = max_ratio([best, ratio(int(col.max()), int(col.min()))])
        if best == INF:
            return INF
    return best


def subset_ratio(ctx, table, j, one_sided=False):
    """max over buckets of max(mean / min_j-mean, max_j-mean / mean) (one-sided: the second only)."""
    n = table.size
    best = sympy.Integer(1)
    for l in range(table.p):
        col = table.column(l)
        total = sum((v * c for v, c in col), sympy.Integer(0))
        lo = None if one_sided else ctx.extreme_sum(col, j, largest=False)
        hi = ctx.extreme_sum(col, j, largest=True)
        # mean/lo_mean = total*j/(n*lo);  hi_mean/mean = hi*n/(j*total)
        best = ctx.max([best] + _sides(one_sided, lambda: ctx.ratio(total * j, n * lo),
                                       lambda: ctx.ratio(hi * n, j * total)))
    return best


def subset_ratio_concrete(ct, j: int, one_sided=False):
    n = ct.N
    best = Fraction(1)
    for l in range(ct.p):
        total = ct.total(l)
        hi = ct.extreme_sum(l, j, largest=True)
        best = max_ratio([best] + _sides(one_sided, lambda: ratio(total * j, n * ct.extreme_sum(l, j, largest=False)),
                                         lambda: ratio(hi * n, j * total)))
        if best == INF:
            return INF
    return best


def class_ratio(ctx, table, one_sided=False):
    """Multiplicative distance (Def. 4) between each class and the whole table, maximised
    (one-sided: ``Pr_E / Pr_D`` only)."""
    n = table.size
    best = sympy.Integer(1)
    for l in range(table.p):
        total = sum((b.probs[l] * b.count for b in table.blocks), sympy.Integer(0))
        for _, blocks in table.classes.items():
            size = sum((b.count for b in blocks), sympy.Integer(0))
            s = sum((b.probs[l] * b.count for b in blocks), sympy.Integer(0))
            # Pr_D / Pr_E = total*size/(n*s)
            best = ctx.max([best] + _sides(one_sided, lambda: ctx.ratio(total * size, n * s),
                                           lambda: ctx.ratio(s * n, size * total)))
    return best


def class_ratio_concrete(ct, one_sided=False):
    n = ct.N
    best = Fraction(1)
    sizes, sums = ct.class_sums()
    sizes = [int(x) for x in sizes]
    for l in range(ct.p):
        total = ct.total(l)
        col = [int(x) for x in sums[:, l]]
        # only the classes with the smallest and the largest mean matter (exact comparison by
        # cross-multiplication: s1/z1 < s2/z2 iff s1*z2 < s2*z1)
        lo = hi = 0
        for c in range(1, len(col)):
            if col[c] * sizes[lo] < col[lo] * sizes[c]:
                lo = c
            if col[c] * sizes[hi] > col[hi] * sizes[c]:
                hi = c
        for c in ({hi} if one_sided else {lo, hi}):
            size, s = sizes[c], col[c]
            best = max_ratio([best] + _sides(one_sided, lambda: ratio(total * size, n * s),
                                             lambda: ratio(s * n, size * total)))
            if best == INF:
                return INF
    return best


def emd_concrete(ct, ground="equal"):
    """The largest EMD between a class and the whole table (t-closeness), in integer arithmetic.

    With class sums ``s_l``, class size ``z``, totals ``T_l`` and ``N`` records over denominator
    ``D``: ``Q_l - P_l = d_l / (z N D)`` with the integer ``d_l = s_l N - T_l z``. The EMD with the
    ``equal`` ground distance is ``sum |d_l| / (2 z N D)``, with ``ordered`` it is
    ``sum_{i < p} |d_1 + ... + d_i| / ((p - 1) z N D)``; classes are compared by cross-multiplication
    (one pass over the class sums, no per-class Fractions). None without classes.
    """
    sizes, sums = ct.class_sums()
    if not len(sizes):
        return None
    n = ct.N
    totals = [ct.total(l) for l in range(ct.p)]
    best_x, best_z = 0, 1
    for z, row in zip(sizes.tolist(), sums.tolist()):
        d = [int(s) * n - t * z for s, t in zip(row, totals)]
        if ground == "ordered":
            d = list(itertools.accumulate(d[:-1]))
        x = sum(abs(v) for v in d)
        if x * best_z > best_x * z:
            best_x, best_z = x, z
    scale = 2 if ground == "equal" else ct.p - 1
    return Fraction(best_x, scale * best_z * n * ct.denom)
