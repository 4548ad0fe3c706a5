"""The on-disk cache of symbolic levels (``$IMPLGRAPH_CACHE_DIR``; ``IMPLGRAPH_NO_CACHE=1`` disables).

An entry is named by the sha256 content key of :func:`_level_key` (the code the levels depend on, the
solver backend, the definition's module, the table and the region) and stores that key and a keyed checksum
(HMAC-SHA256 with this installation's secret, :mod:`implgraph.io.cache_key`).
Values and conditions are stored as sympy trees (:func:`_write_tree`), read back node by node without evaluation
(:func:`_read_tree`), so a level read from the cache prints exactly as the level computed; on loading, each piece is re-checked at an exact sample point against the concrete level
(:func:`_cache_confirms`), so a damaged or wrong entry is recomputed, never trusted.
"""

from __future__ import annotations

import ast
import hashlib
import hmac
import inspect
import json
import uuid
from pathlib import Path

import sympy

from implgraph.checks.table_points import concrete_level, sample_points
from implgraph.core.errors import InputError
from implgraph.core.pieces import Piece
from implgraph.io.output import atomic_write
from implgraph.io.output import cache_dir as _cache_dir
from implgraph.solvers import region_backend_name

__all__ = ["cache_dir"]


_CODE_HASH: list = []


_RUNTIME_KEYS: dict = {}


def _code_hash() -> str:
    """A hash of the code the levels depend on (a change invalidates the on-disk cache)."""
    if not _CODE_HASH:
        h = hashlib.sha256()
        root = Path(__file__).resolve().parents[1]
        files = [root / "checks" / f for f in ("lazy_max.py", "symbolic_level.py", "table_points.py", "level_cache.py")]
        files += [root / "core" / f for f in ("symbolic.py", "region.py", "table.py")]
        files += sorted((root / "definitions").glob("*.py"))
        for f in files:
            try:
                h.update(f.read_bytes())
            except OSError:
                pass
        _CODE_HASH.append(h.hexdigest())
    return _CODE_HASH[0]


def _definition_hash(d) -> str:
    """A hash of the module defining ``d`` (plugins live outside the package's own code hash)."""
    try:
        source = inspect.getsourcefile(type(d))
        with open(source, "rb") as fh:
            return hashlib.sha256(fh.read()).hexdigest()
    except (OSError, TypeError):
        # no source file to hash (a class made at run time): a key no other run can produce
        return _RUNTIME_KEYS.setdefault(type(d), f"no-source:{uuid.uuid4()}")


def _level_key(table, d, params, scope, region) -> str:

    parts = (_code_hash(), region_backend_name(), _definition_hash(d), d.name, sorted((k, str(v)) for k, v in params.items()), scope,
             [(tuple(map(str, b.probs)), str(b.count), b.cls) for b in table.blocks], list(table.buckets),
             sorted((s.name, k) for s, k in region.kinds.items()), [str(c) for c in region.constraints])
    return hashlib.sha256(repr(parts).encode()).hexdigest()


def cache_dir():
    """Where symbolic levels are cached (``$IMPLGRAPH_CACHE_DIR``; ``IMPLGRAPH_NO_CACHE=1`` disables).

    An entry is named by the sha256 content key of :func:`_level_key` and stores that key and a
    checksum; on loading, each piece is re-checked at an exact sample point against the concrete
    level (:func:`_cache_confirms`), so a damaged or wrong entry is recomputed, never trusted.
    """
    return _cache_dir("levels")


def _cache_checksum(key, pieces_json):
    """The keyed checksum (HMAC-SHA256 with this installation's secret, :mod:`implgraph.io.cache_key`) of the
    entry's key and its canonical JSON pieces: an entry edited by anyone without the secret is not read; None
    without a secret (nothing stored, nothing read)."""
    from implgraph.io.cache_key import mac
    return mac("levels", key, json.dumps(pieces_json, sort_keys=True))


def _cache_load(key, region, symbols):
    """The cached pieces of ``key``, or None when absent, unreadable, or failing its checksum.

    A loaded entry is still only a candidate: :func:`_cache_confirms` re-checks it on the table.
    """
    folder = cache_dir()
    if folder is None:
        return None
    path = folder / f"{key}.json"
    try:
        if not path.is_file() or path.stat().st_size > 64 * 2 ** 20:
            return None         # not an entry this code wrote (a device, a folder, a file too large to read)
        data = json.loads(path.read_text(encoding="utf-8"))
        expected = _cache_checksum(key, data["pieces"])
        if data.get("key") != key or expected is None or not hmac.compare_digest(str(data.get("checksum")), expected):
            return None
        pieces = []
        for p in data["pieces"]:
            value = None if p["value"] is None else _read_tree(p["tree"], symbols)
            if value is not None and str(value) != p["value"]:
                return None
            extras = [[_read_tree(c, symbols) for c in extra] for extra in p["region_trees"]]
            regs = [region.add(*extra) for extra in extras]
            conds = [sympy.And(*extra) for extra in extras]
            piece = Piece(sympy.Or(*conds) if len(conds) > 1 else (conds[0] if conds else sympy.true), value,
                          regs[0] if len(regs) == 1 else None)
            piece._regions = regs
            pieces.append(piece)
        if not pieces:
            return None
        if len(pieces) == 1:
            pieces[0].condition = sympy.true
        return pieces
    except (OSError, ValueError, KeyError, TypeError, AttributeError, InputError, SyntaxError, RecursionError):
        return None


