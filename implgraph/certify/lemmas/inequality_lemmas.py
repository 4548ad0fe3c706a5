"""The lemma ``inequality-lemmas``: a chain of textbook inequalities between class levels.

B's optimal level is at least ``f`` of A's on every table with classes, by a chain of facts about one class's
distribution, each trusted with its reference; the facts, the chain and the tightness family are re-checked by
:mod:`implgraph.certify.lemma_chain` (which states them). The statement check reads the certificate's ``f``
(``x``, ``ceiling(x)`` or ``capped(x)``) of A's level as a lower bound of B's raw level.
"""

from __future__ import annotations

import sympy

from implgraph.certify import lemma_chain
from implgraph.certify.lemmas import lemma
from implgraph.core import methods

__all__ = ["check", "statement_bound"]


def statement_bound(cert, direction, names):
    """``(bound, False)``: the certificate's ``f`` of A's level (``x``, ``ceiling(x)``, ``capped(x)``) as B's raw
    level in T, a lower bound; None for another map."""
    x = sympy.Symbol("x", positive=True)
    n = sympy.floor(x)
    # capped(x): exp(H) of the capped distribution, floor(x) values at 1/x and one at 1 - floor(x)/x
    # (implgraph.certify.lemma_chain), x^(n/x) (1 - n/x)^(-(1 - n/x)) with n = floor(x)
    forms = {"x": x, "ceiling(x)": sympy.ceiling(x), "capped(x)": x ** (n / x) * (1 - n / x) ** (-(1 - n / x))}
    f = forms.get(str(cert.get("f")))
    if f is None:
        return None
    level = f.subs(x, direction.a.definition.level_from_raw(names["T"]))
    return direction.b.definition.raw_from_level(level), False


@lemma(methods.INEQUALITY_LEMMAS, bound=statement_bound, own_partitions=True)
def check(cert, ns=range(2, 13), timeout_ms=4000):
    """Re-check an ``inequality-lemmas`` certificate (:func:`implgraph.certify.lemma_chain.check`)."""
    return lemma_chain.check(cert)
