"""Exact piecewise evaluation of a level over a parameter region.

A level computation is ordinary Python code written against a :class:`Ctx`: it asks
``ctx.le(a, b)``, ``ctx.max(xs)``, ``ctx.extreme_sum(column, j, largest)`` and so on. When the
region decides the question (z3, :meth:`Region.decide`) the code goes on; when it does not, the
context raises :class:`Split` and :func:`piecewise` re-runs the computation on the two halves of
the region (``cond`` and ``not cond``), dropping halves that are provably empty. The result is a
list of :class:`~implgraph.core.pieces.Piece` s: a condition (on top of the region) and the exact value there.

Splitting is always sound (the halves partition the region), so an undecided comparison costs a
split, never a wrong answer. Splits are two-way (``q >= 0`` / ``q < 0`` on the numerator ``q`` of a
difference whose denominator has a known sign), and the split conditions are written in a readable
polynomial form (``N >= 2*k - 1``; strict inequalities between integer expressions are tightened,
``N - 2*k + 1 > 0`` becomes ``N >= 2*k``). The pieces of equal value are merged and their conditions
simplified (complementary conjuncts resolved, conjuncts implied by the region or by the other
conjuncts dropped).
"""

from __future__ import annotations

import functools

import sympy

from implgraph.core.factoring import _clean, factors, num_den
from implgraph.core.region import Region
from implgraph.core.relations import nice_relation, strict_signs, to_zero

__all__ = ["Split", "Undecidable", "Ctx", "DECIDE_MS", "PROBE_MS"]

DECIDE_MS = 500  # solver budget of a comparison; a timeout splits the region (sound, just longer)
PROBE_MS = 200


class Split(Exception):
    """The region does not decide ``cond`` (``orig`` is the condition as it was asked)."""

    def __init__(self, cond, orig=None):
        super().__init__(cond)          # (printed only when shown: most splits are caught and never printed)
        self.cond = cond
        self.orig = cond if orig is None else orig

    def __str__(self):
        return str(self.cond)


class Undecidable(Exception):
    pass


