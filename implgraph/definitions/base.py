"""The :class:`Definition` base class and the registry of privacy definitions.

A definition is registered with :func:`register` (built-ins and in-package plugins) or through the
entry-point group ``implgraph.definitions`` (third-party packages). It declares its name, the name
of its level (``t``, ``eps``, ...), how the level relates to the optimal ratio it computes
(``scale``), which direction is stronger, its own parameters, and implements:

- :meth:`Definition.symbolic` : the optimal raw level on one piece of a parametric table, written
  against a :class:`~implgraph.core.symbolic.Ctx` (comparisons split the region where needed);
- :meth:`Definition.concrete` (optional) : the same on a :class:`~implgraph.core.concrete.ConcreteTable`
  in exact integer arithmetic, fast enough for 10^6 rows.

``scale`` names a :class:`~implgraph.definitions.scales.Scale`: ``ratio`` (the level is the ratio,
e.g. t), ``log`` (the level is the natural log of the ratio, e.g. eps = ln t), ``affine`` (the ratio
minus 1, e.g. beta), ``count`` (a size such as k of k-anonymity; larger is stronger), ``distance``
(an additive distance such as the EMD).
"""

from __future__ import annotations

import keyword
import re
from functools import lru_cache

import sympy

from implgraph.core.errors import InputError, printable
from implgraph.definitions.scales import SCALES, scale_of

__all__ = ["Definition", "register", "get", "names", "all_definitions", "load_entry_points", "REGISTRY", "read_param",
           "read_shared_params", "range_bound", "shown", "PARAM_KINDS"]

REGISTRY: dict = {}
_LOAD_ERRORS: list = []


_N = sympy.Symbol("N")


#: the kinds a parameter may declare (``param_kinds``): its values are integers, rationals or real numbers
PARAM_KINDS = ("integer", "rational", "real")

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_DEFINITION_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*")


@lru_cache(maxsize=None)
def _bound(text):
    """A declared range bound (``1``, ``"N - 1"``) as a sympy expression in ``N``, parsed once with the
    project's formula reader (a plugin's declaration is text like any other: never evaluated)."""
    from implgraph.core.formula import parse_expr
    return parse_expr(text, {"N": _N})


def range_bound(bound, N=None):
    """A declared range bound (``1``, ``"N - 1"``) as a sympy expression, at ``N`` when given (a number or a
    symbol; the bound's ``N`` is replaced by it)."""
    value = _bound(bound)
    return value if N is None else value.xreplace({_N: sympy.Integer(N) if isinstance(N, int) else N})


def read_param(value, symbols=None, name: str = "parameter"):
    """A parameter value given by a user (command line, API, data file) as an exact sympy expression.

    Text goes through the project's formula reader (:func:`implgraph.core.formula.parse_expr`, with the
    ``symbols`` declared; nothing is evaluated), an int or a Fraction is exact, a finite float is read from
    its shortest text (``0.1`` is 1/10) and a sympy expression is kept; anything else is an InputError.
    """
    from fractions import Fraction

    from implgraph.core.formula import parse_expr
    if isinstance(value, sympy.Expr):
        return value
    if isinstance(value, bool) or not isinstance(value, (str, int, float, Fraction)):
        raise InputError(f"parameter {printable(name)}: {printable(repr(value))[:60]} is not a number or formula",
                         fix=f"give {printable(name)} as a number such as 2 or 1/100")
    if isinstance(value, Fraction):
        return sympy.Rational(value.numerator, value.denominator)
    if isinstance(value, int):
        return sympy.Integer(value)
    try:
        return parse_expr(value if isinstance(value, str) else repr(value), dict(symbols or {}))
    except InputError as exc:
        fix = exc.fix if "undeclared symbol" not in exc.reason or symbols else \
            f"give {printable(name)} as a number such as 2 or 1/100"
        raise InputError(f"{printable(name)}: {exc.reason}", fix=fix) from None


