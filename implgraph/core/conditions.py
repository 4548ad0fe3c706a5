"""Conditions of piecewise results, simplified against a region before they are printed.

:func:`simplify_condition` returns an equivalent of a condition *on the region* (never a weaker or
stronger one): parts that contradict the region are dropped, conjuncts the region (with the other
conjuncts) implies are dropped, and a condition equal on the region to one of its own relations is
replaced by that relation. Every step is a decision of :meth:`implgraph.core.region.Region.decide`;
an undecided step (solver unknown or timeout) keeps the condition as it was.
:func:`simplify_pieces` applies it to the pieces ``(value, condition)`` of a result and drops the
pieces that contradict the region.
"""

from __future__ import annotations

import time

import sympy
from sympy.printing.str import StrPrinter

from implgraph.core.region import Region

__all__ = ["simplify_condition", "simplify_pieces", "pair_equalities", "merge_disjuncts", "restrict_to_region",
           "condition_text",
           "PROBE_MS", "MAX_ATOMS"]

PROBE_MS = 2000
"""Milliseconds each solver call may take (a timeout keeps the condition unsimplified)."""
MAX_ATOMS = 12
"""A condition with more distinct comparisons is not tried against each of them (2 solver calls each)."""


class _ConditionPrinter(StrPrinter):
    def _print_Equality(self, expr):
        return f"{self._print(expr.lhs)} = {self._print(expr.rhs)}"

    def _print_Unequality(self, expr):
        return f"{self._print(expr.lhs)} != {self._print(expr.rhs)}"

    def _join(self, expr, sep):
        args = sorted(expr.args, key=sympy.default_sort_key)
        return sep.join(f"({self._print(a)})" if isinstance(a, (sympy.core.relational.Relational, sympy.And, sympy.Or))
                        else self._print(a) for a in args)

    def _print_And(self, expr):
        return self._join(expr, " & ")

    def _print_Or(self, expr):
        return self._join(expr, " | ")


def condition_text(cond) -> str:
    """A condition as text: sympy's ``&`` / ``|`` form, equalities written ``a = b``.

    >>> import sympy
    >>> x = sympy.Symbol("x")
    >>> condition_text(sympy.Eq(x, 2) | (x > 3))
    '(x = 2) | (x > 3)'
    """
    return _ConditionPrinter().doprint(cond)


def _as_interval(rel):
    """``(base, set)`` with ``rel`` equivalent to ``base in set`` (an interval of the reals; for an
    integer-valued ``base`` the integers it holds widened by 1/2 on each side, so that adjacent integer
    ranges touch), or None."""
    if not isinstance(rel, sympy.core.relational.Relational) or rel.rel_op not in (">=", ">", "<=", "<", "=="):
        return None
    e = sympy.expand(rel.lhs - rel.rhs)
    const, base = e.as_coeff_Add()
    if base == 0:
        return None
    op = rel.rel_op
    if base.as_coeff_Mul()[0].is_negative:
        base, const, op = -base, -const, {">=": "<=", ">": "<", "<=": ">=", "<": ">", "==": "=="}[op]
    c = -const
    half = sympy.Rational(1, 2)
    if base.is_integer:
        lo, hi = {">=": (sympy.ceiling(c), sympy.oo), ">": (sympy.floor(c) + 1, sympy.oo),
                  "<=": (-sympy.oo, sympy.floor(c)), "<": (-sympy.oo, sympy.ceiling(c) - 1),
                  "==": (c, c) if c.is_integer else (1, 0)}[op]
        return base, (sympy.Interval(lo - half, hi + half) if lo <= hi else sympy.S.EmptySet)
    return base, {">=": sympy.Interval(c, sympy.oo), ">": sympy.Interval.open(c, sympy.oo),
                  "<=": sympy.Interval(-sympy.oo, c), "<": sympy.Interval.open(-sympy.oo, c),
                  "==": sympy.FiniteSet(c)}[op]


def _rel(base, op, bound):
    """``base op bound`` written with the terms of ``base`` of negative coefficient on the right
    (``m - 2*a >= 0`` as ``m >= 2*a``)."""
    pos = [t for t in sympy.Add.make_args(base) if not t.as_coeff_Mul()[0].is_negative]
    neg = [-t for t in sympy.Add.make_args(base) if t.as_coeff_Mul()[0].is_negative]
    lhs, rhs = sympy.Add(*pos), sympy.Add(*neg) + bound
    return {">=": sympy.Ge, ">": sympy.Gt, "<=": sympy.Le, "<": sympy.Lt, "==": sympy.Eq}[op](lhs, rhs)


