"""The table of a witness family in N (and K), as the family lemmas read it: the mean of its blocks of records,
and the signs decided for every N >= n0 and K >= K0.

Shared by :mod:`implgraph.certify.lemmas.divergence_family`, :mod:`~implgraph.certify.lemmas.divergence_growth`,
:mod:`~implgraph.certify.lemmas.ceiling_family` and :mod:`~implgraph.certify.lemmas.ceiling_chord`. A sign is
decided by substitution (each symbol = its start + u, u >= 0): a rational function whose numerator and denominator
then have coefficients of one sign, the same, is >= 0 there (sufficient, never a guess;
:func:`implgraph.certify.lemmas.divergence_family_domain.nonnegative_over`).
"""

from __future__ import annotations

import sympy

from implgraph.certify.lemmas.divergence_family_domain import nonnegative_over

__all__ = ["nonnegative_from", "mean", "tends_to_oo"]

_N = sympy.Symbol("N", positive=True, integer=True)
_K = sympy.Symbol("K", positive=True)
_U = sympy.Symbol("u", nonnegative=True)
_V = sympy.Symbol("v", nonnegative=True)


def nonnegative_from(expr, starts) -> bool:
    """Is the rational function ``expr`` >= 0 wherever each symbol of ``starts`` ({symbol: a}) is >= its a? Decided
    by numerator and denominator in the shifted variables (symbol = a + u) having coefficients of one sign each, the
    same sign (sufficient, never a guess)."""
    return nonnegative_over(expr, {s: a + w for (s, a), w in zip(starts.items(), (_U, _V))}, (_U, _V))


def mean(rows, n):
    """The mean record of the blocks ``rows`` (``[(count, values, class)]``) over ``n`` records, bucket by bucket."""
    return tuple(sympy.Add(*[c * vals[l] for c, vals, _ in rows]) / n for l in range(len(rows[0][1])))


def tends_to_oo(expr, n0) -> bool:
    """Does ``expr`` (rational in K, coefficients in N) tend to oo as K grows, for every N >= n0?"""
    num, den = sympy.fraction(sympy.cancel(sympy.together(expr)))
    pn, pd = sympy.Poly(num, _K), sympy.Poly(den, _K)
    if pn.degree() <= pd.degree():
        return False
    return nonnegative_from(pn.LC() * pd.LC(), {_N: n0}) and sympy.simplify(pn.LC() * pd.LC()) != 0
