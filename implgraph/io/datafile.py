"""Loading YAML data files with line numbers (never executing them).

:func:`load_yaml` returns plain dicts and lists, except that every mapping is a :class:`Node`
(a dict) remembering the file, its own line and the line of each key, so that every error can
name the file and the line.
"""

from __future__ import annotations

import os
import stat
from importlib import resources
from pathlib import Path

import yaml

from implgraph.core.errors import InputError

__all__ = ["Node", "load_yaml", "read_text", "check_document", "data_dir", "data_files", "MAX_DATA_BYTES",
           "MAX_DEPTH", "MAX_VALUES", "TABLE_CLAIM_KINDS", "THEOREM_CLAIM_KINDS"]

MAX_DATA_BYTES = 8 * 2 ** 20
"""Largest YAML data file read (bytes)."""
MAX_DEPTH = 64
"""Deepest nesting of lists and mappings in a YAML data file."""
MAX_VALUES = 1_000_000
"""Most values a YAML data file may hold once its ``*alias`` references are expanded."""
TABLE_CLAIM_KINDS = ("level", "unbounded")
"""Claim kinds of a table (``counterexamples/``)."""
THEOREM_CLAIM_KINDS = ("math", "level", "map", "reachability")
"""Claim kinds of ``theorems/`` besides the edge kinds of :data:`implgraph.io.theorems.EDGE_KINDS`."""
CONFIDENCE = ("low", "medium")
CHOICES = {"bound": ("satisfies", "exact", "lower"), "scope": ("table", "class")}
"""Fields of claims (and of their ``from``/``to`` sides) that take one of a few words."""
SHAPES = {"id": str, "when": list, "family": list, "params": dict, "fix": dict, "symbols": dict,
          "from": dict, "to": dict, "reading_from": dict, "reading_to": dict}
"""Fields of claims (and of their sides) that must be a string, a list or a mapping."""


class Node(dict):
    """A mapping from a data file that knows where it came from."""

    file: str | None = None
    line: int | None = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.key_lines: dict = {}

    def line_of(self, key) -> int | None:
        return self.key_lines.get(key, self.line)

    def error(self, message: str, key=None, fix: str | None = None) -> InputError:
        return InputError(message, file=self.file, line=self.line_of(key) if key else self.line, fix=fix)

    def need(self, key, types=None, fix=None):
        if key not in self:
            return_fix = fix or f"add `{key}:`"
            raise self.error(f"missing field `{key}`", fix=return_fix)
        value = self[key]
        if types is not None and not isinstance(value, types):
            names = types.__name__ if isinstance(types, type) else "/".join(t.__name__ for t in types)
            raise self.error(f"field `{key}` must be a {names}, got {type(value).__name__}", key=key,
                             fix=fix or f"write `{key}` as a {names}")
        return value


def read_text(path, limit: int = MAX_DATA_BYTES, what: str = "a UTF-8 text file") -> str:
    """The text of a regular file of at most ``limit`` bytes (UTF-8; a leading BOM is dropped).

    The file is opened without blocking and checked before anything is read, so a FIFO, a
    directory or a device such as ``/dev/zero`` is refused at once, and at most ``limit + 1``
    bytes are ever read.

    Raises
    ------
    InputError
        A missing file, a directory, a pipe or device, a file over ``limit`` bytes, bytes that are
        not UTF-8 (the line is named).
    """
    name = str(path)
    try:
        fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise InputError("no such file", file=name, fix="check the path") from None
    except IsADirectoryError:
        raise InputError("is a directory, not a file", file=name, fix=f"give {what}") from None
    except OSError as exc:
        raise InputError(f"cannot open the file ({exc.strerror})", file=name, fix="check the path and "
                         "its permissions") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        if stat.S_ISDIR(mode):
            raise InputError("is a directory, not a file", file=name, fix=f"give {what}")
        raise InputError("not a regular file (a pipe, socket or device)", file=name,
                         fix=f"save the data to a file first and give {what}")
    with os.fdopen(fd, "rb") as fh:
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise InputError(f"file larger than the limit of {limit} bytes", file=name,
                         fix="split the data or give a smaller file")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError(f"byte {data[exc.start]:#04x} is not UTF-8", file=name, line=line,
                         fix="save the file as UTF-8") from None


_BaseLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)   # libyaml's parser when installed


class _Loader(_BaseLoader):
    pass


