"""Reading the values of definitions' parameters (:mod:`implgraph.definitions.base`).

A value given by a user (:func:`read_param`: text through the project's formula reader, never evaluated),
a declared range bound (:func:`range_bound`), the kinds a parameter may declare (``PARAM_KINDS``) and a
value shown in a message (:func:`shown`).
"""

from __future__ import annotations

from functools import lru_cache

import sympy

from implgraph.core.errors import InputError, printable

__all__ = ["PARAM_KINDS", "IntegerK", "range_bound", "read_param", "shown"]


_N = sympy.Symbol("N")


#: the kinds a parameter may declare (``param_kinds``): its values are integers, rationals or real numbers
PARAM_KINDS = ("integer", "rational", "real")


@lru_cache(maxsize=None)
def _bound(text):
    """A declared range bound (``1``, ``"N - 1"``) as a sympy expression in ``N``, parsed once with the
    project's formula reader (a plugin's declaration is text like any other: never evaluated)."""
    from implgraph.core.formula import parse_expr
    return parse_expr(text, {"N": _N})


def range_bound(bound, N=None):
    """A declared range bound (``1``, ``"N - 1"``) as a sympy expression, at ``N`` when given (a number or a
    symbol; the bound's ``N`` is replaced by it)."""
    value = _bound(bound)
    return value if N is None else value.xreplace({_N: sympy.Integer(N) if isinstance(N, int) else N})


def read_param(value, symbols=None, name: str = "parameter"):
    """A parameter value given by a user (command line, API, data file) as an exact sympy expression.

    Text goes through the project's formula reader (:func:`implgraph.core.formula.parse_expr`, with the
    ``symbols`` declared; nothing is evaluated), an int or a Fraction is exact, a finite float is read from
    its shortest text (``0.1`` is 1/10) and a sympy expression is kept; anything else is an InputError.
    """
    from fractions import Fraction

    from implgraph.core.formula import parse_expr
    if isinstance(value, sympy.Expr):
        return value
    if isinstance(value, bool) or not isinstance(value, (str, int, float, Fraction)):
        raise InputError(f"parameter {printable(name)}: {printable(repr(value))[:60]} is not a number or formula",
                         fix=f"give {printable(name)} as a number such as 2 or 1/100")
    if isinstance(value, Fraction):
        return sympy.Rational(value.numerator, value.denominator)
    if isinstance(value, int):
        return sympy.Integer(value)
    try:
        return parse_expr(value if isinstance(value, str) else repr(value), dict(symbols or {}))
    except InputError as exc:
        fix = exc.fix if "undeclared symbol" not in exc.reason or symbols else \
            f"give {printable(name)} as a number such as 2 or 1/100"
        raise InputError(f"{printable(name)}: {exc.reason}", fix=fix) from None


def shown(value, width: int = 60) -> str:
    """``value`` as text for a message: control characters escaped, cut to ``width`` characters."""
    text = printable(value)
    return text if len(text) <= width else text[:width] + "..."


class IntegerK:
    """A mixin for a definition whose parameter ``k`` (a minimum class size) is an integer >= 1: the check of a
    value and the values a bounded search takes at N (1..N), written once for the definitions that read one."""

    def check_params(self, table, params):
        params = super().check_params(table, params)
        k = params["k"]
        if k.is_number and not (k.is_Integer and k >= 1):
            raise InputError(f"{self.name}: k = {k} is not an integer >= 1", fix="give e.g. k=2")
        return params

    def param_values(self, N):
        return [{"k": k} for k in range(1, N + 1)]
