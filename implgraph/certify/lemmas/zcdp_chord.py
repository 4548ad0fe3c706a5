"""The zcdp-chord lemma: a pairwise ratio level T bounds the zero-concentrated level between records by
U = ln T (T - 1)/(T + 1), and randomized response attains it.

**Lemma** (``ZcdpChord.zcdp_chord_pairs``, kernel-checked in coq/theories/ZcdpChord.v). On a table whose every two
records have bucket ratios in [1/T, T] (T >= 1), every ordered pair (x, y) of records has D_alpha(x || y) <= alpha U
for every order alpha > 1, U = ln T (T - 1)/(T + 1): the Renyi sum sum_l y_l r_l^alpha is at most the chord of the
convex r^alpha over [1/T, T] at mean sum_l y_l r_l = 1, i.e. L T^alpha + (1 - L) T^(-alpha) with
L = (1 - 1/T)/(T - 1/T) = 1/(T + 1), which is (T^alpha + T^(1 - alpha))/(T + 1) = cosh((alpha - 1/2) eps)/cosh(eps/2)
(T = e^eps), and ``Zcdp.tanh_bound`` bounds its log by (alpha - 1) alpha eps tanh(eps/2). So the zero-concentrated
level sup_alpha D_alpha/alpha is at most U.

**Attained** (``ZcdpChord.rr_kl``, ``ZcdpChord.zcdp_rr_lower``). Randomized response, x = (T, 1)/(T + 1) and
y = (1, T)/(T + 1), has ratios T and 1/T and KL(x || y) = KL(y || x) = U; the zero-concentrated level is at least KL
(D_alpha -> KL as alpha -> 1; ``ZcdpOrder.zcdp_kl``), so it is exactly U.

**On record removal** (B compares ``removal``: the table's mean P against the mean Q_i without record i, both ways;
an upper bound, no tightness). The pair (P, Q_i) is a pair of distributions: where Q_i/P lies in [lo, hi] within
[1/R, R] (so P/Q_i in [1/hi, 1/lo] within [1/R, R] too), ``ZcdpChord.zcdp_chord_pairs`` at R bounds its
zero-concentrated level both ways by U(R) = ln R (R - 1)/(R + 1). Re-derived here from A's declarations: A two-sided
pairwise gives [N/(N - 1 + T), N T/((N - 1) T + 1)] (Q_i/P = N/(N - 1 + x_i/Q_i), decreasing in x_i/Q_i, a mediant
of records in [1/T, T]); A a two-sided subset level of size N - 1 (record removal itself) [1/T, T]; A a two-sided
subset level of size 1 (each record against the table) [1/T, (N - 1/T)/(N - 1)] (Q_i/P = (N - x_i/P)/(N - 1) with
x_i/P >= 1/T, and Q_i/P >= 1/T as a mean of the others, each >= 1/T). The certificate's lo, hi must be these, its R
at least hi, 1/lo and 1 (rational functions of T = 1 + u, N = 2 + v with coefficients of one sign, u, v >= 0), and
U = U(R) by exact algebra.

What is re-checked here, from the certificate and the registry alone (never the prover):

- A names a registered definition declaring a two-sided pairwise ratio of averages, B one declaring the
  zero-concentrated divergence (kind ``zcdp``) between pairs of records;
- the certificate cites this lemma; its domain states T >= 1 and N >= 2 (two records to compare);
- U = ln T (T - 1)/(T + 1) by exact algebra (the difference simplifies to 0);
- the chord's value: L T^alpha + (1 - L) T^(-alpha) with L = (1 - 1/T)/(T - 1/T) is (T^alpha + T^(1 - alpha))/(T + 1)
  (alpha a symbol), and that is cosh((alpha - 1/2) eps)/cosh(eps/2) at T = e^eps (exact algebra); the tanh step and
  the assembly are cited from the kernel-checked library (``ZcdpChord.zcdp_chord_pairs``);
- where tightness is claimed: the family is exactly one record at (T, 1)/(T + 1) and N - 1 at (1, T)/(T + 1) (rows
  compared as expressions), its records' ratios are T and 1/T (A's raw level T, as T >= 1), KL both ways minus U
  simplifies to 0 (so rho* >= U, ``ZcdpChord.zcdp_rr_lower``, and <= U by the lemma: rho* = U); and at sample points
  (N in {2, 3}, T in {3/2, 2, 3}) A's raw level of the table computed by :mod:`implgraph.certify.levels` is T and B's
  registry level (the exact zero-concentrated level, :mod:`implgraph.definitions._zcdp_values`) equals U.
"""

