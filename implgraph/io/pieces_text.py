"""Piecewise results as printed: every condition simplified on the claim's region, pieces that
contradict the region left out (:mod:`implgraph.core.conditions`).

The engine's results travel as text (``{"level": ..., "when": ...}`` pieces in a verdict's
details); the conditions are read back as sympy over the table's symbols for the simplification.
"""

from __future__ import annotations

import re

import sympy

from implgraph.core.conditions import condition_text, merge_disjuncts, pair_equalities, simplify_pieces
from implgraph.core.formula import parse_condition

__all__ = ["simplified_pieces", "pieces_text", "tidy_conditions"]

_CONDITION = re.compile(r"(?<= if )(.+?)(?=; | -> |$)")
_NAME = re.compile(r"\b([A-Za-z_][A-Za-z_0-9]*)\b(?!\s*\()")


def _read_condition(text, symbols):
    """A printed condition read back by the project's formula reader (a verdict's text may come from a file:
    it is never evaluated); ``True`` is sympy's true."""
    text = str(text).strip()
    return sympy.true if text == "True" else parse_condition(text, symbols)


def simplified_pieces(pieces, region, symbols, budget: float | None = 5.0) -> list:
    """``[(level text, condition text)]`` of JSON ``pieces`` (``level``, ``when``), simplified on ``region``.

    ``symbols``: ``{name: Symbol}`` the conditions are written in (the table's). A condition that cannot
    be read back is kept as printed.
    """
    parsed = []
    for pc in pieces:
        try:
            cond = _read_condition(pc["when"], dict(symbols))
        except Exception:              # noqa: BLE001 - text the engine printed; kept as it is
            return [(str(p["level"]), str(p["when"])) for p in pieces]
        parsed.append((str(pc["level"]), cond))
    out = []
    for level, cond in simplify_pieces(parsed, region, budget=budget):
        out.append((level, "everywhere on the region" if cond is sympy.true else condition_text(cond)))
    return out


def pieces_text(pieces) -> str:
    """``level if condition; ...`` (the form of a verdict's ``exact`` field)."""
    return "; ".join(f"{level} if {cond}" for level, cond in pieces)


def tidy_conditions(text: str) -> str:
    """``text`` (a piecewise result as the engine prints it, ``v1 if c1; v2 if c2``, possibly inside
    ``A = ...: ... -> x; B = ...``) with every condition rewritten exactly, for every value, without a
    region: bounds on one expression intersected (``a >= b & a <= b`` is ``a = b``) and disjuncts that
    differ in one bound joined. A condition that cannot be read back is left as it is.

    >>> tidy_conditions("log(3) if (4*s >= 1) & (4*s <= 1); oo if (4*s < 1) | (4*s > 1)")
    'log(3) if 4*s = 1; oo if (4*s < 1) | (4*s > 1)'
    >>> tidy_conditions("1 if (N >= E) & (N <= E); 2 if N > E")
    '1 if N = E; 2 if N > E'
    """
    def one(match):
        raw = match.group(1)
        # every name that is not called is a symbol (N, E, S, I, Q are sympy objects otherwise)
        names = {n: sympy.Symbol(n) for n in _NAME.findall(raw)}
        try:
            cond = _read_condition(raw, names)
        except Exception:              # noqa: BLE001 - text the engine printed; kept as it is
            return raw
        if not isinstance(cond, sympy.logic.boolalg.Boolean):
            return raw
        tidy = merge_disjuncts(pair_equalities(cond))
        return condition_text(tidy) if sympy.count_ops(tidy) < sympy.count_ops(cond) else raw

    return _CONDITION.sub(one, str(text))
