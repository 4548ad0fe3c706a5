"""``chi-square-tv``: a Renyi level of order 2 bounds the total variation, tight for every N
(docs/arguments/chi-square-tv.md).

A declares the Renyi divergence of order 2 (:class:`implgraph.definitions.divergences.Divergence`, kind ``renyi``,
order 2); at level T its chi^2 = exp(D_2) - 1 is at most c = e^T - 1. B's total variation is an event level:
TV(x, y) = max over events S of x(S) - y(S), and chi^2 obeys data processing (merging buckets does not raise it), so
every bound below is a bound on two buckets.

**Between records, both ways** (A compares ``pairs``; B the total variation between two records): with a = x(S),
b = y(S), (a - b)^2 <= c b (1 - b) and (a - b)^2 <= c a (1 - a), and
c - (4 + c)(a - b)^2 = 2 (c a (1 - a) - (a - b)^2) + 2 (c b (1 - b) - (a - b)^2) + c (1 - a - b)^2 >= 0, so

    U = sqrt(c/(c + 4)) = sqrt((e^T - 1)/(e^T + 3)),

attained for every N >= 2 by one record at (1/2 + m, 1/2 - m) and N - 1 at its mirror (1/2 - m, 1/2 + m), 2 m = U
(chi^2 = 16 m^2/(1 - 4 m^2) = c both ways). (The same bound read geometrically: the feasible pairs form a convex set
invariant under (a, b) -> (1 - b, 1 - a), which swaps the two directions and keeps a - b, so a symmetric pair is as
good.)

**On record removal** (B the total variation between the table P and the table without record i, Q_i, both ways):
P = (x_i + (N - 1) Q_i)/N gives P - Q_i = (x_i - Q_i)/N, and Q_i is a mean of records, so
TV(P, Q_i) <= max_k TV(x_i, x_k)/N:

    U = sqrt(c/(c + 4))/N,

attained by the same table (removing the lone record).

**A class against the table, one way** (A compares ``class``: chi^2(P_E || P) <= c; B a class's total variation
distance from the table over classes of >= s records): with a = P_E(S), p = P(S), (a - p)^2 <= c p (1 - p) and
a <= 1 give a - p <= min(sqrt(c)/2, max(1/2, c/(1 + c))) = h(c) (sqrt(c)/2 for c <= 1, c/(1 + c) beyond: where
a - p > 1/2, p <= 1 - (a - p) < 1/2, so p (1 - p) <= (a - p)(1 - (a - p)) and a - p <= c (1 - (a - p))); and
TV(P_E, P) <= (N - s)/N. So

    U = min(sqrt(c)/2, max(1/2, c/(1 + c)), (N - s)/N),    c/(1 + c) = 1 - e^-T,

attained for s = 1 by one record in its own class at p + t and the other N - 1 in one class, with t = U and
P = (p, 1 - p), p = min(1/2, 1 - t): chi^2 of the lone record is 4 t^2 = c (c <= 1), (1 - p)/p = c (c >= 1, U below
the cap) or N - 1 <= c (at the cap), the others' chi^2 is that over (N - 1)^2.

For example N = 2, c = 1/4: U = 1/4 (records (3/4, 1/4), (1/4, 3/4)); N = 4, c = 2: U = 2/3 = c/(1 + c) (the lone
record (1, 0), three at (1/9, 8/9)); N = 2, c >= 1: U = 1/2, the cap.

The one-sided bound is the chi^2/total-variation range: chi^2 >= 4 TV^2 for TV <= 1/2 and TV/(1 - TV) beyond
(cf. Gilardoni, IEEE Trans. Inf. Theory 56(11), 2010, on an f-divergence's range against the total variation; Sason
and Verdu, f-Divergence Inequalities, IEEE Trans. Inf. Theory 62(11), 2016). Both ways between records the range is
smaller, the symmetric pair being the worst. Pinsker's sqrt(T/2), which ``divergence-order`` and ``tv-distance``
gave here, is above each bound, by a factor tending to sqrt(2) as T -> 0.

The checker's lemma is ``chi-square-tv`` (:mod:`implgraph.certify.lemmas.chi_square_tv`); the Coq theorem
:mod:`implgraph.kernel_coq.gen_chi_square_tv` with ``coq/theories/ChiSquareTV.v`` (``ChiSquare.chi_pairs_slack``,
``RemovalScaling.removal_scaling`` between records and on removal).

Renyi orders other than the number 2 (a symbol ``alpha``, or another number) are not this argument's: the upper bounds
of ``divergence-order`` and ``tv-distance`` (Pinsker) answer there as before.
"""

from __future__ import annotations

import sympy

from implgraph.core import methods
from implgraph.definitions.divergences import divergence_of
from implgraph.prover.answer import Bound, T
from implgraph.prover.arguments.tv_distance import family_values
from implgraph.prover.registry import argument, certificate_parts
from implgraph.prover.tables import rows_build

METHOD = methods.CHI_SQUARE_TV

__all__ = ["upper", "family_rows", "bound", "case_of"]

#: the chi^2 level of a Renyi-2 level T
_C = sympy.exp(T) - 1


def _renyi2(div) -> bool:
    return div is not None and div.kind == "renyi" and div.order is not None and div.order.is_number \
        and div.order == 2


