"""The removal-scaling lemma: a record-removal hockey-stick (total variation: gamma = 1) against one between records
or on record removal at a smaller gamma (docs/proofs/tight-removal-scaling.md).

**Lemma (pairs).** Let A bound E_gamma_A between every two records (both ways) by T, and 1 <= gamma_A <= gamma_B. With
P = (x_i + (N - 1) Q_i)/N bucket by bucket,

    N (P - gamma_B Q_i) = x_i - (gamma_B N - N + 1) Q_i <= x_i - gamma_A Q_i,
    N (Q_i - gamma_B P) = (N - gamma_B (N - 1)) Q_i - gamma_B x_i <= Q_i - gamma_A x_i,

the differences being (gamma_B - 1)(N - 1) Q_i + (gamma_B - gamma_A) Q_i and (gamma_B - 1)(N - 1) Q_i +
(gamma_B - gamma_A) x_i, >= 0. Summing positive parts, N B <= max(E_gamma_A(x_i || Q_i), E_gamma_A(Q_i || x_i)), and
Q_i is the mean of the records j != i, so by joint convexity of an f-divergence (cited: van Erven and Harremoes, IEEE
Trans. Inf. Theory 60(7), 2014, Theorem 11 for the Renyi family; the hockey-stick is an f-divergence, f(r) =
max(r - gamma, 0) convex) each is at most A's level: U = T/N.

**Lemma (removal).** A and B compare the same pairs: max(p - gamma_B q, 0) <= max(p - gamma_A q, 0): U = T.

Re-checked here: both sides registered definitions declaring those divergences (kinds, gammas read from the registry
at the certificate's parameters, B by record removal); the two coefficient identities and their signs (symbolic, with
gamma_B = gamma_A + g, gamma_A = 1 + h, N = 2 + n, g, h, n >= 0); U = T/N (pairs) or T (removal); and, for the tight
claim, the family (one record at (T, 1 - T), resp. (N T, 1 - N T) where N T <= 1, and N - 1 at (0, 1)): the registry's
exact levels of both sides at sample points (N, T) are T and U, and symbolically the removed record's pair gives
E_gamma_B(P || Q_1) = U with P = (U, 1 - U), Q_1 = (0, 1).
"""

from __future__ import annotations

from fractions import Fraction

import sympy

from implgraph.certify.lemmas import lemma
from implgraph.certify.report import lemma_steps, steps_report
from implgraph.core import methods
from implgraph.core.formula import parse_expr

__all__ = ["check"]

_T = sympy.Symbol("T", positive=True)
_N = sympy.Symbol("N", integer=True, positive=True)
_SAMPLE_T = (Fraction(0), Fraction(1, 10), Fraction(1, 3), Fraction(1, 2), Fraction(1))


def _gamma(div):
    if div is None:
        return None
    if div.kind == "tv":
        return sympy.Integer(1)
    return div.order if div.kind == "hockey-stick" and getattr(div.order, "is_number", False) else None


def _coefficients_ok() -> bool:
    """The two bucket inequalities' coefficient identities and signs (module notes)."""
    g, h, n = (sympy.Symbol(s, nonnegative=True) for s in "ghn")
    ga, gb, N = 1 + h, 1 + h + g, 2 + n
    x, q = sympy.Symbol("x", nonnegative=True), sympy.Symbol("q", nonnegative=True)
    p = (x + (N - 1) * q) / N
    one = sympy.expand(sympy.cancel((x - ga * q) - N * (p - gb * q)))     # = ((gb - 1)(N - 1) + gb - ga) q
    two = sympy.expand(sympy.cancel((q - ga * x) - N * (q - gb * p)))     # = ((gb - 1)(N - 1)) q + (gb - ga) x
    return (sympy.expand(one - ((gb - 1) * (N - 1) + gb - ga) * q) == 0 and one.is_nonnegative is True
            and sympy.expand(two - ((gb - 1) * (N - 1) * q + (gb - ga) * x)) == 0 and two.is_nonnegative is True)


