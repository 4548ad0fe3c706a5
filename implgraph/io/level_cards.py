"""The levels of microdata without sympy: the definitions whose level is a count or a ratio of counts.

On microdata (a grouped deterministic table: :class:`~implgraph.io.weighted.WeightedConcreteTable`) several
definitions' levels are a count or a fraction of the count table, per class, as they declare it
(:mod:`implgraph.definitions.capabilities`): the smallest class's size (``ClassSizeLevel``), the fewest values
a class holds or the inverse of its largest share (a ``ClassLevel`` whose formula is ``k`` or ``1 / top``), the
largest total variation distance between a class's values and the table's (``ClassDistance``
``total-variation`` at its ``where`` words), the largest ratio of a class's share of a value to the table's
(a class ``RatioLevel``, one- or two-sided; less the scale's offset, or its log:
:class:`~implgraph.io.count_levels.LogOf`). Those are computed by :mod:`implgraph.io.count_levels` with Python
integers and :class:`fractions.Fraction` (exact), without importing sympy or the registry of definitions, which
together cost more CPU time than counting a million records.

What a definition declares is read from the registry once and kept as a :class:`~implgraph.io.count_levels.Card`
(name, level symbol, direction, parameters and the *recipe* its capabilities give), in the levels cache
(``$IMPLGRAPH_CACHE_DIR/levels``) under a keyed checksum (:mod:`implgraph.io.cache_key`) of the sources of the
definitions and the core; a card has a recipe only when the recipe gave, on small probe tables, exactly the
definition's own level (its ``concrete`` view through :func:`implgraph.definitions.levels.optimal_level`: the same
text, the same float) and parameters. When the cache is off, stale or absent, :func:`cards` builds the cards from the registry
(sympy imported: no gain, same answers); with a plugin, or a registry holding other definitions, it gives
none. ``implgraph levels`` takes this path only when every definition it computes has a recipe
(:mod:`implgraph.io.microdata_fast`), and the registry's path otherwise.

Examples
--------
>>> from implgraph.io.count_levels import class_values
>>> from implgraph.io.weighted import WeightedConcreteTable
>>> ct = WeightedConcreteTable.from_class_counts([[2, 1], [0, 3]], ["A", "B"], ["x", "y"])
>>> class_values("class-size", ct), class_values("distinct-values", ct), class_values("total-variation", ct)
([3, 3], [2, 1], [Fraction(1, 3), Fraction(1, 3)])
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict
from pathlib import Path

from implgraph.io.count_levels import Card, table_value

__all__ = ["cards", "build_cards"]

CACHE_FORMAT = 3
"""Raised when a card's fields change (older cached cards are then rebuilt)."""


# -- the cards: built from the registry, kept in the levels cache -----------------------------------------
def _recipe(d):
    """``(recipe, where)`` that the capabilities of the registered definition ``d`` give, or ``(None, {})``."""
    from implgraph.definitions.capabilities import ClassDistance, ClassLevel, ClassSizeLevel, FiniteLevelOf, \
        MinClassSize, RatioLevel
    from implgraph.definitions.levels import has_fast_path
    if not has_fast_path(d) or d.has(MinClassSize) or d.has(FiniteLevelOf):
        return None, {}
    ratio = d.declared(RatioLevel)
    if ratio is not None:
        return (f"class-ratio-{ratio.sides}", {}) if ratio.family == "class" and not d.params else (None, {})
    if not d.level_scale.identity:          # (an offset or a log: the ratios' only)
        return None, {}
    dist = d.declared(ClassDistance)
    where = dict(dist.where) if dist is not None else {}
    if set(d.params) - set(where):          # a parameter the recipe does not fix (k, delta, ...)
        return None, {}
    if d.has(ClassSizeLevel):
        return "class-size", {}
    cl = d.declared(ClassLevel)
    if cl is not None:
        import sympy
        from implgraph.definitions._classes import GenericClass
        g = GenericClass()
        for recipe, form in (("distinct-values", g.k), ("top-share-inverse", 1 / g.top)):
            try:
                if sympy.simplify(sympy.sympify(cl.formula(g)) - form) == 0:
                    return recipe, {}
            except (TypeError, ValueError, AttributeError):
                pass
        return None, {}
    if dist is not None and dist.kind == "total-variation":
        return "total-variation", where
    return None, {}


PROBES = ([[2, 0, 1], [1, 1, 1], [0, 3, 0]], [[5, 1], [2, 2], [1, 0]], [[1, 1, 1, 1], [4, 0, 0, 0], [0, 2, 2, 1]],
          [[2, 1, 1], [1, 2, 1]], [[3, 1], [1, 1], [2, 5]], [[1, 2, 3], [3, 2, 1], [2, 2, 2]])