def shown(value, width: int = 60) -> str:
    """``value`` as text for a message: control characters escaped, cut to ``width`` characters."""
    text = printable(value)
    return text if len(text) <= width else text[:width] + "..."


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
    needs_classes: bool = False
    reference: str = ""
    z3_shape: str | None = None     # the refuter's encoding; derived by RatioOfAverages, never declared
    family: str | None = None       # the record sets it compares: "pairwise", "subset" (j-subsets), "class"
    #: the definition (name) whose optimal level this one's equals wherever this one's is finite, in the same
    #: units: this one adds a condition that makes the rest infinite (enhanced beta-likeness: basic's plus a
    #: bound on each value); the prover reads it (``finite-level-of``), tests check it against the brute force
    finite_level_of: str | None = None
    #: with ``finite_level_of``, the condition that makes the level finite: each class's increase q/p - 1 over the
    #: table's p, on a value with p < q, is at most this cap (``"-log(p)"``: enhanced beta-likeness, D(p, q) <= -ln p).
    #: The checker computes the level itself (exactly); the prover reads it (spreading each value over m buckets of
    #: mass p/m raises -ln p by ln m, so a table of the other definition meets the cap once m >= e^level)
    increase_cap: str | None = None
    #: True: the optimal level is the number of records of the smallest class (larger is stronger), so at level k
    #: every class has >= k records (k-anonymity); the prover reads it (``class-size``), tests check it against the
    #: brute force
    class_size_level: bool = False
    #: the parameter that is a minimum class size: the level is infinite on a table with a class of fewer records
    #: ((alpha,k)-anonymity's k), so every table where it is finite has classes of >= that many records; the
    #: prover reads it (B's ceiling over those classes), tests check it against the brute force
    min_class_param: str | None = None
    #: where the level's constraints read a <= e^level b + delta (an additive slack, the parameter ``delta``) on every
    #: output event (a union of buckets): the records compared, "removal" (the table against the table without one
    #: record, (eps,delta)-DP) or "pairs" (one record against another, (eps,delta)-LDP); None otherwise. The checker
    #: computes such a level itself; the prover reads it (a record within delta of the others leaves A at its
    #: strongest level), tests check it against the brute force
    slack_compares: str | None = None
    #: the parameter l where the level is ``max(1, max_E r_1 / (r_l + ... + r_m))`` over the classes E, r_1 >= r_2 >= ...
    #: the class's frequencies (recursive (c,l)-diversity); None otherwise. The checker computes such a level itself;
    #: the prover reads it (classes uniform over l values of their own are at level 1, the strongest), tests check it
    #: against the brute force
    tail_ratio_param: str | None = None
    model: str = "other"            # the privacy model it belongs to (map colours): "closeness", "dp", "other"
    label_format: str = ""          # a human label with {param} fields, e.g. "({k},t)-closeness"

    # -- to implement --------------------------------------------------------------------------
    def symbolic(self, ctx, table, **params):
        """Optimal raw level (ratio / count / distance) on the current piece of the region."""
        raise NotImplementedError

    #: optional fast exact path: ``concrete(ct, **params)`` on a ConcreteTable returning a
    #: Fraction, INF, or None when undefined. Left as None, the symbolic path is used.
    concrete = None

    # -- declared facts the engine derives views from --------------------------------------------
    def subset_size(self, N, **params):
        """The size j of the record subsets a ``family = "subset"`` definition compares with the
        whole table (k, N - k, N - 1, ...), symbolic in ``N`` and the parameters; None otherwise."""
        return None

    def class_distance(self, **params):
        """The distance between a class's bucket distribution and the table's that the level is, on a
        class level that is one (``"total-variation"``: half the sum of the absolute differences, the
        largest over the classes), at ``params``; None otherwise. The prover reads it
        (``class-distance``), tests check it against the brute force."""
        return None

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

    def weakest(self):
        """The level every table satisfies (oo for ratio/log/affine, 1 for count and distance)."""
        return self.level_scale.weakest

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
    inst = cls() if isinstance(cls, type) else cls
    _validate_plugin(inst)
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


