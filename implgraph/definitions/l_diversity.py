"""Frequency and entropy l-diversity (Machanavajjhala et al. 2006, as stated by sei2019 Defs. 2-3).

Frequency l-diversity: in every equivalence class the relative frequency of each sensitive value
(bucket) is at most 1/l; the optimal l is ``min_E 1 / max_l Pr_E(B_l)``.
Entropy l-diversity: ``-sum_v p(v) log p(v) >= log l`` in every class; the optimal l is
``min_E prod_v p(v)^(-p(v))`` (exact, with 0^0 = 1). Larger l is stronger. Undefined (None) on a
table without equivalence classes. Probabilities are the classes' mean bucket probabilities, so a
one-hot table gives the usual empirical frequencies.

The entropy level is irrational in general. On a concrete table a float64 screen, with a rounding
bound far wider than float64's error, keeps every class that can have the smallest entropy; among
those the smallest is decided exactly (:func:`compare_entropies`: interval arithmetic at doubling
precision, and an exact test of equality through prime factorizations where the intervals
overlap). The level is that class's exact product (left unevaluated), reported with a guaranteed
rational enclosure of :data:`DIGITS` significant digits (:class:`~implgraph.core.concrete.Enclosed`).
On a parametric table with two buckets the entropies are ordered through ``(p - 1/2)^2`` (the
binary entropy falls as ``p`` moves away from 1/2), a polynomial the region can decide; with more
buckets, classes the region cannot order stay in an exact ``Min(...)``.
"""

from __future__ import annotations

import contextlib
import math
from collections import Counter
from fractions import Fraction

import sympy

from implgraph.core.concrete import Enclosed
from implgraph.definitions._classes import argmax_fraction, class_arrays, class_means
from implgraph.definitions.capabilities import ClassLevel, OnClasses
from implgraph.definitions.base import Definition, register

#: significant decimal digits of the enclosure of an entropy level
DIGITS = 30
#: largest denominator of a probability for which sympy may simplify ``p^(-p)`` (fast, small results)
_EVALUATE_MAX_DENOMINATOR = 1000


def _class_counts(ct):
    """(labels, b, a): class c's bucket probabilities are ``a[c][l] / b[c]`` (Python ints)."""
    labels = list(ct.class_groups())
    sizes, sums = ct.class_sums()
    b = [int(s) * ct.denom for s in sizes.tolist()]
    return labels, b, sums


def _frequency_class_level(cls):
    """The level of one class over ``cls.k`` values (a :class:`~implgraph.definitions._classes.GenericClass`),
    for every ``k``: ``1 / max_i q_i`` (Definition 2: every relative frequency is at most ``1/l``)."""
    return 1 / cls.top


def _entropy_class_level(cls):
    """The level of one class over ``cls.k`` values (a :class:`~implgraph.definitions._classes.GenericClass`),
    for every ``k``: ``exp(-sum_{i=1}^k q_i log q_i)`` (Definition 3: the entropy is at least ``log l``)."""
    return sympy.exp(-sympy.Sum(cls.q[cls.i] * sympy.log(cls.q[cls.i]), (cls.i, 1, cls.k)))


class _LDiversity(Definition):
    """What both l-diversities declare: a count l per class, larger is stronger, classes needed (the record sets
    compared are the classes)."""

    level_symbol = "l"
    scale = "count"
    stronger = "larger"
    declares = (OnClasses(),)


@register
class FrequencyLDiversity(_LDiversity):
    name = "frequency-l-diversity"
    title = "frequency l-diversity"
    reference = "sei2019, Definition 2"
    declares = (ClassLevel(_frequency_class_level),)

    def symbolic(self, ctx, table):
        if not table.has_classes:
            return None
        return ctx.min([ctx.ratio(1, ctx.max(q)) for q in class_means(table)])

    def concrete(self, ct):
        arrays = class_arrays(ct)
        if arrays is None:
            return None
        sizes, sums = arrays
        tops = sums.max(axis=1)
        c = argmax_fraction(tops, sizes)            # the largest frequency top / (size D): min of its inverse
        return Fraction(int(sizes[c]) * ct.denom, int(tops[c]))


# -- exact comparison of entropies -----------------------------------------------------------------

