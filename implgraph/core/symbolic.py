"""Exact piecewise evaluation of a level over a parameter region.

A level computation is ordinary Python code written against a :class:`Ctx`: it asks
``ctx.le(a, b)``, ``ctx.max(xs)``, ``ctx.extreme_sum(column, j, largest)`` and so on. When the
region decides the question (z3, :meth:`Region.decide`) the code goes on; when it does not, the
context raises :class:`Split` and :func:`piecewise` re-runs the computation on the two halves of
the region (``cond`` and ``not cond``), dropping halves that are provably empty. The result is a
list of :class:`Piece` s: a condition (on top of the region) and the exact value there.

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
from dataclasses import dataclass

import sympy

from implgraph.core.region import Region, integer_form

__all__ = ["Split", "Ctx", "Piece", "piecewise", "MAX_SPLITS", "nice_relation"]

MAX_SPLITS = 14
DECIDE_MS = 500  # solver budget of a comparison; a timeout splits the region (sound, just longer)
PROBE_MS = 200
TIDY_CHECKS = 24  # solver calls allowed to drop redundant conjuncts of one level's pieces


class Split(Exception):
    """The region does not decide ``cond`` (``orig`` is the condition as it was asked)."""

    def __init__(self, cond, orig=None):
        super().__init__(str(cond))
        self.cond = cond
        self.orig = cond if orig is None else orig


class Undecidable(Exception):
    pass


@functools.lru_cache(maxsize=100_000)
def _num_den(e):
    """(numerator, denominator) of ``e`` in lowest terms (polynomial gcd; sympy fallback)."""
    num, den = sympy.sympify(e).as_numer_denom()
    gens = sorted(num.free_symbols | den.free_symbols, key=lambda s: s.name)
    if gens:
        try:
            p = sympy.Poly(num, *gens)
            q = sympy.Poly(den, *gens)
            if p.domain.is_Numerical and q.domain.is_Numerical:
                g = p.gcd(q)
                return p.quo(g).as_expr(), q.quo(g).as_expr()
        except (sympy.PolynomialError, sympy.GeneratorsNeeded, sympy.CoercionFailed):
            pass
    return sympy.fraction(sympy.cancel(sympy.together(e)))


@functools.lru_cache(maxsize=100_000)
def _factor(p):
    return sympy.factor(p)


@functools.lru_cache(maxsize=100_000)
def _factors(p):
    """(constant, [(factor, multiplicity)]) of a polynomial expression."""
    try:
        c, fs = sympy.factor_list(p)
    except (sympy.PolynomialError, sympy.GeneratorsNeeded, NotImplementedError):
        return sympy.Integer(1), ((p, 1),)
    return c, tuple(fs)


def _tidy(p):
    """A factored polynomial with every factor's leading coefficient positive (sign pulled out)."""
    c, fs = _factors(p)
    out = c
    for f, m in fs:
        if f.could_extract_minus_sign():
            f = -f
            out = out * (-1) ** m
        out = out * f ** m
    return out


@functools.lru_cache(maxsize=100_000)
def _clean(e):
    e = sympy.sympify(e)
    if e.is_number:
        return sympy.nsimplify(e) if e.is_Float else e
    if e.has(sympy.exp, sympy.log, sympy.Min, sympy.Max, sympy.Abs, sympy.Piecewise):
        return sympy.factor(sympy.cancel(sympy.together(e)))
    num, den = _num_den(e)
    return _tidy(num) / _tidy(den)


# -- readable relations -----------------------------------------------------------------------

_OPS = {">": sympy.Gt, ">=": sympy.Ge, "<": sympy.Lt, "<=": sympy.Le, "==": sympy.Eq, "!=": sympy.Ne}
_FLIP = {">": "<", ">=": "<=", "<": ">", "<=": ">=", "==": "==", "!=": "!="}


