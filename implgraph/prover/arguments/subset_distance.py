"""``subset-distance``: a class's distance under a subset ratio of size j (docs/arguments/subset-distance.md).

A a two-sided subset level of size j (1 <= j <= N - 1), B a class's total variation distance over any classes:
merging the buckets S where a class lies above the table keeps A's ratios <= T, and the class's mass there is at most
the largest record's, M; with y the other records' mean, A's four constraints on the j smallest and the j largest (on
S and on its complement) and M <= 1 bound M - y by (T - 1) y/a and by (T - 1)(1 - y)/b; adding one of each gives the
tight ``U = (N - 1)(T - 1)/(N (a + b))``, a and b the largest coefficients, written as the Min over the pairs. Tried
by ``removal-distance``'s handler where j < N - 1.
"""

from __future__ import annotations

import itertools

import sympy

from implgraph.core import methods
from implgraph.core.simplified import simplified
from implgraph.prover.answer import Bound, T
from implgraph.prover.registry import certificate_parts
from implgraph.prover.shapes import decide
from implgraph.prover.tables import at, binary_column_table, frac

METHOD = methods.SUBSET_DISTANCE
#: where the prover tries it (it has no handler of its own)
TRIED = "by `removal-distance`'s handler where j_A < N - 1"


def subset_distance_facts(j, N, M, y):
    """``({name: (a, fact)}, {name: (b, fact)})``: A's four constraints on a two-sided subset level of size j and
    M <= 1, each ``fact >= 0`` read as ``a (M - y) <= (T - 1) y`` (lower) or ``b (M - y) <= (T - 1)(1 - y)`` (upper),
    scaled by N j, with M the largest record's mass on S and y the other records' mean there."""
    D = M - y
    lower = {"the j smallest: L >= P/T": (1 / N, j * (N * (T - 1) * y - D)),
             "the j largest: H <= T P": (1 / j - T / N, N * j * (T - 1) * y - (N - T * j) * D)}
    upper = {"the j smallest on the complement: 1 - L <= T (1 - P)": (T / N, j * (N * (T - 1) * (1 - y) - T * D)),
             "the j largest on the complement: 1 - H >= (1 - P)/T": (T / j - 1 / N,
                                                                      N * j * (T - 1) * (1 - y) - (N * T - j) * D),
             "M <= 1": (T - 1, N * j * (T - 1) * (1 - M))}
    return lower, upper


def _kept(opts, region):
    """The coefficients no other one is >= on the whole condition (the others never give the Min)."""
    out = dict(opts)
    for n1, (c1, _) in opts.items():
        for n2, (c2, _) in opts.items():
            if n1 != n2 and n1 in out and n2 in out and decide(region, sympy.Ge(c2, c1)) is True:
                del out[n1]
                break
    return out


def subset_distance_bound(j, N, region):
    """The tight ``U`` (module notes); None if an identity fails."""
    M_, y_ = sympy.symbols("M_ y_")
    lower, upper = subset_distance_facts(j, N, M_, y_)
    lower, upper = _kept(lower, region), _kept(upper, region)
    comps, checks = [], []
    for (ln, (a, fa)), (un, (b, fb)) in itertools.product(lower.items(), upper.items()):
        ok = sympy.expand(N * j * (T - 1) - simplified(N * j * (a + b)) * (M_ - y_) - (fa + fb)) == 0
        checks.append(f"N j (T - 1) - N j (a + b)(M - y) = [{ln}] + [{un}] (identity): {ok}")
        if not ok:
            return None
        comps.append((N - 1) * j * (T - 1) / sympy.factor(simplified(N * j * (a + b))))
    U = sympy.Min(*comps, evaluate=False) if len(comps) > 1 else comps[0]    # (evaluated: slow pairwise comparisons)
    arg = (f"A is a two-sided subset level of size j = {j} (1 <= j <= N - 1), B a class's total variation distance from "
           "the table (any classes): merging the buckets S where a class lies above the table keeps A's ratios <= T (a "
           "mediant), and the class's mass there is at most the largest record's, M; with y = (N P - M)/(N - 1) the "
           "other records' mean, the j largest have mean H >= (M + (j - 1) y)/j and the j smallest L <= y, so A's "
           "H <= T P, L >= P/T and, on the complement, 1 - L <= T (1 - P), 1 - H >= (1 - P)/T, with M <= 1, bound "
           "M - y by (T - 1) y/a (a = 1/N, 1/j - T/N) and by (T - 1)(1 - y)/b (b = T/N, T/j - 1/N, T - 1); adding one "
           "of each (multipliers 1, 1), (a + b)(M - y) <= T - 1, and M - P = (N - 1)(M - y)/N: U = (N - 1)(T - 1)/"
           f"(N (a + b)) for every pair, U = {U}; attained, a and b the largest, by one record at y + (T - 1)/(a + b) "
           "in a class of its own and N - 1 at y = a/(a + b) (equal records meet A's extreme means exactly, so A's "
           "level is <= T)")
    build = _table(j, N, [a for a, _ in lower.values()], [b for b, _ in upper.values()])
    return Bound(U, True, METHOD.name, arg, build=build, checks=checks)


def _table(j, N, ja, jb):
    def build(point):
        Tv, Nv, _ = at(point, N)
        jv = sympy.sympify(j).subs(point)
        av = max(sympy.sympify(a).subs(point) for a in ja)
        bv = max(sympy.sympify(b).subs(point) for b in jb)
        y = av / (av + bv)
        D = (Tv - 1) / (av + bv)
        if not (jv.is_Integer and 1 <= jv <= Nv - 1):
            return None
        return binary_column_table([frac(y + D)] + [frac(y)] * (Nv - 1), labels=["E1"] + ["E2"] * (Nv - 1))
    return build


def _subset_distance_family(cert):
    """One record at y + (T - 1)/(a + b) in class E1, N - 1 at y = a/(a + b) in E2, a and b the largest coefficients."""
    j_ = f"({cert['A']['size']})"
    a = f"Max(1/N, 1/{j_} - T/N)"
    b = f"Max(T/N, T/{j_} - 1/N, T - 1)"
    return [{"count": "1", "value": f"({a} + T - 1)/({a} + {b})", "class": "E1"},
            {"count": "N - 1", "value": f"{a}/({a} + {b})", "class": "E2"}]


#: the names of the argument's facts (:func:`subset_distance_facts`), as the checker's lemma names them
SUBSET_DISTANCE_LOWER, SUBSET_DISTANCE_UPPER = (list(x) for x in subset_distance_facts(2, 4, 0, 0))


@certificate_parts(METHOD, family=lambda cert, ctx: {"blocks": _subset_distance_family(cert)})
def upper_certificate(cert, ctx):
    j_ = cert["A"]["size"]
    cert["domain"] += [f"({j_}) >= 1", f"({j_}) <= N - 1"]
    # every pair of a lower and an upper fact, multipliers 1 and 1 (the checker's obligations name them)
    cert["upper_certificate"] = {"lemma": METHOD.lemma, "multipliers": {
        f"{low} + {up}": {low: "1", up: "1"} for low in SUBSET_DISTANCE_LOWER for up in SUBSET_DISTANCE_UPPER}}