from __future__ import annotations

from fractions import Fraction

import sympy

from implgraph.certify.lemmas import lemma
from implgraph.certify.report import lemma_steps, steps_report
from implgraph.certify.zcdp_rr_family import rr_kl_is
from implgraph.core import methods
from implgraph.core.formula import parse_expr

__all__ = ["check", "U_OF_T"]

_T = sympy.Symbol("T", positive=True)
_N = sympy.Symbol("N", integer=True, positive=True)
_ALPHA = sympy.Symbol("alpha", positive=True)
_EPS = sympy.Symbol("eps", positive=True)
#: the lemma's bound in A's raw level T
U_OF_T = sympy.log(_T) * (_T - 1) / (_T + 1)
#: the family: (count, first bucket's value) of binary rows
_ROWS = ((sympy.Integer(1), _T / (_T + 1)), (_N - 1, 1 / (_T + 1)))
_SAMPLES = [(n, Fraction(t)) for n in (2, 3) for t in ("3/2", "2", "3")]


def _sides(cert):
    """``(A ok, B ok)`` from the registry: A a two-sided pairwise ratio, B the zero-concentrated level between pairs."""
    from implgraph.certify.registered import declared_divergences, declared_family, declared_sides, registered
    a = registered((cert.get("A") or {}).get("definition") or "")
    a_ok = a is not None and declared_family(a) == "pairwise" and declared_sides(a) == "two-sided"
    _, db = declared_divergences(cert)
    return a_ok, db is not None and db.kind == "zcdp" and db.compares == "pairs"


def _removal(cert) -> bool:
    """Does B declare the zero-concentrated level on record removal?"""
    from implgraph.certify.registered import declared_divergences
    _, db = declared_divergences(cert)
    return db is not None and db.kind == "zcdp" and db.compares == "removal"


def _removal_interval(cert):
    """``(lo, hi)`` of Q_i/P re-derived from A's registered declarations (module notes), or None."""
    from implgraph.certify.registered import declared_family, declared_sides, registered
    a = registered((cert.get("A") or {}).get("definition") or "")
    if a is None or declared_sides(a) != "two-sided":
        return None
    family = declared_family(a)
    if family == "pairwise":
        return _N / (_N - 1 + _T), _N * _T / ((_N - 1) * _T + 1)
    size = (cert.get("A") or {}).get("size")
    if family != "subset" or size is None:
        return None
    try:
        j = parse_expr(str(size), {"N": _N})
    except (TypeError, ValueError, SyntaxError):
        return None
    if sympy.simplify(j - (_N - 1)) == 0:
        return 1 / _T, _T
    if sympy.simplify(j - 1) == 0:
        return 1 / _T, (_N - 1 / _T) / (_N - 1)
    return None


def _nonneg(expr) -> bool:
    """Is ``expr`` (rational in T, N) >= 0 for every T >= 1, N >= 2: at T = 1 + u, N = 2 + v its numerator and
    denominator have coefficients of one sign in u, v >= 0?"""
    u, v = sympy.Symbol("u", nonnegative=True), sympy.Symbol("v", nonnegative=True)
    num, den = sympy.fraction(sympy.cancel(sympy.together(sympy.sympify(expr).subs({_T: 1 + u, _N: 2 + v}))))
    signs = set()
    for p in (num, den):
        coeffs = sympy.Poly(sympy.expand(p), u, v).coeffs()
        if all(c >= 0 for c in coeffs):
            signs.add(1)
        elif all(c <= 0 for c in coeffs):
            signs.add(-1)
        else:
            return False
    return len(signs) == 1 or num == 0


