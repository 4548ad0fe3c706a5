"""The core imports nothing above it: no module of ``implgraph/core`` imports another part of the package.

The layers, top down: commands, cli, api, site; checks, map, mechanisms; engines and certify; io and solvers;
definitions; core. Imports point down only, so the core (formulas, regions, symbolic pieces, tables, verdicts)
stands on its own: the solver a region asks is registered from above (:mod:`implgraph.core.backends`). Every import
is read from the source with :mod:`ast`, those inside functions included, and so is every ``import_module`` or
``__import__`` of a constant name.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import implgraph

CORE = Path(implgraph.__file__).parent / "core"


def _absolute(node: ast.ImportFrom, module: str) -> str:
    """The absolute name of a ``from ... import`` in ``module`` (relative imports resolved)."""
    if not node.level:
        return node.module or ""
    base = module.split(".")[: -node.level]
    return ".".join(base + ([node.module] if node.module else []))


def imported_names(path: Path, module: str) -> list:
    """``[(line, imported module name)]`` of every import in the file, at any depth."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            target = _absolute(node, module)
            # ``from implgraph import definitions`` imports the submodule implgraph.definitions
            out += [(node.lineno, f"{target}.{alias.name}" if target == "implgraph" else target)
                    for alias in node.names]
        elif (isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", None))
              in ("import_module", "__import__") and node.args and isinstance(node.args[0], ast.Constant)):
            out.append((node.lineno, str(node.args[0].value)))
    return out


def upward(name: str) -> bool:
    """True for an import of the package outside its core (the package itself included)."""
    parts = name.split(".")
    return parts[0] == "implgraph" and (len(parts) == 1 or parts[1] != "core")


def test_the_reader_sees_every_kind_of_import(tmp_path):
    source = ("import implgraph.io.datafile\nfrom implgraph import solvers\nfrom ..definitions import base\n"
              "def f():\n    from implgraph.engines.prove import x\n    importlib.import_module('implgraph.map')\n"
              "from implgraph.core.formula import parse_expr\nfrom . import errors\n")
    path = tmp_path / "probe.py"
    path.write_text(source)
    found = {name: upward(name) for _, name in imported_names(path, "implgraph.core.probe")}
    assert found == {"implgraph.io.datafile": True, "implgraph.solvers": True, "implgraph.definitions": True,
                     "implgraph.engines.prove": True, "implgraph.map": True, "implgraph.core.formula": False,
                     "implgraph.core": False}


@pytest.mark.parametrize("path", sorted(CORE.rglob("*.py")), ids=lambda p: p.name)
def test_core_imports_nothing_above_it(path):
    module = "implgraph.core." + ".".join(path.relative_to(CORE).with_suffix("").parts)
    bad = sorted({f"{path.name}:{line}: {name}" for line, name in imported_names(path, module) if upward(name)})
    assert not bad, "the core imports a layer above it: " + "; ".join(bad)
