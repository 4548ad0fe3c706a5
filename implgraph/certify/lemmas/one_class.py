"""The lemma ``one-class``: on a table of one class, the class is the table.

B's registered level on a table of one class is its strongest raw value (1 as a ratio, 0 as a distance), and U is
at least that on the whole domain: a one-class table has B at most U, whatever A (re-checked by
:func:`implgraph.certify.partitions.check_one_class`, which states it).
"""

from __future__ import annotations

from implgraph.certify.lemmas import lemma
from implgraph.certify.partitions import check_one_class
from implgraph.core import methods

__all__ = ["check"]

check = lemma(methods.ONE_CLASS, own_partitions=True)(check_one_class)
