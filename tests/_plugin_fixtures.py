"""Shared test helpers: register the tutorial's example plugin (and broken plugins) for one test."""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path

from implgraph.definitions import REGISTRY, register
from implgraph.definitions.capabilities import RatioLevel
from implgraph.definitions.families import RatioOfAverages

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


class BasicBetaLikeness(RatioOfAverages):
    """Basic beta-likeness, one-sided (Cao and Karras 2012): for every class E and bucket B with
    Pr_E(B) > Pr_D(B), (Pr_E(B) - Pr_D(B)) / Pr_D(B) <= beta.

    Its level is not the raw ratio: beta = max over E and B of Pr_E(B)/Pr_D(B), minus 1 (the affine
    scale), the case of issue 10 item 8; only a class above the table counts (one-sided).
    """

    name = "beta-likeness"
    title = "basic beta-likeness (one-sided)"
    level_symbol = "beta"
    declares = (RatioLevel("class", "one-sided"),)
    scale = "affine"
    reference = "J. Cao, P. Karras, Publishing microdata with a robust privacy guarantee, VLDB 2012"
