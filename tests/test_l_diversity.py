"""Frequency and entropy l-diversity (sei2019 Definitions 2-3) against hand computations."""

from fractions import Fraction

import pytest
import sympy

from implgraph.definitions.levels import optimal_level
from implgraph.core.table import table_from_rows


def one_hot(values, buckets):
    return [[1 if v == b else 0 for b in buckets] for v in values]


@pytest.mark.parametrize("values,classes,freq_l,entropy_l", [
    # two classes, each {x, y}: relative frequency 1/2 everywhere -> l = 2; entropy ln 2 -> l = 2
    (["x", "y", "x", "y"], ["E1", "E1", "E2", "E2"], sympy.Integer(2), sympy.Integer(2)),
    # class E1 = {x, x, x, y}: max frequency 3/4 -> l = 4/3; entropy l = (3/4)^(-3/4) (1/4)^(-1/4)
    # class E2 = {x, y}: l = 2 for both; the table's l is the minimum over classes
    (["x", "x", "x", "y", "x", "y"], ["E1"] * 4 + ["E2"] * 2, sympy.Rational(4, 3),
     sympy.Rational(3, 4) ** sympy.Rational(-3, 4) * sympy.Rational(1, 4) ** sympy.Rational(-1, 4)),
    # singleton classes (sei2019's "Age" view): l = 1 for both
    (["x", "y", "z"], ["A", "B", "C"], sympy.Integer(1), sympy.Integer(1)),
])
def test_l_diversity_levels(values, classes, freq_l, entropy_l):
    buckets = sorted(set(values)) if len(set(values)) > 1 else ["x", "other"]
    t = table_from_rows(one_hot(values, buckets), buckets=buckets, classes=classes)
    assert sympy.simplify(optimal_level(t, "frequency-l-diversity").value - freq_l) == 0
    assert sympy.simplify(optimal_level(t, "entropy-l-diversity").value - entropy_l) == 0


def test_l_diversity_needs_classes():
    t = table_from_rows([["1/2", "1/2"], ["1/4", "3/4"]])
    assert not optimal_level(t, "frequency-l-diversity").defined


def test_entropy_never_exceeds_frequency_bound():
    # exp(entropy) >= 1/max p always (Renyi entropies decrease in their order): entropy l >= frequency l
    buckets = ["x", "y", "z"]
    t = table_from_rows(one_hot(["x", "x", "y", "z", "x", "y"], buckets), buckets=buckets,
                        classes=["E1"] * 4 + ["E2"] * 2)
    freq = optimal_level(t, "frequency-l-diversity").value
    ent = optimal_level(t, "entropy-l-diversity").value
    assert bool(ent >= freq)


# -- concrete tables at scale, exact comparisons, parametric entropy --------------------------------

def _write_one_hot_csv(path, class_counts, seed=0):
    """One row per record, one-hot over buckets x,y,z; class_counts = {label: (nx, ny, nz)}."""
    import random
    rows = []
    for label, counts in class_counts.items():
        for bucket, n in enumerate(counts):
            rows += [(label, bucket)] * n
    random.Random(seed).shuffle(rows)
    with open(path, "w") as fh:
        fh.write("class,x,y,z\n")
        for label, bucket in rows:
            fh.write(label + "," + ",".join("1" if j == bucket else "0" for j in range(3)) + "\n")


