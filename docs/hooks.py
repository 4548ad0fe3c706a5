"""mkdocs hook: the command-line reference is generated from the commands' own ``--help``.

docs/cli.md holds the marker ``<!-- cli:help -->``; at build time it becomes the help of ``implgraph``
and of each command, as argparse prints it (80 columns), so the reference cannot drift from the tool.
"""

from __future__ import annotations

import os

MARKER = "<!-- cli:help -->"


def _help(parser, epilog: bool) -> str:
    saved, os.environ["COLUMNS"] = os.environ.get("COLUMNS"), "80"
    kept = parser.epilog
    try:
        if not epilog:
            parser.epilog = None
        return parser.format_help().rstrip()
    finally:
        parser.epilog = kept
        if saved is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = saved


def cli_reference() -> str:
    """Markdown: ``implgraph --help`` (with the verdict words and exit codes), then each command's help."""
    import argparse

    from implgraph.cli import build_parser

    parser = build_parser()
    out = ["## `implgraph`", "", "```text", _help(parser, epilog=True), "```", ""]
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, command in sub.choices.items():
        out += [f"## `implgraph {name}`", "", "```text", _help(command, epilog=False), "```", ""]
    return "\n".join(out)


def on_page_markdown(markdown, page, config, files):
    if MARKER in markdown:
        return markdown.replace(MARKER, cli_reference())
    return markdown
