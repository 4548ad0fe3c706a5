"""Polynomial inequalities proved by shifting to nonnegative variables (exact, no solver).

To prove ``p >= 0`` (or ``> 0``) where the hypotheses hold, pick for each variable x of p a lower
bound from a linear hypothesis, ``x >= L`` (``x - L >= 0``, L free of x), and write
``x = L + x'`` with a fresh ``x' >= 0`` (an equation ``x = L`` substitutes L itself). When the
substitutions form no cycle, every point of the hypotheses has all ``x' >= 0``, and p is a
polynomial q in the x'. If every coefficient of q is >= 0, then ``p = q >= 0`` at every such point
(and ``> 0`` when moreover q's constant term is > 0). The argument is printed (``N = k + 1 + N'``)
so a reader can redo it: expand q and look at its signs.

Example: ``k (T - 1)^2 (N - k) >= 0`` under ``T >= 1``, ``k >= 1``, ``k <= N - 1``: with
``T = 1 + T'``, ``k = 1 + k'``, ``N = k + 1 + N'`` it is ``(1 + k') T'^2 (1 + N')``, all coefficients
positive.

Examples
--------
>>> from implgraph.certify.expr import Reader
>>> rd = Reader(["N", "T", "k"])
>>> hyps = [rd.relation_poly(c) for c in ("T >= 1", "k >= 1", "k <= N - 1")]
>>> nonnegative(rd.poly("k*(T - 1)**2*(N - k)"), hyps)
"N = N' + k + 1, T = T' + 1, k = k' + 1"
"""

from __future__ import annotations

import functools

__all__ = ["nonnegative", "lower_bounds"]

MAX_TRIES = 48


def lower_bounds(atoms):
    """``{x: [(L, exact)]}``: ``x >= L`` (``x == L`` when exact) from atoms ``(op, g)``, ``g op 0``
    (op ``>=``, ``>`` or ``==``), where g is linear in x with a constant coefficient (> 0 unless an
    equation)."""
    out = {}
    for op, g in atoms:
        for x, cand in _atom_bounds(op == "==", g):
            if cand not in out.setdefault(x, []):
                out[x].append(cand)
    return out


def _ordered(cands, known):
    """Equations first, then bounds bringing in the fewest variables not in ``known``, then the
    tighter-looking ones (more variables, larger constant)."""
    return sorted(cands, key=lambda c: (not c[1], len(_vars(c[0]) - known), -len(_vars(c[0])), -_constant(c[0])))


@functools.lru_cache(maxsize=4096)
def _atom_bounds(exact, g):
    out = []
    if not g:
        return out
    for x in _vars(g):
        if g.degree(x) != 1:
            continue
        c = g.diff(x)
        if not c.is_ground or (not exact and c.LC <= 0):
            continue
        out.append((x, (x - g.quo_ground(c.LC), exact)))
    return out


@functools.lru_cache(maxsize=4096)
def _vars(p):
    gens = p.ring.gens
    return frozenset(gens[i] for m in p.itermonoms() for i, e in enumerate(m) if e)


def _constant(p):
    return p.coeff(p.ring.one) if p else 0


def _reaches(start, x, choice):
    """Does a variable of ``start`` lead back to x through the chosen bounds?"""
    seen, stack = set(), list(start)
    while stack:
        y = stack.pop()
        if y == x:
            return True
        if y not in seen:
            seen.add(y)
            if y in choice:
                stack += _vars(choice[y][0])
    return False


def _substituted(p, choice):
    """p with each chosen x replaced by ``x' + L`` (or ``L``), L's variables replaced in turn."""
    memo = {}

    def value(x):
        if x not in memo:
            L, exact = choice[x]
            inner = L.compose([(y, value(y)) for y in _vars(L)]) if _vars(L) else L
            memo[x] = inner if exact else x + inner
        return memo[x]

    return p.compose([(x, value(x)) for x in choice])


def _accepts(q, strict):
    if any(c < 0 for c in q.coeffs()):
        return False
    return not strict or _constant(q) > 0


def _text(choice):
    def name(x):
        return f"{x}'"
    parts = []
    for x in sorted(choice, key=str):
        L, exact = choice[x]
        rest = str(L)
        rest = f" - {rest[1:]}" if rest.startswith("-") else f" + {rest}"
        parts.append(f"{x} = {L}" if exact else f"{x} = {name(x)}{rest}" if L else f"{x} = {name(x)}")
    return ", ".join(parts)


def nonnegative(p, atoms, strict=False):
    """The substitution (text) proving ``p >= 0`` (``> 0`` if ``strict``) under ``atoms``, or None.

    Parameters
    ----------
    p : PolyElement
        A polynomial of a :func:`sympy.polys.rings.ring` over QQ.
    atoms : list of (str, PolyElement)
        Hypotheses ``g op 0``, op ``>=``, ``>`` or ``==`` (a strict one is used as ``>=``).
    strict : bool

    Returns
    -------
    str or None
        ``"constant"`` for a constant p, else the substitutions; None when no choice of at most
        :data:`MAX_TRIES` works (not a disproof).
    """
    if p.is_ground:
        c = _constant(p)
        return "constant" if (c > 0 if strict else c >= 0) else None
    bounds = lower_bounds(atoms)
    known = _vars(p)
    tries = 0

    def search(todo, choice):
        nonlocal tries
        if not todo:
            tries += 1
            return _text(choice) if _accepts(_substituted(p, choice), strict) else None
        x, rest = todo[0], todo[1:]
        for cand in _ordered(bounds.get(x, ()), known):
            if tries >= MAX_TRIES:
                return None
            if _reaches(_vars(cand[0]), x, choice):
                continue
            new = sorted((y for y in _vars(cand[0]) if y not in choice and y != x and y not in rest), key=str)
            found = search(rest + new, {**choice, x: cand})
            if found:
                return found
        return None

    return search(sorted(_vars(p), key=str), {})
