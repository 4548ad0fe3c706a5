"""The registry of privacy definitions, and the :class:`Definition` base class it holds
(:mod:`implgraph.definitions.definition`, named here too).

A definition is registered with :func:`register` (built-ins and in-package plugins) or through the
entry-point group ``implgraph.definitions`` (third-party packages), once its declarations pass
:mod:`implgraph.definitions.validation`; :func:`get`, :func:`names` and :func:`all_definitions` read the registry,
:func:`with_capability` filters it by a declared capability (:mod:`implgraph.definitions.capabilities`), and
:func:`read_shared_params` reads the parameters given for every definition declaring them.
"""

from __future__ import annotations

from implgraph.core.errors import InputError
from implgraph.definitions._params import PARAM_KINDS, range_bound, read_param, shown  # noqa: F401
from implgraph.definitions.definition import Definition
from implgraph.definitions.validation import validate_plugin

__all__ = ["Definition", "register", "get", "names", "all_definitions", "with_capability", "load_entry_points",
           "REGISTRY", "read_param",
           "read_shared_params", "range_bound", "shown", "PARAM_KINDS"]

REGISTRY: dict = {}
_LOAD_ERRORS: list = []


def register(cls):
    """Class decorator: register a :class:`Definition` subclass under its ``name``."""
    inst = cls() if isinstance(cls, type) else cls
    validate_plugin(inst)
    REGISTRY[inst.name] = inst
    return cls


def read_shared_params(params, N=None) -> dict:
    """The parameters given for every definition declaring them (``--param NAME=VALUE``, ``--k``, ``--ground``,
    ``levels_of(params=...)``), read and checked once: each name is a parameter some registered definition
    declares, each value is read by :func:`read_param` (a number or a formula of numbers; nothing is evaluated)
    or is a word where the definitions declare a word, and a number is of the kind and in the range (at ``N``
    records, when it is a number) of at least one definition declaring it (a definition whose range it misses
    reports its level undefined, with the reason).

    Raises
    ------
    InputError
        An unknown name, a value that is not a number, or a number no definition declaring it accepts.
    """
    if params is None:
        return {}
    if not isinstance(params, dict):
        raise InputError(f"params must be a dict of name: value, not {type(params).__name__}",
                         fix='give e.g. params={"delta": "1/100"}')
    declared: dict = {}
    for d in all_definitions():
        for name in d.params:
            declared.setdefault(name, []).append(d)
    out = {}
    for name, value in params.items():
        if value is None:
            continue
        if name not in declared:
            raise InputError(f"no registered definition has a parameter {shown(repr(name))}",
                             fix="give one of " + ", ".join(sorted(declared)))
        if any(name in d.words for d in declared[name]):
            out[name] = value
            check = _check_word
        else:
            out[name] = read_param(value, {}, name)
            if out[name].free_symbols:
                raise InputError(f"parameter {name} = {shown(value)} is not a number",
                                 fix=f"give {name} as a number such as 2 or 1/100")
            check = _check_number
        errors = []
        for d in declared[name]:
            try:
                check(d, name, out[name], N)
            except InputError as exc:
                errors.append(exc)
        if len(errors) == len(declared[name]):
            raise errors[0]
    return out


def _check_number(d, name, value, N) -> None:
    """Does ``d`` accept the number ``value`` for ``name``: its kind and range at ``N``, and the definition's own
    check where ``name`` is its only parameter besides words (delta < 1, l >= 1)? An InputError if not."""
    d._check_value(name, value, N)
    others = {p: w for p, w in d.words.items() if p != name}
    if set(d.params) <= {name, *others}:
        d.check_params(None, {**others, name: value})


def _check_word(d, name, value, N) -> None:
    """Does ``d`` accept the word ``value`` for its parameter ``name`` (its own check, its other words at their
    defaults)? An InputError if not."""
    if name not in d.words:
        raise InputError(f"{d.name}: {name} is a number, not a word", fix=f"give {name} as a number")
    if not isinstance(value, str):
        raise InputError(f"parameter {name} = {shown(repr(value))} is not a word", fix=f"give {name} as text")
    others = {p: w for p, w in d.words.items() if p != name}
    if set(d.params) <= {name, *others}:
        d.check_params(None, {**others, name: value})