def _distinct_distributions(b, sums, classes):
    """The first of ``classes`` (increasing indices) with each distribution, in the same order.

    Two classes have the same distribution when their sorted counts and totals agree after
    removing the common factor (:func:`_normalise`): computed on int64 arrays at once, so that
    only one class per distribution is normalised in Python; Python-int sums are passed through.
    """
    import numpy as np
    if sums.dtype == object or not len(classes) or max(b) >= 2 ** 62:
        return classes.tolist()
    rows = np.sort(sums[classes], axis=1)
    totals = np.asarray(b, dtype=np.int64)[classes]
    keys = np.concatenate([rows, totals[:, None]], axis=1)
    keys //= np.gcd.reduce(keys, axis=1)[:, None]
    order = np.lexsort(keys.T[::-1])                     # stable: the first index leads its group
    ranked = keys[order]
    first = np.concatenate([[True], (ranked[1:] != ranked[:-1]).any(axis=1)])
    return classes[np.sort(order[first])].tolist()


def _normalise(a, b):
    """(sorted positive counts, total) with their common factor removed: the distribution's key."""
    a = [int(x) for x in a if x]
    g = math.gcd(b, *a)
    return tuple(sorted(x // g for x in a)), b // g


def _log_terms(d1, d2):
    """Integer terms ``[(c, m)]`` with ``b1 b2 (H1 - H2) = sum c ln m``."""
    (a1, b1), (a2, b2) = d1, d2
    terms = Counter()
    for a, b, sgn, other in ((a1, b1, 1, b2), (a2, b2, -1, b1)):
        terms[b] += sgn * other * b                 # b ln b - sum a ln a = b H
        for x in a:
            terms[x] -= sgn * other * x
    return [(c, m) for m, c in terms.items() if c and m != 1]


def _exactly_zero(terms) -> bool:
    """``sum c ln m == 0`` exactly: the logarithms of primes are linearly independent over Q."""
    exps = Counter()
    for c, m in terms:
        for prime, e in sympy.factorint(m).items():
            exps[prime] += c * e
    return not any(exps.values())


@contextlib.contextmanager
def _iv_prec(prec):
    """mpmath's interval context at ``prec`` bits (restored afterwards)."""
    from mpmath import iv
    old = iv.prec
    iv.prec = prec
    try:
        yield
    finally:
        iv.prec = old


def _log_sum_sign(terms) -> int:
    """Exact sign of ``sum c ln m`` (integers ``c``, positive integers ``m``).

    Interval arithmetic (mpmath.iv) at doubling precision decides a sum that is not zero; where
    the interval still contains 0, equality is tested exactly first (prime exponents).
    """
    from mpmath import iv
    terms = [(c, m) for c, m in terms if c and m != 1]
    if not terms:
        return 0
    prec, zero_checked = 64, False
    while True:
        with _iv_prec(prec):
            s = iv.mpf(0)
            for c, m in terms:
                s += c * iv.log(m)
        if s.a > 0:
            return 1
        if s.b < 0:
            return -1
        if not zero_checked:
            if _exactly_zero(terms):
                return 0
            zero_checked = True
        prec *= 2           # a nonzero sum separates from 0 at some finite precision


def compare_entropies(d1, d2) -> int:
    """Exact sign of ``H(d1) - H(d2)`` for distributions ``(counts, total)`` (integers)."""
    if d1 == d2:
        return 0
    return _log_sum_sign(_log_terms(d1, d2))


def compare_level(d, target: Fraction) -> int:
    """Exact sign of ``exp(H(d)) - target`` for a distribution ``(counts, total)`` and a rational
    ``target > 0``: ``b (H - ln(n/q)) = b ln b - sum a ln a - b ln n + b ln q``."""
    a, b = d
    target = Fraction(target)
    terms = Counter({b: b})
    for x in a:
        terms[x] -= x
    terms[target.numerator] -= b
    terms[target.denominator] += b
    return _log_sum_sign([(c, m) for m, c in terms.items()])


def _entropy_floats(b, sums):
    """Float64 entropies of all classes and a generous bound on their rounding error."""
    import numpy as np
    a = np.asarray(sums, dtype=np.float64)
    bf = np.asarray(b, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        loga = np.where(a > 0, np.log(np.where(a > 0, a, 1.0)), 0.0)
    q = a / bf[:, None]
    logb = np.log(bf)
    h = logb - (q * loga).sum(axis=1)
    # float64 log, products and sums are off by a few units in 2^-52 each: 2^-36 per term is
    # a bound with a wide margin (the screen only drops classes far above the minimum)
    err = (np.abs(logb) + (q * np.abs(loga)).sum(axis=1) + 1.0) * (a.shape[1] + 3) * 2.0 ** -36
    return h, err


def _min_entropy_class(b, sums) -> int:
    """Index of a class with the smallest entropy, decided exactly."""
    import numpy as np
    h, err = _entropy_floats(b, sums)
    bound = float(np.min(h + err))
    candidates = np.nonzero(h - err <= bound)[0]
    seen = {}
    for c in _distinct_distributions(b, sums, candidates):
        seen.setdefault(_normalise(sums[c].tolist(), b[c]), c)
    keys = list(seen)
    best = keys[0]
    for k in keys[1:]:
        if compare_entropies(k, best) < 0:
            best = k
    return seen[best]


def entropy_level(probs):
    """The exact level ``prod p^(-p)`` of one distribution (sympy; 0^0 = 1).

    Left unevaluated when a probability is a rational with a denominator above
    :data:`_EVALUATE_MAX_DENOMINATOR`: sympy's automatic simplification of rational powers of
    rationals then builds integers of thousands of digits (and more on large classes).
    """
    probs = [sympy.sympify(p) for p in probs]
    if not any(p.is_Rational and p.q > _EVALUATE_MAX_DENOMINATOR for p in probs):
        return sympy.Mul(*[sympy.Pow(p, -p) for p in probs if p != 0])
    factors = [sympy.Pow(p, -p, evaluate=False) for p in probs if p != 0]
    if not factors:
        return sympy.Integer(1)
    return factors[0] if len(factors) == 1 else sympy.Mul(*factors, evaluate=False)


def _mpf_fraction(raw) -> Fraction:
    """An mpmath raw mpf tuple ``(sign, man, exp, bc)`` as an exact Fraction."""
    sign, man, exp, _ = raw
    value = Fraction(man) * Fraction(2) ** exp
    return -value if sign else value


def enclose(a, b, digits: int = DIGITS):
    """A rational enclosure ``lo <= exp(H) <= hi`` of the distribution ``a / b``, ``digits`` digits."""
    from mpmath import iv
    a = [int(x) for x in a if x]
    prec = int(digits * 3.33) + 32
    while True:
        with _iv_prec(prec):
            h = iv.log(b) - sum((iv.mpf(x) * iv.log(x) for x in a), iv.mpf(0)) / b
            v = iv.exp(h)
            lo, hi = (_mpf_fraction(x) for x in v._mpi_)
        if hi - lo <= lo * Fraction(1, 10 ** digits):
            return lo, hi
        prec *= 2


@register
class EntropyLDiversity(_LDiversity):
    name = "entropy-l-diversity"
    title = "entropy l-diversity"
    reference = "sei2019, Definition 3"
    declares = (ClassLevel(_entropy_class_level),)

    def symbolic(self, ctx, table):
        import numpy as np
        if not table.has_classes:
            return None
        means = class_means(table)
        if all(p.is_Rational for q in means for p in q):
            dists = [[Fraction(int(p.p), int(p.q)) for p in q] for q in means]
            b = [math.lcm(*[p.denominator for p in q]) for q in dists]
            sums = np.asarray([[int(p * bb) for p in q] for q, bb in zip(dists, b)], dtype=object)
            return entropy_level(means[_min_entropy_class(b, sums)])
        distinct = list({tuple(sorted(map(str, map(sympy.cancel, q)))): q for q in means}.values())
        if len(distinct) == 1:
            return entropy_level(distinct[0])
        if table.p == 2:
            # binary entropy is symmetric about 1/2 and falls away from it: the smallest entropy
            # belongs to the class with the largest (p - 1/2)^2
            half = sympy.Rational(1, 2)
            best = distinct[0]
            for q in distinct[1:]:
                if not ctx.weak_le((q[0] - half) ** 2, (best[0] - half) ** 2):
                    best = q
            return entropy_level(best)
        return sympy.Min(*[entropy_level(q) for q in distinct], evaluate=False)

    def concrete_enclosed(self, ct):
        """The exact level on a concrete table with a guaranteed enclosure (an :class:`Enclosed`)."""
        if class_arrays(ct) is None:
            return None
        labels, b, sums = _class_counts(ct)
        c = _min_entropy_class(b, sums)
        a = [int(x) for x in sums[c].tolist()]
        expr = entropy_level([sympy.Rational(x, b[c]) for x in a])
        lo, hi = enclose(a, b[c])
        return Enclosed(expr, lo, hi, digits=DIGITS, where=f"class {labels[c]}")
