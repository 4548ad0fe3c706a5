"""Parsing YAML data files with line numbers (never executing them).

:func:`parse_yaml` returns plain dicts and lists, except that every mapping is a :class:`Node`
(a dict) remembering the file, its own line and the line of each key, so that every error can
name the file and the line. A file is parsed once per process (cached by name and text). This
module is a leaf: the validation of the fields of claims lives in :mod:`implgraph.io.validate`
(:func:`~implgraph.io.validate.load_yaml` parses and validates).
"""

from __future__ import annotations

import re
import os
import stat
from importlib import resources
from pathlib import Path

from implgraph.core.errors import InputError, printable

__all__ = ["Node", "parse_yaml", "read_text", "data_dir", "data_files", "use_data_files", "MAX_DATA_BYTES",
           "MAX_DEPTH", "MAX_VALUES", "EDGE_KINDS", "TABLE_CLAIM_KINDS", "THEOREM_CLAIM_KINDS"]

MAX_DATA_BYTES = 8 * 2 ** 20
"""Largest YAML data file read (bytes)."""
MAX_DEPTH = 64
"""Deepest nesting of lists and mappings in a YAML data file."""
MAX_VALUES = 1_000_000
"""Most values a YAML data file may hold once its ``*alias`` references are expanded."""
EDGE_KINDS = ("implies", "not-implies", "equivalent", "reciprocal", "generalisation")
"""Claim kinds of ``theorems/`` that state a relation between two definitions."""
TABLE_CLAIM_KINDS = ("level", "unbounded")
"""Claim kinds of a table (``counterexamples/``)."""
THEOREM_CLAIM_KINDS = ("math", "level", "map", "reachability")
"""Claim kinds of ``theorems/`` besides the edge kinds of :data:`EDGE_KINDS`."""


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


_LOADERS: list = []


def _loaders():
    """``(base, loader)``: libyaml's safe parser when installed (else PyYAML's), and the loader built on it
    that makes every mapping a :class:`Node` with line numbers. yaml is imported here, on first use."""
    if not _LOADERS:
        import yaml
        base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

        class _Loader(base):
            pass

        _Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
        _Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SCALAR_TAG, _construct_text)
        _Loader.add_constructor("tag:yaml.org,2002:int", _construct_int)
        _LOADERS.extend([base, _Loader])
    return tuple(_LOADERS)


#: characters a data file's text may not hold (escaped in quoted YAML, e.g. "\\e"): controls other than tab and
#: newline, and invisible format characters; echoed to a terminal they would act on it or hide text
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]")


def _construct_text(loader, node):
    """A text value, refused when it holds a control or invisible character (:data:`_CONTROL`)."""
    value = loader.construct_scalar(node)
    bad = _CONTROL.search(value)
    if bad:
        raise InputError(f"the text holds the control or invisible character {printable(bad.group())}",
                         file=getattr(loader, "_implgraph_file", None), line=node.start_mark.line + 1,
                         fix="write plain text (no escapes such as \\e or \\u202e)")
    return value


def _construct_int(loader, node):
    """An integer, refused in one line when it has more digits than Python converts (``sys.get_int_max_str_digits``;
    PyYAML's own constructor raises ValueError)."""
    import yaml
    try:
        return yaml.constructor.SafeConstructor.construct_yaml_int(loader, node)
    except ValueError:
        raise InputError(f"the integer {loader.construct_scalar(node)[:20]}... has too many digits",
                         file=getattr(loader, "_implgraph_file", None), line=node.start_mark.line + 1,
                         fix="write a shorter number (or a formula in quotes, e.g. \"10^400\")") from None


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


def _check_shape(text: str, name: str) -> None:
    """Refuse nesting deeper than :data:`MAX_DEPTH` and alias bombs, from the parser's events.

    libyaml's parser is iterative, so this pass is safe on any input; the value count of each
    anchored node is remembered so that every ``*alias`` counts the values it stands for.
    """
    import yaml
    sizes: dict = {}
    counts, anchors = [0], []
    loader = _loaders()[0](text)
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


_PARSED: dict = {}
"""``{file name: (text, data)}``: each data file parsed once per process (again when its text changes)."""


def parse_yaml(path) -> object:
    """Parse a YAML data file safely (no tags, no code), with line numbers on every mapping.

    The file is read with :func:`read_text` (at most :data:`MAX_DATA_BYTES`); nesting and alias
    expansion are bounded (:data:`MAX_DEPTH`, :data:`MAX_VALUES`) before anything is built. The
    result is cached by file name and text (reading is cheap, parsing is not): callers share it and
    must not change it.
    """
    name = str(path)
    text = read_text(path)
    hit = _PARSED.get(name)
    if hit is not None and hit[0] == text:
        return hit[1]
    import yaml
    loader = None
    try:
        _check_shape(text, name)
        loader = _loaders()[1](text)
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
    _PARSED[name] = (text, data)
    return data


def data_dir(kind: str) -> Path:
    """The installed directory of bundled data: ``kind`` is ``theorems`` or ``counterexamples``."""
    base = resources.files("implgraph") / "data" / kind
    path = Path(str(base))
    if path.is_dir():
        return path
    # editable / source checkout: the top-level folders
    top = Path(__file__).resolve().parents[2] / kind
    return top


_GIVEN: dict = {}
"""``{kind: (files, replace)}``: the files a command adds to the bundled data (see :func:`use_data_files`)."""


def use_data_files(kind: str, files=(), replace: bool = False) -> None:
    """Make :func:`data_files` of ``kind`` return the bundled files and ``files`` (only ``files`` when
    ``replace``); no files and no ``replace`` restores the bundled data alone. The command line's
    ``--tables`` / ``--only`` set it for the time of one command."""
    if files or replace:
        _GIVEN[kind] = ([Path(f) for f in files], replace)
    else:
        _GIVEN.pop(kind, None)


def data_files(kind: str) -> list[Path]:
    """The data files of ``kind`` (``theorems`` or ``counterexamples``): the bundled ones, sorted, then the
    files given with :func:`use_data_files` (a file given twice, or a bundled file given again, once)."""
    if kind not in _GIVEN:
        return sorted(data_dir(kind).glob("*.yaml"))
    given, replace = _GIVEN[kind]
    out = [] if replace else sorted(data_dir(kind).glob("*.yaml"))
    seen = {p.resolve() for p in out}
    for p in given:
        if p.resolve() not in seen:
            seen.add(p.resolve())
            out.append(p)
    return out
