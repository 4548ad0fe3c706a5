"""Coq proofs of ``ceiling-family`` certificates: B's own ceiling, whatever A's level.

A ``ceiling-family`` certificate says that B's supremum under A is U: its one ``part`` proves the upper bound (B's
own ceiling: ``one-sided-ceiling``, a one-sided class ratio at most N/s or one record's one-sided ratio to the table
at most N (``Mass.set_mass_subset``, pointwise maximal leakage), or ``divergence-ceiling``, a class's KL or Renyi
divergence at most log(N/s) with s the classes' least size, given by a class size A declares or by the partition),
and its ``family`` of tables the lower bound. The theorem here is the upper bound: the part's theorem, where the
part claims what the whole claims (the same symbols, domain, sides and U, field by field), so that the whole claims
nothing its part does not prove. The family (the supremum's other half) is a tightness claim,
stated apart (:mod:`implgraph.kernel_coq.tightness`), not here.
"""

from __future__ import annotations

from implgraph.kernel_coq.coqexpr import Untranslatable
from implgraph.kernel_coq.obligations import _need

__all__ = ["ceiling_family", "COMPOSITES"]

#: the parts a ceiling-family certificate's upper bound may come from
_CEILINGS = ("one-sided-ceiling", "divergence-ceiling")


#: the fields of a certificate that make its claim (the part's must be the whole's)
_CLAIM = ("symbols", "domain", "A", "B", "upper", "lower", "min_classes")


def ceiling_family(cert, name):
    """The theorem ``name`` of a ``ceiling-family`` certificate: its part's theorem, the part claiming exactly what
    the whole claims (the same symbols, domain, sides and U, field by field)."""
    from implgraph.kernel_coq import generate as _gen
    _need(len(cert.parts) == 1 and cert.parts[0].method in _CEILINGS,
          "a ceiling-family certificate whose upper bound is not one ceiling part")
    part = cert.parts[0]
    differ = [k for k in _CLAIM if cert.raw.get(k) != part.raw.get(k)]
    if differ:
        raise Untranslatable(f"a ceiling-family certificate whose part claims another implication ({', '.join(differ)} "
                             "differ from the whole's)")
    f, lines = _gen._leaf(part, name)
    return _gen._block(f.statement(), [f.intros()] + lines)


#: certificate method -> its text (a certificate of parts)
COMPOSITES = {"ceiling-family": ceiling_family}
