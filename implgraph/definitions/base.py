"""The :class:`Definition` base class and the registry of privacy definitions.

A definition is registered with :func:`register` (built-ins and in-package plugins) or through the
entry-point group ``implgraph.definitions`` (third-party packages). It declares its name, the name
of its level (``t``, ``eps``, ...), how the level relates to the optimal ratio it computes
(``scale``), which direction is stronger, its own parameters, and implements:

- :meth:`Definition.symbolic` : the optimal raw level on one piece of a parametric table, written
  against a :class:`~implgraph.core.symbolic.Ctx` (comparisons split the region where needed);
- :meth:`Definition.concrete` (optional) : the same on a :class:`~implgraph.core.concrete.ConcreteTable`
  in exact integer arithmetic, fast enough for 10^6 rows.

What else the level is (a ratio of averages over classes, a minimum class size, an additive slack, ...) is
declared as typed capabilities in ``declares`` (:mod:`implgraph.definitions.capabilities`), read with
:meth:`Definition.declared` and :meth:`Definition.has`; :func:`with_capability` filters the registry.

``scale`` names a :class:`~implgraph.definitions.scales.Scale`: ``ratio`` (the level is the ratio,
e.g. t), ``log`` (the level is the natural log of the ratio, e.g. eps = ln t), ``affine`` (the ratio
minus 1, e.g. beta), ``count`` (a size such as k of k-anonymity; larger is stronger), ``distance``
(an additive distance such as the EMD).
"""

from __future__ import annotations

import sympy

from implgraph.core.errors import InputError, printable
from implgraph.definitions._params import PARAM_KINDS, _bound, range_bound, read_param, shown  # noqa: F401
from implgraph.definitions.scales import scale_of

__all__ = ["Definition", "register", "get", "names", "all_definitions", "with_capability", "load_entry_points",
           "REGISTRY", "read_param",
           "read_shared_params", "range_bound", "shown", "PARAM_KINDS"]

REGISTRY: dict = {}
_LOAD_ERRORS: list = []


