# PYTHON_ARGCOMPLETE_OK
"""The ``implgraph`` console script.

Sub-commands live in :mod:`implgraph.commands`, one module per command, each with
``NAME``, ``HELP``, ``add_arguments(parser)`` and ``run(args) -> int`` (and ``PRINTS_VERDICTS = True`` where it
prints verdict words: its ``--help`` then explains them). Bad input of any kind is an
:class:`~implgraph.core.errors.InputError`: printed as one line, exit status 2, no traceback.
``-q`` / ``-v`` (before or after the command) set :func:`implgraph.io.console.verbosity`; shell
completion comes from argcomplete (``implgraph completion bash|zsh|fish``).
"""

from __future__ import annotations

import argparse
import ctypes
import importlib
import pkgutil
import sys

from implgraph import __version__
from implgraph.core.deadline import Timeout, as_timeout, deadline
from implgraph.core.errors import InputError
from implgraph.core.verdict import VERDICTS, status_of, strength_of
from implgraph.io.console import NORMAL, QUIET, VERBOSE, set_verbosity

__all__ = ["main", "build_parser"]


def _quiet_unraisable(unraisable) -> None:
    """After a timeout ended the command: drop the exception of a z3 object's finaliser (the timeout left
    it half-built); any other goes to Python's default hook."""
    if not str(getattr(unraisable.object, "__module__", "") or "").startswith("z3"):
        sys.__unraisablehook__(unraisable)


RESOURCE_BOUNDS = {"jobs": (1, 64), "workers": (1, 64), "timeout": (0, 86400)}
"""Inclusive bounds of the options that start processes or bound time, whichever command has them."""

DEFAULT_TIMEOUT = 600
"""Seconds a command may run by default (``--timeout``; a command module may set ``DEFAULT_TIMEOUT``)."""

EXIT_TIMEOUT = 3
"""Exit status of a command that ended at its ``--timeout`` ("unknown (timeout)")."""

EXIT_CODES = ((0, "done (every verdict as the data expects)"), (1, "a regression: a verdict differs from the "
              "data's expect:"), (2, "bad input (one line: FILE:LINE: what is wrong; fix: how)"),
              (EXIT_TIMEOUT, "the command's --timeout passed (unknown (timeout))"))
"""Exit statuses of every command, as ``--help`` lists them."""

VERDICT_MEANINGS = {
    "proved": "an argument valid for every value the claim quantifies over",
    "verified-bounded": "checked exactly for every value up to a stated bound (e.g. N <= --max-n)",
    "confirmed": "checked exactly on the finite objects the claim is about (a table, a mechanism)",
    "holds": "the stated level holds on the table's region and is the optimal one",
    "holds-not-tight": "the stated level holds on the region but is not the optimal one",
    "refuted": "an exact witness, re-checked in exact arithmetic, contradicts the claim",
    "unknown": "nothing decided it (solver unknown or timeout, or no check applies); never read as proved",
}
"""One line per verdict word (:data:`implgraph.core.verdict.VERDICTS`) for ``--help``."""


