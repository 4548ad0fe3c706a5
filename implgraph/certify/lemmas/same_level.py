"""The lemma ``same-level``: B's raw level is A's on every table.

Two identical descriptions (family, sides, subset size, distance; for classes the same class sizes:
the classes are the table's one partition) have the same level on every table. Only a description
that fixes a level counts: one with declared sides (a ratio of averages) or a declared distance.
A two-sided ratio of averages and the one-sided one over the same record sets (the descriptions identical but
for B's sides): B's ratios are some of A's, so B's raw level is at most A's on every table; such a certificate
may not claim tightness (a one-sided level has a ceiling).
"""

from __future__ import annotations

from implgraph.certify.lemmas import lemma
from implgraph.certify.obligation import is_T
from implgraph.core import methods


def _same_level_structure(cert, A, B, rd):
    # a description fixes the level only when it declares sides (a ratio of averages) or a distance
    described = (A.get("sides") in ("two-sided", "one-sided") or A.get("distance") is not None)
    same = (described and A.get("sides") == B.get("sides") and A.get("distance") == B.get("distance")
            and _same_sets(A, B, rd))
    # or the two sides are one definition (its name, the registry checks the rest) with the same parameters
    # and partition: one level function, whatever its description
    one = (bool(A.get("definition")) and A.get("definition") == B.get("definition")
           and (A.get("params") or {}) == (B.get("params") or {})
           and all(A.get(k) == B.get(k) for k in ("size", "min_class", "max_class")))
    # or B is one side of A's two-sided ratio over the same sets (an upper bound only)
    side = (A.get("sides") == "two-sided" and B.get("sides") == "one-sided" and not cert.get("tight")
            and A.get("distance") is None and B.get("distance") is None and _same_sets(A, B, rd))
    return [("A and B have identical descriptions, or are one definition with the same parameters, or B is one side "
             "of A's two-sided ratio over the same record sets (not claimed tight)", same or one or side),
            is_T(cert, rd)]


def _same_sets(A, B, rd):
    """The same record sets: the family, the subset size, and for classes the same class sizes."""
    return (A["family"] == B["family"] and rd.poly(A.get("size") or 0) == rd.poly(B.get("size") or 0)
            and (A["family"] != "class" or (rd.poly(A.get("min_class") or 1) == rd.poly(B.get("min_class") or 1)
                                            and A.get("max_class") == B.get("max_class"))))


lemma(methods.SAME_LEVEL, structure=_same_level_structure, every_partition="B's raw level is A's on every table")
