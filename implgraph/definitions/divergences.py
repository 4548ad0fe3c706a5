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
    ``"hockey-stick"`` with ``order`` gamma >= 1: sum_l max(x_l - gamma y_l, 0);
    ``"zcdp"``: the zero-concentrated level sup_{alpha > 1} D_alpha(x || y)/alpha, the least rho with
    D_alpha <= rho alpha at every order (Bun and Steinke, TCC 2016; exact values from
    :mod:`implgraph.definitions._zcdp_values`); no f-divergence (:meth:`Divergence.phi` is None).
``order``
    a number, or a formula of the definition's parameters read when they are given: ``order="alpha"`` (Renyi of
    the order the parameter alpha states, a rational > 1 or oo), ``order="exp(eps)"`` (the hockey-stick at
    gamma = e^eps, the least delta of (eps, delta) privacy).
``compares``
    ``"pairs"``: every ordered pair of records (x_i, x_j), i != j (local privacy: an asymmetric divergence is
    bounded both ways); ``"class"``: every equivalence class's mean against the table's mean, D(class || table)
    (closeness); ``"removal"``: the table's mean P against the mean Q_i of the table without record i, both ways,
    max(D(P || Q_i), D(Q_i || P)) (central privacy, record removal).

The level is the largest divergence over the compared pairs; smaller is stronger; its scale is ``divergence`` (the
level is the divergence itself, 0 at best, unbounded), ``distance`` for the bounded total variation and hockey-stick
(at most 1, the weakest level), ``removal-distance`` for those two compared by record removal (at most 1/N on N
records: P - Q_i = (x_i - Q_i)/N, and sum_l max(x_l - gamma y_l, 0) <= TV(x, y) for gamma >= 1). Every f-divergence here is ``sum_l y_l phi(x_l / y_l)`` with a
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

import sympy

from implgraph.core.concrete import INF, Enclosed
from implgraph.core.errors import InputError
from implgraph.definitions._divergence_orders import _checked_value, _order
from implgraph.definitions._divergence_values import (_enclosed_max, _gcd, _hockey_stick_irrational, _largest_log,
                                                      _long, _mean, _merged_rows, _near_top, _rows_of)
from implgraph.definitions._renyi_bounds import RENYI_FACT, renyi_bound
from implgraph.definitions._zcdp_level import zcdp_level
from implgraph.definitions._zcdp_values import zcdp_between
from implgraph.definitions.capabilities import OnClasses
from implgraph.definitions.base import Definition, read_param

__all__ = ["Divergence", "DivergenceDefinition", "KINDS", "UNBOUNDED_SUPPORT", "COMPARES", "divergence_of"]

