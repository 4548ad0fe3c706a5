"""Optimal levels of the registered definitions on a table: ``optimal_level`` / ``satisfies``.

Examples
--------
The level of a definition that compares pairs of records on a log scale (the registry says which),
on a two-record table with Pr(a1) = 1/2 and 1/4 (the largest ratio is 2, in bucket a1):

>>> from implgraph.core.table import table_from_rows
>>> from implgraph.definitions.capabilities import RatioLevel
>>> t = table_from_rows([["1/2"], ["1/4"]])
>>> pairwise = [d for d in all_definitions() if d.declared(RatioLevel) == RatioLevel("pairwise")]
>>> d = next(d for d in pairwise if d.scale == "log")
>>> str(optimal_level(t, d).value)
'log(2)'
"""

from __future__ import annotations

from dataclasses import dataclass, field

import sympy

from implgraph.core.concrete import ConcreteTable, Enclosed, to_sympy
from implgraph.core.errors import InputError
from implgraph.core.region import Region
from implgraph.core.pieces import Piece, piecewise, split_leaves
from implgraph.core.symbolic import Undecidable
from implgraph.core.table import Block, Table
from implgraph.definitions.base import (Definition, all_definitions, get as get_definition, read_param,
                                        read_shared_params)
from implgraph.definitions.definition import _table_size

__all__ = ["Level", "optimal_level", "infinite_everywhere", "satisfies", "all_levels", "as_table"]


@dataclass
class Level:
    """The optimal level of one definition on one table.

    Attributes
    ----------
    definition : Definition
    params : dict
    pieces : list of Piece
        ``raw`` values (the ratio for t and eps definitions) per piece of the region.
    region : Region
    note : str
        Why the level is undefined, when it is.
    enclosure : Enclosed or None
        For an irrational level on a concrete table: a guaranteed rational enclosure of it.
    """

    definition: object
    params: dict
    pieces: list
    region: Region = field(default_factory=Region)
    note: str = ""
    enclosure: Enclosed | None = None

    @property
    def defined(self) -> bool:
        return any(p.value is not None for p in self.pieces)

    def level_pieces(self):
        """[(condition, level)] in the definition's own units (eps = ln ratio)."""
        return [(p.condition, self.definition.level_from_raw(p.value)) for p in self.pieces]

    @property
    def value(self):
        """The level as one sympy expression (a Piecewise when the region splits)."""
        lp = self.level_pieces()
        if not lp or any(v is None for _, v in lp):
            return None
        if len(lp) == 1:
            return lp[0][1]
        return sympy.Piecewise(*[(v, c) for c, v in lp[:-1]], (lp[-1][1], True))

    @property
    def raw(self):
        if len(self.pieces) == 1:
            return self.pieces[0].value
        return None

    def float(self):
        v = self.value
        if v is None:
            return None
        if v is sympy.oo:
            return float("inf")
        if self.enclosure is not None:
            return float((self.enclosure.lo + self.enclosure.hi) / 2)
        if v.free_symbols:
            return None
        return float(v)

    def infinite_where(self):
        """Conditions under which the level is infinite."""
        return [p.condition for p in self.pieces if p.value is sympy.oo]

    def to_json(self) -> dict:
        value = self.value
        f = self.float()
        return {
            "level": None if value is None else str(value),
            "float": None if f is None or f == float("inf") else f,
            "infinite": bool(value is sympy.oo),
            "params": {k: str(v) for k, v in self.params.items()},
            "pieces": [{"when": str(c), "level": None if v is None else str(v)} for c, v in self.level_pieces()],
            **({"note": self.note} if self.note else {}),
            **(self._enclosure_json() if self.enclosure is not None else {}),
        }

    def _enclosure_json(self) -> dict:
        e = self.enclosure
        return {"approx": e.decimal(), "precision": e.precision, "attained": e.where,
                "enclosure": [str(e.lo), str(e.hi)]}

    def __str__(self):
        lp = self.level_pieces()
        if not self.defined:
            return f"undefined ({self.note})" if self.note else "undefined"
        if self.enclosure is not None:
            e = self.enclosure
            exact = str(lp[0][1])
            if len(exact) > 80:     # too long for a line: where it is attained, or where the exact form is
                exact = f"exact value of {e.where}" if e.where else "the exact expression in --json"
            return f"{e.decimal()} ({e.precision}; {exact})"
        if len(lp) == 1:
            return str(lp[0][1])
        return "; ".join(f"{v} if {c}" for c, v in lp)

    def __repr__(self):
        params = ", ".join(f"{k}={v}" for k, v in self.params.items())
        name = f"{self.definition.name}({params})" if params else self.definition.name
        text = str(self)
        return f"<Level {name}: {self.definition.level_symbol} = {text if len(text) <= 200 else text[:197] + '...'}>"

    def _repr_latex_(self):
        """``$symbol = value$`` in sympy's LaTeX (piecewise as cases); None when undefined."""
        value = self.value
        if value is None:
            return None
        return f"${sympy.latex(sympy.Symbol(self.definition.level_symbol))} = {sympy.latex(value)}$"


