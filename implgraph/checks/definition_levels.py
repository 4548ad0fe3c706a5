"""The levels :mod:`implgraph.checks.definition_check` compares: a definition's raw level on a concrete table by its
fast path and by its symbolic path, their exact comparison, and the record of one check."""

from __future__ import annotations

from dataclasses import dataclass

import sympy

from implgraph.core.simplified import plain_simplify

__all__ = ["Check", "raw_level"]


@dataclass
class Check:
    """One check: ``name``, ``ok``, a line of ``detail`` and, when it fails, the ``table`` (rows, classes)."""

    name: str
    ok: bool
    detail: str = ""
    table: tuple | None = None


def _symbolic(d, rows, labels, params):
    """The symbolic path's raw level on a concrete table (one value), or None where undefined."""
    from implgraph.core.pieces import piecewise
    from implgraph.core.table import table_from_rows
    table = table_from_rows(rows, classes=labels)
    if d.needs_classes and not table.has_classes:
        return None
    checked = d.check_params(table, params)
    pieces = piecewise(table.region, lambda ctx: d.symbolic(ctx, table, **checked))
    values = {str(p.value) for p in pieces}
    if len(values) != 1:
        raise ValueError(f"the symbolic level splits a concrete table into {len(pieces)} pieces")
    return pieces[0].value


def _concrete(d, rows, labels, params):
    """The fast path's raw level (sympy), None where undefined; ``NotImplemented`` without a fast path."""
    from implgraph.core.concrete import ConcreteTable, to_sympy
    from implgraph.definitions.levels import _concrete_raw, _NO_FAST_PATH, has_fast_path
    if not has_fast_path(d):
        return NotImplemented
    ct = ConcreteTable.from_fractions(rows, classes=labels)
    if d.needs_classes and ct.classes is None:
        return None
    from implgraph.core.table import table_from_rows
    raw = _concrete_raw(d, ct, d.check_params(table_from_rows(rows, classes=labels), params))
    return None if raw is None or raw is _NO_FAST_PATH else to_sympy(raw)


def _same(a, b) -> bool:
    if a is None or b is None or a is sympy.oo or b is sympy.oo:
        return a == b
    a, b = sympy.sympify(a), sympy.sympify(b)
    if a == b:
        return True
    diff = a - b
    if plain_simplify(diff) == 0:
        return True
    if a.is_positive and b.is_positive:        # products of powers (an entropy): compare their logarithms
        return plain_simplify(sympy.expand_log(sympy.log(a) - sympy.log(b), force=True)) == 0
    return False


def raw_level(d, rows, labels, params):
    """The table's raw level: the fast path's where the definition has one, else the symbolic path's."""
    value = _concrete(d, rows, labels, params)
    return _symbolic(d, rows, labels, params) if value is NotImplemented else value
