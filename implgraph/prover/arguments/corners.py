"""``corners``: two records each within [1/T, T] of the table bound an f-divergence between them by the value of its
perspective at three corners of the box [1/T, T]^2 (docs/arguments/corners.md).

The case: A is a two-sided subset level of size 1 at raw level T (every record's distribution x_i against the
table's mean m, bucket by bucket: m_l/T <= x_i(l) <= T m_l; local information privacy), B an f-divergence between
every two records (its declared :class:`~implgraph.definitions.divergences.Divergence` compares ``pairs``; KL, Renyi
of a finite order, total variation, the hockey-stick at a number gamma >= 1).

With a_l = x_i(l)/m_l and b_l = x_j(l)/m_l (a bucket with m_l = 0 holds nothing), a and b lie in [1/T, T] and
sum_l m_l a_l = sum_l m_l b_l = sum_l m_l = 1, and D(x_i || x_j) = sum_l m_l g(a_l, b_l) with g(a, b) = b phi(a/b),
convex in a and in b. So g lies below the bilinear interpolation of its corner values on the box; at the corners
c1 = (T, 1/T), c2 = (1/T, T), c3 = (T, T), c4 = (1/T, 1/T) the affine h through c1, c2, c4 has
h(c3) = g(c1) + g(c2) - g(c4) >= g(c3) (g is linear on the diagonal and c1, c2 have the midpoint of c3, c4), so
g <= h on the box and D <= h(1, 1) = V with

    V = (g(c1) + g(c2))/(T + 1) + g(c4) (T - 1)/(T + 1)

(the point (1, 1) is c1/(T + 1) + c2/(T + 1) + c4 (T - 1)/(T + 1)). KL: V = 2 (T - 1) log(T)/T; Renyi of order
alpha: exp((alpha - 1) D) <= V = (T^(2 alpha - 1) + T^(1 - 2 alpha) + (T - 1)/T)/(T + 1); total variation
(T - 1)/T; the hockey-stick at gamma: max(T^2 - gamma, 0)/(T (T + 1)). Valid for every N.

Attained (the supremum) where N >= T + 1 and N >= 2 + 2/T: with m = (1, 1, T - 1)/(T + 1) over three buckets,
x_i = m (T, 1/T, 1/T), x_j = m (1/T, T, 1/T) and the N - 2 others at (N m - x_i - x_j)/(N - 2), whose ratios to m,
(N - T - 1/T)/(N - 2) twice and (N - 2/T)/(N - 2), lie in [1/T, T] exactly there; A's level is T and
D(x_i || x_j) = V. Elsewhere V is an upper bound and tightness is not derived. For KL, Renyi of order 2 and the
hockey stick the bound is stated piece by piece in T: V where T < N - 1, and from there on the same corners on the
narrowed box [1/T, h], h = N - (N - 1)/T, attained for every N >= 2 (:mod:`implgraph.prover.corners_narrow`).

**Few records.** The corner family is no table where N < 2 + 2/T: N = 2 (any T > 1) and N = 3 with T < 2 (for N >= 4,
N T >= 4 T >= 2 T + 2). There the supremum is found exactly from the set S of (a, b) the records' ratios can take
in one bucket: with the others' ratios each in [1/T, T] and summing to N - a - b, S is the box [1/T, T]^2 cut by
(N - 2)/T <= N - a - b <= (N - 2) T, a polygon. The supremum of sum m g(a, b) over masses on S with
sum m a = sum m b = sum m = 1 is the largest mixture of S's vertices with mean (1, 1) (g is jointly convex, so each
point of S may be replaced by a mixture of vertices with the same mean and no smaller g; a mixture of three vertices
is a table of three buckets), a linear program over the vertices; an affine h >= g at every vertex gives
D <= h(1, 1) (g <= h on S by convexity), and the two meet (linear programming duality).

- N = 2: a + b = 2, so S is the segment from (1/T, h) to (h, 1/T) (h = 2 - 1/T): the mixture (1/2, 1/2) of its ends
  is the only one with mean (1, 1), which is the narrowed box's family (its third block empty) and its bound
  (g(h, 1/T) + g(1/T, h))/2: tight for every T >= 1 (at T = 1 both pieces are 0; the narrowed piece now starts at
  T = N - 1, where h = T and the two pieces agree).
- N = 3, T < 2: S is the hexagon of the six orderings (a, b) of (T, 1/T, k), k = 3 - T - 1/T (a bucket's third ratio
  completes the three to 3; k is in [1/T, T] as (T - 1)(2 - T) >= 0 and (T - 1)(2 T - 1) >= 0). At every sampled T
  the program's optimum (for KL, Renyi 2 and the hockey stick) is the mixture of (T, 1/T), (1/T, T), (1/T, k) with
  masses 1/(T + 1), (T^2 - T + 1)/((T + 1)(2 T - 1)), (T - 1)/(2 T - 1): the cycle family, whose three records' ratios
  are the cyclic shifts of (T, 1/T, k) (x_i = m (T, 1/T, 1/T), x_j = m (1/T, T, k), the third m (k, k, T)).
  Hockey stick at gamma >= 1: x_i - gamma x_j is positive in the first bucket only (gamma T k >= T k = 3 T - T^2 - 1
  >= 1 on [1, 2]), so D = max(T^2 - gamma, 0)/(T (T + 1)) = V: the corner bound is the supremum, attained by this
  family (:func:`~implgraph.prover.corners_narrow.cycle_rows`; the piece N T < 2 T + 2 has its own certificate).
  Renyi of order 2: the mixture's sum is W2 = T^3/(T + 1) + (T^2 - T + 1)/(T^3 (T + 1)(2 T - 1)) +
  (T - 1)/(T (2 T - 1)(3 T - T^2 - 1)) (857/540 at T = 3/2, below V = 865/540). The affine h through g at the three
  vertices lies above g at the other three: h - g at (T, k), (k, T), (k, 1/T) has numerators (T - 2)(T - 1)^2
  (T + 1)(T^2 - T + 1)(T^2 + T + 1), -(T - 2)(T - 1)^2 (T^5 - 2 T^4 + T^3 - 8 T^2 + 4 T - 2) and -(T - 2)(T - 1)^3
  (2 T - 1)(T^3 - 2 T^2 - T - 1) over T^3 (T^2 - 3 T + 1) < 0, each numerator <= 0 on [1, 2] (its Bernstein
  coefficients there all <= 0): so W2 is the supremum, and the prover states log(W2) on the piece N T < 2 T + 2
  below T = N - 1 (its certificate names the three vertices; the checker solves h and signs the gaps, the kernel's
  ``CornersHexagon.corners_hexagon_renyi2``). With it the three cells are tight for every N and T.
  KL: the mixture gives W = (T - 1)/(T (2 T - 1)) (2 (2 T^2 + 1) log(T)/(T + 1) - log(3 T - T^2 - 1)) (below
  V = 2 (T - 1) log(T)/T: (11/15) log(3/2) - (1/6) log(5/4) at T = 3/2). h - g at the other three vertices is
  A log(T) + B log(x), x = 3 T - T^2 - 1 >= 1, with rational A, B of one sign each on [1, 2] ((T, k): A <= 0 <= B;
  (k, T) and (k, 1/T): B <= 0 <= A); bounding log(r) by (5 r^2 - 4 r - 1)/(2 r^2 + 4 r) <= log(r) <= (r^2 + 4 r - 5)/
  (4 r + 2) (r > 0; exact to third order at r = 1, where the gaps vanish) on the side each sign asks
  for leaves rational functions >= 0 on [1, 2] (Bernstein coefficients): W is the supremum, stated the same way
  (``CornersHexagonKL.corners_hexagon_kl``).
"""

