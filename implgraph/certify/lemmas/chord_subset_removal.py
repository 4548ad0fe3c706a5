"""The chord lemma where every subset of N - k records is within [1/T, T] of the table and B compares the table with
the table without one record (KL, Renyi of a finite order; both ways), k neither N - 1 (every subset of one record:
:mod:`implgraph.certify.lemmas.chord_narrowed`) nor 1 (record removal itself:
:mod:`implgraph.certify.lemmas.chord_removal`); a helper of :mod:`implgraph.certify.lemmas.chord` (docs/proofs/tight-subset-removal.md).

**Lemma.** Bucket by bucket with P_l > 0, let a_j = x_j/P (so sum_j a_j = N, a_j >= 0) and y = Q_i/P, the mean of a_j
over j != i. (1) The subsets of N - k records among the N - 1 others average to Q_i, so y lies in [1/T, T]. (2) The
subsets holding record i leave out k of the others; their ratios (N - sum_K a_j)/(N - k) average to (N - k y)/(N - k),
within [1/T, T], so y lies in [(N - (N - k) T)/k, (N - (N - k)/T)/k]. (3) a_i = N - (N - 1) y >= 0 gives
y <= N/(N - 1). So y lies in [max(1/T, (N - (N - k) T)/k), min(T, N/(N - 1), (N - (N - k)/T)/k)], and every value
there is reached (the others at y, record i at N - (N - 1) y: the subsets without record i at y, those with it at
(N - k y)/(N - k)). The chord of phi and of its perspective on that interval bound B both ways (chord_removal).

What is re-derived: the interval, exactly this maximum and minimum of k read from A's declared size; U from it as
the larger chord (chord_removal.value_ok); a tight claim's family both ways and at sampled points (the lemma's).
"""

from __future__ import annotations

import sympy

from implgraph.core.formula import parse_expr

__all__ = ["removed", "interval", "at_one"]

_T = sympy.Symbol("T", positive=True)
_N = sympy.Symbol("N", integer=True, positive=True)


def removed(A, div):
    """k = N - (A's size) where A is a two-sided subset level whose size is neither 1 nor N - 1, B a removal KL or
    Renyi of a finite order; else None."""
    if not (A.get("family") == "subset" and A.get("sides") == "two-sided" and A.get("size") is not None
            and div.compares == "removal" and div.kind in ("kl", "renyi") and div.order is not sympy.oo):
        return None
    size = parse_expr(str(A["size"]), {"N": _N})
    if sympy.simplify(size - 1) == 0 or sympy.simplify(size - (_N - 1)) == 0:
        return None
    return sympy.simplify(_N - size)


def interval(k):
    """The lemma's interval of Q_i/P for k removed records (module notes)."""
    return (sympy.Max(1 / _T, (_N - (_N - k) * _T) / k),
            sympy.Min(_T, _N / (_N - 1), (_N - (_N - k) / _T) / k))


def at_one(cert):
    """``(ok, cert')``: U is Piecewise((0, T <= 1), (V, True)) (at T = 1 the interval is the point 1 and the chord
    reads 0/0; every subset's mean is then the table's, so B = 0); cert' is the certificate with V as U, for the
    chord's steps (which then hold beyond T = 1 only: the family's domain must exclude T = 1)."""
    upper = parse_expr(str(cert.get("upper")), {"T": _T, "N": _N})
    if not (isinstance(upper, sympy.Piecewise) and len(upper.args) == 2 and upper.args[0].expr == 0
            and upper.args[0].cond == sympy.Le(_T, 1) and upper.args[1].cond == sympy.true):
        return False, cert
    return True, {**cert, "upper": str(upper.args[1].expr)}
