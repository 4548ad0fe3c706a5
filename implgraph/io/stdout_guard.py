"""Standard output guarded (:mod:`implgraph.io.output`): a write error on it is one line, exit status 2.

:func:`run_guarded` runs a command with ``sys.stdout`` wrapped, so that a write error on standard output
(``implgraph levels --json > file`` on a full disk), during the command or at its last flush, is one line
``implgraph: cannot write to standard output (...); fix: ...`` on stderr and exit status 2, never a
traceback; a closed pipe is left to the caller.
"""

from __future__ import annotations

import errno
import os
import sys

__all__ = ["StdoutError", "run_guarded"]


class StdoutError(BaseException):
    """Standard output cannot be written (a full disk, a file opened read-only): one line, exit status 2.

    A BaseException (as KeyboardInterrupt), so that no ``except Exception`` on the way (a checker's guard)
    turns it into a verdict: :func:`run_guarded` reports it."""

    def __init__(self, message: str, fix: str):
        super().__init__(message)
        self.message, self.fix = message, fix

    def format(self) -> str:
        return f"{self.message}; fix: {self.fix}"


def _stdout_failed(exc: OSError) -> StdoutError:
    reason = exc.strerror or errno.errorcode.get(exc.errno or 0, str(exc))
    fix = ("free some disk space or redirect the output elsewhere" if exc.errno in (errno.ENOSPC, errno.EDQUOT,
                                                                                   errno.EFBIG)
           else "redirect the output to a file you can write")
    return StdoutError(f"cannot write to standard output ({reason})", fix=fix)


class _GuardedStdout:
    """``sys.stdout`` whose write errors (except a closed pipe) raise :class:`StdoutError`."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text):
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise _stdout_failed(exc) from None

    def flush(self):
        try:
            return self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise _stdout_failed(exc) from None

    def __getattr__(self, name):
        return getattr(self._stream, name)


def _silence_stdout() -> None:
    """Point file descriptor 1 at /dev/null, so that what is still buffered is dropped at exit (no second
    error from the interpreter's last flush)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.__stdout__.fileno())
        os.close(devnull)
    except (OSError, AttributeError, ValueError):
        pass


def run_guarded(main) -> int:
    """``main()`` (an exit status) with standard output guarded: a write error on it, during the command or
    at its last flush, is one line ``implgraph: cannot write to standard output (...); fix: ...`` on stderr,
    exit status 2 (and no traceback, no second error at exit)."""
    real = sys.stdout
    sys.stdout = _GuardedStdout(real)
    try:
        try:
            status = main()
            sys.stdout.flush()
        except StdoutError as exc:
            _silence_stdout()
            print(f"implgraph: {exc.format()}", file=sys.stderr)
            return 2
    finally:
        sys.stdout = real
    return status