from __future__ import annotations

from fractions import Fraction

import sympy

from implgraph.core import methods
from implgraph.core.concrete import ConcreteTable
from implgraph.definitions.divergences import divergence_of
from implgraph.prover.answer import Bound, T
from implgraph.prover.corners_narrow import (CYCLE_DOMAIN, SUPPORT, cycle_rows, cycle_where, hexagon_upper, hexagons,
                                             narrow_end, narrow_rows, narrow_upper, narrows, supremum)
from implgraph.prover.registry import argument, certificate_parts
from implgraph.prover.shapes import compares
from implgraph.prover.tables import frac

METHOD = methods.CORNERS

__all__ = ["corner_value", "corner_upper", "family_rows", "bound"]

_R = sympy.Symbol("r", positive=True)
_U = sympy.Symbol("u", nonnegative=True)


def _at_least_one(expr):
    """``expr`` with its maxima resolved for T >= 1 (T = 1 + u, u >= 0, simplified, then back in T)."""
    if not expr.has(sympy.Max, sympy.Min, sympy.Abs):
        return sympy.factor(sympy.cancel(expr)) if not expr.has(sympy.log) else sympy.simplify(expr)
    out = sympy.simplify(expr.subs(T, 1 + _U))
    return sympy.factor(sympy.cancel(out.subs(_U, T - 1))) if not out.has(sympy.Max) else out.subs(_U, T - 1)


