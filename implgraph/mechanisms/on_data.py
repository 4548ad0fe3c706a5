"""Mechanisms on real data: the exact release table of a mechanism applied to microdata, grouped.

A channel mechanism (a transition matrix ``M``, rows the inputs) applied to a table gives every record
the distribution ``row @ M``: on microdata (a deterministic table, one value per record) the row of its
own value. Records of one class holding one value get the same row, so the release is kept grouped
(:class:`~implgraph.io.weighted.WeightedConcreteTable`: at most classes x values distinct rows with
their counts, whatever N), never written out record by record, and every definition's level of it is
the definitions' exact ``concrete`` view, as for the data itself.

Mechanisms (:data:`MECHANISMS`):

- ``randomised-response``: Fig. 4 of ekenstedt2022, keep with probability ``p``, else a value drawn
  uniformly (:func:`implgraph.mechanisms.channels.randomised_response`);
- ``empirical-response``: Fig. 5 of ekenstedt2022, keep with probability ``p``, else a value drawn from
  the data's own value frequencies (:func:`implgraph.mechanisms.channels.empirical_response`);
- ``set-channel``: sei2019's set channel of one attribute, an ``eta``-subset holding the value with
  probability ``p`` (:class:`implgraph.mechanisms.randomized_anonymization.channel.SetChannel`); the
  release's buckets are the ``eta``-subsets;
- ``bucketization``: domingo-ferrer2015's construction (:func:`implgraph.mechanisms.construct.construct`):
  the numeric sensitive values cut into ``t + 1`` buckets (released as value ranges) and the records
  partitioned into classes of at least ``k`` records; a deterministic release whose classes are the
  construction's (the quasi-identifiers are replaced by the class).

Examples
--------
>>> import pandas as pd
>>> df = pd.DataFrame({"q": ["a", "a", "b"], "s": ["x", "y", "x"]})
>>> rel = release(df, ["q"], "s", "randomised-response", p="1/2")
>>> rel.rows.tolist(), rel.denom, rel.counts.tolist()
([[3, 1], [1, 3], [3, 1]], 4, [1, 1, 1])
"""

from __future__ import annotations

import math

import numpy as np
import sympy

from implgraph.core.errors import InputError
from implgraph.io.microdata import check_missing, microdata_tables, read_microdata
from implgraph.io.weighted import WeightedConcreteTable
from implgraph.mechanisms.channels import empirical_response, randomised_response
from implgraph.mechanisms.construct import check_t, construct
from implgraph.mechanisms.randomized_anonymization.channel import SetChannel

__all__ = ["MECHANISMS", "apply_channel", "release", "channel_of"]

MECHANISMS = {
    "randomised-response": "Fig. 4 of ekenstedt2022: keep the value with probability p, else a uniform value",
    "empirical-response": "Fig. 5 of ekenstedt2022: keep the value with probability p, else a value drawn from "
                          "the data's value frequencies",
    "set-channel": "sei2019: release a set of eta values holding the true one with probability p",
    "bucketization": "domingo-ferrer2015 Section 6: t + 1 buckets of a numeric value, classes of >= k records",
}

INT_LIMIT = 2 ** 62
"""Bound of a grouped release's common denominator times its number of records: below it every numerator, total
and class sum fits int64, the rule of :class:`~implgraph.core.concrete.ConcreteTable` (``denom N < 2^62``) under
which the definitions' concrete views compute in int64."""


def _exact(x, name):
    try:
        v = sympy.Rational(str(x)) if isinstance(x, (str, float)) else sympy.sympify(x)
    except (TypeError, ValueError, ZeroDivisionError, sympy.SympifyError):
        raise InputError(f"{name} = {x!r} is not a number", fix=f"give {name} as a fraction, e.g. 1/2") from None
    if not v.is_Rational:
        raise InputError(f"{name} = {x} is not a rational number", fix=f"give {name} as a fraction, e.g. 1/2")
    if not 0 <= v <= 1:
        raise InputError(f"{name} = {str(x)[:40]} is outside [0, 1]", fix=f"give a probability 0 <= {name} <= 1")
    return v


def apply_channel(table: WeightedConcreteTable, matrix, outputs, id=None) -> WeightedConcreteTable:
    """The grouped release of a channel ``matrix`` (rows: the table's buckets) on a grouped table.

    Each distinct row ``r / denom`` becomes ``r @ M / denom``, exactly (integer numerators over the
    common denominator of ``M``'s entries times ``denom``); classes and counts are kept.

    Raises
    ------
    InputError
        A matrix whose shape does not fit, an entry that is not rational, or numerators too large.
    """
    M = sympy.Matrix(matrix)
    if M.rows != table.p or M.cols != len(outputs):
        raise InputError(f"a channel of {M.rows} x {M.cols} for {table.p} values and {len(outputs)} outputs",
                         fix="give one row per value of the sensitive column")
    if not all(e.is_Rational for e in M):
        raise InputError("the channel has entries that are not rational numbers", fix="give rational parameters")
    md = math.lcm(*(int(e.q) for e in M))
    mn = np.array([[int(e * md) for e in M.row(i)] for i in range(M.rows)], dtype=object)
    rows = np.asarray(table.rows, dtype=object).dot(mn)
    if rows.size and int(rows.max()) >= INT_LIMIT or table.denom * md * max(table.N, 1) >= INT_LIMIT:
        raise InputError(f"the release's probabilities have a common denominator {table.denom * md} that, times its "
                         f"{table.N} records, passes 2^62 (exact int64 sums)",
                         fix="give parameters with smaller denominators, e.g. --p 1/3")
    return WeightedConcreteTable(rows.astype(np.int64), table.denom * md, [str(o) for o in outputs], table.counts,
                                 row_class=table.row_class, class_labels=table.class_labels, id=id or table.id)


