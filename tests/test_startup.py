"""What importing the package and starting the CLI loads (a command pays only for what it uses).

The heavy libraries are imported where they are used: ``import implgraph`` and ``implgraph --version``
load no sympy; the CLI module loads none of numpy, rich, yaml, z3, cvc5 or the package's definitions.
"""

import subprocess
import sys

import pytest

HEAVY = ["sympy", "numpy", "rich", "yaml", "z3", "cvc5", "networkx", "pandas", "implgraph.definitions",
         "importlib.metadata"]


def _loaded(code: str) -> set:
    out = subprocess.run([sys.executable, "-c", code + "\nimport sys\nprint(' '.join(sorted(sys.modules)))"],
                         capture_output=True, text=True, check=True).stdout.split()
    return {m for m in HEAVY if m in out}


@pytest.mark.parametrize("code", ["import implgraph", "import implgraph.cli",
                                  "import implgraph.cli\ntry:\n    implgraph.cli.main(['--version'])\n"
                                  "except SystemExit:\n    pass",
                                  # the top-level help lists the commands from their sources, importing none
                                  "import implgraph.cli, contextlib, io\nwith contextlib.redirect_stdout(io.StringIO()):\n"
                                  "    try:\n        implgraph.cli.main(['--help'])\n    except SystemExit:\n        pass"])
def test_start_loads_no_heavy_library(code):
    assert _loaded(code) == set()


def test_the_top_level_help_lists_every_command():
    """The light listing (sources read, nothing imported) names every command with its help, in the commands' order."""
    from implgraph import cli
    listed = cli._listed_commands()
    imported = cli._commands()
    assert [(m.NAME, m.HELP) for m in listed] == [(m.NAME, m.HELP) for m in imported]


def test_public_names_load_on_first_use():
    # the lazy top-level names are the modules' own objects
    code = ("import implgraph\nfrom implgraph.api import check_edge\nfrom implgraph.core.table import Table\n"
            "assert implgraph.check_edge is check_edge and implgraph.Table is Table\n"
            "assert set(implgraph.__all__) <= set(dir(implgraph))")
    assert "sympy" in _loaded(code)


def test_submodules_load_on_first_use():
    # `import implgraph` then `implgraph.api.definitions()`, as a notebook writes it
    assert "sympy" in _loaded("import implgraph\nassert 'entropy-l-diversity' in implgraph.api.definitions() or True\n"
                              "assert implgraph.definitions.get('dp').name == 'dp'")


def test_unknown_attribute_is_an_attribute_error():
    import implgraph
    with pytest.raises(AttributeError):
        implgraph.no_such_name  # noqa: B018
