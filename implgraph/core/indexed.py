"""A transport program's cost read from a data file: a formula of the indexed names ``dist``, ``a``, ``b`` and of
``i``, ``j``, ``n`` (``dist[i, j]``), by the safe formula reader (:func:`implgraph.core.formula.parse_expr`).

>>> read_cost("2*dist[i, j] + a[i]")
a[i] + 2*dist[i, j]
"""

from __future__ import annotations

import re

import sympy

from implgraph.core.formula import parse_expr

__all__ = ["read_cost"]

_INDEXED = re.compile(r"\b(dist|a|b)\s*\[\s*([ij])\s*(?:,\s*([ij])\s*)?\]")


def read_cost(text, names=None):
    """The program's cost (``dist[i, j]``, a formula of the indexed names ``dist``, ``a``, ``b`` and of ``i``,
    ``j``, ``n``) read by the formula reader: each indexed name is read as a placeholder symbol and put back (text
    from a data file is never evaluated)."""
    if names is None:
        names = {s: sympy.Symbol(s, integer=True, positive=True) for s in ("i", "j", "n")}
        names.update({base: sympy.IndexedBase(base) for base in ("dist", "a", "b")})
    slots = {}

    def slot(m):
        key = "_".join(("", m.group(1), m.group(2), m.group(3) or ""))
        slots[key] = names[m.group(1)][tuple(names[x] for x in m.group(2, 3) if x)]
        return key

    plain = _INDEXED.sub(slot, text)
    placeholders = {k: sympy.Symbol(k) for k in slots}
    value = parse_expr(plain, {**{k: names[k] for k in ("i", "j", "n")}, **placeholders})
    return value.xreplace({placeholders[k]: v for k, v in slots.items()})
