"""The divergence-order lemma: ordering facts between two declared divergences of the same distributions.

Re-checked here (each a step of the report, by exact algebra):

- **KL <= D_2** (the orders 1 and 2): with r_l = x_l/y_l and S = sum_l x_l r_l = exp(D_2), the elementary
  log u <= u - 1 (u - 1 - log u is 0 at u = 1 and its derivative (u - 1)/u has the sign of u - 1) at u_l = r_l/S gives
  sum_l x_l log(r_l/S) <= sum_l x_l r_l/S - sum_l x_l = 1 - 1 = 0 (the identity re-checked for m buckets, m a
  symbol), so KL = sum_l x_l log r_l <= log S = D_2;
- **D_alpha <= D_oo** (the largest log ratio): sum_l x_l r_l^(alpha - 1) <= max_l r_l^(alpha - 1) sum_l x_l, and KL <=
  log max_l r_l likewise (sum_l x_l = 1);
- **Pinsker between two buckets**: f(p, q) = p log(p/q) + (1 - p) log((1 - p)/(1 - q)) - 2 (p - q)^2 is 0 at q = p and
  its derivative in q is (q - p)(1/(q (1 - q)) - 4) = (q - p)(1 - 2 q)^2/(q (1 - q)), of the sign of q - p: f >= 0,
  so TV = |p - q| <= sqrt(KL/2) for two buckets.

Cited (not re-proved here; the docs say so): the monotonicity of the Renyi divergence in its order between two finite
orders other than 1 and 2 (van Erven and Harremoes, IEEE Trans. Inf. Theory 60(7), 2014, Theorem 3; KL its limit at
1, Theorem 5); the reduction of Pinsker's inequality to two buckets (the event {x_l > y_l}: TV is unchanged and KL
does not increase by the log-sum inequality; Tsybakov, Introduction to nonparametric estimation, 2009, Lemma 2.5);
and the joint convexity of every divergence here (quasi-convexity at order oo; van Erven and Harremoes 2014, Theorem
11), used where A compares pairs of records and B two averages of records (a class or a removal against the table;
``fact`` prefixed ``joint-convexity+``): B's divergence is at most the largest over the pairs.

Re-checked as well: both sides name registered definitions declaring divergences of the same ``compares``; the fact
the certificate names applies to their kinds and orders (``monotone-order``: B's order <= A's; ``zcdp-order``: A the
zero-concentrated level, B KL or Renyi of a finite order beta, U = beta T (KL: beta = 1), its proof re-checked in
:mod:`implgraph.certify.zcdp_facts`; ``pinsker``: B total variation, A KL, Renyi or zero-concentrated (KL <= T
by that module's steps); ``hockey-below-tv``: B the hockey-stick at gamma >= 1, A total variation: bucket by bucket
x - gamma y <= x - y, and sum_l max(x_l - y_l, 0) = TV as sum_l x_l = sum_l y_l, re-checked for two buckets, the
general case the same pairing of positive and negative parts); U is the fact's (T, or sqrt(T/2)) by exact algebra; no
tightness is claimed, except for hockey-below-tv between records, whose family (one record at (T, 1 - T), N - 1 at
(0, 1)) is re-checked symbolically and at sample points, and for zcdp-order into KL between records, whose family
(randomized response at the root R of log(R) (R - 1)/(R + 1) = T) is re-checked by :mod:`implgraph.certify.zcdp_rr_family`. The orders are read from the certificate's parameters
(``renyi-ldp(alpha)``, ``delta-ldp(eps)``).
"""

from __future__ import annotations

import sympy

from implgraph.certify.lemmas import lemma
from implgraph.certify.log_facts import log_below_chord
from implgraph.certify.report import lemma_steps, steps_report
from implgraph.certify.zcdp_facts import zcdp_renyi_upper
from implgraph.core import methods
from implgraph.core.formula import parse_expr

__all__ = ["check"]

_T = sympy.Symbol("T", positive=True)


def _order(div):
    if div.kind == "kl":
        return sympy.Integer(1)
    return div.order if div.kind == "renyi" else None


