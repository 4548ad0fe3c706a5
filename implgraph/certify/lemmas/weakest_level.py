"""The lemma ``weakest-level``: B's target is at least as weak as B's weakest level, which every table meets.

B's registered scale declares that every table meets its weakest level; a target at least as weak on the whole
domain holds of every table, whatever A: a trivial truth (re-checked by
:func:`implgraph.certify.partitions.check_weakest_level`, which states it).
"""

from __future__ import annotations

from implgraph.certify.lemmas import lemma
from implgraph.certify.partitions import check_weakest_level
from implgraph.core import methods

__all__ = ["check"]

check = lemma(methods.WEAKEST_LEVEL, own_partitions=True)(check_weakest_level)