def as_table(ct: ConcreteTable) -> Table:
    """A ConcreteTable as a Table of single-row blocks (for symbolic-only plugins)."""
    blocks = []
    for i in range(ct.N):
        probs = tuple(sympy.Rational(int(ct.numer[i, l]), ct.denom) for l in range(ct.p))
        cls = None if ct.classes is None else str(ct.classes[i])
        blocks.append(Block(probs=probs, cls=cls, line=i + 2))
    return Table(blocks=blocks, buckets=list(ct.buckets), id=ct.id)


def optimal_level(table, definition, **params) -> Level:
    """The optimal (strongest) level of ``definition`` that ``table`` satisfies (Definition 1).

    Parameters
    ----------
    table : Table or ConcreteTable
        A parametric table (exact symbolic result, piecewise over its region) or a concrete one.
    definition : str or Definition
    **params
        The definition's own parameters (e.g. a subset size ``k``).

    Returns
    -------
    Level

    Raises
    ------
    InputError
        Unknown definition, missing or out-of-range parameters, or a plugin definition whose code raised.
    """
    d = get_definition(definition) if isinstance(definition, str) else definition
    if not isinstance(d, Definition):
        raise InputError(f"a definition is a name or a Definition, not {type(d).__name__}",
                         fix="give e.g. levels(table, \"kdp\", k=2)")
    if not isinstance(table, (Table, ConcreteTable)):
        raise InputError(f"a table is a Table or ConcreteTable, not {type(table).__name__}",
                         fix="read it with implgraph.load_table(...) first")
    if type(d).__module__.startswith("implgraph."):
        return _optimal_level(table, d, params)
    try:                # a plugin's exception is the plugin's: one line naming it (a built-in's is a bug: raised)
        return _optimal_level(table, d, params)
    except (InputError, RecursionError, MemoryError, KeyboardInterrupt):
        raise
    except Exception as exc:  # noqa: BLE001
        raise InputError(f"the plugin definition {d.name} raised {exc.__class__.__name__}: {str(exc)[:200]}",
                         fix="fix or uninstall the plugin package") from None


def _optimal_level(table, d, params) -> Level:
    if isinstance(table, ConcreteTable):
        params = _checked_params(d, params)
        if d.needs_classes and table.classes is None:
            return Level(d, params, [Piece(sympy.true, None)], note="the table has no equivalence classes")
        fast = _concrete_raw(d, table, params)
        if fast is not _NO_FAST_PATH:
            return _concrete_level(d, params, fast)
        table = as_table(table)
    params = d.check_params(table, params)
    if d.needs_classes and not table.has_classes:
        return Level(d, params, [Piece(sympy.true, None)], region=table.region,
                     note="the table has no equivalence classes")
    if table.is_concrete and has_fast_path(d) and all(isinstance(v, sympy.Basic) and v.is_number
                                                       for k, v in params.items() if k not in d.words):
        raw = _concrete_raw(d, ConcreteTable.from_table(table), params)
        return _concrete_level(d, params, raw, region=table.region)
    region = _level_region(table, params)
    try:
        pieces = piecewise(region, lambda ctx: d.symbolic(ctx, table, **params))
    except Undecidable as exc:
        raise _undecided(d, table, exc) from None
    return Level(d, params, pieces, region=region)


