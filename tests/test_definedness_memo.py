"""definedness memoises its answers within the process: asked again, the same conditions (a fresh list,
so a caller's change does not reach the memo). Values by hand: x / (x - y) needs x - y != 0, which on
x > y is x - y > 0."""

from __future__ import annotations

import sympy

from implgraph.checks.definedness import defined_conditions, definedness_atoms
from implgraph.core.region import Region

x, y = sympy.symbols("x y", real=True)


def test_defined_conditions_asked_twice():
    region = Region({x: "real", y: "real"}, (x > y,))
    first = defined_conditions(region, [x / (x - y)])
    assert first == [x - y > 0]
    first.append(sympy.false)
    assert defined_conditions(region, [x / (x - y)]) == [x - y > 0]
    # another region, same formula: its own answer (no sign known: the need as printed)
    assert defined_conditions(Region({x: "real", y: "real"}, ()), [x / (x - y)]) == [sympy.Ne(x - y, 0)]


def test_definedness_atoms_asked_twice():
    atoms = definedness_atoms([1 / sympy.sqrt(x * y)])
    assert [str(c) for c, _ in atoms] == ["x*y > 0"]
    atoms.clear()
    assert [str(c) for c, _ in definedness_atoms([1 / sympy.sqrt(x * y)])] == ["x*y > 0"]
