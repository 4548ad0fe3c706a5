"""Shared test configuration: make ``tests/`` importable (for :mod:`brute`)."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))


def computed_rules(paths=None):
    """The map's rules with the verdicts the engine computes (cached by content), as `implgraph map` uses."""
    from implgraph.commands.map import verify_edges
    from implgraph.map.rules import load_rules
    key = tuple(map(str, paths or ()))
    if key not in _RULES:
        _RULES[key] = load_rules(paths, verify_edges(paths))
    return _RULES[key]


_RULES: dict = {}


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    """The Coq library (``coq/``) built afresh once for each test module of the kernel check that asks for it."""
    from _coq import build_library
    return build_library(tmp_path_factory)


#: the tests that lay a map, a figure or the explorer's Hasse diagram out with Graphviz's dot (Debian's graphviz, which
#: .ci/run installs): skipped, with the reason, on a machine without it
NEEDS_DOT = (
    "tests/test_render.py", "tests/test_figures_committed.py", "tests/test_site.py", "tests/test_site_browser.py",
    "tests/test_tutorial.py",
    "tests/test_figures.py::test_rendered_text_inside_its_box", "tests/test_figures.py::test_no_overlap_no_edge_through",
    "tests/test_figures.py::test_no_edge_through_a_node_measured_from_svg",
    "tests/test_output_atomic.py::test_site_on_a_failing_disk_leaves_no_partial_site",
    "tests/test_output_atomic.py::test_an_existing_site_is_replaced_only_when_complete",
    "tests/test_output_atomic.py::test_map_out_on_a_failing_disk",
    "tests/test_hostile_outputs.py::test_hostile_output_or_verdict_file[map-out",
    "tests/test_hostile_outputs.py::test_hostile_output_or_verdict_file[site-out",
    "tests/test_map.py::test_cli_map_planted_conflict",
)


def pytest_collection_modifyitems(config, items):
    import shutil

    import pytest
    if shutil.which("dot"):
        return
    skip = pytest.mark.skip(reason="Graphviz's dot is not installed (it lays the map out): apt-get install graphviz")
    for item in items:
        if item.nodeid.startswith(NEEDS_DOT):
            item.add_marker(skip)
