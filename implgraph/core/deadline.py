"""Time limits: a long computation ends in "unknown (timeout)", never in a hang.

:func:`deadline` arms a real-time timer (``signal.setitimer``) in the main thread; when it fires,
:class:`Timeout` is raised wherever Python is running. Solver calls carry their own time limits, so a
call into z3 returns in bounded time and the timeout is raised right after it. Deadlines nest: an inner
deadline never extends an outer one. Off the main thread, or where the platform has no ``SIGALRM``, a
deadline does nothing (the solver limits still apply).
"""

from __future__ import annotations

import signal
import threading
import time
from contextlib import contextmanager

__all__ = ["Timeout", "deadline", "remaining", "as_timeout"]

_STACK: list = []     # absolute end times of the active deadlines, innermost last
_REFIRE = 0.05        # seconds between repeated firings once a deadline has passed
_FIRED: list = []     # the Timeout raised by the outermost deadline's block, once it has fired


class Timeout(BaseException):
    """The time limit of a :func:`deadline` passed.

    A ``BaseException`` (like ``KeyboardInterrupt``), so that no ``except Exception`` turns it into
    an answer; until the deadline's block is left it keeps firing, so that one swallowed somewhere
    (a finaliser) is raised again a moment later.
    """

    def __init__(self, seconds):
        super().__init__(f"timeout after {seconds:g} s")
        self.seconds = seconds


def as_timeout(exc: BaseException) -> Timeout | None:
    """The :class:`Timeout` behind ``exc``: ``exc`` itself, or the one a deadline raised while a C
    library was converting arguments and which it turned into its own error (ctypes reports
    ``ArgumentError("argument 1: Timeout: ...")`` when the signal lands in a z3 call's arguments)."""
    if isinstance(exc, Timeout):
        return exc
    if _FIRED and type(_FIRED[-1]).__name__ in str(exc):
        return _FIRED[-1]
    return None


def remaining() -> float | None:
    """Seconds left before the innermost deadline, or None without one."""
    return None if not _STACK else max(0.0, min(_STACK) - time.monotonic())


def _usable() -> bool:
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


def _in_finaliser(frame, depth: int = 30) -> bool:
    """Whether ``frame`` or one of its ``depth`` callers is a ``__del__`` (e.g. z3's ``AstRef.__del__``
    calling ``as_ast``): an exception raised there is printed as "Exception ignored" and lost."""
    while frame is not None and depth > 0:
        if frame.f_code.co_name == "__del__":
            return True
        frame, depth = frame.f_back, depth - 1
    return False


@contextmanager
def deadline(seconds: float | None):
    """Raise :class:`Timeout` in the block after ``seconds`` (None or 0: no limit of its own)."""
    if not seconds or not _usable():
        yield
        return
    end = time.monotonic() + float(seconds)
    if _STACK:
        end = min(end, min(_STACK))
    else:                   # an outermost deadline: no timeout has fired for it yet
        _FIRED.clear()
    _STACK.append(end)

    def fire(signum, frame):
        signal.setitimer(signal.ITIMER_REAL, _REFIRE)          # until the block is left
        if _in_finaliser(frame):      # never inside a finaliser (it would be lost): fire again a moment later
            return
        exc = Timeout(seconds)
        _FIRED[:] = [exc]
        raise exc

    old = signal.signal(signal.SIGALRM, fire)
    try:
        signal.setitimer(signal.ITIMER_REAL, max(end - time.monotonic(), 1e-3))
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        _STACK.pop()
        signal.signal(signal.SIGALRM, old)
        if _STACK:      # re-arm the enclosing deadline
            signal.setitimer(signal.ITIMER_REAL, max(min(_STACK) - time.monotonic(), 1e-3))
