"""The process memos added for the pair matrix's speed: each answers a repeated question once, and never changes an
answer (a caller's edit of a remembered bound reaches no other caller; a registered argument is part of the key; a
level over classes is keyed by the partition too)."""

from __future__ import annotations

from fractions import Fraction

import sympy

from implgraph import definitions
from implgraph.core import methods
from implgraph.core.region import Region
from implgraph.engines import grid_tables, instance_grid
from implgraph.prover import registry, search
from implgraph.prover.answer import Bound, T


def test_tight_bound_asks_the_arguments_once_and_hands_out_copies(monkeypatch):
    monkeypatch.setattr(registry, "_ARGUMENTS", list(registry.arguments()))
    monkeypatch.setattr(search, "_BOUNDS", {}, raising=False)
    calls = []

    def mine(ctx):
        calls.append(1)
        return Bound(T + 2, False, methods.VERTEX.name, "by hand")
    registry.argument(methods.VERTEX, order=0.25, applies=lambda ctx: ctx.jb is not None)(mine)
    N = sympy.Symbol("N", integer=True)
    region = Region({N: "integer", T: "real"}, (T >= 1, N >= 2))
    first = search.tight_bound("ldp", "dp", {}, {}, region, N)
    first.argument += "; edited by its caller"
    first.checks.append("a caller's check")
    second = search.tight_bound("ldp", "dp", {}, {}, Region({N: "integer", T: "real"}, (T >= 1, N >= 2)), N)
    assert calls == [1]                                  # the second question is answered from the memo
    assert second.upper == T + 2 and second.argument == "by hand" and second.checks == []
    # another region is another question
    search.tight_bound("ldp", "dp", {}, {}, Region({N: "integer", T: "real"}, (T >= 2, N >= 2)), N)
    assert calls == [1, 1]


def test_a_classless_level_is_computed_once_for_the_same_rows(monkeypatch):
    """dp declares no capability on classes: its level on four records is the records', whatever the partition; a
    class level (k-anonymity) is computed for each partition."""
    monkeypatch.setattr(grid_tables, "_GRID_LEVELS", {})
    counted = []
    real = grid_tables.raw_level

    def counting(d, params, ct):
        counted.append(d.name)
        return real(d, params, ct)
    monkeypatch.setattr(grid_tables, "raw_level", counting)
    dp, kanon = definitions.get("dp"), definitions.get("k-anonymity")
    assert not dp.needs_classes and kanon.needs_classes
    prober = instance_grid._Prober(dp, {}, kanon, {}, None, True, 4, {"N": 4})
    rows = [[Fraction(1, 3), Fraction(2, 3)], [Fraction(1, 3), Fraction(2, 3)], [Fraction(1, 2), Fraction(1, 2)],
            [Fraction(1, 2), Fraction(1, 2)]]
    prober.probe(rows, (2, 2))
    prober.probe(rows, (1, 3))
    assert counted.count("dp") == 1 and counted.count("k-anonymity") == 2
