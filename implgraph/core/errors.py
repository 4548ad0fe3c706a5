"""Errors reported to the user as one line naming the file, the line and the fix."""

from __future__ import annotations

import re

__all__ = ["InputError", "printable"]

#: characters a terminal may act on: C0 and C1 controls, DEL, and the invisible format characters
#: (bidirectional overrides, zero-width marks) that make text show other than it reads
_UNPRINTABLE = re.compile(r"[\x00-\x1f\x7f-\x9f\u00ad\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff"
                          r"\ufff9-\ufffb]")


def _escape(match) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text) -> str:
    r"""``text`` with every control or invisible format character escaped (``\x1b``, ``\u202e``): user
    text (a column name, a cell, a file name) echoed to a terminal can neither move the cursor, change
    colours nor reorder what is shown.

    >>> print(printable("age\x1b[31m"))
    age\x1b[31m
    >>> print(printable("été, 13*"))
    été, 13*
    """
    text = str(text)
    return _UNPRINTABLE.sub(_escape, text) if _UNPRINTABLE.search(text) else text


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
        return printable(" ".join(text.split()))

    def at(self, file: str | None = None, line: int | None = None) -> "InputError":
        """Return the same error located at ``file``/``line`` (kept if already set)."""
        return InputError(self.reason, file=self.file or file, line=self.line or line, fix=self.fix)
