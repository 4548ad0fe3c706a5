"""The chord lemma on record removal, both ways (docs/proofs/chord-removal.md); helpers of
:mod:`implgraph.certify.lemmas.chord`, which calls them where A is the subset level of size N - 1 and B compares the
table with the table without one record.

**Lemma.** On a table at ``dp`` raw level T, every ratio q = Q_i/P (bucket by bucket) lies in [1/T, h] for each h
below, and D(Q_i || P) = sum_l P_l phi(q_l), D(P || Q_i) = sum_l P_l psi(q_l) with psi(q) = q phi(1/q) (convex where
phi is: the perspective), sum_l P_l q_l = 1; the chord of each bounds it, so B <= the larger of the two chords.
*The intervals.* h = T (A itself); h = N/(N - 1) (x_i = N P - (N - 1) Q_i >= 0); at N = 2, h = 2 - 1/T (Q_1 = x_2,
Q_2 = x_1, Q_1/P = 2 - Q_2/P and Q_2/P >= 1/T). The checker accepts h = T and h = N/(N - 1) always, h = 2 - 1/T
where the domain states N <= 2, and the lower end 1/T only.

What is re-derived: the interval (above); psi from phi; U is exactly the divergence of the larger of the two chords'
values (its maximum's arguments, each equal to one of the two values by exact algebra, and each value equal to one
argument); for a tight claim, the family's two compared rows give U both ways (the same matching).
"""

from __future__ import annotations

import sympy

__all__ = ["interval_ok", "value_ok", "family_ok", "psi"]

_R = sympy.Symbol("r", positive=True)
_T = sympy.Symbol("T", positive=True)
_N = sympy.Symbol("N", integer=True, positive=True)


def psi(phi):
    """The perspective q phi(1/q)."""
    return sympy.simplify(_R * phi.subs(_R, 1 / _R))


def _states_two(domain) -> bool:
    """Does the domain state N <= 2 (N = 2 with N >= 2)?"""
    for c in domain:
        if isinstance(c, sympy.LessThan) and c.lhs == _N and c.rhs == 2:
            return True
        if isinstance(c, sympy.GreaterThan) and c.lhs == 2 and c.rhs == _N:
            return True
        if isinstance(c, sympy.Equality) and {c.lhs, c.rhs} == {_N, sympy.Integer(2)}:
            return True
    return False


def interval_ok(lo, hi, domain) -> bool:
    """The interval [lo, hi] is one the lemma proves for Q_i/P (module notes)."""
    if sympy.simplify(lo - 1 / _T) != 0:
        return False
    if any(sympy.simplify(hi - h) == 0 for h in (_T, _N / (_N - 1))):
        return True
    return sympy.simplify(hi - (2 - 1 / _T)) == 0 and _states_two(domain)


def _same(a, b) -> bool:
    return sympy.simplify(sympy.expand_log(sympy.simplify(a - b), force=True)) == 0


def _mean_of(div, upper):
    """The quantity the maximum is of: exp((alpha - 1) U) for Renyi, U itself for KL."""
    return sympy.simplify(sympy.exp((div.order - 1) * upper)) if div.kind == "renyi" else upper


def _matches(mean, values) -> bool:
    """Every argument of the maximum ``mean`` is one of ``values`` and every value one of its arguments (each pair
    compared once)."""
    args = mean.args if isinstance(mean, sympy.Max) else (mean,)
    same = [[_same(a, v) for v in values] for a in args]
    return all(any(row) for row in same) and all(any(col) for col in zip(*same))


def value_ok(div, upper, lo, hi) -> bool:
    """U is B's divergence of max(chord of phi, chord of psi) on [lo, hi] (exact algebra)."""
    if div.kind not in ("kl", "renyi") or div.order is sympy.oo:
        return False
    phi = div.phi(_R)
    L = (1 - lo) / (hi - lo)
    values = [sympy.cancel(L * g.subs(_R, hi) + (1 - L) * g.subs(_R, lo)) for g in (phi, psi(phi))]
    return _matches(_mean_of(div, upper), values)


def family_ok(div, upper, x, y) -> bool:
    """Two binary distributions x (= Q) and y (= P) in T and N give U both ways: the larger of
    sum y phi(x/y) and sum x phi(y/x) is U's (exact algebra)."""
    if div.kind not in ("kl", "renyi") or div.order is sympy.oo:
        return False
    phi = div.phi(_R)
    x2, y2 = (x, 1 - x), (y, 1 - y)
    fwd = sympy.Add(*[b * phi.subs(_R, sympy.cancel(a / b)) for a, b in zip(x2, y2)])
    rev = sympy.Add(*[a * phi.subs(_R, sympy.cancel(b / a)) for a, b in zip(x2, y2)])
    return _matches(_mean_of(div, upper), [fwd, rev])
