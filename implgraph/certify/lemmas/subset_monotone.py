"""The lemma ``extreme-means-monotone`` (method ``subset-monotone``): the mean of the j extreme values is monotone in j.

In one bucket the mean of the j smallest values is nondecreasing in j and the mean of the j
largest nonincreasing (adding the next value moves the mean towards it), so a two-sided subset
level with size j_B >= j_A is at most the one with size j_A.
"""

from __future__ import annotations

from implgraph.certify.lemmas import lemma
from implgraph.certify.obligation import Obligation, is_T, size, two_sided_subsets
from implgraph.core import methods


def _subset_monotone(cert, A, B, rd, data):
    return [Obligation("j_B - j_A >= 0", size(B, rd) - size(A, rd))]


def _structure(cert, A, B, rd):
    return [two_sided_subsets(A, B), is_T(cert, rd)]


lemma(methods.SUBSET_MONOTONE, structure=_structure, obligations=_subset_monotone)
