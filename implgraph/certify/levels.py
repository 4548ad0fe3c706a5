"""Exact raw levels of concrete tables for the ratio-of-averages descriptions a certificate states.

A certificate describes each side by data, not by name: ``{"family": "pairwise" | "subset" |
"class", "sides": "two-sided" | "one-sided", "size": j}`` (``size``: the subset size of a subset
family). The level of a table is the largest ratio ``mean_S / mean_D`` (and ``mean_D / mean_S`` when
two-sided) over the record sets S of the family and the buckets, in exact :class:`fractions.Fraction`
arithmetic; ``0/0`` constrains nothing and ``x/0`` is infinite (:data:`INF`). Written from the
definitions alone (the extreme j-subsets are the j smallest and j largest values of a bucket), so
this module shares no code with the engines.

A *block family* is a table given as blocks of equal rows ``{"count": n, "value": x, "class": c}``
(two buckets: ``x`` and ``1 - x``); :func:`expand` turns it into rows and class labels.
"""

from __future__ import annotations

from fractions import Fraction

__all__ = ["INF", "raw_level", "expand"]

INF = float("inf")


def _need(x, y):
    """The ratio x/y (None: 0/0 constrains nothing; INF: x/0)."""
    if y == 0:
        return None if x == 0 else INF
    return Fraction(x) / Fraction(y)


def _worst(ratios):
    best = Fraction(1)
    for r in ratios:
        if r is None:
            continue
        if r == INF:
            return INF
        best = max(best, r)
    return best


def _pairs(column, side, family, size, classes):
    """(numerator, denominator) means of every comparison of one bucket."""
    n = len(column)
    mean = sum(column, Fraction(0)) / n
    if family == "pairwise":
        lo, hi = min(column), max(column)
        return [(hi, lo)]
    if family == "subset":
        j = int(size)
        if not 1 <= j <= n:
            raise ValueError(f"subset size {j} outside 1..{n}")
        srt = sorted(column)
        small = sum(srt[:j], Fraction(0)) / j
        large = sum(srt[-j:], Fraction(0)) / j
        out = [(large, mean)]
        if side == "two-sided":
            out.append((mean, small))
        return out
    if family == "class":
        out = []
        for label in dict.fromkeys(classes):
            idx = [column[i] for i in range(n) if classes[i] == label]
            m = sum(idx, Fraction(0)) / len(idx)
            out.append((m, mean))
            if side == "two-sided":
                out.append((mean, m))
        return out
    raise ValueError(f"unknown family {family!r}")


def raw_level(side, rows, classes=None, size=None):
    """The raw level (ratio >= 1, or INF) of ``rows`` for one side's description.

    Parameters
    ----------
    side : dict
        ``{"family", "sides"}`` of the certificate (``size`` there is symbolic; pass it evaluated).
    rows : list of list of Fraction
    classes : list, optional
        One class label per row (class family).
    size : int, optional
        The subset size at this N.

    Examples
    --------
    >>> raw_level({"family": "pairwise", "sides": "two-sided"}, [[Fraction(1, 3), Fraction(2, 3)],
    ...                                                          [Fraction(1, 2), Fraction(1, 2)]])
    Fraction(2, 1)
    """
    family, sided = side["family"], side.get("sides", "two-sided")
    if family == "class" and classes is None:
        raise ValueError("a class family needs class labels")
    ratios = []
    for l in range(len(rows[0])):
        column = [Fraction(r[l]) for r in rows]
        ratios += [_need(x, y) for x, y in _pairs(column, sided, family, size, classes)]
    return _worst(ratios)


def expand(blocks, singleton_classes=False):
    """Rows (two buckets) and class labels of a block family evaluated at a point.

    ``blocks``: ``[(count, value, label)]`` with integer counts (blocks of count 0 are dropped) and
    rational values in [0, 1]. ``singleton_classes``: every record its own class.
    """
    rows, labels = [], []
    for count, value, label in blocks:
        if count < 0:
            raise ValueError(f"negative block size {count}")
        if count == 0:
            continue
        v = Fraction(value)
        if not 0 <= v <= 1:
            raise ValueError(f"probability {v} outside [0, 1]")
        rows += [[v, 1 - v] for _ in range(count)]
        labels += [label] * count
    if singleton_classes:
        labels = [f"E{i + 1}" for i in range(len(rows))]
    return rows, (labels if any(x is not None for x in labels) else None)
