"""``subset-supremum``: the tight f of the subset-monotone case (docs/arguments/subset-supremum.md).

With q = min(j_B, N - j_A), ``U = T`` where ``(N - q) T >= q`` and ``q / (N - (N - q) T)`` below, for any number of
buckets, attained by a binary table of two blocks. Reported beside the subset-monotone bound (``exact``), whose
certificate stays that of ``U = T``.
"""

from __future__ import annotations

from fractions import Fraction

import sympy

from implgraph.core import methods
from implgraph.core.simplified import simplified
from implgraph.prover.answer import Bound, T
from implgraph.prover.registry import certificate_parts
from implgraph.prover.shapes import decide
from implgraph.prover.tables import binary_column_table, frac

METHOD = methods.SUBSET_SUPREMUM
#: where the prover tries it (it has no handler of its own)
TRIED = "with `subset-monotone` (its `exact` where j_B > j_A)"


def _steps(ja, jb, region, N, q):
    """The argument's steps, each decided by the region's solver."""
    m, low, high = sympy.symbols("m_ low_ high_", positive=True)
    base = region.with_symbols({m: "real", low: "real", high: "real"})
    below = N - (N - q) * T > 0
    return {
        "q <= j_B and N - q >= j_A": decide(region, sympy.And(q <= jb, N - q >= ja)),
        "m / low_q <= q / (N - (N - q) T)": decide(
            base.add(N * m - q * low - (N - q) * high == 0, high <= T * m, below), q * m <= low * (N - (N - q) * T)),
        "high_q / m <= (N T - (N - q)) / (q T)": decide(
            base.add(N * m - q * high - (N - q) * low == 0, low * T >= m), q * T * high <= m * (N * T - (N - q))),
        "(N T - (N - q)) / (q T) <= q / (N - (N - q) T)": decide(
            region.add(below), (N * T - (N - q)) * (N - (N - q) * T) <= q * q * T),
        "q / (N - (N - q) T) <= T where (N - q) T < q": decide(region.add((N - q) * T < q), q <= T * (N - (N - q) * T)),
    }


def subset_supremum(ja, jb, region, N):
    """The supremum of B's subset ratio (size j_B) over tables whose subset ratio of size j_A <= j_B is
    at most T, for every N and any number of buckets, as a tight :class:`Bound`; None where the solver
    does not confirm the argument's steps.

    With q = min(j_B, N - j_A) the supremum is ``T`` where ``(N - q) T >= q`` and ``q / (N - (N - q) T)``
    below. Per bucket, with mean m: the j_B smallest have a mean >= that of the q smallest (q <= j_B),
    and the N - q largest (N - q >= j_A) a mean <= T m, so ``N m = q low_q + (N - q) high_{N-q}`` gives
    ``m / low_{j_B} <= q / (N - (N - q) T)``; the mirror argument bounds ``high_{j_B} / m`` by
    ``(N T - (N - q)) / (q T)``, never more. A binary table of two blocks (j_B records at m/F, N - j_B at
    m (N F - j_B)/((N - j_B) F), F the supremum, scaled so that the second bucket's values lie in
    [1/F, 1]) attains it (:func:`subset_supremum_table`). The steps are decided by the region's solver
    on the claim's condition; the sorting facts are those of the subset-monotone argument.
    """
    q = sympy.Min(jb, N - ja)
    steps = _steps(ja, jb, region, N, q)
    checks = [f"{k}: {v}" for k, v in steps.items()]
    if not all(v is True for v in steps.values()):
        return None
    upper = sympy.Piecewise((T, (N - q) * T >= q), (q / (N - (N - q) * T), True))
    arg = (f"with q = min(j_B, N - j_A) = {q}: the j_B smallest values have a mean >= that of the q smallest, and "
           "the N - q >= j_A largest a mean <= T m, so m / low_(j_B) <= q / (N - (N - q) T); the largest j_B "
           "are bounded by the mirror argument, never above it (each step decided by z3); so B's ratio is at most "
           "T where (N - q) T >= q and q / (N - (N - q) T) below, attained by a binary table of two blocks (j_B "
           "records at m/F, N - j_B at m (N F - j_B)/((N - j_B) F), F the bound)")
    return Bound(upper, True, METHOD.name, arg, checks=checks,
                 build=lambda point: subset_supremum_table(upper, ja, jb, N, point))