#: the sympy names a stored tree may use (anything else makes the entry unreadable: it is recomputed)
_TREE_NAMES = frozenset((
    "Add", "Mul", "Pow", "Max", "Min", "log", "exp", "Abs", "floor", "ceiling", "Piecewise", "ExprCondPair",
    "Integer", "Rational", "Float", "GreaterThan", "LessThan", "StrictGreaterThan", "StrictLessThan",
    "Equality", "Unequality", "And", "Or", "Not"))
_TREE_CONSTANTS = {"oo": sympy.oo, "zoo": sympy.zoo, "nan": sympy.nan, "E": sympy.E, "pi": sympy.pi,
                   "true": sympy.true, "false": sympy.false}


def _write_tree(e) -> str:
    """``e`` as nested calls ``Name(arg, ...)`` with its arguments in their stored order (``srepr``
    reorders the terms of sums and products); ValueError on a node :func:`_read_tree` would not read."""
    if isinstance(e, sympy.Symbol):
        return f"Symbol({e.name!r})"
    if isinstance(e, sympy.Integer):
        return f"Integer({int(e)})"
    if isinstance(e, sympy.Rational):
        return f"Rational({e.p}, {e.q})"
    if e is -sympy.oo:
        return "-oo"
    for name, const in _TREE_CONSTANTS.items():
        if e is const:
            return name
    name = type(e).__name__
    if name not in _TREE_NAMES or name in ("Integer", "Rational", "Float") or not e.args:
        raise ValueError(f"a {name} is not stored")
    return f"{name}({', '.join(_write_tree(a) for a in e.args)})"


def _read_tree(text, symbols):
    """The sympy expression :func:`_write_tree` wrote as ``text``, rebuilt node by node without
    evaluation (the same tree, hence the same printed form, as the one stored), its symbols those of
    ``symbols``.

    Only the names of :data:`_TREE_NAMES` are read (no ``eval``); anything else raises ValueError.
    """
    def build(node):
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, str)):
            return node.value
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            inner = build(node.operand)
            if isinstance(inner, int):
                return -inner
            if inner is sympy.oo:
                return -sympy.oo
        if isinstance(node, ast.Name) and node.id in _TREE_CONSTANTS:
            return _TREE_CONSTANTS[node.id]
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            name, args = node.func.id, [build(a) for a in node.args]
            if name == "Symbol" and args and isinstance(args[0], str):
                return symbols[args[0]]
            if name in _TREE_NAMES:
                if name in ("Integer", "Rational", "Float"):
                    return getattr(sympy, name)(*args, **{k.arg: build(k.value) for k in node.keywords})
                return getattr(sympy, name)(*args, evaluate=False)
        raise ValueError(f"not a stored expression: {ast.dump(node)[:80]}")

    return build(ast.parse(text, mode="eval").body)


def _same_number(a, b) -> bool:
    """Exact equality of two levels at a point (rationals, oo, None); irrational values (levels built on
    logarithms) are compared to 50 digits, since their exact equality is not decidable cheaply."""
    if a is None or b is None:
        return a is b
    a, b = sympy.sympify(a), sympy.sympify(b)
    if a is sympy.oo or b is sympy.oo:
        return a == b
    if not (a.is_number and b.is_number):
        return False
    if a.is_Rational and b.is_Rational:
        return a == b
    diff = sympy.N(a - b, 50)
    scale = max(abs(sympy.N(a, 50)), sympy.Integer(1))
    return diff.is_number and abs(diff) <= scale * sympy.Rational(1, 10 ** 45)


def _cache_confirms(pieces, table, d, params, scope) -> bool:
    """Re-check a cached level: every piece's value at an exact sample point of its sub-region must
    equal the concrete exact level of the table instantiated there. A piece without a sample point
    cannot be confirmed (the entry is then recomputed, never trusted)."""
    for piece in pieces:
        regions = getattr(piece, "_regions", None) or ([piece.region] if piece.region else [])
        point = next((pt for reg in regions for pt in sample_points(reg, limit=1)), None)
        if point is None:
            return False
        cached = None if piece.value is None else sympy.sympify(piece.value).xreplace(point)
        try:
            actual = concrete_level(table, d, params, point, scope)
        except (InputError, ZeroDivisionError, TypeError, ValueError):
            return False
        if not _same_number(cached, actual):
            return False
    return True


def _cache_store(key, pieces, region):
    folder = cache_dir()
    if folder is None:
        return
    n = len(region.constraints)
    try:
        body = [{"value": None if p.value is None else str(p.value),
                 "tree": None if p.value is None else _write_tree(p.value),
                 "regions": [[str(c) for c in reg.constraints[n:]] for reg in p._regions],
                 "region_trees": [[_write_tree(c) for c in reg.constraints[n:]] for reg in p._regions]}
                for p in pieces]
    except ValueError:
        return          # a value the stored form does not cover: computed again next time
    checksum = _cache_checksum(key, body)
    if checksum is None:
        return          # no secret: nothing a later run could trust
    data = {"key": key, "pieces": body, "checksum": checksum}
    try:
        folder.mkdir(parents=True, exist_ok=True)
        atomic_write(folder / f"{key}.json", json.dumps(data))
    except OSError:
        pass
