"""Terminal output with :mod:`rich`: results on stdout, progress and messages on stderr.

Results are printed as they are computed and flushed at once, also when stdout is a pipe. On a
terminal they are coloured by verdict and wrapped to the terminal's width (never cut); piped, they
are plain text, one logical line per line, never wrapped or cut. A progress bar with the elapsed time
and an estimate of the time left is drawn on stderr, only when stderr is a terminal (or forced) and
not with ``-q``. The global flags ``-q`` / ``-v`` set :func:`verbosity`.

rich is imported on first use: a command that prints JSON, or nothing, does not pay for it.
"""

from __future__ import annotations

import io
import os
import sys
import threading

from implgraph.core.verdict import styled_word

__all__ = ["QUIET", "NORMAL", "VERBOSE", "set_verbosity", "verbosity", "quiet", "results_console", "on_terminal",
           "verdict_text", "emit", "emit_row", "Progress", "with_decimal"]

QUIET, NORMAL, VERBOSE = -1, 0, 1
"""Levels of :func:`verbosity`: ``-q`` (summaries only), default, ``-v`` (every detail)."""

_STATE = {"verbosity": NORMAL}



def set_verbosity(level: int) -> None:
    """Set the verbosity: :data:`QUIET`, :data:`NORMAL` or :data:`VERBOSE` (from ``-q`` / ``-v``)."""
    _STATE["verbosity"] = max(QUIET, min(VERBOSE, int(level)))


def verbosity() -> int:
    """The verbosity set by :func:`set_verbosity` (default :data:`NORMAL`)."""
    return _STATE["verbosity"]


def quiet() -> bool:
    """Only summaries (``-q``)? Each command then prints its summary lines alone: no per-item rows or details."""
    return _STATE["verbosity"] <= QUIET


def with_decimal(text, digits: int = 3) -> str:
    """An exact value as a person reads it: ``text`` and, where it is a number that is not an integer, its decimal
    beside it (``log(3/2) ≈ 0.405``); anything else (a formula in symbols, oo, an integer, text that is no
    formula) as it is. For text output only (JSON keeps the exact value alone).

    >>> with_decimal("log(3/2)"), with_decimal("1/8"), with_decimal("2"), with_decimal("eps + 1"), with_decimal("oo")
    ('log(3/2) ≈ 0.405', '1/8 ≈ 0.125', '2', 'eps + 1', 'oo')
    >>> with_decimal("log(10/3)"), with_decimal("3/2")
    ('log(10/3) ≈ 1.20', '3/2 ≈ 1.50')
    """
    import sympy

    from implgraph.core.errors import InputError
    from implgraph.core.formula import parse_expr
    text = str(text)
    if len(text) > 200 or "≈" in text:
        return text
    try:
        value = parse_expr(text, {})
    except (InputError, TypeError, ValueError):
        return text
    if not isinstance(value, sympy.Expr) or value.free_symbols or value.is_Integer or not value.is_finite:
        return text
    try:
        decimal = sympy.N(value, digits)
    except (TypeError, ValueError, OverflowError):    # pragma: no cover - sympy's evaluation of a number
        return text
    if not decimal.is_Float:
        return text
    shown = f"{float(decimal):#.{digits}g}" if abs(decimal) < 1e15 else str(decimal)
    return text if shown == text else f"{text} ≈ {shown}"


class _Stdout(io.TextIOBase):
    """``sys.stdout`` as it is at each write (a test's capture, rich's proxy while a bar is drawn)."""

    def write(self, s):
        return sys.stdout.write(s)

    def flush(self):
        sys.stdout.flush()

    def isatty(self):
        return bool(getattr(sys.stdout, "isatty", lambda: False)())

    def fileno(self):
        return sys.stdout.fileno()


_CONSOLE_CLASS: list = []


def _console_class():
    """A rich console class whose closed pipe (``implgraph verify | head -1``) is a BrokenPipeError, which
    the console script ends with exit status 0 (rich itself exits with status 1, the regression status)."""
    if not _CONSOLE_CLASS:
        from rich.console import Console

        class _Console(Console):
            def on_broken_pipe(self) -> None:
                devnull = os.open(os.devnull, os.O_WRONLY)
                try:
                    os.dup2(devnull, sys.stdout.fileno())     # nothing more reaches the closed pipe, not even at exit
                finally:
                    os.close(devnull)
                raise BrokenPipeError

        _CONSOLE_CLASS.append(_Console)
    return _CONSOLE_CLASS[0]


def on_terminal() -> bool:
    """Is stdout a terminal (results coloured and wrapped)?"""
    return _Stdout().isatty()


def results_console():
    """A rich console on stdout: colour and wrapping on a terminal; plain, unwrapped lines when piped."""
    tty = on_terminal()
    return _console_class()(file=_Stdout(), highlight=False, markup=False, emoji=False, soft_wrap=not tty,
                    force_terminal=None if tty else False)


def verdict_text(word: str, width: int = 0):
    """A verdict word padded to ``width``, styled by its status (shown only on a terminal): a rich Text
    (:func:`implgraph.core.verdict.styled_word`)."""
    return styled_word(word, width)


