"""An implication about the intruder's view of one individual (``views:`` on an ``implies`` claim).

domingo-ferrer2015's Proposition 3 is not about the release's own level but about ``k_I(D)``, "the view
on I's confidential data given D", under the assumptions t-closeness rests on. The claim's ``views:``
states that model, each key traceable to a quoted assumption:

``prior: whole-table``
    "if I is not in D, k_I(D) has the distribution of the confidential attribute on the whole table";
``posterior: class``
    "if I is in D, k_I(D) has the distribution of the confidential attribute in I's equivalence class";
``same_prior: true``
    "the distribution of the confidential attribute over the whole table is public": the data sets
    compared share the whole-table distribution P.

A's definition must bound every class against the whole table, both ways (a two-sided ``class``
declaration: each class value v of a bucket has ``v <= T P`` and ``P <= T v``); B's level is the
privacy of ``k_I``: for data sets D1, D2 of the domain (A at raw level T), every set S of values has
``Pr(k_I(D1) in S) <= R Pr(k_I(D2) in S)``, which for discrete views holds iff it holds for every
single value (sums keep a ratio bound; singletons are sets). The views are P, a class value of D1
and a class value of D2, so per bucket (whatever the number of buckets and records):

* upper bound: ``v <= T P`` and ``P <= T w`` give ``v <= T^2 w`` (decided on the reals by the region's
  solver, zeros included), so R <= T^2;
* tightness: one table, read twice (I in class E1 for D1, in E2 for D2), attains R = T^2 for every
  T >= 1: N >= T + 1 records, P = (p, 1 - p) with p = 1/(2(T + 1)), E1 one record (T p, 1 - T p), E2 one
  record (p/T, 1 - p/T), E3 the N - 2 others at (y, 1 - y), y = p (N - T - 1/T)/(N - 2), so that the
  mean is P; every class value lies in [P/T, T P] on both buckets (decided by the solver for every T
  and N of the family) and E1 / E2 on the first bucket is T^2.

The verdict compares the printed f with B's level of ``T^2`` like any implication (proved, tight or
loose); nothing here names a definition: A and B are read from their declarations.
"""

from __future__ import annotations

import sympy

from implgraph.checks.common import edge_verdict
from implgraph.core.region import Region
from implgraph.core.simplified import simplified
from implgraph.core.verdict import Verdict
from implgraph.engines.bounds import compares
from implgraph.engines.certificates import views_certificate
from implgraph.io.theorems import Edge

__all__ = ["check_views", "MODEL"]

#: the model this checker implements; a ``views:`` mapping must say exactly this
MODEL = {"prior": "whole-table", "posterior": "class", "same_prior": True}


def _model_error(edge, views):
    wrong = {k: views.get(k) for k in MODEL if views.get(k) != MODEL[k]}
    extra = sorted(set(views) - set(MODEL))
    return edge.node.error(f"`views:` {wrong or extra} is not a model the engine has",
                           key="views", fix="views: {prior: whole-table, posterior: class, same_prior: true}")


def _family(T, N):
    """The tightness family, ``([(count, value on a1, class)], where it exists)``."""
    p = 1 / (2 * (T + 1))
    y = p * (N - T - 1 / T) / (N - 2)
    return [(1, T * p, "E1"), (1, p / T, "E2"), (N - 2, y, "E3")], (N >= T + 1, N >= 3)


def _family_holds(T, N):
    """The tightness family's conditions, each decided for every T >= 1 and N >= T + 1 (True each).

    The bounds are built unevaluated: sympy would first try to order each side through the assumptions of T and N
    (a fifth of a second for these six rational functions), and an answer it found there is the one the region's
    decision gives (the region lies where those assumptions hold)."""
    family, where = _family(T, N)
    p = 1 / (2 * (T + 1))
    y = family[2][1]
    region = Region({T: "real", N: "integer"}, (T >= 1, *where))
    classes = {label: v for _, v, label in family}
    conds = {"the mean of the classes is P": sympy.Eq(simplified((T * p + p / T + (N - 2) * y) / N - p), 0)}
    for name, v in classes.items():
        for bucket, (cv, pv) in {"a1": (v, p), "a2": (1 - v, 1 - p)}.items():
            conds[f"{name} within [P/T, T P] on {bucket}"] = sympy.And(sympy.Ge(cv * T, pv, evaluate=False),
                                                                          sympy.Le(cv, T * pv, evaluate=False))
    conds["E1 / E2 on a1 is T^2"] = sympy.Eq(simplified(classes["E1"] / classes["E2"] - T ** 2), 0)
    return {k: (bool(c) if c in (sympy.true, sympy.false) else region.decide(c)) for k, c in conds.items()}