def _validate_plugin(inst):
    """Refuse a definition whose declarations cannot be read: its name (the node grammar), level symbol and
    parameter names (identifiers), kinds, words and ranges (each bound read by the formula reader in N)."""
    if not isinstance(inst, Definition):
        raise InputError(f"plugin {printable(repr(inst))[:80]} is not a Definition", fix="subclass implgraph.Definition")
    if not inst.name or not isinstance(inst.name, str):
        raise InputError(f"plugin {type(inst).__name__} has no name", fix="set `name = \"...\"`")
    if not _DEFINITION_NAME.fullmatch(inst.name):
        raise InputError(f"plugin {printable(repr(inst.name))[:80]}: a name is letters, digits, _ . and -",
                         fix="rename it, e.g. name = \"my-definition\"")
    if inst.scale not in SCALES:
        raise InputError(f"plugin {inst.name}: scale {printable(repr(inst.scale))}", fix="use " + ", ".join(SCALES))
    if inst.stronger not in ("smaller", "larger"):
        raise InputError(f"plugin {inst.name}: stronger {printable(repr(inst.stronger))}", fix="use smaller or larger")
    if not _is_identifier(inst.level_symbol) or inst.level_symbol == "N":
        raise InputError(f"plugin {inst.name}: level_symbol {printable(repr(inst.level_symbol))[:60]} is not a name",
                         fix="give a name such as t or eps (letters, digits and _; not N)")
    params, ranges, kinds, words = (getattr(inst, a) for a in ("params", "ranges", "param_kinds", "words"))
    if not all(isinstance(x, dict) for x in (params, ranges, kinds, words)):
        raise InputError(f"plugin {inst.name}: params, ranges, param_kinds and words must be dicts",
                         fix="declare e.g. params = {\"k\": \"a group size\"}, ranges = {\"k\": (1, \"N - 1\")}")
    bad = [p for p in params if not _is_identifier(p) or p == "N"]
    if bad:
        raise InputError(f"plugin {inst.name}: parameter name {printable(repr(bad[0]))[:60]} is not a name",
                         fix="name parameters with letters, digits and _ (not N)")
    undeclared = [p for p in list(ranges) + list(kinds) + list(words) if p not in params]
    if undeclared:
        raise InputError(f"plugin {inst.name}: {printable(repr(undeclared[0]))[:60]} is not one of its params",
                         fix="declare it in params, or remove it from ranges, param_kinds and words")
    for p, kind in kinds.items():
        if kind not in PARAM_KINDS:
            raise InputError(f"plugin {inst.name}: param_kinds[{p!r}] = {printable(repr(kind))[:60]}",
                             fix="use " + ", ".join(PARAM_KINDS))
    for p, bounds in ranges.items():
        if not (isinstance(bounds, (tuple, list)) and len(bounds) == 2):
            raise InputError(f"plugin {inst.name}: ranges[{p!r}] is not a pair (low, high)",
                             fix="declare e.g. ranges = {\"k\": (1, \"N - 1\")}")
        for b in bounds:
            try:
                _bound(b)
            except InputError as exc:
                raise InputError(f"plugin {inst.name}: ranges[{p!r}]: {exc.reason}",
                                 fix="write each bound as a number or a formula in N, e.g. \"N - 1\"") from None


def _is_identifier(text) -> bool:
    return isinstance(text, str) and bool(_IDENTIFIER.fullmatch(text)) and not keyword.iskeyword(text)


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
        if ep.name in REGISTRY:
            continue
        try:
            obj = ep.load()
            if isinstance(obj, type):
                obj = obj()
            _validate_plugin(obj)
            REGISTRY[obj.name] = obj
        except Exception as exc:  # a broken plugin must not take the tool down
            _LOAD_ERRORS.append(f"plugin {ep.name}: {exc.__class__.__name__}: {exc}")


def load_errors() -> list:
    return list(_LOAD_ERRORS)


def get(name: str) -> Definition:
    """The registered definition called ``name`` (InputError if unknown)."""
    if name not in REGISTRY:
        load_entry_points(again=True)
    if name not in REGISTRY:
        raise InputError(f"unknown definition {name!r}",
                         fix="use one of " + ", ".join(sorted(REGISTRY)))
    return REGISTRY[name]


def names() -> list:
    load_entry_points()
    return list(REGISTRY)


def all_definitions() -> list:
    load_entry_points()
    return list(REGISTRY.values())
