"""The bucketization construction of multiplicative t-closeness (Domingo-Ferrer and Soria-Comas [1]_,
Section 6).

1. :func:`bucketize`: sort the records by the numeric confidential attribute and cut them into ``b = t + 1``
   buckets of consecutive values, bucket ``i`` ending at rank ``[i N/(t+1) + 0.5]`` (Section 6.2; sizes
   as equal as possible, Section 6.3 step 3).
2. :func:`class_compositions`: choose ``m`` classes of size ``>= k`` (``m = (t+1) l`` with
   ``l = floor(N/((t+1) k))`` classes emphasising each bucket, Section 6.2, when ``N >= (t+1) k``), and
   for each class the number of records of each bucket, within the bounds of Section 6.2 / step 4(b):
   at least ``ceil(e p_i / t)`` and at most ``floor(e p_i t)`` records of bucket ``i`` in a class of
   size ``e`` (``p_i = b_i / N``), using up the allowed distance on the emphasised bucket (Table 1). The
   integer compositions are an exact max-flow over class types (networkx), dealt to the classes.
3. :func:`construct`: assign the records (within each bucket in input order) and check the result's
   level with the core (:func:`~implgraph.definitions.levels.optimal_level`, exact) for the target definition
   (:func:`target_definition`: the one named by the caller, by default the registered class-based
   definition whose level is the raw ratio itself, t >= 1).

:func:`is_t_close_partition` checks a given assignment (a finder / checker pair, networkx style).

References
----------
.. [1] J. Domingo-Ferrer, J. Soria-Comas, "From t-closeness to differential privacy and vice versa in
   data anonymization", Knowledge-Based Systems 74, 151-158, 2015, Section 6.

Examples
--------
>>> r = construct(list(range(12)), t=2, k=4)
>>> [list(c) for c in r.compositions]
[[2, 1, 1], [1, 2, 1], [1, 1, 2]]
>>> r.t
Fraction(3, 2)
"""

from __future__ import annotations

import csv
import math
import re
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from implgraph.core.errors import InputError
from implgraph.io.tablefile import csv_records

__all__ = ["bucketize", "class_compositions", "construct", "Construction", "is_t_close_partition",
           "achieved_t", "read_attribute", "check_t", "check_k", "target_definition"]


def target_definition(name=None):
    """The definition whose level the construction reaches.

    ``name`` when given (InputError if unknown); otherwise the registered definition evaluated on a
    partition (``needs_classes``, no own parameters) whose level is the raw ratio itself with best
    level 1 (the multiplicative t of Section 6).
    """
    from implgraph import definitions
    if name is not None:
        return definitions.get(str(name))
    found = [d for d in definitions.all_definitions()
             if d.needs_classes and not d.params and d.level_scale.identity and d.level_scale.best_raw == 1]
    if len(found) != 1:
        raise InputError(f"{len(found)} registered definitions fit the construction's level",
                         fix="name the target definition (--definition NAME)")
    return found[0]


def check_t(t) -> int:
    """The level t as an integer >= 1 (t + 1 buckets); InputError otherwise."""
    try:
        tf = Fraction(str(t))
    except (ValueError, ZeroDivisionError):
        raise InputError(f"t = {t!r} is not a number", fix="give an integer t >= 1") from None
    if tf < 1:
        raise InputError(f"t = {t} < 1", fix="multiplicative t-closeness needs t >= 1")
    if tf.denominator != 1:
        raise InputError(f"t = {t} is not an integer", fix="the construction uses t + 1 buckets: give an integer t")
    return int(tf)


def check_k(k, N) -> int:
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
        raise InputError(f"k = {k!r}", fix="give an integer k >= 1")
    if k > N:
        raise InputError(f"k = {k} is larger than the data ({N} records)", fix=f"choose k <= {N}")
    return int(k)


def _round_half_up(x: Fraction) -> int:
    return math.floor(x + Fraction(1, 2))


def bucketize(values, t) -> tuple[np.ndarray, list]:
    """Bucket index (0..t) of every record, and the bucket sizes.

    Records are ranked by value (stable); bucket ``i`` (1-based) holds ranks
    ``[(i-1) N/(t+1) + 0.5] + 1 .. [i N/(t+1) + 0.5]``.
    """
    t = check_t(t)
    N = len(values)
    if N == 0:
        raise InputError("no records", fix="give at least one record")
    b = t + 1
    if b > N:                   # refused before the t + 2 bucket ends are computed (--t 1e309 would not finish)
        shown = f"= {b}" if b < 10 ** 12 else f"> {N}"
        raise InputError(f"{N} records cannot fill t + 1 {shown} buckets", fix=f"choose t <= {N - 1}")
    order = sorted(range(N), key=lambda i: values[i])
    ends = [_round_half_up(Fraction(i * N, b)) for i in range(b + 1)]
    ends[0], ends[-1] = 0, N
    bucket = np.empty(N, dtype=np.int64)
    for i in range(b):
        for r in range(ends[i], ends[i + 1]):
            bucket[order[r]] = i
    sizes = [ends[i + 1] - ends[i] for i in range(b)]
    if min(sizes) == 0:
        raise InputError(f"{N} records cannot fill t + 1 = {b} buckets", fix=f"choose t <= {N - 1}")
    return bucket, sizes