#: ``{(id(definition), parameters): (definition, checked parameters)}``: the parameters of a concrete table's level
#: are read and checked once per definition and values (the grids of check-edge ask thousands of tables)
_CHECKED: dict = {}


def _checked_params(d, params) -> dict:
    """``d.check_params(None, params)``, memoised (an error is never kept; unhashable values are not memoised)."""
    try:
        key = (id(d), tuple(sorted((k, type(v), v) for k, v in params.items())))
        hit = _CHECKED.get(key)
    except TypeError:
        return d.check_params(None, params)
    if hit is not None and hit[0] is d:
        return dict(hit[1])
    out = d.check_params(None, params)
    if len(_CHECKED) >= 10_000:
        _CHECKED.clear()
    _CHECKED[key] = (d, dict(out))
    return out


def _level_region(table, params) -> Region:
    """The table's region, with the parameters' own symbols (integers) declared."""
    region = table.region
    extra = {s: "integer" for v in params.values() if isinstance(v, sympy.Basic) for s in v.free_symbols
             if s not in region.kinds}
    return region.with_symbols(extra) if extra else region


def _undecided(d, table, exc) -> InputError:
    return InputError(f"{d.name}: the region could not be split into decided pieces ({exc})",
                      file=table.file, fix="add region constraints that fix the ordering of the values")


class _NotInfinite(Exception):
    """A piece of the region where the level is not oo (ends :func:`infinite_everywhere` early)."""


def infinite_everywhere(table, definition, **params) -> bool:
    """Is the optimal level of ``definition`` on the parametric ``table`` oo on its whole region?

    The answer of ``all(p.value is oo for p in optimal_level(table, definition, **params).pieces)``
    (False where the level is undefined), with the same errors, but the region is split only until
    a piece with another value turns up.

    Examples
    --------
    >>> from implgraph.core.table import table_from_rows
    >>> from implgraph.definitions.capabilities import RatioLevel
    >>> d = next(d for d in all_definitions() if d.declared(RatioLevel) == RatioLevel("pairwise"))
    >>> infinite_everywhere(table_from_rows([["0"], ["1/2"]]), d)
    True
    >>> infinite_everywhere(table_from_rows([["1/4"], ["1/2"]]), d)
    False
    """
    d = get_definition(definition) if isinstance(definition, str) else definition
    if isinstance(table, ConcreteTable) or table.is_concrete or d.needs_classes:
        lv = optimal_level(table, d, **params)
        return lv.defined and all(p.value is sympy.oo for p in lv.pieces)
    params = d.check_params(table, params)

    def compute(ctx):
        value = d.symbolic(ctx, table, **params)
        if value is not sympy.oo:
            raise _NotInfinite
        return value

    try:
        leaves = split_leaves(_level_region(table, params), compute)
    except _NotInfinite:
        return False
    except Undecidable as exc:
        raise _undecided(d, table, exc) from None
    return bool(leaves)


_NO_FAST_PATH = object()


def has_fast_path(d) -> bool:
    return d.concrete is not None or getattr(d, "concrete_enclosed", None) is not None


def _concrete_raw(d, ct, params):
    """The definition's exact fast path on a ConcreteTable: ``concrete`` (a Fraction, INF or None)
    or ``concrete_enclosed`` (an :class:`Enclosed` irrational level); ``_NO_FAST_PATH`` if neither."""
    args = {k: _py(v) for k, v in params.items()}
    if d.concrete is not None:
        return d.concrete(ct, **args)
    enclosed = getattr(d, "concrete_enclosed", None)
    if enclosed is not None:
        return enclosed(ct, **args)
    return _NO_FAST_PATH


