"""Shared output helpers: JSON printing, atomic file and folder writes (terminal output: :mod:`implgraph.io.console`).

Every command that writes a file writes it through this module: :func:`write_output` (one file),
:func:`write_outputs` (several files, all or none) and :func:`output_folder` (a folder built beside its
place and renamed into it when complete). A failure is one :class:`~implgraph.core.errors.InputError` line
(exit status 2) and leaves nothing behind: no partial file, no temporary file, an existing output
untouched. An output that is one of the command's inputs is refused. :func:`run_guarded` turns a write
error on standard output (``implgraph levels --json > file`` on a full disk) into one line, exit status 2.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import shutil
import signal
import stat
import sys
import tempfile
import threading
from pathlib import Path

from implgraph.core.errors import InputError
from implgraph.io.stdout_guard import StdoutError, run_guarded  # noqa: F401  (imported from here as before)

__all__ = ["print_json", "atomic_write", "atomic_path", "atomic_files", "write_output", "write_outputs", "check_output_path",
           "check_not_input", "output_folder", "output_error", "run_guarded", "StdoutError"]

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


def _new_mode(path) -> int:
    """The permissions of the file written at ``path``: those of the regular file it replaces, else
    ``0666 & ~umask`` (as ``open`` would give a new file)."""
    try:
        st = os.stat(path)
        if stat.S_ISREG(st.st_mode):
            return stat.S_IMODE(st.st_mode)
    except OSError:
        pass
    return 0o666 & ~_umask()


@contextlib.contextmanager
def atomic_path(path, suffix=".tmp"):
    """A temporary file beside ``path`` (ending in ``suffix``) for a writer that takes a path or a file object:
    renamed over ``path`` when the block ends without an error, with the permissions of the regular file it replaces,
    else ``0666 & ~umask``; removed otherwise. A failure or a kill leaves nothing behind (except SIGKILL)."""
    path = Path(path)
    directory = path.parent if str(path.parent) else Path(".")
    mode = _new_mode(path)
    with _signals_raise():
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=suffix, dir=directory)
        os.close(fd)
        try:
            yield tmp
            os.chmod(tmp, mode)
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise


def atomic_write(path, data: bytes | str) -> None:
    """Write ``data`` to ``path`` all at once: a failure or a kill leaves no half-written file and
    no temporary file behind (except SIGKILL). A new file gets the mode ``0666 & ~umask``; a file replaced
    keeps its permissions.

    Raises
    ------
    OSError
        As raised by the file system (nothing is left at ``path`` or beside it).
    """
    if isinstance(data, str):
        data = data.encode("utf-8")
    with atomic_path(path) as tmp, os.fdopen(os.open(tmp, os.O_WRONLY), "wb") as fh:
        fh.write(data)


def check_output_path(path, option="--out", inputs=()) -> Path:
    """An output path that can be written: not a directory, its folder exists, not one of ``inputs``
    (InputError)."""
    p = Path(path)
    if p.is_dir():
        raise InputError(f"{option} {path} is a directory", fix="give a file name")
    if p.exists() and not p.is_file() and not _device(p):
        raise InputError(f"{option} {path} is not a regular file (a socket or another special file)",
                         fix="give a file name")
    if _device(p):
        return p                  # a device or a pipe (/dev/null, a FIFO): written in place, nothing to replace
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise InputError(f"{option} {path}: folder {parent} does not exist", fix="create it or choose another path")
    check_not_input(path, inputs, option)
    return p


def _same_file(a, b) -> bool:
    """Are ``a`` and ``b`` one file (any spelling, a symbolic or hard link)?"""
    try:
        if os.path.exists(a) and os.path.exists(b) and os.path.samefile(a, b):
            return True
    except OSError:
        pass
    return os.path.realpath(a) == os.path.realpath(b)


def _inside(path, folder) -> bool:
    """Is ``path`` (resolved) ``folder`` or inside it?"""
    p, f = os.path.realpath(path), os.path.realpath(folder)
    return p == f or p.startswith(f.rstrip(os.sep) + os.sep)


def check_not_input(path, inputs, option="--out") -> None:
    """InputError if the output ``path`` is one of the files ``inputs`` (or, for an output folder, holds one):
    an input is never overwritten."""
    for given in inputs or ():
        if given is None or str(given) == "":
            continue
        if _same_file(path, given) or (os.path.isdir(path) and _inside(given, path)):
            raise InputError(f"{option} {path} is an input of the command ({given})",
                             fix=f"give {option} a path that is not an input")


def output_error(exc: OSError, path, option="--out") -> InputError:
    """The one-line InputError of an OSError met while writing ``path``."""
    reason = exc.strerror or errno.errorcode.get(exc.errno or 0, str(exc))
    if exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        fix = "free some disk space or write elsewhere"
    elif exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        fix = "give a path in a folder you can write to"
    elif exc.errno == errno.ENXIO:
        fix = "start the reader of the pipe first, or write to a file"
    else:
        fix = "check the path and its permissions"
    return InputError(f"cannot write {option} {path} ({reason})", fix=fix)


def _device(path) -> bool:
    """Is ``path`` (its symbolic links followed) a character device or a FIFO? Such an output is written in
    place: replacing it would replace the device node (``/dev/null``) or the pipe itself."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return False
    return stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)