"""Count tables (classes x values) on which every recipe is checked against the definition's own level."""


def _agrees(d, recipe, where) -> bool:
    """Does ``recipe`` give, on every probe table, the definition's own exact level and parameters?"""
    from implgraph.core.errors import InputError
    from implgraph.definitions.levels import optimal_level
    from implgraph.io.weighted import WeightedConcreteTable
    for counts in PROBES:
        ct = WeightedConcreteTable.from_class_counts(counts, [f"c{i}" for i in range(len(counts))],
                                                     [f"v{j}" for j in range(len(counts[0]))])
        try:
            lv = optimal_level(ct, d, **where)
        except InputError:
            return False
        mine = table_value(recipe, ct, d.stronger, d.level_scale.offset, d.level_scale.log)
        if mine is None and str(lv.value) == "oo":      # infinite both ways (the registry's path says why)
            continue
        if lv.value is None or mine is None or lv.enclosure is not None or str(lv.value) != str(mine) \
                or float(lv.value) != float(mine) or {k: str(v) for k, v in lv.params.items()} != where:
            return False
    return True


def build_cards() -> list:
    """A :class:`Card` for every registered definition, in the registry's order (imports the registry)."""
    from implgraph.definitions import all_definitions
    out = []
    for d in all_definitions():
        recipe, where = _recipe(d)
        if recipe is not None and not _agrees(d, recipe, where):
            recipe, where = None, {}
        out.append(Card(name=d.name, level_symbol=str(d.level_symbol), stronger=str(d.stronger),
                        needs_classes=bool(d.needs_classes), params={str(k): str(v) for k, v in d.params.items()},
                        words={str(k): str(v) for k, v in (d.words or {}).items()}, recipe=recipe, where=where,
                        offset=int(d.level_scale.offset) if recipe else 0,
                        log=bool(d.level_scale.log) if recipe else False))
    return out


def _plugins() -> bool:
    """Is a definition installed as a plugin (the ``implgraph.definitions`` entry points)?"""
    from importlib import metadata
    try:
        return bool(list(metadata.entry_points(group="implgraph.definitions")))
    except Exception:   # pragma: no cover - broken metadata: the registry decides
        return True


def _sources() -> bytes:
    """What the cards are read from: the sources of the definitions, of the core and of this module (a change
    rebuilds them)."""
    import hashlib

    import implgraph
    root = Path(implgraph.__file__).parent
    h = hashlib.sha256(f"{implgraph.__version__} {CACHE_FORMAT}".encode())
    files = sorted((root / "definitions").rglob("*.py")) + sorted((root / "core").rglob("*.py")) + \
        [Path(__file__), root / "io" / "count_levels.py", root / "io" / "weighted.py"]
    for path in files:
        data = path.read_bytes()
        h.update(str(path.relative_to(root)).encode() + b"\0" + len(data).to_bytes(8, "big") + data)
    return h.digest()


def _cache_file():
    from implgraph.io.output import cache_dir
    folder = cache_dir("levels")
    return None if folder is None else folder / "cards.json"


def cards() -> list | None:
    """The cards of the registered definitions, from the levels cache when its checksum matches (no sympy
    imported), else built from the registry (and stored, when the registry was not loaded before); None when a
    definition comes from a plugin, or the loaded registry holds other definitions than the cached cards (the
    registry then answers)."""
    if _plugins():
        return None
    import sys
    if "implgraph.definitions.base" in sys.modules:     # the registry is loaded: it may hold more (register())
        from implgraph.definitions.base import REGISTRY
        live = list(REGISTRY)
    else:
        live = None
    from implgraph.io.cache_key import mac, mac_ok
    path, key = _cache_file(), _sources()
    if path is not None:
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
            body = json.dumps(doc["cards"], sort_keys=True)
            if mac_ok(doc.get("mac"), "level-cards", key, body):
                out = [Card(**c) for c in doc["cards"]]
                return out if live is None or live == [c.name for c in out] else None
        except (OSError, ValueError, KeyError, TypeError):
            pass
    out = build_cards()
    if live is not None:            # (a registry loaded before may hold a definition registered at run time)
        return out
    body = json.dumps([asdict(c) for c in out], sort_keys=True)
    tag = mac("level-cards", key, body) if path is not None else None
    if tag is not None:
        _store(path, {"cards": [asdict(c) for c in out], "mac": tag})
    return out


def _store(path: Path, doc: dict) -> None:
    """Write the cache file atomically; a cache that cannot be written is skipped."""
    import tempfile
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".cards.", dir=path.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(doc, fh, sort_keys=True)
        os.replace(tmp, path)
    except OSError:
        pass
