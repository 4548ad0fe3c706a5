"""Piecewise results as printed: every condition simplified on the claim's region, pieces that
contradict the region left out (:mod:`implgraph.core.conditions`).

The engine's results travel as text (``{"level": ..., "when": ...}`` pieces in a verdict's
details); the conditions are read back as sympy over the table's symbols for the simplification.
"""

from __future__ import annotations

import sympy
from sympy.parsing.sympy_parser import parse_expr

from implgraph.core.conditions import condition_text, simplify_pieces

__all__ = ["simplified_pieces", "pieces_text"]


def simplified_pieces(pieces, region, symbols, budget: float | None = 5.0) -> list:
    """``[(level text, condition text)]`` of JSON ``pieces`` (``level``, ``when``), simplified on ``region``.

    ``symbols``: ``{name: Symbol}`` the conditions are written in (the table's). A condition that cannot
    be read back is kept as printed.
    """
    parsed = []
    for pc in pieces:
        try:
            cond = parse_expr(str(pc["when"]), local_dict=dict(symbols))
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
