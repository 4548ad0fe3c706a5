"""The memos that let a direction's pass over every partition read what its pass over the partitions into >= 2 classes
computed (engines.direction.check_direction): the coarse grid's first witness on one partition and the tables at B's
weakest level on one partition are each computed once, and equal what probing every table again gives."""

from __future__ import annotations

from fractions import Fraction

import sympy

from implgraph import definitions
from implgraph.engines import instance_grid, instance_weakest
from implgraph.engines.grid_tables import COARSE_GRID, WEAKEST_GRID, binary_rows
from implgraph.engines.recheck import weakest_raw


def _prober(a, b, N=4):
    return instance_grid._Prober(definitions.get(a), {}, definitions.get(b), {}, None, True, N, {"N": N})


def _counting(monkeypatch):
    calls = []
    real = instance_grid._Prober.probe

    def probe(self, rows, sizes, keys=None):
        calls.append(sizes)
        return real(self, rows, sizes, keys)
    monkeypatch.setattr(instance_grid._Prober, "probe", probe)
    return calls


def test_the_coarse_witness_of_a_partition_is_probed_once(monkeypatch):
    monkeypatch.setattr(instance_grid, "_COARSE", {})
    calls = _counting(monkeypatch)
    for a, b in (("dp", "k-anonymity"), ("k-anonymity", "dp")):
        for sizes in ((2, 2), (4,)):
            prober = _prober(a, b)
            # every table of the grid probed in order, as before the memo
            direct = next((rows for rows in binary_rows(COARSE_GRID, 4, 2) if prober.probe(rows, sizes) is not None),
                          None)
            calls.clear()
            first = instance_grid._coarse_witness(_prober(a, b), sizes, 2)
            assert (first is None) == (direct is None)
            if first is not None:
                assert first.to_rows() == [[Fraction(x) for x in r] for r in direct]
            assert calls                        # computed ...
            calls.clear()
            again = instance_grid._coarse_witness(_prober(a, b), sizes, 2)
            assert calls == []                  # ... then read
            assert (again is None) == (first is None) and (again is None or again.to_rows() == first.to_rows())


def test_the_tables_at_b_weakest_are_computed_once_per_partition(monkeypatch):
    monkeypatch.setattr(instance_weakest, "_MET", {})
    prober = _prober("dp", "k-anonymity")
    w = weakest_raw(prober.b_def, 4)
    for grid in (COARSE_GRID, WEAKEST_GRID):
        for sizes in ((2, 2), (1, 3), (4,)):
            want = tuple(m for m in (instance_weakest._at_weakest_b(prober, w, rows, sizes)
                                     for rows in binary_rows(grid, 4, 2)) if m is not None)
            assert instance_weakest._met_on(prober, w, grid, sizes, 2) == want
    assert len(instance_weakest._MET) == 6
    instance_weakest._MET[next(iter(instance_weakest._MET))] = ("remembered",)
    assert instance_weakest._met_on(prober, w, COARSE_GRID, (2, 2), 2) == ("remembered",)


def test_a_declared_range_end_is_read_at_each_n():
    from implgraph.engines.direction_points import _range_end
    assert _range_end("N - 1", 4) == 3 and _range_end("N - 1", 7) == 6 and _range_end("N", 5) == 5
    assert _range_end(1, 4) == 1 and _range_end("N/2", 5) == sympy.Rational(5, 2)