def glossary(verdicts: bool = True) -> str:
    """The epilog of ``implgraph --help``: the verdict words with their status and strength (with ``verdicts``:
    the top level and the commands that print verdicts, ``PRINTS_VERDICTS = True`` in their module), the exit
    codes, the verbosity options."""
    lines = []
    if verdicts:
        lines.append("verdicts (status, strength):")
        for word in VERDICTS:
            strength = strength_of(word)
            lines.append(f"  {word:<17} {status_of(word)}{', ' + strength if strength else ''}: "
                         f"{VERDICT_MEANINGS.get(word, '')}")
        lines.append("  (a refutation by a proof of the opposite, not a witness, has strength proved)")
    lines.append("exit status:")
    lines += [f"  {code}  {text}" for code, text in EXIT_CODES]
    lines.append("options -q (only summaries) and -v (every detail) go before or after the command.")
    return "\n".join(lines)


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line with a fix, exit status 2."""

    def error(self, message):
        text = " ".join(str(message).split())
        self.exit(2, f"implgraph: {text}; fix: {self._suggestion(text)}see `{self.prog} --help`\n")

    def _suggestion(self, text) -> str:
        """``did you mean ...? `` for a misspelt command (an invalid choice) or option (unrecognized), else ``""``."""
        import re
        from difflib import get_close_matches
        choice = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)", text)
        if choice:
            words, options = [choice.group(1)], re.findall(r"'([^']*)'", choice.group(2))
        else:
            unknown = re.search(r"unrecognized arguments: (.*)", text)
            words = [w.split("=")[0] for w in unknown.group(1).split() if w.startswith("-")] if unknown else []
            options = list(self._option_string_actions)
        for word in words:
            close = get_close_matches(word, options, n=1, cutoff=0.6)
            if close:
                return f"did you mean {close[0]!r}? "
        return ""


def _commands(only=None):
    """The command modules (every one, or only the one whose name is ``only`` when there is one)."""
    from implgraph import commands
    names = [i.name for i in pkgutil.iter_modules(commands.__path__) if not i.name.startswith("_")]
    if only == "--version":
        names = []              # `implgraph --version` needs no command
    elif only is not None and only.replace("-", "_") in names:
        names = [only.replace("-", "_")]
    mods = []
    for name in sorted(names):
        mod = importlib.import_module(f"{commands.__name__}.{name}")
        if hasattr(mod, "run"):
            mods.append(mod)
    mods.sort(key=lambda m: getattr(m, "ORDER", 50))
    return mods


class _Listed:
    """A command as the top-level ``--help`` lists it: its ``NAME``, ``HELP`` and ``ORDER`` read from the module's
    source (literal assignments), without importing it (a command imports sympy, the solvers and the registry)."""

    def __init__(self, name, help_, order):
        self.NAME, self.HELP, self.ORDER = name, help_, order

    @staticmethod
    def add_arguments(p):
        pass

    @staticmethod
    def run(args):      # pragma: no cover - the top-level help exits before any command runs
        return 2


def _listed_commands():
    """Every command as :class:`_Listed` (sorted as :func:`_commands` sorts them), or None where a module's ``NAME`` or
    ``HELP`` is not a literal (then the modules are imported)."""
    import ast
    from pathlib import Path
    from implgraph import commands
    out = []
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda i: i.name):
        if info.name.startswith("_"):
            continue
        tree = ast.parse(Path(commands.__path__[0], f"{info.name}.py").read_text(encoding="utf-8"))
        found = {}
        for node in tree.body:
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                    and node.targets[0].id in ("NAME", "HELP", "ORDER"):
                try:
                    found[node.targets[0].id] = ast.literal_eval(node.value)
                except ValueError:
                    return None
        has_run = any(isinstance(n, ast.FunctionDef) and n.name == "run" for n in tree.body)
        if has_run and not {"NAME", "HELP"} <= set(found):
            return None
        if has_run:
            out.append(_Listed(found["NAME"], found["HELP"], found.get("ORDER", 50)))
    out.sort(key=lambda m: m.ORDER)
    return out


def _verbosity_flags(p, default):
    """``-q`` / ``--quiet`` and ``-v`` / ``--verbose`` (those option strings the command does not use itself)."""
    group = p.add_mutually_exclusive_group()
    for flags, const, text in ((("-q", "--quiet"), QUIET, "print only summaries (no per-item rows, no progress bar)"),
                               (("-v", "--verbose"), VERBOSE, "print every detail (exact levels piece by piece, "
                                                              "sources)")):
        free = [f for f in flags if f not in p._option_string_actions]
        if free:
            group.add_argument(*free, dest="verbosity", action="store_const", const=const, default=default,
                               help=text)


def _command_named(argv):
    """The command ``argv`` names (its first word that is not an option), ``--version`` when it asks only
    for the version, or None."""
    named = next((a for a in argv if not a.startswith("-")), None)
    return "--version" if named is None and "--version" in argv else named


def build_parser(argv=None):
    """The parser of every command; given ``argv``, only the command it names is imported (a faster
    start), unless a shell asks for completions."""
    import os
    only = None if argv is None or "_ARGCOMPLETE" in os.environ else _command_named(argv)
    parser = _Parser(prog="implgraph", description="Machine-checked implications between privacy definitions.",
                     epilog=glossary(), formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"implgraph {__version__}")
    _verbosity_flags(parser, NORMAL)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    top_help = argv is not None and only is None and any(a in ("-h", "--help") for a in argv)
    for mod in (top_help and _listed_commands()) or _commands(only):
        p = sub.add_parser(mod.NAME, help=mod.HELP, description=getattr(mod, "DESCRIPTION", mod.HELP),
                           epilog=glossary(getattr(mod, "PRINTS_VERDICTS", False)),
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        mod.add_arguments(p)
        _verbosity_flags(p, argparse.SUPPRESS)
        per_claim = getattr(mod, "TIMEOUT_PER_CLAIM", False)
        p.add_argument("--timeout", type=float, default=getattr(mod, "DEFAULT_TIMEOUT", DEFAULT_TIMEOUT),
                       metavar="SECONDS",
                       help=("seconds per claim; a claim not decided by then is unknown (timeout)" if per_claim else
                             "seconds for the whole command; past it the command ends with 'unknown (timeout)', "
                             "exit status 3") + " (default %(default)s; 0: no limit)")
        p.set_defaults(_run=mod.run, _parser=p, _per_claim=per_claim)
    return parser


def _check_bounds(args):
    """Refuse a process count outside :data:`RESOURCE_BOUNDS` (one line, exit 2)."""
    for dest, (lo, hi) in RESOURCE_BOUNDS.items():
        value = getattr(args, dest, None)
        if value is not None and not lo <= value <= hi:
            flag = "--" + dest.replace("_", "-")
            raise InputError(f"{flag} {value} is out of range", fix=f"give {lo} <= {flag} <= {hi}")


def _autocomplete(parser) -> None:
    """Answer a shell's completion request (argcomplete; exits) or do nothing."""
    import os
    if "_ARGCOMPLETE" not in os.environ:
        return
    try:
        import argcomplete
    except ImportError:            # pragma: no cover - a dependency; nothing to complete without it
        return
    argcomplete.autocomplete(parser)