def _removal_steps(cert) -> list:
    """The removal case (module notes): the interval, R and U = U(R)."""
    from implgraph.certify.registered import declared_family, registered
    data = cert.get("upper_certificate") or {}
    got = _removal_interval(cert)
    a = registered((cert.get("A") or {}).get("definition") or "")
    out = [("A confines Q_i/P to an interval (two-sided pairwise: a mediant; a two-sided subset level of size N - 1: "
            "its own ratios; of size 1: Q_i/P = (N - x_i/P)/(N - 1), and >= 1/T as a mean of records)",
            got is not None, f"registry: {declared_family(a)}, size {(cert.get('A') or {}).get('size')}")]
    if got is None:
        return out
    lo, hi = got
    names = {"T": _T, "N": _N}
    try:
        c_lo, c_hi, R = (parse_expr(str(data.get(k)), names) for k in ("lo", "hi", "R"))
    except (TypeError, ValueError, SyntaxError) as exc:
        return out + [("the certificate's lo, hi and R readable", False, str(exc))]
    out.append((f"the certificate's interval is [{lo}, {hi}]", sympy.simplify(c_lo - lo) == 0
                and sympy.simplify(c_hi - hi) == 0, f"[{c_lo}, {c_hi}]"))
    out.append((f"R = {R} is at least hi, 1/lo and 1 for every T >= 1, N >= 2 (so [lo, hi] and [1/hi, 1/lo] lie in "
                "[1/R, R])", _nonneg(R - hi) and _nonneg(R - 1 / lo) and _nonneg(R - 1), "exact"))
    upper = parse_expr(str(cert.get("upper")), names)
    out.append(("U = ln R (R - 1)/(R + 1)", sympy.simplify(sympy.expand_log(upper - U_OF_T.subs(_T, R), force=True))
                == 0, f"U = {upper}"))
    out += [(f"{what} (the lemma at R in T's place)", ok, how) for what, ok, how in _chord_steps()]
    out.append(("no tightness claimed (an upper bound on record removal)", not cert.get("tight"), "exact"))
    return out


def _chord_steps() -> list:
    L = (1 - 1 / _T) / (_T - 1 / _T)
    chord = L * _T ** _ALPHA + (1 - L) * _T ** (-_ALPHA)
    rr = (_T ** _ALPHA + _T ** (1 - _ALPHA)) / (_T + 1)
    cosh = sympy.cosh((_ALPHA - sympy.Rational(1, 2)) * _EPS) / sympy.cosh(_EPS / 2)
    as_exp = sympy.simplify((rr.subs(_T, sympy.exp(_EPS)) - cosh).rewrite(sympy.exp))
    return [("the chord of r^alpha over [1/T, T] at mean 1: L T^alpha + (1 - L) T^(-alpha), L = (1 - 1/T)/(T - 1/T), "
             "is (T^alpha + T^(1 - alpha))/(T + 1)", sympy.simplify(chord - rr) == 0, "exact, alpha a symbol"),
            ("(T^alpha + T^(1 - alpha))/(T + 1) = cosh((alpha - 1/2) eps)/cosh(eps/2) at T = e^eps", as_exp == 0,
             "exact"),
            ("its log <= (alpha - 1) alpha eps tanh(eps/2) (the tanh lemma), hence rho* <= U between every two "
             "records", True, "cited: Zcdp.tanh_bound, ZcdpChord.zcdp_chord_pairs (kernel-checked, coq/theories)")]


def _family_steps(cert) -> list:
    fam = cert.get("tightness") or {}
    names = {"N": _N, "T": _T}
    try:
        rows = [(parse_expr(str(r.get("count")), names), parse_expr(str(r.get("value")), names))
                for r in fam.get("rows") or []]
    except (TypeError, ValueError, SyntaxError) as exc:
        return [("the family readable", False, str(exc))]
    same = len(rows) == 2 and not fam.get("domain") and all(
        sympy.simplify(c - c0) == 0 and sympy.simplify(v - v0) == 0 for (c, v), (c0, v0) in zip(rows, _ROWS))
    out = [("the family is randomized response: one record at (T, 1)/(T + 1), N - 1 at (1, T)/(T + 1), no domain of "
            "its own", same, "rows compared as expressions")]
    if not same:
        return out
    x = (_T / (_T + 1), 1 / (_T + 1))
    y = (1 / (_T + 1), _T / (_T + 1))
    ratios = sympy.simplify(x[0] / y[0] - _T) == 0 and sympy.simplify(x[1] / y[1] - 1 / _T) == 0
    out.append(("its two kinds of records have ratios T and 1/T (A's raw level T, as T >= 1; N >= 2 gives both)",
                ratios, "exact"))
    out.append(("KL(x || y) = KL(y || x) = U", rr_kl_is(_T, U_OF_T), "exact, T a symbol"))
    out.append(("rho* >= KL (D_alpha -> KL as alpha -> 1), so rho* = U on the family", True,
                "cited: ZcdpChord.zcdp_rr_lower, ZcdpOrder.zcdp_kl (kernel-checked)"))
    return out + [_spot(cert)]


