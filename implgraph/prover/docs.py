"""The docs pages of the prover's arguments (``docs/arguments/<method>.md`` and ``docs/arguments/index.md``),
generated from :mod:`implgraph.core.methods` and the argument modules' own notes (their proofs in prose), so that each
fact is written once; ``tests/test_prover_registry.py`` checks that the pages in the repository are these.

    python -m implgraph.prover.docs DOCS_DIR        # rewrite the pages
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import sys

from implgraph.core import methods

__all__ = ["argument_modules", "pages", "main"]


def argument_modules() -> dict:
    """``{method name: module}`` of every module of :mod:`implgraph.prover.arguments` (its ``METHOD``)."""
    from implgraph.prover import arguments as package
    out = {}
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name):
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        out[module.METHOD.name] = module
    return out


def _where(name, module):
    from implgraph.prover.registry import arguments
    found = [f"{a.stage} {a.order:g}" for stage in ("direct", "ceiling", "supremum") for a in arguments(stage)
             if a.method.name == name]
    return ", ".join(found) or getattr(module, "TRIED", "nowhere")


def _page(method, module) -> str:
    path = module.__name__.replace(".", "/") + ".py"
    return (f"# `{method.name}`\n\n{method.summary[0].upper()}{method.summary[1:]}.\n\n"
            f"- module: `{path}` (the bound and its certificate parts)\n"
            f"- the checker's lemma: `{method.lemma}`\n"
            f"- tried: {_where(method.name, module)}\n\n"
            f"## The argument\n\n::: {module.__name__}\n    options:\n      members: false\n"
            "      show_root_heading: false\n      show_root_toc_entry: false\n")


def _index(mods) -> str:
    rows = [f"| [`{name}`]({name}.md) | {_where(name, module)} | `{methods.get(name).lemma}` | "
            f"{methods.get(name).summary} |" for name, module in mods.items()]
    others = [f"| `{m.name}` | elsewhere | `{m.lemma}` | {m.summary} |" for m in methods.ALL.values()
              if m.name not in mods]
    return ("# The prover's arguments\n\n"
            "Each argument is one module of `implgraph/prover/arguments/`: it declares the shapes it applies to (read "
            "from the definitions' declarations, never their names), its order among the arguments, its bound and "
            "its certificate's parts (`implgraph/prover/registry.py` says how a module registers them). The search "
            "(`implgraph/prover/search.py`) tries the arguments whose shapes match in their order; the first definite "
            "answer wins. The independent checker (`implgraph.certify`) re-checks each certificate with the lemma "
            "the method names.\n\n"
            "| method | tried (stage, order) | checker's lemma | what it says |\n| --- | --- | --- | --- |\n"
            + "\n".join(rows) + "\n\nMethods of other parts of the engine (no module here):\n\n"
            "| method | tried | checker's lemma | what it says |\n| --- | --- | --- | --- |\n"
            + "\n".join(others) + "\n")


def pages() -> dict:
    """``{file name: text}`` of the pages (``index.md`` and one per argument module)."""
    mods = argument_modules()
    out = {"index.md": _index(mods)}
    for name, module in mods.items():
        out[f"{name}.md"] = _page(methods.get(name), module)
    return out


def main(argv=None) -> int:
    folder = os.path.join((argv or sys.argv[1:])[0], "arguments")
    os.makedirs(folder, exist_ok=True)
    for name, text in pages().items():
        with open(os.path.join(folder, name), "w") as fh:
            fh.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
