"""The rows of ``implgraph verify``, cached on disk by content and replayed only when unforged.

Every claim's rows are cached under a key (:func:`claims_key`) that hashes every source file of the package,
the modules of the registered definitions (plugins), the claim files used, the bound ``max_n``, the per-claim
``--timeout``, the solver and the versions of the libraries that decide (sympy, z3, cvc5): a changed file is
another key. An entry holds each claim's rows as the JSON of :class:`~implgraph.core.verdict.Verdict` (exact
strings), replayed as ``Verdict(**row)``. A row that timed out or met a checker error is not stored (it says
nothing about the claim). ``IMPLGRAPH_NO_CACHE=1`` disables the cache, ``IMPLGRAPH_CACHE_DIR`` moves it.

A replayed verdict cannot be forged:

- each claim's rows carry a keyed checksum (HMAC-SHA256 with the secret of this installation,
  :mod:`implgraph.io.cache_key`) over the entry's key, the claim id and the rows; rows whose checksum fails
  (edited, even with a recomputed plain sha256, or moved to another key or claim) are computed again;
- a replayed row carrying certificates has them re-checked by the independent checker
  (:func:`implgraph.certify.check_certificate`), and a replayed ``proved`` row must carry one: otherwise the
  claim is computed again.

With ``-v`` each row not replayed is named on stderr with the reason. The implication map and ``path`` take
their verdicts from the same rows (:func:`implgraph.commands.map.verify_edges`): there is no second copy.
"""

from __future__ import annotations

import hashlib
import inspect
import json
from pathlib import Path

from implgraph.core.verdict import Verdict
from implgraph.io.cache_key import mac, mac_ok, note
from implgraph.io.output import atomic_write, cache_dir

__all__ = ["verdicts_key", "claims_key", "cached_rows", "store_rows", "row_json", "row_verdict", "FORMAT"]

#: the format of an entry (an entry of another format is not read)
FORMAT = "implgraph-claim-rows/2"
#: the largest entry read (every claim of the bundled data takes about 0.5 MB)
MAX_ENTRY_BYTES = 256 * 2 ** 20

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


def _canonical(rows) -> str:
    return json.dumps(rows, sort_keys=True, separators=(",", ":"))


def _row_mac(key, cid, rows):
    """The keyed checksum of one claim's rows in the entry of ``key`` (None without a secret)."""
    return mac("claim-rows", FORMAT, key, cid, _canonical(rows))


def _load_rows(path, key, quiet: bool = False) -> dict:
    """``{claim id: [row JSON]}`` of the entry at ``path`` whose keyed checksums hold (others left out, named
    with ``-v`` unless ``quiet``)."""
    try:
        if not path.is_file() or path.stat().st_size > MAX_ENTRY_BYTES:
            return {}           # not an entry this code wrote (a device, a folder, a file too large to read)
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            return {}
        rows, macs = data["rows"], data["macs"]
        if not isinstance(rows, dict) or not isinstance(macs, dict):
            return {}
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        return {}
    out = {}
    for cid, claim_rows in rows.items():
        if mac_ok(macs.get(cid), "claim-rows", FORMAT, key, cid, _canonical(claim_rows)):
            out[str(cid)] = claim_rows
        elif not quiet:
            note(f"the cached rows of {cid} fail their keyed checksum: computed again")
    return out


def _rechecked(cid, verdicts, claim) -> bool:
    """Every row re-checked as ``verify --recheck`` re-checks it (:func:`implgraph.certify.recheck_row`): each
    certificate accepted by :mod:`implgraph.certify` (a refutation by a proof included), the certificates stating
    the row's ``claim`` (the claim node of the data), and every ``proved`` row carrying one (named with ``-v``
    otherwise)."""
    from implgraph.certify import certificates_in, recheck_row
    for v in verdicts:
        if v.verdict == "proved" and not certificates_in(v.details if isinstance(v.details, dict) else None):
            note(f"the cached row {v.id} is proved but carries no certificate to re-check: computed again")
            return False
        try:
            reports = recheck_row(claim, v)
        except Exception:                        # a certificate the checker cannot read is not accepted
            reports = None
        if reports is None or not all(r.ok for r in reports):
            note(f"the cached row {v.id} is not accepted by implgraph.certify (its certificate, or the statement "
                 "it proves): computed again")
            return False
    return True


def cached_rows(key, claims=None) -> dict:
    """``{claim id: [Verdict, ...]}`` stored under ``key`` whose keyed checksums hold and whose certificates
    the checker accepts, as stating the claim of ``claims`` (``{claim id: claim node}``) each row is about ({} when
    absent, damaged, forged or disabled)."""
    path = _rows_path(key)
    if path is None or not path.exists():
        return {}
    out = {}
    for cid, rows in _load_rows(path, key).items():
        try:
            verdicts = [row_verdict(r) for r in rows]
        except (TypeError, ValueError, AttributeError):
            continue            # a row this code cannot read: that claim is computed again
        if _rechecked(cid, verdicts, (claims or {}).get(cid)):
            out[cid] = verdicts
    return out


def store_rows(key, rows: dict) -> None:
    """Add ``{claim id: [Verdict, ...]}`` to the entry of ``key`` (rows that say nothing are left out), each
    claim's rows with their keyed checksum; nothing is stored without a secret."""
    path = _rows_path(key)
    if path is None:
        return
    new = {str(cid): [row_json(v) for v in vs] for cid, vs in rows.items() if vs and _storable(vs)}
    if not new:
        return
    macs = {cid: _row_mac(key, cid, r) for cid, r in new.items()}
    if any(m is None for m in macs.values()):
        return                  # no secret: nothing can be stored that a later run could trust
    merged = {**(_load_rows(path, key, quiet=True) if path.exists() else {}), **new}
    macs = {cid: macs.get(cid) or _row_mac(key, cid, r) for cid, r in merged.items()}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, json.dumps({"format": FORMAT, "key": key, "rows": merged, "macs": macs}))
    except OSError:
        pass   # a cache that cannot be written is no cache, not an error
