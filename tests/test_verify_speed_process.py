"""The process settings ``implgraph verify`` runs under for speed change no answer and are put back afterwards.

:func:`implgraph.core.gc_batch.fewer_collections` raises the cyclic collector's thresholds for the body only;
:func:`implgraph.core.assumption_order.unshuffled` replaces sympy's shuffle of its assumption queue in the implgraph
program only. Expected values are derived by hand in the comment beside each case.
"""

from __future__ import annotations

import gc
import importlib

import pytest
import sympy

from implgraph.core import program
from implgraph.core.assumption_order import unshuffled
from implgraph.core.gc_batch import OLDER, YOUNG, fewer_collections

ASSUMPTIONS = importlib.import_module("sympy.core.assumptions")


@pytest.fixture
def thresholds():
    before = gc.get_threshold()
    yield
    gc.set_threshold(*before)


def test_collector_thresholds_raised_in_the_body_and_restored(thresholds):
    gc.set_threshold(700, 10, 10)                          # Python's defaults
    with fewer_collections():
        assert gc.get_threshold() == (YOUNG, OLDER, OLDER)
    assert gc.get_threshold() == (700, 10, 10)


def test_collector_thresholds_restored_after_an_exception(thresholds):
    gc.set_threshold(700, 10, 10)
    with pytest.raises(ZeroDivisionError):
        with fewer_collections():
            1 / 0
    assert gc.get_threshold() == (700, 10, 10)


def test_higher_thresholds_are_kept(thresholds):
    gc.set_threshold(10 * YOUNG, 5, 10 * OLDER)            # young and oldest already higher, middle lower
    with fewer_collections():
        assert gc.get_threshold() == (10 * YOUNG, OLDER, 10 * OLDER)
    assert gc.get_threshold() == (10 * YOUNG, 5, 10 * OLDER)


def test_as_a_decorator_each_call_raises_and_restores(thresholds):
    gc.set_threshold(700, 10, 10)

    @fewer_collections()
    def inside():
        return gc.get_threshold()

    assert inside() == (YOUNG, OLDER, OLDER) and inside() == (YOUNG, OLDER, OLDER)
    assert gc.get_threshold() == (700, 10, 10)


@pytest.fixture
def as_program(monkeypatch):
    monkeypatch.setattr(program, "RUNNING", True)


def test_queue_unshuffled_in_the_program_and_shuffle_restored(as_program):
    before = ASSUMPTIONS.shuffle
    with unshuffled():
        assert ASSUMPTIONS.shuffle is not before
        facts = ["a", "b", "c"]
        ASSUMPTIONS.shuffle(facts)
        assert facts == ["a", "b", "c"]                    # the stand-in leaves the order as it is
    assert ASSUMPTIONS.shuffle is before


def test_shuffle_restored_after_an_exception(as_program):
    before = ASSUMPTIONS.shuffle
    with pytest.raises(KeyError):
        with unshuffled():
            raise KeyError("x")
    assert ASSUMPTIONS.shuffle is before


def test_outside_the_program_sympy_keeps_its_shuffle(monkeypatch):
    monkeypatch.setattr(program, "RUNNING", False)
    before = ASSUMPTIONS.shuffle
    with unshuffled():
        assert ASSUMPTIONS.shuffle is before


@pytest.mark.parametrize("make, fact, want", [
    # fresh symbols each time (sympy caches facts on the expression): x > 0 makes x + 1 > 0 and x**2 + 1 > 0;
    # x - 1 has either sign for x > 0 (unknown); x*y with x > 0 and y < 0 is negative, so not positive
    (lambda x, y: x + 1, "is_positive", True),
    (lambda x, y: x**2 + 1, "is_positive", True),
    (lambda x, y: x - 1, "is_positive", None),
    (lambda x, y: x * y, "is_positive", False),
    (lambda x, y: x * y, "is_nonpositive", True),
    (lambda x, y: x - y, "is_positive", True),             # x > 0 > y
])
def test_assumption_answers_unchanged_without_the_shuffle(as_program, make, fact, want):
    for name in ("u", "v"):
        with unshuffled():
            x, y = sympy.Symbol(f"{name}x", positive=True), sympy.Symbol(f"{name}y", negative=True)
            inside = getattr(make(x, y), fact)
        x2, y2 = sympy.Symbol(f"{name}x2", positive=True), sympy.Symbol(f"{name}y2", negative=True)
        assert inside == getattr(make(x2, y2), fact) == want
