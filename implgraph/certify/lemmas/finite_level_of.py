"""The lemma ``declared-finite-level`` (method ``finite-level-of``): A's level is B's wherever it is finite.

A's declaration says that wherever A's level is finite it is B's, in the same units
(``A["finite_level_of"]`` names B's definition): ``U = T``. The checker trusts that declaration
(tests/test_ceiling.py checks it against tests/brute.py on random tables); it checks the names and U.
"""

from __future__ import annotations

from implgraph.certify.lemmas import lemma
from implgraph.certify.obligation import is_T
from implgraph.certify.registered import registered
from implgraph.core import methods


def _declares_finite_level(A, B) -> bool:
    """Does A's *registered* definition (not the certificate's word for it) declare its level B's definition's
    wherever finite (``FiniteLevelOf``), without parameters on either side? The checker reads the declaration from
    the registry: the data the prover read, not a copy the certificate could forge."""
    from implgraph.definitions.capabilities import FiniteLevelOf
    d = registered(A.get("definition"))
    finite = None if d is None else d.declared(FiniteLevelOf)
    return (finite is not None and finite.name == B.get("definition")
            and not A.get("params") and not B.get("params"))


def _structure(cert, A, B, rd):
    return [("A's registered definition declares B's level where finite", _declares_finite_level(A, B)), is_T(cert, rd)]


lemma(methods.FINITE_LEVEL_OF, structure=_structure)
