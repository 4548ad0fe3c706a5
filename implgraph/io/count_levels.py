"""Exact levels of microdata from the count table, per class, without sympy: the recipes (:data:`RECIPES`: class
sizes, distinct values, the inverse of the largest share, total variation distance, class ratios one- or two-sided,
on an affine or log scale), with Python integers and :class:`fractions.Fraction`, and the :class:`Card` of a
definition they read (its recipe, scale and parameters; built from the registry and cached by
:mod:`implgraph.io.level_cards`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction

__all__ = ["Card", "CountLevel", "LogOf", "class_values", "table_value", "plain_number", "RECIPES"]

_PLAIN = re.compile(r"-?(0|[1-9][0-9]*)(/[1-9][0-9]*|\.[0-9]+)?")

RECIPES = ("class-size", "distinct-values", "top-share-inverse", "total-variation", "class-ratio-one-sided",
           "class-ratio-two-sided")
"""The levels computed here, per class: its size, its number of values, the inverse of its largest value's share,
its total variation distance to the table, the largest ratio of its share of a value to the table's (one-sided: the
values it holds more often; two-sided: also the inverse ratio), less the scale's ``offset`` (or its natural log,
a :class:`LogOf`, on a log scale)."""


@dataclass(frozen=True)
class Card:
    """What one registered definition declares, as the levels of microdata read it (no sympy object).

    ``recipe`` (one of :data:`RECIPES`, or None: the registry computes the level) holds at the parameter words
    ``where`` (``{"ground": "equal"}``); ``params`` names every parameter the definition declares.
    """

    name: str
    level_symbol: str
    stronger: str
    needs_classes: bool
    params: dict = field(default_factory=dict)
    words: dict = field(default_factory=dict)
    recipe: str | None = None
    where: dict = field(default_factory=dict)
    offset: int = 0
    log: bool = False

    def recipe_at(self, params: dict) -> str | None:
        """The recipe at the parameter words ``params`` (missing ones read the defaults ``words``), or None."""
        if self.recipe is None or set(params) - set(self.where):
            return None
        ok = all(str(params.get(k, self.words.get(k))) == v for k, v in self.where.items())
        return self.recipe if ok else None


@dataclass
class CountLevel:
    """A definition's exact level computed by a recipe: the interface of
    :class:`~implgraph.definitions.levels.Level` that ``implgraph levels`` prints (a single piece, finite)."""

    definition: Card
    params: dict
    value: Fraction
    recipe: str
    note: str = ""
    enclosure: None = None
    defined: bool = True

    def level_pieces(self):
        return [("True", self.value)]

    def class_levels(self, ct) -> list:
        """Each class's own level (in ``ct.class_labels`` order)."""
        return class_values(self.recipe, ct, self.definition.offset, self.definition.log)

    def float(self) -> float:
        return float(self.value)

    def to_json(self) -> dict:
        return {"level": str(self.value), "float": float(self.value), "infinite": False,
                "params": {k: str(v) for k, v in self.params.items()},
                "pieces": [{"when": "True", "level": str(self.value)}]}

    def __str__(self):
        return str(self.value)