def emit(text="", console=None) -> None:
    """Print one line (str or rich Text) of results now (flushed) on ``console`` (default: stdout's)."""
    from rich.text import Text
    console = console or results_console()
    console.print(text if isinstance(text, Text) else Text(str(text)))
    sys.stdout.flush()


def emit_row(cells, body, details=(), indent: int = 0, console=None) -> None:
    """Print one result now: fixed ``cells`` (str or Text, each padded by the caller), then ``body``
    (a long text), then ``details`` (lines under the body, indented by ``indent``).

    On a terminal ``body`` and ``details`` wrap to the width (hanging indent) instead of being cut;
    piped, each is one full line.
    """
    from rich.table import Table
    from rich.text import Text
    console = console or results_console()
    cells = [c if isinstance(c, Text) else Text(str(c)) for c in cells]
    if not on_terminal():
        head = Text("  ").join(cells + [Text(str(body))]) if body else Text("  ").join(cells)
        console.print(head)
        for d in details:
            console.print(Text(" " * indent) + (d if isinstance(d, Text) else Text(str(d))))
        sys.stdout.flush()
        return
    grid = Table.grid(padding=(0, 2, 0, 0))
    for _ in cells:
        grid.add_column(no_wrap=True)
    grid.add_column(overflow="fold")
    grid.add_row(*cells, Text(str(body or "")))
    console.print(grid)
    if details:
        sub = Table.grid()
        sub.add_column(width=indent, no_wrap=True)
        sub.add_column(overflow="fold")
        for d in details:
            sub.add_row("", d if isinstance(d, Text) else Text(str(d)))
        console.print(sub)
    sys.stdout.flush()


class Progress:
    """A progress bar on stderr with elapsed time and time left (rich), drawn only on a terminal.

    Parameters
    ----------
    total : int or None
        Number of steps; None draws a spinner with the elapsed time (no estimate possible).
    label : str
        What is being done.
    enabled : bool, optional
        Force the bar on (True) or off (False); default: when stderr is a terminal and not ``-q``.
    delay : float, optional
        Seconds before the bar appears (a task done sooner draws nothing); default 0.

    Results printed to stdout meanwhile appear above the bar when stdout is the terminal too.

    Examples
    --------
    >>> with Progress(2, "two steps", enabled=False) as bar:
    ...     bar.step("first")
    ...     bar.step("second")
    >>> bar.done
    2
    """

    def __init__(self, total: int | None, label: str = "", enabled: bool | None = None, delay: float = 0.0):
        self.total = total
        self.label = label
        self.done = 0
        if enabled is None:
            enabled = sys.stderr.isatty() and verbosity() > QUIET
        self.enabled = bool(enabled)
        self._bar = None
        self._lock = threading.Lock()
        self._timer = None
        if self.enabled:
            from rich.console import Console
            from rich.progress import (BarColumn, MofNCompleteColumn, Progress as _RichProgress, SpinnerColumn,
                                       TextColumn, TimeElapsedColumn, TimeRemainingColumn)
            columns = [SpinnerColumn(), TextColumn("{task.description}")]
            if total is not None:
                columns += [BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), TextColumn("eta"),
                            TimeRemainingColumn()]
            else:
                columns += [TimeElapsedColumn()]
            columns += [TextColumn("{task.fields[what]}", style="dim")]
            console = Console(stderr=True, force_terminal=True if enabled else None, highlight=False)
            self._bar = _RichProgress(*columns, console=console, transient=True,
                                      redirect_stdout=on_terminal(), redirect_stderr=False)
            self._task = self._bar.add_task(label, total=total, what="")
            if delay > 0:
                self._timer = threading.Timer(delay, self._start)
                self._timer.daemon = True
                self._timer.start()
            else:
                self._start()

    def _start(self) -> None:
        with self._lock:
            if self._bar is not None:
                self._bar.start()

    def step(self, what: str = "") -> None:
        """One step done (``what``: the item, shown dimmed)."""
        self.done += 1
        if self._bar is not None:
            self._bar.update(self._task, advance=1, what=str(what)[:60])

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self) -> None:
        """Remove the bar (idempotent)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer.join()
        with self._lock:
            if self._bar is not None:
                self._bar.stop()
                self._bar = None


def level_with_decimal(lv) -> str:
    """The level as text, with its decimal value beside an exact value that is not an integer
    (``log(9/5) ≈ 0.588``; 3 significant digits, for reading only: the exact value is the level)."""
    from fractions import Fraction

    from implgraph.io.count_levels import LogOf

    text = str(lv)
    value = lv.value if lv.defined and lv.enclosure is None and len(lv.level_pieces()) == 1 else None
    if isinstance(value, (int, Fraction)):          # a level computed without sympy (io.level_cards)
        return text if value.denominator == 1 else f"{text} \u2248 {float(value):.3g}"
    if isinstance(value, LogOf):
        return text if value.raw == 1 else f"{text} \u2248 {float(value):.3g}"
    import sympy
    if value is None or not isinstance(value, sympy.Basic) or value.is_Integer or value is sympy.oo \
            or not value.is_number:
        return text
    try:
        f = float(sympy.N(value, 15))
    except (TypeError, ValueError):
        return text
    return f"{text} \u2248 {f:.3g}"
