"""The :class:`Definition` base class: what a privacy definition declares and how its parameters are read.

A definition declares its name, the name of its level (``t``, ``eps``, ...), how the level relates to the optimal
ratio it computes (``scale``), which direction is stronger, its own parameters, and implements:

- :meth:`Definition.symbolic` : the optimal raw level on one piece of a parametric table, written
  against a :class:`~implgraph.core.symbolic.Ctx` (comparisons split the region where needed);
- :meth:`Definition.concrete` (optional) : the same on a :class:`~implgraph.core.concrete.ConcreteTable`
  in exact integer arithmetic, fast enough for 10^6 rows.

What else the level is (a ratio of averages over classes, a minimum class size, an additive slack, ...) is
declared as typed capabilities in ``declares`` (:mod:`implgraph.definitions.capabilities`), read with
:meth:`Definition.declared` and :meth:`Definition.has`.

``scale`` names a :class:`~implgraph.definitions.scales.Scale`: ``ratio`` (the level is the ratio,
e.g. t), ``log`` (the level is the natural log of the ratio, e.g. eps = ln t), ``affine`` (the ratio
minus 1, e.g. beta), ``count`` (a size such as k of k-anonymity; larger is stronger), ``distance``
(an additive distance such as the EMD).

A definition is registered in :mod:`implgraph.definitions.base` (which checks its declarations first:
:mod:`implgraph.definitions.validation`).
"""

from __future__ import annotations

import sympy

from implgraph.core.errors import InputError, printable
from implgraph.definitions._params import _bound, range_bound, read_param, shown
from implgraph.definitions.scales import scale_of

__all__ = ["Definition"]


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


def _table_size(table):
    """The number of records of ``table`` when it is a number (an int), else None."""
    n = getattr(table, "N", None) if table is not None else None
    if isinstance(n, sympy.Basic):
        return int(n) if n.is_Integer else None
    return n if isinstance(n, int) else None
