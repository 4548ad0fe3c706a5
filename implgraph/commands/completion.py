"""``implgraph completion bash|zsh|fish``: print the shell completion script (argcomplete).

Install it with e.g. ``implgraph completion bash >> ~/.bashrc`` or
``implgraph completion zsh > ~/.zfunc/_implgraph``; the shell then asks ``implgraph`` itself
for the commands and options (argcomplete answers from the argument parser).
"""

from __future__ import annotations

from implgraph.core.errors import InputError

NAME = "completion"
HELP = "print the shell completion script for bash, zsh or fish"
DESCRIPTION = (HELP + ", e.g. `implgraph completion bash >> ~/.bashrc` (then open a new shell). "
               "Needs the argcomplete package (a dependency of implgraph).")
ORDER = 90

SHELLS = ("bash", "zsh", "fish")


def add_arguments(p):
    p.add_argument("shell", choices=SHELLS, help="the shell")


def script(shell: str) -> str:
    """The completion script of ``implgraph`` for ``shell``."""
    try:
        import argcomplete
    except ImportError:
        raise InputError("the argcomplete package is not installed", fix="pip install argcomplete") from None
    return argcomplete.shellcode(["implgraph"], shell=shell)


def run(args) -> int:
    print(script(args.shell))
    return 0
