"""Tables with records at 0 in one bucket: a non-implication for every parameter value of a region.

:func:`zero_records_witness` builds, for a count z of records (1, j_A - 1 or j_B, where they make sense on the
region), the parametric table of z records [0, 1] and N - z records [1/2, 1/2] and computes both levels
symbolically with the core: B infinite everywhere on the region and A finite is a non-implication at every
point of it. For two-sided subset levels with 1 <= j_B < j_A <= N - 1, z = j_B is one: a j_B-subset of zeros
has mean 0 where the table's mean is positive, while every j_A-subset holds a record at 1/2.
:func:`smaller_subset_threshold` gives the least N from which j_B < j_A holds for every N.
"""

from __future__ import annotations

import sympy

from implgraph.core.levels import infinite_everywhere, optimal_level
from implgraph.core.region import Region
from implgraph.core.table import Block, Table

__all__ = ["smaller_subset_threshold", "zero_records_witness"]


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


def zero_records_witness(a, b, a_params, b_params, region, N, ja=None, jb=None):
    """``(z, level)``: z records with Pr(a1) = 0 and N - z with Pr(a1) = 1/2 give B's level oo and A's level
    ``level`` (finite on every piece) on the whole ``region``, for the first z of 1, j_A - 1, j_B (the subset
    sizes, where given) that lies in [1, N - 1] there; None if none does."""
    cands = [sympy.Integer(1)] + [j for j in (None if ja is None else ja - 1, jb) if j is not None]
    half = sympy.Rational(1, 2)
    for z in cands:
        if region.decide(sympy.And(sympy.Ge(z, 1), sympy.Le(z, N - 1))) is not True:
            continue
        table = Table(blocks=[Block(probs=(sympy.Integer(0), sympy.Integer(1)), count=z),
                              Block(probs=(half, half), count=N - z)], region=region)
        try:   # B first: A's level is needed only where B's is infinite
            if not infinite_everywhere(table, b, **b_params):
                continue
            la = optimal_level(table, a, **a_params)
        except Exception:
            continue
        if not la.defined:
            continue
        if all(p_.value is not None and p_.value is not sympy.oo for p_ in la.pieces):
            return z, la
    return None
