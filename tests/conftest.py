"""Shared test configuration: make ``tests/`` importable (for :mod:`brute`)."""

import sys
from pathlib import Path

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