def _from_interval(base, interval):
    """The relation(s) saying ``base in interval`` (the inverse of :func:`_as_interval`), or None."""
    if interval == sympy.S.Reals:
        return sympy.true
    if isinstance(interval, sympy.FiniteSet) and len(interval) == 1:
        return _rel(base, "==", next(iter(interval)))
    if not isinstance(interval, sympy.Interval):
        return None
    lo, hi, lo_open, hi_open = interval.start, interval.end, interval.left_open, interval.right_open
    if base.is_integer:
        half = sympy.Rational(1, 2)
        lo, hi, lo_open, hi_open = lo + half, hi - half, False, False
        if lo == hi:
            return _rel(base, "==", lo)
    parts = []
    if lo != -sympy.oo:
        parts.append(_rel(base, ">" if lo_open else ">=", lo))
    if hi != sympy.oo:
        parts.append(_rel(base, "<" if hi_open else "<=", hi))
    return sympy.And(*parts)


def _join_atoms(x, y):
    """``x | y`` as one relation (or a range, or ``sympy.true``) when both bound the same expression and
    their union is one interval, else None (exact: true for every value)."""
    ix, iy = _as_interval(x), _as_interval(y)
    if ix is None or iy is None or ix[0] != iy[0]:
        return None
    union = sympy.Union(ix[1], iy[1])
    if isinstance(union, sympy.Union):
        return None
    return _from_interval(ix[0], union)


def merge_disjuncts(cond):
    """``cond`` with pairs of disjuncts that differ in one comparison of the same expression joined:
    ``(a = b & C) | (a > b & C)`` is ``a >= b & C``, ``(a >= b & C) | (a < b & C)`` is ``C``
    (exact rewriting, true for every value).

    >>> import sympy
    >>> a, m, n = sympy.symbols("a m n", real=True)
    >>> condition_text(merge_disjuncts((sympy.Eq(m, 2*a) & (n > 1)) | ((m > 2*a) & (n > 1))))
    '(m >= 2*a) & (n > 1)'
    """
    if not isinstance(cond, sympy.Or):
        return cond
    terms = [frozenset(sympy.And.make_args(d)) for d in cond.args]
    changed = True
    while changed and len(terms) > 1:
        changed = False
        for i in range(len(terms)):
            for j in range(i + 1, len(terms)):
                only_i, only_j = terms[i] - terms[j], terms[j] - terms[i]
                if len(only_i) != 1 or len(only_j) != 1:
                    continue
                joined = _join_atoms(next(iter(only_i)), next(iter(only_j)))
                if joined is None:
                    continue
                rest = terms[i] & terms[j]
                new = rest if joined is sympy.true else rest | set(sympy.And.make_args(joined))
                terms = [t for k, t in enumerate(terms) if k not in (i, j)] + [frozenset(new)]
                changed = True
                break
            if changed:
                break
    return sympy.Or(*[sympy.And(*t) for t in terms])


def pair_equalities(cond):
    """``cond`` with the bounds of each conjunction on one expression intersected (exact rewriting, true
    for every value): ``a >= b & a <= b`` is ``a = b``, ``N <= 2*k & N <= 2*k - 1`` is ``N <= 2*k - 1``,
    a conjunction of disjoint bounds is false.

    >>> import sympy
    >>> a, m = sympy.symbols("a m", real=True)
    >>> condition_text(pair_equalities((m >= 2*a) & (m <= 2*a) & (a > 0)))
    '(m = 2*a) & (a > 0)'
    """
    if isinstance(cond, sympy.Or):
        return sympy.Or(*[pair_equalities(c) for c in cond.args])
    if not isinstance(cond, sympy.And):
        return cond
    groups: dict = {}
    other = []
    for c in cond.args:
        iv = _as_interval(c)
        if iv is None:
            other.append(c)
        else:
            groups.setdefault(iv[0], []).append((c, iv[1]))
    out = list(other)
    for base, atoms in groups.items():
        if len(atoms) == 1:
            out.append(atoms[0][0])
            continue
        common = sympy.Intersection(*[iv for _, iv in atoms])
        if common == sympy.S.EmptySet:
            return sympy.false
        back = _from_interval(base, common)
        out.extend([a for a, _ in atoms] if back is None else sympy.And.make_args(back))
    return sympy.And(*out)


