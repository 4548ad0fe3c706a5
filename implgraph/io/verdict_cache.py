"""Computed verdicts of the edge claims, cached on disk by content.

The map and ``path`` are built from verdicts the engine computed, never from the ``expect:`` recorded in
the data. Computing them is ``implgraph verify`` on the edge claims; the result is cached under a key
that hashes every source file of the package, the modules of the registered definitions (plugins), the
claim files used and the bound ``max_n``. A changed file gives another key; an entry whose checksum does
not match its contents is recomputed, never trusted. ``IMPLGRAPH_NO_CACHE=1`` disables the cache,
``IMPLGRAPH_CACHE_DIR`` moves it.
"""

from __future__ import annotations

import hashlib
import inspect
import json
from pathlib import Path

from implgraph.io.output import atomic_write, cache_dir

__all__ = ["computed_verdicts", "verdicts_key"]


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
    return h.hexdigest()


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