class LogOf:
    """The natural log of an exact rational ``raw >= 1`` (a level on a log scale, eps = ln ratio), written as sympy
    writes it (``log(9/5)``, ``log(2)``, ``0``); compared exactly with rationals and with another :class:`LogOf`
    (by ``raw``; ``log r`` is irrational for a rational ``r != 1``, so a comparison with a rational is decided at
    a finite precision)."""

    __slots__ = ("raw",)

    def __init__(self, raw: Fraction):
        self.raw = Fraction(raw)

    def __str__(self):
        return "0" if self.raw == 1 else f"log({self.raw})"

    __repr__ = __str__

    def _ln(self, digits: int):
        from decimal import Context
        ctx = Context(prec=digits)
        return ctx.subtract(ctx.ln(self.raw.numerator), ctx.ln(self.raw.denominator)) if self.raw != 1 else 0

    def as_sympy_float(self) -> float | None:
        """``float(sympy.log(raw))`` as sympy computes it (mpmath: ``raw`` rounded to 67 bits, its log to 57, then
        to 53), the JSON ``float`` of the registry's level; None near ``raw = 1`` (a log below about 2^-10, which
        sympy recomputes from ``raw - 1``: the registry's path answers there)."""
        if self.raw == 1:
            return 0.0
        from mpmath.libmp import from_rational, mpf_log, normalize, round_nearest, to_float
        x = from_rational(self.raw.numerator, self.raw.denominator, 67)
        sign, man, exp, bc = mpf_log(x, 57, round_nearest)
        if 57 - (exp + bc) > 67:
            return None
        return to_float(normalize(sign, man, exp, bc, 53, round_nearest))

    def __float__(self):
        f = self.as_sympy_float()
        return float(self._ln(60)) if f is None else f

    def _cmp(self, other) -> int:
        """-1, 0 or 1: ``log raw`` against ``other`` (a LogOf, or an int or Fraction)."""
        if isinstance(other, LogOf):
            return (self.raw > other.raw) - (self.raw < other.raw)
        if not isinstance(other, (int, Fraction)):
            return NotImplemented
        if self.raw == 1:
            return (0 > other) - (0 < other)
        from decimal import Decimal
        other, digits = Fraction(other), 40
        while True:                 # |ln - log raw| < 10^-(digits - 2) relative; log raw != other (irrational)
            ln = Fraction(Decimal(self._ln(digits)))
            if abs(ln - other) > abs(ln) * Fraction(1, 10 ** (digits - 3)):
                return 1 if ln > other else -1
            digits *= 2

    def __eq__(self, other):
        c = self._cmp(other)
        return NotImplemented if c is NotImplemented else c == 0

    def __hash__(self):
        return hash(("log", self.raw))

    def __lt__(self, other):
        c = self._cmp(other)
        return NotImplemented if c is NotImplemented else c < 0

    def __le__(self, other):
        c = self._cmp(other)
        return NotImplemented if c is NotImplemented else c <= 0

    def __gt__(self, other):
        c = self._cmp(other)
        return NotImplemented if c is NotImplemented else c > 0

    def __ge__(self, other):
        c = self._cmp(other)
        return NotImplemented if c is NotImplemented else c >= 0


def _scaled(raw: Fraction, offset: int, log: bool):
    """The level of the raw ratio ``raw``: ``log raw`` on a log scale, else ``raw - offset``."""
    return LogOf(raw) if log else raw - offset


def plain_number(text: str) -> Fraction | None:
    """``text`` as an exact number when it is a plain integer, fraction or decimal (``5``, ``-1/5``, ``0.2``);
    None otherwise (the project's formula reader then reads it)."""
    text = str(text).strip()
    return Fraction(text) if _PLAIN.fullmatch(text) else None


# -- the recipes ------------------------------------------------------------------------------------------
def _arrays(ct):
    """``(sizes, sums, totals, N, denominator)`` of the classes of ``ct`` (sizes in records, sums in
    numerators over the denominator), None without classes."""
    if ct.class_labels is None:
        return None
    sizes, sums = ct.class_sums()
    if not len(sizes):
        return None
    return sizes, sums, sums.sum(axis=0), int(sizes.sum()), int(ct.denom)


def _tv_terms(sums, sizes, totals, n, denom):
    """Per class, the integer ``sum_l |sums_l N - totals_l size|`` (its TV distance is that over
    ``2 size N denom``): int64 where every term fits, Python integers otherwise."""
    import numpy as np
    exact = 2 * n * n * denom * max(1, sums.shape[1]) < 2 ** 62
    dtype = np.int64 if exact else object
    s, z, t = sums.astype(dtype), sizes.astype(dtype), totals.astype(dtype)
    return np.abs(s * n - z[:, None] * t[None, :]).sum(axis=1)