@functools.lru_cache(maxsize=100_000)
def _nice(p, op, kinds_key):
    kinds = dict(kinds_key)
    p = sympy.expand(p)
    strong = integer_form(p, kinds)
    if strong is not None:
        p = strong
        if op == ">":
            p, op = p - 1, ">="
        elif op == "<":
            p, op = p + 1, "<="
    else:
        # clear rational denominators (a positive factor keeps the relation)
        den = 1
        for term in sympy.Add.make_args(p):
            c = term.as_coeff_Mul()[0]
            if c.is_Rational:
                den = sympy.ilcm(den, c.q)
        p = sympy.expand(p * den)
    # divide by the positive content when it keeps integer coefficients
    coeffs = [t.as_coeff_Mul()[0] for t in sympy.Add.make_args(p)]
    if all(c.is_Integer for c in coeffs):
        g = functools.reduce(sympy.igcd, [abs(int(c)) for c in coeffs], 0)
        if g > 1:
            p = sympy.expand(p / g)
    terms = sympy.Add.make_args(p)
    # solve for a symbol that occurs once, linearly, with coefficient +-1 (prefer integer symbols)
    candidates = []
    for t in terms:
        c, rest = t.as_coeff_Mul()
        if rest.is_Symbol and abs(c) == 1 and sum(1 for u in terms if rest in u.free_symbols) == 1:
            candidates.append((kinds.get(rest) != "integer", rest.name, rest, c))
    if candidates:
        _, _, sym, c = min(candidates)
        other = sympy.expand(-(p - c * sym) / c)
        return _OPS[op if c > 0 else _FLIP[op]](sym, other)
    left = sympy.Add(*[t for t in terms if t.as_coeff_Mul()[0] > 0])
    right = sympy.Add(*[-t for t in terms if t.as_coeff_Mul()[0] < 0])
    if left == 0:
        return _OPS[_FLIP[op]](right, 0)
    return _OPS[op](left, right)


def nice_relation(rel, kinds=None):
    """A relation ``a REL b`` rewritten in a readable equivalent form over the region's kinds.

    Examples
    --------
    >>> N, k = sympy.symbols("N k", integer=True)
    >>> nice_relation(N - 2*k + 1 > 0, {N: "integer", k: "integer"})
    N >= 2*k
    """
    rel = sympy.sympify(rel)
    if not isinstance(rel, sympy.Rel) or rel.rel_op not in _OPS:
        return rel
    kinds = kinds or {}
    key = frozenset((s, k) for s, k in kinds.items() if s in rel.free_symbols)
    try:
        return _nice(rel.lhs - rel.rhs, rel.rel_op, key)
    except (TypeError, ValueError, sympy.PolynomialError):
        return rel


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
        return self._definite(("strict", p), sympy.Gt(p, 0), sympy.Lt(p, 0))

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
        return self._definite(("weak", p), sympy.Ge(p, 0), sympy.Le(p, 0))

    def _reduce(self, e, weak=False):
        """(s, q): ``e`` has the sign of ``s*q`` on the region, q a product of undecided factors.

        With ``weak``, a factor known only to be >= 0 (or <= 0) counts as positive (negative):
        the sign of ``e`` is then right wherever ``e != 0``, which is all a tie-insensitive
        comparison needs.
        """
        e = sympy.sympify(e)
        num, den = _num_den(e)
        s = 1
        rest = []
        for part, power in ((num, 1), (den, -1)):
            c, fs = _factors(part)
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
                    if self.decide(sympy.Ge(f, 0)):
                        if self.decide(sympy.Gt(f, 0)):
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
        elif self.decide(sympy.Ge(q, 0)):
            out = s if self.decide(sympy.Gt(q, 0)) else 0
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
            out = self.decide(sympy.Ge(q, 0) if s > 0 else sympy.Le(q, 0))
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
            out = self.decide(sympy.Ge(q, 0) if s > 0 else sympy.Le(q, 0))
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
            if self.region.decide(sympy.Ge(q, 0)) is True:
                out = not self.decide(sympy.Gt(q, 0))
            elif self.region.decide(sympy.Le(q, 0)) is True:
                out = not self.decide(sympy.Lt(q, 0))
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


@dataclass
class Piece:
    """A value on the part of the region where ``condition`` holds (on top of the region)."""

    condition: object
    value: object
    region: Region | None = None

    @property
    def cond_str(self) -> str:
        return "everywhere on the region" if self.condition is sympy.true else str(self.condition)


