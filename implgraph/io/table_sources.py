"""Where each constraint of a table or claim of a data file comes from (``region_sources`` / ``when_sources``).

Every region constraint of a table and every ``when:`` constraint of a claim names its source: a
quote of the paper, ``derived: well-formedness`` (checked here: it must follow from the entries
being probabilities and the counts >= 1) or a reading (only in reading claims and tables).
"""

from __future__ import annotations

import sympy

from implgraph.core.errors import InputError
from implgraph.core.formula import parse_condition
from implgraph.core.region import Region
from implgraph.io.datafile import Node

__all__ = ["SOURCE_KINDS", "SOURCE_KEYS", "DERIVED_VALUES", "is_reading_node", "constraint_sources",
           "well_formedness", "check_derived"]

SOURCE_KINDS = ("quote", "derived", "reading")
SOURCE_KEYS = SOURCE_KINDS + ("at", "note", "paper")
DERIVED_VALUES = ("well-formedness",)


def is_reading_node(node) -> bool:
    """True for a reading claim or table: ``reading_of:`` set, or an id ending in ``-reading``."""
    cid = str(node.get("id") or "")
    return bool(node.get("reading_of")) or cid.endswith("-reading") or "-reading/" in cid


def constraint_sources(node: Node, list_key: str, reading_ok: bool = False) -> dict:
    """Validate ``<list_key>_sources`` of ``node`` and return ``{constraint text: kind}``.

    ``<list_key>_sources`` (``region_sources``, ``when_sources``) maps each constraint of the list
    ``<list_key>``, written exactly as there, to a mapping with one of ``quote:`` (the paper's
    sentence, non-empty), ``derived: well-formedness`` or ``reading:`` (why; only where
    ``reading_ok``), plus optional ``at:`` and ``note:`` text and ``paper:`` (the file name of the
    paper quoted, when it is not the data file's own paper). Absent sources give ``{}``.

    Raises
    ------
    InputError
        Sources that are not a mapping, a key that names no constraint of the list, a constraint
        without a source, an unknown key, a missing or empty source, a reading outside a reading.
    """
    key = f"{list_key}_sources"
    sources = node.get(key)
    if sources is None:
        return {}
    if not isinstance(sources, Node):
        raise node.error(f"`{key}` must map each constraint to its source", key=key,
                         fix=f"write `{key}: {{\"0 < mu\": {{quote: \"...\"}}}}`")
    listed = node.get(list_key) or []
    listed = [str(c) for c in ([listed] if isinstance(listed, str) else listed)]
    out = {}
    for cond, src in sources.items():
        line = sources.line_of(cond)
        if str(cond) not in listed:
            raise InputError(f"`{key}` names {cond!r}, which is not a constraint of `{list_key}`",
                             file=node.file, line=line,
                             fix=f"copy the constraint exactly as written in `{list_key}`")
        out[str(cond)] = _source_kind(node, key, cond, src, line, reading_ok)
    missing = [c for c in listed if c not in out]
    if missing:
        raise node.error(f"constraint {missing[0]!r} of `{list_key}` has no entry in `{key}`", key=key,
                         fix="quote the paper's sentence (`quote:`), or label it `derived: well-formedness`")
    return out


def _source_kind(node, key, cond, src, line, reading_ok) -> str:
    where = dict(file=node.file, line=getattr(src, "line", None) or line)
    if not isinstance(src, Node):
        raise InputError(f"the source of {cond!r} in `{key}` must be a mapping", **where,
                         fix="write `{quote: \"...\"}` or `{derived: well-formedness}`")
    unknown = [k for k in src if k not in SOURCE_KEYS]
    if unknown:
        raise InputError(f"unknown key `{unknown[0]}` in the source of {cond!r}", **where,
                         fix="use " + ", ".join(SOURCE_KEYS))
    kinds = [k for k in SOURCE_KINDS if k in src]
    if len(kinds) != 1:
        raise InputError(f"the source of {cond!r} needs exactly one of quote, derived, reading "
                         f"({len(kinds)} given)", **where, fix="keep one of `quote:`, `derived:`, `reading:`")
    kind = kinds[0]
    for k in src:
        if not isinstance(src[k], str) or not src[k].strip():
            raise InputError(f"`{k}` of the source of {cond!r} must be a non-empty string", **where,
                             fix=f"write the text after `{k}:`")
    if kind == "derived" and src["derived"] not in DERIVED_VALUES:
        raise InputError(f"unknown derivation {src['derived']!r} for {cond!r}", **where,
                         fix="write `derived: well-formedness` or quote the paper")
    if kind == "reading" and not reading_ok:
        raise InputError(f"{cond!r} is labelled a reading in a printed claim", **where,
                         fix="move it to a reading claim (`reading_of:`) or quote the paper's sentence")
    return kind


def well_formedness(table) -> list:
    """The constraints that make every entry of ``table`` a probability and every count >= 1."""
    out = []
    for b in table.blocks:
        out.append(sympy.sympify(b.count) >= 1)
        for v in b.probs:
            out.extend([sympy.sympify(v) >= 0, sympy.sympify(v) <= 1])
    return [c for c in out if c is not sympy.true]


def check_derived(table, node: Node) -> None:
    """Check that each region constraint labelled ``derived`` follows from the others and the
    table's well-formedness (:func:`well_formedness`); an InputError names the first that does not."""
    sources = constraint_sources(node, "region")
    derived = [c for c, kind in sources.items() if kind == "derived"]
    if not derived:
        return
    parsed = {text: parse_condition(text, table.symbols) for text in sources}
    rest = [c for text, c in parsed.items() if text not in derived and c is not sympy.true]
    base = Region(dict(table.region.kinds), tuple(rest) + tuple(well_formedness(table)))
    for text in derived:
        if base.decide(parsed[text]) is not True:
            raise InputError(f"region constraint {text!r} is labelled derived but does not follow from the "
                             "entries being probabilities and the counts >= 1", file=node.file,
                             line=node["region_sources"].line_of(text),
                             fix="quote the paper's sentence for it, or move it into a reading claim")