def _ratios(sums, sizes, totals, n, denom, two_sided: bool):
    """``(num, den)`` (flat, one entry per class and value the table holds) of the ratios ``q / p`` of a class's
    share ``q = c / (size denom)`` of a value to the table's ``p = t / (n denom)`` (two-sided: also ``p / q``),
    as integers ``c n / (size t)``; None when a class lacks a value the table holds (two-sided: infinite)."""
    import numpy as np
    exact = n * n * denom < 2 ** 62
    dtype = np.int64 if exact else object
    c, z, t = sums.astype(dtype), sizes.astype(dtype)[:, None], totals.astype(dtype)[None, :]
    held = np.broadcast_to(totals[None, :] > 0, c.shape)
    num, den = (c * n)[held], np.broadcast_to(z * t, c.shape)[held]
    if not two_sided:
        return num, den
    if (num == 0).any():
        return None
    return np.concatenate([num, den]), np.concatenate([den, num])


def class_values(recipe: str, ct, offset: int = 0, log: bool = False) -> list | None:
    """Each class's level by ``recipe`` (ints, or Fractions for a distance or a ratio), in class order; None
    without classes (a two-sided ratio: None for a class lacking a value, infinite)."""
    arrays = _arrays(ct)
    if arrays is None:
        return None
    sizes, sums, totals, n, denom = arrays
    if recipe == "class-size":
        return [int(s) for s in sizes.tolist()]
    if recipe == "distinct-values":
        return [int(c) for c in (sums != 0).sum(axis=1).tolist()]
    if recipe == "top-share-inverse":
        return [Fraction(int(z) * denom, int(top)) for z, top in zip(sizes.tolist(), sums.max(axis=1).tolist())]
    if recipe == "total-variation":
        terms = _tv_terms(sums, sizes, totals, n, denom)
        return [Fraction(int(a), 2 * int(z) * n * denom) for a, z in zip(terms.tolist(), sizes.tolist())]
    if recipe.startswith("class-ratio-"):
        out = []
        for i in range(len(sizes)):
            r = _ratios(sums[i:i + 1], sizes[i:i + 1], totals, n, denom, recipe.endswith("two-sided"))
            out.append(None if r is None else
                       _scaled(max([Fraction(1)] + [Fraction(int(a), int(b)) for a, b in zip(*r)]), offset, log))
        return out
    raise ValueError(f"unknown recipe {recipe!r}")


def table_value(recipe: str, ct, stronger: str, offset: int = 0, log: bool = False):
    """The table's level by ``recipe``: the least class level where larger is stronger, the largest otherwise
    (exact; None without classes, or where the level is infinite)."""
    arrays = _arrays(ct)
    if arrays is None:
        return None
    sizes, sums, totals, n, denom = arrays
    if recipe in ("class-size", "distinct-values"):
        per = sizes if recipe == "class-size" else (sums != 0).sum(axis=1)
        return Fraction(int(per.min() if stronger == "larger" else per.max()))
    if recipe == "top-share-inverse":
        return _extreme(sizes * denom, sums.max(axis=1), stronger, 1)
    if recipe == "total-variation":
        terms = _tv_terms(sums, sizes, totals, n, denom)
        return _extreme(terms, sizes, stronger, 2 * n * denom)
    if recipe.startswith("class-ratio-"):
        r = _ratios(sums, sizes, totals, n, denom, recipe.endswith("two-sided"))
        if r is None or stronger != "smaller":     # infinite, or not a worst ratio: the registry's path
            return None
        value = _scaled(max(Fraction(1), _extreme(*r, stronger, 1)), offset, log)
        return None if isinstance(value, LogOf) and value.as_sympy_float() is None else value
    raise ValueError(f"unknown recipe {recipe!r}")


def _extreme(num, den, stronger: str, scale: int) -> Fraction:
    """``max`` (or ``min`` where larger is stronger) of ``num[i] / (den[i] scale)``, exact: the float quotients
    (each within a few units of 2^-53, relative, of its value) keep the candidates within 2^-40 of the best,
    compared then as Fractions."""
    import numpy as np
    q = np.asarray(num, dtype=np.float64) / np.asarray(den, dtype=np.float64)
    best = q.min() if stronger == "larger" else q.max()
    near = np.nonzero(np.abs(q - best) <= abs(best) * 2.0 ** -40)[0].tolist()
    pick = min if stronger == "larger" else max
    return pick(Fraction(int(num[i]), int(den[i]) * scale) for i in near)
