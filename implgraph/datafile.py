"""Loading YAML data files with line numbers (never executing them).

:func:`load_yaml` returns plain dicts and lists, except that every mapping is a :class:`Node`
(a dict) remembering the file, its own line and the line of each key, so that every error can
name the file and the line.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import yaml

from .errors import InputError

__all__ = ["Node", "load_yaml", "data_dir", "data_files"]


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


class _Loader(yaml.SafeLoader):
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


def load_yaml(path) -> object:
    """Parse a YAML data file safely (no tags, no code), with line numbers on every mapping."""
    path = Path(path)
    name = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError("no such file", file=name, fix="check the path") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read file ({exc.__class__.__name__})", file=name,
                         fix="give a UTF-8 text file") from None
    loader = _Loader(text)
    loader._implgraph_file = name
    try:
        return loader.get_single_data()
    except InputError:
        raise
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        raise InputError(f"not valid YAML: {exc.problem or exc.context}", file=name, line=line,
                         fix="check indentation and quoting") from None
    except yaml.YAMLError as exc:
        raise InputError(f"not valid YAML: {exc}", file=name, fix="check the syntax") from None
    finally:
        loader.dispose()


def data_dir(kind: str) -> Path:
    """The installed directory of bundled data: ``kind`` is ``theorems`` or ``counterexamples``."""
    base = resources.files("implgraph") / "data" / kind
    path = Path(str(base))
    if path.is_dir():
        return path
    # editable / source checkout: the top-level folders
    top = Path(__file__).resolve().parent.parent / kind
    return top


def data_files(kind: str) -> list[Path]:
    return sorted(data_dir(kind).glob("*.yaml"))
