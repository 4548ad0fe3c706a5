"""Shared test helpers: register the tutorial's example plugin (and broken plugins) for one test."""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path

from implgraph.definitions import REGISTRY, register

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "implgraph-delta-disclosure"


@contextlib.contextmanager
def registered(*classes):
    """Register definition classes for the duration of a block, then remove them."""
    names = []
    try:
        for cls in classes:
            register(cls)
            names.append(cls.name)
        yield
    finally:
        for n in names:
            REGISTRY.pop(n, None)


def example_class():
    if str(EXAMPLE) not in sys.path:
        sys.path.insert(0, str(EXAMPLE))
    import implgraph_delta_disclosure
    return implgraph_delta_disclosure.DeltaDisclosure