def _spot(cert):
    """The registry's exact levels of the family at sample points: A's raw level T, B's level U."""
    from implgraph.certify.levels import raw_level
    from implgraph.certify.registered import declared_divergences
    from implgraph.core.concrete import INF
    _, db = declared_divergences(cert)
    bad = []
    for n, t in _SAMPLES:
        rows = [[t / (t + 1), 1 / (t + 1)]] + [[1 / (t + 1), t / (t + 1)]] * (n - 1)
        ra = raw_level({"family": "pairwise", "sides": "two-sided"}, rows)
        rb = db.level(rows)
        u = U_OF_T.subs(_T, sympy.Rational(t.numerator, t.denominator))
        hi, lo = getattr(rb, "hi", None), getattr(rb, "lo", None)
        if rb is None or rb == INF:
            ok_b = False
        elif hi is not None:        # an enclosure: U inside it (U evaluated at 60 digits, the ends rational)
            ok_b = bool(sympy.N(u - sympy.Rational(str(lo)), 60) >= 0 and sympy.N(sympy.Rational(str(hi)) - u, 60) >= 0)
        else:
            ok_b = sympy.simplify(sympy.expand_log(sympy.sympify(rb) - u, force=True)) == 0
        if not (ra == t and ok_b):
            bad.append(f"N = {n}, T = {t}: A {ra}, B {rb}, U = {u}")
    return ("at N in {2, 3}, T in {3/2, 2, 3}: A's raw level T, B's exact level U", not bad,
            "; ".join(bad[:3]) or "registry levels")


def describe(cert) -> list:
    return [f"{(cert.get('A') or {}).get('definition')} => {(cert.get('B') or {}).get('definition')}: "
            f"U = {cert.get('upper')} (ZcdpChord.zcdp_chord_pairs), tight: randomized response at T"]


@lemma(methods.ZCDP_CHORD, own_partitions=True, describe=describe)
def check(cert, ns=range(2, 13), timeout_ms=4000):
    """Re-check a zcdp-chord certificate (see the module notes)."""
    with lemma_steps(cert) as steps:
        if _removal(cert):
            return _check_removal(cert, steps)
        a_ok, b_ok = _sides(cert)
        steps.append(("A declares a two-sided pairwise ratio of averages", a_ok, "registry"))
        steps.append(("B declares the zero-concentrated level between pairs of records", b_ok, "registry"))
        data = cert.get("upper_certificate") or {}
        steps.append(("the certificate cites the lemma", data.get("lemma") == methods.ZCDP_CHORD.lemma,
                      str(data.get("lemma"))))
        domain = {str(d).replace(" ", "") for d in cert.get("domain") or ()}
        steps.append(("the domain states T >= 1 and N >= 2", {"T>=1", "N>=2"} <= domain, str(sorted(domain))))
        symbols = cert.get("symbols") or {}
        steps.append(("T a real, N an integer", symbols.get("T") == "real" and symbols.get("N") == "integer",
                      str(symbols)))
        if not (a_ok and b_ok):
            return steps_report(steps)
        upper = parse_expr(str(cert.get("upper")), {"T": _T})
        steps.append(("U = ln T (T - 1)/(T + 1)", sympy.simplify(upper - U_OF_T) == 0, f"U = {upper}"))
        steps += _chord_steps()
        if cert.get("tight"):
            steps += _family_steps(cert)
        else:
            steps.append(("no tightness claimed", True, "exact"))
    return steps_report(steps)


def _check_removal(cert, steps):
    """Re-check a zcdp-chord certificate whose B compares record removal (module notes)."""
    steps.append(("B declares the zero-concentrated level on record removal", True, "registry"))
    data = cert.get("upper_certificate") or {}
    steps.append(("the certificate cites the lemma, on record removal", data.get("lemma") == methods.ZCDP_CHORD.lemma
                  and data.get("compares") == "removal", f"{data.get('lemma')}, {data.get('compares')}"))
    domain = {str(d).replace(" ", "") for d in cert.get("domain") or ()}
    steps.append(("the domain states T >= 1 and N >= 2", {"T>=1", "N>=2"} <= domain, str(sorted(domain))))
    symbols = cert.get("symbols") or {}
    steps.append(("T a real, N an integer", symbols.get("T") == "real" and symbols.get("N") == "integer",
                  str(symbols)))
    steps += _removal_steps(cert)
    return steps_report(steps)
