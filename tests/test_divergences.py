"""Divergences as a declared level kind, the chord argument and the witness family (docs/sections/divergences.md).

Hand derivations (T = e^eps, the ratio definition's raw level):

- **levels.** x = (1/4, 3/4), y = (3/4, 1/4): KL(x || y) = (1/4) log(1/3) + (3/4) log 3 = (1/2) log 3, the same both
  ways; Renyi-2: sum x^2/y = (1/16)/(3/4) + (9/16)/(1/4) = 1/12 + 9/4 = 7/3, level log(7/3). Classes E1 = {(1/2, 1/2)},
  E2 = {(1, 0)}: the table is (3/4, 1/4); KL(E1 || P) = (1/2) log(2/3) + (1/2) log 2 = (1/2) log(4/3), KL(E2 || P) =
  log(4/3), the level log(4/3); TV(E2, P) = 1/4.
- **ldp => KL local (tight f).** ldp at T bounds every ratio x_l/y_l to [1/T, T]. phi(r) = r log r is convex
  (phi'' = 1/r > 0); with sum y r = 1 the y-mass on T is at most L = (1 - 1/T)/(T - 1/T) = 1/(T + 1), and
  KL <= L T log T + (1 - L)(1/T)(-log T) = (T log T - log T)/(T + 1) = log T (T - 1)/(T + 1) = eps tanh(eps/2).
  Attained by x = (T, 1)/(T + 1), y = (1, T)/(T + 1) (r = T on y-mass 1/(T + 1)).
- **ldp => Renyi-2 local.** phi(r) = r^2: L T^2 + (1 - L)/T^2 = (T^2 + T^-1)/(T + 1) = (T^3 + 1)/(T (T + 1))
  = T - 1 + 1/T, so f = log(e^eps - 1 + e^-eps) = log(2 cosh(eps) - 1).
- **mult-t => KL / Renyi-2 closeness.** The class/table ratio is in [1/t, t]: the same chord values in t; attained by
  s records at (t, 1)/(t + 1) in one class and N - s at ((N - s t), (N t - s))/((N - s)(t + 1)) in another, a table
  when N >= s (t + 1) (the second class's ratios lie in [1/t, t] exactly then).
- **the reverse.** x = (K b, 1 - K b), y = (b, 1 - b), b = 1/((K - 1)^2 + 1): chi^2(x || y) = (K - 1)^2 b/(1 - b) = 1,
  chi^2(y || x) = (K - 1)/(K (K - 2)) <= 1 for K >= 3, so KL <= D_2 <= log 2, while the ratio is K.
"""

from __future__ import annotations

import math
import random
import sys
from fractions import Fraction as F
from pathlib import Path

import pytest
import sympy

import brute
from _plugin_fixtures import registered

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "docs" / "examples" / "implgraph-divergences"))

from implgraph_divergences.kl_closeness import KLCloseness  # noqa: E402
from implgraph_divergences.kl_ldp import KLLocalPrivacy  # noqa: E402
from implgraph_divergences.renyi2_closeness import Renyi2Closeness  # noqa: E402
from implgraph_divergences.renyi2_ldp import Renyi2LocalPrivacy  # noqa: E402

from implgraph.certify import check_certificate  # noqa: E402
from implgraph.core.concrete import INF, ConcreteTable  # noqa: E402
from implgraph.core.errors import InputError  # noqa: E402
from implgraph.definitions.divergences import Divergence, DivergenceDefinition  # noqa: E402
from implgraph.engines.prove import check_implication  # noqa: E402

PLUGINS = (KLCloseness, KLLocalPrivacy, Renyi2Closeness, Renyi2LocalPrivacy)
eps, t = sympy.symbols("eps t", positive=True)


@pytest.fixture(scope="module", autouse=True)
def plugins():
    with registered(*PLUGINS):
        yield


def _value(level):
    return level.expr if hasattr(level, "expr") else sympy.Rational(level.numerator, level.denominator)


def _same(a, b):
    return sympy.simplify(sympy.expand_log(a - b, force=True)) == 0


# -- levels -------------------------------------------------------------------------------------------------------

