"""Computed verdicts of the edge claims, cached on disk by content.

The map and ``path`` are built from verdicts the engine computed, never from the ``expect:`` recorded in
the data. Computing them is ``implgraph verify`` on the edge claims; the result is cached under a key
that hashes every source file of the package, the modules of the registered definitions (plugins), the
claim files used and the bound ``max_n``. A changed file gives another key; an entry whose checksum does
not match its contents is recomputed, never trusted. ``IMPLGRAPH_NO_CACHE=1`` disables the cache,
``IMPLGRAPH_CACHE_DIR`` moves it.

Every claim's rows of ``implgraph verify`` are cached the same way (:func:`claims_key`,
:func:`cached_rows`, :func:`store_rows`): the key adds the per-claim ``--timeout`` and the versions of
the libraries that decide (sympy, z3, cvc5); an entry holds each claim's rows as the JSON of
:class:`~implgraph.core.verdict.Verdict` (exact strings), replayed as ``Verdict(**row)``. A row that
timed out or met a checker error is not stored (it says nothing about the claim).
"""

from __future__ import annotations

import hashlib
import inspect
import json
from pathlib import Path

from implgraph.core.verdict import Verdict
from implgraph.io.output import atomic_write, cache_dir

__all__ = ["computed_verdicts", "verdicts_key", "claims_key", "cached_rows", "store_rows", "row_json",
           "row_verdict"]

#: the libraries whose version is part of a key (another version may decide differently)
DECIDING_LIBRARIES = ("sympy", "z3-solver", "cvc5", "numpy")


def _hash_files(h, files) -> None:
    for f in files:
        h.update(str(Path(f).name).encode())
        try:
            h.update(Path(f).read_bytes())
        except OSError:
            h.update(b"<missing>")


def verdicts_key(claim_files, max_n: int) -> str:
    """The content key of the verdicts of ``claim_files`` at ``max_n``."""
    from implgraph import definitions
    root = Path(__file__).resolve().parents[1]
    h = hashlib.sha256(b"implgraph-verdicts-v1")
    _hash_files(h, sorted(root.rglob("*.py")))
    for name in sorted(definitions.names()):
        try:
            src = inspect.getsourcefile(type(definitions.get(name)))
        except (TypeError, OSError):
            src = None
        h.update(name.encode())
        if src and not str(src).startswith(str(root)):
            _hash_files(h, [src])
    _hash_files(h, sorted(map(str, claim_files)))
    h.update(str(max_n).encode())
    from implgraph.solvers import region_backend_name
    h.update(region_backend_name().encode())       # verdicts of one solver are not another's
    h.update(_library_versions().encode())
    return h.hexdigest()


def _library_versions() -> str:
    from importlib import metadata
    out = []
    for name in DECIDING_LIBRARIES:
        try:
            out.append(f"{name}=={metadata.version(name)}")
        except metadata.PackageNotFoundError:
            out.append(f"{name} absent")
    return ";".join(out)


def claims_key(claim_files, max_n: int, timeout=None) -> str:
    """The content key of the rows of ``implgraph verify`` on ``claim_files`` at ``max_n`` and the
    per-claim ``timeout`` (seconds or None)."""
    h = hashlib.sha256(b"implgraph-claim-rows-v1")
    h.update(verdicts_key(claim_files, max_n).encode())
    h.update(repr(timeout).encode())
    return h.hexdigest()


_DERIVED = ("status", "strength")


def row_json(v: Verdict) -> dict:
    """A verdict as the JSON ``verify --json`` prints for it, without the derived keys."""
    d = json.loads(json.dumps(v.to_json(), default=str))
    for k in _DERIVED:
        d.pop(k, None)
    return d


def row_verdict(row: dict) -> Verdict:
    """The verdict of a stored row (:func:`row_json`): ``row_json(row_verdict(r)) == r``."""
    return Verdict(**{k: v for k, v in row.items() if k not in _DERIVED})


def _storable(rows) -> bool:
    """A claim's rows say something about the claim (no --timeout expiry, no checker error)."""
    return all("timeout" not in (v.details or {}) and not str(v.evidence).startswith("checker error")
               for v in rows)


def _rows_path(key):
    folder = cache_dir("claims")
    return None if folder is None or key is None else folder / f"{key}.json"


def _load_rows(path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        rows = data["rows"]
        if not isinstance(rows, dict) or data.get("checksum") != _checksum(rows):
            return {}
        return rows
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def cached_rows(key) -> dict:
    """``{claim id: [Verdict, ...]}`` stored under ``key`` ({} when absent, damaged or disabled)."""
    path = _rows_path(key)
    if path is None or not path.exists():
        return {}
    out = {}
    for cid, rows in _load_rows(path).items():
        try:
            out[str(cid)] = [row_verdict(r) for r in rows]
        except (TypeError, ValueError):
            continue            # a row this code cannot read: that claim is computed again
    return out


def store_rows(key, rows: dict) -> None:
    """Add ``{claim id: [Verdict, ...]}`` to the entry of ``key`` (rows that say nothing are left out)."""
    path = _rows_path(key)
    if path is None:
        return
    new = {str(cid): [row_json(v) for v in vs] for cid, vs in rows.items() if vs and _storable(vs)}
    if not new:
        return
    merged = {**(_load_rows(path) if path.exists() else {}), **new}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, json.dumps({"checksum": _checksum(merged), "rows": merged}))
    except OSError:
        pass   # a cache that cannot be written is no cache, not an error


def _checksum(verdicts: dict) -> str:
    return hashlib.sha256(json.dumps(verdicts, sort_keys=True).encode()).hexdigest()


def _load(path: Path):
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        verdicts = data["verdicts"]
        if not isinstance(verdicts, dict) or data.get("checksum") != _checksum(verdicts):
            return None
        return {str(k): str(v) for k, v in verdicts.items()}
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _store(path: Path, verdicts: dict) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, json.dumps({"checksum": _checksum(verdicts), "verdicts": verdicts}))
    except OSError:
        pass   # a cache that cannot be written is no cache, not an error


def computed_verdicts(ids, claim_files, max_n: int, compute) -> dict:
    """``{claim id or id#reading: verdict}`` of ``ids``: from the cache when its entry is intact,
    otherwise ``compute(ids)`` (a list of verdicts), stored for the next run."""
    from implgraph.map.verdicts import verdict_lookup
    folder = cache_dir("verdicts")
    path = None if folder is None else folder / f"{verdicts_key(claim_files, max_n)}.json"
    if path is not None and path.exists():
        cached = _load(path)
        if cached is not None and all(str(i) in cached for i in ids):
            return cached
    verdicts = verdict_lookup(compute(ids))
    if path is not None:
        _store(path, verdicts)
    return verdicts
