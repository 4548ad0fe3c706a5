"""Pieces of a level: run a :class:`~implgraph.core.symbolic.Ctx` computation on every part of a
region it needs (:func:`split_leaves`, :func:`piecewise`) and merge the pieces of equal value.

:func:`split_leaves` re-runs the computation on the two halves of the region whenever the context
raises :class:`~implgraph.core.symbolic.Split` (halves that are provably empty are dropped);
:func:`merge_pieces` joins the pieces of equal value and simplifies their conditions
(complementary conjuncts resolved, conjuncts implied by the region or the other conjuncts dropped).
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy

from implgraph.core.region import Region
from implgraph.core.relations import nice_relation
from implgraph.core.factoring import factors, num_den
from implgraph.core.symbolic import PROBE_MS, Ctx, Split, Undecidable

__all__ = ["Piece", "split_leaves", "piecewise", "merge_pieces", "MAX_SPLITS"]

MAX_SPLITS = 14
TIDY_CHECKS = 24  # solver calls allowed to drop redundant conjuncts of one level's pieces


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
        return num_den(a - b)[0] == 0
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
        num, den = num_den(value)
        coeff = sympy.Integer(1)
        parts = []
        for part, power in ((num, 1), (den, -1)):
            c, fs = factors(part)
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
    return tidy if sympy.expand(tidy - value) == 0 or num_den(tidy - value)[0] == 0 else value


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
                diff = sympy.Eq(num_den(pa.value - pb.value)[0], 0) if pa.value is not sympy.oo else sympy.true
                # b's expression must also be defined there (equal numerators say nothing where its
                # denominator is 0: a 0/0 would replace a's value)
                den_b = num_den(pb.value)[1] if pb.value is not sympy.oo else sympy.Integer(1)
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