def restrict_to_region(cond, region: Region):
    """``cond`` with each bound on an expression the region also bounds intersected with the region's
    bounds (exact on the region, no solver): dropped when the region implies it, an equality when only
    one value is left (``k <= 2`` on ``2 <= k`` is ``k = 2``), false when none is.

    >>> import sympy
    >>> from implgraph.core.region import Region
    >>> k = sympy.Symbol("k", integer=True)
    >>> restrict_to_region(k <= 2, Region({k: "integer"}, (2 <= k,)))
    Eq(k, 2)
    """
    bounds: dict = {}
    for c in region.constraints:
        iv = _as_interval(c)
        if iv is not None:
            bounds[iv[0]] = sympy.Intersection(bounds.get(iv[0], sympy.S.Reals), iv[1])

    def one(atom):
        iv = _as_interval(atom)
        if iv is None or iv[0] not in bounds:
            return atom
        base, own = iv
        common = sympy.Intersection(own, bounds[base])
        if common == bounds[base]:
            return sympy.true
        if common == sympy.S.EmptySet:
            return sympy.false
        back = _from_interval(base, common)
        return back if isinstance(back, sympy.Eq) else atom

    def walk(c):
        if isinstance(c, (sympy.And, sympy.Or)):
            return c.func(*[walk(a) for a in c.args])
        return one(c)

    return walk(cond)


def _atoms(cond) -> list:
    rels = {a for a in sympy.preorder_traversal(cond) if isinstance(a, sympy.core.relational.Relational)}
    rels |= {sympy.Eq(r.lhs, r.rhs) for r in list(rels) if r.rel_op in (">=", "<=")}
    return sorted(rels, key=lambda r: (sympy.count_ops(r), sympy.default_sort_key(r)))


def _equivalent_on(region: Region, a, b, timeout_ms) -> bool:
    """Is ``a`` equivalent to ``b`` at every point of ``region`` (proved both ways)?"""
    return (region.add(a).decide(b, timeout_ms=timeout_ms) is True
            and region.add(b).decide(a, timeout_ms=timeout_ms) is True)


def _tidy_conjunction(region: Region, conj, timeout_ms):
    """``conj`` (an And or a relation) without the conjuncts implied by the region and the others."""
    parts = list(sympy.And.make_args(conj))
    i = 0
    while i < len(parts) and len(parts) > 1:
        others = parts[:i] + parts[i + 1:]
        if region.add(*others).decide(parts[i], timeout_ms=timeout_ms) is True:
            parts = others
        else:
            i += 1
    return sympy.And(*parts)


def simplify_condition(cond, region: Region, timeout_ms: int = PROBE_MS):
    """An equivalent of ``cond`` on ``region``, as short as the decisions allow.

    Returns ``sympy.true`` when the region implies ``cond``, ``sympy.false`` when ``cond``
    contradicts the region, else a condition equivalent to ``cond`` at every point of the region.

    Examples
    --------
    >>> import sympy
    >>> from implgraph.core.region import Region
    >>> a, m = sympy.symbols("a m", real=True)
    >>> r = Region({a: "real", m: "real"}, (a > 0,))
    >>> simplify_condition(((a < m) & (m < 2*a)) | ((m >= 2*a) & (m <= 2*a)) | (m > 2*a), r)
    a < m
    >>> simplify_condition(m < -a, r.add(m > 0))
    False
    """
    cond = merge_disjuncts(pair_equalities(restrict_to_region(sympy.sympify(cond), region)))
    if cond in (sympy.true, sympy.false):
        return cond
    whole = region.decide(cond, timeout_ms=timeout_ms)
    if whole is not None:
        return sympy.true if whole else sympy.false
    atoms = _atoms(cond)
    if len(atoms) <= MAX_ATOMS:
        for atom in atoms:
            if _equivalent_on(region, cond, atom, timeout_ms):
                return atom
    try:
        disjuncts = sympy.Or.make_args(sympy.to_dnf(cond, simplify=False))
    except (TypeError, ValueError):       # pragma: no cover - to_dnf refuses the expression
        return cond
    kept = [d for d in disjuncts if region.add(d).is_empty() is not True]
    tidy = merge_disjuncts(sympy.Or(*[_tidy_conjunction(region, d, timeout_ms) for d in kept]))
    shorter = tidy if sympy.count_ops(tidy) < sympy.count_ops(cond) else cond
    return shorter if shorter is cond or _equivalent_on(region, shorter, cond, timeout_ms) else cond


def simplify_pieces(pieces, region: Region, timeout_ms: int = PROBE_MS, budget: float | None = None) -> list:
    """``[(value, condition)]`` with every condition simplified on ``region`` (:func:`simplify_condition`)
    and the pieces whose condition contradicts the region dropped.

    ``budget``: seconds for the whole; past it a condition is only rewritten by
    :func:`pair_equalities` (its piece still dropped when the region provably excludes it).
    """
    out = []
    start = time.perf_counter()
    for value, cond in pieces:
        if budget is None or time.perf_counter() - start < budget:
            simple = simplify_condition(cond, region, timeout_ms)
        else:
            simple = sympy.false if region.add(cond).is_empty() is True else pair_equalities(cond)
        if simple is not sympy.false:
            out.append((value, simple))
    return out