def split_leaves(region: Region, compute, max_splits: int = MAX_SPLITS) -> list:
    """Run ``compute(ctx)`` on every piece of ``region`` it needs, splitting where it raises Split.

    Returns
    -------
    list of (conditions, value, sub-region)
        One leaf per piece: the split conditions added to ``region`` (a tuple), the value
        ``compute`` returned there, and the sub-region. Provably empty halves are dropped.

    Raises
    ------
    Undecidable
        More than ``max_splits`` nested splits were needed.
    """
    leaves: list = []

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
            neg = nice_relation(sympy.Not(cond), reg.kinds)
            for c, truth in ((cond, True), (neg, False)):
                k2 = dict(ctx.known)
                k2[cond] = truth
                k2[s.orig] = truth
                k2[neg] = not truth
                run(reg.add(c), extra + (c,), depth + 1, k2)
            return
        leaves.append((extra, value, reg))

    run(region, (), 0, {})
    return leaves


def piecewise(region: Region, compute, max_splits: int = MAX_SPLITS) -> list:
    """Run ``compute(ctx)`` on every piece of the region it needs; return merged pieces.

    Raises
    ------
    Undecidable
        More than ``max_splits`` nested splits were needed.
    """
    leaves = split_leaves(region, compute, max_splits)
    out = [Piece(sympy.And(*extra) if extra else sympy.true, value, reg) for extra, value, reg in leaves]
    return merge_pieces(out, region=region, leaves=leaves)


def _same(a, b) -> bool:
    if a is None or b is None:
        return a is b
    if a is sympy.oo or b is sympy.oo:
        return a == b
    try:
        return _num_den(a - b)[0] == 0
    except (TypeError, ValueError):
        return a == b


def _could_hold(region: Region, cond) -> bool:
    """False if a known exact point of the region violates ``cond`` (then it cannot hold on it)."""
    for p in region.points():
        try:
            v = sympy.sympify(cond).xreplace(p)
        except Exception:  # pragma: no cover - defensive
            continue
        if v is sympy.false:
            return False
    return True


def _complement(atom, kinds):
    return nice_relation(sympy.Not(atom), kinds)


def _simplify_dnf(conjs: list, region: Region) -> list:
    """Simplify a disjunction of conjunctions of split atoms (each a frozenset)."""
    kinds = region.kinds
    conjs = [frozenset(c) for c in conjs]
    changed = True
    while changed:
        changed = False
        # drop duplicates and subsumed conjunctions (a superset of another)
        uniq = []
        for c in sorted(set(conjs), key=len):
            if not any(u <= c for u in uniq):
                uniq.append(c)
        conjs = uniq
        # resolution: (A & x) | (A & ~x) -> A
        for i in range(len(conjs)):
            for j in range(i + 1, len(conjs)):
                a, b = conjs[i], conjs[j]
                if len(a) != len(b):
                    continue
                da, db = a - b, b - a
                if len(da) == 1 and len(db) == 1:
                    x, y = next(iter(da)), next(iter(db))
                    if _complement(x, kinds) == y or _complement(y, kinds) == x:
                        conjs = [c for k, c in enumerate(conjs) if k not in (i, j)] + [a & b]
                        changed = True
                        break
            if changed:
                break
    # drop conjuncts implied by the region and the other conjuncts (cheap z3 checks, at most
    # TIDY_CHECKS per call so that tidying never dominates)
    out = []
    budget = TIDY_CHECKS
    for c in sorted(conjs, key=len):
        atoms = sorted(c, key=str)
        if len(atoms) <= 8:
            for atom in list(atoms):
                others = [a for a in atoms if a is not atom]
                sub = region.add(*others)
                if budget <= 0 or not _could_hold(sub, atom):
                    continue
                budget -= 1
                if sub.decide(atom, timeout_ms=PROBE_MS) is True:
                    atoms = others
        out.append(frozenset(_equalities(atoms)))
    return out


def _equalities(atoms):
    """``a >= b`` together with ``a <= b`` is written ``a == b``."""
    atoms = list(atoms)
    for x in list(atoms):
        if isinstance(x, sympy.GreaterThan):
            partner = [y for y in atoms if isinstance(y, sympy.LessThan) and y.lhs == x.lhs and y.rhs == x.rhs]
            if partner:
                atoms.remove(x)
                atoms.remove(partner[0])
                atoms.append(sympy.Eq(x.lhs, x.rhs))
    return atoms


