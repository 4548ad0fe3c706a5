"""The chord lemma where every subset of N - k records is within [1/T, T] of the table and B compares the table with
the table without one record (KL, Renyi of a finite order, total variation, the hockey-stick; both ways), k neither N - 1 (every subset of one record:
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
Total variation and the hockey-stick at gamma >= 1 (:func:`value_steps`): lo <= 1 <= hi argument by argument (each
of the maximum's arguments at most 1, each of the minimum's at least 1, from the domain), then total variation is its
own perspective and its chord (hi - 1)(1 - lo)/(hi - lo) (phi(hi) = (hi - 1)/2, phi(lo) = (1 - lo)/2); the
hockey-stick's larger chord max(0, L (hi - gamma), (1 - L)(1 - gamma lo)), L = (1 - lo)/(hi - lo) (phi(lo) = 0,
psi(hi) = 0).
"""

from __future__ import annotations

import sympy

from implgraph.core.formula import parse_expr

__all__ = ["removed", "interval", "at_one", "value_steps", "size_steps"]

_T = sympy.Symbol("T", positive=True)
_R = sympy.Symbol("r", positive=True)
_N = sympy.Symbol("N", integer=True, positive=True)


def removed(A, div):
    """k = N - (A's size) where A is a two-sided subset level whose size is neither 1 nor N - 1, B a removal KL,
    Renyi of a finite order, total variation or the hockey-stick at a number gamma >= 1; else None."""
    finite = div.kind in ("kl", "renyi", "tv") and div.order is not sympy.oo
    hockey = div.kind == "hockey-stick" and getattr(div.order, "is_number", False) and bool(div.order >= 1)
    if not (A.get("family") == "subset" and A.get("sides") == "two-sided" and A.get("size") is not None
            and div.compares == "removal" and (finite or hockey)):
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


def _ends_around_one(lo, hi, cert):
    """Each argument of lo's maximum is at most 1 and each of hi's minimum at least 1, from the domain and k >= 1
    (exact, or by the solvers: :class:`implgraph.certify.hypotheses.Hypotheses`)."""
    from implgraph.certify.hypotheses import domain_hypotheses
    hyps = domain_hypotheses(cert, {"T": _T, "N": _N})
    lows = lo.args if isinstance(lo, sympy.Max) else (lo,)
    highs = hi.args if isinstance(hi, sympy.Min) else (hi,)
    return all(hyps.implied(sympy.Le(x, 1))[0] for x in lows) and all(hyps.implied(sympy.Ge(x, 1))[0] for x in highs)


def value_steps(cert, div, lo, hi, upper):
    """The value steps of total variation and the hockey-stick (module notes); None for another kind."""
    from implgraph.certify.lemmas.chord_narrowed import _self_perspective
    from implgraph.certify.lemmas.chord_removal import _matches
    if div.kind not in ("tv", "hockey-stick"):
        return None
    steps = [("lo <= 1 <= hi (each argument of the ends, from the domain)", _ends_around_one(lo, hi, cert), "exact")]
    L = (1 - lo) / (hi - lo)
    if div.kind == "tv":
        steps.append(("phi is its own perspective (B the same both ways)", _self_perspective(div.phi(_R)), "exact"))
        steps.append(("U is the chord's value (hi - 1)(1 - lo)/(hi - lo) (exact algebra)",
                      sympy.cancel(upper - (hi - 1) * (1 - lo) / (hi - lo)) == 0, "exact"))
        return steps
    g = div.order
    values = [sympy.Integer(0), sympy.cancel(L * (hi - g)), sympy.cancel((1 - L) * (1 - g * lo))]
    steps.append(("U is the larger of the hockey-stick's two chords, max(0, L (hi - gamma), (1 - L)(1 - gamma lo)) "
                  "(exact algebra)", isinstance(upper, sympy.Max) and _matches(upper, values), "exact"))
    return steps


def size_steps(cert):
    """The domain implies A's size N - k in [1, N - 1] (k >= 1 records removed and a subset of at least one)."""
    from implgraph.certify.hypotheses import domain_hypotheses
    names = {"T": _T, "N": _N}
    hyps = domain_hypotheses(cert, names)
    size = parse_expr(str((cert.get("A") or {}).get("size")), names)
    return [(f"the domain implies {size} {op} {bound}", bool(hyps.implied(rel)[0]), "the domain's conditions")
            for rel, op, bound in ((sympy.Ge(size, 1), ">=", "1"), (sympy.Le(size, _N - 1), "<=", "N - 1"))]