def main(argv=None) -> int:
    parser = build_parser(sys.argv[1:] if argv is None else list(argv))
    _autocomplete(parser)
    args, extra = parser.parse_known_args(argv)
    set_verbosity(getattr(args, "verbosity", NORMAL))
    if extra:      # named by the sub-command's parser, so that the fix points at its --help
        (getattr(args, "_parser", None) or parser).error(f"unrecognized arguments: {' '.join(extra)}")
    if not getattr(args, "_run", None):
        names = ", ".join(m.NAME for m in _commands())
        print(f"implgraph: no command given; fix: give one of {names} (see `implgraph --help`)",
              file=sys.stderr)
        return 2
    try:
        _check_bounds(args)
        limit = None if getattr(args, "_per_claim", False) else getattr(args, "timeout", None)
        with deadline(limit):
            return int(args._run(args) or 0)
    except (Timeout, ctypes.ArgumentError) as exc:
        exc = as_timeout(exc)
        if exc is None:
            raise
        # the command has ended: z3 objects the timeout left half-built may fail in their finalisers
        # later (AstRef.__del__ without a context); that is not news for the user
        sys.unraisablehook = _quiet_unraisable
        print(f"implgraph: {args.command}: unknown ({exc}); fix: give a larger --timeout (or 0 for none) or a "
              f"smaller problem (--N, fewer definitions)", file=sys.stderr)
        return EXIT_TIMEOUT
    except InputError as exc:
        print(f"implgraph: {exc.format()}", file=sys.stderr)
        return 2
    except RecursionError:
        print("implgraph: the input is nested too deeply (recursion limit); fix: give a less nested formula "
              "or data file", file=sys.stderr)
        return 2
    except MemoryError:
        print("implgraph: out of memory; fix: give smaller input (fewer records, smaller numbers)",
              file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("implgraph: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


def run() -> int:
    """The ``implgraph`` program: :func:`main` in a process of its own, whose only threads are implgraph's, so that
    simplifying may skip importing sympy.physics.units (:data:`implgraph.core.program.RUNNING`). A write error on
    standard output (a full disk) is one line, exit status 2 (:func:`implgraph.io.output.run_guarded`); sympy's memos
    sized for a whole command (:func:`implgraph.core.program.start`)."""
    from implgraph.core import program
    from implgraph.io.output import run_guarded
    program.start()
    return run_guarded(main)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(run())
