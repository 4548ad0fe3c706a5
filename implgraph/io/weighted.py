"""A concrete table stored as distinct rows with multiplicities (grouped microdata).

A data set of N records usually holds far fewer distinct (class, probabilities) rows than
records: a deterministic table (one sensitive value per record, probability 1 there and 0
elsewhere) has at most (number of classes) x (number of values) of them. A
:class:`WeightedConcreteTable` keeps each distinct row once (``rows``) with its count and answers
the questions the definitions' ``concrete`` views ask of a
:class:`~implgraph.core.concrete.ConcreteTable` (``N``, ``total``, ``extreme_sum``,
``class_groups``, ``class_sums``) from the distinct rows, exactly as the table with every record
written out would: sums are weighted by the counts, and the k smallest (largest) values of a
bucket are taken group by group.

The ConcreteTable contract still holds: ``numer`` and ``classes`` are one row per record (in
class order), written out from the distinct rows on first use only, for a view that reads the
records one by one.
"""

from __future__ import annotations


from implgraph.core.concrete import ConcreteTable

__all__ = ["WeightedConcreteTable"]


class WeightedConcreteTable(ConcreteTable):
    """Distinct rows ``rows[r] / denom``, row ``r`` standing for ``counts[r]`` records.

    Parameters
    ----------
    rows : numpy.ndarray
        (R, p) integer numerators of the distinct rows.
    denom : int
    buckets : list of str
    counts : numpy.ndarray
        (R,) int64, every count >= 1.
    row_class : numpy.ndarray or None
        (R,) class index of each row (an index into ``class_labels``); None without classes.
    class_labels : list of str or None
        One label per class, in class-index order.

    Examples
    --------
    Two records (1, 0) in class A and one (0, 1) in class B, stored as two rows:

    >>> t = WeightedConcreteTable.from_class_counts([[2, 0], [0, 1]], ["A", "B"], ["x", "y"])
    >>> t.N, t.total(0), t.extreme_sum(0, 2, largest=False), t.numer.tolist()
    (3, 2, 1, [[1, 0], [1, 0], [0, 1]])
    """

    def __init__(self, rows, denom, buckets, counts, row_class=None, class_labels=None, id=None):
        import numpy as np
        self.rows = np.asarray(rows)
        self.denom = int(denom)
        self.buckets = list(buckets)
        self.counts = np.asarray(counts, dtype=np.int64)
        self.row_class = None if row_class is None else np.asarray(row_class, dtype=np.int64)
        self.class_labels = None if class_labels is None else [str(x) for x in class_labels]
        self.id = id

    @classmethod
    def from_class_counts(cls, counts, class_labels, buckets, id=None) -> "WeightedConcreteTable":
        """The deterministic table with ``counts[c][l]`` records of class ``c`` holding value ``l``.

        Every record has probability 1 for its own value and 0 for the others (denominator 1).
        ``class_labels`` None: one table without equivalence classes (``counts`` has one row).
        """
        import numpy as np
        m = np.asarray(counts, dtype=np.int64)
        labels = None if class_labels is None else [str(x) for x in class_labels]
        if labels is not None:                          # a class without records is no class
            keep = m.sum(axis=1) > 0
            m, labels = m[keep], [lab for lab, k in zip(labels, keep.tolist()) if k]
        c, l = np.nonzero(m)
        rows = np.zeros((len(c), m.shape[1]), dtype=np.int64)
        rows[np.arange(len(c)), l] = 1
        table = cls(rows, 1, buckets, m[c, l], row_class=None if labels is None else c, class_labels=labels, id=id)
        if labels is not None:
            sums, sizes = m.copy(), m.sum(axis=1)
            for arr in (sizes, sums):
                arr.setflags(write=False)
            table.__dict__["_sums"] = (sizes, sums)
        return table

    # -- the records one by one (ConcreteTable's attributes, written out on first use) -------------
    def _order(self):
        import numpy as np
        return np.arange(len(self.counts)) if self.row_class is None else np.argsort(self.row_class, kind="stable")

    @property
    def numer(self):
        """(N, p) numerators, one row per record, in class order (computed once)."""
        import numpy as np
        if "_numer" not in self.__dict__:
            order = self._order()
            self.__dict__["_numer"] = np.repeat(self.rows[order], self.counts[order], axis=0)
        return self.__dict__["_numer"]

    @property
    def classes(self):
        """(N,) class label of every record, in class order (None without classes)."""
        import numpy as np
        if self.row_class is None:
            return None
        if "_classes" not in self.__dict__:
            labels = np.asarray(self.class_labels, dtype=object)
            order = self._order()
            self.__dict__["_classes"] = np.repeat(labels[self.row_class[order]], self.counts[order])
        return self.__dict__["_classes"]

    def expand(self) -> ConcreteTable:
        """The same table as a plain ConcreteTable (one row per record, class order)."""
        return ConcreteTable(numer=self.numer, denom=self.denom, buckets=self.buckets, classes=self.classes,
                             id=self.id)

    # -- the quantities the concrete views use, from the distinct rows -----------------------------
    @property
    def N(self) -> int:
        if len(self.counts) and int(self.counts.max()) * len(self.counts) >= 1 << 62:   # the sum could leave int64
            return sum(int(x) for x in self.counts.tolist())
        return int(self.counts.sum())

    @property
    def p(self) -> int:
        return int(self.rows.shape[1])

    def total(self, l) -> int:
        if "_totals" not in self.__dict__:
            rows, counts = self.rows, self.counts[:, None]
            if len(rows) and int(rows.max()) * int(self.N) >= 1 << 62:     # products or sums could leave int64
                rows, counts = rows.astype(object), counts.astype(object)
            self.__dict__["_totals"] = [int(x) for x in (rows * counts).sum(axis=0).tolist()]
        return self.__dict__["_totals"][l]

    def extreme_sum(self, l, j, largest) -> int:
        """Sum of the ``j`` smallest (or largest) values of bucket ``l`` over all N records."""
        import numpy as np
        if j <= 0:
            return 0
        if j >= self.N:
            return self.total(l)
        values, weights = self._column(l)
        if largest:
            values, weights = values[::-1], weights[::-1]
        taken = np.cumsum(weights)
        full = int(np.searchsorted(taken, j, side="right"))      # distinct values taken whole
        out = sum(int(v) * int(w) for v, w in zip(values[:full].tolist(), weights[:full].tolist()))
        rest = j - (int(taken[full - 1]) if full else 0)
        if rest:
            out += rest * int(values[full])
        return out

    def _column(self, l):
        """(distinct values of bucket ``l`` in increasing order, records holding each), computed once."""
        import numpy as np
        cache = self.__dict__.setdefault("_columns", {})
        if l not in cache:
            values, inverse = np.unique(self.rows[:, l], return_inverse=True)
            weights = np.zeros(len(values), dtype=np.int64)
            np.add.at(weights, inverse.reshape(-1), self.counts)
            cache[l] = (values, weights)
        return cache[l]

    def class_groups(self):
        """{label: range of record indices} in class order (the indices of :attr:`numer`)."""
        import numpy as np
        if self.row_class is None:
            return {}
        if "_groups" not in self.__dict__:
            sizes, _ = self.class_sums()
            ends = np.cumsum(sizes).tolist()
            starts = [0] + ends[:-1]
            self.__dict__["_groups"] = {lab: range(a, b) for lab, a, b in zip(self.class_labels, starts, ends)}
        return self.__dict__["_groups"]

    def class_sums(self):
        """(sizes, sums) per class, weighted by the counts (read-only, computed once)."""
        import numpy as np
        if self.row_class is None:
            return np.zeros(0, dtype=np.int64), np.zeros((0, self.p), dtype=np.int64)
        if "_sums" not in self.__dict__:
            n_classes = len(self.class_labels)
            sizes = np.zeros(n_classes, dtype=np.int64)
            np.add.at(sizes, self.row_class, self.counts)
            sums = np.zeros((n_classes, self.p), dtype=self.rows.dtype)
            np.add.at(sums, self.row_class, self.rows * self.counts[:, None])
            for arr in (sizes, sums):
                arr.setflags(write=False)
            self.__dict__["_sums"] = (sizes, sums)
        return self.__dict__["_sums"]
