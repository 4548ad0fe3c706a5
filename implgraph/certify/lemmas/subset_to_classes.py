"""The lemma ``class-mean-between-extremes`` (method ``subset-to-classes``).

A class of s records has its mean between the means of the s smallest and the s largest
values, hence (s >= j) between the j-extreme means: a two-sided class level with classes of at
least s >= j records is at most the subset level of size j.
"""

from __future__ import annotations

from implgraph.certify.lemmas import lemma
from implgraph.certify.obligation import Obligation, is_T, size, two_sided
from implgraph.core import methods


def _subset_to_classes_structure(cert, A, B, rd):
    return [("A is a two-sided subset level, B a two-sided class level", A["family"] == "subset"
             and B["family"] == "class" and two_sided(A) and two_sided(B) and B.get("min_class") is not None),
            is_T(cert, rd)]


def _subset_to_classes(cert, A, B, rd, data):
    return [Obligation("min class size - j_A >= 0", rd.poly(B["min_class"]) - size(A, rd))]


lemma(methods.SUBSET_TO_CLASSES, structure=_subset_to_classes_structure, obligations=_subset_to_classes)
