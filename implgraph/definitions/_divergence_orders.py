"""A declared divergence's order, read and checked (:class:`implgraph.definitions.divergences.Divergence`).

KL, total variation and the zero-concentrated level take no order; Renyi a rational alpha > 1 or oo (the largest log
ratio); the hockey-stick a real gamma >= 1. An order may be declared as a formula of the definition's parameters
(``"alpha"``, ``"exp(eps)"``), read by the project's formula reader (nothing evaluated) and checked when the
parameters are given.
"""

from __future__ import annotations

import re
from fractions import Fraction

import sympy

from implgraph.core.errors import InputError

__all__ = ["_order", "_checked_value"]


def _order(kind, order):
    """The declared order as an exact number (oo for Renyi's max-ratio order), checked for the kind; or, declared as
    a formula of the definition's parameters (``"alpha"``, ``"exp(eps)"``), that formula in positive symbols, read
    when the parameters are given (:meth:`Divergence.at`)."""
    if kind in ("kl", "tv", "zcdp"):
        if order is not None:
            raise InputError(f"Divergence({kind!r}) takes no order", fix=f'declare Divergence("{kind}", compares=...)')
        return None
    if order in ("oo", "inf") and kind == "renyi":
        return sympy.oo
    if isinstance(order, str) and _PARAM_NAME.search(order):
        return _order_formula(kind, order)
    if isinstance(order, sympy.Basic) and order.is_number:
        value = order
    elif isinstance(order, bool) or not isinstance(order, (int, Fraction, str)):
        raise InputError(f"Divergence({kind!r}): order {order!r} is not a rational number",
                         fix="declare e.g. order=2 or order=\"3/2\" (Renyi: \"oo\" for the max ratio), or a "
                             "parameter's name, order=\"alpha\"")
    else:
        value = sympy.Rational(str(order)) if not isinstance(order, Fraction) else \
            sympy.Rational(order.numerator, order.denominator)
    return _checked_value(kind, value, order)


def _checked_value(kind, value, shown_as):
    """A numeric order in its kind's range: Renyi a rational > 1 or oo, the hockey-stick a real gamma >= 1."""
    if kind == "renyi" and value is sympy.oo:
        return value
    if value.is_real is not True or value.is_finite is not True or (kind == "renyi" and not value.is_Rational):
        raise InputError(f"Divergence({kind!r}): order {shown_as} is not a finite real number"
                         + (" (Renyi: a rational, or oo)" if kind == "renyi" else ""),
                         fix="give a rational order such as 2 or 3/2 (Renyi: oo for the max ratio)")
    low_ok = value > 1 if kind == "renyi" else value >= 1
    if not low_ok:
        raise InputError(f"Divergence({kind!r}): order {shown_as} is out of range",
                         fix="Renyi needs an order > 1 (KL is the order 1), the hockey-stick a gamma >= 1")
    return value


_PARAM_NAME = re.compile(r"[A-Za-z_]")


def _order_formula(kind, text):
    """An order declared as a formula of parameters, read by the project's formula reader (nothing evaluated)."""
    from implgraph.core.formula import FUNCTIONS, parse_expr
    names = set(re.findall(r"[A-Za-z_]\w*", text)) - set(FUNCTIONS) - {"oo"}
    expr = parse_expr(text, {n: sympy.Symbol(n, positive=True) for n in names})
    if not expr.free_symbols:
        return _checked_value(kind, expr, text)
    return expr
