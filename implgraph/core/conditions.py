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

__all__ = ["simplify_condition", "simplify_pieces", "pair_equalities", "merge_disjuncts", "condition_text",
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


def _key(rel):
    """``(e, op)`` with ``rel`` equivalent to ``e op 0`` and ``e`` normalised up to a positive factor."""
    if not isinstance(rel, sympy.core.relational.Relational):
        return None
    e = sympy.expand(rel.lhs - rel.rhs)
    op = {">=": ">=", ">": ">", "<=": "<=", "<": "<", "==": "="}.get(rel.rel_op)
    if op is None:
        return None
    coeff, _ = e.as_coeff_Mul()
    if coeff.is_negative:
        e, op = -e, {">=": "<=", ">": "<", "<=": ">=", "<": ">", "=": "="}[op]
    return e, op


_JOIN = {frozenset({"=", ">"}): "weak", frozenset({"=", "<"}): "weak",
         frozenset({">=", "<"}): "true", frozenset({">", "<="}): "true"}


def _join_atoms(x, y):
    """``x | y`` as one atom (or ``sympy.true``) when both compare the same expression, else None."""
    kx, ky = _key(x), _key(y)
    if kx is None or ky is None or kx[0] != ky[0]:
        return None
    how = _JOIN.get(frozenset({kx[1], ky[1]}))
    if how == "true":
        return sympy.true
    if how == "weak":
        strict = y if kx[1] == "=" else x
        return (sympy.Ge if strict.rel_op == ">" else sympy.Le)(strict.lhs, strict.rhs)
    return None


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
                new = rest if joined is sympy.true else rest | {joined}
                terms = [t for k, t in enumerate(terms) if k not in (i, j)] + [frozenset(new)]
                changed = True
                break
            if changed:
                break
    return sympy.Or(*[sympy.And(*t) for t in terms])


def pair_equalities(cond):
    """``cond`` with every conjunction of ``a >= b`` and ``a <= b`` written ``a = b`` (exact rewriting,
    true for every value) and repeated conjuncts removed.

    >>> import sympy
    >>> a, m = sympy.symbols("a m", real=True)
    >>> condition_text(pair_equalities((m >= 2*a) & (m <= 2*a) & (a > 0)))
    '(m = 2*a) & (a > 0)'
    """
    if isinstance(cond, sympy.Or):
        return sympy.Or(*[pair_equalities(c) for c in cond.args])
    if not isinstance(cond, sympy.And):
        return cond
    parts = list(cond.args)
    keys = {}
    for i, c in enumerate(parts):
        k = _key(c) if isinstance(c, sympy.core.relational.Relational) else None
        if k is not None:
            keys.setdefault(k, i)
    out, used = [], set()
    for i, c in enumerate(parts):
        k = _key(c) if isinstance(c, sympy.core.relational.Relational) else None
        if k is not None and k[1] in (">=", "<="):
            other = (k[0], "<=" if k[1] == ">=" else ">=")
            if other in keys and i not in used:
                used.update({i, keys[other]})
                out.append(sympy.Eq(c.lhs, c.rhs))
                continue
        if i not in used:
            out.append(c)
    return sympy.And(*out)


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
    cond = merge_disjuncts(pair_equalities(sympy.sympify(cond)))
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