def _family_steps(cert, case, da, db, upper, ns):
    rows = [(r.get("count"), r.get("value")) for r in (cert.get("tightness") or {}).get("rows") or []]
    first = "T" if case == "pairs" else "N*T"
    fam = cert.get("tightness") or {}
    want_domain = [] if case == "pairs" else ["N*T <= 1"]
    ok = rows == [("1", first), ("N - 1", "0")] and list(fam.get("domain") or []) == want_domain
    out = [(f"the family is one record at ({first}, 1 - {first}) and N - 1 at (0, 1)"
            + ("" if case == "pairs" else " where N T <= 1"), ok, "exact")]
    if not ok:
        return out
    # symbolically: removing the first record, P = (u, 1 - u) with u = U, Q_1 = (0, 1): E_gamma(P || Q_1) = u
    u, g = sympy.Symbol("u", nonnegative=True), sympy.Symbol("g", nonnegative=True)      # u <= 1/2 < 1 + g - ...
    p_first = sympy.cancel((parse_expr(first, {"T": _T, "N": _N}) + 0 * _N) / _N)
    e_one = sympy.Max(u, 0) + sympy.Max((1 - u) - (1 + g), 0)
    out.append(("the first record's removal: P = (U, 1 - U), Q_1 = (0, 1), E_gamma(P || Q_1) = U",
                sympy.simplify(p_first - upper) == 0 and sympy.simplify(e_one - u) == 0, "exact"))
    bad, tried = [], 0
    for n in list(ns)[:5]:
        for t in _SAMPLE_T:
            value = t if case == "pairs" else t / n
            if not 0 <= value * (1 if case == "pairs" else n) <= 1:
                continue
            x = value if case == "pairs" else n * value
            table = [[x, 1 - x]] + [[Fraction(0), Fraction(1)]] * (n - 1)
            a_level, b_level = da.level(table), db.level(table)
            u_at = upper.subs({_T: sympy.Rational(value.numerator, value.denominator), _N: n})
            tried += 1
            ok_a = sympy.Rational(str(a_level)) == sympy.Rational(value.numerator, value.denominator)
            ok_b = abs(sympy.N(sympy.sympify(str(b_level)) - u_at, 50)) < 1e-40
            if not (ok_a and ok_b):
                bad.append(f"N = {n}, T = {value}: A {a_level}, B {b_level}, U {u_at}")
    out.append((f"the family's exact levels are T and U at {tried} points (N, T)", tried > 0 and not bad,
                "; ".join(bad[:3]) or "exact levels of the registry"))
    return out


@lemma(methods.REMOVAL_SCALING, own_partitions=True)
def check(cert, ns=range(2, 13), timeout_ms=4000):
    """Re-check a removal-scaling certificate (see the module notes)."""
    from implgraph.certify.registered import declared_divergences
    with lemma_steps(cert) as steps:
        da, db = declared_divergences(cert)
        ga, gb = _gamma(da), _gamma(db)
        steps.append(("both sides declare a total variation or a hockey-stick at a number", ga is not None
                      and gb is not None, "registry"))
        if ga is None or gb is None:
            return steps_report(steps)
        case = (cert.get("upper_certificate") or {}).get("case")
        steps.append(("B compares record removal; A pairs of records or record removal, as the certificate's case",
                      db.compares == "removal" and da.compares == case and case in ("pairs", "removal"), "registry"))
        steps.append(("1 <= gamma_A <= gamma_B", bool(sympy.Ge(ga, 1)) and bool(sympy.Ge(gb, ga)), "exact"))
        if case == "pairs":
            steps.append(("N (P - gamma_B Q_i) <= x_i - gamma_A Q_i and N (Q_i - gamma_B P) <= Q_i - gamma_A x_i "
                          "(coefficients)", _coefficients_ok(), "exact"))
            steps.append(("joint convexity of the hockey-stick (an f-divergence): Q_i's is at most the records'", True,
                          "cited: van Erven and Harremoes 2014, Theorem 11; f(r) = max(r - gamma, 0) convex"))
        upper = parse_expr(str(cert.get("upper")), {"T": _T, "N": _N})
        want = _T / _N if case == "pairs" else _T
        steps.append((f"U is {want}", sympy.simplify(upper - want) == 0, "exact"))
        steps.append(("the domain has N >= 2", "N >= 2" in (cert.get("domain") or []), "exact"))
        if cert.get("tight"):
            steps += _family_steps(cert, case, da, db, upper, ns)
    return steps_report(steps)
