"""Implications towards (eps, delta)-DP on record removal, proved for every N: the slack arguments of
engines/slack.py, the composition of engines/composition.py, their certificates and forgeries of them.

The f values are derived by hand (module notes of engines/slack.py and the docstrings below), and every proved f is
checked against tests/brute.py's independent levels on random tables.
"""

from __future__ import annotations

import copy
import math
import random
from fractions import Fraction

import pytest
import sympy

import brute
from implgraph.certify import certificates_in, check_certificate
from implgraph.engines.prove import check_implication

DELTA = Fraction(1, 10)
EDP = "eps-delta-dp"
eps, N = sympy.Symbol("eps"), sympy.Symbol("N")


@pytest.fixture(autouse=True)
def _without_extreme_points(monkeypatch):
    """These tests check the slack and composition arguments themselves; where extreme-points applies (eps-LDP and
    (eps,delta)-LDP => (eps,delta)-DP) it answers first with the tight f (tests/test_extreme_points.py): left out here."""
    from implgraph.core import methods
    from implgraph.prover import registry
    kept = [x for x in registry.arguments() + registry.arguments("ceiling") if x.method is not methods.EXTREME_POINTS]
    monkeypatch.setattr(registry, "_ARGUMENTS", kept)


def _proved(a, a_params=None):
    r = check_implication(a, EDP, a_params=a_params or {}, b_params={"delta": sympy.Rational(1, 10)})
    assert r.verdict == "proved", r.evidence
    f, how = r.upper_f
    assert "upper bound" in how
    certs = certificates_in(r.details)
    assert certs and all(check_certificate(c).ok for c in certs)
    f, cert = sympy.sympify(f, locals={"eps": eps, "N": N}), certs[0]
    if cert["method"] == "removal-cap":
        # every table of N >= 10 records is at eps = 0 (|P(E) - Q_i(E)| <= 1/N <= delta = 1/10, by hand); the bound
        # below is the part's, its certificate stated where N < 10
        assert isinstance(f, sympy.Piecewise) and f.args[0] == (0, N >= 10)
        f, cert = sympy.Piecewise(*f.args[1:]), cert["parts"][0]
        assert "N < 10" in cert["domain"] and check_certificate(cert).ok
    return r, f, cert


def _brute_ok(f_of, a_level, n_values=(2, 3, 4), tables=60, seed=7):
    """B's brute-force raw level <= e^f(A's level) on random tables (A finite)."""
    rng = random.Random(seed)
    for n in n_values:
        for _ in range(tables):
            rows = brute.random_rows(rng, n, 2)
            ta = a_level(rows)
            if ta == brute.INF:
                continue
            tb = brute.eps_delta_dp(rows, DELTA)
            bound = f_of(ta, n)
            assert tb <= bound * (1 + 1e-12), (rows, ta, tb, bound)


def test_dp_gives_eps_delta_dp_with_f_eps():
    """P <= e^eps Q on every event gives P <= e^eps Q + delta: f(eps) = eps (upper bound, method slack-target-removal)."""
    r, f, cert = _proved("dp")
    assert sympy.simplify(f - eps) == 0
    assert cert["method"] == "slack-target-removal"
    _brute_ok(lambda t, n: t, brute.dp)


def test_eps_delta_ldp_gives_eps_delta_dp_with_f_eps():
    """Averaging x_i <= T x_k + delta over k gives the removal constraints with the same delta: f(eps) = eps."""
    r, f, cert = _proved("eps-delta-ldp", {"delta": sympy.Rational(1, 10)})
    assert sympy.simplify(f - eps) == 0
    assert cert["method"] == "slack-pairs-to-removal"
    _brute_ok(lambda t, n: t, lambda rows: brute.eps_delta_ldp(rows, DELTA))


def test_ldp_composes_through_dp():
    """ldp => dp has f = log((N + e^eps - 1)/N) (one record at ratio e^eps against the rest), then dp => (eps, delta)-dp
    with U = T: f = log((N + e^eps - 1)/N)."""
    r, f, cert = _proved("ldp")
    assert sympy.simplify(f - sympy.log((N + sympy.exp(eps) - 1) / N)) == 0
    assert cert["method"] == "composition" and cert["via"]["definition"] == "dp"
    _brute_ok(lambda t, n: (n + t - 1) / n, brute.ldp)


@pytest.mark.parametrize("a, params, symbol, level", [
    ("kdp", {"k": 2}, "eps", lambda rows: brute.kdp(rows, 2)),
    ("kt-closeness", {"k": 2}, "t", lambda rows: brute.kt(rows, 2)),
])
def test_subset_levels_compose_through_dp(a, params, symbol, level):
    """kdp(k=2) and kt-closeness(k=2) bound dp's removal ratio by their own raw level T (the mean of N - 1 records lies
    between the means of the extreme subsets of 2 records and the table: subset monotone), then U = T: f is
    log of A's raw level (eps for kdp, log(t) for kt-closeness)."""
    r, f, cert = _proved(a, {k: sympy.Integer(v) for k, v in params.items()})
    assert cert["method"] == "composition" and cert["via"]["definition"] == "dp"
    s = sympy.Symbol(symbol)
    expected = s if symbol == "eps" else sympy.log(s)
    assert sympy.simplify(sympy.sympify(str(f), locals={symbol: s}) - expected) == 0
    _brute_ok(lambda t, n: t, level, n_values=(3, 4))


def _forged(cert, edit):
    out = copy.deepcopy(cert)
    edit(out)
    return check_certificate(out).ok


@pytest.mark.parametrize("what, edit", [
    ("U below g(h)", lambda c: c.update(upper="1")),
    ("h below the first part's bound", lambda c: c["parts"][0].update(upper="1")),
    ("the second part only up to T <= 2", lambda c: c["parts"][1]["domain"].append("T <= 2")),
    ("the intermediate not the parts' link", lambda c: c.update(via=c["parts"][0]["A"])),
    ("tightness claimed", lambda c: c.update(tight=True)),
])
def test_forged_composition_rejected(what, edit):
    _, _, cert = _proved("ldp")
    assert check_certificate(cert).ok
    assert not _forged(cert, edit), what


@pytest.mark.parametrize("what, edit", [
    ("B's delta below A's", lambda c: c["B"]["slack"].update(delta="1/20")),
    ("U below T", lambda c: c.update(upper="(T + 1)/2")),
    ("a multiplier negative", lambda c: c["upper_certificate"]["multipliers"]["removed"].update({"q >= 0": "1 - T"})),
])
def test_forged_slack_averaging_rejected(what, edit):
    _, _, cert = _proved("eps-delta-ldp", {"delta": sympy.Rational(1, 10)})
    assert not _forged(cert, edit), what


def test_forged_slack_target_removal_rejected():
    _, _, cert = _proved("dp")
    assert not _forged(cert, lambda c: c.update(upper="(T + 1)/2"))
    assert not _forged(cert, lambda c: c["A"].update(size="N - 2"))


def test_not_tight_at_small_n():
    """The bounds are upper bounds only, and strictly so: at N = 2, dp at e^eps = 2 allows (eps, delta)-dp below eps
    (brute force: no table of two binary records with dp level <= 2 has B's level 2)."""
    grid = [Fraction(i, 12) for i in range(13)]
    worst = Fraction(1)
    for x in grid:
        for y in grid:
            rows = [[x, 1 - x], [y, 1 - y]]
            if brute.dp(rows) <= 2:
                worst = max(worst, brute.eps_delta_dp(rows, DELTA))
    assert worst < 2
    assert math.isfinite(float(worst))

