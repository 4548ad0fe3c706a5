"""Concrete tables at scale, in exact arithmetic.

Every probability is stored as an integer numerator over one common denominator ``D``, so
sums are exact integer sums and every level is an exact :class:`fractions.Fraction` built from
integer sums. The extreme k-subsets of Definitions 7 and 8 are the k smallest and the k largest
values of a bucket (the average of any k values lies between those two averages), found with
:func:`numpy.partition` in O(N) instead of enumerating C(N, k) subsets.

``INF`` stands for an infinite level (a zero denominator with a positive numerator); an
irrational level (entropy l-diversity) is an :class:`Enclosed`: its exact sympy expression with a
guaranteed rational enclosure.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING


if TYPE_CHECKING:  # numpy is imported where it is used: importing the package does not load it
    import numpy as np

__all__ = ["ConcreteTable", "INF", "Enclosed", "to_sympy"]

INF = math.inf
_INT64_SAFE = 2 ** 62


@dataclass(frozen=True)
class Enclosed:
    """An exact irrational level ``expr`` with ``lo <= expr <= hi`` (rationals), ``digits`` digits.

    ``where`` says where the level is attained (e.g. ``class E3``).
    """

    expr: object
    lo: Fraction
    hi: Fraction
    digits: int
    where: str = ""

    def decimal(self) -> str:
        """The value to ``digits`` significant digits (the enclosure guarantees them up to 1 unit)."""
        import mpmath
        with mpmath.workdps(self.digits + 10):
            mid = (mpmath.mpf(self.lo.numerator) / self.lo.denominator
                   + mpmath.mpf(self.hi.numerator) / self.hi.denominator) / 2
            return mpmath.nstr(mid, self.digits)

    @property
    def precision(self) -> str:
        return f"{self.digits} significant digits (relative error < 1e-{self.digits})"


def to_sympy(x):
    import sympy        # (here, not at the top: microdata counted into a ConcreteTable need not import sympy)
    if x is None:
        return None
    if isinstance(x, Enclosed):
        return x.expr
    if x == INF:
        return sympy.oo
    return sympy.Rational(x.numerator, x.denominator)


@dataclass
class ConcreteTable:
    """Records x buckets of exact probabilities: ``numer[i, l] / denom``.

    Attributes
    ----------
    numer : numpy.ndarray
        Shape (N, p), dtype int64 when safe, else object (Python ints).
    denom : int
    buckets : list of str
    classes : numpy.ndarray or None
        One class label per record.
    """

    numer: np.ndarray
    denom: int
    buckets: list
    classes: np.ndarray | None = None
    id: str | None = None

    @classmethod
    def from_fractions(cls, rows, buckets=None, classes=None, id=None) -> "ConcreteTable":
        # each distinct row converted once (a table of blocks repeats a few rows N times)
        keys, distinct = [], {}
        for r in rows:
            k = tuple(r)
            if k not in distinct:
                distinct[k] = [Fraction(x) for x in r]
            keys.append(k)
        denom = 1
        for r in distinct.values():
            for x in r:
                denom = denom * x.denominator // math.gcd(denom, x.denominator)
        ints = {k: [x.numerator * (denom // x.denominator) for x in r] for k, r in distinct.items()}
        return cls._make([ints[k] for k in keys], denom, buckets, classes, id)

    @classmethod
    def from_numerators(cls, numer, denom, buckets=None, classes=None, id=None) -> "ConcreteTable":
        return cls._make(numer, int(denom), buckets, classes, id)

    @classmethod
    def _make(cls, ints, denom, buckets, classes, id):
        import numpy as np
        n = len(ints)
        safe = denom * max(n, 1) < _INT64_SAFE
        arr = np.asarray(ints, dtype=np.int64 if safe else object)
        if arr.ndim != 2:
            arr = arr.reshape(n, -1)
        p = arr.shape[1]
        return cls(numer=arr, denom=denom, buckets=list(buckets or [f"a{i + 1}" for i in range(p)]),
                   classes=None if classes is None else np.asarray([str(c) for c in classes], dtype=object),
                   id=id)

    @classmethod
    def from_table(cls, table) -> "ConcreteTable":
        """From a concrete :class:`~implgraph.core.table.Table` (all counts and probabilities numbers)."""
        import sympy
        rows, classes = [], []
        for probs, c in table.rows():
            rows.append([Fraction(int(sympy.Rational(v).p), int(sympy.Rational(v).q)) for v in probs])
            classes.append(c)
        has = any(c is not None for c in classes)
        return cls.from_fractions(rows, buckets=table.buckets, classes=classes if has else None, id=table.id)

    # -- basic quantities -----------------------------------------------------------------------
    @property
    def N(self) -> int:
        return int(self.numer.shape[0])

    @property
    def p(self) -> int:
        return int(self.numer.shape[1])

    def total(self, l) -> int:
        return int(self.numer[:, l].sum())

    def extreme_sum(self, l, j, largest) -> int:
        """Sum of the ``j`` smallest (or largest) numerators of bucket ``l``."""
        import numpy as np
        col = self.numer[:, l]
        n = len(col)
        if j <= 0:
            return 0
        if j >= n:
            return int(col.sum())
        if col.dtype == object:
            import heapq
            pick = heapq.nlargest(j, col) if largest else heapq.nsmallest(j, col)
            return int(sum(pick))
        if largest:
            part = np.partition(col, n - j)[n - j:]
        else:
            part = np.partition(col, j - 1)[:j]
        return int(part.sum())

    def class_groups(self):
        """{label: index array} (one stable sort, O(N log N); computed once per table)."""
        if self.classes is None:
            return {}
        if "_groups" not in self.__dict__:
            self.__dict__["_groups"] = self._class_groups()
        return self.__dict__["_groups"]

    def _class_groups(self):
        import numpy as np
        labels, inverse = np.unique(self.classes.astype(str), return_inverse=True)
        labels = labels.tolist()
        inverse = inverse.reshape(-1)
        order = np.argsort(inverse, kind="stable")
        counts = np.bincount(inverse, minlength=len(labels))
        parts = np.split(order, np.cumsum(counts)[:-1])
        return {lab: idx for lab, idx in zip(labels, parts)}

    def class_sums(self):
        """(sizes, sums): per class its number of records and its numerator sum per bucket.

        ``sums[c, l]`` is exact (int64 when safe, Python ints otherwise). Computed once per table
        (read-only arrays).
        """
        if "_sums" not in self.__dict__:
            sizes, sums = self._class_sums()
            for arr in (sizes, sums):
                arr.setflags(write=False)
            self.__dict__["_sums"] = (sizes, sums)
        return self.__dict__["_sums"]

    def _class_sums(self):
        import numpy as np
        groups = self.class_groups()
        if not groups:
            return np.zeros(0, dtype=np.int64), np.zeros((0, self.p), dtype=np.int64)
        idx = list(groups.values())
        sizes = np.asarray([len(g) for g in idx], dtype=np.int64)
        order = np.concatenate(idx)
        starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        sums = np.add.reduceat(self.numer[order], starts, axis=0)
        return sizes, sums

    def restrict(self, idx, id=None) -> "ConcreteTable":
        return ConcreteTable(numer=self.numer[idx], denom=self.denom, buckets=self.buckets, classes=None,
                             id=id)

    def fraction(self, i, l) -> Fraction:
        return Fraction(int(self.numer[i, l]), self.denom)

    def to_rows(self):
        return [[self.fraction(i, l) for l in range(self.p)] for i in range(self.N)]

    def __repr__(self):
        cls = "" if self.classes is None else f", {len(set(self.classes.tolist()))} classes"
        return f"<ConcreteTable {self.id or '(no id)'}: N = {self.N}, buckets {', '.join(self.buckets)}{cls}>"

    def _repr_html_(self, max_rows: int = 40):
        """The first rows (exact fractions, with their class) as an HTML table."""
        import html
        head = "".join(f"<th>{html.escape(str(b))}</th>" for b in ["class", *self.buckets])
        rows = [["" if self.classes is None else self.classes[i], *(self.fraction(i, l) for l in range(self.p))]
                for i in range(min(self.N, max_rows))]
        body = "".join("<tr>" + "".join(f"<td>{html.escape(str(x))}</td>" for x in r) + "</tr>" for r in rows)
        more = f"<p>... {self.N - max_rows} more rows</p>" if self.N > max_rows else ""
        return f"<table><caption>{html.escape(self.id or '')}</caption><tr>{head}</tr>{body}</table>{more}"


def ratio(num: int, den: int):
    """num/den with Definition 4's conventions: 0/0 -> None (no constraint), x/0 -> INF."""
    if den == 0:
        return None if num == 0 else INF
    return Fraction(num, den)


def max_ratio(values):
    vals = [v for v in values if v is not None]
    return max(vals) if vals else None
