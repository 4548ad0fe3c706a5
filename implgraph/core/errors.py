"""Errors reported to the user as one line naming the file, the line and the fix."""

from __future__ import annotations

__all__ = ["InputError"]


class InputError(Exception):
    """Bad input: a data file, a CSV, a command-line value or a plugin.

    The message is one line: ``FILE:LINE: what is wrong; fix: what to do``.
    The command line prints it and exits with status 2.
    """

    def __init__(self, message: str, *, file: str | None = None, line: int | None = None,
                 fix: str | None = None):
        self.file = file
        self.line = line
        self.fix = fix
        self.reason = message
        super().__init__(self.format())

    def format(self) -> str:
        where = ""
        if self.file:
            where = f"{self.file}:{self.line}: " if self.line else f"{self.file}: "
        text = f"{where}{self.reason}"
        if self.fix:
            text += f"; fix: {self.fix}"
        return " ".join(text.split())

    def at(self, file: str | None = None, line: int | None = None) -> "InputError":
        """Return the same error located at ``file``/``line`` (kept if already set)."""
        return InputError(self.reason, file=self.file or file, line=self.line or line, fix=self.fix)
