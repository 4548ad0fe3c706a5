"""Validation of the fields every claim of a data file shares; :func:`load_yaml` (parse and validate).

:func:`check_document` checks ``kind``, ``expect``, ``tolerance``, the shapes of common fields,
every ``definition:`` name and each table's ``show:``; other fields are validated by the code that
reads them. :func:`load_yaml` is :func:`implgraph.io.datafile.parse_yaml` followed by
:func:`check_document` (both done once per file and process).
"""

from __future__ import annotations

from implgraph.definitions import get as get_definition
from implgraph.core.errors import InputError
from implgraph.core.formula import parse_expr
from implgraph.io.table_data import make_symbols
from implgraph.core.verdict import VERDICTS
from implgraph.io.datafile import EDGE_KINDS, TABLE_CLAIM_KINDS, THEOREM_CLAIM_KINDS, Node, parse_yaml

__all__ = ["load_yaml", "check_document", "CONFIDENCE", "CHOICES", "SHAPES"]

CONFIDENCE = ("low", "medium")
CHOICES = {"bound": ("satisfies", "exact", "lower"), "scope": ("table", "class")}
"""Fields of claims (and of their ``from``/``to`` sides) that take one of a few words."""
SHAPES = {"id": str, "when": list, "family": list, "params": dict, "fix": dict, "symbols": dict,
          "from": dict, "to": dict, "reading_from": dict, "reading_to": dict}
"""Fields of claims (and of their sides) that must be a string, a list or a mapping."""

_CHECKED: dict = {}
"""``{file name: data}`` of the parsed data already validated (the same object is not checked twice)."""


def load_yaml(path) -> object:
    """Parse a YAML data file (:func:`~implgraph.io.datafile.parse_yaml`) and validate it
    (:func:`check_document`); the result is shared by every caller and must not be changed.

    Raises
    ------
    InputError
        Bad YAML or a bad common field, with the file and the line.
    """
    data = parse_yaml(path)
    if _CHECKED.get(str(path)) is not data:
        check_document(data)
        _CHECKED[str(path)] = data
    return data


def _table_claims(doc) -> list:
    if "rows" in doc:
        return [doc]
    tables = doc.get("tables")
    return [t for t in tables if isinstance(t, Node)] if isinstance(tables, list) else []


def check_document(doc) -> None:
    """Validate the fields every claim of a data file shares, and each table's ``show:``.

    ``kind`` (:data:`TABLE_CLAIM_KINDS` in tables, the edge kinds and :data:`THEOREM_CLAIM_KINDS`
    in theorem files), ``expect`` and ``reading_expect`` (a verdict word of
    :data:`implgraph.core.verdict.VERDICTS`), ``expect_confidence``, ``tolerance`` (a number >= 0) and
    every ``definition:`` name (of the claim, of ``from``/``to``/``reading_from``/``reading_to`` and of
    a map's arrows). Other fields are validated by the code that reads them.

    Raises
    ------
    InputError
        The first bad field, with the file, its line and the accepted values.
    """
    if not isinstance(doc, Node):
        return
    for table in _table_claims(doc):
        _check_show(table)
    groups = [(t.get("claims"), TABLE_CLAIM_KINDS) for t in _table_claims(doc)]
    if "rows" not in doc and "tables" not in doc:
        groups.append((doc.get("claims"), EDGE_KINDS + THEOREM_CLAIM_KINDS))
    for claims, kinds in groups:
        for claim in claims if isinstance(claims, list) else []:
            if isinstance(claim, Node):
                _check_claim(claim, kinds)


def _check_claim(claim: Node, kinds) -> None:
    kind = claim.get("kind")
    if kind is not None and kind not in kinds:
        raise claim.error(f"unknown claim kind {kind!r}", key="kind", fix="use one of " + ", ".join(kinds))
    cid = claim.get("id")
    if isinstance(cid, str) and "#" in cid:     # ID#reading names the row of a claim's reading
        raise claim.error(f"claim id {cid[:60]!r} holds '#'", key="id",
                          fix="write the id without '#' (ID#reading is the name of the claim's reading row)")
    _check_fields(claim)
    arrows = claim.get("arrows")
    for arrow in arrows if isinstance(arrows, list) else []:
        if isinstance(arrow, Node):
            _check_fields(arrow)