def test_levels_by_hand():
    x, y = [F(1, 4), F(3, 4)], [F(3, 4), F(1, 4)]
    assert _same(_value(Divergence("kl", compares="pairs").level([x, y])), sympy.log(3) / 2)
    assert _same(_value(Divergence("renyi", 2, compares="pairs").level([x, y])), sympy.log(sympy.Rational(7, 3)))
    rows, classes = [[F(1, 2), F(1, 2)], [F(1), F(0)]], ["E1", "E2"]
    assert _same(_value(Divergence("kl", compares="class").level(rows, classes)), sympy.log(sympy.Rational(4, 3)))
    assert Divergence("tv", compares="class").level(rows, classes) == F(1, 4)
    assert Divergence("kl", compares="pairs").level(rows) == INF          # (1, 0) against (1/2, 1/2): 1/2 > 0 = 0
    assert _same(_value(Divergence("renyi", "oo", compares="pairs").level([x, y])), sympy.log(3))


def test_declaration_errors():
    with pytest.raises(InputError):
        Divergence("hellinger", compares="pairs")
    with pytest.raises(InputError):
        Divergence("renyi", 1, compares="pairs")          # order 1 is KL
    with pytest.raises(InputError):
        Divergence("kl", compares="records")


@pytest.mark.parametrize("compares", ["pairs", "class", "removal"])
def test_levels_against_brute_force(compares):
    rng = random.Random(11)
    for _ in range(40):
        n = rng.randint(2, 4)
        rows = brute.random_rows(rng, n, rng.randint(2, 3))
        classes = brute.random_labels(rng, n, 2) if compares == "class" else None
        kl = Divergence("kl", compares=compares).level(rows, classes)
        want = brute.kl_level_float(rows, compares, classes)
        if want == brute.INF:
            assert kl == INF
        else:
            assert abs(float(_value(kl)) - want) < 1e-9 * max(1, want)
        for alpha in (2, 3):
            got = Divergence("renyi", alpha, compares=compares).level(rows, classes)
            s = brute.renyi_level_sum(rows, alpha, compares, classes)
            if s is None:
                assert got == INF
            else:       # exp((alpha - 1) D) is the power sum, exactly
                want = sympy.Rational(s.numerator, s.denominator)
                assert sympy.simplify(sympy.exp((alpha - 1) * _value(got)) - want) == 0


def test_plugin_levels_on_concrete_tables():
    ct = ConcreteTable.from_fractions([[F(1, 4), F(3, 4)], [F(3, 4), F(1, 4)]], classes=["E1", "E2"])
    assert _same(KLLocalPrivacy().concrete_enclosed(ct).expr, sympy.log(3) / 2)
    lv = KLCloseness().concrete_enclosed(ct)      # each class against (1/2, 1/2): (1/4) log(1/2) + (3/4) log(3/2)
    assert _same(lv.expr, sympy.Rational(1, 4) * sympy.log(sympy.Rational(1, 2))
                 + sympy.Rational(3, 4) * sympy.log(sympy.Rational(3, 2)))
    assert lv.lo <= F(sympy.Rational(str(sympy.N(lv.expr, 40))).p, sympy.Rational(str(sympy.N(lv.expr, 40))).q) <= lv.hi


# -- the chord argument -----------------------------------------------------------------------------------------------

_N = sympy.Symbol("N", integer=True, positive=True)
_H = _N - (_N - 1) / t
HAND = {
    ("ldp", "example-kl-ldp"): eps * (sympy.exp(eps) - 1) / (sympy.exp(eps) + 1),
    ("ldp", "example-renyi2-ldp"): sympy.log(sympy.exp(eps) - 1 + sympy.exp(-eps)),
    # a class's ratio is also <= h = N - (N - 1)/t (the other classes each >= 1/t): the chord on [1/t, h] beyond
    # t = N - 1, mass 1/N at h (tests/test_chord_class_level.py)
    ("mult-t-closeness", "example-kl-closeness"): sympy.Piecewise(
        (sympy.log(t) * (t - 1) / (t + 1), t <= _N - 1),
        ((_H * sympy.log(_H) - (_N - 1) * sympy.log(t) / t) / _N, True)),
    ("mult-t-closeness", "example-renyi2-closeness"): sympy.Piecewise(
        (sympy.log(t - 1 + 1 / t), t <= _N - 1), (sympy.log((_H ** 2 + (_N - 1) / t ** 2) / _N), True)),
}


