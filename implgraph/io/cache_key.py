"""Keyed checksums of the on-disk caches: HMAC-SHA256 with a secret of this installation.

A cache entry carries ``mac(...)`` of its content; an entry is replayed only when its checksum matches under the
secret, so an entry edited by anyone who cannot read the secret (another user of a shared cache folder, a file
that was copied in) is recomputed, never trusted, even when it was given a recomputed plain sha256.

The secret is 32 random bytes (:func:`secrets.token_bytes`) made on first use and kept in ``cache.key`` at the top
of the cache folder (``$IMPLGRAPH_CACHE_DIR``, default ``~/.cache/implgraph``), beside the entries and never in
them: the folder is made with mode 0700, the file with mode 0600. A secret file that is not a regular file of
this user with no permission for others, or not 32 bytes long, is not used: the caches are then off (nothing
replayed, nothing stored). A cache folder copied from elsewhere brings its ``cache.key``: delete that file (every
entry is then recomputed) before trusting a cache you did not make.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import secrets
import stat
import tempfile
from pathlib import Path

__all__ = ["mac", "mac_ok", "key_path", "secret", "refused", "note", "KEY_FILE", "KEY_BYTES"]

KEY_FILE = "cache.key"
KEY_BYTES = 32

_SECRETS: dict = {}
_REFUSED: dict = {}


def key_path():
    """Where the secret is kept (None when the caches are off: ``IMPLGRAPH_NO_CACHE``)."""
    from implgraph.io.output import cache_dir
    folder = cache_dir("claims")
    return None if folder is None else folder.parent / KEY_FILE


def _read(path: Path):
    """The secret in ``path``, or raise ValueError (with the reason) when the file is not one to trust."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise ValueError("not a regular file")
        if hasattr(os, "geteuid") and st.st_uid != os.geteuid():
            raise ValueError("owned by another user")
        if st.st_mode & 0o077:
            raise ValueError(f"readable or writable by others (mode {stat.S_IMODE(st.st_mode):o})")
        data = os.read(fd, KEY_BYTES + 1)
    finally:
        os.close(fd)
    if len(data) != KEY_BYTES:
        raise ValueError(f"{len(data)} bytes, not {KEY_BYTES}")
    return data


def _create(path: Path) -> bytes:
    """Make the secret file (mode 0600, all at once: written beside it, then linked to its name, so that of two
    processes making it at once both end up with the one that was linked first)."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".cache.key.", dir=path.parent)
    try:
        os.fchmod(fd, 0o600)
        os.write(fd, secrets.token_bytes(KEY_BYTES))
        os.fsync(fd)
        os.close(fd)
        fd = None
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass                            # another process made it first: use that one
    finally:
        if fd is not None:
            os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(tmp)
    return _read(path)


def secret():
    """The secret of this installation (bytes), made on first use; None when the caches are off or the secret
    file cannot be made or trusted (:func:`refused` says why)."""
    path = key_path()
    if path is None:
        return None
    if path in _SECRETS:
        return _SECRETS[path]
    try:
        try:
            value = _read(path)
        except FileNotFoundError:
            value = _create(path)
    except (OSError, ValueError) as exc:
        _REFUSED[path] = getattr(exc, "strerror", None) or str(exc)
        note(f"the cache key {path} is not used ({_REFUSED[path]}): nothing is replayed from the caches; "
              f"fix: remove {path} (a new one is made)")
        value = None
    _SECRETS[path] = value
    return value


def refused():
    """Why the secret of the current cache folder is not used (None when it is, or was not asked for yet)."""
    return _REFUSED.get(key_path())


def _message(kind: str, parts) -> bytes:
    h = hashlib.sha256()
    for part in (kind, *parts):
        data = part if isinstance(part, bytes) else str(part).encode("utf-8")
        h.update(len(data).to_bytes(8, "big"))
        h.update(data)
    return h.digest()


def mac(kind: str, *parts):
    """The keyed checksum (hex) of ``parts`` (str or bytes, each length-prefixed) for a cache of ``kind``; None
    when there is no secret (then nothing is to be stored)."""
    key = secret()
    if key is None:
        return None
    return hmac.new(key, _message(kind, parts), hashlib.sha256).hexdigest()


def mac_ok(tag, kind: str, *parts) -> bool:
    """Does ``tag`` match the keyed checksum of ``parts`` (compared in constant time)? False without a secret."""
    expected = mac(kind, *parts)
    return isinstance(tag, str) and expected is not None and hmac.compare_digest(tag, expected)


def note(text: str) -> None:
    """A line about the caches on stderr, with ``-v`` only (``implgraph: cache: ...``)."""
    import sys

    from implgraph.io.console import VERBOSE, verbosity
    if verbosity() >= VERBOSE:
        print(f"implgraph: cache: {text}", file=sys.stderr)
