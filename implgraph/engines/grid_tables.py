"""The grids of concrete tables the bounded search probes, and the memo of their exact levels: a definition's raw level
on a grid table is one exact value whatever asked before, so both directions of a pair, and every pair with the same
definition, read it once (:func:`level_of`, :func:`finite_of`).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

from implgraph.core.concrete import INF
from implgraph.engines.recheck import is_plugin, raw_level

__all__ = ["COARSE_GRID", "WEAKEST_GRID", "GRID_LEVELS_MAX", "remembered", "binary_rows", "definition_key", "level_of",
           "finite_of", "rows_keys"]

#: the values v of the binary rows (v, 1 - v) of the coarse grid, and those among which a table with B at its weakest
#: level is looked for next, at each sampled level of A (halves, thirds and quarters: a record at (1/2, 1/2) is as
#: diverse as two values allow)
COARSE_GRID = (Fraction(0), Fraction(1, 3), Fraction(2, 3), Fraction(1))
WEAKEST_GRID = tuple(sorted({Fraction(i, d) for d in (2, 3, 4) for i in range(d + 1)}))


#: the raw levels of the grid's tables, by (definition's class, name, parameters, rows, class sizes; the rows only for a
#: built-in definition whose level is not over classes):
#: both directions of a pair probe the same tables, and a definition's level on a table is one exact
#: value whatever was asked before (an error is never kept)
_GRID_LEVELS: dict = {}
#: the most levels kept (then the memo starts again)
GRID_LEVELS_MAX = 100_000
_MISSING = object()


def definition_key(d, params) -> tuple:
    """``(definition, its key in the memo, whether its level reads the classes)``: a built-in definition that declares
    no capability on classes computes its level from the records alone (Definition.needs_classes), one level for
    the rows whatever partition (or none) the table carries."""
    return d, (type(d), d.name, tuple(sorted((k, str(v)) for k, v in params.items()))), \
        d.needs_classes or is_plugin(d)


def remembered(store, key, compute, most=GRID_LEVELS_MAX):
    """``compute()``, from ``store`` when it is there under ``key`` (None included; at most ``most`` entries kept,
    then the memo starts again)."""
    v = store.get(key, _MISSING)
    if v is _MISSING:
        v = compute()
        if len(store) >= most:
            store.clear()
        store[key] = v
    return v


def _remembered(store, dkey, rows_key, compute):
    """:func:`remembered` under the definition's and the table's key."""
    _, key, classed = dkey
    return remembered(store, (key, rows_key[1] if classed else rows_key[0]), compute)


def level_of(dkey, params, rows_key, table):
    """``raw_level(d, params, table())``, from :data:`_GRID_LEVELS` when it is there (``table`` builds the table only
    when a level is computed); ``dkey`` from :func:`definition_key`, ``rows_key`` from :func:`rows_keys`."""
    return _remembered(_GRID_LEVELS, dkey, rows_key, lambda: raw_level(dkey[0], params, table()))


#: whether a grid table's level is finite, by the same keys as :data:`_GRID_LEVELS`
_FINITE: dict = {}


def finite_of(dkey, params, rows_key, table):
    """Whether the definition's level on the grid table is finite (None: undefined), from its ``concrete_finite``
    where a built-in declares one (remembered as :func:`level_of` remembers levels), else from its level."""
    d = dkey[0]
    if d.concrete_finite is None or is_plugin(d):
        v = level_of(dkey, params, rows_key, table)
        return None if v is None else v != INF
    return _remembered(_FINITE, dkey, rows_key, lambda: d.concrete_finite(table(), **params))


class _Key:
    """A tuple with its hash computed once (a table's rows of Fractions are hashed for two or three lookups)."""

    __slots__ = ("t", "h")

    def __init__(self, t):
        self.t, self.h = t, hash(t)

    def __hash__(self):
        return self.h

    def __eq__(self, other):
        return isinstance(other, _Key) and self.h == other.h and self.t == other.t


def rows_keys(rows, sizes, classed) -> tuple:
    """The memo's two keys of a grid table: its rows (as integer pairs: a Fraction's hash is slow), and its rows with
    the class sizes."""
    rk = tuple(tuple((v.numerator, v.denominator) for v in r) for r in rows)
    return _Key(rk), _Key((rk, sizes, classed))


def binary_rows(grid, N, p):
    """The tables of N binary rows (v, 1 - v, 0, ...) with v in ``grid``, in increasing v."""
    for combo in itertools.combinations_with_replacement(grid, N):
        yield [[v, 1 - v] + [Fraction(0)] * (p - 2) for v in combo]
