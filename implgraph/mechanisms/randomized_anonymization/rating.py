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

**Reading** (a restriction sei2019 does not state, judged beside it): each attribute ``j`` is anonymized on its
own. Its records are put into groups of ``l_j`` (or ``l_j + 1``) records; the ID Table gives each record's group,
the Attribute Table each group's values with their counts; a record's released values are those of its group,
its own and its group mates' (values "based on other records"). Groups are formed as Anatomy forms them for one
sensitive attribute (the records sorted by value, the most frequent value first, records of a value in random
order, the ``i``-th record into group ``i mod G``, ``G = floor(N / l_j)``): when no value is held by more than
``G`` records, every group holds ``l_j`` or ``l_j + 1`` distinct values, one record each; otherwise (the data are
not ``l_j``-eligible: no grouping can reach ``l_j`` distinct values in every group) some groups hold a value
twice, and :func:`fewest_values` says how many distinct values the poorest group holds.

The reconstruction is ValueAdding's with the group's counts: a record of group ``g`` holds value ``v`` with
probability ``count_g(v) / |g|``, attributes independently, and ``x_hat[c]`` sums over the records the product of
these probabilities (as eq. 18 with ``p_j = 1`` sums ``1 / eta_j`` over the values of each released set). On one
attribute it returns the original counts exactly; across attributes the groups' values mix the records' values,
which flattens the cross tabulation (sei2019, Fig. 7: "The reconstructed values were much smaller than the
original values when the original one was larger than average, and vice versa"). Floats: a reconstruction is
an estimate for plots, never a verdict.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

__all__ = ["RatingRelease", "rating_groups", "rating_anonymize", "rating_reconstruct", "fewest_values"]

BINCOUNT_LIMIT = 2 ** 22
"""Most record-cell incidences counted at once by :func:`rating_reconstruct`."""


@dataclass
class RatingRelease:
    """A Rating release: per attribute, the ID Table (``groups[j]``: each record's group) and the Attribute Table
    (``table[j]``: ``(groups, d_j)`` counts of each value in each group)."""

    names: list
    domains: list
    levels: list
    groups: list
    table: list

    @property
    def N(self) -> int:
        return int(len(self.groups[0])) if self.groups else 0

    def index(self, name) -> int:
        return self.names.index(name)


def rating_groups(codes, d: int, level: int, rng) -> tuple:
    """``(group of each record, (groups, d) counts)`` of one attribute's value codes grouped for ``level``
    (the reading in the module's docstring). ``level`` is at least 1 and at most the number of records."""
    codes = np.asarray(codes, dtype=np.int64)
    n = len(codes)
    if not 1 <= level <= max(n, 1):
        raise ValueError(f"level {level} outside 1..{n}")
    g = max(n // level, 1)
    freq = np.bincount(codes, minlength=d)
    rank = np.empty(d, dtype=np.int64)
    rank[np.lexsort((np.arange(d), -freq))] = np.arange(d)         # the most frequent value first
    order = np.lexsort((rng.permutation(n), rank[codes]))           # by value; a value's records shuffled
    group = np.empty(n, dtype=np.int64)
    group[order] = np.arange(n) % g
    table = np.zeros((g, d), dtype=np.int64)
    np.add.at(table, (group, codes), 1)
    return group, table


def rating_anonymize(cols: dict, levels: dict, rng, domains: dict | None = None) -> RatingRelease:
    """The Rating release of the columns ``cols`` (``{name: list of values}``) with ``levels`` (``{name: l_j}``,
    the "sensitive coefficient" of each attribute). ``domains``: each column's values in order (default: its
    distinct values sorted as text, as :func:`~implgraph.mechanisms.randomized_anonymization.release.encode`)."""
    from implgraph.mechanisms.randomized_anonymization.release import encode
    names, doms, lv, groups, tables = [], [], [], [], []
    for name, values in cols.items():
        codes, dom = encode(values, (domains or {}).get(name))
        group, table = rating_groups(codes, len(dom), int(levels[name]), rng)
        names.append(name)
        doms.append(list(dom))
        lv.append(int(levels[name]))
        groups.append(group)
        tables.append(table)
    return RatingRelease(names, doms, lv, groups, tables)


def fewest_values(release: RatingRelease, name) -> int:
    """The fewest distinct values in a group of attribute ``name`` (exact integer): ``l_j`` or more when the
    data are ``l_j``-eligible."""
    table = release.table[release.index(name)]
    return int((table > 0).sum(axis=1).min())


def _sets(release, j):
    """Per record of attribute ``j``: its group's values (padded) and their probabilities ``count / size``."""
    table = release.table[j]
    size = table.sum(axis=1)
    width = int((table > 0).sum(axis=1).max())
    vals = np.argsort(table == 0, axis=1, kind="stable")[:, :width]       # each group's values first
    probs = np.take_along_axis(table, vals, axis=1) / np.maximum(size, 1)[:, None]
    g = release.groups[j]
    return vals[g], probs[g]


def rating_reconstruct(release: RatingRelease, attrs) -> np.ndarray:
    """The cross tabulation of ``attrs`` estimated from a Rating release, shape ``(d_1, ..., d_q')`` (floats):
    ``x_hat[c] = sum over records of prod_j count_{g_j}(c_j) / |g_j|``."""
    idx = [release.index(a) for a in attrs]
    shape = tuple(len(release.domains[j]) for j in idx)
    parts = [_sets(release, j) for j in idx]
    per_record = math.prod(v.shape[1] for v, _ in parts)
    step = max(1, BINCOUNT_LIMIT // max(per_record, 1))
    strides = np.cumprod((1,) + shape[:0:-1])[::-1]
    out = np.zeros(math.prod(shape))
    n = release.N
    for lo in range(0, n, step):
        m = min(step, n - lo)
        flat = np.zeros((m,) + (1,) * len(idx), dtype=np.int64)
        weight = np.ones((m,) + (1,) * len(idx))
        for axis, ((vals, probs), stride) in enumerate(zip(parts, strides)):
            view = [m] + [1] * len(idx)
            view[axis + 1] = vals.shape[1]
            flat = flat + vals[lo:lo + m].reshape(view) * int(stride)
            weight = weight * probs[lo:lo + m].reshape(view)
        flat, weight = np.broadcast_arrays(flat, weight)
        out += np.bincount(flat.ravel(), weights=weight.ravel(), minlength=out.size)
    return out.reshape(shape)
