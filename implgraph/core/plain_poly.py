"""Polynomials read from sympy expressions by polynomial arithmetic (:func:`plain_poly`).

``sympy.Poly(e, *gens)`` expands ``e`` as an expression first (``expand``, then a walk over the expanded
terms), the most expensive part of the engine's exact fraction forms (:mod:`implgraph.core.factoring`). When
``e`` is built from symbols and rational numbers by sums, products and non-negative integer powers, the same
polynomial is computed far faster by arithmetic in a sparse polynomial ring over ``QQ`` on ``e``'s tree; the
result is the very ``Poly`` sympy gives (same terms, generators and domain).
"""

from __future__ import annotations

import functools

import sympy
from sympy.polys.domains import QQ, ZZ
from sympy.polys.orderings import lex
from sympy.polys.polyutils import _sort_gens
from sympy.polys.rings import PolyRing

__all__ = ["plain_poly", "monomial_sum_gens", "NotPlain"]


class NotPlain(ValueError):
    """The expression is not a polynomial with rational coefficients in the given symbols."""


@functools.lru_cache(maxsize=1024)
def _ring(gens):
    return PolyRing(gens, QQ, lex)


def _ring_element(e, ring, index, memo):
    """``e`` as an element of ``ring`` (sums, products and non-negative integer powers of its symbols and
    rational numbers); :class:`NotPlain` for anything else."""
    hit = memo.get(e)
    if hit is not None:
        return hit
    if e.is_Rational:
        out = ring.ground_new(QQ(int(e.p), int(e.q)))
    elif e.is_Symbol:
        if e not in index:
            raise NotPlain(e)
        out = ring.gens[index[e]]
    elif e.is_Add or e.is_Mul:
        out = ring.zero if e.is_Add else ring.one
        for a in e.args:
            x = _ring_element(a, ring, index, memo)
            out = out + x if e.is_Add else out * x
    elif e.is_Pow and e.exp.is_Integer and e.exp >= 0:
        out = _ring_element(e.base, ring, index, memo) ** int(e.exp)
    else:
        raise NotPlain(e)
    memo[e] = out
    return out


def plain_poly(e, gens):
    """``sympy.Poly(e, *gens)`` for a polynomial ``e`` with rational coefficients in the symbols ``gens``,
    computed by polynomial arithmetic on ``e``'s tree instead of expanding it as an expression (the same
    polynomial, generators and domain: ``ZZ`` when every coefficient is an integer, else ``QQ``).

    Raises
    ------
    NotPlain
        ``e`` holds anything else (a function, a float, a negative or symbolic power, another symbol).

    Examples
    --------
    >>> x, y = sympy.symbols("x y")
    >>> plain_poly((x + y)**2 / 2 - x*y, (x, y))
    Poly(1/2*x**2 + 1/2*y**2, x, y, domain='QQ')
    """
    gens = tuple(gens)
    element = _ring_element(sympy.sympify(e), _ring(gens), {g: i for i, g in enumerate(gens)}, {})
    terms = dict(element)
    domain = ZZ if all(c.denominator == 1 for c in terms.values()) else QQ
    return sympy.Poly.from_dict(terms, *gens, domain=domain)


def monomial_sum_gens(p):
    """The generators ``sympy.Poly(p)`` finds for a sum ``p`` of monomials in symbols (its own expansion), in
    its order; None when ``p`` holds anything else (then only sympy's own construction says)."""
    gens = set()
    for term in p.args:
        for factor in sympy.Mul.make_args(term):
            if factor.is_Rational:
                continue
            base, m = factor.as_base_exp()
            if not (base.is_Symbol and m.is_Integer and m > 0):
                return None
            gens.add(base)        # the order sympy's set is built in (Poly(p) iterates the same args)
    return _sort_gens(gens)