def _construct_mapping(loader, node, deep=False):
    loader.flatten_mapping(node)
    out = Node()
    out.file = getattr(loader, "_implgraph_file", None)
    out.line = node.start_mark.line + 1
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=deep)
        try:
            hash(key)
        except TypeError:
            raise InputError("a mapping key must be a plain value", file=out.file,
                             line=key_node.start_mark.line + 1, fix="quote the key") from None
        if key in out:
            raise InputError(f"duplicate key `{key}`", file=out.file, line=key_node.start_mark.line + 1,
                             fix="remove one of the two entries")
        out[key] = loader.construct_object(value_node, deep=deep)
        out.key_lines[key] = key_node.start_mark.line + 1
    return out


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def _check_shape(text: str, name: str) -> None:
    """Refuse nesting deeper than :data:`MAX_DEPTH` and alias bombs, from the parser's events.

    libyaml's parser is iterative, so this pass is safe on any input; the value count of each
    anchored node is remembered so that every ``*alias`` counts the values it stands for.
    """
    sizes: dict = {}
    counts, anchors = [0], []
    loader = _BaseLoader(text)
    try:
        while loader.check_event():
            ev = loader.get_event()
            if isinstance(ev, yaml.CollectionStartEvent):
                counts.append(0)
                anchors.append(ev.anchor)
                if len(anchors) > MAX_DEPTH:
                    raise InputError(f"nested deeper than {MAX_DEPTH} levels", file=name,
                                     line=ev.start_mark.line + 1, fix="flatten the data")
                continue
            if isinstance(ev, yaml.CollectionEndEvent):
                n, anchor = counts.pop() + 1, anchors.pop()
            elif isinstance(ev, yaml.ScalarEvent):
                n, anchor = 1, ev.anchor
            elif isinstance(ev, yaml.AliasEvent):
                n, anchor = sizes.get(ev.anchor, 1), None
            else:
                continue
            if anchor is not None:
                sizes[anchor] = n
            counts[-1] += n
            if counts[-1] > MAX_VALUES:
                raise InputError(f"the data expands to more than {MAX_VALUES} values (YAML `*alias` "
                                 "references)", file=name, line=ev.start_mark.line + 1,
                                 fix="write the data out without nested aliases")
    finally:
        loader.dispose()


def load_yaml(path) -> object:
    """Parse a YAML data file safely (no tags, no code), with line numbers on every mapping.

    The file is read with :func:`read_text` (at most :data:`MAX_DATA_BYTES`); nesting and alias
    expansion are bounded (:data:`MAX_DEPTH`, :data:`MAX_VALUES`) before anything is built.
    """
    name = str(path)
    text = read_text(path)
    loader = None
    try:
        _check_shape(text, name)
        loader = _Loader(text)
        loader._implgraph_file = name
        data = loader.get_single_data()
    except InputError:
        raise
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        fix = "remove the `!` tag (plain values only)" if isinstance(exc, yaml.constructor.ConstructorError) \
            else "check indentation and quoting"
        raise InputError(f"not valid YAML: {exc.problem or exc.context}", file=name, line=line,
                         fix=fix) from None
    except yaml.YAMLError as exc:
        raise InputError(f"not valid YAML: {exc}", file=name, fix="check the syntax") from None
    finally:
        if loader is not None:
            loader.dispose()
    check_document(data)
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
    from implgraph.io.theorems import EDGE_KINDS
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
    from implgraph.core.verdict import VERDICTS
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
    _check_definition(node)
    for side in ("from", "to", "reading_from", "reading_to"):
        if isinstance(node.get(side), Node):
            _check_shapes(node[side])
            _check_definition(node[side])


def _check_tolerance(node: Node) -> None:
    from implgraph.core.formula import parse_expr
    fix = "write the tolerance as a number >= 0, e.g. `tolerance: \"0.05\"`"
    try:
        value = parse_expr(node["tolerance"], {})
    except InputError as exc:
        raise node.error(f"bad `tolerance`: {exc.reason}", key="tolerance", fix=fix) from None
    if not (value.is_number and value.is_extended_real and value >= 0):
        raise node.error(f"`tolerance: {node['tolerance']}` is not a number >= 0", key="tolerance", fix=fix)


def _check_show(table: Node) -> None:
    """``show: {definition: {param: formula}}``: known definitions, their parameters, declared symbols."""
    from implgraph import definitions
    from implgraph.core.formula import parse_expr
    from implgraph.core.table import make_symbols
    show = table.get("show")
    if show is None:
        return
    if not isinstance(show, Node):
        raise table.error("`show` must map definitions to parameters", key="show",
                          fix='write e.g. `show: {kt-closeness: {k: "2"}}`')
    names, _ = make_symbols(table.get("symbols"), table)
    for name, params in show.items():
        try:
            d = definitions.get(str(name))
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
            if key == "ground":
                continue
            try:
                parse_expr(value, names)
            except InputError as exc:
                raise params.error(exc.reason, key=key, fix=exc.fix) from None


def _check_definition(node: Node) -> None:
    from implgraph import definitions
    if "definition" not in node:
        return
    name = node["definition"]
    try:
        definitions.get(str(name))
    except InputError as exc:
        raise node.error(exc.reason, key="definition", fix=exc.fix) from None


def data_dir(kind: str) -> Path:
    """The installed directory of bundled data: ``kind`` is ``theorems`` or ``counterexamples``."""
    base = resources.files("implgraph") / "data" / kind
    path = Path(str(base))
    if path.is_dir():
        return path
    # editable / source checkout: the top-level folders
    top = Path(__file__).resolve().parents[2] / kind
    return top


def data_files(kind: str) -> list[Path]:
    return sorted(data_dir(kind).glob("*.yaml"))
