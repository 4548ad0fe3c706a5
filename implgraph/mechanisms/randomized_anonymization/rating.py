"""The Rating method (Liu, Luo and Huang, ICDM Workshops 2011; sei2019's reference [32]), as sei2019 states it.

sei2019 compares its reconstruction with Rating for frequency ``(l_1, ..., l_q)``-diversity (Section VI, Figs. 1,
2, 5-7). Rating's own paper is not among the project's sources; what is implemented is what sei2019 says of it,
each sentence quoted:

- "This method publishes the Attribute Table (AT) and the ID Table (IDT) based on each sensitive coefficient,
  which is similar to l_j in this paper, of different attributes";
- "each tuple of the anonymized table has several values, like in our proposed method";
- "the Rating method adds values based on other records' sensitive QID values" (sei2019's method adds them
  "completely randomly"); "the Rating method anonymized each record while considering other values of the
  records";
- "the reconstruction algorithms were similar for both" (Rating and ValueAdding).

**Reading** (what sei2019 does not state, judged beside it): each attribute ``j`` is anonymized on its own; a
record is released with its own value and ``l_j - 1`` distinct other values taken from the other records' values:
repeatedly the value of another record drawn at random, skipping values already taken or equal to its own (a
weighted draw without replacement, each value weighted by how many records hold it: Efraimidis and Spirakis'
exponential keys). Where sei2019's method adds values uniformly ("completely randomly"), Rating's additions follow
the data, so a frequent value is added to most other records' sets. The ID Table and the Attribute Table, whose
layout sei2019 does not give, are not reproduced; the records' sets are what they release.

The reconstruction is ValueAdding's (eq. 18) with ``p_j = 1``: every value of a record's set counts ``1 / l_j``,
attributes independently, ``x_hat = w / prod_j l_j`` (``w`` of eq. 17). A frequent value's count is then spread
over the values it was added to, and the rare values gain it: "the reconstructed values of the Rating method are
much smaller than the original values when the original values are larger than the average value, and vice
versa" (sei2019, Section III; Fig. 7). Floats: a reconstruction is an estimate for plots, never a verdict.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

__all__ = ["RatingRelease", "rating_sets", "rating_anonymize", "rating_reconstruct", "fewest_values"]

BINCOUNT_LIMIT = 2 ** 22
"""Most record-cell incidences counted at once by :func:`rating_reconstruct`."""


@dataclass
class RatingRelease:
    """A Rating release: per attribute, each record's set of ``l_j`` distinct value indices (``sets[j]``, shape
    ``(N, l_j)``, the record's own value first)."""

    names: list
    domains: list
    levels: list
    sets: list

    @property
    def N(self) -> int:
        return int(len(self.sets[0])) if self.sets else 0

    def index(self, name) -> int:
        return self.names.index(name)


CHUNK = 2 ** 20
"""Most record-value keys drawn at once by :func:`rating_sets`."""


def rating_sets(codes, d: int, level: int, rng) -> np.ndarray:
    """``(N, level)`` value indices: each record's own value, then ``level - 1`` distinct other values drawn
    without replacement with weights the numbers of records holding them (values no record holds are never
    drawn). ValueError when a record has fewer than ``level - 1`` other values to draw from."""
    codes = np.asarray(codes, dtype=np.int64)
    n = len(codes)
    freq = np.bincount(codes, minlength=d).astype(float)
    present = int((freq > 0).sum())
    if level < 1 or (n and level - 1 > present - 1):
        raise ValueError(f"level {level}: the records hold {present} distinct values")
    out = np.empty((n, level), dtype=np.int64)
    out[:, 0] = codes
    if level == 1:
        return out
    with np.errstate(divide="ignore"):
        inverse = np.where(freq > 0, 1.0 / freq, np.inf)
    step = max(1, CHUNK // max(d, 1))
    for lo in range(0, n, step):
        own = codes[lo:lo + step]
        keys = rng.exponential(size=(len(own), d)) * inverse             # the smallest keys are the draws
        keys[np.arange(len(own)), own] = np.inf
        picked = np.argpartition(keys, level - 2, axis=1)[:, :level - 1]
        out[lo:lo + step, 1:] = picked
    return out


def rating_anonymize(cols: dict, levels: dict, rng, domains: dict | None = None) -> RatingRelease:
    """The Rating release of the columns ``cols`` (``{name: list of values}``) with ``levels`` (``{name: l_j}``,
    the "sensitive coefficient" of each attribute). ``domains``: each column's values in order (default: its
    distinct values sorted as text, as :func:`~implgraph.mechanisms.randomized_anonymization.release.encode`)."""
    from implgraph.mechanisms.randomized_anonymization.release import encode
    names, doms, lv, sets = [], [], [], []
    for name, values in cols.items():
        codes, dom = encode(values, (domains or {}).get(name))
        names.append(name)
        doms.append(list(dom))
        lv.append(int(levels[name]))
        sets.append(rating_sets(codes, len(dom), int(levels[name]), rng))
    return RatingRelease(names, doms, lv, sets)


def fewest_values(release: RatingRelease, name) -> int:
    """The fewest distinct values in a released set of attribute ``name`` (exact integer)."""
    sets = np.sort(release.sets[release.index(name)], axis=1)
    distinct = 1 + (np.diff(sets, axis=1) != 0).sum(axis=1)
    return int(distinct.min()) if len(distinct) else 0


def rating_reconstruct(release: RatingRelease, attrs) -> np.ndarray:
    """The cross tabulation of ``attrs`` estimated from a Rating release, shape ``(d_1, ..., d_q')`` (floats):
    ``w / prod_j l_j``, ``w[c]`` the number of records whose product of sets holds ``c`` (eq. 17)."""
    idx = [release.index(a) for a in attrs]
    shape = tuple(len(release.domains[j]) for j in idx)
    sets = [release.sets[j] for j in idx]
    per_record = math.prod(s.shape[1] for s in sets)
    step = max(1, BINCOUNT_LIMIT // max(per_record, 1))
    strides = np.cumprod((1,) + shape[:0:-1])[::-1]
    w = np.zeros(math.prod(shape), dtype=np.int64)
    n = release.N
    for lo in range(0, n, step):
        m = min(step, n - lo)
        flat = np.zeros((m,) + (1,) * len(idx), dtype=np.int64)
        for axis, (chosen, stride) in enumerate(zip(sets, strides)):
            view = [m] + [1] * len(idx)
            view[axis + 1] = chosen.shape[1]
            flat = flat + chosen[lo:lo + m].reshape(view) * int(stride)
        w += np.bincount(flat.ravel(), minlength=w.size)
    return (w / per_record).reshape(shape)
