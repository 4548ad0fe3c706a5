"""Level scales: how a definition's level relates to the raw quantity its level code computes.

A definition declares ``scale = "ratio" | "log" | "affine" | "count" | "count-from-0" | "distance" |
"removal-distance" | "log-record" | "divergence"``; the engine never switches on that word. It asks the :class:`Scale` object
(``definition.level_scale``) for the conversion both ways, the weakest level, the raw value of the most private table
and the range of valid levels. Every scale is increasing in the raw quantity, so "at least as strong" can be compared
on either side.

The weakest level is the level every table meets. A scale may declare it as a formula of the number of records N
(``weakest_in_N``, read by :meth:`Scale.weakest_at`): the central total variation is at most 1/N on a table of N
records, since the table's mean P and the mean Q_i without record i differ by (x_i - Q_i)/N; the log of one record's
ratio to the table is at most log N (x_i(l) <= N P(l)). ``weakest`` is then a level every table of every N >= 2 meets
(the formula's supremum: 1/2, oo), used where N is not known.

Examples
--------
>>> import sympy
>>> SCALES["log"].to_level(sympy.E)
1
>>> SCALES["affine"].to_raw(sympy.Rational(1, 2))
3/2
>>> SCALES["affine"].domain(sympy.Symbol("beta"))
[beta >= 0]
>>> SCALES["removal-distance"].weakest_at(4), SCALES["removal-distance"].weakest_at(None)
(1/4, 1/2)
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction

import sympy

from implgraph.core.extrema import extremum
from implgraph.core.simplified import simplified

__all__ = ["Scale", "SCALES", "scale_of"]


@dataclass(frozen=True)
class Scale:
    """One level scale: ``level = to_level(raw)``, increasing in ``raw``.

    Attributes
    ----------
    name : str
        The word a definition declares (``scale = "log"``).
    text : str
        One line for listings.
    best_raw : Fraction or None
        The raw value of the most private table (1 for a ratio of averages, 0 for a distance);
        None when there is none (a count).
    raw_min : Fraction or None
        Raw values below this are not levels (a negative ratio); None when any value is one.
    weakest : sympy expression
        The level every table satisfies, whatever its number of records.
    weakest_in_N : str
        The level every table of N records satisfies, a formula of N (``"1/N"``) read by the project's formula
        reader, at most ``weakest`` for every N >= 2; "" where it does not depend on N.
    """

    name: str
    text: str
    best_raw: Fraction | None
    raw_min: Fraction | None
    weakest: object
    sample_raws: tuple = ()  # raw levels at which check-edge samples a tight f ((): 1..N, a count)
    offset: int = 0          # affine: level = raw - offset
    log: bool = False        # level = ln(raw)
    weakest_in_N: str = ""   # the weakest level on N records as a formula of N ("" : ``weakest`` for every N)

    def weakest_at(self, N=None):
        """The level every table of ``N`` records satisfies (``N`` a number or a symbol; None: ``weakest``, met by
        every table of every N)."""
        if not self.weakest_in_N or N is None:
            return self.weakest
        return _weakest_formula(self.weakest_in_N).xreplace({_N: sympy.sympify(N)})

    @property
    def weakest_depends_on_N(self) -> bool:
        """Does the weakest level depend on the number of records?"""
        return bool(self.weakest_in_N)

    def samples(self, N: int) -> list:
        """The raw levels at which check-edge samples the tight f at ``N`` records."""
        if not self.sample_raws:
            return [Fraction(k) for k in range(1, N + 1)]
        w = self.weakest_at(N) if self.weakest_in_N and isinstance(N, int) and not self.log else None
        if w is not None and w.is_Rational:     # a distance: the samples scaled to the weakest level on N records
            return [x * Fraction(int(w.p), int(w.q)) for x in self.sample_raws]
        return list(self.sample_raws)

    def to_level(self, raw):
        """The level of the raw quantity ``raw`` (``oo`` stays ``oo``; None stays None)."""
        if raw is None:
            return None
        raw = sympy.sympify(raw)
        if raw is sympy.oo:
            return sympy.oo
        if self.log:
            return _log(raw, sympy.core.parameters.global_parameters.evaluate)
        return raw - self.offset if self.offset else raw

    def to_raw(self, level):
        """The raw quantity whose level is ``level`` (the inverse of :meth:`to_level`)."""
        level = sympy.sympify(level)
        if level is sympy.oo:
            return sympy.oo
        if self.log:
            return _simplified_exp(level)
        return level + self.offset if self.offset else level

    @property
    def identity(self) -> bool:
        """True when the level is the raw quantity itself."""
        return not self.log and not self.offset

    def domain(self, sym) -> list:
        """The conditions every valid level ``sym`` satisfies (``[t >= 1]``, ``[eps >= 0]``, ...)."""
        if self.best_raw is None:
            return []
        return [sym >= self.to_level(sympy.Rational(self.best_raw.numerator, self.best_raw.denominator))]


_N = sympy.Symbol("N", integer=True, positive=True)


@functools.lru_cache(maxsize=None)
def _weakest_formula(text):
    """A declared weakest level in N, read by the project's formula reader (nothing evaluated)."""
    from implgraph.core.formula import parse_expr
    return parse_expr(text, {"N": _N})


