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
from sympy.polys.polyclasses import DMP
from sympy.polys.polyoptions import Options
from sympy.polys.polyutils import _sort_gens
from sympy.polys.rings import PolyRing

__all__ = ["plain_poly", "monomial_sum_gens", "NotPlain"]


#: ``Poly(p)``'s options (none given): the generators' order :func:`monomial_sum_gens` follows (made once: making
#: options is most of the cost of sorting a few generators)
_NO_OPTIONS = Options((), {})


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
    domain = QQ
    if all(c.denominator == 1 for c in terms.values()):
        domain, terms = ZZ, {m: ZZ(int(c.numerator)) for m, c in terms.items()}
    # (the dense form of the terms, as ``Poly.from_dict`` makes it, without converting each coefficient again)
    return sympy.Poly.new(DMP.from_dict(terms, len(gens) - 1, domain), *gens)


def monomial_sum_gens(p):
    """The generators ``sympy.Poly(p)`` finds for a sum ``p`` of monomials in symbols (its own expansion), in
    sympy's order; None when ``p`` holds anything else (then only sympy's own construction says).

    Where sympy's order ties (``k`` and ``k0``: one name and index to it) sympy keeps the order of a set, which
    changes with the process's hash seed; here the tie is broken by name, so the answer is the same in every
    process.
    """
    gens = set()
    for term in p.args:
        for factor in sympy.Mul.make_args(term):
            if factor.is_Rational:
                continue
            base, m = factor.as_base_exp()
            if not (base.is_Symbol and m.is_Integer and m > 0):
                return None
            gens.add(base)
    return _sort_gens(sorted(gens, key=lambda g: g.name), opt=_NO_OPTIONS)
