"""Shared output helpers: JSON printing, atomic file writes, progress on stderr."""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

__all__ = ["print_json", "atomic_write", "Progress"]


def print_json(obj) -> None:
    json.dump(obj, sys.stdout, indent=2, default=str)
    sys.stdout.write("\n")


def atomic_write(path, data: bytes | str) -> None:
    """Write ``data`` to ``path`` all at once: a failure leaves no half-written file."""
    path = Path(path)
    if isinstance(data, str):
        data = data.encode("utf-8")
    directory = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=directory)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


class Progress:
    """A minimal progress line on stderr (only when stderr is a terminal, or forced)."""

    def __init__(self, total: int, label: str = "", enabled: bool | None = None):
        self.total = total
        self.label = label
        self.done = 0
        self.enabled = sys.stderr.isatty() if enabled is None else enabled

    def step(self, what: str = "") -> None:
        self.done += 1
        if self.enabled:
            width = 24
            filled = int(width * self.done / max(self.total, 1))
            bar = "#" * filled + "-" * (width - filled)
            sys.stderr.write(f"\r{self.label} [{bar}] {self.done}/{self.total} {what[:40]:<40}")
            sys.stderr.flush()

    def close(self) -> None:
        if self.enabled:
            sys.stderr.write("\n")
            sys.stderr.flush()
