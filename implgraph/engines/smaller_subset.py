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

from implgraph.definitions.levels import infinite_everywhere, optimal_level
from implgraph.prover.shapes import min_class_name
from implgraph.core.region import Region
from implgraph.core.table import Block, Table

__all__ = ["smaller_subset_threshold", "zero_records_witness", "witness_beyond", "small_class_beyond"]


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


def small_class_beyond(a_node, b_node, n_checked: int):
    """Where B declares a minimum class size s_B (``MinClassSize``, its level infinite on a table with a smaller
    class) and A allows classes of s < s_B records (its own declared minimum, else 1): two classes of s and n0 - s
    records of one same row (1/2, 1/2), n0 = max(2 s, ``n_checked`` + 1), B infinite there; ``{"n0", "table",
    "text"}`` for the caller's exact re-check (A's level must be finite on it), else None."""
    from implgraph.core.concrete import ConcreteTable
    a, b = a_node.definition, b_node.definition
    name_b = min_class_name(b)
    if not b.needs_classes or name_b is None or a_node.free_symbols() or b_node.free_symbols():
        return None
    sb = sympy.sympify(b_node.param_dict.get(name_b))
    name_a = min_class_name(a)
    sa = sympy.sympify(a_node.param_dict.get(name_a, 1)) if name_a else sympy.Integer(1)
    if not (sb.is_Integer and sa.is_Integer and 1 <= sa < sb):
        return None
    s_, n0 = int(sa), max(2 * int(sa), n_checked + 1)
    half = sympy.Rational(1, 2)
    table = ConcreteTable.from_fractions([[half, half]] * n0, classes=["E1"] * s_ + ["E2"] * (n0 - s_))
    return {"n0": n0, "table": table,
            "text": (f"two classes of {s_} and {n0 - s_} records, every record at (1/2, 1/2): the class of {s_} < "
                     f"{name_b} = {sb} records makes {b.name} infinite, at every N >= {max(2 * s_, s_ + 1)}")}


def witness_beyond(a_node, b_node, n_checked: int):
    """A non-implication for every N from some n0 > ``n_checked`` on, where the N checked show an implication: two
    two-sided subset levels with j_B < j_A for every N >= n0 (:func:`smaller_subset_threshold`), and the zero-records
    table (:func:`zero_records_witness`) with B infinite and A finite at every N >= n0 (exact symbolic levels).

    Returns
    -------
    dict or None
        ``{"n0", "z", "level_a", "table"}``: the family's first N, its number of records at 0, A's symbolic level on
        N >= n0 and the table at N = n0 (a :class:`~implgraph.core.concrete.ConcreteTable`, for the caller's exact
        re-check); None where there is no such family (a parameter that is a symbol, other families).
    """
    from implgraph.core.concrete import ConcreteTable
    from implgraph.definitions.nodes import N_SYM
    from implgraph.prover.shapes import compares, subset_size_expr
    a, b = a_node.definition, b_node.definition
    if a_node.free_symbols() or b_node.free_symbols() or not (compares(a, "subset") and compares(b, "subset")):
        return None
    N = sympy.Symbol("N", integer=True)
    ap = {k: sympy.sympify(v).subs(N_SYM, N) for k, v in a_node.param_dict.items()}
    bp = {k: sympy.sympify(v).subs(N_SYM, N) for k, v in b_node.param_dict.items()}
    ja, jb = subset_size_expr(a, N, ap), subset_size_expr(b, N, bp)
    if ja is None or jb is None:
        return None
    n0 = smaller_subset_threshold(ja, jb, N)
    if n0 is None:
        return None
    found = zero_records_witness(a, b, ap, bp, Region({N: "integer"}, (N >= n0,)), N, ja, jb)
    if found is None:
        return None
    z, la = found
    zv = int(sympy.sympify(z).subs(N, n0))
    half = sympy.Rational(1, 2)
    rows = [[0, 1]] * zv + [[half, half]] * (n0 - zv)
    return {"n0": n0, "z": z, "level_a": la, "table": ConcreteTable.from_fractions(rows)}
