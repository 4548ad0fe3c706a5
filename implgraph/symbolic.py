"""Exact piecewise evaluation of a level over a parameter region.

A level computation is ordinary Python code written against a :class:`Ctx`: it asks
``ctx.le(a, b)``, ``ctx.max(xs)``, ``ctx.extreme_mean(column, j, largest)`` and so on. When the
region decides the question (z3, :meth:`Region.decide`) the code goes on; when it does not, the
context raises :class:`Split` and :func:`piecewise` re-runs the computation on the two halves of
the region (``cond`` and ``not cond``), dropping halves that are provably empty. The result is a
list of :class:`Piece` s: a condition (on top of the region) and the exact value there.

Splitting is always sound (the halves partition the region), so an undecided comparison costs a
split, never a wrong answer.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import sympy

from .region import Region

__all__ = ["Split", "Ctx", "Piece", "piecewise", "MAX_SPLITS"]

MAX_SPLITS = 14


class Split(Exception):
    def __init__(self, cond):
        super().__init__(str(cond))
        self.cond = cond


class Undecidable(Exception):
    pass


@functools.lru_cache(maxsize=100_000)
def _num_den(e):
    return sympy.fraction(sympy.cancel(sympy.together(e)))


@functools.lru_cache(maxsize=100_000)
def _factor(p):
    return sympy.factor(p)


@functools.lru_cache(maxsize=100_000)
def _clean(e):
    e = sympy.sympify(e)
    if e.is_number:
        return sympy.nsimplify(e) if e.is_Float else e
    return sympy.factor(sympy.cancel(sympy.together(e)))


class Ctx:
    """Decisions on one region; raises :class:`Split` where the region does not decide.

    ``known`` holds decisions already made on an enclosing region (they stay true on every
    sub-region), so re-running a computation after a split does not ask the solver again.
    """

    def __init__(self, region: Region, known: dict | None = None):
        self.region = region
        self.known = known if known is not None else {}

    # -- comparisons ---------------------------------------------------------------------------
    def decide(self, cond):
        cond = sympy.sympify(cond)
        if cond in (sympy.true, sympy.false):
            return bool(cond)
        if cond in self.known:
            return self.known[cond]
        r = self.region.decide(cond)
        if r is None:
            raise Split(cond)
        self.known[cond] = r
        return r

    def sign(self, e) -> int:
        """-1, 0 or 1: the sign of ``e`` on the whole region (Split if it varies)."""
        e = sympy.sympify(e)
        if e.is_number:
            return int(sympy.sign(e))
        key = ("sign", e)
        if key in self.known:
            return self.known[key]
        num, den = _num_den(e)
        sd = self._poly_sign(den)
        sn = self._poly_sign(num)
        self.known[key] = sn * sd
        return sn * sd

    def _poly_sign(self, p) -> int:
        p = _factor(p)
        if p.is_number:
            return int(sympy.sign(p))
        if p.is_positive:
            return 1
        if p.is_negative:
            return -1
        if p.is_Mul:
            out = 1
            for f in p.args:
                out *= self._poly_sign(f)
                if out == 0:
                    return 0
            return out
        if p.is_Pow and p.exp.is_Integer:
            s = self._poly_sign(p.base)
            return s ** int(p.exp) if p.exp > 0 else s ** int(-p.exp)
        if self.decide(sympy.Gt(p, 0)):
            return 1
        if self.decide(sympy.Lt(p, 0)):
            return -1
        return 0

    def le(self, a, b) -> bool:
        if a is sympy.oo:
            return b is sympy.oo
        if b is sympy.oo:
            return True
        return self.sign(sympy.sympify(b) - sympy.sympify(a)) >= 0

    def is_zero(self, a) -> bool:
        return self.sign(a) == 0

    def max(self, xs):
        xs = [x for x in xs if x is not None]
        if not xs:
            return None
        best = xs[0]
        for x in xs[1:]:
            if best is sympy.oo:
                break
            if x is sympy.oo or not self.le(x, best):
                best = x
        return best

    def min(self, xs):
        xs = [x for x in xs if x is not None]
        best = xs[0]
        for x in xs[1:]:
            if self.le(x, best):
                best = x
        return best

    def abs(self, x):
        return x if self.le(0, x) else -x

    def ratio(self, num, den):
        """num/den with Definition 4's conventions: 0/0 -> None (no constraint), x/0 -> oo."""
        if self.is_zero(den):
            return None if self.is_zero(num) else sympy.oo
        return _clean(num / den)

    # -- order statistics over blocks ----------------------------------------------------------
    def sort(self, column):
        """Blocks ``[(value, count)]`` sorted by value (ascending)."""
        def cmp(x, y):
            if self.le(x[0], y[0]):
                return 0 if self.le(y[0], x[0]) else -1
            return 1
        return sorted(column, key=functools.cmp_to_key(cmp))

    def extreme_sum(self, column, j, largest: bool):
        """Sum of the ``j`` smallest (``largest=False``) or largest values of a block column."""
        order = self.sort(column)
        if largest:
            order = order[::-1]
        remaining = sympy.sympify(j)
        total = sympy.Integer(0)
        for value, count in order:
            if self.le(remaining, 0):
                break
            take = self.min([sympy.sympify(count), remaining])
            total += value * take
            remaining = sympy.expand(remaining - take)
        return _clean(total)


@dataclass
class Piece:
    """A value on the part of the region where ``condition`` holds (on top of the region)."""

    condition: object
    value: object
    region: Region | None = None

    @property
    def cond_str(self) -> str:
        return "everywhere on the region" if self.condition is sympy.true else str(self.condition)


def piecewise(region: Region, compute, max_splits: int = MAX_SPLITS) -> list:
    """Run ``compute(ctx)`` on every piece of the region it needs; return merged pieces.

    Raises
    ------
    Undecidable
        More than ``max_splits`` nested splits were needed.
    """
    out: list = []

    def run(reg: Region, extra: tuple, depth: int, known: dict):
        if extra and reg.is_empty() is True:
            return
        ctx = Ctx(reg, dict(known))
        try:
            value = compute(ctx)
        except Split as s:
            if depth >= max_splits:
                raise Undecidable(f"more than {max_splits} case splits") from None
            cond = s.cond
            neg = sympy.Not(cond)
            for c in (cond, neg):
                k2 = dict(ctx.known)
                k2[cond] = c is cond
                run(reg.add(c), extra + (c,), depth + 1, k2)
            return
        out.append(Piece(sympy.And(*extra) if extra else sympy.true, value, reg))

    run(region, (), 0, {})
    return merge_pieces(out)


def _same(a, b) -> bool:
    if a is None or b is None:
        return a is b
    if a is sympy.oo or b is sympy.oo:
        return a == b
    try:
        return sympy.cancel(sympy.together(a - b)) == 0
    except (TypeError, ValueError):
        return a == b


def merge_pieces(pieces):
    merged: list = []
    for p in pieces:
        for q in merged:
            if _same(p.value, q.value):
                q.condition = sympy.Or(q.condition, p.condition)
                q.region = None
                break
        else:
            merged.append(p)
    if len(merged) == 1:
        merged[0].condition = sympy.true
    return merged