def _write_device(path, data: bytes | str) -> None:
    """Write ``data`` into a device or FIFO (opened without waiting: a FIFO without a reader is an error, not a
    hang; then written in blocking mode)."""
    import fcntl
    data = data.encode("utf-8") if isinstance(data, str) else data
    fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    try:
        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~os.O_NONBLOCK)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)


def write_output(path, data: bytes | str, option="--out", inputs=()) -> None:
    """:func:`atomic_write` for a command's output file: every failure is a one-line InputError
    (exit 2) and nothing is written; an output that is one of ``inputs`` is refused. A symbolic link is
    followed (the file it names is replaced, the link kept); a device or FIFO (``/dev/null``) is written in
    place, never replaced."""
    check_output_path(path, option, inputs)
    try:
        if _device(path):
            _write_device(path, data)
        else:
            atomic_write(os.path.realpath(path), data)
    except OSError as exc:
        raise output_error(exc, path, option) from None


def atomic_files(files) -> None:
    """Write several files all or none: every file goes to a temporary file beside it first; only when all are
    written are they renamed into place (a failure removes every temporary file and writes nothing).

    ``files``: ``{path: data}``. Raises OSError as the file system does.
    """
    temps = []
    with _signals_raise():
        try:
            for path, data in files.items():
                path = Path(os.path.realpath(path))          # a symbolic link: the file it names
                data = data.encode("utf-8") if isinstance(data, str) else data
                mode = _new_mode(path)
                fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
                temps.append((tmp, path))
                with os.fdopen(fd, "wb") as fh:
                    os.fchmod(fh.fileno(), mode)
                    fh.write(data)
            while temps:
                tmp, path = temps[0]
                os.replace(tmp, path)
                temps.pop(0)
        except BaseException:
            for tmp, _ in temps:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
            raise


def write_outputs(files, option="--out", inputs=()) -> None:
    """:func:`atomic_files` for a command's output files (``{path: data}``, folders existing): one-line
    InputError on any failure, nothing written; an output that is one of ``inputs`` is refused."""
    for path in files:
        check_output_path(path, option, inputs)
        if _device(path):
            raise InputError(f"{option} {path} is a device or a pipe", fix="give a folder of regular files")
    try:
        atomic_files(files)
    except OSError as exc:
        raise output_error(exc, next(iter(files)), option) from None


#: suffixes of the files a folder written by :func:`output_folder` may hold when it is replaced (a site's)
PAGE_SUFFIXES = (".html", ".js", ".css")


def _folders(root: Path) -> set:
    """The folders of the tree at ``root``, relative to it (``"."`` for itself)."""
    return {str(Path(r).relative_to(root)) for r, _, _ in os.walk(root, followlinks=False)}


def _replaceable(existing: Path, folders, suffixes) -> Path | None:
    """None when the existing folder holds only what a build writes (the ``folders``, relative paths with
    ``"."`` for the top, and in them files with the ``suffixes``), else the first entry that is something else
    (a file of the user's, a symbolic link, another folder)."""
    for root, dirs, files in os.walk(existing, followlinks=False):
        rel = Path(root).relative_to(existing)
        for name in dirs:
            p = Path(root) / name
            if p.is_symlink() or str(rel / name) not in folders:
                return p
        for name in files:
            p = Path(root) / name
            if p.is_symlink() or p.suffix.lower() not in suffixes:
                return p
    return None


