"""The option that restricts a command to some definitions: ``--definitions NAME ...``.

One name for one concept: ``--definitions`` chooses definitions (``discover``, ``matrix``), while the
data flag ``--only`` (:mod:`implgraph.commands._data`) means "use only the files given". The shell
completes the names from the registry (plugins included).
"""

from __future__ import annotations

import argparse

__all__ = ["add_definitions_argument", "registered_names"]


def registered_names(**_) -> list:
    """The names of the registered definitions (the completer of ``--definitions``)."""
    from implgraph.definitions import names
    return sorted(names())


class _Names(argparse._ExtendAction):
    """``action="extend"`` that refuses a name given twice (a pair would be checked and printed twice)."""

    def __call__(self, parser, namespace, values, option_string=None):
        seen = list(getattr(namespace, self.dest, None) or [])
        for v in values:
            if v in seen:
                raise argparse.ArgumentError(self, f"{v[:60]!r} is given twice")
            seen.append(v)
        super().__call__(parser, namespace, values, option_string)


def add_definitions_argument(p, help: str) -> None:
    """Add ``--definitions NAME [NAME ...]`` (repeatable, the names collected in ``args.definitions``; a name
    given twice is refused)."""
    action = p.add_argument("--definitions", nargs="+", action=_Names, default=None, metavar="NAME",
                            help=help + " (several names, or the option repeated)")
    action.completer = registered_names
