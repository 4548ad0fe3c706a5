"""Coq proofs of ``0 <= p`` (or ``0 < p``) on a certificate's domain, by the shift argument of
:mod:`implgraph.certify.positive`: write each variable ``x = x' + L`` with ``x' = x - L >= 0`` a hypothesis (or
``x = L`` an equation), so that ``p`` is a polynomial ``q`` in the ``x'`` with nonnegative coefficients. The Coq
proof states ``p = q(x - L, ...)`` (checked by ``ring``) and proves ``0 <= q(...)`` factor by factor (the library's
``pos``: every leaf ``0 <= x - L`` or ``0 <= c`` by ``lra``). The search for the shifts is the checker's; Coq checks
the result on its own. Where no shift works, the proof is ``nra`` (which may fail: then the file fails to check).
"""

from __future__ import annotations

from implgraph.kernel_coq.adapter import positive as _pos

__all__ = ["shift_choice", "nonneg_tactic"]


def shift_choice(p, atoms, strict=False):
    """``{x: (L, exact)}`` (``{}`` for a constant) with every coefficient of p shifted >= 0, or None."""
    if p.is_ground:
        c = _pos._constant(p)
        return {} if (c > 0 if strict else c >= 0) else None
    bounds = _pos.lower_bounds(atoms)
    known = _pos._vars(p)
    tries = 0

    def search(todo, choice):
        nonlocal tries
        if not todo:
            tries += 1
            return dict(choice) if _pos._accepts(_pos._substituted(p, choice), strict) else None
        x, rest = todo[0], todo[1:]
        for cand in _pos._ordered(bounds.get(x, ()), known):
            if tries >= _pos.MAX_TRIES:
                return None
            if _pos._reaches(_pos._vars(cand[0]), x, choice):
                continue
            new = sorted((y for y in _pos._vars(cand[0]) if y not in choice and y != x and y not in rest), key=str)
            found = search(rest + new, {**choice, x: cand})
            if found is not None:
                return found
        return None

    return search(sorted(_pos._vars(p), key=str), {})


def _resolved(L, exact):
    """L with every variable fixed by an equation replaced by its value (no cycles: the search forbids them)."""
    for _ in range(len(exact) + 1):
        hit = [x for x in _pos._vars(L) if x in exact]
        if not hit:
            return L
        L = L.compose([(x, exact[x]) for x in hit])
    return L


def nonneg_tactic(tr, p, atoms, strict=False) -> str:
    """A tactic proving the goal ``0 <= p`` (``0 < p``) whose hypotheses give the ``atoms`` (``[(op, g)]``)."""
    choice = shift_choice(p, atoms, strict)
    if choice is None:
        return "nra"
    if not choice:
        return "lra"
    exact = {x: L for x, (L, ex) in choice.items() if ex}
    names = {}
    steps = []
    for x, (L, ex) in choice.items():
        Lr = _resolved(L, exact)
        if ex:
            if x in _pos._vars(p):
                steps.append(f"replace {tr.name(str(x))} with ({tr.poly(Lr)}) by lra")
        else:
            names[str(x)] = f"({tr.name(str(x))} - ({tr.poly(Lr)}))"
    q = _pos._substituted(p, choice)
    qtext = tr.poly(q, names=_primed(names, q))
    steps.append(f"match goal with |- _ {'<' if strict else '<='} ?g => replace g with ({qtext}) by ringq end")
    if strict:
        steps.append("pos_strict")      # the constant term (> 0) is printed first
    else:
        steps.append("pos")
    return "(" + "; ".join(steps) + ")"


def _primed(names, q):
    """The shifted polynomial's generators are the original ones standing for ``x'``: each is written
    ``(x - L)`` (an unshifted generator of q keeps its own name)."""
    return {g: names[g] for g in names}