def _check_shapes(node: Node) -> None:
    for key, kind in SHAPES.items():
        if key in node and node[key] is not None and not isinstance(node[key], kind):
            word = {str: "a string", list: "a list", dict: "a mapping"}[kind]
            raise node.error(f"`{key}` must be {word}, got {type(node[key]).__name__}", key=key,
                             fix=f"write `{key}` as {word} (see docs/DATA_FORMAT.md)")
    for key, words in CHOICES.items():
        if key in node and node[key] not in words:
            raise node.error(f"`{key}: {node[key]}` is not one of {', '.join(words)}", key=key,
                             fix=f"use one of {', '.join(words)}")


def _check_fields(node: Node) -> None:
    _check_shapes(node)
    for key in ("expect", "reading_expect"):
        if key in node and node[key] not in VERDICTS:
            raise node.error(f"`{key}: {node[key]}` is not a verdict", key=key,
                             fix="use one of " + ", ".join(VERDICTS))
    if "expect_confidence" in node and node["expect_confidence"] not in CONFIDENCE:
        raise node.error(f"`expect_confidence: {node['expect_confidence']}` is not a confidence",
                         key="expect_confidence", fix="use low or medium (omit it when confident)")
    if "tolerance" in node:
        _check_tolerance(node)
    if "linear_program" in node:
        _check_linear_program(node)
    _check_definition(node)
    for side in ("from", "to", "reading_from", "reading_to"):
        if isinstance(node.get(side), Node):
            _check_shapes(node[side])
            _check_definition(node[side])


def _check_tolerance(node: Node) -> None:
    fix = "write the tolerance as a number >= 0, e.g. `tolerance: \"0.05\"`"
    try:
        value = parse_expr(node["tolerance"], {})
    except InputError as exc:
        raise node.error(f"bad `tolerance`: {exc.reason}", key="tolerance", fix=fix) from None
    if not (value.is_number and value.is_extended_real and value >= 0):
        raise node.error(f"`tolerance: {node['tolerance']}` is not a number >= 0", key="tolerance", fix=fix)


def _check_linear_program(node: Node) -> None:
    """``linear_program: {size, cost, ...}``: a mapping whose cost is a formula of ``dist[i, j]``, ``a[i]``,
    ``b[j]``, ``i``, ``j`` and ``n`` (read by the formula reader, never evaluated)."""
    from implgraph.core.indexed import read_cost
    spec = node["linear_program"]
    fix = 'write e.g. `linear_program: {size: n, cost: "dist[i, j]", convex_in: columns}`'
    if not isinstance(spec, Node):
        raise node.error("`linear_program` must be a mapping", key="linear_program", fix=fix)
    try:
        read_cost(str(spec.get("cost", "dist[i, j]")))
    except InputError as exc:
        raise node.error(f"bad `linear_program` cost: {exc.reason}", key="linear_program", fix=exc.fix) from None


def _check_show(table: Node) -> None:
    """``show: {definition: {param: formula}}``: known definitions, their parameters, declared symbols."""
    show = table.get("show")
    if show is None:
        return
    if not isinstance(show, Node):
        raise table.error("`show` must map definitions to parameters", key="show",
                          fix='write e.g. `show: {kt-closeness: {k: "2"}}`')
    names, _ = make_symbols(table.get("symbols"), table)
    for name, params in show.items():
        try:
            d = get_definition(str(name))
        except InputError as exc:
            raise show.error(exc.reason, key=name, fix=exc.fix) from None
        if params is None:
            continue
        if not isinstance(params, Node):
            raise show.error(f"`show: {name}` must map parameters to values", key=name,
                             fix=f'write e.g. `{name}: {{k: "2"}}`')
        for key, value in params.items():
            if key not in d.params:
                raise params.error(f"{d.name} has no parameter {key!r}", key=key,
                                   fix=f"its parameters are: {', '.join(d.params) or 'none'}")
            if key in d.words:
                continue
            try:
                parse_expr(value, names)
            except InputError as exc:
                raise params.error(exc.reason, key=key, fix=exc.fix) from None


def _check_definition(node: Node) -> None:
    if "definition" not in node:
        return
    name = node["definition"]
    try:
        get_definition(str(name))
    except InputError as exc:
        raise node.error(exc.reason, key="definition", fix=exc.fix) from None
