"""A table from its mapping in a YAML data file (``counterexamples/``, ``implgraph table FILE``).

:func:`table_from_node` reads one entry of a data file (symbols, buckets, region, rows) into a validated
:class:`~implgraph.core.table.Table`, checking where each region constraint comes from
(:mod:`implgraph.io.table_sources`); :func:`make_symbols` reads a ``symbols:`` mapping, here and for claims.
"""

from __future__ import annotations

import sympy

from implgraph.core.errors import InputError
from implgraph.core.formula import parse_condition, parse_expr
from implgraph.core.region import Region
from implgraph.core.table import Block, Table
from implgraph.io.datafile import Node
from implgraph.io.table_sources import check_derived, constraint_sources, is_reading_node

__all__ = ["make_symbols", "table_from_node", "KINDS"]

KINDS = ("real", "integer")


def make_symbols(spec, node: Node | None = None, key="symbols") -> tuple[dict, dict]:
    """``{"mu": "real", "N": "integer"}`` -> (name -> Symbol, Symbol -> kind)."""
    names, kinds = {}, {}
    if spec is None:
        return names, kinds
    if not isinstance(spec, dict):
        raise (node.error("`symbols` must map names to real or integer", key=key,
                          fix="write e.g. `symbols: {mu: real, N: integer}`") if node else
               InputError("symbols must be a mapping"))
    for name, kind in spec.items():
        if not isinstance(name, str) or not name.isidentifier():
            raise (node or Node()).error(f"bad symbol name {name!r}", key=key, fix="use a plain identifier")
        if kind not in KINDS:
            line_node = spec if isinstance(spec, Node) else node
            raise (line_node or Node()).error(f"symbol {name} has kind {kind!r}", key=name,
                                              fix="use `real` or `integer`")
        sym = sympy.Symbol(name, integer=True) if kind == "integer" else sympy.Symbol(name, real=True)
        names[name] = sym
        kinds[sym] = kind
    return names, kinds


def table_from_node(node: Node, file: str | None = None, validate: bool = True) -> Table:
    """Build (and validate) a table from one entry of a ``counterexamples/`` file."""
    names, kinds = make_symbols(node.get("symbols"), node)
    buckets = node.get("buckets", ["a1", "a2"])
    if not isinstance(buckets, list) or len(buckets) < 2 or len(set(map(str, buckets))) != len(buckets):
        raise node.error("`buckets` must list at least two distinct bucket names", key="buckets",
                         fix="write e.g. `buckets: [a1, a2]`")
    buckets = [str(b) for b in buckets]
    binary = node.get("binary", len(buckets) == 2)
    region_spec = node.get("region", [])
    if isinstance(region_spec, str):
        region_spec = [region_spec]
    constraints = []
    for i, c in enumerate(region_spec):
        try:
            constraints.append(parse_condition(c, names))
        except InputError as e:
            raise e.at(node.file, node.line_of("region")) from None
    region = Region(kinds, tuple(constraints))
    rows = node.need("rows", list, fix="list the rows under `rows:`")
    blocks = []
    for row in rows:
        if not isinstance(row, Node):
            raise node.error("each row must be a mapping like {p: mu}", key="rows", fix="write `- {p: \"mu\"}`")
        blocks.append(_block(row, names, buckets, binary))
    table = Table(blocks=blocks, buckets=buckets, region=region, symbols=names, id=node.get("id"),
                  source=node.get("source"), file=node.file or file, meta=dict(node))
    _check_sources(node)
    if validate:
        table.validate()
        check_derived(table, node)
    return table


def _check_sources(node: Node) -> None:
    """Validate ``region_sources`` of a table and ``when_sources`` of each of its claims."""
    constraint_sources(node, "region", reading_ok=is_reading_node(node))
    for claim in node.get("claims") or []:
        if isinstance(claim, Node):
            constraint_sources(claim, "when", reading_ok=is_reading_node(claim))


def _block(row: Node, names, buckets, binary) -> Block:
    p = row.need("p", fix="give the row's probability as `p:`")
    try:
        if isinstance(p, list):
            probs = tuple(parse_expr(x, names) for x in p)
            if binary and len(probs) == 1:
                probs = (probs[0], 1 - probs[0])
        else:
            v = parse_expr(p, names)
            if len(buckets) != 2:
                raise InputError(f"a single probability is only allowed for two buckets ({len(buckets)} given)",
                                 fix="give a list, one probability per bucket")
            probs = (v, 1 - v)
        count = parse_expr(row.get("count", 1), names)
    except InputError as e:
        raise e.at(row.file, row.line) from None
    cls = row.get("class")
    return Block(probs=probs, count=count, cls=None if cls is None else str(cls), line=row.line)