class Definition:
    """A privacy definition with an exact optimal level.

    Subclasses set the class attributes and implement :meth:`symbolic` (and optionally
    :meth:`concrete`).
    """

    name: str = ""
    title: str = ""
    level_symbol: str = "t"
    scale: str = "ratio"            # a key of implgraph.definitions.scales.SCALES
    stronger: str = "smaller"       # smaller | larger
    params: dict = {}               # parameter name -> description
    ranges: dict = {}               # parameter name -> (low, "high in N"), e.g. {"k": (1, "N - 1")}
    #: the kind of each parameter's values, ``integer`` (a group size k), ``rational`` or ``real`` (the default):
    #: a number of another kind is refused where the parameters are read (:meth:`check_params`)
    param_kinds: dict = {}
    #: the parameters that are words (text the definition reads itself, never parsed as an expression): name ->
    #: the default word, e.g. EMD's ground distance {"ground": "equal"}; every other parameter is an expression
    words: dict = {}
    reference: str = ""
    z3_shape: str | None = None     # the refuter's encoding; derived by RatioOfAverages, never declared
    #: what the level is, as typed capabilities (:mod:`implgraph.definitions.capabilities`), e.g.
    #: ``(OnClasses(), MinClassSize("k"))``; read with :meth:`declared` and :meth:`has`. A subclass's tuple replaces
    #: its base's (write ``Base.declares + (...)`` to add to it)
    declares: tuple = ()
    model: str = "other"            # the privacy model it belongs to (map colours): "closeness", "dp", "other"
    label_format: str = ""          # a human label with {param} fields, e.g. "({k},t)-closeness"

    # -- to implement --------------------------------------------------------------------------
    def symbolic(self, ctx, table, **params):
        """Optimal raw level (ratio / count / distance) on the current piece of the region."""
        raise NotImplementedError

    #: optional fast exact path: ``concrete(ct, **params)`` on a ConcreteTable returning a
    #: Fraction, INF, or None when undefined. Left as None, the symbolic path is used.
    concrete = None
    #: optional: ``concrete_finite(ct, **params)``, whether that level is finite (None: undefined), told without
    #: computing it (the grid search for A finite, B infinite asks only that). Left as None, the level is computed.
    concrete_finite = None

    # -- declared capabilities ---------------------------------------------------------------------
    def declared(self, kind):
        """The capability of type ``kind`` this definition declares, or None.

        Examples
        --------
        >>> from implgraph.definitions import get
        >>> from implgraph.definitions.capabilities import MinClassSize, TailRatio
        >>> get("alpha-k-anonymity").declared(MinClassSize), get("alpha-k-anonymity").declared(TailRatio)
        (MinClassSize(param='k'), None)
        """
        for cap in self.declares:
            if type(cap) is kind:
                return cap
        return None

    def has(self, kind) -> bool:
        """Does this definition declare a capability of type ``kind``?

        >>> from implgraph.definitions import get
        >>> from implgraph.definitions.capabilities import ClassSizeLevel
        >>> get("k-anonymity").has(ClassSizeLevel), get("dp").has(ClassSizeLevel)
        (True, False)
        """
        return self.declared(kind) is not None

    @property
    def needs_classes(self) -> bool:
        """True when the level is computed over equivalence classes (a capability about classes is declared)."""
        return any(cap.on_classes() for cap in self.declares)

    def param_ranges(self, N, **params) -> list:
        """The conditions under which the parameters are meaningful at ``N`` records (sympy relations),
        from the declared ``ranges``: ``{"k": (1, "N - 1")}`` gives ``[k >= 1, k <= N - 1]``;
        ``[]`` when there are none."""
        out = []
        for name, (low, high) in self.ranges.items():
            value = params[name]
            out += [range_bound(low, N) <= value, value <= range_bound(high, N)]
        return [bool(c) if isinstance(c, sympy.logic.boolalg.BooleanAtom) else c for c in out]

    def label(self, params=None, in_classes: bool = False) -> str:
        """A human label (map nodes) from ``label_format`` (``(2,t)-closeness``, `` (in classes)`` added
        when evaluated within classes); without one, the node's name ``NAME[k=2]`` (``@class``)."""
        if self.label_format:
            fields = {name: (params or {}).get(name) or name for name in self.params}
            return self.label_format.format(**fields) + (" (in classes)" if in_classes else "")
        inner = ",".join(f"{k}={v}" for k, v in (params or {}).items())
        return (f"{self.name}[{inner}]" if inner else self.name) + ("@class" if in_classes else "")

    # -- shared --------------------------------------------------------------------------------
    @property
    def level_scale(self):
        """The :class:`~implgraph.definitions.scales.Scale` declared by ``scale``."""
        return scale_of(self.scale)

    def level_from_raw(self, raw):
        """The level in the definition's own units (eps = ln ratio for ``scale == "log"``)."""
        return self.level_scale.to_level(raw)

    def raw_from_level(self, level):
        """The raw quantity of the level ``level`` (the inverse of :meth:`level_from_raw`)."""
        return self.level_scale.to_raw(level)

    def weakest(self, N=None):
        """The level every table of ``N`` records satisfies (oo for ratio/log/affine, 1 for count and distance, 1/N
        for a removal distance); without ``N``, the level every table of every N satisfies."""
        return self.level_scale.weakest_at(N)

    def at_least_as_strong(self, a, b):
        """True if level ``a`` is at least as strong as level ``b`` (as sympy relation)."""
        return sympy.Le(a, b) if self.stronger == "smaller" else sympy.Ge(a, b)

    def check_params(self, table, params: dict) -> dict:
        """Validate and complete the definition's parameters (raise InputError).

        Every value is read by :func:`read_param` (text through the project's formula reader, in the table's
        symbols), a word parameter must be text; a number must be real and finite, of the declared
        ``param_kinds`` and within the declared ``ranges`` (the upper bound at the table's N when it is a
        number). A value with symbols is left to the engine, which adds the ranges to its region."""
        extra = set(params) - set(self.params)
        if extra:
            raise InputError(f"{self.name} has no parameter(s) {printable(', '.join(sorted(map(str, extra))))}",
                             fix=f"its parameters are: {', '.join(self.params) or 'none'}")
        missing = set(self.params) - set(params)
        if missing:
            raise InputError(f"{self.name} needs parameter(s) {', '.join(sorted(missing))}",
                             fix="give e.g. --k 2")
        symbols = getattr(table, "symbols", None) or {}
        out = {}
        for name, value in params.items():
            if name in self.words:
                out[name] = self._read_word(name, value)
            else:
                out[name] = read_param(value, symbols, f"{self.name}: {name}")
                self._check_value(name, out[name], _table_size(table))
        return out

    def _read_word(self, name, value) -> str:
        """A word parameter (a ground distance): text of one line and bounded length."""
        if not isinstance(value, str) or len(value) > 10_000:
            raise InputError(f"{self.name}: {name} = {printable(repr(value))[:60]} is not a word",
                             fix=f"give {name} as text, e.g. {self.words[name]}")
        return str(value)

    def _check_value(self, name, value, N) -> None:
        """Refuse a number of the wrong kind, not real and finite, or outside the declared range (at ``N`` when
        it is a number)."""
        if not value.is_number:
            return
        kind = self.param_kinds.get(name, "real")
        example = {"integer": "an integer such as 2", "rational": "a rational such as 1/10"}.get(kind, "a number such as 1/2")
        if value.is_real is not True or value.is_finite is not True:
            raise InputError(f"{self.name}: {name} = {shown(value)} is not a finite real number",
                             fix=f"give {name} as {example}")
        if (kind == "integer" and not value.is_Integer) or (kind == "rational" and not value.is_Rational):
            raise InputError(f"{self.name}: {name} = {shown(value)} is not {example.split(' such')[0]}",
                             fix=f"give {name} as {example}")
        if name not in self.ranges:
            return
        low, high = (range_bound(b, N) for b in self.ranges[name])
        if (low.is_number and bool(value < low)) or (high.is_number and bool(value > high)):
            at = f" at N = {N}" if N is not None and _bound(self.ranges[name][1]).free_symbols else ""
            declared = " <= ".join((str(_bound(self.ranges[name][0])), name, str(_bound(self.ranges[name][1]))))
            raise InputError(f"{self.name}: {name} = {shown(value)} is out of its range {declared}{at}",
                             fix=f"give {low} <= {name} <= {high}" if high.is_number else f"give {name} >= {low}")

    def __repr__(self):
        return f"<Definition {self.name}>"


def register(cls):
    """Class decorator: register a :class:`Definition` subclass under its ``name``."""
    from implgraph.definitions.validation import validate_plugin
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


def _table_size(table):
    """The number of records of ``table`` when it is a number (an int), else None."""
    n = getattr(table, "N", None) if table is not None else None
    if isinstance(n, sympy.Basic):
        return int(n) if n.is_Integer else None
    return n if isinstance(n, int) else None


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

    from implgraph.definitions.validation import validate_plugin
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
