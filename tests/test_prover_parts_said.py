"""An argument's text says a Piecewise piece by piece, never as a Python repr with ``True`` in it."""

import sympy

from implgraph.prover.parts import said


def test_a_piecewise_is_said_piece_by_piece():
    T = sympy.Symbol("T", positive=True)
    f = sympy.Piecewise((sympy.oo, T <= 1), (sympy.ceiling(1 / (T - 1)), True))
    assert said(f) == "oo where T <= 1; ceiling(1/(T - 1)) elsewhere"
    assert "True" not in said(f)


def test_anything_else_is_its_text():
    T = sympy.Symbol("T", positive=True)
    assert said(sympy.Min(1, T - 1)) == str(sympy.Min(1, T - 1))
