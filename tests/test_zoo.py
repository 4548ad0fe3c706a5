"""The definitions of the literature (the zoo): exact levels against the brute force of
tests/brute.py on random tables, hand-derived levels, symbolic equal to concrete, and the
linear-fractional forms equal to the levels."""

from __future__ import annotations

import random
import textwrap
from fractions import Fraction

import pytest
import sympy

import brute
from implgraph.core.concrete import ConcreteTable
from implgraph.definitions.levels import optimal_level
from implgraph.definitions import get, names
from implgraph.definitions.families import lf_model
from implgraph.io.tablefile import load_table_file

ZOO = ["hierarchical-emd-t-closeness", "basic-beta-likeness", "enhanced-beta-likeness", "delta-disclosure-privacy",
       "distinct-l-diversity",
       "recursive-cl-diversity", "alpha-k-anonymity", "eps-delta-dp", "eps-delta-ldp"]


def _tree(params, p):
    """The hierarchy of a test case, written out by hand for each number of buckets."""
    g = params.get("ground", "equal")
    if g == "equal":
        return tuple(range(p))
    return {"pairs": {2: ((0,), (1,)), 3: ((0, 1), (2,)), 4: ((0, 1), (2, 3))}[p]}[g]


GROUND = {"pairs": {2: "((1)(2))", 3: "((1 2)(3))", 4: "((1 2)(3 4))"}}


def _sym(r):
    return sympy.oo if r == brute.INF else sympy.Rational(r.numerator, r.denominator)


def _brute_raw(name, params, rows, labels):
    """The brute force's raw level (ratio, count or frequency), INF for infinity."""
    fn = {"basic-beta-likeness": lambda: 1 + brute.basic_beta_likeness(rows, labels),
          "enhanced-beta-likeness": lambda: brute.enhanced_beta_likeness(rows, labels),
          "delta-disclosure-privacy": lambda: brute.delta_disclosure_ratio(rows, labels),
          "distinct-l-diversity": lambda: Fraction(brute.distinct_l(rows, labels)),
          "recursive-cl-diversity": lambda: brute.recursive_cl(rows, labels, **params),
          "alpha-k-anonymity": lambda: 1 + brute.alpha_k(rows, labels, **params),   # declared as 1 + alpha
          "eps-delta-dp": lambda: brute.eps_delta_dp(rows, **params),
          "eps-delta-ldp": lambda: brute.eps_delta_ldp(rows, **params),
          "hierarchical-emd-t-closeness": lambda: brute.hierarchical_emd(rows, labels, _tree(params, len(rows[0]))),
          }[name]
    return fn()


CASES = [("basic-beta-likeness", {}), ("enhanced-beta-likeness", {}), ("delta-disclosure-privacy", {}),
         ("distinct-l-diversity", {}), ("recursive-cl-diversity", {"l": 2}), ("recursive-cl-diversity", {"l": 3}),
         ("alpha-k-anonymity", {"k": 1}), ("alpha-k-anonymity", {"k": 2}), ("eps-delta-dp", {"delta": Fraction(0)}),
         ("eps-delta-dp", {"delta": Fraction(1, 10)}), ("eps-delta-dp", {"delta": Fraction(1, 3)}),
         ("eps-delta-ldp", {"delta": Fraction(0)}), ("eps-delta-ldp", {"delta": Fraction(1, 8)}),
         ("hierarchical-emd-t-closeness", {"ground": "equal"}), ("hierarchical-emd-t-closeness", {"ground": "pairs"})]


def _engine_params(params, p):
    """The parameters as the engine takes them (a named test hierarchy written for p buckets)."""
    g = params.get("ground")
    return dict(params, ground=GROUND[g][p]) if g in GROUND else params


def _random_table(rng, denom=8):
    n, p = rng.randint(2, 6), rng.randint(2, 4)
    rows = []
    for _ in range(n):
        cuts = sorted(rng.randint(0, denom) for _ in range(p - 1))
        rows.append([Fraction(b - a, denom) for a, b in zip([0] + cuts, cuts + [denom])])
    labels = [f"E{rng.randint(1, n)}" for _ in range(n)]
    return rows, labels


def test_at_least_sixteen_definitions_are_registered():
    assert len(names()) >= 16
    assert set(ZOO) <= set(names())