def _positive_factors(value, points):
    """The same value with each factor written with the sign it has on the piece (cosmetic).

    A factor that is negative at every known point of the piece is negated (and the overall sign
    adjusted), so ``-N*(k - mu)/(k*(N*mu - N - k*mu + mu))`` reads ``N*(k - mu)/(k*(N - N*mu + ...))``.
    The value is unchanged as an expression; only its written form changes.
    """
    if value is None or value is sympy.oo or not points or not isinstance(value, sympy.Expr) \
            or value.is_number or value.has(sympy.log, sympy.exp, sympy.Min, sympy.Max, sympy.Abs):
        return value
    try:
        num, den = _num_den(value)
        coeff = sympy.Integer(1)
        parts = []
        for part, power in ((num, 1), (den, -1)):
            c, fs = _factors(part)
            coeff = coeff * c ** power
            out = sympy.Integer(1)
            for f, m in fs:
                vals = [f.xreplace(pt) for pt in points]
                if vals and all(v.is_number and v < 0 for v in vals):
                    f = -f
                    coeff = -coeff if m % 2 else coeff
                out = out * f ** m
            parts.append(out)
        tidy = coeff * (parts[0] / parts[1])
    except Exception:  # pragma: no cover - cosmetic only
        return value
    return tidy if sympy.expand(tidy - value) == 0 or _num_den(tidy - value)[0] == 0 else value


def _merge_equal_on_pieces(groups, leaves):
    """Fold a group into another whose value equals it on every one of its leaves."""
    groups = [(p, list(idx)) for p, idx in groups]
    changed = True
    budget = [TIDY_CHECKS]

    def proved(region, cond):
        if budget[0] <= 0:
            return False
        budget[0] -= 1
        return region.decide(cond, timeout_ms=PROBE_MS) is True

    while changed and len(groups) > 1:
        changed = False
        for a in range(len(groups)):
            pa, ia = groups[a]
            for b in range(len(groups)):
                pb, ib = groups[b]
                if a == b or pa.value is None or pb.value is None:
                    continue
                if (pa.value is sympy.oo) != (pb.value is sympy.oo):
                    continue
                diff = sympy.Eq(_num_den(pa.value - pb.value)[0], 0) if pa.value is not sympy.oo else sympy.true
                # b's expression must also be defined there (equal numerators say nothing where its
                # denominator is 0: a 0/0 would replace a's value)
                den_b = _num_den(pb.value)[1] if pb.value is not sympy.oo else sympy.Integer(1)
                defined = sympy.true if sympy.sympify(den_b).is_number else sympy.Ne(den_b, 0)
                if all(_could_hold(leaves[i][2], diff) for i in ia) and \
                        all(proved(leaves[i][2], diff) for i in ia) and \
                        all(defined is sympy.true or proved(leaves[i][2], defined) for i in ia):
                    groups[b] = (pb, ib + ia)
                    del groups[a]
                    changed = True
                    break
            if changed:
                break
    return groups


def merge_pieces(pieces, region: Region | None = None, leaves=None):
    """Merge pieces of equal value; simplify their conditions when the leaves are known."""
    groups: list = []
    for i, p in enumerate(pieces):
        for g in groups:
            if _same(p.value, g[0].value):
                g[1].append(i)
                break
        else:
            groups.append((p, [i]))
    if leaves is not None and region is not None:
        for _, _, leaf in leaves:          # every leaf's points are points of the region
            for p in leaf.points()[:3]:
                region._remember(p)
    if leaves is not None and 1 < len(groups) <= 8:
        groups = _merge_equal_on_pieces(groups, leaves)
    if len(groups) == 1:
        p = groups[0][0]
        return [Piece(sympy.true, p.value, region if region is not None else p.region)]
    if leaves is not None:
        groups = [(Piece(p.condition, _positive_factors(p.value, [pt for i in idx for pt in leaves[i][2].points()]),
                         p.region), idx) for p, idx in groups]
    merged = []
    for p, idx in groups:
        if leaves is not None and region is not None:
            conjs = _simplify_dnf([leaves[i][0] for i in idx], region)
            cond = sympy.Or(*[sympy.And(*c) for c in conjs])
            reg = leaves[idx[0]][2] if len(idx) == 1 else None
            if len(conjs) == 1:
                reg = region.add(*conjs[0])
        else:
            cond = sympy.Or(*[pieces[i].condition for i in idx])
            reg = pieces[idx[0]].region if len(idx) == 1 else None
        merged.append(Piece(cond, p.value, reg))
    return merged