def channel_of(mechanism: str, table: WeightedConcreteTable, p=None, eta=None):
    """``(matrix, output labels, description)`` of a channel mechanism for the table's values."""
    values = list(table.buckets)
    if len(values) < 2:
        raise InputError(f"the sensitive column has {len(values)} value(s)", fix="a channel needs >= 2 values")
    if p is None:
        raise InputError(f"{mechanism} needs the keep probability p", fix="give p, e.g. --p 1/2")
    p = _exact(p, "p")
    if mechanism == "randomised-response":
        m = randomised_response(len(values), p)
        return m.matrix, values, f"{m.name}, p = {p}"
    if mechanism == "empirical-response":
        n = table.N
        py = [sympy.Rational(table.total(i), n * table.denom) for i in range(len(values))]
        m = empirical_response(py, p)
        return m.matrix, values, f"{m.name}, p = {p}, p_y the data's frequencies"
    if mechanism == "set-channel":
        if eta is None:
            raise InputError("set-channel needs the released set size eta", fix="give eta, e.g. --eta 2")
        ch = SetChannel(values, p, int(eta))
        outs = ["{" + ",".join(map(str, z)) + "}" for z in ch.outputs()]
        return ch.matrix(), outs, f"sei2019 set channel, p = {p}, eta = {ch.eta}"
    raise InputError(f"unknown channel mechanism {mechanism!r}", fix="choose among " + ", ".join(MECHANISMS))


def release(data, qi, sensitive: str, mechanism: str, p=None, eta=None, t=None, k=None, file=None):
    """The exact grouped release of ``mechanism`` applied to the ``sensitive`` column of microdata.

    Parameters
    ----------
    data : pandas.DataFrame or str or Path
    qi : list of str
        Quasi-identifier columns (the classes of a channel's release; ignored by ``bucketization``,
        whose classes are its own).
    sensitive : str
    mechanism : str
        A key of :data:`MECHANISMS`.
    p, eta, t, k :
        The mechanism's parameters (exact: ``p`` a fraction such as ``"1/2"``).

    Returns
    -------
    WeightedConcreteTable
    """
    if mechanism not in MECHANISMS:
        raise InputError(f"unknown mechanism {mechanism!r}", fix="choose among " + ", ".join(MECHANISMS))
    df = read_microdata(data, file)
    if mechanism == "bucketization":
        return _bucketization(df, sensitive, t, k, file)
    table = microdata_tables(df, qi, [sensitive], file=file)[sensitive]
    matrix, outputs, what = channel_of(mechanism, table, p, eta)
    return apply_channel(table, matrix, outputs, id=f"{sensitive} released by {what}")


def _bucketization(df, sensitive, t, k, file):
    """domingo-ferrer2015's construction on the column: classes and value-range buckets, grouped."""
    if t is None or k is None:
        raise InputError("bucketization needs t and the class size k", file=file,
                         fix="give both, e.g. --t 2 --class-size 5")
    if sensitive not in df.columns:
        raise InputError(f"sensitive column {sensitive!r} not in the data", file=file, line=1,
                         fix="choose among " + ", ".join(map(str, df.columns)))
    check_missing(df, [sensitive], file)          # the one place missing values are refused (a later policy)
    column = df[sensitive]
    try:
        values = [float(v) if not isinstance(v, (int, np.integer)) else int(v) for v in column.tolist()]
    except (TypeError, ValueError):
        raise InputError(f"column {sensitive!r} is not numeric", file=file,
                         fix="bucketization orders the values: give a numeric column") from None
    c = construct(values, check_t(t), int(k))
    nb, ncls = len(c.sizes), int(c.cls.max()) + 1
    counts = np.bincount(c.cls * nb + c.bucket, minlength=ncls * nb).reshape(ncls, nb)
    labels = [f"E{i + 1}" for i in range(ncls)]
    buckets = [f"[{_num(lo)}, {_num(hi)}]" for lo, hi in c.ranges]
    return WeightedConcreteTable.from_class_counts(counts, labels, buckets,
                                                   id=f"{sensitive} bucketized (t = {c.requested_t}, k = {c.k})")


def _num(x):
    return int(x) if float(x).is_integer() else x