@pytest.mark.parametrize("name,params", CASES)
@pytest.mark.parametrize("seed", range(3))
def test_concrete_levels_equal_brute_force(name, params, seed):
    rng = random.Random(seed)
    d = get(name)
    for _ in range(25):
        rows, labels = _random_table(rng)
        ct = ConcreteTable.from_fractions(rows, classes=labels)
        got = optimal_level(ct, d, **_engine_params(params, len(rows[0]))).value
        assert got == d.level_from_raw(_sym(_brute_raw(name, params, rows, labels))), (rows, labels)


@pytest.mark.parametrize("name,params", CASES)
def test_level_forms_equal_brute_force(name, params):
    """Where a definition has ``lf_terms``: max(floor, terms) with 0/0 no constraint and c/0 infinite."""
    d = get(name)
    if not hasattr(d, "lf_terms"):
        pytest.skip(f"{name} has no linear-fractional form")
    rng = random.Random(11)
    for _ in range(20):
        rows, labels = _random_table(rng)
        order = sorted(range(len(rows)), key=lambda i: labels[i])     # rows numbered class by class
        rows, labels = [rows[i] for i in order], [labels[i] for i in order]
        sizes = [labels.count(c) for c in dict.fromkeys(labels)]
        model = lf_model(d, len(rows), tuple(sizes), len(rows[0]), **_engine_params(params, len(rows[0])))
        value = model.floor
        for t in model.terms:
            num, den = t.num.value(rows), t.den.value(rows)
            if den > 0:
                value = max(value, num / den)
            elif num > 0:
                value = brute.INF
                break
        assert value == _brute_raw(name, params, rows, labels), (rows, labels)


# Hand derivations on the table of docs/sections/adding-a-definition.md: E1 = (1/2, 1/2), E2 = (1/4, 3/4);
# the table's distribution is P = (3/8, 5/8).
HAND = ConcreteTable.from_fractions([["1/2", "1/2"], ["1/4", "3/4"]], classes=["E1", "E2"])


@pytest.mark.parametrize("name,params,level", [
    # largest q/p: E1's a1, (1/2)/(3/8) = 4/3, so beta = 1/3
    ("basic-beta-likeness", {}, sympy.Rational(1, 3)),
    # both values above the table meet D <= -ln p: 1/3 <= ln(8/3) and 1/5 <= ln(8/5)
    ("enhanced-beta-likeness", {}, sympy.Rational(1, 3)),
    # largest p/q: E2's a1, (3/8)/(1/4) = 3/2
    ("delta-disclosure-privacy", {}, sympy.log(sympy.Rational(3, 2))),
    ("distinct-l-diversity", {}, 2),
    # l = 2, two values: r1 / r2 is 1 in E1 and 3 in E2
    ("recursive-cl-diversity", {"l": 2}, 3),
    ("alpha-k-anonymity", {"k": 1}, sympy.Rational(3, 4)),
    ("alpha-k-anonymity", {"k": 2}, sympy.oo),          # singleton classes
    # a1: P = 3/8, removing record 1 leaves Q = 1/4: (3/8 - 1/10) / (1/4) = 11/10 is the largest
    ("eps-delta-dp", {"delta": Fraction(1, 10)}, sympy.log(sympy.Rational(11, 10))),
    # x_1(a1) / x_2(a1) = 2 at delta = 0 (the LDP level); (1/2 - 1/4) / (1/4) = 1 at delta = 1/4
    ("eps-delta-ldp", {"delta": Fraction(0)}, sympy.log(2)),
    ("eps-delta-ldp", {"delta": Fraction(1, 4)}, 0),
])
def test_levels_by_hand(name, params, level):
    assert optimal_level(HAND, name, **params).value == level


def test_enhanced_beta_likeness_is_infinite_past_the_log_bound():
    # P = (1/4, 3/4) over two classes (1/2, 1/2) and (0, 1): in E1, D = (1/2 - 1/4)/(1/4) = 1 > -ln(3/4)?
    # no: the value is a1 with p = 1/4, -ln(1/4) = 1.386 > 1, within the bound. Make p larger: rows
    # (1, 0), (1/2, 1/2), (0, 1), (0, 1) with classes {1, 2}, {3, 4}: P(a1) = 3/8, E1 has 3/4:
    # D = 1 > -ln(3/8) = 0.98, so no beta works.
    ct = ConcreteTable.from_fractions([[1, 0], ["1/2", "1/2"], [0, 1], [0, 1]], classes=["E1", "E1", "E2", "E2"])
    assert optimal_level(ct, "enhanced-beta-likeness").value is sympy.oo
    assert optimal_level(ct, "basic-beta-likeness").value == 1


