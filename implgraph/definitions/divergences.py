"""Divergences as a declared level kind: Kullback-Leibler, Renyi, total variation and the hockey-stick slack.

A definition whose level is a divergence between two distributions over the buckets declares *which* divergence and
*between which distributions*; its exact levels come from here, as a ratio of averages' come from
:mod:`implgraph.definitions.families`::

    class KLCloseness(DivergenceDefinition):
        name = "kl-closeness"
        level_symbol = "d"
        level = Divergence("kl", compares="class")

``Divergence(kind, order=None, compares=...)``:

``kind``
    ``"kl"``: D(x || y) = sum_l x_l log(x_l / y_l) (nats; 0 log 0 = 0, infinite where x_l > 0 = y_l);
    ``"renyi"`` of ``order`` alpha > 1 (a rational number, or ``"oo"``):
    log(sum_l x_l^alpha y_l^(1 - alpha))/(alpha - 1),
    and at alpha = oo the largest log ratio max_l log(x_l / y_l);
    ``"tv"``: (1/2) sum_l |x_l - y_l|;
    ``"hockey-stick"`` with ``order`` gamma >= 1: sum_l max(x_l - gamma y_l, 0).
``compares``
    ``"pairs"``: every ordered pair of records (x_i, x_j), i != j (local privacy: an asymmetric divergence is
    bounded both ways); ``"class"``: every equivalence class's mean against the table's mean, D(class || table)
    (closeness); ``"removal"``: the table's mean P against the mean Q_i of the table without record i, both ways,
    max(D(P || Q_i), D(Q_i || P)) (central privacy, record removal).

The level is the largest divergence over the compared pairs; smaller is stronger; its scale is ``divergence`` (the
level is the divergence itself, 0 at best, unbounded). Every f-divergence here is ``sum_l y_l phi(x_l / y_l)`` with a
convex ``phi`` (:meth:`Divergence.phi`: r log r, r^alpha for exp((alpha - 1) D_alpha), |r - 1|/2, max(r - gamma, 0)),
which the prover's chord argument reads (:mod:`implgraph.prover.arguments.chord`).

Examples
--------
>>> from fractions import Fraction as F
>>> str(Divergence("kl", compares="pairs").between((F(1, 2), F(1, 2)), (F(1, 4), F(3, 4))))
'log(2/3)/2 + log(2)/2'
>>> str(Divergence("renyi", 2, compares="pairs").between((F(1, 2), F(1, 2)), (F(1, 4), F(3, 4))))
'log(4/3)'
>>> Divergence("tv", compares="class").between((F(1, 2), F(1, 2)), (F(1, 4), F(3, 4)))
Fraction(1, 4)
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction

import mpmath
import sympy

from implgraph.core.concrete import INF, Enclosed
from implgraph.core.errors import InputError
from implgraph.definitions.capabilities import OnClasses
from implgraph.definitions.base import Definition

__all__ = ["Divergence", "DivergenceDefinition", "KINDS", "COMPARES", "divergence_of"]

KINDS = ("kl", "renyi", "tv", "hockey-stick")
#: the distributions compared, and the ratio family of a ratio-of-averages definition bounding the same ones
COMPARES = ("pairs", "class", "removal")
_R = sympy.Symbol("r", positive=True)
_DIGITS = 30


def _order(kind, order):
    """The declared order as an exact number (oo for Renyi's max-ratio order), checked for the kind."""
    if kind in ("kl", "tv"):
        if order is not None:
            raise InputError(f"Divergence({kind!r}) takes no order", fix=f'declare Divergence("{kind}", compares=...)')
        return None
    if order in ("oo", "inf") and kind == "renyi":
        return sympy.oo
    if isinstance(order, bool) or not isinstance(order, (int, Fraction, str)):
        raise InputError(f"Divergence({kind!r}): order {order!r} is not a rational number",
                         fix="declare e.g. order=2 or order=\"3/2\" (Renyi: \"oo\" for the max ratio)")
    value = sympy.Rational(str(order)) if not isinstance(order, Fraction) else sympy.Rational(order.numerator,
                                                                                              order.denominator)
    low_ok = value > 1 if kind == "renyi" else value >= 1
    if not low_ok:
        raise InputError(f"Divergence({kind!r}): order {order} is out of range",
                         fix="Renyi needs an order > 1 (KL is the order 1), the hockey-stick a gamma >= 1")
    return value


@dataclass(frozen=True)
class Divergence:
    """A divergence between two distributions over the buckets, and which distributions a definition compares."""

    kind: str
    order: object = None
    compares: str = "pairs"

    def __post_init__(self):
        if self.kind not in KINDS:
            raise InputError(f"Divergence kind {self.kind!r}", fix="use " + ", ".join(KINDS))
        if self.compares not in COMPARES:
            raise InputError(f"Divergence compares {self.compares!r}", fix="use " + ", ".join(COMPARES))
        object.__setattr__(self, "order", _order(self.kind, self.order))

    # -- the generator of the f-divergence -----------------------------------------------------------------------------
    def phi(self, r=_R):
        """The convex generator: the divergence (or, for Renyi, exp((alpha - 1) D)) is sum_l y_l phi(x_l / y_l).
        None for Renyi of order oo (no f-divergence: the largest log ratio)."""
        if self.kind == "kl":
            return r * sympy.log(r)
        if self.kind == "renyi":
            return None if self.order is sympy.oo else r ** self.order
        if self.kind == "tv":
            return sympy.Max(r - 1, 1 - r) / 2
        return sympy.Max(r - self.order, 0)

    def from_phi_mean(self, s):
        """The divergence from the mean of phi under y (``sum_l y_l phi(r_l)``): log(s)/(alpha - 1) for Renyi (an
        increasing function of s), s itself otherwise."""
        if self.kind == "renyi":
            return sympy.log(s) / (self.order - 1)
        return s

    # -- exact values ------------------------------------------------------------------------------------------------
    def between(self, x, y):
        """D(x || y) for two distributions of Fractions: a Fraction (tv, hockey-stick), INF, or exact sympy."""
        if self.kind == "tv":
            return sum((abs(a - b) for a, b in zip(x, y)), Fraction(0)) / 2
        if self.kind == "hockey-stick":
            g = Fraction(int(self.order.p), int(self.order.q))
            return sum((max(a - g * b, Fraction(0)) for a, b in zip(x, y)), Fraction(0))
        if any(a > 0 and b == 0 for a, b in zip(x, y)):
            return INF
        pairs = [(sympy.Rational(a.numerator, a.denominator), sympy.Rational(b.numerator, b.denominator))
                 for a, b in zip(x, y) if a > 0]
        if self.kind == "kl":
            return sympy.Add(*[a * sympy.log(a / b) for a, b in pairs])
        if self.order is sympy.oo:
            return sympy.log(max(a / b for a, b in pairs))
        return sympy.log(sympy.Add(*[a ** self.order * b ** (1 - self.order) for a, b in pairs])) / (self.order - 1)

    def compared(self, rows, classes=None):
        """The pairs (x, y) of distributions the level compares on a table of ``rows`` (lists of Fractions)."""
        n = len(rows)
        mean = _mean(rows)
        if self.compares == "pairs":
            distinct = list(dict.fromkeys(tuple(r) for r in rows))
            return [(x, y) for x, y in itertools.permutations(distinct, 2)]
        if self.compares == "class":
            if classes is None:
                return None
            groups = {}
            for row, c in zip(rows, classes):
                groups.setdefault(c, []).append(row)
            return [(_mean(g), mean) for g in groups.values()]
        out = []
        for i in dict.fromkeys(range(n), None):
            rest = _mean(rows[:i] + rows[i + 1:])
            out += [(mean, rest), (rest, mean)]
        return list(dict.fromkeys(out))

    def log_form(self, x, y):
        """D(x || y) as ``(R, d)`` with D = log(R)/d, R and d rational (KL: exp(m D) = prod_l (x_l/y_l)^(m x_l) for m
        the common denominator of x; Renyi of integer order alpha: R = sum_l x_l^alpha y_l^(1 - alpha), d = alpha - 1;
        order oo: R = max_l x_l/y_l), INF where x_l > 0 = y_l; None for another kind or a fractional order."""
        if self.kind not in ("kl", "renyi") or (self.kind == "renyi" and self.order is not sympy.oo
                                                 and not self.order.is_Integer):
            return None
        if any(a > 0 and b == 0 for a, b in zip(x, y)):
            return INF
        pairs = [(a, b) for a, b in zip(x, y) if a > 0]
        if self.kind == "kl":
            m = 1
            for a, _ in pairs:
                m = m * a.denominator // _gcd(m, a.denominator)
            R = Fraction(1)
            for a, b in pairs:
                R *= (a / b) ** int(a * m)
            return R, Fraction(m)
        if self.order is sympy.oo:
            return max(a / b for a, b in pairs), Fraction(1)
        k = int(self.order)
        return sum((a ** k / b ** (k - 1) for a, b in pairs), Fraction(0)), Fraction(k - 1)

    def level(self, rows, classes=None):
        """The largest divergence over the compared pairs: None (no classes), INF, a Fraction or an :class:`Enclosed`
        exact irrational level (its expression, with a rational enclosure)."""
        pairs = self.compared(rows, classes)
        if pairs is None:
            return None
        if not pairs:
            return Fraction(0)
        forms = [self.log_form(x, y) for x, y in pairs]
        if all(f is not None for f in forms):
            if any(f == INF for f in forms):
                return INF
            return _largest_log(forms)
        values = [self.between(x, y) for x, y in pairs]
        if any(v == INF for v in values if not isinstance(v, sympy.Basic)):
            return INF
        if all(isinstance(v, Fraction) for v in values):
            return max(values)
        return _enclosed_max([sympy.Rational(v.numerator, v.denominator) if isinstance(v, Fraction) else v
                              for v in values])


def _gcd(a, b):
    import math
    return math.gcd(a, b)


def _log_float(R: Fraction) -> float:
    import math
    return math.log(R.numerator) - math.log(R.denominator)


def _largest_log(forms):
    """The largest of log(R)/d over ``forms`` [(R, d)], exact: candidates within 1e-9 of the largest in floating point
    are compared exactly (R1^(d2) against R2^(d1), integer powers of rationals); the level is log(R)/d as sympy with a
    rational enclosure."""
    forms = list(dict.fromkeys(forms))
    approx = [(_log_float(R) / float(d), R, d) for R, d in forms]
    top = max(v for v, _, _ in approx)
    near = [(R, d) for v, R, d in approx if v >= top - 1e-9 * max(1.0, abs(top))]
    best = near[0]
    for R, d in near[1:]:       # log(R)/d > log(B)/e  <=>  R^(e) > B^(d) (d, e > 0 rationals: use their numerators)
        if _pow_gt((R, d), best):
            best = (R, d)
    R, d = best
    if R == 1:
        return Fraction(0)
    expr = sympy.log(sympy.Rational(R.numerator, R.denominator)) / sympy.Rational(d.numerator, d.denominator)
    with mpmath.workdps(_DIGITS + 20):
        value = (mpmath.log(mpmath.mpf(R.numerator)) - mpmath.log(mpmath.mpf(R.denominator))) / \
            (mpmath.mpf(d.numerator) / d.denominator)
        eps = mpmath.mpf(10) ** (-(_DIGITS + 5)) * max(1, abs(value))
        lo, hi = Fraction(mpmath.nstr(value - eps, _DIGITS + 15)), Fraction(mpmath.nstr(value + eps, _DIGITS + 15))
    return Enclosed(expr, min(lo, hi), max(lo, hi), _DIGITS)


def _pow_gt(a, b) -> bool:
    """log(Ra)/da > log(Rb)/db exactly, for positive rationals da, db: Ra^(db) > Rb^(da), with the exponents scaled to
    integers."""
    (Ra, da), (Rb, db) = a, b
    m = da.denominator * db.denominator
    ea, eb = int(db * m), int(da * m)       # Ra^(db m) against Rb^(da m)
    return Ra ** ea > Rb ** eb


def _mean(rows):
    n = len(rows)
    return tuple(sum(col, Fraction(0)) / n for col in zip(*rows))


def _enclosed_max(exprs):
    """The largest of exact real numbers, with a rational enclosure: candidates within the working precision of the
    numerical largest stay in a ``Max`` (exact whatever the tie), the others are below it by more than the error."""
    with mpmath.workdps(_DIGITS + 20):
        approx = [(mpmath.mpf(sympy.N(e, _DIGITS + 20)), e) for e in dict.fromkeys(exprs)]
        top = max(a for a, _ in approx)
        eps = mpmath.mpf(10) ** (-(_DIGITS + 5)) * max(1, abs(top))
        near = [e for a, e in approx if a >= top - eps]
        expr = near[0] if len(near) == 1 else sympy.Max(*near)
        lo = Fraction(mpmath.nstr(top - eps, _DIGITS + 15)) if top != 0 else Fraction(0)
        hi = Fraction(mpmath.nstr(top + eps, _DIGITS + 15)) if top != 0 else Fraction(0)
    if expr == 0:
        return Fraction(0)
    return Enclosed(expr, min(lo, hi), max(lo, hi), _DIGITS)


def _rows_of(ct):
    return [[Fraction(int(ct.numer[i, l]), ct.denom) for l in range(ct.p)] for i in range(ct.N)]


class DivergenceDefinition(Definition):
    """Base class of a definition whose level is a declared :class:`Divergence` (``level = Divergence(...)``).

    Declare ``name``, ``level_symbol`` and ``level``; ``scale`` (``divergence``), ``stronger`` (smaller),
    ``needs_classes`` (declared ``OnClasses()`` for a class against the table) is derived, as are the exact levels (symbolic on tables of numbers, and fast
    on concrete tables)."""

    level: Divergence = None
    scale = "divergence"
    stronger = "smaller"

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        if not isinstance(cls.level, Divergence):
            raise InputError(f"plugin {cls.__name__}: level = {cls.level!r} is not a Divergence",
                             fix='declare e.g. level = Divergence("kl", compares="class")')
        cls.scale, cls.stronger = "divergence", "smaller"
        # (a level over classes declares it; the ratio families are the ratio levels', not a divergence's)
        cls.declares = (OnClasses(),) if cls.level.compares == "class" else ()

    def concrete_enclosed(self, ct, **params):
        if self.level.compares == "removal" and ct.N < 2:
            raise InputError(f"{self.name}: record removal needs N >= 2 records",
                             fix="give a table of 2 or more records")
        return self.level.level(_rows_of(ct), None if ct.classes is None else list(ct.classes))

    def symbolic(self, ctx, table, **params):
        rows, classes = [], []
        for b in table.blocks:
            if not (b.count.is_Integer and all(v.is_Rational for v in b.probs)):
                raise InputError(f"{self.name}: an exact divergence level needs a table of numbers",
                                 fix="give numeric probabilities and counts (or a concrete table)")
            rows += [[Fraction(int(v.p), int(v.q)) for v in b.probs]] * int(b.count)
            classes += [b.cls] * int(b.count)
        value = self.level.level(rows, classes if table.has_classes else None)
        if value is None:
            return None
        if isinstance(value, Enclosed):
            return value.expr
        return sympy.oo if value == INF else sympy.Rational(value.numerator, value.denominator)


def divergence_of(d) -> Divergence | None:
    """The :class:`Divergence` a definition declares as its level, or None."""
    return d.level if isinstance(d, DivergenceDefinition) else None
