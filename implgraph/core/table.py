"""Parametric probability tables.

A :class:`Table` is a list of :class:`Block` s. A block is one row repeated ``count`` times
(``count`` may be symbolic, e.g. ``k - 1``); its probabilities ``probs[l] = Pr(Z(c_i) in B_l)``
are exact sympy expressions in the table's declared symbols. Blocks may carry an equivalence
class label. The table's :class:`~implgraph.core.region.Region` states where its symbols live.

Validation decides, on the whole region (with z3, never by sampling), that every probability is in
[0, 1], every row sums to 1 and every block count is a positive integer.

References
----------
.. [1] E. Ekenstedt et al., "When Differential Privacy Implies Syntactic Privacy", IEEE TIFS 17, 2022,
   Section III and Appendix (Tables III-VII).
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path

import numpy as np
import sympy

from implgraph.io.datafile import Node, load_yaml, read_text
from implgraph.core.errors import InputError
from implgraph.core.formula import parse_condition, parse_expr
from implgraph.core.region import Region

__all__ = ["Block", "Table", "make_symbols", "table_from_node", "load_table_file", "load_csv",
           "table_from_rows", "constraint_sources", "well_formedness", "check_derived", "is_reading_node"]

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


@dataclass(frozen=True)
class Block:
    """One row repeated ``count`` times."""

    probs: tuple
    count: sympy.Expr = sympy.Integer(1)
    cls: str | None = None
    line: int | None = None


@dataclass
class Table:
    """A parametric probability table (records x buckets).

    Parameters
    ----------
    blocks : list of Block
    buckets : list of str
        Bucket names; ``probs`` of every block has one entry per bucket.
    region : Region
        Where the symbols live (conjunction of constraints; integer/real kinds).
    symbols : dict
        Declared symbols by name.
    """

    blocks: list
    buckets: list = field(default_factory=lambda: ["a1", "a2"])
    region: Region = field(default_factory=Region)
    symbols: dict = field(default_factory=dict)
    id: str | None = None
    source: str | None = None
    file: str | None = None
    meta: dict = field(default_factory=dict)

    # -- shape ----------------------------------------------------------------------------------
    @property
    def p(self) -> int:
        return len(self.buckets)

    @property
    def size(self) -> sympy.Expr:
        """The number of records N (an integer expression)."""
        return sympy.expand(sum((b.count for b in self.blocks), sympy.Integer(0)))

    @property
    def has_classes(self) -> bool:
        return any(b.cls is not None for b in self.blocks)

    @property
    def classes(self) -> dict:
        out: dict = {}
        for b in self.blocks:
            out.setdefault(b.cls, []).append(b)
        return out

    @property
    def free_symbols(self) -> set:
        syms = set()
        for b in self.blocks:
            syms |= sympy.sympify(b.count).free_symbols
            for v in b.probs:
                syms |= sympy.sympify(v).free_symbols
        return syms

    @property
    def is_concrete(self) -> bool:
        return not self.free_symbols

    def column(self, l: int) -> list:
        """[(value, count)] of bucket ``l``."""
        return [(b.probs[l], b.count) for b in self.blocks]

    # -- transformations ------------------------------------------------------------------------
    def subs(self, point: dict) -> "Table":
        """Instantiate symbols (exact values); the region keeps the remaining constraints."""
        def s(e):
            return sympy.nsimplify(sympy.sympify(e).subs(point)) if False else sympy.sympify(e).subs(point)
        blocks = [replace(b, probs=tuple(sympy.simplify(s(v)) for v in b.probs), count=sympy.simplify(s(b.count)))
                  for b in self.blocks]
        constraints = []
        for c in self.region.constraints:
            cc = sympy.sympify(c).subs(point)
            if cc is sympy.true:
                continue
            constraints.append(cc)
        kinds = {k: v for k, v in self.region.kinds.items() if k not in point}
        return replace(self, blocks=blocks, region=Region(kinds, tuple(constraints)))

    def restrict(self, cls) -> "Table":
        """The sub-table of one equivalence class (its rows only)."""
        return replace(self, blocks=[replace(b, cls=None) for b in self.blocks if b.cls == cls],
                       id=f"{self.id}[{cls}]" if self.id else None)

    def rows(self) -> list:
        """Expand a concrete table into rows ``(probs, cls)``."""
        out = []
        for b in self.blocks:
            n = sympy.sympify(b.count)
            if not n.is_Integer:
                raise InputError(f"block count {n} is not a number", fix="instantiate the symbols first")
            out.extend([(b.probs, b.cls)] * int(n))
        return out

    # -- validation -----------------------------------------------------------------------------
    def validate(self):
        """Decide on the whole region that the table is a valid probability table.

        Raises
        ------
        InputError
            A probability that can leave [0, 1], a row that does not sum to 1, a block count
            that can be < 1 or non-integer, classes given for some rows only, an empty region.
        """
        where = dict(file=self.file)
        if not self.blocks:
            raise InputError("the table has no rows", fix="add rows", **where)
        if self.region.constraints and self.region.is_empty() is True:
            raise InputError("the region is empty (its constraints contradict each other)",
                             fix="fix `region:`", **where)
        labelled = [b.cls is not None for b in self.blocks]
        if any(labelled) and not all(labelled):
            b = self.blocks[labelled.index(False)]
            raise InputError("this row has no class while other rows have one (classes must partition "
                             "the rows)", file=self.file, line=b.line, fix="give every row a `class:`")
        declared = set(self.region.kinds)
        for b in self.blocks:
            here = dict(file=self.file, line=b.line)
            if len(b.probs) != self.p:
                raise InputError(f"row has {len(b.probs)} probabilities for {self.p} buckets",
                                 fix=f"give one probability per bucket {self.buckets}", **here)
            syms = set()
            for v in b.probs:
                syms |= sympy.sympify(v).free_symbols
            syms |= sympy.sympify(b.count).free_symbols
            if syms - declared:
                names = ", ".join(sorted(s.name for s in syms - declared))
                raise InputError(f"undeclared symbol(s) {names}", fix="declare them under `symbols:`", **here)
            count = sympy.sympify(b.count)
            for s in count.free_symbols:
                if self.region.kinds.get(s) != "integer":
                    raise InputError(f"block count {count} uses the real symbol {s}",
                                     fix=f"declare {s} as integer", **here)
            if count.is_number and (not count.is_Integer):
                raise InputError(f"block count {count} is not an integer", fix="use an integer count", **here)
            ok = self.region.decide(count >= 1)
            if ok is not True:
                verdict = "can be below 1 (negative or empty)" if ok is None else "is below 1"
                pt = self.region.find_point(count < 1)
                at = f" e.g. at {_fmt_point(pt)}" if pt else ""
                raise InputError(f"block count {count} {verdict} on the region{at}",
                                 fix="add a region constraint that keeps every block non-empty", **here)
            total = sympy.simplify(sum(b.probs))
            if total != 1:
                ok = self.region.decide(sympy.Eq(total, 1))
                if ok is not True:
                    raise InputError(f"probabilities sum to {total}, not 1", fix="make each row sum to 1", **here)
            for l, v in enumerate(b.probs):
                for bound, rel in ((0, v >= 0), (1, v <= 1)):
                    rel = sympy.sympify(rel)
                    if rel is sympy.true:
                        continue
                    ok = self.region.decide(rel)
                    if ok is not True:
                        pt = self.region.find_point(sympy.Not(rel))
                        at = f" (e.g. at {_fmt_point(pt)})" if pt else ""
                        side = "below 0" if bound == 0 else "above 1"
                        state = "can go" if ok is None else "is"
                        raise InputError(
                            f"probability Pr(B={self.buckets[l]}) = {v} {state} {side} on the region{at}",
                            fix="tighten `region:` or correct the probability", **here)
        return self


def _fmt_point(pt) -> str:
    return ", ".join(f"{k}={v}" for k, v in sorted(pt.items(), key=lambda kv: str(kv[0])))


# -- where each constraint comes from (region_sources / when_sources) ----------------------------

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


def well_formedness(table: Table) -> list:
    """The constraints that make every entry of ``table`` a probability and every count >= 1."""
    out = []
    for b in table.blocks:
        out.append(sympy.sympify(b.count) >= 1)
        for v in b.probs:
            out.extend([sympy.sympify(v) >= 0, sympy.sympify(v) <= 1])
    return [c for c in out if c is not sympy.true]


def check_derived(table: Table, node: Node) -> None:
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


# -- construction from data ---------------------------------------------------------------------

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


def table_from_rows(rows, buckets=None, classes=None, id=None) -> Table:
    """A concrete table from Python values: ``rows[i][l]`` numbers (Fractions, ints, strings)."""
    blocks = []
    for i, r in enumerate(rows):
        if not isinstance(r, (list, tuple)):
            r = [r, 1 - sympy.Rational(r)]
        probs = tuple(sympy.Rational(str(x)) if isinstance(x, (str, float)) else sympy.sympify(x) for x in r)
        if len(probs) == 1:
            probs = (probs[0], 1 - probs[0])
        blocks.append(Block(probs=probs, cls=None if classes is None else str(classes[i]), line=i + 1))
    p = len(blocks[0].probs) if blocks else 2
    return Table(blocks=blocks, buckets=list(buckets or [f"a{i + 1}" for i in range(p)]), id=id)


def load_table_file(path, table_id: str | None = None) -> Table:
    """Load one table from a YAML data file (the only one, or the one named ``table_id``)."""
    data = load_yaml(path)
    if isinstance(data, Node) and "tables" in data:
        entries = data["tables"]
        if not isinstance(entries, list) or not entries:
            raise data.error("`tables:` must be a non-empty list", key="tables", fix="list the tables")
    elif isinstance(data, Node) and "rows" in data:
        entries = [data]
    else:
        raise InputError("not a table file (no `tables:` or `rows:`)", file=str(path),
                         fix="see docs/DATA_FORMAT.md")
    if table_id is None:
        if len(entries) != 1:
            ids = ", ".join(str(e.get("id")) for e in entries)
            raise InputError(f"the file holds {len(entries)} tables ({ids})", file=str(path),
                             fix="name one with `implgraph table ID`")
        return table_from_node(entries[0])
    for e in entries:
        if e.get("id") == table_id:
            return table_from_node(e)
    raise InputError(f"no table with id {table_id!r}", file=str(path), fix="check the id")


MAX_CSV_BYTES = 64 * 2 ** 20
"""Largest CSV read by :func:`load_csv` (bytes)."""
MAX_CSV_COLUMNS = 1000
"""Most columns of a CSV table (buckets, plus ``class``)."""
MAX_NUMBER_CHARS = 100
"""Longest number in a CSV cell (characters); exponents are bounded by the same figure."""
_EXPONENT = re.compile(r"[eE]\s*([+-]?\d+)")


def _fraction(text: str, file, line, col) -> Fraction:
    text = text.strip()
    exponent = _EXPONENT.search(text) if len(text) <= MAX_NUMBER_CHARS else None
    if len(text) > MAX_NUMBER_CHARS or (exponent and abs(int(exponent.group(1))) > MAX_NUMBER_CHARS):
        shown = text if len(text) <= 30 else text[:27] + "..."
        raise InputError(f"column {col!r}: {shown!r} is too long or its exponent too large", file=file,
                         line=line, fix=f"write at most {MAX_NUMBER_CHARS} characters and an exponent "
                         f"within +-{MAX_NUMBER_CHARS} (e.g. 0.25, 1/4 or 2.5e-1)")
    try:
        value = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise InputError(f"column {col!r}: {text!r} is not a number", file=file, line=line,
                         fix="write a decimal like 0.25 or a fraction like 1/4") from None
    return value


_FRACTION_DIGITS = re.compile(r"\.(\d+)")
_DECIMAL_CHARS = str.maketrans("", "", "0123456789. \t\n")
_TWO_DOTS = re.compile(r"\.[^\n]*\.")
_DECIMALS = re.compile(r"[ \t]*(?:\d+\.?\d*|\.\d+)[ \t]*(?:\n[ \t]*(?:\d+\.?\d*|\.\d+)[ \t]*)*")


def _load_csv_fast(text: str, name: str):
    """Vectorised exact loader for the common case: plain decimals, no quoting.

    Every decimal is an integer numerator over ``10**D`` (``D`` the most decimals seen, at most
    15). numpy parses the decimals as float64 and ``rint(x * 10**D)`` recovers the numerator
    exactly (it is below 2**51, where a correctly rounded double is off by far less than 1/2).
    Returns None whenever anything is unusual (quotes, fractions, bad values, rows that do not
    sum to 1): the careful loader then runs and reports the first problem with its line.
    """
    from implgraph.core.concrete import ConcreteTable

    if '"' in text or "\r" in text:
        return None
    head, sep, body = text.partition("\n")
    if not sep:
        return None
    header = [h.strip() for h in head.split(",")]
    has_class = bool(header) and header[0].lower() == "class"
    buckets = header[1:] if has_class else header
    if (not buckets or len(header) > MAX_CSV_COLUMNS or any(not b for b in buckets)
            or len(set(buckets)) != len(buckets)):
        return None
    body = body.rstrip("\n")
    lines = body.split("\n")
    ncol = len(header)
    if not body or any(line.count(",") != ncol - 1 for line in lines):
        return None            # blank lines, ragged rows: the careful loader handles them
    parts = body.replace("\n", ",").split(",")
    cols = [parts[j::ncol] for j in range(ncol)]
    classes = None
    if has_class:
        classes = [c.strip() for c in cols[0]]
        if not all(classes):
            return None
        cols = cols[1:]
    digits = 0
    for col in cols:
        joined = "\n".join(col)
        # only digits, dots and blanks, at most one dot per value (cheap C-level checks; anything
        # else, e.g. 1/3, 1e-3, -0.5, nan, goes to the careful loader)
        if joined.translate(_DECIMAL_CHARS) or _TWO_DOTS.search(joined):
            return None
        digits = max([digits] + [len(f) for f in _FRACTION_DIGITS.findall(joined)])
    if digits > 15:
        return None
    scale = 10 ** digits
    try:
        floats = [np.asarray(col, dtype=np.float64) for col in cols]
    except ValueError:          # an empty or malformed value such as "." or "1 2"
        return None
    numer = np.stack([np.rint(x * scale) for x in floats], axis=1)
    numer = numer.astype(np.int64)
    if numer.min() < 0 or numer.max() > scale:
        return None
    if numer.shape[1] == 1:
        numer = np.concatenate([numer, scale - numer], axis=1)
        buckets = [buckets[0], f"not {buckets[0]}"]
    elif not (numer.sum(axis=1) == scale).all():
        return None
    return ConcreteTable.from_numerators(numer, scale, buckets=buckets, classes=classes,
                                         id=Path(name).name)


def csv_records(reader, header, name):
    """``(line number, record)`` for each non-blank record after the header of a CSV reader.

    Raises
    ------
    InputError
        A record whose number of fields differs from the header's (file and line named).
    """
    for lineno, rec in enumerate(_rows(reader, name), start=2):
        if not rec or all(not x.strip() for x in rec):
            continue
        if len(rec) != len(header):
            raise InputError(f"{len(rec)} fields, header has {len(header)}", file=name, line=lineno,
                             fix="give one value per column")
        yield lineno, rec


def _rows(reader, name):
    """The records of a CSV reader; a malformed line (NUL byte, huge field) is an InputError."""
    while True:
        try:
            yield next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            raise InputError(f"malformed CSV ({exc})", file=name, line=max(reader.line_num, 1),
                             fix="save the data as plain CSV (no NUL bytes, quotes closed, fields "
                             "under 100,000 characters)") from None


def csv_header(reader, name) -> tuple[list, bool]:
    """The stripped header of a CSV reader and whether it starts with a ``class`` column.

    Raises
    ------
    InputError
        An empty file, an empty column name, a duplicate column, more than
        :data:`MAX_CSV_COLUMNS` columns (line 1 named).
    """
    header = next(_rows(reader, name), None)
    if header is None:
        raise InputError("empty CSV", file=name, fix="add a header and rows")
    if len(header) > MAX_CSV_COLUMNS:
        raise InputError(f"{len(header)} columns (at most {MAX_CSV_COLUMNS})", file=name, line=1,
                         fix="give fewer buckets")
    header = [h.strip() for h in header]
    has_class = bool(header) and header[0].lower() == "class"
    buckets = header[1:] if has_class else header
    if len(buckets) < 1 or any(not b for b in buckets):
        raise InputError("header must name the bucket columns", file=name, line=1,
                         fix="write e.g. `class,a1,a2`")
    dup = next((b for i, b in enumerate(header) if b in header[:i]), None)
    if dup is not None:
        raise InputError(f"duplicate column {dup!r}", file=name, line=1, fix="rename the columns")
    return header, has_class


def load_csv(path):
    """Load a CSV of records: optional column ``class``, then one column per bucket.

    Values are decimals (``0.25``) or fractions (``1/3``); a single bucket column ``a1`` gets its
    complement ``not a1``. Returns a :class:`~implgraph.core.concrete.ConcreteTable` (exact
    rationals).

    Raises
    ------
    InputError
        A value that is not a number or lies outside [0, 1], a row that does not sum to 1, a
        missing class label, a malformed header or row; the message names the file and the line.
    """
    from implgraph.core.concrete import ConcreteTable

    name = str(path)
    text = read_text(path, limit=MAX_CSV_BYTES, what="a UTF-8 CSV file")
    fast = _load_csv_fast(text, name)
    if fast is not None:
        return fast
    fh = io.StringIO(text, newline="")
    with fh:
        reader = csv.reader(fh)
        header, has_class = csv_header(reader, name)
        buckets = header[1:] if has_class else header
        rows, classes = [], []
        for lineno, rec in csv_records(reader, header, name):
            if has_class:
                label = rec[0].strip()
                if not label:
                    raise InputError("missing class label", file=name, line=lineno,
                                     fix="give every row a class (classes must partition the rows)")
                classes.append(label)
                rec = rec[1:]
            vals = [_fraction(x, name, lineno, buckets[j]) for j, x in enumerate(rec)]
            for j, v in enumerate(vals):
                if v < 0 or v > 1:
                    raise InputError(f"probability {rec[j].strip()} in column {buckets[j]!r} is outside [0,1]",
                                     file=name, line=lineno, fix="use a probability between 0 and 1")
            if len(vals) == 1:
                vals.append(1 - vals[0])
            elif sum(vals) != 1:
                raise InputError(f"the row's probabilities sum to {sum(vals)}, not 1", file=name, line=lineno,
                                 fix="make each row sum to 1")
            rows.append(vals)
        if not rows:
            raise InputError("no records", file=name, fix="add rows below the header")
    if len(buckets) == 1:
        buckets = [buckets[0], f"not {buckets[0]}"]
    return ConcreteTable.from_fractions(rows, buckets=buckets, classes=classes if has_class else None,
                                        id=Path(name).name)