@pytest.mark.parametrize("pair", list(HAND))
def test_chord_tight_f_and_certificate(pair):
    a, b = pair
    r = check_implication(a, b, max_n=3)
    assert r.verdict == "proved" and r.method == "chord" and r.tightness == "tight"
    got = sympy.sympify(str(r.tight), locals={"eps": eps, "t": t, "N": _N})
    if isinstance(HAND[pair], sympy.Piecewise):       # piece by piece: at points of each piece
        for n, tv in ((5, 2), (5, 4), (3, 3), (2, sympy.Rational(3, 2)), (4, 7)):
            assert abs(sympy.N((got - HAND[pair]).subs({_N: n, t: tv}), 30)) < 1e-25
    else:
        assert sympy.simplify((got - HAND[pair]).rewrite(sympy.exp)) == 0
    for cert in r.details.get("certificates") or [r.details["certificate"]]:
        rep = check_certificate(cert)
        assert rep.ok, rep.failures()


def test_chord_pairwise_against_removal_is_tight():
    """ldp against a removal divergence: Q_i/P = N/(N - 1 + x_i/Q_i) lies in [N/(N - 1 + T), N T/((N - 1) T + 1)]
    (docs/proofs/tight-pairwise-removal.md), the larger chord attained by randomized response. By hand at N = 2,
    T = 2: [2/3, 4/3], P-mass 1/2 at each end; D(P || Q) = -(log(4/3) + log(2/3))/2 = log(9/8)/2, larger than
    D(Q || P) = ((4/3) log(4/3) + (2/3) log(2/3))/2."""
    class KLCentral(DivergenceDefinition):
        name = "kl-dp-upper-test"
        level_symbol = "d"
        level = Divergence("kl", compares="removal")
    with registered(KLCentral):
        r = check_implication("ldp", "kl-dp-upper-test", max_n=3)
        assert r.verdict == "proved" and r.tightness == "tight"
        at = {s: (sympy.log(2) if s.name == "eps" else 2) for s in r.tight.free_symbols}
        assert abs(sympy.N(r.tight.subs(at) - sympy.log(sympy.Rational(9, 8)) / 2, 40)) < 1e-30
        assert check_certificate(r.details["certificate"]).ok


def test_chord_closeness_is_attained_only_where_the_table_exists():
    certs = check_implication("mult-t-closeness", "example-kl-closeness", max_n=3).details["certificates"]
    (cert,) = [c for c in certs if c["upper_certificate"]["hi"] == "T"]      # the piece T <= N - 1
    assert cert["tightness"]["domain"] == ["N >= T + 1"]


@pytest.mark.parametrize("forge", ["halved", "phi", "kind", "family", "sides"])
def test_forged_chord_certificate_is_rejected(forge):
    cert = dict(check_implication("ldp", "example-kl-ldp", max_n=3).details["certificate"])
    data = dict(cert["upper_certificate"])
    if forge == "halved":
        cert["upper"] = f"({cert['upper']})/2"          # below the chord: not its value
    elif forge == "phi":
        data["phi"] = "r**2"
    elif forge == "kind":
        data["kind"] = "tv"
    elif forge == "family":
        rows = [{**row, "value": "1/(T + 2)"} if row["class"] == "E1" else row for row in cert["tightness"]["rows"]]
        cert["tightness"] = {**cert["tightness"], "rows": rows}
    else:
        cert["A"] = {**cert["A"], "family": "class", "sides": "two-sided", "min_class": "1"}   # not A's declaration
    cert["upper_certificate"] = data
    assert not check_certificate(cert).ok


def test_chord_family_by_hand():
    """The attaining table of ldp => KL local, computed here: KL both ways is log T (T - 1)/(T + 1)."""
    for T in (F(3, 2), F(2), F(5)):
        x, y = [T / (T + 1), 1 / (T + 1)], [1 / (T + 1), T / (T + 1)]
        assert brute.ldp([x, y]) == T
        want = math.log(T) * float((T - 1) / (T + 1))
        assert abs(brute.kl_level_float([x, y, y], "pairs") - want) < 1e-12