def _bounds(e, sizes, N, t):
    lo = [-((-e * s) // (N * t)) for s in sizes]          # ceil(e p_i / t)
    hi = [(e * s * t) // N for s in sizes]                 # floor(e p_i t)
    return lo, hi


def class_compositions(sizes, t, k) -> list:
    """Integer compositions (records per bucket) of the classes; rows sum to the class sizes, columns to
    the bucket sizes, every entry within Section 6.2's bounds.

    Raises
    ------
    InputError
        k out of range, or no partition into classes of size >= k reaches t.
    """
    t = check_t(t)
    N = sum(sizes)
    k = check_k(k, N)
    b = len(sizes)
    l = N // (b * k)
    m = b * l if l >= 1 else N // k
    class_sizes = [N // m + (1 if j < N % m else 0) for j in range(m)]
    emph = [j % b for j in range(m)]
    # class types: identical (size, emphasised bucket)
    types: dict = {}
    for j in range(m):
        types.setdefault((class_sizes[j], emph[j] if l >= 1 else None), []).append(j)

    comps = _compositions_by_flow(types, sizes, N, t, m)
    if comps is None:
        raise InputError(f"no partition into {m} classes of size >= {k} reaches t = {t}",
                         fix="choose another k or a larger t")
    return comps


def _compositions_by_flow(types, sizes, N, t, m):
    """The compositions of :func:`class_compositions` by a min-cost max flow: each class type takes its
    lower bounds, and the remaining records of each bucket flow to the types within their upper bounds (the
    emphasised bucket preferred).

    Parameters
    ----------
    types : dict
        ``{(class size, emphasised bucket): [class indices]}``.
    sizes : list of int
        The records of each bucket.
    N : int
        The number of records.
    t : Fraction
        The level of t-closeness asked for.
    m : int
        The number of classes.

    Returns
    -------
    list of list or None
        The records per bucket of each class, or None when the flow cannot place every record.

    Raises
    ------
    InputError
        ``t`` is not reachable with classes of some size.
    """
    import networkx as nx

    b = len(sizes)
    lo_t, hi_t = {}, {}
    for (e, h), members in types.items():
        lo, hi = _bounds(e, sizes, N, t)
        if sum(lo) > e or sum(hi) < e:
            raise InputError(
                f"t = {t} is not reachable with classes of {e} records (bucket shares {sizes}/{N})",
                fix="choose a larger k (classes need at least t + 1 records) or a larger t")
        lo_t[(e, h)], hi_t[(e, h)] = lo, hi
    g = nx.DiGraph()
    need = 0
    for i in range(b):
        used = sum(len(mem) * lo_t[key][i] for key, mem in types.items())
        if used > sizes[i]:
            return None
        g.add_edge("s", ("B", i), capacity=sizes[i] - used, weight=0)
    for key, mem in types.items():
        c = len(mem)
        r = key[0] - sum(lo_t[key])
        need += c * r
        g.add_edge(("T", key), "z", capacity=c * r, weight=0)
        for i in range(b):
            # the emphasised bucket is preferred (Table 1: use up the allowed distance there)
            g.add_edge(("B", i), ("T", key), capacity=c * (hi_t[key][i] - lo_t[key][i]),
                       weight=-1 if key[1] == i else 0)
    flow = nx.max_flow_min_cost(g, "s", "z")
    if sum(flow[u]["z"] for u in g.predecessors("z")) != need:
        return None
    return _deal(types, flow, lo_t, b, m)


def _deal(types, flow, lo_t, b, m):
    """Each class's composition: its type's lower bounds plus the type's share of the flow, dealt
    cyclically (floor or ceiling of ``extra_i / c`` each, ``c`` the classes of the type)."""
    comps = [None] * m
    for key, mem in types.items():
        c = len(mem)
        extra = [flow[("B", i)][("T", key)] for i in range(b)]
        rows = [list(lo_t[key]) for _ in mem]
        pos = 0
        for i in range(b):          # deal the extra units cyclically: floor/ceil of extra_i / c each
            for _ in range(extra[i]):
                rows[pos % c][i] += 1
                pos += 1
        for j, row in zip(mem, rows):
            comps[j] = row
    return comps


@dataclass
class Construction:
    """The result of :func:`construct`.

    Attributes
    ----------
    bucket, cls : numpy.ndarray
        Bucket index (0..t) and class index of every record (input order).
    sizes : list
        Bucket sizes.
    compositions : list of list
        Records per bucket of every class.
    t : Fraction
        The achieved multiplicative t (the core's exact optimal level).
    requested_t : int
    k : int
        The requested k; ``min_class`` is the smallest class size.
    """

    bucket: np.ndarray
    cls: np.ndarray
    sizes: list
    compositions: list
    t: Fraction
    requested_t: int
    k: int
    ranges: list = field(default_factory=list)

    @property
    def min_class(self) -> int:
        return min(sum(c) for c in self.compositions)

    @property
    def meets(self) -> bool:
        return self.t <= self.requested_t


def achieved_t(bucket, cls, nbuckets, definition=None) -> Fraction:
    """The core's exact level of a bucketized, partitioned data set (:func:`target_definition`)."""
    from implgraph.core.concrete import ConcreteTable
    from implgraph.definitions.levels import optimal_level
    N = len(bucket)
    numer = np.zeros((N, nbuckets), dtype=np.int64)
    numer[np.arange(N), np.asarray(bucket)] = 1
    ct = ConcreteTable.from_numerators(numer, 1, buckets=[f"B{i + 1}" for i in range(nbuckets)],
                                       classes=[f"E{c + 1}" for c in cls])
    v = optimal_level(ct, target_definition(definition).name).value
    return Fraction(int(v.p), int(v.q)) if v is not None and v.is_Rational else v


def is_t_close_partition(bucket, cls, t, k=1, definition=None) -> bool:
    """True if every class has >= k records and the level of the partition is <= t."""
    cls = np.asarray(cls)
    _, counts = np.unique(cls, return_counts=True)
    if counts.min() < k:
        return False
    v = achieved_t(bucket, cls, int(np.max(bucket)) + 1, definition)
    return v is not None and v <= Fraction(str(t))


def construct(values, t, k, definition=None) -> Construction:
    """Bucketize ``values`` into t + 1 buckets and partition into classes of size >= k (Section 6);
    the achieved level is the core's for ``definition`` (:func:`target_definition`)."""
    t = check_t(t)
    N = len(values)
    if N == 0:
        raise InputError("no records", fix="give at least one record")
    k = check_k(k, N)
    bucket, sizes = bucketize(values, t)
    comps = class_compositions(sizes, t, k)
    cls = np.empty(N, dtype=np.int64)
    for i in range(len(sizes)):
        members = np.nonzero(bucket == i)[0]       # input order within the bucket
        pos = 0
        for j, comp in enumerate(comps):
            cls[members[pos:pos + comp[i]]] = j
            pos += comp[i]
    ranges = []
    for i in range(len(sizes)):
        vals = [values[r] for r in np.nonzero(bucket == i)[0]]
        ranges.append((min(vals), max(vals)))
    return Construction(bucket, cls, sizes, comps, achieved_t(bucket, cls, len(sizes), definition), t, k, ranges)


_DECIMAL = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE]([+-]?\d+))?|[+-]?\d+/\d+")
MAX_EXPONENT = 1000
"""Largest decimal exponent of a value read (``1e999999999`` would be computed digit by digit otherwise)."""


def _bounded_fraction(text: str) -> Fraction:
    """``Fraction(text)`` for a decimal or a fraction of ASCII digits with ``|exponent| <= MAX_EXPONENT`` and at
    most 4000 digits (ValueError otherwise)."""
    m = _DECIMAL.fullmatch(text)
    if not m or len(text) > 4000 or (m.group(1) is not None and abs(int(m.group(1))) > MAX_EXPONENT):
        raise ValueError(text)
    return Fraction(text)


def read_attribute(path, attribute):
    """(header, rows, exact values of ``attribute``) from a CSV; InputError on any bad cell."""
    import io
    from implgraph.io.datafile import read_text
    from implgraph.io.tablefile import MAX_CSV_BYTES
    name = str(path)
    # a regular file of bounded size, opened without blocking (a FIFO or a device is refused)
    text = read_text(path, limit=MAX_CSV_BYTES, what="a UTF-8 CSV file")
    with io.StringIO(text, newline="") as fh:
        reader = csv.reader(fh)
        try:
            header = [h.strip() for h in next(reader)]
        except StopIteration:
            raise InputError("empty CSV", file=name, fix="add a header and rows") from None
        except (csv.Error, UnicodeDecodeError) as exc:
            raise InputError(f"not a CSV ({exc.__class__.__name__})", file=name, fix="give a UTF-8 CSV") from None
        if attribute not in header:
            raise InputError(f"no column {attribute!r} (columns: {', '.join(header)})", file=name, line=1,
                             fix="name the confidential attribute with --attribute")
        col = header.index(attribute)
        rows, values = [], []
        try:
            for lineno, rec in csv_records(reader, header, name):
                text = rec[col].strip()
                try:
                    v = _bounded_fraction(text)
                except (ValueError, ZeroDivisionError):
                    raise InputError(f"attribute {attribute!r} value {text[:40]!r} is not numeric (a decimal or a "
                                     f"fraction, exponent within +-{MAX_EXPONENT})", file=name, line=lineno,
                                     fix="the construction needs a numeric confidential attribute")
                rows.append(rec)
                values.append(v)
        except (csv.Error, UnicodeDecodeError) as exc:
            raise InputError(f"not a CSV ({exc.__class__.__name__})", file=name, fix="give a UTF-8 CSV") from None
    if not rows:
        raise InputError("no records", file=name, fix="add rows below the header")
    return header, rows, values
