"""Theorems as edges: load and validate ``theorems/*.yaml``.

An :class:`Edge` is one claim between two privacy definitions (Definitions 2-3 of [1]_):
``implies`` (A(alpha) => B(f(alpha)) on a condition), ``not-implies`` (with a witness table from
``counterexamples/``), ``equivalent``, ``reciprocal`` and ``generalisation`` (A => B strictly).
Other claim kinds of the data files (``math``, ``map``, ``level`` with a mechanism) are loaded as
plain claims and validated lightly; their checkers live elsewhere.

Bad input raises :class:`~implgraph.core.errors.InputError` naming the file and line: an unknown
definition, a formula with an undeclared symbol, a condition that can never hold (an empty region),
a witness id that is not in ``counterexamples/``. An ``f`` that is not a valid level on its
condition (say t < 1 somewhere) is *not* an input error: it is a finding reported in the verdict.

References
----------
.. [1] E. Ekenstedt et al., "When Differential Privacy Implies Syntactic Privacy", IEEE TIFS 17, 2022.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import sympy

from implgraph.definitions import get as get_definition
from implgraph.io.datafile import EDGE_KINDS, Node, data_files
from implgraph.io.validate import load_yaml
from implgraph.core.errors import InputError
from implgraph.core.formula import parse_condition, parse_expr
from implgraph.core.region import Region
from implgraph.io.table_data import make_symbols
from implgraph.io.table_sources import constraint_sources, is_reading_node

__all__ = ["Edge", "Side", "load_theorems", "load_claims", "edge_from_node", "witness_ids"]


@dataclass
class Side:
    """One end of an edge: a definition, its parameters and the name of its level symbol."""

    definition: object
    params: dict
    level: sympy.Symbol
    classes: dict | None = None      # {"min_size": expr, "max_size": expr}
    scope: str = "table"
    of: str | None = None            # a note such as "k_I (the intruder's view)": not modelled

    @property
    def name(self) -> str:
        return self.definition.name

    def label(self) -> str:
        ps = ", ".join(f"{k}={v}" for k, v in self.params.items())
        return f"{self.name}({ps})" if ps else self.name


@dataclass
class Edge:
    """A parsed edge claim (see :mod:`implgraph.io.theorems`)."""

    id: str
    kind: str
    node: Node
    a: Side
    b: Side
    f: sympy.Expr | None
    g: sympy.Expr | None
    symbols: dict
    kinds: dict
    when: tuple
    region: Region
    witness: str | None = None
    reading: str | None = None
    reading_kind: str | None = None
    reading_f: sympy.Expr | None = None
    reading_a: Side | None = None
    reading_b: Side | None = None
    reading_witness: str | None = None
    reading_when: tuple = ()
    extra: dict = field(default_factory=dict)

    @property
    def printed(self) -> str:
        return str(self.node.get("printed", ""))

    @property
    def expect(self):
        return self.node.get("expect")

    def as_reading(self) -> "Edge | None":
        """The edge as the proof reads it (kind, f, from, to), or None without a reading.

        With ``reading_without_assumptions: true`` the reading is the printed statement without its
        ``assumptions:`` and ``views:`` (its node keeps everything else), judged under the literal
        definitions."""
        if not self.reading_kind:
            return None
        node = self.node
        if node.get("reading_without_assumptions") is True:
            node = Node({k: v for k, v in node.items() if k not in ("views", "assumptions")})
            node.file, node.line, node.key_lines = self.node.file, self.node.line, dict(self.node.key_lines)
        return Edge(id=self.id + "#reading", kind=self.reading_kind, node=node,
                    a=self.reading_a or self.a, b=self.reading_b or self.b,
                    f=self.reading_f if self.reading_f is not None else self.f, g=self.g,
                    symbols=self.symbols, kinds=self.kinds, when=self.when + self.reading_when,
                    region=self.region.add(*self.reading_when),
                    witness=self.reading_witness, extra=dict(self.extra, reading=True))


def witness_ids() -> set:
    """Every table id and table-claim id of ``counterexamples/*.yaml``."""
    ids = set()
    for path in data_files("counterexamples"):
        doc = load_yaml(path)
        if not isinstance(doc, dict):
            continue
        for t in doc.get("tables") or []:
            if isinstance(t, dict) and t.get("id"):
                ids.add(str(t["id"]))
                for c in t.get("claims") or []:
                    if isinstance(c, dict) and c.get("id"):
                        ids.add(str(c["id"]))
    return ids


def _side(node: Node, key: str, names: dict, kinds: dict) -> Side:
    spec = node.need(key, dict, fix=f"write `{key}: {{definition: NAME, level: SYMBOL}}`")
    name = spec.need("definition", str)
    try:
        d = get_definition(name)
    except InputError as exc:
        raise spec.error(exc.reason, key="definition", fix=exc.fix) from None
    level_name = str(spec.get("level") or d.level_symbol)
    if not level_name.isidentifier():
        raise spec.error(f"bad level symbol {level_name!r}", key="level", fix="use a plain identifier")
    if level_name not in names:
        sym = sympy.Symbol(level_name, real=True)
        names[level_name] = sym
        kinds[sym] = "real"
    params = {}
    raw = spec.get("params") or {}
    if not isinstance(raw, dict):
        raise spec.error("`params` must be a mapping", key="params", fix="write e.g. `params: {k: \"k0\"}`")
    for pk, pv in raw.items():
        if pk not in d.params:
            raise spec.error(f"{d.name} has no parameter {pk!r}", key="params",
                             fix=f"its parameters are: {', '.join(d.params) or 'none'}")
        if pk in d.words:           # a word the definition reads itself (EMD's ground: equal), never a formula
            params[pk] = _word(spec, pv, raw, pk)
        else:
            params[pk] = _expr(spec, "params", pv, names, where=raw, line_key=pk)
    classes = None
    if spec.get("classes") is not None:
        cl = spec["classes"]
        if not isinstance(cl, dict):
            raise spec.error("`classes` must be a mapping", key="classes", fix="write `classes: {min_size: \"k\"}`")
        classes = {ck: _expr(spec, "classes", cv, names) for ck, cv in cl.items()}
    return Side(definition=d, params=params, level=names[level_name], classes=classes,
                scope=str(spec.get("scope") or "table"), of=spec.get("of"))


def _word(node: Node, value, where, key):
    """A word parameter's value (one line of printable characters; the definition checks the word itself) as a
    sympy ``Str``: an atom that prints as the word, has no free symbols, and that ``sympify`` returns unchanged,
    so the text is never parsed by any consumer of the side's parameters."""
    from sympy.core.symbol import Str
    text = str(value)
    if isinstance(value, (dict, list)) or not text.strip() or len(text) > 1000 or not text.isprintable():
        raise InputError(f"bad word for parameter {key!r}: {text[:40]!r}", file=node.file,
                         line=where.line_of(key) if isinstance(where, Node) else None,
                         fix=f'write e.g. `{key}: equal`')
    return Str(text.strip())


def _expr(node: Node, key, text, names, where=None, line_key=None):
    try:
        return parse_expr(str(text), names)
    except InputError as exc:
        line_node = where if isinstance(where, Node) else node
        line = line_node.line_of(line_key or key)
        raise InputError(exc.reason, file=node.file, line=line,
                         fix=exc.fix or "declare the symbol under `symbols:`") from None


def _cond(node: Node, key, text, names):
    try:
        return parse_condition(str(text), names)
    except InputError as exc:
        raise InputError(exc.reason, file=node.file, line=node.line_of(key),
                         fix=exc.fix or "declare the symbol under `symbols:`") from None


def _conditions(node: Node, key: str, names: dict, reading_ok: bool) -> tuple:
    """The parsed conditions of the list ``key`` (``when``, ``reading_when``), their
    ``<key>_sources`` validated (see :func:`implgraph.io.table_sources.constraint_sources`)."""
    items = node.get(key) or []
    if not isinstance(items, list):
        raise node.error(f"`{key}` must be a list of conditions", key=key, fix=f"write `{key}: [\"k >= 1\"]`")
    constraint_sources(node, key, reading_ok=reading_ok)
    return tuple(_cond(node, key, w, names) for w in items)


def edge_from_node(node: Node, known_witnesses: set | None = None) -> Edge:
    """Parse and validate one edge claim (kinds of :data:`EDGE_KINDS`)."""
    cid = str(node.need("id", str))
    kind = str(node.need("kind", str))
    names, kinds = make_symbols(node.get("symbols") or {}, node)
    a = _side(node, "from", names, kinds)
    b = _side(node, "to", names, kinds)
    f = _expr(node, "f", node["f"], names) if node.get("f") is not None else None
    g = _expr(node, "g", node["g"], names) if node.get("g") is not None else None
    conds = _conditions(node, "when", names, reading_ok=is_reading_node(node))
    reading_when = tuple(c for c in _conditions(node, "reading_when", names, reading_ok=True)
                         if c is not sympy.true)
    if reading_when and not node.get("reading_kind"):
        raise node.error("`reading_when` restricts a reading, but the claim has no `reading_kind`",
                         key="reading_when", fix="add `reading_kind:` (and `reading:`) or remove `reading_when`")
    # implicit domains: the level symbols are valid levels
    dom = []
    for side in (a, b):
        d = side.definition
        dom.extend(d.level_scale.domain(side.level))
    region = Region(dict(kinds), tuple(c for c in conds if c is not sympy.true))
    if region.is_empty() is True:
        raise node.error("the condition `when` can never hold (the region is empty)", key="when",
                         fix="correct the conditions")
    if Region(dict(kinds), region.constraints + tuple(dom)).is_empty() is True:
        raise node.error("the condition `when` contradicts the levels' ranges (t >= 1, eps >= 0)", key="when",
                         fix="correct the conditions")
    for key in ("witness", "reading_witness"):
        wid = node.get(key)
        if wid is not None and known_witnesses is not None and str(wid) not in known_witnesses:
            raise node.error(f"witness {wid!r} is not a table in counterexamples/", key=key,
                             fix="use the id of a table in counterexamples/*.yaml")
    for key in ("witness_claim", "reading_witness_claim"):
        wid = node.get(key)
        if wid is not None and known_witnesses is not None and str(wid) not in known_witnesses:
            raise node.error(f"witness claim {wid!r} is not in counterexamples/", key=key,
                             fix="use the id of a table claim in counterexamples/*.yaml")
    if kind == "implies" and f is None:
        raise node.error("an `implies` edge needs `f`", fix="add `f:` (B's level as a function of A's level)")
    reading_kind = node.get("reading_kind")
    if reading_kind is not None and reading_kind not in EDGE_KINDS:
        raise node.error(f"unknown reading_kind {reading_kind!r}", key="reading_kind",
                         fix="use one of " + ", ".join(EDGE_KINDS))
    reading_a = _side(node, "reading_from", names, kinds) if node.get("reading_from") else None
    reading_b = _side(node, "reading_to", names, kinds) if node.get("reading_to") else None
    reading_f = _expr(node, "reading_f", node["reading_f"], names) if node.get("reading_f") else None
    return Edge(id=cid, kind=kind, node=node, a=a, b=b, f=f, g=g, symbols=names, kinds=dict(kinds),
                when=conds, region=region, witness=node.get("witness"),
                reading=node.get("reading"), reading_kind=reading_kind, reading_f=reading_f,
                reading_a=reading_a, reading_b=reading_b, reading_witness=node.get("reading_witness"),
                reading_when=reading_when)


def load_claims(paths=None, kinds=("theorems", "counterexamples")) -> list:
    """Every claim node of the data files (theorem claims and table claims), in file order.

    Table claims carry ``_table`` (the table's id) so that checkers can find their table.
    """
    out = []
    for kind in kinds:
        files = data_files(kind) if paths is None else [Path(p) for p in paths if Path(p).parent.name == kind]
        for path in files:
            doc = load_yaml(path)
            if not isinstance(doc, dict):
                raise InputError("a data file must be a mapping", file=str(path), line=1,
                                 fix="start with `paper:` and `claims:` (or `tables:`)")
            if kind == "theorems":
                claims = doc.get("claims") or []
                if not isinstance(claims, list):
                    raise doc.error("`claims` must be a list", key="claims", fix="write `claims:` then `- id: ...`")
                for c in claims:
                    if not isinstance(c, dict):
                        raise doc.error("every claim must be a mapping", key="claims", fix="start each claim with `- id:`")
                    c["_origin"] = "theorems"
                    out.append(c)
            else:
                for t in doc.get("tables") or []:
                    if not isinstance(t, dict):
                        continue
                    for c in t.get("claims") or []:
                        if isinstance(c, dict):
                            c["_origin"] = "counterexamples"
                            c["_table"] = str(t.get("id"))
                            c["_table_file"] = str(path)
                            out.append(c)
    return out


def load_theorems(paths=None) -> list:
    """Load and validate every edge of ``theorems/*.yaml``; returns the list of :class:`Edge`.

    Claims of other kinds are validated lightly (an id and a kind; ``map`` arrows must name
    existing claims). Raises :class:`InputError` on bad input.
    """
    known = witness_ids()
    claims = [c for c in load_claims(paths, kinds=("theorems",))]
    ids = {str(c.get("id")) for c in claims}
    seen = set()
    edges = []
    for c in claims:
        cid = c.need("id", str)
        c.need("kind", str)
        if cid in seen:
            raise c.error(f"duplicate claim id {cid!r}", key="id", fix="give every claim its own id")
        seen.add(cid)
        if c["kind"] not in EDGE_KINDS:
            constraint_sources(c, "when", reading_ok=is_reading_node(c))
            constraint_sources(c, "reading_when", reading_ok=True)
            for inst in c.get("instantiations") or []:
                if isinstance(inst, Node):
                    constraint_sources(inst, "when")
        if c["kind"] in EDGE_KINDS:
            edges.append(edge_from_node(c, known))
        elif c["kind"] == "map":
            for arrow in c.get("arrows") or []:
                if isinstance(arrow, Node):
                    constraint_sources(arrow, "when")
                if isinstance(arrow, dict) and arrow.get("claim") and str(arrow["claim"]) not in ids:
                    raise arrow.error(f"arrow names unknown claim {arrow['claim']!r}", key="claim",
                                      fix="use the id of a claim in theorems/*.yaml")
    return edges