def _concrete_level(d, params, raw, region=None) -> Level:
    value = to_sympy(raw) if raw is not None else None
    extra = {"region": region} if region is not None else {}
    return Level(d, params, [Piece(sympy.true, value)],
                 enclosure=raw if isinstance(raw, Enclosed) else None, **extra)


def _py(v):
    if isinstance(v, sympy.Basic) and v.is_Integer:
        return int(v)
    if isinstance(v, sympy.Basic) and v.is_Symbol:
        return str(v)
    return v if not isinstance(v, sympy.Basic) else str(v)


def satisfies(table, definition, level, **params):
    """Three-valued: does ``table`` satisfy ``definition`` at ``level`` on its whole region?

    True if the optimal level is at least as strong as ``level`` everywhere, False if it is weaker
    everywhere, None if it depends on the parameters (or cannot be decided).
    """
    lv = optimal_level(table, definition, **params)
    d = lv.definition
    if not lv.defined:
        return None
    target = read_param(level, getattr(table, "symbols", None), f"{d.name}: level")
    answers = set()
    for p in lv.pieces:
        region = p.region or lv.region.add(p.condition)
        opt = d.level_from_raw(p.value)
        if opt is sympy.oo:
            answers.add(target is sympy.oo if d.stronger == "smaller" else True)
            continue
        if not d.level_scale.identity and target is not sympy.oo:
            # every scale is increasing in the raw quantity: compare raw values (exp(ln x) = x, no logarithms)
            rel = _as_strong(d, p.value, d.raw_from_level(target))
        else:
            rel = _as_strong(d, opt, target)
        if rel in (sympy.true, sympy.false):
            answers.add(bool(rel))
            continue
        answers.add(region.decide(rel))
    if answers == {True}:
        return True
    if answers == {False}:
        return False
    return None


def _as_strong(d, a, b):
    """``d.at_least_as_strong(a, b)``; two rational numbers compared at once (the same true or false, without building
    the relation: a concrete table's level is compared with a number hundreds of times in some checks)."""
    if isinstance(a, sympy.Rational) and isinstance(b, sympy.Rational) and \
            type(d).at_least_as_strong is Definition.at_least_as_strong:
        return sympy.true if (a <= b if d.stronger == "smaller" else a >= b) else sympy.false
    return d.at_least_as_strong(a, b)


def all_levels(table, k=None, show: dict | None = None) -> dict:
    """Every built-in (and registered) definition's optimal level on ``table``.

    ``k`` is used for the definitions with a group-size parameter; ``show`` gives per-definition
    parameters (the ``show:`` field of a data file) and wins over ``k``.
    """
    out = {}
    n = table.N if isinstance(table, ConcreteTable) else table.size
    if k is not None:
        k = read_shared_params({"k": k}, _table_size(table) if not isinstance(table, ConcreteTable) else n)["k"]
    if show is not None and not isinstance(show, dict):
        raise InputError(f"show must be a dict of definition: parameters, not {type(show).__name__}",
                         fix='give e.g. show={"kdp": {"k": 2}}')
    for name, params in (show or {}).items():        # per-definition parameters: read as the definition reads them
        if not isinstance(params, dict):
            raise InputError(f"show: the parameters of {name} must be a dict", fix='give e.g. {"kdp": {"k": 2}}')
        get_definition(name).check_params(None if isinstance(table, ConcreteTable) else table, dict(params))
    for d in all_definitions():
        params = {}
        if show and d.name in show:
            params = dict(show[d.name])
        elif "k" in d.params:
            params["k"] = k if k is not None else (2 if not isinstance(n, int) or n > 2 else 1)
        try:
            out[d.name] = optimal_level(table, d, **params)
        except InputError as exc:
            out[d.name] = Level(d, params, [Piece(sympy.true, None)], note=exc.reason)
    return out
