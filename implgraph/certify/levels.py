"""Exact raw levels of concrete tables for the ratio-of-averages descriptions a certificate states.

A certificate describes each side by data, not by name: ``{"family": "pairwise" | "subset" |
"class", "sides": "two-sided" | "one-sided", "size": j}`` (``size``: the subset size of a subset
family), or ``{"family": "class", "distance": "total-variation"}`` for the largest total variation
distance of a class's distribution from the table's, or ``{"family": "class", "class_size_level": true}`` for
the number of records of the smallest class (larger is stronger), or ``{"family": "class", "uniform_class_level":
"<raw level in m>"}`` for a level whose raw value at a class uniform over m values is that expression, improving
strictly with m, the table's being its worst class's (``m``, larger is stronger: the l-diversities; ``(m + 1)/m``,
smaller is stronger: (alpha,k)-anonymity; computed here only on tables whose classes are uniform over the values
they hold), or ``{"family": "class", "tail_ratio": l}`` for ``max(1, max_E r_1 / (r_l + ... + r_m))`` (a class's
frequencies r_1 >= r_2 >= ..., recursive (c,l)-diversity), or ``{"slack": {"compares": "removal" | "pairs", "delta": d}}`` for a level whose constraints read
``a <= e^level b + d`` on every output event (a non-empty proper set of buckets) between the table and the table
without one record (removal) or between two records (pairs): the smallest ratio >= 1 meeting them ((eps,delta)-DP and
-LDP, ``e^eps``). Otherwise the level of a table is the largest ratio ``mean_S / mean_D`` (and ``mean_D / mean_S`` when
two-sided) over the record sets S of the family and the buckets, in exact :class:`fractions.Fraction`
arithmetic; ``0/0`` constrains nothing and ``x/0`` is infinite (:data:`INF`). Written from the
definitions alone (the extreme j-subsets are the j smallest and j largest values of a bucket), so
this module shares no code with the engines.

A *block family* is a table given as blocks of equal rows ``{"count": n, "value": x, "class": c}``
(two buckets: ``x`` and ``1 - x``); :func:`blocks_table` turns it into a weighted table
``[(count, row, label)]`` whose level :func:`level` computes without expanding the blocks (the
extreme j-subsets take whole blocks and part of one), so a family is checked at N = 1000 as fast
as at N = 2. :func:`raw_level` is the same level for plain rows. A *uniform family* is a table given as blocks
``{"count": n, "values": m, "class": c}`` whose records are uniform over m values of their own (the blocks' values
are disjoint): :func:`uniform_table` turns it into a weighted table.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

__all__ = ["INF", "raw_level", "level", "blocks_table", "uniform_table", "larger_is_stronger"]

INF = float("inf")


def _extreme_sum(column, j, largest):
    """The sum of the j smallest (or largest) values of a weighted column ``[(count, value)]``."""
    total, left = 0, j
    for count, value in sorted(column, key=lambda cv: cv[1], reverse=largest):
        take = min(count, left)
        total += take * value
        left -= take
        if not left:
            break
    return total


def _pairs(column, labels, side, family, size):
    """The compared means ``((sum, count), (sum, count))`` of one bucket, numerator mean first;
    ``column``: ``[(count, integer value)]``, ``labels`` the class label of each entry."""
    n = sum(c for c, _ in column)
    mean = (sum(c * v for c, v in column), n)
    if family == "pairwise":
        values = [v for c, v in column if c]
        return [((max(values), 1), (min(values), 1))]
    if family == "subset":
        j = int(size)
        if not 1 <= j <= n:
            raise ValueError(f"subset size {j} outside 1..{n}")
        out = [((_extreme_sum(column, j, True), j), mean)]
        if side == "two-sided":
            out.append((mean, (_extreme_sum(column, j, False), j)))
        return out
    if family == "class":
        sums = {}
        for (c, v), label in zip(column, labels):
            s, k = sums.get(label, (0, 0))
            sums[label] = (s + c * v, k + c)
        out = []
        for s, k in sums.values():
            if k:
                out.append(((s, k), mean))
                if side == "two-sided":
                    out.append((mean, (s, k)))
        return out
    raise ValueError(f"unknown family {family!r}")


def level(side, table, size=None, split=1):
    """The raw level (ratio >= 1, or INF) of a weighted table for one side's description.

    ``split``: each bucket of ``table`` stands for ``split`` buckets of equal mass (a family's ``split``): ratios
    of means and distances do not change, an ``increase_cap`` reads the smaller masses, and a level that depends on
    the number of buckets (a uniform class's, a tail ratio, a slack over events) is refused.

    Each bucket's values are scaled to integers by their common denominator (ratios of means do
    not change), so the comparisons are integer arithmetic; ``0/0`` constrains nothing and ``x/0``
    is infinite.

    Parameters
    ----------
    side : dict
        ``{"family", "sides"}`` of the certificate (``size`` there is symbolic; pass it evaluated).
    table : list of (int, list of Fraction, label)
        ``count`` equal rows ``row`` (Fractions) in class ``label`` (labels matter for the class family).
    size : int, optional
        The subset size at this N.
    """
    family, sided = side["family"], side.get("sides")
    if split != 1 and (side.get("uniform_class_level") or side.get("tail_ratio") is not None
                       or side.get("slack") is not None):
        raise ValueError("a level that depends on the number of buckets, on a family split over several buckets each")
    if side.get("increase_cap") is not None:
        return _capped_level(side, table, size, split)
    if side.get("class_size_level"):        # the smallest class's number of records (larger is stronger)
        _classed(family, table, "class-size level")
        return _smallest_class(table)
    if side.get("slack") is not None:
        return _slack_level(side["slack"], table)
    if side.get("tail_ratio") is not None:
        _classed(family, table, "tail ratio level")
        return _tail_ratio_level(Fraction(str(side["tail_ratio"])), table)
    if side.get("uniform_class_level"):     # the worst class's level, each class uniform over its values
        _classed(family, table, "uniform class level")
        return _uniform_class_level(side["uniform_class_level"], table)
    if side.get("distance") is not None:
        if side["distance"] != "total-variation" or family != "class":
            raise ValueError(f"unknown class distance {side['distance']!r} (family {family!r})")
        return _total_variation(table)
    if family != "pairwise" and sided not in ("two-sided", "one-sided"):
        raise ValueError(f"a {family} side without declared sides (two-sided or one-sided)")
    return _ratio_level(family, sided, table, size)


def _smallest_class(table) -> Fraction:
    """The smallest class's number of records."""
    sizes = {}
    for count, _, label in table:
        sizes[label] = sizes.get(label, 0) + count
    return Fraction(min(sizes.values()))


def _ratio_level(family, sided, table, size):
    """The largest ratio of two means the side compares (INF where a mean 0 is compared with a positive one)."""
    labels = [label for _, _, label in table]
    if family == "class" and any(label is None for label in labels):
        raise ValueError("a class family needs class labels")
    best_num, best_den = 1, 1
    for bucket in range(len(table[0][1])):
        scale = math.lcm(*(row[bucket].denominator for _, row, _ in table))
        column = [(count, row[bucket].numerator * (scale // row[bucket].denominator)) for count, row, _ in table]
        for (sx, nx), (sy, ny) in _pairs(column, labels, sided, family, size):
            num, den = sx * ny, sy * nx          # (sx / nx) / (sy / ny)
            if den == 0:
                if num:
                    return INF
                continue
            if num * best_den > best_num * den:
                best_num, best_den = num, den
    return Fraction(best_num, best_den)


def _capped_level(side, table, size, split):
    """A level that is a ratio level (the side's ``family`` and ``sides``) where every class's increase q/p - 1 over
    the table's mass p, on a value with p < q, is at most ``increase_cap`` (``-log(p)``, with p the mass of one of
    the ``split`` equal buckets each bucket stands for), and INF elsewhere; decided exactly
    (:func:`_exp_at_most`)."""
    if side["increase_cap"] != "-log(p)":
        raise ValueError(f"unknown increase cap {side['increase_cap']!r}")
    ratio = level({k: v for k, v in side.items() if k != "increase_cap"}, table, size)
    if ratio == INF:
        return INF
    n = sum(count for count, _, _ in table)
    P = [sum(count * Fraction(row[b]) for count, row, _ in table) / n for b in range(len(table[0][1]))]
    for q in _class_distributions(table).values():
        for ql, pl in zip(q, P):
            if ql > pl and not _exp_at_most(ql / pl - 1, Fraction(split) / pl):
                return INF          # q/p - 1 > -ln(p/split)
    return ratio


#: the largest denominator, in bits, the exponential series may reach before :func:`_exp_at_most` gives up (fails
#: closed): a certificate's genuine tables decide within a few hundred bits; one built to sit within 10^-D of e^r would
#: otherwise cost time growing like D^4 (review)
EXP_MAX_BITS = 1 << 16


def _exp_at_most(r, K, max_bits=EXP_MAX_BITS) -> bool:
    """``e^r <= K`` exactly, for rationals r >= 0 and K: the partial sums S_n of the exponential series rise to e^r,
    and e^r < S_n + t_n r (n + 2)/((n + 1)(n + 2 - r)) (t_n the last term) once n + 2 > r; e^r is irrational for a
    rational r != 0 (Lindemann), so one of the two tests decides. ValueError (no answer, the check fails) once the
    partial sum's denominator passes ``max_bits`` bits."""
    r, K = Fraction(r), Fraction(K)
    if r == 0:
        return K >= 1
    total = term = Fraction(1)
    n = 0
    while total.denominator.bit_length() <= max_bits:
        if total > K:
            return False
        n += 1
        term = term * r / n
        total += term
        if n + 2 > r and total + term * r * (n + 2) / ((n + 1) * (n + 2 - r)) <= K:
            return True
    raise ValueError(f"e^{r} against {K}: undecided within {max_bits} bits")


def _classed(family, table, what):
    """ValueError unless the side is a class family and every row has its class label."""
    if family != "class" or any(label is None for _, _, label in table):
        raise ValueError(f"a {what} needs a class family with class labels")


def _total_variation(table):
    """The largest total variation distance ``(1/2) sum_l |q_l - p_l|`` of a class's distribution q from the
    table's p (a weighted table with class labels), exactly."""
    if any(label is None for _, _, label in table):
        raise ValueError("a class family needs class labels")
    n = sum(count for count, _, _ in table)
    p = [Fraction(sum(count * row[l] for count, row, _ in table), n) for l in range(len(table[0][1]))]
    return max(sum(abs(v - q) for v, q in zip(dist, p)) / 2 for dist in _class_distributions(table).values())


#: the most buckets of a uniform family's table (its rows are written out: a bound on the checker's time and memory)
UNIFORM_MAX_BUCKETS = 1000
#: the most buckets whose 2^p - 2 output events a slack level enumerates
SLACK_MAX_BUCKETS = 12


def _slack_level(slack, table):
    """The smallest ratio r >= 1 with ``a <= r b + delta`` for every output event and every compared pair (a, b) of
    probabilities (``slack["compares"]``: the table and the table without one record, both ways; or two records),
    exactly (INF where some ``a > delta`` meets ``b = 0``)."""
    delta = Fraction(str(slack["delta"]))
    compares = slack.get("compares")
    p = len(table[0][1])
    if p > SLACK_MAX_BUCKETS:
        raise ValueError(f"a slack level enumerates 2^p - 2 events: {p} buckets is too many")
    events = [ev for r in range(1, p) for ev in itertools.combinations(range(p), r)]
    rows = [(count, [Fraction(x) for x in row]) for count, row, _ in table if count]
    n = sum(count for count, _ in rows)
    if compares == "removal":
        if n < 2:
            raise ValueError("record removal needs two or more records")
        pairs = []
        for ev in events:
            total = sum(count * sum(row[l] for l in ev) for count, row in rows)
            P = total / n
            for _, row in rows:
                Q = (total - sum(row[l] for l in ev)) / (n - 1)
                pairs += [(P, Q), (Q, P)]
    elif compares == "pairs":
        pairs = [(sum(r1[l] for l in ev), sum(r2[l] for l in ev)) for ev in events for _, r1 in rows for _, r2 in rows]
    else:
        raise ValueError(f"unknown slack comparison {compares!r}")
    best = Fraction(1)
    for a, b in pairs:
        if a <= delta:
            continue
        if b == 0:
            return INF
        best = max(best, (a - delta) / b)
    return best


def _tail_ratio_level(l, table):
    """``max(1, max_E r_1 / (r_l + ... + r_m))`` with ``r_1 >= r_2 >= ...`` a class's frequencies (INF where a class
    holds a value and its tail is 0), exactly."""
    if l.denominator != 1 or l < 1:
        raise ValueError(f"l = {l} is not an integer >= 1")
    best = Fraction(1)
    for q in _class_distributions(table).values():
        r = sorted(q, reverse=True)
        tail = sum(r[int(l) - 1:], Fraction(0))
        if tail == 0:
            if r[0]:
                return INF
            continue
        best = max(best, r[0] / tail)
    return best


def _class_distributions(table):
    """``{label: [q_l]}``: each class's mean distribution over the buckets, exactly."""
    classes = {}
    for count, row, label in table:
        k, sums = classes.get(label, (0, [0] * len(row)))
        classes[label] = (k + count, [a + count * Fraction(x) for a, x in zip(sums, row)])
    return {label: [v / k for v in sums] for label, (k, sums) in classes.items()}


def _uniform_class_level(formula, table):
    """The raw level ``formula`` (text in ``m``, improving strictly with m) of the worst class, each class uniform over
    the m values it holds (ValueError where a class is not: this level is computed here only there)."""
    raw = _in_m(formula)
    counts = []
    for label, q in _class_distributions(table).items():
        held = [v for v in q if v]
        if len(set(held)) != 1:
            raise ValueError(f"class {label} is not uniform over its values ({', '.join(map(str, q))})")
        counts.append(len(held))
    values = [raw(m) for m in counts]
    return min(values) if larger_is_stronger({"uniform_class_level": formula}) else max(values)


def _in_m(formula):
    """``m -> raw level`` (exact) of a uniform class's level written in ``m``."""
    from implgraph.certify.expr import Reader
    f = Reader(["m"]).function(str(formula))
    return lambda m: f({"m": Fraction(m)})


def larger_is_stronger(side) -> bool:
    """Is a larger raw level of ``side`` the stronger one: a class size, or a uniform class's level increasing in its
    number of values m (the l-diversities, ``m``; ``1 + 1/m`` decreases: smaller is stronger)? ValueError where a
    uniform class's level does not change strictly from m = 1 to 2."""
    if side.get("class_size_level"):
        return True
    if side.get("uniform_class_level"):
        raw = _in_m(side["uniform_class_level"])
        if raw(2) == raw(1):
            raise ValueError(f"a uniform class's level {side['uniform_class_level']} does not change with m")
        return raw(2) > raw(1)
    return False


def raw_level(side, rows, classes=None, size=None):
    """:func:`level` of plain rows (one class label per row for the class family).

    Examples
    --------
    >>> raw_level({"family": "pairwise", "sides": "two-sided"}, [[Fraction(1, 3), Fraction(2, 3)],
    ...                                                          [Fraction(1, 2), Fraction(1, 2)]])
    Fraction(3, 2)
    """
    labels = list(classes) if classes is not None else [None] * len(rows)
    return level(side, [(1, [Fraction(x) for x in row], label) for row, label in zip(rows, labels)], size)


def blocks_table(blocks, singleton_classes=False):
    """The weighted table (two buckets) of a block family evaluated at a point.

    ``blocks``: ``[(count, value, label)]`` with integer counts (blocks of count 0 are dropped) and
    rational values in [0, 1]. ``singleton_classes``: every record its own class.

    Examples
    --------
    >>> blocks_table([(2, Fraction(1, 3), "E1"), (0, None, "E2")])
    [(2, [Fraction(1, 3), Fraction(2, 3)], 'E1')]
    """
    table = []
    for count, value, label in blocks:
        if count < 0:
            raise ValueError(f"negative block size {count}")
        if count == 0:
            continue
        v = Fraction(value)
        if not 0 <= v <= 1:
            raise ValueError(f"probability {v} outside [0, 1]")
        if singleton_classes:
            table += [(1, [v, 1 - v], f"E{len(table) + i + 1}") for i in range(count)]
        else:
            table.append((count, [v, 1 - v], label))
    return table


def uniform_table(blocks):
    """The weighted table of a uniform family evaluated at a point.

    ``blocks``: ``[(count, m, label)]`` with integer counts (blocks of count 0 are dropped) and integers m >= 1:
    the block's records are uniform over m values of their own, the blocks' values following one another (at most
    :data:`UNIFORM_MAX_BUCKETS` buckets in all: ValueError beyond).

    Examples
    --------
    >>> uniform_table([(1, 2, "E1"), (3, 1, "E2")])
    [(1, [Fraction(1, 2), Fraction(1, 2), Fraction(0, 1)], 'E1'), (3, [Fraction(0, 1), Fraction(0, 1), Fraction(1, 1)], 'E2')]
    """
    kept, buckets = [], 0
    for count, m, label in blocks:
        if count < 0:
            raise ValueError(f"negative block size {count}")
        if not count:
            continue
        if Fraction(m).denominator != 1 or m < 1:
            raise ValueError(f"a block is uniform over {m} values, not a positive integer")
        buckets += int(m)
        if buckets > UNIFORM_MAX_BUCKETS:
            raise ValueError(f"the family has more than {UNIFORM_MAX_BUCKETS} buckets")
        kept.append((count, int(m), label))
    p = sum(m for _, m, _ in kept)
    table, first = [], 0
    for count, m, label in kept:
        table.append((count, [Fraction(1, m) if first <= l < first + m else Fraction(0) for l in range(p)], label))
        first += m
    return table
