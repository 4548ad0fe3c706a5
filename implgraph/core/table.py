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

import functools
import numbers
from dataclasses import dataclass, field, replace

import sympy

from implgraph.core.at_point import holds_at as _holds_at, rational_value
from implgraph.core.simplified import simplified

from implgraph.core.errors import InputError
from implgraph.core.formula import parse_expr
from implgraph.core.region import Region

__all__ = ["Block", "Table", "table_from_rows", "exact_value"]


@dataclass(frozen=True)
class Block:
    """One row repeated ``count`` times.

    Probabilities and the count are sympy expressions; any other value is read once, here (text by the
    formula reader, numbers exactly), so that no text reaches ``sympy.sympify`` later.
    """

    probs: tuple
    count: sympy.Expr = sympy.Integer(1)
    cls: str | None = None
    line: int | None = None

    def __post_init__(self):
        if not isinstance(self.probs, (tuple, list)):
            raise InputError(f"a block's probabilities must be a tuple, not {type(self.probs).__name__}",
                             fix="give one probability per bucket, e.g. Block(probs=('1/2', '1/2'))")
        if not all(isinstance(v, sympy.Basic) for v in self.probs):
            object.__setattr__(self, "probs", tuple(exact_value(v, "a probability") for v in self.probs))
        elif isinstance(self.probs, list):
            object.__setattr__(self, "probs", tuple(self.probs))
        if not isinstance(self.count, sympy.Basic):
            object.__setattr__(self, "count", exact_value(self.count, "a block count"))


def exact_value(x, what: str = "a value") -> sympy.Expr:
    """``x`` as an exact sympy number: text through the formula reader (numbers only, never evaluated), a float
    from its shortest text (0.1 is 1/10), an int or Fraction exactly, a sympy expression as it is."""
    if isinstance(x, sympy.Basic):
        return x
    if isinstance(x, str):
        try:
            return parse_expr(x, {})
        except InputError as exc:
            if "undeclared symbol" not in exc.reason:
                raise
            raise InputError(f"{what} {str(repr(x))[:60]} is not a number", fix="give numbers like 1/2, 0.25 or 1") \
                from None
    bad = InputError(f"{what} {str(repr(x))[:60]} is not a number", fix="give numbers like 1/2, 0.25 or 1")
    if isinstance(x, bool) or not isinstance(x, numbers.Real):
        raise bad          # a dict, list, set, bytes...: sympify would read the texts inside them as Python
    if isinstance(x, numbers.Rational):
        try:
            return sympy.Rational(int(x.numerator), int(x.denominator))   # ints, Fractions, numpy integers
        except (TypeError, ValueError, ZeroDivisionError):
            raise bad from None
    return parse_expr(repr(float(x)), {})            # a float (numpy's too) from its shortest text


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

    def __post_init__(self):
        if not isinstance(self.blocks, (list, tuple)) or not all(isinstance(b, Block) for b in self.blocks):
            raise InputError(f"a table's blocks must be a list of Block, not {str(repr(self.blocks))[:40]}",
                             fix="give e.g. Table(blocks=[Block(probs=('1/2', '1/2'))], buckets=['a1', 'a2'])")
        if not isinstance(self.buckets, (list, tuple)):
            raise InputError(f"a table's buckets must be a list of names, not {str(repr(self.buckets))[:40]}",
                             fix="give e.g. buckets=['a1', 'a2']")

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
        items = tuple(point.items())
        blocks = [replace(b, probs=tuple(_simplified_at(v, items) for v in b.probs),
                          count=_simplified_at(b.count, items)) for b in self.blocks]
        constraints = [cc for cc in (_constraint_at(c, point, items) for c in self.region.constraints)
                       if cc is not sympy.true]
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

    # -- display --------------------------------------------------------------------------------
    def __repr__(self):
        syms = ", ".join(sorted(str(s) for s in self.free_symbols))
        cls = f", {len(self.classes)} classes" if self.has_classes else ""
        return (f"<Table {self.id or '(no id)'}: N = {self.size}, {len(self.blocks)} blocks, buckets "
                f"{', '.join(self.buckets)}{cls}" + (f", symbols {syms}" if syms else "") + ">")

    def _repr_html_(self, max_blocks: int = 40):
        """The blocks (count, class, one column per bucket) as an HTML table, the region below it."""
        import html
        cell = lambda x: f"<td>{html.escape(str(x))}</td>"  # noqa: E731
        head = "".join(f"<th>{html.escape(str(b))}</th>" for b in ["count", "class", *self.buckets])
        body = "".join("<tr>" + "".join(cell(x) for x in [b.count, b.cls or "", *b.probs]) + "</tr>"
                       for b in self.blocks[:max_blocks])
        more = f"<p>... {len(self.blocks) - max_blocks} more blocks</p>" if len(self.blocks) > max_blocks else ""
        region = " & ".join(str(c) for c in self.region.constraints) or "(none)"
        return (f"<table><caption>{html.escape(self.id or '')}</caption><tr>{head}</tr>{body}</table>{more}"
                f"<p>region: {html.escape(region)}</p>")

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
        for b in self.blocks:
            self._validate_block(b)
        return self

    def _check_piecewise(self, values, here) -> None:
        """A Piecewise without a branch for part of the region is undefined there: refused."""
        for v in values:
            for pw in sympy.sympify(v).atoms(sympy.Piecewise):
                covered = sympy.Or(*(c for _, c in pw.args))
                if covered is not sympy.true and self.region.decide(covered) is not True:
                    raise InputError(f"{pw} is undefined where none of its conditions holds, on part of the region",
                                     fix="add an otherwise branch (value, True) or tighten `region:`", **here)

    def _validate_block(self, b) -> None:
        """One block of :meth:`validate`: its shape, its symbols, a count >= 1, a row summing to 1, each
        probability in [0, 1], all on the whole region."""
        declared = set(self.region.kinds)
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
        self._check_piecewise((*b.probs, count), here)
        total = simplified(sum(b.probs))
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


