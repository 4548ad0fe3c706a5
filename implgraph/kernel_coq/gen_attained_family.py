"""Coq proofs of ``attained-family`` certificates: a proved upper bound U, attained by a family (docs/arguments/
attained-family.md).

An ``attained-family`` certificate says that B's supremum under A is U: its one ``part`` proves the upper bound (a
``composition``, ``tv-distance``, ...), and its ``tightness`` family of tables the lower bound. The theorem here is
the upper bound: the part's theorem, stated under the whole's name, where the part claims what the whole claims (the
same symbols, domain, sides and U, field by field), so that the whole claims nothing its part does not prove. The
family (the supremum's other half) is a tightness claim, stated apart (:mod:`implgraph.kernel_coq.tightness`: a
theorem ``tNNN`` for a two-block family without Min or Max whose sides have the library's two-block lemmas).
"""

from __future__ import annotations

from implgraph.kernel_coq.coqexpr import Untranslatable
from implgraph.kernel_coq.obligations import _need

__all__ = ["attained_family"]

#: the fields of a certificate that make its claim (the part's must be the whole's)
_CLAIM = ("symbols", "domain", "A", "B", "upper")


def attained_family(cert, name, theorem):
    """The theorem ``name`` of an ``attained-family`` certificate: its part's theorem (module notes), stated by
    ``theorem`` (:func:`implgraph.kernel_coq.registry.theorem`, handed over by the registry)."""
    _need(len(cert.parts) == 1 and cert.parts[0].method != "attained-family",
          "an attained-family certificate whose upper bound is not one part")
    part = cert.parts[0]
    differ = [k for k in _CLAIM if cert.raw.get(k) != part.raw.get(k)]
    if differ:
        raise Untranslatable(f"an attained-family certificate whose part claims another implication "
                             f"({', '.join(differ)} differ from the whole's)")
    text, mods = theorem(part, name)
    _need(not mods, "an attained-family certificate whose part needs a header module")
    return text

