"""The divergence definitions of DP accounting and closeness, and p-sensitive k-anonymity: exact levels against the
independent brute force of tests/brute_divergences.py (the divergences over events and in floats; p counted per
class) on random tables, renyi at order oo equal to the ratio definitions ldp and dp, the declared ranges and shapes
(``implgraph check-definition``), the parameter checks, and the example plugins equal to their built-in twins.

Hand derivations: x = (1/4, 3/4), y = (3/4, 1/4): TV = 1/2 (the event {2}: 3/4 - 1/4); the hockey-stick at g = 2 is
max over events of x(B) - 2 y(B) = 3/4 - 2/4 = 1/4 ({2}); D_oo = log 3 (3/4 over 1/4), which is ldp's eps.
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
import brute_divergences as bd
from _plugin_fixtures import registered

from implgraph.core.concrete import INF, ConcreteTable
from implgraph.core.errors import InputError
from implgraph.definitions import get

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "docs" / "examples" / "implgraph-divergences"))

from implgraph_divergences.kl_closeness import KLCloseness  # noqa: E402
from implgraph_divergences.kl_ldp import KLLocalPrivacy  # noqa: E402
from implgraph_divergences.renyi2_closeness import Renyi2Closeness  # noqa: E402
from implgraph_divergences.renyi2_ldp import Renyi2LocalPrivacy  # noqa: E402

NEW = [("kl-ldp", {}), ("kl-dp", {}), ("renyi-ldp", {"alpha": 2}), ("renyi-ldp", {"alpha": "3/2"}),
       ("renyi-ldp", {"alpha": "oo"}), ("renyi-dp", {"alpha": 3}), ("renyi-dp", {"alpha": "oo"}), ("tv-ldp", {}),
       ("kl-closeness", {}), ("renyi-closeness", {"alpha": 2}), ("renyi-closeness", {"alpha": "5/2"}),
       ("delta-ldp", {"eps": "log(2)"}), ("delta-ldp", {"eps": "1/2"}), ("p-sensitive-k-anonymity", {"k": 2}),
       ("tv-dp", {}), ("delta-dp", {"eps": "log(2)"}), ("delta-dp", {"eps": "1/2"}), ("zcdp-ldp", {})]


def _level(name, rows, classes, params):
    d = get(name)
    ct = ConcreteTable.from_fractions(rows, classes=classes)
    args = {k: (str(v) if not isinstance(v, int) else v) for k, v in params.items()}
    raw = d.concrete_enclosed(ct, **args) if getattr(d, "concrete_enclosed", None) else d.concrete(ct, **args)
    if raw == INF:
        return math.inf
    return float(raw.expr) if hasattr(raw, "expr") else float(raw)


def _order(text):
    return math.inf if text == "oo" else float(F(str(text)))


def _brute(name, rows, classes, params):
    compares = {"ldp": "pairs", "dp": "removal", "closeness": "class"}[name.rsplit("-", 1)[1]] \
        if name != "p-sensitive-k-anonymity" else None
    if name.startswith("kl-"):
        return brute.kl_level_float(rows, compares, classes)
    if name == "zcdp-ldp":          # sup_alpha D_alpha/alpha over every ordered pair of records (mpmath, from below)
        values = [brute.zcdp_mp(x, y) for x in rows for y in rows if x != y]
        return math.inf if any(v is None for v in values) else float(max(values, default=0))
    if name.startswith("renyi-"):
        return bd.level_over(lambda x, y: bd.renyi_float(x, y, _order(params["alpha"])), rows, compares, classes)
    if name in ("tv-ldp", "tv-dp"):
        return float(bd.level_over(bd.event_gap, rows, compares))
    if name in ("delta-ldp", "delta-dp"):
        g = 2 if params["eps"] == "log(2)" else math.exp(0.5)
        return float(bd.level_over(lambda x, y: bd.event_gap(x, y, g), rows, compares))
    return bd.p_sensitive(rows, classes, params["k"])


@pytest.mark.parametrize("name,params", NEW)
def test_levels_equal_the_brute_force_on_random_tables(name, params):
    rng = random.Random(sum(map(ord, name)) + 7)
    for _ in range(25):
        n = rng.randint(2, 4)
        rows = brute.random_rows(rng, n, rng.randint(2, 3))
        classes = brute.random_labels(rng, n, 2)
        got, want = _level(name, rows, classes, params), _brute(name, rows, classes, params)
        if want == math.inf:
            assert got == math.inf, (rows, classes)
        else:
            assert abs(got - want) <= 1e-9 * max(1.0, abs(want)), (rows, classes, got, want)


def test_levels_by_hand():
    x, y = [F(1, 4), F(3, 4)], [F(3, 4), F(1, 4)]
    assert _level("tv-ldp", [x, y], None, {}) == 0.5
    assert _level("delta-ldp", [x, y], None, {"eps": "log(2)"}) == 0.25
    assert abs(_level("renyi-ldp", [x, y], None, {"alpha": "oo"}) - math.log(3)) < 1e-12
    # p-sensitive 2-anonymity: classes {(1, 0), (0, 1)} (2 values) and {(1, 0), (1, 0)} (1 value): p = 1; a class of
    # one record: no p
    rows = [[F(1), F(0)], [F(0), F(1)], [F(1), F(0)], [F(1), F(0)]]
    assert _level("p-sensitive-k-anonymity", rows, ["E1", "E1", "E2", "E2"], {"k": 2}) == 1
    assert _level("p-sensitive-k-anonymity", rows, ["E1", "E1", "E2", "E3"], {"k": 2}) == 0


@pytest.mark.parametrize("renyi,ratio", [("renyi-ldp", brute.ldp), ("renyi-dp", brute.dp)])
def test_renyi_at_order_oo_is_the_ratio_definition(renyi, ratio):
    """D_oo = the largest log ratio: renyi-ldp(alpha=oo) is ldp, renyi-dp(alpha=oo) is dp (brute.ldp and brute.dp
    give the raw ratio, the level its log), exactly on random tables."""
    rng = random.Random(3)
    for _ in range(40):
        n = rng.randint(2, 4)
        rows = brute.random_rows(rng, n, rng.randint(2, 3))
        raw = get(renyi).concrete_enclosed(ConcreteTable.from_fractions(rows), alpha="oo")
        want = ratio(rows)
        if want == brute.INF:
            assert raw == INF
        elif want == 1:
            assert raw == 0
        else:
            assert sympy.simplify(raw.expr - sympy.log(sympy.Rational(want.numerator, want.denominator))) == 0


@pytest.mark.parametrize("name,params", NEW)
def test_check_definition_passes(name, params):
    from implgraph.checks.definition_check import check_definition
    report = check_definition(name, params, tables=12)
    assert all(c.ok for c in report.checks), [(c.name, c.detail) for c in report.checks if not c.ok]


@pytest.mark.parametrize("name,params", [("renyi-ldp", {"alpha": 1}), ("renyi-ldp", {"alpha": "1/2"}),
                                         ("renyi-closeness", {"alpha": "-oo"}), ("delta-ldp", {"eps": "-1"}),
                                         ("p-sensitive-k-anonymity", {"k": "3/2"})])
def test_parameters_out_of_range_are_one_line_errors(name, params):
    with pytest.raises(InputError) as info:
        get(name).check_params(None, params)
    assert "\n" not in str(info.value) and "fix:" in str(info.value)


def test_renyi_order_oo_is_accepted():
    d = get("renyi-ldp")
    assert d.check_params(None, {"alpha": "oo"})["alpha"] is sympy.oo


@pytest.mark.parametrize("plugin,builtin,params", [(KLLocalPrivacy, "kl-ldp", {}), (KLCloseness, "kl-closeness", {}),
                                                   (Renyi2LocalPrivacy, "renyi-ldp", {"alpha": 2}),
                                                   (Renyi2Closeness, "renyi-closeness", {"alpha": 2})])
def test_example_plugins_equal_their_built_in_twins(plugin, builtin, params):
    rng = random.Random(17)
    with registered(plugin):
        for _ in range(15):
            n = rng.randint(2, 4)
            rows = brute.random_rows(rng, n, 3)
            classes = brute.random_labels(rng, n, 2)
            ct = ConcreteTable.from_fractions(rows, classes=classes)
            a, b = plugin().concrete_enclosed(ct), get(builtin).concrete_enclosed(ct, **params)
            assert a == b or sympy.simplify(sympy.expand_log(a.expr - b.expr, force=True)) == 0


@pytest.mark.parametrize("name,params", [n for n in NEW if n[0] != "p-sensitive-k-anonymity"])
def test_a_grouped_table_has_the_level_of_its_records(name, params):
    """A grouped table (distinct rows with counts, as the microdata readers give) has the level of the same records
    written out one by one."""
    from implgraph.io.weighted import WeightedConcreteTable
    rng = random.Random(23)
    d = get(name)
    args = {k: (str(v) if not isinstance(v, int) else v) for k, v in params.items()}
    for _ in range(8):
        m = rng.randint(2, 3)
        rows = [[rng.randint(0, 3) for _ in range(m)] for _ in range(rng.randint(2, 3))]
        rows = [[x + (sum(r) == 0 and i == 0) for i, x in enumerate(r)] for r in rows]
        denom = 1
        for r in rows:
            denom = denom * sum(r) // math.gcd(denom, sum(r))
        numer = [[x * (denom // sum(r)) for x in r] for r in rows]
        counts = [rng.randint(1, 3) for _ in rows]
        labels = [rng.randint(0, 1) for _ in rows]
        grouped = WeightedConcreteTable(numer, denom, [f"b{i}" for i in range(m)], counts, labels, ["E1", "E2"])
        flat = [[F(x, denom) for x in r] for r, c in zip(numer, counts) for _ in range(c)]
        flat_classes = [f"E{lab + 1}" for lab, c in zip(labels, counts) for _ in range(c)]
        a = d.concrete_enclosed(grouped, **args)
        b = d.concrete_enclosed(ConcreteTable.from_fractions(flat, classes=flat_classes), **args)
        assert a == b or sympy.simplify(sympy.expand_log(a.expr - b.expr, force=True)) == 0, (numer, counts)


def test_a_trivial_cell_without_a_tight_f_does_not_claim_it():
    """delta-ldp(eps) => tv-ldp holds at tv-ldp's weakest level 1 on every table, but its tight f is not 1: TV <=
    (e^eps - 1 + 2 delta)/(e^eps + 1) (at eps = log 2: (1 + 2 delta)/3 < 1 for delta < 1). On x = (1/2, 1/2),
    y = (0, 1): at g = 2, max(1/2 - 0, 0) + max(1/2 - 2, 0) = 1/2 one way and 0 the other, TV = 1/2 <= 2/3. The
    matrix says the tight f was not computed rather than that it is the weakest level."""
    from implgraph.map.matrix_cells import not_proved_reason
    text = not_proved_reason("delta-ldp(eps=log(2))", "tv-ldp", trivial=True, tight_known=False)
    assert text.startswith("trivial") and "the tight f was not computed" in text and "the tight f is" not in text
    x, y = [F(1, 2), F(1, 2)], [F(0), F(1)]
    assert _level("delta-ldp", [x, y], None, {"eps": "log(2)"}) == 0.5 and _level("tv-ldp", [x, y], None, {}) == 0.5


# -- the central total variation and hockey-stick: a weakest level 1/N -----------------------------------------------

def _skewed(n):
    """One record (1, 0) beside n - 1 records (0, 1)."""
    return [[F(1), F(0)]] + [[F(0), F(1)]] * (n - 1)


@pytest.mark.parametrize("name,params", [("tv-dp", {}), ("delta-dp", {"eps": "log(2)"}), ("delta-dp", {"eps": "1/2"})])
def test_central_tv_and_hockey_stick_are_at_most_one_over_N(name, params):
    """P - Q_i = (x_i - Q_i)/N, so TV(P, Q_i) = TV(x_i, Q_i)/N <= 1/N, and the hockey-stick at g >= 1 is at most the
    total variation. By hand on the skewed table: P = (1/N, (N - 1)/N), Q_1 = (0, 1): TV = 1/N; at g = 2,
    E(P || Q_1) = 1/N + max((N - 1)/N - 2, 0) = 1/N and E(Q_1 || P) = max(1 - 2 (N - 1)/N, 0) = 0 for N >= 2 (the
    other records' Q_i = (1/(N - 1), (N - 2)/(N - 1)) is closer); so the level is 1/N, the declared weakest. Random
    tables (exact, events enumerated) stay at or below 1/N."""
    d = get(name)
    assert d.scale == "removal-distance"
    for n in range(2, 7):
        assert d.weakest(n) == sympy.Rational(1, n)
        assert _level(name, _skewed(n), None, params) == pytest.approx(1 / n, abs=1e-15)
    assert bd.level_over(bd.event_gap, _skewed(5), "removal") == F(1, 5)
    assert bd.level_over(lambda x, y: bd.event_gap(x, y, 2), _skewed(5), "removal") == F(1, 5)
    rng = random.Random(41)
    for _ in range(40):
        n = rng.randint(2, 6)
        rows = brute.random_rows(rng, n, rng.randint(2, 3))
        assert bd.level_over(bd.event_gap, rows, "removal") <= F(1, n), rows
    assert d.weakest() == sympy.Rational(1, 2)         # without N: every table of every N >= 2


def test_the_weakest_level_in_N_is_read_by_the_formula_reader():
    from implgraph.definitions.scales import SCALES
    N = sympy.Symbol("N", integer=True, positive=True)
    s = SCALES["removal-distance"]
    assert s.weakest_depends_on_N and not SCALES["distance"].weakest_depends_on_N
    assert s.weakest_at(N) == 1 / N and s.weakest_at(3) == sympy.Rational(1, 3)
    assert SCALES["distance"].weakest_at(3) == 1 and SCALES["log"].weakest_at(N) is sympy.oo
    assert s.samples(4) == [x / 4 for x in SCALES["distance"].samples(4)]


def test_check_definition_refuses_the_weakest_one_for_the_central_tv():
    """Declared on the distance scale (weakest 1, whatever N), the central total variation fails check-definition:
    its level never reaches 1, nor tends to it (1/N on the one-hot tables)."""
    from implgraph.checks.definition_check import check_definition
    from implgraph.definitions.divergences import Divergence, DivergenceDefinition

    class WrongScale(DivergenceDefinition):
        name = "tv-dp-wrong-scale-test"
        level_symbol = "delta"
        level = Divergence("tv", compares="removal")
    WrongScale.scale = "distance"
    with registered(WrongScale):
        report = check_definition("tv-dp-wrong-scale-test", {}, tables=8)
    failed = [c.name for c in report.checks if not c.ok]
    assert failed == ["weakest and strongest levels as declared"]


def test_a_trivial_implication_at_one_over_N_has_a_certificate_and_a_smaller_target_is_refused():
    """ldp => tv-dp at f = 1/N: every table of N records meets it (trivial), certified by weakest-level; the same
    certificate with the target 1/(N + 1) is refused (the skewed table has level 1/N > 1/(N + 1))."""
    from implgraph.certify import check_certificate
    from implgraph.engines.prove import check_implication
    r = check_implication("ldp", "tv-dp", "1/N")
    assert r.verdict == "proved" and r.method == "weakest-level"
    cert = r.details["certificate"]
    assert check_certificate(cert).ok
    assert not check_certificate({**cert, "target": "1/(N + 1)"}).ok
    assert check_implication("ldp", "tv-dp", "1/(N + 1)").method != "weakest-level"


# -- local information privacy and pointwise maximal leakage: a record against the table --------------------------------

def _information_raw(rows, one_sided):
    """The largest ratio x_i(l)/P(l) (and, two-sided, P(l)/x_i(l)) over the records and the buckets of positive mean,
    P the mean of the records, enumerated literally in Fractions; brute.INF where a two-sided ratio has x_i(l) = 0 <
    P(l)."""
    n, best = len(rows), F(1)
    for l in range(len(rows[0])):
        p = sum((r[l] for r in rows), F(0)) / n
        if p == 0:
            continue
        for r in rows:
            if r[l] == 0:
                if not one_sided:
                    return brute.INF
                continue
            best = max(best, r[l] / p) if one_sided else max(best, r[l] / p, p / r[l])
    return best


def _raw(name, rows):
    got = get(name).concrete(ConcreteTable.from_fractions(rows))
    return brute.INF if got == INF else F(got)


@pytest.mark.parametrize("name,one_sided", [("lip", False), ("pml", True)])
def test_information_privacy_levels_equal_the_brute_force(name, one_sided):
    rng = random.Random(53 + one_sided)
    for _ in range(40):
        n = rng.randint(2, 5)
        rows = brute.random_rows(rng, n, rng.randint(2, 4))
        assert _raw(name, rows) == _information_raw(rows, one_sided), rows


def test_information_privacy_by_hand():
    """x = (1/4, 3/4), y = (3/4, 1/4): P = (1/2, 1/2), the ratios x/P are 1/2 and 3/2: lip's raw level 2 (P/x at 1/4),
    pml's 3/2. One record (1, 0) beside N - 1 records (0, 1): P(1) = 1/N, so pml's raw level is N (its ceiling: x_i(l)
    <= N P(l)) and lip's is oo (a record at 0 where P > 0). Equal records: 1 (eps = 0)."""
    x, y = [F(1, 4), F(3, 4)], [F(3, 4), F(1, 4)]
    assert _raw("lip", [x, y]) == 2 and _raw("pml", [x, y]) == F(3, 2)
    for n in range(2, 7):
        assert _raw("pml", _skewed(n)) == n and _raw("lip", _skewed(n)) == brute.INF
    assert _raw("lip", [x, x, x]) == 1 and _raw("pml", [y, y]) == 1
    assert get("lip").scale == "log" and get("pml").scale == "log-record"
    for n in range(2, 7):       # pml's weakest level on n records is log n, the skewed table's
        assert get("pml").weakest(n) == sympy.log(n)
    rng = random.Random(61)
    for _ in range(30):         # and no table goes beyond it: x_i(l) <= n P(l)
        rows = brute.random_rows(rng, rng.randint(2, 5), rng.randint(2, 4))
        assert _information_raw(rows, True) <= len(rows)


def test_pml_below_lip_below_ldp_on_random_tables():
    """pml <= lip (one side of the same ratios) and lip <= ldp: P(l) is a mean of the records, each within
    [x_i(l)/e^eps, x_i(l) e^eps] under eps-LDP, so e^-eps <= x_i(l)/P(l) <= e^eps. Raw levels, exactly."""
    rng = random.Random(59)
    for _ in range(40):
        rows = brute.random_rows(rng, rng.randint(2, 5), rng.randint(2, 3))
        pml, lip, ldp = _raw("pml", rows), _raw("lip", rows), brute.ldp(rows)
        assert pml <= lip or lip == brute.INF
        assert ldp == brute.INF or (lip != brute.INF and lip <= ldp)


@pytest.mark.parametrize("name", ["lip", "pml"])
def test_information_privacy_check_definition_passes(name):
    from implgraph.checks.definition_check import check_definition
    report = check_definition(name, {}, tables=12)
    assert all(c.ok for c in report.checks), [(c.name, c.detail) for c in report.checks if not c.ok]


def test_a_trivial_cell_towards_tv_dp_names_the_weakest_in_N():
    """The matrix's reason for a trivial cell towards tv-dp names its weakest level as the formula 1/N, not a number
    met by every table of every N."""
    from implgraph.map.matrix_cells import not_proved_reason
    assert "f = 1/N on N records holds" in not_proved_reason("ldp", "tv-dp", trivial=True, tight_known=False)
    assert "weakest level (1/N on N records)" in not_proved_reason("ldp", "delta-dp(eps=log(2))", trivial=True)


def test_a_cell_at_the_weakest_level_in_N_is_trivial_at_every_N():
    """k-anonymity => pml: on one class of N records (k-anonymity N) pml reaches log N, its weakest level at N (the
    skewed table), so the tight f at each N checked is log N, trivially; at N = 2 the two sample levels are too few to
    fit and still give the trivial f."""
    from implgraph.api_checks import check_edge
    r = check_edge("k-anonymity", "pml", N=3)
    assert [(i.N, i.tight, i.trivial) for i in r.forward.instances] == [(2, "log(2)", True), (3, "log(3)", True)]
    assert r.forward.trivial
