"""The chord lemma's narrowed intervals on record removal (helpers of :mod:`implgraph.certify.lemmas.chord`;
docs/proofs/tight-pairwise-removal.md): A pairwise against a removal divergence (Q_i/P = N/(N - 1 + x_i/Q_i), in
[N/(N - 1 + T), N T/((N - 1) T + 1)]), A a two-sided subset level of size 1 against a removal KL, Renyi of a finite
order, total variation or hockey-stick (Q_i/P = (N - x_i/P)/(N - 1), in [1/T or (N - T)/(N - 1) where T <= N - 1, (N - 1/T)/(N - 1)]); the
hockey-stick's two chords; a maximum resolved at T = 1 + u and, where the domain states N >= 2, N = 2 + v.
"""

from __future__ import annotations

import sympy

from implgraph.certify.lemmas.chord_removal import _matches, psi
from implgraph.core.formula import parse_expr

_R = sympy.Symbol("r", positive=True)
_T = sympy.Symbol("T", positive=True)
_N = sympy.Symbol("N", integer=True, positive=True)


def _pairwise_removal(A, div) -> bool:
    """A pairwise against a removal KL, Renyi of a finite order or total variation: the narrowed interval's case."""
    return A.get("family") == "pairwise" and A.get("sides") == "two-sided" and div.compares == "removal" \
        and (div.kind in ("kl", "tv") or (div.kind == "renyi" and div.order is not sympy.oo) or _hockey(div))


def _hockey(div) -> bool:
    """The hockey-stick at a number gamma >= 1."""
    return div.kind == "hockey-stick" and getattr(div.order, "is_number", False) and bool(div.order >= 1)


def _hockey_value_ok(div, upper, lo, hi, n_two) -> bool:
    """The hockey-stick both ways on [lo, hi]: lo <= 1 <= hi (at T = 1 + u and, where the domain states N >= 2,
    N = 2 + v) and gamma >= 1 give phi(lo) = max(lo - gamma, 0) = 0 and psi(hi) = max(1 - gamma hi, 0) = 0, so the
    chords are L max(hi - gamma, 0) and (1 - L) max(1 - gamma lo, 0) and their larger is
    max(0, L (hi - gamma), (1 - L)(1 - gamma lo)), L = (1 - lo)/(hi - lo) in [0, 1]: U's maximum's arguments are
    those three (exact algebra)."""
    g = div.order
    if not (_without_max(1 - lo, n_two).is_nonnegative and _without_max(hi - 1, n_two).is_nonnegative):
        return False
    L = (1 - lo) / (hi - lo)
    values = [sympy.Integer(0), sympy.cancel(L * (hi - g)), sympy.cancel((1 - L) * (1 - g * lo))]
    # a chord <= 0 on the whole domain (at T = 1 + u) adds nothing to the maximum with 0: U may leave it out
    kept = [values[0]] + [v for v in values[1:] if _without_max(v, n_two).is_nonpositive is not True]
    return isinstance(upper, sympy.Max) and (_matches(upper, values) or _matches(upper, kept))


def _two_point_ok(second, y, lo, hi) -> bool:
    """A two-bucket family whose others' row Q = ``second`` against the table P = ``y`` has ratios exactly hi and lo,
    the P-mass at hi being L = (1 - lo)/(hi - lo): every chord is then an equality (exact algebra)."""
    L = (1 - lo) / (hi - lo)
    r1, r2 = sympy.cancel(second / y), sympy.cancel((1 - second) / (1 - y))

    def zero(e):
        return sympy.simplify(e) == 0
    return (zero(r1 - hi) and zero(r2 - lo) and zero(y - L)) or (zero(r1 - lo) and zero(r2 - hi) and zero(1 - y - L))


def _single_removal(A, div) -> bool:
    """A two-sided subset level of size 1 (each record against the table) against a removal KL, Renyi of a finite
    order, total variation or hockey-stick (the kinds whose both-ways bound the lemma re-derives)."""
    return A.get("family") == "subset" and A.get("sides") == "two-sided" and A.get("size") is not None \
        and sympy.simplify(parse_expr(str(A["size"]), {"N": _N}) - 1) == 0 and div.compares == "removal" \
        and (div.kind in ("kl", "tv") or (div.kind == "renyi" and div.order is not sympy.oo) or _hockey(div))