def with_capability(kind) -> list:
    """The registered definitions declaring a capability of type ``kind``.

    >>> from implgraph.definitions.capabilities import TailRatio
    >>> [d.name for d in with_capability(TailRatio)]
    ['recursive-cl-diversity']
    """
    return [d for d in all_definitions() if d.has(kind)]


_ENTRY_POINTS_READ: list = []


def load_entry_points(again: bool = False):
    """Register third-party definitions from the ``implgraph.definitions`` entry-point group.

    A plugin that fails to import or register is recorded (see :func:`load_errors`) and skipped.
    The installed packages' metadata is read once per process (each reading scans every installed
    distribution, a few milliseconds, and :func:`names` is asked often); ``again=True`` reads it anew
    (a plugin installed while the process runs).
    """
    if _ENTRY_POINTS_READ and not again:
        return
    _ENTRY_POINTS_READ.append(True)
    from importlib import metadata

    try:
        eps = metadata.entry_points(group="implgraph.definitions")
    except Exception:  # pragma: no cover - broken metadata
        return
    for ep in eps:
        if ep.name in _FROM_ENTRY_POINTS:
            continue
        if ep.name in REGISTRY:
            _refuse_clash(ep.name, ep.name)
            continue
        try:
            obj = ep.load()
            if isinstance(obj, type):
                obj = obj()
            validate_plugin(obj)
            if obj.name in REGISTRY:
                _refuse_clash(ep.name, obj.name)
                continue
            REGISTRY[obj.name] = obj
            _FROM_ENTRY_POINTS.add(ep.name)
        except Exception as exc:  # a broken plugin must not take the tool down
            _LOAD_ERRORS.append(f"plugin {ep.name}: {exc.__class__.__name__}: {exc}")


#: the entry-point names registered by :func:`load_entry_points` (a second reading skips them)
_FROM_ENTRY_POINTS: set = set()


def _refuse_clash(entry, name) -> None:
    """Refuse an entry-point plugin whose definition name is already registered (a built-in's, or another
    plugin's): recorded with :func:`load_errors` and told once on stderr, one line; the registered definition
    is kept."""
    import sys
    owner = REGISTRY[name]
    what = "a built-in definition's" if type(owner).__module__.startswith("implgraph.") else "already registered"
    line = InputError(f"plugin {entry}: the name {name!r} is {what} ({type(owner).__module__}); the plugin is not "
                      "loaded", fix=f"rename the plugin, e.g. name = \"my-{name}\" and its entry point "
                                    f"my-{name}").format()
    if line not in _LOAD_ERRORS:
        _LOAD_ERRORS.append(line)
        print(f"implgraph: {line}", file=sys.stderr)


def load_errors() -> list:
    return list(_LOAD_ERRORS)


def get(name: str) -> Definition:
    """The registered definition called ``name`` (InputError if unknown)."""
    if name not in REGISTRY:
        load_entry_points(again=True)
    if name not in REGISTRY:
        raise InputError(f"unknown definition {name!r}", fix=did_you_mean(name, REGISTRY) +
                         "use one of " + ", ".join(sorted(REGISTRY)))
    return REGISTRY[name]


def did_you_mean(word, choices) -> str:
    """``"did you mean 'x'? "`` for the closest of ``choices`` to a misspelt ``word`` (difflib), or ``""``."""
    import difflib
    close = difflib.get_close_matches(str(word), [str(c) for c in choices], n=1, cutoff=0.6)
    return f"did you mean {close[0]!r}? " if close else ""


def names() -> list:
    load_entry_points()
    return list(REGISTRY)


def all_definitions() -> list:
    load_entry_points()
    return list(REGISTRY.values())
