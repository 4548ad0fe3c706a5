"""Shared output helpers: JSON printing, atomic file writes (terminal output: :mod:`implgraph.io.console`)."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import signal
import sys
import tempfile
import threading
from pathlib import Path

from implgraph.core.errors import InputError

__all__ = ["print_json", "atomic_write", "write_output", "check_output_path"]

#: signals that would end the process while a temporary file exists: removed first, then re-sent
_CLEANUP_SIGNALS = tuple(getattr(signal, n) for n in ("SIGTERM", "SIGHUP") if hasattr(signal, n))


def print_json(obj) -> None:
    json.dump(obj, sys.stdout, indent=2, default=str)
    sys.stdout.write("\n")


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


class _Killed(BaseException):
    def __init__(self, signum):
        super().__init__(signum)
        self.signum = signum


@contextlib.contextmanager
def _signals_raise():
    """Turn SIGTERM / SIGHUP into an exception while the block runs (main thread only, and only
    where the signal has its default action), so the ``finally`` that removes a temporary file runs;
    the signal is then re-sent with its default action. (SIGINT already raises KeyboardInterrupt;
    SIGKILL cannot be caught.)"""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum, frame):
        raise _Killed(signum)

    old = {}
    for sig in _CLEANUP_SIGNALS:
        if signal.getsignal(sig) is signal.SIG_DFL:      # ignored or handled elsewhere: left alone
            old[sig] = signal.signal(sig, handler)
    try:
        yield
    except _Killed as exc:
        for sig, h in old.items():
            signal.signal(sig, h)
        old = {}
        os.kill(os.getpid(), exc.signum)
        raise SystemExit(128 + exc.signum) from None    # a handler that did not end the process
    finally:
        for sig, h in old.items():
            signal.signal(sig, h)


def cache_dir(kind: str):
    """The folder of one kind of on-disk cache (``levels``, ``verdicts``) under ``$IMPLGRAPH_CACHE_DIR``
    (default ``~/.cache/implgraph``), or None when ``IMPLGRAPH_NO_CACHE`` is set."""
    import os
    if os.environ.get("IMPLGRAPH_NO_CACHE"):
        return None
    base = os.environ.get("IMPLGRAPH_CACHE_DIR") or os.path.join(os.path.expanduser("~"), ".cache", "implgraph")
    return Path(base) / kind


def atomic_write(path, data: bytes | str) -> None:
    """Write ``data`` to ``path`` all at once: a failure or a kill leaves no half-written file and
    no temporary file behind (except SIGKILL). The file gets the mode ``0666 & ~umask``.

    Raises
    ------
    OSError
        As raised by the file system (nothing is left at ``path`` or beside it).
    """
    path = Path(path)
    if isinstance(data, str):
        data = data.encode("utf-8")
    directory = path.parent if str(path.parent) else Path(".")
    with _signals_raise():
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
        try:
            with os.fdopen(fd, "wb") as fh:
                os.fchmod(fh.fileno(), 0o666 & ~_umask())
                fh.write(data)
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise


def check_output_path(path, option="--out") -> Path:
    """An output path that can be written: not a directory, its folder exists (InputError)."""
    p = Path(path)
    if p.is_dir():
        raise InputError(f"{option} {path} is a directory", fix="give a file name")
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise InputError(f"{option} {path}: folder {parent} does not exist", fix="create it or choose another path")
    return p


def write_output(path, data: bytes | str, option="--out") -> None:
    """:func:`atomic_write` for a command's output file: every failure is a one-line InputError
    (exit 2) and nothing is written."""
    check_output_path(path, option)
    try:
        atomic_write(path, data)
    except OSError as exc:
        reason = exc.strerror or errno.errorcode.get(exc.errno or 0, str(exc))
        fix = "free some disk space" if exc.errno in (errno.ENOSPC, errno.EDQUOT) else "check the path and its permissions"
        raise InputError(f"cannot write {option} {path} ({reason})", fix=fix) from None
