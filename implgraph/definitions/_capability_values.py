"""The values capabilities are made of (:mod:`implgraph.definitions.capabilities`).

The words a capability's fields may take (``FAMILIES``, ``SIDES``, ...), the checks refusing anything else
(:func:`_refuse`, :func:`_check_name`), and the readers of a subset size's formula and values
(:func:`_size_formula`, :func:`_exact`; text through the project's formula reader, never evaluated).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import sympy

from implgraph.core.errors import InputError, printable

__all__ = ["FAMILIES", "SIDES", "SLACK_COMPARES", "DISTANCES", "INCREASE_CAPS"]

#: the record sets a ratio level compares: records i and j, every j-subset with the table, every class with it
FAMILIES = ("pairwise", "subset", "class")
#: two-sided: both mean_S / mean_D and mean_D / mean_S bounded; one-sided: only mean_S / mean_D
SIDES = ("two-sided", "one-sided")
#: the records an additive slack compares
SLACK_COMPARES = ("removal", "pairs")
#: the distances a class distance may be
DISTANCES = ("total-variation",)
#: the increase caps a finite-level condition may be
INCREASE_CAPS = ("-log(p)",)

_N = sympy.Symbol("N")


def _refuse(kind: str, what: str, allowed) -> None:
    raise InputError(f"{kind}: {printable(repr(what))[:60]}", fix="use " + ", ".join(allowed))


def _check_name(kind: str, name) -> None:
    if not isinstance(name, str) or not name.isidentifier():
        raise InputError(f"{kind}: parameter {printable(repr(name))[:60]} is not a name",
                         fix="give the name of one of the definition's params, e.g. \"k\"")


@lru_cache(maxsize=None)
def _size_formula(text: str):
    """A size formula read once by the formula reader, over ``N`` and the names it uses (plain symbols)."""
    from implgraph.core.formula import parse_expr
    return parse_expr(text, {"N": _N, **{n: sympy.Symbol(n) for n in _names(text) if n != "N"}})


def _names(text: str) -> set:
    """The names a formula uses as values (not as the function of a call); read with :mod:`ast`, never run."""
    import ast
    try:
        tree = ast.parse(text.replace("^", "**"), mode="eval")
    except SyntaxError:
        return set()
    called = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and id(n) not in called}


def _exact(value):
    """A parameter value or N as an exact sympy number or expression (text through the formula reader)."""
    if isinstance(value, sympy.Basic):
        return value
    if isinstance(value, bool):
        raise InputError(f"subset size: {value!r} is not a number", fix="give a number")
    if isinstance(value, int):
        return sympy.Integer(value)
    if isinstance(value, Fraction):
        return sympy.Rational(value.numerator, value.denominator)
    if isinstance(value, str):
        from implgraph.core.formula import parse_expr
        return parse_expr(value, {})
    return sympy.sympify(value, strict=True)
