"""``slack-hockey-stick``: an (eps, delta) level between two records bounds the hockey-stick slack at a number
gamma >= 1 between two records, and at a number gamma >= 2 on record removal (docs/arguments/slack-hockey-stick.md).

References: Kairouz, Oh and Viswanath, "The composition theorem for differential privacy", ICML 2015 (the privacy
region of (eps, delta)-DP, Theorem 2.1, and the pair of distributions that dominates it); Balle, Barthe and Gaboardi,
"Privacy amplification by subsampling: tight analyses via couplings and divergences", NeurIPS 2018 (privacy profiles
and the advanced joint convexity of the hockey-stick divergence, of which the removal identity below is a case).

The case: A at raw level T = e^eps declares an additive slack delta in [0, 1) between every two records
(x_i(S) <= T x_k(S) + delta on every event S: ``eps-delta-ldp``); B a hockey-stick divergence at a number gamma
(its declared order), E_gamma(x || y) = max over S of x(S) - gamma y(S) (at least 0, at S empty), between every two
records (``delta-ldp``) or between the table's mean P and the mean Q_i without record i, both ways (``delta-dp``).

**The pair lemma.** Let u, v in [0, 1] with u <= T v + delta and 1 - v <= T (1 - u) + delta, T >= 1 and g >= 1.
Then u - g v <= max(delta, K(g)), K(g) = (T - g + (1 + g) delta)/(T + 1). With v* = (1 - delta)/(T + 1): where
v >= v*, T (u - g v) <= T - 1 + delta + (1 - g T) v <= T - 1 + delta + (1 - g T) v* = T K(g) (1 - g T <= 0); where
v <= v*, u - g v <= delta + (T - g) v, at most K(g) if T >= g (v <= v*) and at most delta if T <= g (v >= 0).

**Between records.** u = x_i(S), v = x_k(S) meet the lemma's conditions (A on S, and on its complement the other
way), so U = max(delta, K(gamma)): delta where T <= gamma, K(gamma) beyond.

**On record removal** (gamma >= 2, so gamma >= N/(N - 1) for every N >= 2). P = (x_i + (N - 1) Q_i)/N gives
P - gamma Q_i = (x_i - g' Q_i)/N with g' = 1 + N (gamma - 1); averaging A over the records other than i,
u = x_i(S) and v = Q_i(S) meet the lemma's conditions; and Q_i - gamma P = ((N - gamma (N - 1)) Q_i - gamma x_i)/N
<= 0. So U = max(delta, K(g'))/N: delta/N where T <= g' = 1 + N (gamma - 1).

Below, for 1 <= gamma < N/(N - 1), c = N - gamma (N - 1) lies in (0, 1] and Q_i - gamma P = (c/N)(Q_i - (gamma/c)
x_i): E_gamma(Q_i || P) = (c/N) E_(gamma/c)(Q_i || x_i) <= (c/N) max(delta, K(gamma/c)) (the pair lemma with the
roles exchanged, A holding both ways), and B's level is at most the larger of the two bounds; this argument takes
only gamma >= 2, where the second vanishes for every N.

**Attained** for every N >= 2 and every T >= 1. Where T <= r (r = gamma between records, g' on removal): one
record at (delta, 1 - delta), the N - 1 others at (0, 1) (A's level 1 <= T: 1 - delta <= T + delta and
1 <= T (1 - delta) + delta); B's level delta (over N on removal: P - gamma Q_i = delta/N on the first bucket).
Where T >= r: the dominating pair, one record at ((T + delta, 1 - delta))/(T + 1) and the N - 1 others at
((1 - delta, T + delta))/(T + 1): A's level T (the first bucket at equality both ways), and on the first bucket
x - r y = K(r) (over N on removal, removing the first record: the others' mean is y).
"""

from __future__ import annotations

import sympy

from implgraph.definitions.divergence_gamma import gamma_of as declared_gamma
from implgraph.core import methods
from implgraph.definitions.divergences import divergence_of
from implgraph.prover.answer import Bound, T
from implgraph.prover.registry import argument, certificate_parts
from implgraph.prover.shapes import declared_slack
from implgraph.prover.tables import rows_build

METHOD = methods.SLACK_HOCKEY_STICK

__all__ = ["upper", "ratio", "family_rows", "bound"]


def ratio(compares, g, N):
    """The ratio of the pair lemma: gamma between records, g' = 1 + N (gamma - 1) on record removal."""
    return g if compares == "pairs" else 1 + N * (g - 1)


def upper(compares, d, g, N):
    """U for A's slack ``d`` between records and B's hockey-stick at ``g`` between ``compares`` (module notes)."""
    r = ratio(compares, g, N)
    scale = 1 if compares == "pairs" else N
    return sympy.Max(d / scale, (T - r + (1 + r) * d) / (scale * (T + 1)))


