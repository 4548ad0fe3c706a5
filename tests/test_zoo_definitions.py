"""The divergence definitions of DP accounting and closeness, and p-sensitive k-anonymity: exact levels against the
independent brute force of tests/brute.py (the divergences over events and in floats; p counted per class) on random
tables, renyi at order oo equal to the ratio definitions ldp and dp, the declared ranges and shapes
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
       ("delta-ldp", {"eps": "log(2)"}), ("delta-ldp", {"eps": "1/2"}), ("p-sensitive-k-anonymity", {"k": 2})]


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
    if name.startswith("renyi-"):
        return brute.level_over(lambda x, y: brute.renyi_float(x, y, _order(params["alpha"])), rows, compares, classes)
    if name == "tv-ldp":
        return float(brute.level_over(brute.event_gap, rows, compares))
    if name == "delta-ldp":
        g = 2 if params["eps"] == "log(2)" else math.exp(0.5)
        return float(brute.level_over(lambda x, y: brute.event_gap(x, y, g), rows, compares))
    return brute.p_sensitive(rows, classes, params["k"])


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