# -- the reverse: witness families ------------------------------------------------------------------------------------

@pytest.mark.parametrize("a", ["example-kl-ldp", "example-renyi2-ldp"])
@pytest.mark.parametrize("b", ["ldp", "dp", "mult-t-closeness"])
def test_divergence_never_bounds_a_ratio(a, b):
    r = check_implication(a, b, max_n=3, b_classes={"min_size": 1} if b == "mult-t-closeness" else None)
    assert r.verdict == "refuted" and r.method == "divergence-family" and "for every N >= 2 and K >= 3" in r.evidence


def test_witness_family_by_brute_force():
    for K in (3, 10, 100):
        b = F(1, (K - 1) ** 2 + 1)
        x, y = [K * b, 1 - K * b], [b, 1 - b]
        assert brute.renyi_level_sum([x, y], 2, "pairs") <= 2          # chi^2 <= 1 both ways: D_2 <= log 2
        assert brute.kl_level_float([x, y], "pairs") <= math.log(2)
        assert brute.ldp([x, y]) >= K and brute.dp([x, y]) >= F(K + 1, 2)


# -- ordering facts between divergences -------------------------------------------------------------------------------

class TVLocal(DivergenceDefinition):
    name = "tv-ldp-test"
    level_symbol = "d"
    level = Divergence("tv", compares="pairs")


@pytest.fixture
def tv():
    with registered(TVLocal):
        yield


def test_ldp_to_total_variation_by_the_chord(tv):
    """phi(r) = |r - 1|/2: L (T - 1)/2 + (1 - L)(1 - 1/T)/2 = (T - 1)/(T + 1) = tanh(eps/2) (as dp-conversions.md)."""
    r = check_implication("ldp", "tv-ldp-test", max_n=3)
    assert r.verdict == "proved" and r.tightness == "tight"
    got = sympy.sympify(str(r.tight), locals={"eps": eps})
    assert sympy.simplify((got - (sympy.exp(eps) - 1) / (sympy.exp(eps) + 1)).rewrite(sympy.exp)) == 0
    assert check_certificate(r.details["certificate"]).ok


@pytest.mark.parametrize("a,b,f", [("example-renyi2-ldp", "example-kl-ldp", "d"),
                                   ("example-kl-ldp", "example-kl-closeness", "d"),
                                   ("example-kl-ldp", "tv-ldp-test", "sqrt(2)*sqrt(d)/2")])
def test_ordering_facts(tv, a, b, f):
    r = check_implication(a, b, max_n=3)
    assert r.verdict == "proved" and r.method == "divergence-order" and r.tight is None
    d = sympy.Symbol("d", positive=True)
    got, want = (sympy.sympify(x, locals={"d": d}) for x in (r.details["proved_f"], f))
    assert sympy.simplify(got - want) == 0
    assert check_certificate(r.details["certificate"]).ok


def test_renyi2_closeness_to_kl_closeness_is_attained(tv):
    """One record at (1, 0) in its own class, the others at ((N e^-d - 1)/(N - 1), ...): P_1 = e^-d, so that class's
    KL and D_2 from the table are both log(1/P_1) = d (d <= log N, renyi-closeness's largest value): the ordering's
    f = d is the tight f there (the attained-family argument)."""
    from implgraph.certify import certificates_in
    r = check_implication("example-renyi2-closeness", "example-kl-closeness", max_n=3)
    assert r.verdict == "proved" and r.method == "divergence-order"
    d = sympy.Symbol("d", positive=True)
    assert sympy.simplify(sympy.sympify(str(r.tight), locals={"d": d}) - d) == 0
    assert "log(N)" in str(r.details.get("attained_where"))
    assert all(check_certificate(c).ok for c in certificates_in(r.details))