def corner_value(div):
    """V, the perspective's value at (1, 1) of the affine function through its corners c1, c2, c4 (module notes): a
    bound of ``sum_l y_l phi(x_l/y_l)`` (for Renyi of exp((alpha - 1) D)); None without a generator phi."""
    phi = div.phi(_R)
    if phi is None:
        return None

    def g(a, b):
        return b * phi.subs(_R, a / b)
    value = (g(T, 1 / T) + g(1 / T, T)) / (T + 1) + g(1 / T, 1 / T) * (T - 1) / (T + 1)
    return _at_least_one(sympy.expand_log(value, force=True))


def corner_upper(div):
    """B's bound in its own level: V, or log(V)/(alpha - 1) for Renyi."""
    value = corner_value(div)
    return None if value is None else div.from_phi_mean(value)


def family_rows(N, t=T):
    """The attaining table's rows: ``[(count, (three values), class)]`` (module notes)."""
    m = (1 / (t + 1), 1 / (t + 1), (t - 1) / (t + 1))
    x = (m[0] * t, m[1] / t, m[2] / t)
    y = (m[0] / t, m[1] * t, m[2] / t)
    rest = tuple((N * mm - a - b) / (N - 2) for mm, a, b in zip(m, x, y))
    return [(sympy.Integer(1), x, "E1"), (sympy.Integer(1), y, "E2"), (N - 2, rest, "E3")]


def _attained(N) -> tuple:
    """The conditions where the family of :func:`family_rows` is a table at A's level T (the others' ratios to m,
    (N - T - 1/T)/(N - 2) and (N - 2/T)/(N - 2), within [1/T, T])."""
    return sympy.Ge(N, T + 1), sympy.Ge(N * T, 2 * T + 2)


def attained_where(N):
    return sympy.And(*_attained(N))


def _build(N, rows_of=None):
    def build(point):
        Tv = sympy.Rational(point[T])
        Nv = int(point[N]) if N in point else int(N)
        rows = []
        for count, values, _ in (rows_of or family_rows)(sympy.Integer(Nv), Tv):
            rows += [[frac(sympy.cancel(v)) for v in values]] * int(count)
        if any(v < 0 for r in rows for v in r) or any(sum(r) != 1 for r in rows):
            return None
        return ConcreteTable.from_fractions([[Fraction(v) for v in r] for r in rows])
    return build


def _applies(ctx):
    div = divergence_of(ctx.b, ctx.b_params)
    return (div is not None and div.compares == "pairs" and div.phi(_R) is not None and compares(ctx.a, "subset")
            and ctx.ja is not None and sympy.simplify(ctx.ja - 1) == 0
            and (div.kind != "hockey-stick" or (div.order.is_number and bool(div.order >= 1))))