KINDS = ("kl", "renyi", "tv", "hockey-stick", "zcdp")
#: the kinds infinite exactly where a compared x puts mass on a value its y does not
UNBOUNDED_SUPPORT = ("kl", "renyi", "zcdp")
#: the distributions compared, and the ratio family of a ratio-of-averages definition bounding the same ones
COMPARES = ("pairs", "class", "removal")
#: the largest common denominator m of x for which KL's exact form exp(m D) (a rational of about m digits) is built
_KL_EXPONENT_MAX = 4096
#: the kinds whose values lie in [0, 1] (their scale is ``distance``, weakest 1)
BOUNDED = ("tv", "hockey-stick")
_R = sympy.Symbol("r", positive=True)


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

    # -- an order read from the definition's parameters ----------------------------------------------------------------
    def params_named(self) -> tuple:
        """The parameters the order is a formula of (``("alpha",)`` for ``order="alpha"``); () for a fixed order."""
        free = getattr(self.order, "free_symbols", None) or ()
        return tuple(sorted(s.name for s in free))

    def at(self, params) -> "Divergence":
        """The divergence at the parameters' values (itself when its order is fixed); an InputError when a value is
        missing, not a number or puts the order out of its kind's range (Renyi: rational > 1 or oo; gamma >= 1)."""
        names = self.params_named()
        if not names:
            return self
        values = {}
        for n in names:
            v = (params or {}).get(n)
            if v is None or isinstance(v, bool) or not isinstance(v, (sympy.Basic, int, Fraction, str)):
                raise InputError(f"the divergence's order needs the parameter {n}", fix=f"give {n}, e.g. {n}=2")
            values[n] = v if isinstance(v, sympy.Basic) else read_param(v, {}, n)     # text: the formula reader
        if any(v is sympy.oo for v in values.values()):
            value = sympy.oo if self.order.is_Symbol else sympy.nan
        else:
            value = self.order.xreplace({s: values[s.name] for s in self.order.free_symbols})
        if not value.is_number:
            raise InputError(f"the divergence's order {self.order} at {values} is not a number",
                             fix="give the parameters as numbers")
        shown_as = ", ".join(f"{k} = {v}" for k, v in values.items())
        return Divergence(self.kind, _checked_value(self.kind, value, f"{self.order} at {shown_as}"), self.compares)

    # -- the Renyi divergences it bounds ---------------------------------------------------------------------------
    def renyi_bound(self, beta, T):
        """The bound on D_beta (beta >= 1; 1 for KL, oo the largest log ratio) of two distributions this divergence
        puts at most T, or None (:mod:`implgraph.definitions._renyi_bounds`: KL T at beta = 1; Renyi of order alpha T
        for beta <= alpha; the zero-concentrated level beta T at every finite beta)."""
        return renyi_bound(self, beta, T)

    @property
    def renyi_fact(self):
        """The fact :meth:`renyi_bound` states (``monotone-order``, ``zcdp-order``), or None."""
        return RENYI_FACT.get(self.kind)

    # -- the generator of the f-divergence -----------------------------------------------------------------------------
    def phi(self, r=_R):
        """The convex generator: the divergence (or, for Renyi, exp((alpha - 1) D)) is sum_l y_l phi(x_l / y_l).
        None for Renyi of order oo (no f-divergence: the largest log ratio) and for the zero-concentrated level (a
        supremum over the orders)."""
        if self.kind == "zcdp":
            return None
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
        if self.kind == "zcdp":
            from implgraph.core.concrete import to_sympy
            value = zcdp_between(x, y)
            return value if value == INF or isinstance(value, Fraction) else to_sympy(value)
        if self.kind == "tv":
            return sum((abs(a - b) for a, b in zip(x, y)), Fraction(0)) / 2
        if self.kind == "hockey-stick":
            if not self.order.is_Rational:
                return _hockey_stick_irrational(self.order, x, y)
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

    def compared(self, rows, classes=None, counts=None):
        """The pairs (x, y) of distributions the level compares on a table of ``rows`` (lists of Fractions), row r
        standing for ``counts[r]`` records (default 1 each)."""
        counts = [1] * len(rows) if counts is None else list(counts)
        n = sum(counts)
        if self.compares == "pairs":
            distinct = list(dict.fromkeys(tuple(r) for r in rows))
            return [(x, y) for x, y in itertools.permutations(distinct, 2)]
        mean = _mean(rows, counts)
        if self.compares == "class":
            if classes is None:
                return None
            groups = {}
            for row, c, w in zip(rows, classes, counts):
                groups.setdefault(c, ([], []))
                groups[c][0].append(row)
                groups[c][1].append(w)
            return [(_mean(g, ws), mean) for g, ws in groups.values()]
        out = []
        for x in dict.fromkeys(tuple(r) for r in rows):      # Q_i = (N P - x_i)/(N - 1): one per distinct record
            rest = tuple((n * m - a) / (n - 1) for m, a in zip(mean, x))
            out += [(mean, rest), (rest, mean)]
        return list(dict.fromkeys(out))

    def log_form(self, x, y):
        """D(x || y) as ``(R, d)`` with D = log(R)/d, R and d rational (KL: exp(m D) = prod_l (x_l/y_l)^(m x_l) for m
        the common denominator of x; Renyi of integer order alpha: R = sum_l x_l^alpha y_l^(1 - alpha), d = alpha - 1;
        order oo: R = max_l x_l/y_l), INF where x_l > 0 = y_l; None for another kind, a fractional order, or KL where m
        exceeds ``_KL_EXPONENT_MAX`` (the level is then compared through its enclosure, :func:`_enclosed_max`)."""
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
            if m > _KL_EXPONENT_MAX:        # R would have about m digits: the level is compared by its enclosure
                return None
            R = Fraction(1)
            for a, b in pairs:
                R *= (a / b) ** int(a * m)
            return R, Fraction(m)
        if self.order is sympy.oo:
            return max(a / b for a, b in pairs), Fraction(1)
        k = int(self.order)
        return sum((a ** k / b ** (k - 1) for a, b in pairs), Fraction(0)), Fraction(k - 1)

    def level(self, rows, classes=None, counts=None):
        """The largest divergence over the compared pairs: None (no classes), INF, a Fraction or an :class:`Enclosed`
        exact irrational level (its expression, with a rational enclosure); ``counts`` as :meth:`compared`."""
        pairs = self.compared(rows, classes, counts)
        if pairs is None:
            return None
        if not pairs:
            return Fraction(0)
        if self.kind == "zcdp":
            return zcdp_level(pairs)
        if len(pairs) > 8 and self.kind in ("kl", "renyi"):
            pairs = _near_top(self.kind, self.order, pairs)
        forms = [self.log_form(x, y) for x, y in pairs]
        if all(f is not None for f in forms):
            if any(f == INF for f in forms):
                return INF
            pair_of = dict(zip(forms, pairs))       # a long R (KL's product of powers) is shown as sum x log(x/y)
            return _largest_log(forms, lambda form: self.between(*pair_of[form]) if _long(form[0]) else None)
        values = [self.between(x, y) for x, y in pairs]
        if any(v == INF for v in values if not isinstance(v, sympy.Basic)):
            return INF
        if all(isinstance(v, Fraction) for v in values):
            return max(values)
        return _enclosed_max([sympy.Rational(v.numerator, v.denominator) if isinstance(v, Fraction) else v
                              for v in values])


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
        # a bounded divergence (total variation, the hockey-stick: at most 1) is a distance, the others unbounded
        # (compared with the table without one record, at most 1/N: P - Q_i = (x_i - Q_i)/N, and the hockey-stick at
        # gamma >= 1 is at most the total variation)
        cls.scale = ("removal-distance" if cls.level.compares == "removal" else "distance") \
            if cls.level.kind in BOUNDED else "divergence"
        cls.stronger = "smaller"
        # (a level over classes declares it; the ratio families are the ratio levels', not a divergence's)
        cls.declares = (OnClasses(),) if cls.level.compares == "class" else ()
        unknown = [n for n in cls.level.params_named() if n not in cls.params]
        if unknown:
            raise InputError(f"plugin {cls.__name__}: the order names {unknown[0]!r}, not one of its params",
                             fix=f'declare params = {{"{unknown[0]}": "..."}}')

    def level_at(self, params) -> Divergence:
        """The declared divergence at the parameters (its order read from them where it names one)."""
        return self.level.at(params)

    def _check_value(self, name, value, N) -> None:
        """The base checks, and for a parameter the order names: the order in its kind's range at that value
        (Renyi: alpha rational > 1, or oo)."""
        if name not in self.level.params_named() or not getattr(value, "is_number", False):
            return super()._check_value(name, value, N)
        if not (value is sympy.oo and self.level.order.is_Symbol):
            super()._check_value(name, value, N)
        try:
            self.level.at({name: value})
        except InputError as exc:
            raise InputError(f"{self.name}: {name} = {value}: {exc.reason}", fix=exc.fix) from None

    def concrete_enclosed(self, ct, **params):
        return self.level_at(params).level(*self._table_args(ct))

    def concrete_finite(self, ct, **params):
        """Is the level finite on a concrete table (None: undefined), without computing it: KL and Renyi are infinite
        exactly where a compared pair puts mass on a value the other does not (total variation, the hockey stick:
        never). The grid search for a table with A finite and B infinite asks only this."""
        pairs = self.level_at(params).compared(*self._table_args(ct))
        if pairs is None or self.level.kind not in UNBOUNDED_SUPPORT:
            return None if pairs is None else True
        return not any(a > 0 and b == 0 for x, y in pairs for a, b in zip(x, y))

    def _table_args(self, ct):
        """``(rows, classes, counts)`` of a concrete table as :meth:`Divergence.level` reads them."""
        if self.level.compares == "removal" and ct.N < 2:
            raise InputError(f"{self.name}: record removal needs N >= 2 records",
                             fix="give a table of 2 or more records")
        if getattr(ct, "counts", None) is not None and getattr(ct, "rows", None) is not None:   # grouped: distinct rows
            if self.level.compares in ("pairs", "removal"):     # the records' classes do not enter
                distinct, counts = _merged_rows(ct.rows, ct.counts)
                return [[Fraction(int(v), ct.denom) for v in r] for r in distinct], None, counts
            rows = [[Fraction(int(v), ct.denom) for v in r] for r in ct.rows.tolist()]
            classes = None if ct.row_class is None else [ct.class_labels[int(c)] for c in ct.row_class]
            return rows, classes, [int(c) for c in ct.counts]
        return _rows_of(ct), None if ct.classes is None else list(ct.classes), None

    def symbolic(self, ctx, table, **params):
        rows, classes = [], []
        for b in table.blocks:
            if not (b.count.is_Integer and all(v.is_Rational for v in b.probs)):
                raise InputError(f"{self.name}: an exact divergence level needs a table of numbers",
                                 fix="give numeric probabilities and counts (or a concrete table)")
            rows += [[Fraction(int(v.p), int(v.q)) for v in b.probs]] * int(b.count)
            classes += [b.cls] * int(b.count)
        value = self.level_at(params).level(rows, classes if table.has_classes else None)
        if value is None:
            return None
        if isinstance(value, Enclosed):
            return value.expr
        return sympy.oo if value == INF else sympy.Rational(value.numerator, value.denominator)


def divergence_of(d, params=None) -> Divergence | None:
    """The :class:`Divergence` a definition declares as its level, or None. An order read from parameters is read
    from ``params``; without them (or with a value that is not a number) such a definition gives None: the
    arguments that read a divergence do not apply to it."""
    if not isinstance(d, DivergenceDefinition):
        return None
    if not d.level.params_named():
        return d.level
    try:
        return d.level.at(params or {})
    except InputError:
        return None