def _single_interval_ok(lo, hi, domain) -> bool:
    """[lo, hi] encloses Q_i/P where every record is within ratio T of the table: Q_i/P = (N - r)/(N - 1) with
    r = x_i/P in [1/T, T], so Q_i/P <= (N - 1/T)/(N - 1) and >= (N - T)/(N - 1), which is in (0, 1] where
    1 <= T <= N - 1 (the domain must state T <= N - 1 for that lower end); and Q_i/P >= 1/T always (a mean of the
    others' ratios, each >= 1/T)."""
    if sympy.simplify(hi - (_N - 1 / _T) / (_N - 1)) != 0:
        return False
    if sympy.simplify(lo - 1 / _T) == 0:
        return True
    return sympy.simplify(lo - (_N - _T) / (_N - 1)) == 0 and _states_le(domain, _T, _N - 1)


def _self_perspective(phi) -> bool:
    """Is phi its own perspective, q phi(1/q) = phi(q) for q > 0 (total variation: D(P || Q) = D(Q || P))?"""
    gap = sympy.simplify(psi(phi) - phi)
    if gap == 0:
        return True
    # a maximum of affine pieces: compare on both sides of 1 (q = 1 + u and q = 1/(1 + u), u >= 0)
    u = sympy.Symbol("u", nonnegative=True)
    return all(sympy.simplify(gap.subs(_R, q)) == 0 for q in (1 + u, 1 / (1 + u)))


def _states_n_two(domain) -> bool:
    """Does the domain state N >= 2?"""
    return any(sympy.simplify(c) == sympy.Ge(_N, 2) for c in domain
               if isinstance(c, (sympy.GreaterThan, sympy.LessThan)))


def _without_max(expr, n_two=False):
    """``expr`` at T = 1 + u (u >= 0), and where ``n_two`` (the domain states N >= 2) N = 2 + v (v >= 0 an integer),
    simplified: a maximum whose arguments' order follows is resolved."""
    u = sympy.Symbol("u", nonnegative=True)
    shift = {_T: 1 + u}
    if n_two:
        shift[_N] = 2 + sympy.Symbol("v", integer=True, nonnegative=True)
    return sympy.simplify(expr.subs(shift))


def _states_le(domain, small, large) -> bool:
    """Does the domain state ``small <= large`` or ``small < large`` (either way round)?"""
    for c in domain:
        if isinstance(c, (sympy.LessThan, sympy.GreaterThan, sympy.StrictLessThan, sympy.StrictGreaterThan)):
            below = isinstance(c, (sympy.LessThan, sympy.StrictLessThan))
            lhs, rhs = (c.lhs, c.rhs) if below else (c.rhs, c.lhs)
            if sympy.simplify(lhs - small) == 0 and sympy.simplify(rhs - large) == 0:
                return True
    return False


def _single_class_hi(domain):
    """Each record within [1/T, T] of the table, or each class of B's partition, against a class divergence: a
    class's ratio is at most T, and at most N - (N - 1)/T (a class of s >= 1 records has ratio (N - the others' N - s
    ratios)/s, the others' each >= 1/T, each record's or each class's: <= (N - (N - s)/T)/s <= N - (N - 1)/T for
    T >= 1); the latter is the smaller where T >= N - 1 ((T - 1)(T - (N - 1)) >= 0): that end where the domain states
    T >= N - 1 (or >)."""
    return _N - (_N - 1) / _T if _states_le(domain, _N - 1, _T) else _T


def one_record_ends(domain):
    """One record against the table at most T (a one-sided subset level of size 1) against a class divergence: a
    record's ratio x_i/P is N minus the others' N - 1 ratios, each <= T, so >= N - (N - 1) T, and each >= 0, so <= N;
    a class's mean too (an average of records). The ends ``(lo, hi)``: N - (N - 1) T where the domain states
    T < N/(N - 1) (or <=; there it is > 0), else 0; N where the domain states T >= N (or >), else T."""
    lo = _N - (_N - 1) * _T if _states_le(domain, _T, _N / (_N - 1)) else sympy.Integer(0)
    return lo, (_N if _states_le(domain, _N, _T) else _T)


def one_record_narrowed(cert, div) -> bool:
    """A one-sided subset level of size 1, or a one-sided class level, against a class divergence whose certificate's
    interval is narrowed (lo not 0 or hi not T): a piece whose tightness rests on its family alone (the family's
    checks)."""
    A, data = cert.get("A") or {}, cert.get("upper_certificate") or {}
    return A.get("sides") == "one-sided" and A.get("family") in ("subset", "class") and div.compares == "class" \
        and (str(data.get("lo")) != "0" or str(data.get("hi")) != "T")