def subset_supremum_table(upper, ja, jb, N, point):
    """The two-block binary table of :func:`subset_supremum` at ``point`` (T, N and the parameters)."""
    Tv = sympy.Rational(point[T])
    Nv = int(point[N]) if N in point else int(N)
    j = int(sympy.sympify(jb).subs(point))
    F = sympy.Rational(upper.subs(point))
    if F == 1 or Tv == 1:
        return binary_column_table([Fraction(1, 2)] * Nv)
    lo, hi = 1 / F, (Nv * F - j) / ((Nv - j) * F)       # the two blocks as multiples of the mean
    s = (1 - 1 / F) / max(lo, hi)                      # scaled: the largest value is 1 - 1/F
    return binary_column_table([frac(s * lo)] * j + [frac(s * hi)] * (Nv - j))


def _supremum_q(A, B, N):
    """q = min(j_B, N - j_A) as text: a polynomial, or a ``Min`` of the two."""
    ja, jb = (sympy.sympify(d["size"], locals={"N": N}) for d in (A, B))
    return str(jb) if simplified(jb - (N - ja)) == 0 else f"Min({jb}, {N - ja})"


def _supremum_upper(q):
    """``Min(T, 1/Max(D/q, 1/T))`` with D/q = 1 - (N/q - 1)(T - 1), D = N - (N - q) T: T where D <= q/T,
    i.e. (T - 1)((N - q) T - q) >= 0, and q/D (< T, with D > 0) otherwise; the Piecewise of
    :func:`subset_supremum` without Piecewise, q written once."""
    return f"Min(T, 1/Max(1 - (N/({q}) - 1)*(T - 1), 1/T))"


def _supremum_family(B, upper, N):
    """The two blocks of the supremum (Lemma 2.1's table), F = U: in bucket 1, j_B records at
    (N - j_B)/(N (F + 1) - j_B) and N - j_B at (N F - j_B)/(N (F + 1) - j_B) = 1 - N/(N (F + 1) - j_B), mean
    (N - j_B) F/(N (F + 1) - j_B), so mean / low_{j_B} = F; bucket 2 (1 - x) has its two values in ratio F,
    so all its ratios are <= F (<= T). The checker confirms A <= T and B = U at every sampled point."""
    j = sympy.sympify(B["size"], locals={"N": N})
    den = f"(N*(({upper}) + 1) - ({j}))"
    return [{"count": str(j), "value": f"({N - j})/{den}", "class": "E1"},
            {"count": str(N - j), "value": f"1 - N/{den}", "class": "E2"}]


#: the multipliers of ``extreme-means-supremum``'s identities (q_ the kernel's q)
_SUPREMUM_MULTIPLIERS = {
    "lower": {"N*m = q*low_q + (N-q)*high_(N-q)": "1", "high_(N-q) <= T*m": "N - q_"},
    "upper": {"N*m = q*high_q + (N-q)*low_(N-q)": "T", "low_(N-q) >= m/T": "N - q_"},
    "gap": {"(T-1)^2 >= 0": "N*(N - q_)"}}


@certificate_parts(METHOD, family=lambda cert, ctx: {"blocks": _supremum_family(cert["B"], cert["upper"], ctx.N)})
def upper_certificate(cert, ctx):
    q = _supremum_q(cert["A"], cert["B"], ctx.N)
    cert["upper"] = _supremum_upper(q)
    cert["upper_certificate"] = {"lemma": METHOD.lemma, "q": q,
                                 "multipliers": {k: dict(v) for k, v in _SUPREMUM_MULTIPLIERS.items()}}