def test_ordering_facts_by_brute_force():
    """KL <= Renyi-2 and TV <= sqrt(KL/2) on random pairs, and the class level under the pairs' (joint convexity)."""
    rng = random.Random(5)
    for _ in range(200):
        x, y = brute.random_rows(rng, 2, 3)
        kl, s = brute.kl_float(x, y), brute.renyi_power_sum(x, y, 2)
        if s is None:
            continue
        assert kl <= math.log(s) + 1e-12
        assert float(sum(abs(a - b) for a, b in zip(x, y))) / 2 <= math.sqrt(kl / 2) + 1e-12
        rows = brute.random_rows(rng, 4, 2)
        classes = brute.random_labels(rng, 4, 2)
        assert brute.kl_level_float(rows, "class", classes) <= brute.kl_level_float(rows, "pairs") + 1e-12


def test_forged_ordering_certificate_is_rejected():
    cert = dict(check_implication("example-renyi2-ldp", "example-kl-ldp", max_n=3).details["certificate"])
    swapped = dict(cert, A=dict(cert["B"]), B=dict(cert["A"]))       # KL => Renyi-2 with U = T: false
    assert not check_certificate(swapped).ok
    assert not check_certificate(dict(cert, upper="T/2")).ok


def test_witness_family_keeps_to_the_classes_asked_for():
    """The family's partition has a class of one record: with classes of >= 2 records it is not a witness."""
    r = check_implication("example-kl-ldp", "mult-t-closeness", max_n=3, b_classes={"min_size": 2})
    assert r.method != "divergence-family"


@pytest.mark.parametrize("name", ["example-kl-ldp", "example-kl-closeness", "example-renyi2-ldp", "example-renyi2-closeness"])
def test_plugins_pass_check_definition(name):
    from implgraph.checks.definition_check import check_definition
    report = check_definition(name, tables=12)
    assert all(c.ok for c in report.checks), [c for c in report.checks if not c.ok]


def test_a_removal_divergence_never_bounds_dp():
    class KLCentral(DivergenceDefinition):
        name = "kl-dp-test"
        level_symbol = "d"
        level = Divergence("kl", compares="removal")
    with registered(KLCentral):
        forward = check_implication("dp", "kl-dp-test", max_n=3)     # the chord, tight piece by piece in N and T
        assert forward.verdict == "proved" and check_certificate(forward.details["certificate"]).ok
        assert [c["domain"][-1] for c in forward.details["certificates"] if c["tight"]] == \
            ["N <= 2", "(N >= 3) & (T <= N/(N - 1))", "(N >= 3) & (T >= N/(N - 1))"]
        back = check_implication("kl-dp-test", "dp", max_n=3)
        assert back.verdict == "refuted" and back.method == "divergence-family"


# -- an order read from the definition's parameters --------------------------------------------------------------------

def test_an_order_named_by_a_parameter():
    """order="alpha" is read when the parameters are given: alpha = 3 is the Renyi-3 level, oo the largest log ratio,
    1 or none an error; order="exp(eps)" is the hockey-stick at e^eps, at eps = 0 the total variation."""
    x, y = [F(1, 4), F(3, 4)], [F(3, 4), F(1, 4)]
    div = Divergence("renyi", order="alpha", compares="pairs")
    assert div.params_named() == ("alpha",)
    # sum x^3 / y^2 = (1/64)/(9/16) + (27/64)/(1/16) = 1/36 + 27/4 = 61/9: D_3 = log(61/9)/2
    assert _same(_value(div.at({"alpha": 3}).level([x, y])), sympy.log(sympy.Rational(61, 9)) / 2)
    assert _same(_value(div.at({"alpha": "oo"}).level([x, y])), sympy.log(3))
    for bad in ({"alpha": 1}, {"alpha": "1/2"}, {}):
        with pytest.raises(InputError):
            div.at(bad)
    hs = Divergence("hockey-stick", order="exp(eps)", compares="pairs")
    assert hs.at({"eps": 0}).level([x, y]) == Divergence("tv", compares="pairs").level([x, y]) == F(1, 2)
    with pytest.raises(InputError):
        Divergence("kl", order="alpha", compares="pairs")


def test_an_order_naming_an_undeclared_parameter_is_refused():
    with pytest.raises(InputError, match="not one of its params"):
        class Bad(DivergenceDefinition):
            name = "bad-order-test"
            level = Divergence("renyi", order="beta", compares="pairs")