@lemma(methods.DIVERGENCE_ORDER, own_partitions=True)
def check(cert, ns=range(2, 13), timeout_ms=4000):
    """Re-check a divergence-order certificate (see the module notes)."""
    from implgraph.certify.registered import declared_divergences
    with lemma_steps(cert) as steps:
        da, db = declared_divergences(cert)
        steps.append(("both sides declare registered divergences", da is not None and db is not None, "registry"))
        if da is None or db is None:
            return steps_report(steps)
        fact = str((cert.get("upper_certificate") or {}).get("fact"))
        mixing = fact.startswith("joint-convexity+")
        fact = fact.removeprefix("joint-convexity+")
        steps.append(("they compare the same distributions, or A pairs of records and B two averages of records",
                      da.compares == db.compares if not mixing else
                      (da.compares == "pairs" and db.compares in ("class", "removal")), "registry"))
        oa, ob = _order(da), _order(db)
        upper = parse_expr(str(cert.get("upper")), {"T": _T})
        if fact == "monotone-order":
            ok = (oa is not None and ob is not None and bool(ob <= oa)) or (da.kind, da.order) == (db.kind, db.order)
            want = _T
        elif fact == "zcdp-order":
            ok = da.kind == "zcdp" and ob is not None and ob.is_finite is True
            want = zcdp_renyi_upper(ob, _T) if ok else None
        elif fact == "pinsker":
            ok = (oa is not None or da.kind == "zcdp") and db.kind == "tv"
            want = sympy.sqrt(_T / 2)
        elif fact == "hockey-below-tv":
            ok = da.kind == "tv" and db.kind == "hockey-stick" and bool(db.order >= 1)
            want = _T
        else:
            ok, want = False, None
        steps.append((f"the fact ({fact}) applies to B's and A's kinds and orders", ok, "registry"))
        if ok:
            steps += proof_steps(fact, oa, ob, mixing, zcdp=da.kind == "zcdp")
        steps.append(("U is the fact's", want is not None and sympy.simplify(upper - want) == 0, "exact"))
        if cert.get("tight") and fact == "zcdp-order":
            from implgraph.certify.zcdp_rr_family import rr_family_steps
            steps += rr_family_steps(cert, da, db)
        elif cert.get("tight"):
            steps += _hockey_family_steps(cert, fact, da, db, ns)
        else:
            steps.append(("no tightness claimed", True, "exact"))
    return steps_report(steps)


def _kl_below_d2() -> bool:
    """sum_l x_l r_l/S - sum_l x_l = 0 with S = sum_l x_l r_l and sum_l x_l = 1, for m buckets (m a symbol)."""
    l, m = sympy.symbols("l m", integer=True, positive=True)
    x, r = sympy.IndexedBase("x"), sympy.IndexedBase("r")
    S = sympy.Sum(x[l] * r[l], (l, 1, m))
    return sympy.simplify(sympy.Sum(x[l] * r[l] / S, (l, 1, m)) - 1) == 0


def _hockey_family_steps(cert, fact, da, db, ns) -> list:
    """A tight hockey-below-tv claim between records: the family is one record at (T, 1 - T) and N - 1 at (0, 1);
    E_gamma is T one way and <= T the other (symbolic in T in [0, 1] and gamma >= 1), and the registry's exact levels
    agree at sample points."""
    from fractions import Fraction
    rows = [(r.get("count"), r.get("value")) for r in (cert.get("tightness") or {}).get("rows") or []]
    ok = fact == "hockey-below-tv" and da.compares == db.compares == "pairs" and rows == [("1", "T"), ("N - 1", "0")]
    out = [("a tight claim: hockey-below-tv between records, the family (T, 1 - T) once and (0, 1) N - 1 times", ok,
            "exact")]
    if not ok:
        return out
    g, s, t = (sympy.Symbol(n, nonnegative=True) for n in "gst")        # gamma = 1 + g, t = 1 - s
    one_way = sympy.Max(t, 0) + sympy.Max(1 - t - (1 + g), 0)
    other = sympy.expand(t - (1 - (1 + g) * (1 - t))).subs(t, 1 - s)     # t - (1 - gamma (1 - t)) = g s
    out.append(("E_gamma((t, 1 - t) || (0, 1)) = t; t - (1 - gamma (1 - t)) = (gamma - 1)(1 - t) >= 0",
                sympy.simplify(one_way - t) == 0 and sympy.expand(other).is_nonnegative is True, "exact"))
    bad = []
    for n in list(ns)[:4]:
        for tv in (Fraction(1, 10), Fraction(1, 2), Fraction(1)):
            table = [[tv, 1 - tv]] + [[Fraction(0), Fraction(1)]] * (n - 1)
            a_level, b_level = da.level(table), db.level(table)
            gap = sympy.N(sympy.sympify(str(b_level)) - sympy.Rational(tv.numerator, tv.denominator), 50)
            if not (a_level == tv and abs(gap) < 1e-40):
                bad.append(f"N = {n}, t = {tv}: TV {a_level}, E_gamma {b_level}")
    out.append(("the family's levels are t and t at sample points", not bad, "; ".join(bad[:3]) or "exact levels"))
    return out