@argument(METHOD, order=199, applies=_applies)
def bound(ctx):
    """B's divergence between two records, each within [1/T, T] of the table (module notes)."""
    div = divergence_of(ctx.b, ctx.b_params)
    upper = corner_upper(div)
    if upper is None:
        return None
    phi = div.phi(_R)
    text = (f"B is the {div.kind} divergence{'' if div.order is None else f' of order {div.order}'} between two records "
            f"x_i, x_j; A bounds each record's ratio to the table's mean m to [1/T, T], so a = x_i/m and b = x_j/m lie "
            f"in the box [1/T, T]^2 with sum m a = sum m b = sum m = 1, and B's sum is sum m g(a, b), g(a, b) = "
            f"b phi(a/b), phi(r) = {phi}: convex in a and in b, so below the bilinear interpolation of its corners; "
            "the affine h through g at (T, 1/T), (1/T, T), (1/T, 1/T) is >= g at (T, T) too (g is linear on the "
            "diagonal), so g <= h on the box and B <= h(1, 1) = (g(T, 1/T) + g(1/T, T))/(T + 1) + g(1/T, 1/T)(T - 1)/"
            "(T + 1)" + (" (Renyi: of exp((alpha - 1) D), log is increasing)" if div.kind == "renyi" else "")
            + "; attained where N >= T + 1 and N >= 2 + 2/T by m = (1, 1, T - 1)/(T + 1) over three buckets, x_i = "
              "m (T, 1/T, 1/T), x_j = m (1/T, T, 1/T) and the N - 2 others at (N m - x_i - x_j)/(N - 2)")
    out = Bound(upper, True, METHOD.name, text, build=_build(ctx.N), checks=[f"phi(r) = {phi} convex for r > 0"],
                buckets=sympy.Integer(3), attained_where=attained_where(ctx.N))
    if not narrows(div):
        return out
    # from T = N - 1 on a record's ratio is also <= N - (N - 1)/T: the narrowed box's pieces (corners_narrow)
    exact = supremum(div, ctx.N, out, _build(ctx.N, narrow_rows), _build(ctx.N, cycle_rows))
    return Bound(upper, False, METHOD.name, text, checks=list(out.checks), exact=exact)


def _upper_certificate(cert, ctx):
    """The lemma data: the divergence, its generator and the box."""
    from implgraph.definitions import get
    div = divergence_of(get(cert["B"]["definition"]), cert["B"].get("params"))
    data = {"lemma": METHOD.lemma, "kind": div.kind, "order": None if div.order is None else str(div.order),
            "compares": div.compares, "phi": str(div.phi(_R)), "lo": "1/T", "hi": "T"}
    if narrows(div) and ctx.bound.tight and ctx.bound.upper == narrow_upper(div, ctx.N):    # the piece T >= N - 1
        data["hi"] = str(narrow_end(ctx.N))
    if hexagons(div) and ctx.bound.tight and ctx.bound.upper == hexagon_upper(div):    # N = 3, T < 2
        data["hexagon"] = [[str(a), str(b)] for a, b in SUPPORT]
    cert["upper_certificate"] = data


def _family(cert, ctx):
    """The attaining family: three blocks of rows over three buckets, in T and N, where it exists."""
    if cert["upper_certificate"]["hi"] != "T":      # the piece T >= N - 1 (corners_narrow)
        return _rows_family(narrow_rows(ctx.N), [str(sympy.Ge(ctx.N, 2))])
    if ctx.bound.attained_where == cycle_where(ctx.N):     # the hockey stick at N = 3, T < 2 (corners_narrow)
        return _rows_family(cycle_rows(ctx.N), list(CYCLE_DOMAIN))
    return _rows_family(family_rows(ctx.N), [str(c) for c in _attained(ctx.N)])


def _rows_family(rows, domain):
    return {"rows": [{"count": str(c), "values": [str(sympy.cancel(v)) for v in vals], "class": k}
                     for c, vals, k in rows], "domain": domain}


certificate_parts(METHOD, family=_family)(_upper_certificate)
