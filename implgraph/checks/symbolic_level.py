"""The exact optimal level of one definition on a parametric table, piece by piece (:func:`find_level`).

The region is split into pieces by the definitions' own symbolic code on a
:class:`~implgraph.checks.lazy_max.LazyCtx`; pieces with the same value are merged, and each keeps the
sub-regions it was computed on. Levels are memoised in the process and cached on disk
(:mod:`implgraph.checks.level_cache`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import sympy

from implgraph import definitions
from implgraph.checks.lazy_max import lazy_ctx, same_value
from implgraph.checks.level_cache import _cache_confirms, _cache_load, _cache_store, _level_key
from implgraph.core.errors import InputError
from implgraph.core.region import Region
from implgraph.core.pieces import Piece, split_leaves
from implgraph.core.symbolic import Undecidable

__all__ = ["SymbolicLevel", "find_level"]


MAX_SPLITS = 16


def _pieces(region: Region, compute, max_splits: int = MAX_SPLITS) -> list:
    """The leaves of :func:`pieces.split_leaves`, merged by value; each piece keeps its sub-regions."""
    out = [Piece(sympy.And(*extra) if extra else sympy.true, value, reg)
           for extra, value, reg in split_leaves(region, compute, max_splits)]
    merged: list = []
    for p in out:
        for q in merged:
            if same_value(p.value, q.value):
                q.condition = sympy.Or(q.condition, p.condition)
                q.region = None
                q._regions.append(p.region)
                break
        else:
            p._regions = [p.region]
            merged.append(p)
    if len(merged) == 1:
        merged[0].condition = sympy.true
    return merged


@dataclass
class SymbolicLevel:
    """The exact optimal level of one definition on a parametric table, piece by piece.

    ``pieces`` hold the *raw* value (the ratio for t- and eps-definitions); each piece keeps the
    list of sub-regions it was computed on (``piece._regions``).
    """

    definition: object
    params: dict
    scope: str
    pieces: list
    region: Region
    note: str = ""
    seconds: float = 0.0

    @property
    def defined(self) -> bool:
        return bool(self.pieces) and all(p.value is not None for p in self.pieces)

    def level_pieces(self):
        return list(self._memo("pieces", lambda: [(p.condition, self.definition.level_from_raw(p.value))
                                                  for p in self.pieces]))

    def _memo(self, key, make):
        """``make()``, once per level object (its pieces are not changed after it is made; a claim's verdict
        prints a level two or three times)."""
        memo = self.__dict__.setdefault("_texts", {})
        if key not in memo:
            memo[key] = make()
        return memo[key]

    def _piece_texts(self):
        """``[(condition, level)]`` as text (None for an undefined level)."""
        return self._memo("texts", lambda: [(str(c), None if v is None else str(v)) for c, v in self.level_pieces()])

    def __str__(self):
        if not self.defined:
            return f"undefined ({self.note})" if self.note else "undefined"
        texts = self._piece_texts()
        if len(texts) == 1:
            return texts[0][1]
        return "; ".join(f"{v} if {c}" for c, v in texts)

    def to_json(self) -> dict:
        return {
            "level": str(self) if self.defined else None,
            "params": {k: str(v) for k, v in self.params.items()},
            "scope": self.scope,
            "pieces": [{"when": "everywhere" if c is sympy.true else ct, "level": vt}
                       for (c, _), (ct, vt) in zip(self.level_pieces(), self._piece_texts())],
            **({"note": self.note} if self.note else {}),
        }


_MEMO: dict = {}


def find_level(table, definition, params=None, scope="table", region=None) -> SymbolicLevel:
    """The exact optimal level of ``definition`` on ``table`` over ``region`` (default its region).

    Parameters
    ----------
    table : Table
    definition : str or Definition
    params : dict
        The definition's parameters (sympy expressions; symbols must be declared in the region).
    scope : {"table", "class"}
        ``class``: the definition is evaluated within each equivalence class, the worst taken.

    Raises
    ------
    InputError
        Unknown definition, bad parameters, or a region that cannot be split into decided pieces.
    """
    start = time.perf_counter()
    d = definitions.get(definition) if isinstance(definition, str) else definition
    params = d.check_params(table, dict(params or {}))
    region = region or table.region
    extra = {s: "integer" for v in params.values() if isinstance(v, sympy.Basic)
             for s in v.free_symbols if s not in region.kinds}
    if extra:
        region = region.with_symbols(extra)
    if d.needs_classes and not table.has_classes:
        return SymbolicLevel(d, params, scope, [Piece(sympy.true, None)], region,
                             note="the table has no equivalence classes")
    if scope == "class" and not table.has_classes:
        return SymbolicLevel(d, params, scope, [Piece(sympy.true, None)], region,
                             note="scope: class on a table without classes")
    key = _level_key(table, d, params, scope, region)
    pieces = _known_pieces(key, table, d, params, scope, region)
    if pieces is None:
        try:
            pieces = _pieces(region, _level_computation(table, d, params, scope))
            _MEMO[key] = pieces
            _cache_store(key, pieces, region)
        except Undecidable as exc:
            raise InputError(f"{d.name}: the region could not be split into decided pieces ({exc})",
                             file=table.file, fix="add region constraints that fix the order of the values")
    return SymbolicLevel(d, params, scope, pieces, region, seconds=round(time.perf_counter() - start, 3))


def _known_pieces(key, table, d, params, scope, region):
    """The pieces of the level keyed ``key`` computed before in the process or read from the disk cache (and
    confirmed there), else None."""
    if key in _MEMO:
        return _MEMO[key]
    symbols = dict(table.symbols)
    symbols.update({s.name: s for s in region.kinds})
    pieces = _cache_load(key, region, symbols)
    if pieces is not None and not _cache_confirms(pieces, table, d, params, scope):
        pieces = None           # a wrong entry: recomputed by the caller and overwritten
    if pieces is not None:
        _MEMO[key] = pieces
    return pieces


def _level_computation(table, d, params, scope):
    """``compute(ctx)``: the definition's own symbolic level on a lazy context, the worst over the classes
    with ``scope="class"``."""
    parts = [table.restrict(c) for c in table.classes] if scope == "class" else [table]

    def compute(ctx):
        lctx = lazy_ctx(ctx)
        values = [d.symbolic(lctx, part, **params) for part in parts]
        if any(v is None for v in values):
            return None
        if len(values) == 1:
            return values[0]
        if d.stronger == "smaller":
            return lctx.max(values)
        return ctx.min(values)
    return compute