def _simplified_at(e, items):
    """``simplify(e.subs(point))`` (memo: a table is instantiated at the same point by several claims)."""
    try:
        return _simplified_at_memo(e, items)
    except TypeError:  # an unhashable value: no memo
        return simplified(sympy.sympify(e).subs(dict(items)))


@functools.lru_cache(maxsize=50_000)
def _simplified_at_memo(e, items):
    e, point = sympy.sympify(e), dict(items)
    # a rational expression at a rational point: its exact value, what subs and simplify give (without them)
    value = rational_value(e, point)
    return value if value is not None else simplified(e.subs(point))


def _constraint_at(c, point, items):
    """``c.subs(point)``: true at once where ``c`` holds exactly at ``point`` (the memoised rational evaluation of
    :func:`~implgraph.core.at_point.holds_at`), else substituted (memo: a table is instantiated at the same point
    by several claims)."""
    c = sympy.sympify(c)
    if _holds_at(c, point) is True:
        return sympy.true
    try:
        return _constraint_at_memo(c, items)
    except TypeError:  # an unhashable value: no memo
        return c.subs(point)


@functools.lru_cache(maxsize=50_000)
def _constraint_at_memo(c, items):
    return c.subs(dict(items))


def _fmt_point(pt) -> str:
    return ", ".join(f"{k}={v}" for k, v in sorted(pt.items(), key=lambda kv: str(kv[0])))

def table_from_rows(rows, buckets=None, classes=None, id=None) -> Table:
    """A concrete table from Python values: ``rows[i][l]`` numbers (Fractions, ints, strings); validated
    (:meth:`Table.validate`: probabilities in [0, 1], rows summing to 1), InputError otherwise."""
    if isinstance(rows, (str, bytes)) or not isinstance(rows, (list, tuple)) or not rows:
        raise InputError(f"rows must be a non-empty list of rows, not {str(repr(rows))[:40]}",
                         fix='give e.g. table_from_rows([["1/2", "1/2"], ["1/4", "3/4"]])')
    if classes is not None and (isinstance(classes, (str, bytes)) or not isinstance(classes, (list, tuple))
                                or len(classes) != len(rows)
                                or not all(isinstance(c, (str, int)) and not isinstance(c, bool) for c in classes)):
        raise InputError(f"classes must be a list of {len(rows)} labels (text or integers), one per row",
                         fix='give e.g. classes=["E1", "E1", "E2"], or leave it out')
    blocks = []
    for i, r in enumerate(rows):
        if not isinstance(r, (list, tuple)):
            r = [exact_value(r, "a probability")]
        probs = tuple(exact_value(x, "a probability") for x in r)
        if len(probs) == 1:
            probs = (probs[0], 1 - probs[0])
        blocks.append(Block(probs=probs, cls=None if classes is None else str(classes[i]), line=i + 1))
    p = len(blocks[0].probs)
    if p < 2:
        raise InputError(f"row 1 has {p} probabilities", fix="give at least two buckets (or one probability per row)")
    table = Table(blocks=blocks, buckets=list(buckets or [f"a{i + 1}" for i in range(p)]), id=id)
    if not all(v.is_number for b in blocks for v in b.probs):
        return table          # symbolic values (sympy expressions of the caller's symbols): the caller's table
    for b in blocks:
        if len(b.probs) != table.p or not all(v.is_Rational for v in b.probs):
            return table.validate()           # the careful check (with its message), for the odd table only
        if any(v < 0 or v > 1 for v in b.probs) or sum(b.probs) != 1:
            return table.validate()
    return table