@functools.lru_cache(maxsize=10_000)
def _log(raw, evaluate):
    """``sympy.log(raw)`` (under sympy's ``evaluate`` flag as given), memoised: the same raw levels are converted
    again and again, and sympy's log asks the assumptions about its argument each time its own cache is gone."""
    return sympy.log(raw, evaluate=evaluate)


@functools.lru_cache(maxsize=10_000)
def _simplified_exp(level):
    """``exp(level)``, simplified where ``level`` holds a log (``exp(log(x) + c)`` is tidied into a rational
    function; ``exp`` of a log-free level is already in its simplest form, and simplifying the exponent
    costs up to half a second); memoised: the same levels are converted again and again."""
    if isinstance(level, (sympy.Max, sympy.Min)):      # exp is increasing: exp(Max(a, b)) = Max(exp(a), exp(b))
        return extremum(level.func, *[_simplified_exp(x) for x in level.args])
    raw = sympy.exp(level)
    return simplified(raw) if level.has(sympy.log) else raw


_RATIO_SAMPLES = tuple(Fraction(x) for x in ("1", "9/8", "5/4", "3/2", "2", "3", "5", "9"))
_DISTANCE_SAMPLES = tuple(Fraction(x) for x in ("0", "1/16", "1/8", "1/4", "1/2", "3/4", "1"))
_DIVERGENCE_SAMPLES = tuple(Fraction(x) for x in ("0", "1/16", "1/4", "1/2", "1", "2"))

SCALES = {
    "ratio": Scale("ratio", "the level is the optimal raw ratio itself (>= 1; 1 is perfect)",
                   Fraction(1), Fraction(0), sympy.oo, _RATIO_SAMPLES),
    "log": Scale("log", "the level is the natural log of the optimal raw ratio (eps = ln t; >= 0)",
                 Fraction(1), Fraction(0), sympy.oo, _RATIO_SAMPLES, log=True),
    "affine": Scale("affine", "the level is the optimal raw ratio minus 1 (beta = t - 1; >= 0)",
                    Fraction(1), Fraction(0), sympy.oo, _RATIO_SAMPLES, offset=1),
    "log-record": Scale("log-record", "the natural log of the optimal raw ratio of one record to the table (eps = ln t; "
                        ">= 0): at most log N on N records (x_i(l) <= N P(l))", Fraction(1), Fraction(0), sympy.oo,
                        _RATIO_SAMPLES, log=True, weakest_in_N="log(N)"),
    "count": Scale("count", "the level is a size computed from the table (k of k-anonymity, l of l-diversity)",
                   None, None, sympy.Integer(1)),
    "count-from-0": Scale("count-from-0", "a count whose weakest level is 0: no level holds (p of p-sensitive "
                          "k-anonymity on a table with a class of fewer than k records)", None, None, sympy.Integer(0)),
    "distance": Scale("distance", "the level is an additive distance (0 is perfect)",
                      Fraction(0), None, sympy.Integer(1), _DISTANCE_SAMPLES),
    "removal-distance": Scale("removal-distance", "an additive distance between the table and the table without one "
                              "record: at most 1/N on N records (0 is perfect)", Fraction(0), None,
                              sympy.Rational(1, 2), _DISTANCE_SAMPLES, weakest_in_N="1/N"),
    "divergence": Scale("divergence", "the level is a divergence between two distributions (0 is perfect; unbounded)",
                        Fraction(0), Fraction(0), sympy.oo, _DIVERGENCE_SAMPLES),
}


def scale_of(name: str) -> Scale:
    """The :class:`Scale` called ``name`` (KeyError if there is none)."""
    return SCALES[name]