def _certificate(edge, T):
    """The argument as a certificate for implgraph.certify (``intruder-views``): on the claim's condition (those of
    its conditions not on the levels) with A's raw level T >= 1."""
    N = sympy.Symbol("N", integer=True)
    levels = {edge.a.level, edge.b.level}
    kinds = {s: k for s, k in edge.kinds.items() if s not in levels}
    conds = tuple(c for c in edge.when if not (sympy.sympify(c).free_symbols & levels))
    region = Region({**kinds, T: "real", N: "integer"}, conds + (T >= 1,))
    return views_certificate(edge.a.definition, edge.a.params, edge.a.classes, region, N, MODEL, *_family(T, N),
                             attained=("E1", "E2"))


def check_views(edge: Edge, context=None, f=None) -> Verdict:
    """The verdict on an implication about the intruder's views (see the module docstring)."""
    views = edge.node.get("views") or {}
    if any(views.get(k) != v for k, v in MODEL.items()) or set(views) - set(MODEL):
        raise _model_error(edge, views)
    a, b = edge.a.definition, edge.b.definition
    if not compares(a, "class"):
        return edge_verdict(edge, "unknown", evidence=f"the views model needs A to bound every class against the "
                                                      f"whole table both ways; {a.name} is not declared so")
    T = sympy.Symbol("T", positive=True)
    P, v, w = sympy.symbols("P v w", nonnegative=True)
    bucket = Region({T: "real", P: "real", v: "real", w: "real"},
                    (T >= 1, P >= 0, v >= 0, w >= 0, v <= T * P, P <= T * v, w <= T * P, P <= T * w))
    upper = bucket.decide(v <= T ** 2 * w)
    family = _family_holds(T, sympy.Symbol("N", integer=True, positive=True))
    alpha = edge.a.level
    positive = sympy.Symbol(alpha.name, positive=True)   # A's level is >= its strongest on the region
    tight = simplified(sympy.expand_log(b.level_from_raw(a.raw_from_level(positive) ** 2))).subs(positive, alpha)
    fx = edge.f if f is None else f
    assumptions = [str(x) for x in edge.node.get("assumptions") or []]
    details = {"model": dict(MODEL), "assumptions": assumptions, "upper_bound": f"v <= T^2 w per bucket: {upper}",
               "tightness_family": {k: str(x) for k, x in family.items()}}
    if upper is not True or not all(x is True for x in family.values()):
        return edge_verdict(edge, "unknown", evidence="the solver did not decide the views argument "
                                                      f"({details['upper_bound']}; family: {details['tightness_family']})",
                            details=details)
    region = Region({**{s: k for s, k in edge.kinds.items()}, alpha: "real"},
                    tuple(edge.when) + (alpha >= a.level_from_raw(1),))
    under = ("only under the claim's assumptions, modelled as the views (prior: the whole-table distribution; "
             "posterior: the class's; the whole-table distribution shared by the data sets compared)"
             + (": " + "; ".join(f"({i}) {x}" for i, x in enumerate(assumptions, 1)) if assumptions else "")
             + ". ")
    argument = ("per bucket, the views are P (I not in D), a class value v of D1 and w of D2; A gives v <= T P "
                "and P <= T w, so v <= T^2 w (z3, zeros included), for every number of records and buckets; "
                "tight: a table read twice (I in E1, then in E2) with E1 = T P and E2 = P/T on a bucket attains "
                f"T^2 for every T >= 1 (N >= T + 1; its conditions decided for every T and N). B's level of "
                f"T^2 with T = A's raw level: {tight}")
    details["certificate"] = _certificate(edge, T)
    argument = under + argument[0].upper() + argument[1:]
    if fx is None:
        return edge_verdict(edge, "proved", evidence=argument, tight=str(tight), exact=str(tight),
                            details={**details, "tightness": "tight"})
    same = simplified(fx - tight) == 0
    if not same and region.decide(sympy.Ge(fx, tight)) is not True:
        # (a refutation needs a witness table, which this checker does not build)
        return edge_verdict(edge, "unknown", evidence=f"f = {fx} is not shown to be >= the tight {tight} ("
                                                      + argument + ")",
                            tight=str(tight), exact=str(tight),
                            details={k: x for k, x in details.items() if k != "certificate"})
    return edge_verdict(edge, "proved", evidence=("f is the tight f " if same else "f holds, loosely, ") + argument,
                        tight=str(tight), exact=str(tight),
                        details={**details, "tightness": "tight" if same else "loose"})