class Ctx:
    """Decisions on one region; raises :class:`Split` where the region does not decide.

    ``known`` holds decisions already made on an enclosing region (they stay true on every
    sub-region), so re-running a computation after a split does not ask the solver again.
    """

    def __init__(self, region: Region, known: dict | None = None):
        self.region = region
        self.known = known if known is not None else {}
        self.local: dict = {}

    # -- comparisons ---------------------------------------------------------------------------
    def decide(self, cond):
        cond = sympy.sympify(cond)
        if cond in (sympy.true, sympy.false):
            return bool(cond)
        if cond in self.known:
            return self.known[cond]
        r = self.region.decide(cond, timeout_ms=DECIDE_MS)
        if r is None:
            raise Split(nice_relation(cond, self.region.kinds), cond)
        self.known[cond] = r
        return r

    def _strict_sign(self, p) -> int:
        """+1 or -1 if ``p`` is strictly positive / negative on the region, 0 if not (yet) known."""
        p = sympy.sympify(p)
        if p.is_number:
            return int(sympy.sign(p))
        if p.is_positive:
            return 1
        if p.is_negative:
            return -1
        return self._definite(("strict", p), *strict_signs(p))

    def _definite(self, key, pos, neg) -> int:
        """+1 if ``pos`` holds on the region, -1 if ``neg`` does, else 0.

        Only definite answers go to ``known`` (they stay true on sub-regions); an unknown is
        remembered for this region only.
        """
        if key in self.known:
            return self.known[key]
        if key in self.local:
            return self.local[key]
        if self.region.decide(pos, timeout_ms=PROBE_MS) is True:
            self.known[key] = 1
            return 1
        if self.region.decide(neg, timeout_ms=PROBE_MS) is True:
            self.known[key] = -1
            return -1
        self.local[key] = 0
        return 0

    def _weak_sign(self, p) -> int:
        """+1 if ``p >= 0`` on the region, -1 if ``p <= 0``, 0 if neither is known."""
        return self._definite(("weak", p), to_zero(p, ">="), to_zero(p, "<="))

    def _reduce(self, e, weak=False):
        """(s, q): ``e`` has the sign of ``s*q`` on the region, q a product of undecided factors.

        With ``weak``, a factor known only to be >= 0 (or <= 0) counts as positive (negative):
        the sign of ``e`` is then right wherever ``e != 0``, which is all a tie-insensitive
        comparison needs.
        """
        e = sympy.sympify(e)
        num, den = num_den(e)
        s = 1
        rest = []
        for part, power in ((num, 1), (den, -1)):
            c, fs = factors(part)
            s *= int(sympy.sign(c)) if c != 0 else 0
            if s == 0:
                return 0, sympy.Integer(0)
            for f, m in fs:
                if power > 0 and len(fs) == 1 and m == 1 and not f.is_Symbol:
                    # a single factor: deciding its sign is the caller's one question anyway
                    rest.append(f)
                    continue
                sf = self._strict_sign(f)
                if not sf and weak and power > 0:
                    sf = self._weak_sign(f)
                if sf:
                    s *= sf ** m
                elif power < 0:
                    # a denominator factor of unknown sign: split on it (rare)
                    if self.decide(to_zero(f, ">=")):
                        if self.decide(to_zero(f, ">")):
                            continue
                        raise ZeroDivisionError(f"denominator {f} vanishes on the region")
                    s *= (-1) ** m
                else:
                    rest.append(f ** m)
        return s, sympy.Mul(*rest)

    def sign(self, e) -> int:
        """-1, 0 or 1: the sign of ``e`` on the whole region (Split if it varies)."""
        e = sympy.sympify(e)
        if e.is_number:
            return int(sympy.sign(e))
        key = ("sign", e)
        if key in self.known:
            return self.known[key]
        s, q = self._reduce(e)
        if s == 0 or q == 1:
            out = s
        elif self.decide(to_zero(q, ">=")):
            out = s if self.decide(to_zero(q, ">")) else 0
        else:
            out = -s
        self.known[key] = out
        return out

    def nonneg(self, e) -> bool:
        """Is ``e >= 0`` on the whole region (two-way Split if it varies)."""
        e = sympy.sympify(e)
        if e.is_number:
            return bool(e >= 0)
        key = ("nonneg", e)
        if key in self.known:
            return self.known[key]
        s, q = self._reduce(e)
        if s == 0 or q == 1:
            out = s >= 0
        else:
            out = self.decide(to_zero(q, ">=" if s > 0 else "<="))
        self.known[key] = out
        return out

    def le(self, a, b) -> bool:
        if a is sympy.oo:
            return b is sympy.oo
        if b is sympy.oo:
            return True
        return self.nonneg(sympy.sympify(b) - sympy.sympify(a))

    def weak_le(self, a, b) -> bool:
        """``a <= b`` where a tie may be answered either way (for max, min and order statistics).

        Only one question is ever asked about an unordered pair (``u <= v`` with ``u`` first in a
        canonical order), so the two directions never split the region into a measure-zero
        piece ``a == b``.
        """
        if a is sympy.oo or b is sympy.oo:
            return self.le(a, b)
        a, b = sympy.sympify(a), sympy.sympify(b)
        if a == b:
            return True
        if sympy.default_sort_key(a) <= sympy.default_sort_key(b):
            return self._weak_nonneg(b - a)
        return not self._weak_nonneg(a - b)

    def _weak_nonneg(self, e) -> bool:
        if e.is_number:
            return bool(e >= 0)
        key = ("weak-nonneg", e)
        if key in self.known:
            return self.known[key]
        s, q = self._reduce(e, weak=True)
        if s == 0 or q == 1:
            out = s >= 0
        else:
            out = self.decide(to_zero(q, ">=" if s > 0 else "<="))
        self.known[key] = out
        return out

    def is_zero(self, a) -> bool:
        a = sympy.sympify(a)
        if a.is_number:
            return a == 0
        key = ("zero", a)
        if key in self.known:
            return self.known[key]
        s, q = self._reduce(a)
        if s == 0:
            out = True
        elif q == 1:
            out = False
        else:
            # zero iff q == 0; split on the side q can take (q >= 0 or q <= 0) when one is known
            if self.region.decide(to_zero(q, ">=")) is True:
                out = not self.decide(to_zero(q, ">"))
            elif self.region.decide(to_zero(q, "<=")) is True:
                out = not self.decide(to_zero(q, "<"))
            else:
                out = self.sign(q) == 0
        self.known[key] = out
        return out

    def max(self, xs):
        xs = [x for x in xs if x is not None]
        if not xs:
            return None
        best = xs[0]
        for x in xs[1:]:
            if best is sympy.oo:
                break
            if x is sympy.oo or not self.weak_le(x, best):
                best = x
        return best

    def min(self, xs):
        xs = [x for x in xs if x is not None]
        if not xs:
            return None
        best = xs[0]
        for x in xs[1:]:
            if self.weak_le(x, best):
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
            return -1 if self.weak_le(x[0], y[0]) else 1
        return sorted(column, key=functools.cmp_to_key(cmp))

    def extreme_sum(self, column, j, largest: bool):
        """Sum of the ``j`` smallest (``largest=False``) or largest values of a block column.

        The blocks are taken greedily from the extreme end (only the comparisons that matter are
        asked). When ``N - j`` is simpler than ``j`` (``j = N - 1``, ``N - k``) the complement is
        used: the ``j`` smallest are everything but the ``N - j`` largest.
        """
        j = sympy.sympify(j)
        n = sympy.expand(sum((sympy.sympify(c) for _, c in column), sympy.Integer(0)))
        rest = sympy.expand(n - j)
        if _simpler(rest, j):
            total = sum((v * c for v, c in column), sympy.Integer(0))
            return _clean(total - self._greedy(column, rest, not largest))
        return _clean(self._greedy(column, j, largest))

    def _greedy(self, column, j, largest):
        pool = [(sympy.sympify(v), sympy.sympify(c)) for v, c in column]
        remaining = sympy.sympify(j)
        total = sympy.Integer(0)
        while pool and not self.le(remaining, 0):
            best = 0
            for i in range(1, len(pool)):
                if pool[i][0] == pool[best][0]:
                    continue
                if largest:
                    better = not self.weak_le(pool[i][0], pool[best][0])
                else:
                    better = self.weak_le(pool[i][0], pool[best][0])
                if better:
                    best = i
            value, count = pool.pop(best)
            take = self.min([count, remaining])
            total += value * take
            remaining = sympy.expand(remaining - take)
        return total


def _simpler(a, b) -> bool:
    """Is the integer expression ``a`` simpler than ``b`` (to choose j or N - j)?"""
    if a.is_number and b.is_number:
        return a < b
    if a.is_number != b.is_number:
        return a.is_number
    return sympy.count_ops(a) < sympy.count_ops(b)