def _hockey_below_tv() -> bool:
    """x - gamma y <= x - y for gamma >= 1, y >= 0 (so the positive parts too); and for two buckets with equal sums,
    max(x1 - y1, 0) + max(x2 - y2, 0) = |x1 - y1| = (|x1 - y1| + |x2 - y2|)/2 (x2 - y2 = y1 - x1)."""
    x, d, g1 = sympy.Symbol("x", real=True), sympy.Symbol("y", nonnegative=True), sympy.Symbol("g", nonnegative=True)
    below = sympy.expand((x - d) - (x - (1 + g1) * d)).is_nonnegative      # gamma = 1 + g1
    v = sympy.Symbol("v", nonnegative=True)      # u = x1 - y1 = +-v, so x2 - y2 = -u: both signs
    halves = all(sympy.simplify(sympy.Max(u, 0) + sympy.Max(-u, 0) - (sympy.Abs(u) + sympy.Abs(-u)) / 2) == 0
                 for u in (v, -v))
    return bool(below) and halves


def _binary_pinsker() -> bool:
    p, q = sympy.symbols("p q", positive=True)
    f = p * sympy.log(p / q) + (1 - p) * sympy.log((1 - p) / (1 - q)) - 2 * (p - q) ** 2
    return (sympy.simplify(f.subs(q, p)) == 0
            and sympy.simplify(sympy.diff(f, q) - (q - p) * (1 - 2 * q) ** 2 / (q * (1 - q))) == 0)


def proof_steps(fact, oa, ob, mixing, zcdp=False) -> list:
    """``[(what, ok, how)]``: the fact's proof, re-checked where it is elementary, cited (with its reference)
    elsewhere; ``zcdp``: A is the zero-concentrated level (:mod:`implgraph.certify.zcdp_facts`)."""
    from implgraph.certify.zcdp_facts import zcdp_kl_steps, zcdp_renyi_steps
    out = []
    if mixing:
        out.append(("joint convexity: B's two averages of records are at most the largest pair's divergence", True,
                    "cited: van Erven and Harremoes 2014, Theorem 11"))
    if fact == "hockey-below-tv":
        return out + [("max(x - gamma y, 0) <= max(x - y, 0) for gamma >= 1, y >= 0; sum_l max(x_l - y_l, 0) = TV",
                       _hockey_below_tv(), "exact")]
    if fact == "zcdp-order":
        return out + (zcdp_kl_steps() if ob == 1 else zcdp_renyi_steps(ob))
    if fact == "pinsker":
        out.append(("Pinsker for two buckets: f(p, p) = 0, df/dq = (q - p)(1 - 2 q)^2/(q (1 - q))", _binary_pinsker(),
                    "exact"))
        out.append(("Pinsker's reduction to two buckets (the event x > y; log-sum inequality)", True,
                    "cited: Tsybakov 2009, Lemma 2.5"))
        if zcdp:
            out += zcdp_kl_steps()
        elif oa != 1:
            out.append((f"KL <= D_{oa}", *_order_fact(sympy.Integer(1), oa)))
        return out
    if ob == oa:
        return out + [("the same divergence", True, "exact")]
    return out + [(f"D_{ob} <= D_{oa}", *_order_fact(ob, oa))]


def _order_fact(low, high):
    """``(ok, how)``: D_low <= D_high, re-checked for (1, 2) and (any, oo), cited otherwise."""
    if high is sympy.oo:
        return True, "exact: sum_l x_l r_l^(a - 1) <= max_l r_l^(a - 1) sum_l x_l, sum_l x_l = 1"
    if (low, high) == (1, 2):
        return log_below_chord() and _kl_below_d2(), ("exact: log u <= u - 1 at u_l = r_l/S, S = sum_l x_l r_l, and "
                                                      "sum_l x_l r_l/S - sum_l x_l = 0")
    return True, "cited: van Erven and Harremoes 2014, Theorems 3 and 5"
