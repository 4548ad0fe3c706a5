"""The ``implgraph`` console script.

Sub-commands live in :mod:`implgraph.commands`, one module per command, each with
``NAME``, ``HELP``, ``add_arguments(parser)`` and ``run(args) -> int``. Bad input of any kind is an
:class:`~implgraph.errors.InputError`: printed as one line, exit status 2, no traceback.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

from . import __version__
from .errors import InputError

__all__ = ["main", "build_parser"]


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2 (argparse's own convention)
        self.exit(2, f"implgraph: {message}; fix: see `{self.prog} --help`\n")


def _commands():
    from . import commands
    mods = []
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        mod = importlib.import_module(f"{commands.__name__}.{info.name}")
        if hasattr(mod, "run"):
            mods.append(mod)
    mods.sort(key=lambda m: getattr(m, "ORDER", 50))
    return mods


def build_parser():
    parser = _Parser(prog="implgraph", description="Machine-checked implications between privacy definitions.")
    parser.add_argument("--version", action="version", version=f"implgraph {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for mod in _commands():
        p = sub.add_parser(mod.NAME, help=mod.HELP, description=getattr(mod, "DESCRIPTION", mod.HELP))
        mod.add_arguments(p)
        p.set_defaults(_run=mod.run)
    return parser


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "_run", None):
        parser.print_help()
        return 2
    try:
        return int(args._run(args) or 0)
    except InputError as exc:
        print(f"implgraph: {exc.format()}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("implgraph: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
