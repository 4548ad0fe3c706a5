"""The option that restricts a command to some definitions: ``--definitions NAME ...``.

One name for one concept: ``--definitions`` chooses definitions (``discover``, ``matrix``), while the
data flag ``--only`` (:mod:`implgraph.commands._data`) means "use only the files given". The shell
completes the names from the registry (plugins included).
"""

from __future__ import annotations

__all__ = ["add_definitions_argument", "registered_names"]


def registered_names(**_) -> list:
    """The names of the registered definitions (the completer of ``--definitions``)."""
    from implgraph.definitions import names
    return sorted(names())


def add_definitions_argument(p, help: str) -> None:
    """Add ``--definitions NAME [NAME ...]`` (repeatable, the names collected in ``args.definitions``)."""
    action = p.add_argument("--definitions", nargs="+", action="extend", default=None, metavar="NAME",
                            help=help + " (several names, or the option repeated)")
    action.completer = registered_names
