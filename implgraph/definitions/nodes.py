"""The one node grammar: a definition with parameter values, e.g. ``NAME(k=3)``.

Check-edge, discover, path and the map all read and print nodes here. ``NAME(k=3)`` is the
written form (:func:`node_text`); ``NAME[k=3]`` is accepted on input as an alias (the former syntax
of ``path``), and a trailing ``@class`` marks the per-class reading of :mod:`implgraph.map.compose`.

Examples
--------
>>> from implgraph import definitions
>>> name = next(d.name for d in definitions.all_definitions() if list(d.params) == ["k"])
>>> parse_node(f"{name}[k=3]").label() == node_text(name, {"k": 3})
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import sympy

from implgraph import definitions
from implgraph.core.errors import InputError
from implgraph.core.formula import FUNCTIONS, parse_expr
from implgraph.definitions.base import did_you_mean, range_bound, shown

__all__ = ["Node", "parse_node", "check_ranges", "make_node", "node_text", "class_params", "CLASS_PARAMS", "N_SYM",
           "get_definition", "symbols_for"]

#: the number of records, as a symbol in node parameters and ``when`` conditions
N_SYM = sympy.Symbol("N", integer=True, positive=True)

#: class-size parameters of a class-based definition (``needs_classes``) that has no own parameter of
#: that name: ``k`` is the minimum class size, ``max`` the maximum (a restriction on the partition)
CLASS_PARAMS = {"k": "min_size", "max": "max_size"}


def node_text(name: str, params, scope: str = "") -> str:
    """The written form of a node: ``NAME``, ``NAME(k=3)``, ``NAME(k=3, max=4)@class``.

    Parameters
    ----------
    name : str
    params : dict or iterable of (key, value) pairs
        In the order they are to be printed.
    scope : str
        ``"@class"`` or empty.

    Examples
    --------
    >>> node_text("A", {"k": 3})
    'A(k=3)'
    >>> node_text("A", [], "@class")
    'A@class'
    """
    pairs = list(params.items()) if isinstance(params, dict) else list(params)
    parts = [f"{k}={v}" for k, v in pairs]
    return name + (f"({', '.join(parts)})" if parts else "") + scope


@dataclass(frozen=True)
class Node:
    """A definition with its parameters, e.g. ``NAME(k=2)``.

    ``params`` values are sympy expressions (numbers, or formulas in N and free integer symbols).
    ``classes`` restricts the partitions of a class-based definition: ``(("min_size", expr), ...)``
    (written ``k=`` and ``max=``). ``scope`` is ``"@class"`` for the per-class reading of
    :mod:`implgraph.map.compose`, else empty.
    """

    name: str
    params: tuple = ()
    classes: tuple = ()
    scope: str = ""

    @property
    def definition(self):
        return definitions.get(self.name)

    @property
    def param_dict(self) -> dict:
        return dict(self.params)

    @property
    def class_dict(self) -> dict:
        """``{"min_size": expr, "max_size": expr}`` (only those given)."""
        return dict(self.classes)

    def label(self) -> str:
        back = {v: k for k, v in CLASS_PARAMS.items()}
        return node_text(self.name, list(self.params) + [(back[k], v) for k, v in self.classes], self.scope)

    def at(self, point: dict) -> dict:
        """Concrete parameter values at ``point`` (N and free symbols -> ints)."""
        return _values_at(self.params, point)

    def classes_at(self, point: dict) -> dict:
        """Concrete class-size limits at ``point``."""
        return _values_at(self.classes, point)

    def free_symbols(self) -> set:
        syms = set()
        for _, v in self.params + self.classes:
            if isinstance(v, sympy.Basic):
                syms |= v.free_symbols
        return syms - {N_SYM}


def _values_at(pairs, point) -> dict:
    out = {}
    for k, v in pairs:
        if isinstance(v, str):
            out[k] = v
            continue
        val = sympy.sympify(v).subs(point)
        out[k] = int(val) if val.is_Integer else val
    return out


_NODE_RE = re.compile(r"^\s*([A-Za-z_][\w.\-]*)\s*(?:\((.*)\)|\[(.*)\])?\s*(@class)?\s*$")


def symbols_for(text, extra=()) -> dict:
    """Integer symbols for the names in a formula text (N is :data:`N_SYM`; ``extra`` symbols win)."""
    names = set(re.findall(r"[A-Za-z_]\w*", text)) - set(FUNCTIONS) - {"oo", "and", "or"}
    out = {n: sympy.Symbol(n, integer=True, positive=True) for n in names}
    out["N"] = N_SYM
    for s in extra:
        out[s.name] = s
    return out


def get_definition(name):
    """:func:`implgraph.definitions.get`, naming a plugin that failed to load."""
    try:
        return definitions.get(name)
    except InputError:
        broken = [e for e in definitions.load_errors() if e.startswith(f"plugin {name}:")]
        if broken:
            raise InputError(f"the plugin {name!r} failed to load ({broken[0]})",
                             fix="fix or uninstall the plugin package") from None
        raise


def class_params(d) -> dict:
    """The class-size parameters a definition accepts (``{"k": "min_size", "max": "max_size"}`` for a
    class-based definition, minus those it has as its own parameters)."""
    if not d.needs_classes:
        return {}
    return {k: v for k, v in CLASS_PARAMS.items() if k not in d.params}


def make_node(name, values: dict, scope="") -> Node:
    """A :class:`Node` from a definition name and ``{parameter: value}``; class-size parameters
    (:func:`class_params`) go to ``classes``."""
    d = get_definition(name)
    cp = class_params(d)
    params = tuple(sorted((k, v) for k, v in values.items() if k not in cp))
    classes = tuple((cp[k], values[k]) for k in cp if k in values)
    return Node(name, params, classes, scope)


def _check_number(d, key, value, own: bool) -> None:
    """Refuse a numeric parameter value of the wrong kind or outside its declared range at every N (one of the
    definition's own parameters) or a class size that is not an integer >= 1; a value with symbols is left to
    the conditions (``--when``) and the declared ranges the engine adds."""
    if isinstance(value, str) or not value.is_number:
        return
    if own:
        d._check_value(key, value, None)
    elif not (value.is_Integer and value >= 1):
        raise InputError(f"{d.name}: the class size {key} = {shown(value)} is not an integer >= 1",
                         fix=f"give e.g. {d.name}({key}=2)")


def check_ranges(node: Node, ns) -> None:
    """Refuse a node whose numeric parameters lie outside the definition's declared ranges at every number of
    records ``ns`` (e.g. ``kdp(k=10)`` checked at N = 2..4: k <= N - 1 holds at none of them)."""
    d = node.definition
    ns = list(ns)
    for key, value in node.params:
        if isinstance(value, str) or not getattr(value, "is_number", False) or key not in d.ranges:
            continue
        ok = []
        for n in ns:
            try:
                d._check_value(key, value, n)
                ok.append(n)
            except InputError:
                pass
        if not ok:
            low, high = (range_bound(b) for b in d.ranges[key])
            at_low, at_high = (range_bound(b, ns[-1]) for b in d.ranges[key])
            raise InputError(f"{d.name}: {key} = {shown(value)} is out of its range {low} <= {key} <= {high} at "
                             f"every N checked ({ns[0]}..{ns[-1]})",
                             fix=f"give {at_low} <= {key} <= {at_high} (N = {ns[-1]}), or a larger --N")


def parse_node(text: str, defaults=None, require=True, scope_ok=False) -> Node:
    """Read a definition with parameters: the one grammar of check-edge, discover and path.

    ``NAME``, ``NAME(k=2)``, ``NAME(k=N-1)`` (a formula in N and symbols bound by ``--when``),
    ``NAME(k=2, ground=ordered)``; a bare value is ``k`` (``NAME(2)``). A class-based definition
    (``needs_classes``) takes the minimum class size ``k`` and the maximum ``max``: the tables
    searched have every class of at least k (at most max) records. ``NAME[k=3]`` is accepted as an
    alias of ``NAME(k=3)`` (the former syntax of ``path``), and with ``scope_ok`` a trailing
    ``@class`` (the per-class reading of :mod:`implgraph.map.compose`).

    Parameters
    ----------
    text : str
    defaults : dict, optional
        Values for ``k`` where the text gives none (``path --k``).
    require : bool
        Raise when one of the definition's own parameters is missing (check-edge); ``path`` leaves
        it free (a generic k).
    scope_ok : bool
        Accept ``@class``.

    Raises
    ------
    InputError
        Unknown definitions and parameters, a malformed text.
    """
    m = _NODE_RE.match(str(text or ""))
    if not m:
        raise InputError(f"cannot read definition {text!r}", fix="write NAME or NAME(k=2)")
    name, inner, scope = m.group(1), m.group(2) if m.group(2) is not None else m.group(3), m.group(4) or ""
    if scope and not scope_ok:
        raise InputError(f"{text!r}: the per-class reading @class is for `implgraph path` only",
                         fix=f"write {name}")
    d = get_definition(name)
    allowed = list(d.params) + list(class_params(d))
    values = _given_values(text, name, d, inner, allowed)
    for key, value in (defaults or {}).items():
        if value is not None and key in allowed and key not in values:
            values[key] = sympy.Integer(value)
            _check_number(d, key, values[key], key in d.params)
    for k in d.params:
        if k in values:
            continue
        if k in d.words:
            values[k] = d.words[k]
        elif require:
            raise InputError(f"{name} needs parameter {k}", fix=f"write {name}({k}=2) or {name}({k}=k) with --when")
    return make_node(name, values, scope)


def _given_values(text, name, d, inner, allowed) -> dict:
    """The parameter values written between the brackets of :func:`parse_node`'s text.

    Parameters
    ----------
    text : str
        The whole text (for messages).
    name : str
        The definition's name.
    d : Definition
        The definition.
    inner : str or None
        The text between the brackets: ``k=2, ground=ordered``; a bare value is ``k``.
    allowed : list of str
        The parameters the definition takes (its own and the class sizes).

    Returns
    -------
    dict
        Each parameter given: a word as written, else the formula read (and its value checked).

    Raises
    ------
    InputError
        ``k:2`` for ``k=2``, an unknown parameter, a parameter given twice, a value out of range.
    """
    values = {}
    for part in filter(None, (p.strip() for p in (inner or "").split(","))):
        key, eq, value = (s.strip() for s in part.partition("="))
        if not eq and ":" in key:       # NAME(k:2): the form is NAME(k=2)
            left, _, right = (x.strip() for x in key.partition(":"))
            raise InputError(f"{text!r}: a parameter is written {left}={right}, not {left}:{right}",
                             fix=f"write {name}({left}={right})")
        if not eq:
            key, value = "k", key
        if key not in allowed:
            raise InputError(f"{name} has no parameter {key!r}",
                             fix=did_you_mean(key, allowed) + f"its parameters are: {', '.join(allowed) or 'none'}")
        if key in values:
            raise InputError(f"{name}: parameter {key!r} is given twice", fix=f"write {key}=... once")
        values[key] = value if key in d.words else parse_expr(value, symbols_for(value))
        _check_number(d, key, values[key], key in d.params)
    return values
