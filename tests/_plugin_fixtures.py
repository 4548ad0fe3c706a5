"""Shared test helpers: register the tutorial's example plugin (and broken plugins) for one test."""

from __future__ import annotations

import contextlib
import sys
from fractions import Fraction
from pathlib import Path

import sympy

from implgraph.definitions import REGISTRY, Definition, register
from implgraph.definitions.families import Form, LFModel, Term

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


class BasicBetaLikeness(Definition):
    """Basic beta-likeness, one-sided (Cao and Karras 2012): for every class E and bucket B with
    Pr_E(B) > Pr_D(B), (Pr_E(B) - Pr_D(B)) / Pr_D(B) <= beta.

    Its level is not the raw ratio: beta = max over E and B of Pr_E(B)/Pr_D(B), minus 1
    (:meth:`level_from_raw`), the case of issue 10 item 8.
    """

    name = "beta-likeness"
    title = "basic beta-likeness (one-sided)"
    level_symbol = "beta"
    scale = "ratio"
    stronger = "smaller"
    needs_classes = True
    reference = "J. Cao, P. Karras, Publishing microdata with a robust privacy guarantee, VLDB 2012"

    def level_from_raw(self, raw):
        if raw is None:
            return None
        raw = sympy.sympify(raw)
        return sympy.oo if raw is sympy.oo else raw - 1

    def raw_from_level(self, level):
        level = sympy.sympify(level)
        return sympy.oo if level is sympy.oo else level + 1

    def symbolic(self, ctx, table, **params):
        raise NotImplementedError("beta-likeness: concrete tables only")

    def concrete(self, ct, **params):
        """max over classes and buckets of mean_E / mean_D (0/0 imposes nothing); at least 1."""
        if ct.classes is None:
            return None
        sizes, sums = ct.class_sums()
        best = Fraction(1)
        for l in range(ct.p):
            total = int(ct.total(l))
            if total == 0:
                continue
            for size, s in zip(sizes, sums[:, l]):
                best = max(best, Fraction(int(s) * ct.N, int(size) * total))
        return best

    def lf_terms(self, N, sizes, p, **params):
        """One-sided: only mean_E / mean_D, never the inverse."""
        rows = list(range(N))
        terms, start = [], 0
        for size in sizes:
            E = list(range(start, start + size))
            start += size
            terms += [Term(Form.mean(E, l), Form.mean(rows, l)) for l in range(p)]
        return LFModel(terms, Fraction(1))