def test_with_delta_zero_the_approximate_levels_are_the_pure_ones():
    rng = random.Random(3)
    for _ in range(20):
        rows, _ = _random_table(rng)
        ct = ConcreteTable.from_fractions(rows)
        assert get("eps-delta-dp").concrete(ct, delta=0) == get("dp").concrete(ct)
        assert get("eps-delta-ldp").concrete(ct, delta=0) == get("ldp").concrete(ct)


# A parametric table, 0 < x < 1/2, two buckets: E1 = {x, 1/2}, E2 = {1 - x, 1/4} (Pr(a1)).
PARAMETRIC = """
    id: zoo-parametric
    symbols: {x: real}
    region: ["0 < x", "x < 1/2"]
    rows:
      - {p: "x", class: E1}
      - {p: "1/2", class: E1}
      - {p: "1 - x", class: E2}
      - {p: "1/4", class: E2}
"""


@pytest.mark.parametrize("name,params", [c for c in CASES if c[0] != "enhanced-beta-likeness"])
def test_symbolic_levels_equal_brute_force_at_points(name, params, tmp_path):
    path = tmp_path / "table.yaml"
    path.write_text(textwrap.dedent(PARAMETRIC))
    lv = optimal_level(load_table_file(path), name, **_engine_params(params, 2))
    x = sympy.Symbol("x", real=True)
    d = get(name)
    for v in [sympy.Rational(k, 40) for k in range(1, 20)]:
        hits = [level for cond, level in lv.level_pieces() if sympy.sympify(cond).subs(x, v) == sympy.true]
        assert len(hits) == 1, v
        q = [Fraction(str(v)), Fraction(1, 2), 1 - Fraction(str(v)), Fraction(1, 4)]
        rows = [[a, 1 - a] for a in q]
        want = d.level_from_raw(_sym(_brute_raw(name, params, rows, ["E1", "E1", "E2", "E2"])))
        got = sympy.sympify(hits[0]).subs(x, v)
        assert got == want or sympy.simplify(got - want) == 0, (v, hits[0], want)


def test_hierarchical_ground_distance_by_hand():
    # E1 = (1/2, 0, 1/2, 0), E2 = (0, 1/2, 0, 1/2), P uniform. E1 moves 1/4 from value 1 to 2 and 1/4 from
    # 3 to 4: with the equal ground distance each unit costs 1 (EMD 1/2); in the hierarchy ((1 2)(3 4))
    # both moves stay inside a group, height 1 of H = 2, cost 1/2 per unit (EMD 1/4).
    ct = ConcreteTable.from_fractions([["1/2", 0, "1/2", 0], [0, "1/2", 0, "1/2"]], classes=["E1", "E2"])
    assert optimal_level(ct, "hierarchical-emd-t-closeness", ground="equal").value == sympy.Rational(1, 2)
    assert optimal_level(ct, "hierarchical-emd-t-closeness", ground="((1 2)(3 4))").value == sympy.Rational(1, 4)
    # ((1 3)(2 4)): every move crosses groups, EMD 1/2 again
    assert optimal_level(ct, "hierarchical-emd-t-closeness", ground="((1 3)(2 4))").value == sympy.Rational(1, 2)


@pytest.mark.parametrize("ground", ["((1 2)(3))", "((1 2) 3 4)", "(1 2", "ordered"])
def test_a_bad_hierarchy_is_an_input_error(ground):
    from implgraph.core.errors import InputError
    ct = ConcreteTable.from_fractions([["1/4"] * 4, ["1/4"] * 4], classes=["E1", "E2"])
    with pytest.raises(InputError):
        optimal_level(ct, "hierarchical-emd-t-closeness", ground=ground)


# -- the concrete views at scale: vectorised over classes, (eps, delta) by sorted prefixes ----------

def _subset_need_brute(a, b, c):
    """The largest ``(a(B) - c) / b(B)`` over every non-empty set of buckets of every row, by enumeration."""
    out = []
    for ra, rb in zip(a, b):
        for B in brute._events(len(ra)):
            top, bottom = sum(ra[l] for l in B) - c, sum(rb[l] for l in B)
            out.append(None if top <= 0 else (brute.INF if bottom == 0 else Fraction(top, bottom)))
    vals = [v for v in out if v is not None]
    return max(vals) if vals else None