def test_entropy_on_a_csv_of_10_000_rows_and_100_classes(tmp_path):
    from implgraph.io.tablefile import load_csv
    # 99 classes of 100 records with counts (34, 33, 33): entropy ~ ln 3, l ~ 2.9996;
    # class E99 with counts (50, 25, 25): l = (1/2)^(-1/2) (1/4)^(-1/4) (1/4)^(-1/4) = 2^(1/2) * 2 = 2 sqrt 2
    # (~2.8284), the smallest.  Frequency: E99's largest share 1/2 -> l = 2 (others 100/34).
    counts = {f"E{i}": (34, 33, 33) for i in range(99)}
    counts["E99"] = (50, 25, 25)
    path = tmp_path / "big.csv"
    _write_one_hot_csv(path, counts)
    ct = load_csv(path)
    assert ct.N == 10_000
    ent = optimal_level(ct, "entropy-l-diversity")
    assert sympy.simplify(ent.value - 2 * sympy.sqrt(2)) == 0
    lo, hi = ent.enclosure.lo, ent.enclosure.hi
    assert lo <= hi and hi - lo <= lo * Fraction(1, 10 ** 30)
    # 2 sqrt 2 in [lo, hi] exactly: lo^2 <= 8 <= hi^2
    assert lo ** 2 <= 8 <= hi ** 2
    assert ent.enclosure.where == "class E99"
    assert "30 significant digits" in str(ent) and str(ent).startswith("2.82842712474619009760337744")
    assert optimal_level(ct, "frequency-l-diversity").value == 2


def _mpmath_entropy_level(rows, classes):
    """Independent check: min over classes of exp(-sum p ln p), class means by Fractions, 60 digits."""
    import mpmath
    from collections import defaultdict
    groups = defaultdict(list)
    for r, c in zip(rows, classes):
        groups[c].append(r)
    with mpmath.workdps(60):
        vals = []
        for rs in groups.values():
            ps = [sum(r[l] for r in rs) / len(rs) for l in range(len(rs[0]))]
            h = -sum(mpmath.mpf(p.numerator) / p.denominator * mpmath.log(mpmath.mpf(p.numerator) / p.denominator)
                     for p in ps if p)
            vals.append(mpmath.exp(h))
        return min(vals)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_entropy_on_random_probability_rows_matches_independent_computation(seed):
    import random
    import mpmath
    from implgraph.core.concrete import ConcreteTable
    rng = random.Random(seed)
    rows, classes = [], []
    for i in range(400):
        a = rng.randint(0, 20)
        b = rng.randint(0, 20 - a)
        rows.append([Fraction(a, 20), Fraction(b, 20), Fraction(20 - a - b, 20)])
        classes.append(f"C{rng.randint(0, 30)}")
    ct = ConcreteTable.from_fractions(rows, classes=classes)
    lv = optimal_level(ct, "entropy-l-diversity")
    ref = _mpmath_entropy_level(rows, classes)
    with mpmath.workdps(60):
        lo = mpmath.mpf(lv.enclosure.lo.numerator) / lv.enclosure.lo.denominator
        hi = mpmath.mpf(lv.enclosure.hi.numerator) / lv.enclosure.hi.denominator
        assert lo - mpmath.mpf(10) ** -50 <= ref <= hi + mpmath.mpf(10) ** -50
        # the exact expression is the same number
        assert abs(mpmath.mpf(str(sympy.N(lv.value, 50))) - ref) < mpmath.mpf(10) ** -40


@pytest.mark.parametrize("d1,d2,sign", [
    # H(1/4 x4) = ln 4 = 2 ln 2; H(1/2, 1/8 x4) = (1/2) ln 2 + 4 (1/8) 3 ln 2 = 2 ln 2: an exact tie
    (((1, 1, 1, 1), 4), ((1, 1, 1, 1, 4), 8), 0),
    # the same distribution written with other totals
    (((2, 6), 8), ((1, 3), 4), 0),
    # H(1/2, 1/2) = ln 2 > H(1/4, 3/4)
    (((1, 1), 2), ((1, 3), 4), 1),
    # one-hot (H = 0) below anything spread
    (((5,), 5), ((1, 999999), 1000000), -1),
])
def test_compare_entropies_exact(d1, d2, sign):
    from implgraph.definitions.l_diversity import compare_entropies
    assert compare_entropies(d1, d2) == sign
    assert compare_entropies(d2, d1) == -sign