def check_output_folder(path, option="--out", inputs=(), folders=None, suffixes=PAGE_SUFFIXES) -> Path:
    """The folder an output folder is renamed to (``path``, a symbolic link resolved), after the checks of
    :func:`output_folder` that need nothing built (InputError): not a file, its parent folder exists, it holds
    none of ``inputs``, and (given the ``folders`` a build writes) an existing folder holds nothing else."""
    shown = str(path)
    target = Path(os.path.realpath(path))      # a symbolic link to a folder: the folder it names
    if target.exists() and not target.is_dir():
        raise InputError(f"{option} {shown} is not a directory", fix=f"give {option} a new or existing folder")
    if not target.parent.is_dir():
        raise InputError(f"{option} {shown}: folder {target.parent} does not exist",
                         fix="create it or choose another path")
    for given in inputs or ():
        if given is not None and str(given) and _inside(given, target):
            raise InputError(f"{option} {shown} is or holds an input of the command ({given})",
                             fix=f"give {option} a folder that holds no input")
    if folders is not None and target.is_dir():
        _refuse_foreign(target, folders, suffixes, shown, option)
    return target


def _refuse_foreign(target: Path, folders, suffixes, shown, option) -> None:
    extra = _replaceable(target, folders, suffixes)
    if extra is not None:
        raise InputError(f"{option} {shown} holds files the command does not write ({extra})",
                         fix=f"give {option} a new or empty folder, or remove {shown} first")


@contextlib.contextmanager
def output_folder(path, option="--out", inputs=(), folders=None, suffixes=PAGE_SUFFIXES):
    """Build an output folder in a temporary folder beside ``path`` and rename it into place when the
    block ends without an error.

    Yields the temporary folder (write everything into it). An existing ``path`` is replaced only when
    the new folder is complete, and only if it holds nothing but what such a build writes (a previous
    build: its folders and pages); a folder with anything else, a file at ``path``, a missing parent
    folder, or a folder holding one of ``inputs`` is refused before anything is built. A failure (an
    exception, a full or read-only disk, SIGTERM) removes the temporary folder and leaves ``path`` as
    it was; an OSError becomes a one-line InputError. ``folders``: the folders a build writes (relative
    paths, ``"."`` the top), to refuse a folder with other content before building (it is checked again
    against what was built); ``suffixes``: those of the files a build writes.
    """
    shown = str(path)
    target = check_output_folder(path, option, inputs, folders, suffixes)
    parent = target.parent
    tmp = None
    with _signals_raise():
        try:
            try:
                tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".tmp", dir=parent))
                os.chmod(tmp, 0o777 & ~_umask())
            except OSError as exc:
                raise output_error(exc, shown, option) from None
            try:
                yield tmp
            except OSError as exc:
                raise output_error(exc, shown, option) from None
            _move_into_place(tmp, target, suffixes, shown, option)
            tmp = None
        finally:
            if tmp is not None:
                shutil.rmtree(tmp, ignore_errors=True)


def _move_into_place(tmp: Path, target: Path, suffixes, shown, option) -> None:
    """Rename the built folder ``tmp`` to ``target``. An existing ``target`` (checked replaceable) is moved
    aside first and removed once the new folder is in place; if that rename fails it is moved back (and, if
    even that fails, kept beside ``target`` and named in the error)."""
    old = None
    if target.exists():
        _refuse_foreign(target, _folders(tmp), suffixes, shown, option)
        try:
            old = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".old", dir=target.parent))
            os.rename(target, old / "previous")
        except OSError as exc:
            if old is not None:
                shutil.rmtree(old, ignore_errors=True)
            raise output_error(exc, shown, option) from None
    try:
        os.rename(tmp, target)
    except OSError as exc:
        error = output_error(exc, shown, option)
        if old is not None:
            try:
                os.rename(old / "previous", target)
                shutil.rmtree(old, ignore_errors=True)
            except OSError:
                error = InputError(f"{error.reason}; the previous folder is kept as {old / 'previous'}", fix=error.fix)
        raise error from None
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