def family_rows(d, N, beyond=False):
    """The attaining family where T <= the lemma's ratio: one record at (delta, 1 - delta), N - 1 at (0, 1); or
    ``beyond`` it (T >= the ratio) the dominating pair: one record at (T + delta, 1 - delta)/(T + 1), N - 1 at
    (1 - delta, T + delta)/(T + 1)."""
    if beyond:
        return [(sympy.Integer(1), (T + d) / (T + 1), "E1"), (N - 1, (1 - d) / (T + 1), "E2")]
    return [(sympy.Integer(1), d, "E1"), (N - 1, sympy.Integer(0), "E2")]


def _build(d, N, r):
    """The attaining table at a point: the family of its side of T = r."""
    low, high = rows_build(family_rows(d, N)), rows_build(family_rows(d, N, beyond=True))

    def build(point):
        at = sympy.sympify(r).subs(point)
        t = sympy.sympify(T).subs(point)
        if not (at.is_number and t.is_number):
            return None
        return (low if bool(t <= at) else high)(point)
    return build


def _gamma(ctx):
    """``(compares, gamma)`` of B's hockey-stick at a number (>= 1 between records, >= 2 on removal), or None."""
    div = divergence_of(ctx.b, ctx.b_params)
    if div is None or div.compares not in ("pairs", "removal"):
        return None
    g = declared_gamma(div, div.compares, 1 if div.compares == "pairs" else 2, tv=False)
    return None if g is None else (div.compares, g)


def _applies(ctx):
    return declared_slack(ctx.a, ctx.a_params, "pairs") is not None and _gamma(ctx) is not None


@argument(METHOD, order=174.6, applies=_applies)
def bound(ctx):
    """B a hockey-stick slack at a number gamma, A an (eps, delta) level between records."""
    d = declared_slack(ctx.a, ctx.a_params, "pairs")
    compares, g = _gamma(ctx)
    r = ratio(compares, g, ctx.N)
    text = ("B is the hockey-stick slack, the largest x(S) - gamma y(S) over events S (at least 0); "
            + ("between records, u = x_i(S), v = x_k(S) meet u <= T v + d and 1 - v <= T (1 - u) + d, " if compares ==
               "pairs" else
               f"on record removal P - {g} Q_i = (x_i - ({r}) Q_i)/N and Q_i - {g} P <= 0 ({g} >= N/(N - 1)); "
               "u = x_i(S), v = Q_i(S) meet u <= T v + d and 1 - v <= T (1 - u) + d (A averaged over the others), ")
            + f"so u - g v <= max(d, (T - g + (1 + g) d)/(T + 1)) at g = {r} (Kairouz-Oh-Viswanath 2015's dominating "
              f"pair); attained where T <= {r} by one record at ({d}, 1 - {d}) and N - 1 at (0, 1), beyond by one record "
              f"at (T + {d}, 1 - {d})/(T + 1) and N - 1 at (1 - {d}, T + {d})/(T + 1)")
    return Bound(upper(compares, d, g, ctx.N), True, METHOD.name, text, build=_build(d, ctx.N, r),
                 checks=[f"A's slack delta = {d} between records; B's gamma = {g}"])


def _read(cert, ctx):
    """``(compares, delta, gamma)`` from the certificate's sides: A's slack and B's registered divergence."""
    from implgraph.definitions import get
    div = divergence_of(get(cert["B"]["definition"]), cert["B"].get("params"))
    return div.compares, sympy.Rational(str(cert["A"]["slack"]["delta"])), sympy.sympify(div.order)


def _upper_certificate(cert, ctx):
    """The lemma data: A's slack and B's gamma and what it compares."""
    compares, _, g = _read(cert, ctx)
    cert["upper_certificate"] = {"lemma": METHOD.lemma, "slack": cert["A"].get("slack"),
                                 "b_divergence": {"kind": "hockey-stick", "compares": compares, "gamma": str(g)}}


def _family(cert, ctx):
    """The attaining families' binary rows: on the domain T <= the lemma's ratio, and ``beyond`` it."""
    compares, d, g = _read(cert, ctx)
    r = ratio(compares, g, ctx.N)

    def rows(beyond):
        return [{"count": str(c), "value": str(v), "class": k} for c, v, k in family_rows(d, ctx.N, beyond)]
    return {"rows": rows(False), "domain": [f"T <= {r}"], "beyond": {"rows": rows(True), "domain": [f"T >= {r}"]}}


certificate_parts(METHOD, family=_family)(_upper_certificate)