def test_entropy_tie_between_different_distributions_gives_the_common_value():
    # class A uniform on 4 values, class B (1/2, 1/8, 1/8, 1/8, 1/8) on 5 (one-hot rows):
    # both have entropy 2 ln 2 (see above), so l = 4 exactly
    vals = ["a", "b", "c", "d"] + ["a"] * 4 + ["b", "c", "d", "e"]
    buckets = ["a", "b", "c", "d", "e"]
    t = table_from_rows(one_hot(vals, buckets), buckets=buckets, classes=["A"] * 4 + ["B"] * 8)
    assert sympy.simplify(optimal_level(t, "entropy-l-diversity").value - 4) == 0


def test_entropy_parametric_binary_table_is_piecewise_exact(tmp_path):
    import textwrap
    from implgraph.io.tablefile import load_table_file
    mu = sympy.Symbol("mu", real=True)
    path = tmp_path / "t.yaml"
    path.write_text(textwrap.dedent("""
        id: t
        symbols: {mu: real}
        region: ["0 < mu", "mu < 1"]
        rows:
          - {p: "mu", class: E1}
          - {p: "1/2", class: E2}
    """))
    lv = optimal_level(load_table_file(path), "entropy-l-diversity")
    # E2 has the largest binary entropy (ln 2) for every mu, E1 the smaller one (equal at mu = 1/2):
    # l = mu^-mu (1 - mu)^-(1 - mu) on the whole region (one piece)
    expected = mu ** -mu * (1 - mu) ** (mu - 1)
    assert len(lv.pieces) == 1
    assert sympy.simplify(lv.pieces[0].value - expected) == 0


@pytest.mark.slow
def test_table_iii_ext_command_exits_0():
    import subprocess
    import sys
    r = subprocess.run([sys.executable, "-m", "implgraph.cli", "table", "ekenstedt2022/table-III/ext"],
                       capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "entropy-l-diversity" in r.stdout


def test_entropy_on_a_decimal_csv_of_10_000_rows_matches_independent_computation(tmp_path):
    # the reported crash: random 3-decimal probabilities, 10^4 rows, 100 classes
    import random
    import mpmath
    from implgraph.io.tablefile import load_csv
    rng = random.Random(7)
    rows, classes, lines = [], [], ["class,a1,a2,a3"]
    for _ in range(10_000):
        a = rng.randint(0, 1000)
        b = rng.randint(0, 1000 - a)
        rows.append([Fraction(a, 1000), Fraction(b, 1000), Fraction(1000 - a - b, 1000)])
        classes.append(f"E{rng.randint(0, 99)}")
        lines.append(f"{classes[-1]},{a / 1000:.3f},{b / 1000:.3f},{(1000 - a - b) / 1000:.3f}")
    path = tmp_path / "t.csv"
    path.write_text("\n".join(lines) + "\n")
    lv = optimal_level(load_csv(path), "entropy-l-diversity")
    ref = _mpmath_entropy_level(rows, classes)
    with mpmath.workdps(60):
        lo = mpmath.mpf(lv.enclosure.lo.numerator) / lv.enclosure.lo.denominator
        hi = mpmath.mpf(lv.enclosure.hi.numerator) / lv.enclosure.hi.denominator
        assert lo - mpmath.mpf(10) ** -50 <= ref <= hi + mpmath.mpf(10) ** -50


@pytest.mark.parametrize("d,target,sign", [
    (((1, 1), 2), Fraction(2), 0),                    # exp(ln 2) = 2
    (((1, 1), 2), Fraction(199, 100), 1),
    (((1, 1), 2), Fraction(201, 100), -1),
    (((1, 1, 1, 1, 4), 8), Fraction(4), 0),           # entropy 2 ln 2 (hand, above)
    (((5,), 5), Fraction(1), 0),                      # one value: l = 1
    # (1/4, 3/4): l = 4 / 3^(3/4) = 1.7548...: between 7/4 and 1.755
    (((1, 3), 4), Fraction(7, 4), 1),
    (((1, 3), 4), Fraction(1755, 1000), -1),
])
def test_compare_level_exact(d, target, sign):
    from implgraph.definitions.l_diversity import compare_level
    assert compare_level(d, target) == sign
