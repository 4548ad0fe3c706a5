"""A subset level cannot bound a smaller subset level: a non-implication for every N where j_B < j_A.

For two-sided subset levels of sizes j_A and j_B with 1 <= j_B < j_A <= N - 1, take j_B records with 0 in
the first bucket and the others at 1/2 in both buckets. The j_B zeros make a j_B-subset mean 0 where the
table's mean is positive, so B's level is infinite; every j_A-subset holds a record at 1/2, so each of A's
means is positive (and every value in the second bucket is), and A's level is finite. So no f works at
any such N. :func:`smaller_subset_threshold` gives the least N from which j_B < j_A holds for every N,
and :func:`zeros_witness` the table, whose levels are re-checked with the definitions' own exact levels.
"""

from __future__ import annotations

from fractions import Fraction

import sympy

from implgraph.core.concrete import INF, ConcreteTable
from implgraph.core.region import Region
from implgraph.engines.recheck import raw_level

__all__ = ["smaller_subset_threshold", "zeros_witness"]


def smaller_subset_threshold(ja, jb, N, largest: int = 64) -> int | None:
    """The least n <= ``largest`` such that 1 <= j_B < j_A <= N - 1 holds at n and (decided by the solver) at
    every N >= n; None if there is none. ``ja``, ``jb``: sizes as expressions in the symbol ``N``."""
    cond = sympy.And(jb >= 1, jb < ja, ja <= N - 1)
    for n in range(2, largest + 1):
        if cond.subs(N, n) is not sympy.true:
            continue
        if Region({N: "integer"}, (N >= n,)).decide(cond) is True:
            return n
        return None
    return None


def zeros_witness(a, b, a_params, b_params, n: int, ja: int, jb: int):
    """The table at N = ``n`` (``jb`` records [0, 1], the rest [1/2, 1/2]) if its exact levels are A finite and
    B infinite, else None."""
    rows = [[Fraction(0), Fraction(1)]] * jb + [[Fraction(1, 2), Fraction(1, 2)]] * (n - jb)
    ct = ConcreteTable.from_fractions(rows)
    ra, rb = raw_level(a, a_params, ct), raw_level(b, b_params, ct)
    if ra is None or rb is None or ra == INF or rb != INF:
        return None
    return {"rows": [[str(v) for v in r] for r in rows], "level_a": str(a.level_from_raw(sympy.sympify(ra))),
            "level_b": "oo", "point": {"N": n}}