@pytest.mark.parametrize("seed", range(4))
def test_the_best_event_is_a_prefix_of_the_sorted_ratios(seed):
    import numpy as np
    from implgraph.definitions._eps_delta import prefix_need
    rng = random.Random(seed)
    for _ in range(150):
        R, p = rng.randint(1, 3), rng.randint(1, 7)
        a = [[rng.choice([0, 0, 1, 2, 3, 5, 7]) for _ in range(p)] for _ in range(R)]
        b = [[rng.choice([0, 0, 1, 2, 3, 4]) for _ in range(p)] for _ in range(R)]
        c = rng.choice([0, 0, 1, 2, 5])
        got = prefix_need(np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64), c)
        assert got == _subset_need_brute(a, b, c), (a, b, c)


def test_ratios_equal_in_float64_are_sorted_and_compared_exactly():
    import numpy as np
    from implgraph.definitions._classes import argmax_fraction
    from implgraph.definitions._eps_delta import prefix_need
    big = 2 ** 60
    # (big + 2) / (big + 1) < (big + 1) / big, both 1.0 in float64
    assert argmax_fraction(np.array([big + 2, big + 1], dtype=object), np.array([big + 1, big], dtype=object)) == 1
    a = np.array([[big + 2, big + 1, 1]], dtype=object)
    b = np.array([[big + 1, big, 3 * big]], dtype=object)
    assert prefix_need(a, b, 0) == Fraction(big + 1, big)            # the single bucket 1, by hand


@pytest.mark.parametrize("name", ["eps-delta-dp", pytest.param("eps-delta-ldp", marks=pytest.mark.slow)])
def test_more_buckets_than_the_enumeration_allows(name):
    # 13 buckets (8190 events): the sorted prefixes against the brute force's enumeration
    rng = random.Random(7)
    for delta in (Fraction(0), Fraction(1, 50)):
        rows = []
        for _ in range(2):
            cuts = sorted(rng.randint(0, 60) for _ in range(12))
            rows.append([Fraction(y - x, 60) for x, y in zip([0] + cuts, cuts + [60])])
        got = optimal_level(ConcreteTable.from_fractions(rows), name, delta=delta).value
        assert got == get(name).level_from_raw(_sym(_brute_raw(name, {"delta": delta}, rows, None))), rows


GROUPED = [c for c in CASES if c[0] != "hierarchical-emd-t-closeness"] + [
    ("hierarchical-emd-t-closeness", {"ground": "equal"})]


@pytest.mark.parametrize("name,params", GROUPED)
def test_grouped_tables_equal_brute_force(name, params):
    """Grouped microdata (one row per class and value, with counts) against the records written out."""
    import numpy as np
    from implgraph.io.weighted import WeightedConcreteTable
    rng = np.random.default_rng(5)
    d = get(name)
    for _ in range(12):
        C, p = int(rng.integers(1, 5)), int(rng.integers(2, 5))
        counts = rng.integers(0, 3, size=(C, p)) * (rng.random((C, p)) < 0.7)
        counts[:, 0] += counts.sum(axis=1) == 0
        counts[0, 0] += counts.sum() < 2                    # the brute force removes a record from N >= 2
        ct = WeightedConcreteTable.from_class_counts(counts, [f"E{c}" for c in range(C)], [f"v{l}" for l in range(p)])
        rows = [[Fraction(int(l == v)) for l in range(p)] for c in range(C) for v in range(p)
                for _ in range(int(counts[c, v]))]
        labels = [f"E{c}" for c in range(C) for v in range(p) for _ in range(int(counts[c, v]))]
        got = optimal_level(ct, d, **params).value
        assert got == d.level_from_raw(_sym(_brute_raw(name, params, rows, labels))), counts.tolist()


@pytest.mark.parametrize("delta", [Fraction(0), Fraction(1, 10), Fraction(1, 3)])
def test_ldp_with_more_distinct_rows_than_events_equals_brute_force(delta):
    # 2 or 3 buckets and up to 14 different records: the events (2^p - 2) are enumerated instead of the pairs
    rng = random.Random(2)
    for _ in range(40):
        n, p, denom = rng.randint(9, 14), rng.randint(2, 3), 10
        rows = []
        for _ in range(n):
            cuts = sorted(rng.randint(0, denom) for _ in range(p - 1))
            rows.append([Fraction(b - a, denom) for a, b in zip([0] + cuts, cuts + [denom])])
        got = get("eps-delta-ldp").concrete(ConcreteTable.from_fractions(rows), delta=delta)
        assert got == brute.eps_delta_ldp(rows, delta), rows
