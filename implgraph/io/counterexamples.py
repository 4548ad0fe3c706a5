"""The bundled counterexample and example tables (``counterexamples/*.yaml``), by id.

Examples
--------
>>> t = get_table("ekenstedt2022/table-III")
>>> [str(b.probs[0]) for b in t.blocks]
['mu', 'mu', 'sigma', '2*mu - sigma']
>>> [c["id"] for c in table_claims(t)][:1]
['ekenstedt2022/table-III/caption-mult-t']
"""

from __future__ import annotations

from pathlib import Path

from implgraph.io.datafile import Node, data_files
from implgraph.io.validate import load_yaml
from implgraph.core.errors import InputError
from implgraph.core.table import Table
from implgraph.io.table_data import table_from_node

__all__ = ["table_entries", "table_ids", "get_table", "all_tables", "table_claims", "table_of_claim",
           "load_tables_file"]

_ENTRIES: dict = {}
_TABLES: dict = {}


def _entries_of(path) -> list:
    data = load_yaml(path)
    if isinstance(data, Node) and "tables" in data:
        entries = data["tables"]
        if not isinstance(entries, list) or not entries:
            raise data.error("`tables:` must be a non-empty list", key="tables",
                             fix="list the tables under `tables:` (`- id: ...`, `rows: ...`)")
    elif isinstance(data, Node) and "rows" in data:
        entries = [data]
    else:
        raise InputError("not a table file (no `tables:` or `rows:`)", file=str(path),
                         fix="see docs/DATA_FORMAT.md")
    seen = set()
    for e in entries:
        if not isinstance(e, Node):
            raise InputError("each table must be a mapping", file=str(path), fix="see docs/DATA_FORMAT.md")
        tid = e.get("id")
        if tid is None and len(entries) > 1:
            raise e.error("table without `id:`", fix="give every table an id")
        if tid in seen:
            raise e.error(f"duplicate table id {tid!r}", key="id", fix="make the ids unique")
        seen.add(tid)
        for row in e.get("rows") or []:
            if isinstance(row, Node) and isinstance(row.get("class"), (list, dict)):
                raise row.error(f"this row is put in several classes ({row.get('class')}); equivalence classes "
                                "must not overlap", key="class", fix="give each row exactly one `class:` label")
        claims = e.get("claims") or []
        if not isinstance(claims, list):
            raise e.error("`claims:` must be a list", key="claims", fix="list the claims")
        for c in claims:
            if not isinstance(c, Node) or "kind" not in c:
                raise (c if isinstance(c, Node) else e).error("a claim needs `kind:`", fix="add kind: level or unbounded")
            _check_fix(e, c)
    return entries


def _check_fix(table: Node, claim: Node) -> None:
    """The symbols a claim fixes (``fix:``) must be declared by the table or the claim."""
    declared = set()
    for spec in (table.get("symbols"), claim.get("symbols")):
        if isinstance(spec, dict):
            declared |= set(map(str, spec))
    unknown = [str(k) for k in claim.get("fix") or {} if str(k) not in declared]
    if unknown:
        raise claim.error(f"`fix:` names undeclared symbol(s) {', '.join(unknown)}", key="fix",
                          fix=f"fix only declared symbols ({', '.join(sorted(declared)) or 'none'})")


_FILES: list = []
"""The counterexample files :data:`_ENTRIES` was read from (it is read again when they change)."""


def table_entries() -> dict:
    """``{table id: (Node, path)}`` over every counterexample file (the bundled ones and any added with
    ``--tables``; not validated)."""
    files = data_files("counterexamples")
    if files != _FILES:
        _ENTRIES.clear()
        _TABLES.clear()
        _FILES[:] = files
    if not _ENTRIES:
        for path in files:
            for e in _entries_of(path):
                _ENTRIES[str(e.get("id"))] = (e, str(path))
    return _ENTRIES


def table_ids() -> list:
    return list(table_entries())


def get_table(table_id: str) -> Table:
    """The validated table with this id (``InputError`` if unknown or invalid)."""
    entries = table_entries()
    if table_id in _TABLES:
        return _TABLES[table_id]
    if table_id not in entries:
        raise InputError(f"no bundled table with id {table_id!r}",
                         fix="use one of " + ", ".join(entries) + " or give a path to a YAML file")
    node, path = entries[table_id]
    table = table_from_node(node, file=path)
    _TABLES[table_id] = table
    return table


def all_tables() -> list:
    """Every bundled table, validated, in file order."""
    return [get_table(tid) for tid in table_entries()]


def table_claims(table: Table) -> list:
    """The claim mappings of a table (as written in its data file)."""
    return list(table.meta.get("claims") or [])


def table_of_claim(claim_id: str):
    """The table holding the claim ``claim_id``, or None."""
    for tid, (node, _) in table_entries().items():
        for c in node.get("claims") or []:
            if isinstance(c, Node) and str(c.get("id")) == claim_id:
                return get_table(tid)
    return None


def load_tables_file(path, table_id=None) -> list:
    """Validated tables of a YAML file given by path (all of them, or the one named ``table_id``)."""
    p = Path(path)
    if not p.exists():
        raise InputError("no such file", file=str(path), fix="check the path")
    entries = _entries_of(p)
    if table_id is not None:
        entries = [e for e in entries if str(e.get("id")) == table_id]
        if not entries:
            raise InputError(f"no table with id {table_id!r}", file=str(path), fix="check the id")
    return [table_from_node(e, file=str(p)) for e in entries]
