"""Property tests: every optimal level equals the brute force of :mod:`brute` exactly.

Random small concrete tables (N <= 8 records, 2-3 buckets, probabilities with denominators 1-6,
zeros included so that infinite levels occur, random equivalence classes). Both engine paths are
checked: the fast concrete path (:class:`~implgraph.core.concrete.ConcreteTable`) and the symbolic
:class:`~implgraph.core.symbolic.Ctx` path on a :class:`~implgraph.core.table.Table` of row blocks (equal
rows merged into one block with a count), which is the code that runs on parametric tables.

The default run checks 300 examples per property; ``pytest -m slow`` runs 3000.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import brute
from implgraph import definitions
from implgraph.core.concrete import ConcreteTable
from implgraph.definitions.levels import optimal_level
from implgraph.core.region import Region
from implgraph.core.pieces import piecewise
from implgraph.core.table import Block, Table

FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def small_tables(draw, max_n=8):
    """(rows, classes or None): rows of Fractions summing to 1."""
    p = draw(st.sampled_from([2, 3]))
    n = draw(st.integers(min_value=2, max_value=max_n))
    d = draw(st.sampled_from([1, 2, 3, 4, 6]))
    rows = []
    for _ in range(n):
        # a random composition of d into p non-negative parts: Pr = part / d (zeros are common)
        cuts = sorted(draw(st.lists(st.integers(0, d), min_size=p - 1, max_size=p - 1)))
        parts = [b - a for a, b in zip([0] + cuts, cuts + [d])]
        rows.append([Fraction(x, d) for x in parts])
    if draw(st.booleans()):
        classes = draw(st.lists(st.integers(0, 2), min_size=n, max_size=n))
    else:
        classes = None
    return rows, classes


def _expected(name, rows, classes, k):
    if name == "mult-t-closeness":
        return None if classes is None else brute.mult_t(rows, classes)
    if name == "kt-closeness":
        return brute.kt(rows, k)
    if name == "dp":
        return brute.dp(rows)
    if name == "ldp":
        return brute.ldp(rows)
    if name == "kdp":
        return brute.kdp(rows, k)
    if name == "k-anonymity":
        return None if classes is None else Fraction(brute.k_anonymity(classes))
    raise AssertionError(name)


def _as_sympy(x):
    if x is None:
        return None
    if x == brute.INF:
        return sympy.oo
    return sympy.Rational(x.numerator, x.denominator)


def _block_table(rows, classes) -> Table:
    """Equal consecutive rows (same class) merged into one block with a count."""
    blocks = []
    for i, r in enumerate(rows):
        probs = tuple(sympy.Rational(x.numerator, x.denominator) for x in r)
        cls = None if classes is None else str(classes[i])
        if blocks and blocks[-1].probs == probs and blocks[-1].cls == cls:
            last = blocks.pop()
            blocks.append(Block(probs=probs, count=last.count + 1, cls=cls))
        else:
            blocks.append(Block(probs=probs, count=sympy.Integer(1), cls=cls))
    return Table(blocks=blocks, buckets=[f"b{l}" for l in range(len(rows[0]))])


NAMES = ["mult-t-closeness", "kt-closeness", "dp", "ldp", "kdp", "k-anonymity"]


def _check_concrete(rows, classes, k):
    ct = ConcreteTable.from_fractions(rows, classes=classes)
    for name in NAMES:
        params = {"k": k} if name in ("kt-closeness", "kdp") else {}
        got = optimal_level(ct, name, **params).pieces[0].value
        assert got == _as_sympy(_expected(name, rows, classes, k)), (name, params, rows, classes)
    if classes is not None:
        for ground in ("equal", "ordered"):
            got = optimal_level(ct, "emd-t-closeness", ground=ground).pieces[0].value
            assert got == _as_sympy(brute.emd_t(rows, classes, ground)), (ground, rows, classes)


def _check_symbolic(rows, classes, k):
    table = _block_table(rows, classes)
    for name in NAMES:
        d = definitions.get(name)
        params = {"k": sympy.Integer(k)} if name in ("kt-closeness", "kdp") else {}
        if d.needs_classes and classes is None:
            continue
        pieces = piecewise(Region(), lambda ctx: d.symbolic(ctx, table, **params))
        assert len(pieces) == 1
        assert pieces[0].value == _as_sympy(_expected(name, rows, classes, k)), (name, params, rows, classes)
    if classes is not None:
        d = definitions.get("emd-t-closeness")
        for ground in ("equal", "ordered"):
            pieces = piecewise(Region(), lambda ctx: d.symbolic(ctx, table, ground=ground))
            assert pieces[0].value == _as_sympy(brute.emd_t(rows, classes, ground)), (ground, rows, classes)


@FAST
@given(small_tables(), st.data())
def test_concrete_levels_equal_brute_force(table, data):
    rows, classes = table
    k = data.draw(st.integers(1, len(rows) - 1))
    _check_concrete(rows, classes, k)


@FAST
@given(small_tables(), st.data())
def test_symbolic_levels_equal_brute_force(table, data):
    rows, classes = table
    k = data.draw(st.integers(1, len(rows) - 1))
    _check_symbolic(rows, classes, k)


@pytest.mark.slow
@SLOW
@given(small_tables(), st.data())
def test_concrete_levels_equal_brute_force_many(table, data):
    rows, classes = table
    k = data.draw(st.integers(1, len(rows) - 1))
    _check_concrete(rows, classes, k)


@pytest.mark.slow
@SLOW
@given(small_tables(), st.data())
def test_symbolic_levels_equal_brute_force_many(table, data):
    rows, classes = table
    k = data.draw(st.integers(1, len(rows) - 1))
    _check_symbolic(rows, classes, k)


# -- the brute force itself, on cases derived by hand -------------------------------------------

def test_brute_hand_cases():
    F = Fraction
    rows = [[F(1, 2), F(1, 2)], [F(1, 4), F(3, 4)]]
    # LDP: a1 1/2 vs 1/4 -> 2; a2 3/4 vs 1/2 -> 3/2; max 2
    assert brute.ldp(rows) == 2
    # DP: mean a1 = 3/8; removing row 2 leaves 1/2: (1/2)/(3/8) = 4/3; removing row 1 leaves 1/4: 3/2;
    # a2 mean 5/8: 5/8 / (1/2) = 5/4, (3/4)/(5/8) = 6/5; max 3/2
    assert brute.dp(rows) == F(3, 2)
    # a zero entry in one row only: infinite LDP; 0 in every row: no constraint
    assert brute.ldp([[F(0), F(1)], [F(1, 2), F(1, 2)]]) == brute.INF
    assert brute.ldp([[F(0), F(1)], [F(0), F(1)]]) == 1
    # k-anonymity and mult-t with classes {0,1} and {2}
    rows3 = [[F(1), F(0)], [F(0), F(1)], [F(1, 2), F(1, 2)]]
    assert brute.k_anonymity([0, 0, 1]) == 1
    # every class has mean 1/2 in both buckets = the table mean: t = 1
    assert brute.mult_t(rows3, [0, 0, 1]) == 1
    # (1,t): subset {row 2} has a1 mean 0 while the table mean is 1/2 -> infinite
    assert brute.kt(rows3, 1) == brute.INF
    # EMD, equal ground: classes {row1} vs table: |1 - 1/2| + |0 - 1/2| halved = 1/2
    assert brute.emd_t(rows3, [0, 1, 2]) == F(1, 2)