def case_of(a_div, b_div, b_distance, b_classes):
    """``"pairs"``, ``"removal"`` or ``"class"``: this argument's case for A's and B's declarations, else None."""
    if not _renyi2(a_div):
        return None
    if a_div.compares == "pairs" and b_div is not None and b_div.kind == "tv" and b_div.compares in ("pairs",
                                                                                                     "removal"):
        return b_div.compares
    s = sympy.sympify((b_classes or {}).get("min_size", 1))
    if a_div.compares == "class" and b_distance == "total-variation" and not (b_classes or {}).get("max_size") \
            and s.is_Integer and s >= 1:
        return "class"
    return None


def upper(case, N, s=1):
    """U of the case (module notes), in A's raw level T."""
    pair = sympy.sqrt(_C / (_C + 4))
    if case == "pairs":
        return pair
    if case == "removal":
        return pair / N
    return sympy.Min(sympy.sqrt(_C) / 2, sympy.Max(sympy.Rational(1, 2), 1 - sympy.exp(-T)), (N - s) / N)


def family_rows(case, N):
    """The attaining family ``[(count, first bucket's value, class)]`` of binary rows (module notes)."""
    if case in ("pairs", "removal"):
        x, y = family_values("chi-square", None)
        return [(sympy.Integer(1), x, "E1"), (N - 1, y, "E2")]
    t = upper("class", N)
    p = sympy.Min(sympy.Rational(1, 2), 1 - t)
    return [(sympy.Integer(1), p + t, "E1"), (N - 1, (N * p - p - t) / (N - 1), "E2")]


def _case(ctx):
    return case_of(divergence_of(ctx.a, ctx.a_params), divergence_of(ctx.b, ctx.b_params), ctx.b_distance,
                   ctx.b_classes)


_TEXT = {
    "pairs": ("A bounds the Renyi divergence of order 2 between every two records both ways, chi^2 <= c = e^T - 1; "
              "the total variation is an event level and chi^2 obeys data processing, so on two buckets (a = x(S), "
              "b = y(S)) c - (4 + c)(a - b)^2 = 2 (c a (1 - a) - (a - b)^2) + 2 (c b (1 - b) - (a - b)^2) + "
              "c (1 - a - b)^2 >= 0: U = sqrt(c/(c + 4)), attained for every N by one record at (1/2 + m, 1/2 - m) "
              "and N - 1 at (1/2 - m, 1/2 + m), 2 m = U (chi^2 = c both ways)"),
    "removal": ("A bounds the Renyi divergence of order 2 between every two records both ways, so every pair is within "
                "total variation sqrt(c/(c + 4)), c = e^T - 1 (two buckets: c - (4 + c)(a - b)^2 = 2 (c a (1 - a) - "
                "(a - b)^2) + 2 (c b (1 - b) - (a - b)^2) + c (1 - a - b)^2 >= 0); P - Q_i = (x_i - Q_i)/N with Q_i a "
                "mean of the other records: U = sqrt(c/(c + 4))/N, attained for every N by one record at "
                "(1/2 + m, 1/2 - m) and N - 1 at its mirror, 2 m = sqrt(c/(c + 4)) (remove the lone record)"),
    "class": ("A bounds chi^2(P_E || P) <= c = e^T - 1 for each class; on two buckets (a = P_E(S), p = P(S)) "
              "(a - p)^2 <= c p (1 - p) <= c/4, and where a - p > 1/2, p < 1/2 gives p (1 - p) <= (a - p)(1 - (a - p)), "
              "so a - p <= c/(1 + c) = 1 - e^-T; with TV(P_E, P) <= (N - s)/N: U = min(sqrt(c)/2, "
              "max(1/2, 1 - e^-T), (N - s)/N)"),
}


@argument(METHOD, order=200.7, applies=lambda ctx: _case(ctx) is not None)
def bound(ctx):
    """B's total variation from A's Renyi level of order 2 (module notes)."""
    case = _case(ctx)
    s = sympy.sympify((ctx.b_classes or {}).get("min_size", 1)) if case == "class" else sympy.Integer(1)
    tight = s == 1
    text = _TEXT[case]
    if case == "class":
        text += ("; attained for every N by one record in its own class at p + U and the other N - 1 in one class, "
                 "P = (p, 1 - p), p = min(1/2, 1 - U)" if tight else " (an upper bound; tightness not derived)")
    build = rows_build(family_rows(case, ctx.N)) if tight else None
    return Bound(upper(case, ctx.N, s), tight, METHOD.name, text, build=build,
                 checks=[f"A Renyi of order 2 ({case})"])


def _case_of_cert(cert):
    from implgraph.definitions import get
    a_div = divergence_of(get(cert["A"]["definition"]), cert["A"].get("params"))
    b_def = get(cert["B"]["definition"])
    b_div = divergence_of(b_def, cert["B"].get("params"))
    classes = {"min_size": sympy.sympify(cert["B"].get("min_class") or 1)}
    return case_of(a_div, b_div, cert["B"].get("distance"), classes)


def _family(cert, ctx):
    """The attaining family's binary rows in T and N."""
    case = _case_of_cert(cert)
    rows = family_rows(case, sympy.Symbol("N", integer=True, positive=True))
    return {"rows": [{"count": str(c), "value": str(v), "class": k} for c, v, k in rows]}


@certificate_parts(METHOD, family=_family)
def upper_certificate(cert, ctx):
    """The lemma data: the case (what A and B compare)."""
    cert["upper_certificate"] = {"lemma": METHOD.lemma, "case": _case_of_cert(cert)}
