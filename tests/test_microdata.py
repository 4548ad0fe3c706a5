"""Microdata in, exact levels out (implgraph.io.microdata, implgraph.io.weighted, `levels --qi`).

The expected levels of ``tests/data/microdata/patients.csv`` are derived by hand below; the grouped
table (one row per class and value, with counts) is checked against the same records written out
one per row (a plain ConcreteTable), for every registered definition.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import sympy

pd = pytest.importorskip("pandas", reason="the microdata path needs pandas (pip install implgraph[microdata])")

from implgraph.cli import main  # noqa: E402
from implgraph.core.concrete import ConcreteTable  # noqa: E402
from implgraph.core.errors import InputError  # noqa: E402
from implgraph.definitions.levels import optimal_level  # noqa: E402
from implgraph.definitions import all_definitions  # noqa: E402
from implgraph.io.microdata import levels_of, microdata_tables  # noqa: E402
from implgraph.io.weighted import WeightedConcreteTable  # noqa: E402

DATA = Path(__file__).parent / "data" / "microdata"
PATIENTS = DATA / "patients.csv"
QI = ["age", "zip"]


# patients.csv, by hand. Buckets (sorted): cancer, flu, hiv; N = 10; totals 2, 5, 3.
#   class [20-39],13*: flu flu cancer hiv  -> (1/4, 1/2, 1/4), 4 records
#   class [40-59],13*: flu cancer hiv      -> (1/3, 1/3, 1/3), 3 records
#   class [40-59],14*: flu flu hiv         -> (0, 2/3, 1/3),   3 records
HAND = {
    "k-anonymity": sympy.Integer(3),                       # smallest class
    "frequency-l-diversity": sympy.Rational(3, 2),         # min(4/2, 3/1, 3/2)
    "entropy-l-diversity": 3 / sympy.Integer(2) ** sympy.Rational(2, 3),  # min(2^(3/2), 3, 3/2^(2/3))
    # EMD (equal): max(1/2 (1/20 + 0 + 1/20), 1/2 (2/15 + 1/6 + 1/30), 1/2 (1/5 + 1/6 + 1/30)) = 1/5
    "emd-t-closeness": sympy.Rational(1, 5),
    "mult-t-closeness": sympy.oo,                          # the third class has no cancer
    "ldp": sympy.oo,                                       # probabilities 1 and 0 in one bucket
    # dp: j = 9 of 10 records; cancer (2 of 10): removing one leaves 1 of 9 -> (2/10)/(1/9) = 9/5
    "dp": sympy.log(sympy.Rational(9, 5)),
    "kdp": sympy.oo,                                       # k = 2: removing both cancer records
    "kt-closeness": sympy.oo,                              # k = 2: two flu records have no cancer
    # P = (1/5, 1/2, 3/10)
    "alpha-k-anonymity": sympy.Rational(2, 3),             # k = 2 <= 3; largest class frequency 2/3
    "basic-beta-likeness": sympy.Rational(2, 3),           # class 2: (1/3 - 1/5) / (1/5)
    "enhanced-beta-likeness": sympy.Rational(2, 3),        # every (q - p)/p is below -ln p: as basic
    "delta-disclosure-privacy": sympy.oo,                  # log of mult-t-closeness
    "distinct-l-diversity": sympy.Integer(2),              # min(3, 3, 2) values
    # l = 2: r sorted down per class (2,1,1), (1,1,1), (2,1,0): r1 / (r2 + r3) = 1, 1/2, 2 -> max(1, 2)
    "recursive-cl-diversity": sympy.Integer(2),
}


def test_hand_derived_levels():
    levels = levels_of(PATIENTS, QI, ["disease"], params={"l": 2})["disease"]
    for name, expected in HAND.items():
        if name not in levels:
            continue                                       # a declaration renamed or removed
        value = levels[name].value
        assert sympy.simplify(value - expected) == 0 if expected is not sympy.oo else value is sympy.oo, name


def test_entropy_enclosure_and_where():
    lv = levels_of(PATIENTS, QI, ["disease"])["disease"]["entropy-l-diversity"]
    e = lv.enclosure
    exact = 3 / 2 ** (2 / 3)                               # 1.88988...
    assert e.lo <= Fraction(exact) + Fraction(1, 10 ** 12) and Fraction(exact) - Fraction(1, 10 ** 12) <= e.hi
    assert e.where == "class age=[40-59], zip=14*"


def test_dataframe_csv_and_parquet_agree(tmp_path):
    pytest.importorskip("pyarrow", reason="Parquet needs pyarrow")
    df = pd.read_csv(PATIENTS)
    df.to_parquet(tmp_path / "p.parquet")
    a = levels_of(PATIENTS, QI, ["disease"])["disease"]
    b = levels_of(df, QI, ["disease"])["disease"]
    c = levels_of(tmp_path / "p.parquet", QI, ["disease"])["disease"]
    for name in a:
        assert str(a[name].value) == str(b[name].value) == str(c[name].value), name


def test_several_sensitive_columns_one_result_each():
    df = pd.read_csv(PATIENTS)
    df["smoker"] = ["y", "n", "y", "n", "y", "n", "y", "n", "y", "n"]
    out = levels_of(df, QI, ["disease", "smoker"])
    assert set(out) == {"disease", "smoker"}
    # smoker: class 1 y n y n, class 2 y n y, class 3 n y n -> frequency l = min(2, 3/2, 3/2)
    assert out["smoker"]["frequency-l-diversity"].value == sympy.Rational(3, 2)
    assert out["disease"]["frequency-l-diversity"].value == sympy.Rational(3, 2)


def test_numeric_sensitive_column_is_ordered_by_value():
    df = pd.DataFrame({"q": ["a", "a", "b", "b"], "score": [10, 9, 100, 9]})
    ct = microdata_tables(df, ["q"], ["score"])["score"]
    assert ct.buckets == ["9", "10", "100"]                # by number, not as text
    # ordered EMD: P = (2/4, 1/4, 1/4); class a: (1/2, 1/2, 0): cumulative diffs 0, 1/4 -> 1/4 / 2 = 1/8
    lv = levels_of(df, ["q"], ["score"])["score"]["emd-t-closeness"]
    assert lv.params["ground"] == "ordered" and lv.value == sympy.Rational(1, 8)


def test_no_quasi_identifiers_no_classes():
    levels = levels_of(PATIENTS, [], ["disease"])["disease"]
    assert levels["k-anonymity"].value is None and "no equivalence classes" in levels["k-anonymity"].note
    assert levels["dp"].value == sympy.log(sympy.Rational(9, 5))


def test_missing_values_are_refused():
    """A missing value is neither one more sensitive value nor one more class: refused, naming the column and
    the first record (was: None counted as a label of its own)."""
    df = pd.DataFrame({"q": ["a", "b", "b", "a"], "s": ["x", "y", None, "x"]})
    # (pandas 2 keeps None in an object column, pandas 3 reads it into its string dtype as nan)
    with pytest.raises(InputError, match=r"column 's' has a missing value \((None|nan), record 3; 1 in all\).*fix: fill"):
        microdata_tables(df, ["q"], ["s"])
    with pytest.raises(InputError, match="column 'q' has a missing value"):
        microdata_tables(pd.DataFrame({"q": ["a", float("nan"), "a"], "s": ["x", "y", "x"]}), ["q"], ["s"])
    ok = microdata_tables(pd.DataFrame({"q": ["a", None, "a"], "s": ["x", "y", "x"]}), [], ["s"])["s"]
    assert ok.N == 3             # an unused column may hold missing values


# -- the grouped table answers as the records written out one per row -------------------------------

def _random_weighted(seed, deterministic):
    rng = np.random.default_rng(seed)
    rows, p = int(rng.integers(2, 9)), int(rng.integers(1, 4))
    if deterministic:
        counts = rng.integers(0, 4, size=(int(rng.integers(1, 4)), p))
        counts[0, 0] += 2                                    # at least 2 records
        return WeightedConcreteTable.from_class_counts(counts, [f"c{i}" for i in range(len(counts))],
                                                       [f"b{l}" for l in range(p)])
    denom = 6
    cuts = np.sort(rng.integers(0, denom + 1, size=(rows, p - 1)), axis=1)
    numer = np.diff(np.concatenate([np.zeros((rows, 1), int), cuts, np.full((rows, 1), denom)], axis=1), axis=1)
    n_classes = min(int(rng.integers(1, 4)), rows)
    row_class = rng.integers(0, n_classes, size=rows)
    row_class[:n_classes] = np.arange(n_classes)
    labels = [f"c{i}" for i in range(n_classes)]
    return WeightedConcreteTable(numer.astype(np.int64), denom, [f"b{l}" for l in range(p)],
                                 rng.integers(1, 4, size=rows), row_class=row_class, class_labels=labels)


def _same(a, b):
    if a.value is None or b.value is None:
        return a.value is None and b.value is None
    if a.enclosure is not None:
        return a.enclosure.lo == b.enclosure.lo and a.enclosure.hi == b.enclosure.hi
    return sympy.simplify(a.value - b.value) == 0 if a.value is not sympy.oo else b.value is sympy.oo


@pytest.mark.parametrize("deterministic", [True, False])
@pytest.mark.parametrize("seed", range(12))
def test_grouped_equals_expanded(seed, deterministic):
    wt = _random_weighted(seed, deterministic)
    flat = wt.expand()
    assert isinstance(flat, ConcreteTable) and not isinstance(flat, WeightedConcreteTable)
    assert flat.N == wt.N == wt.numer.shape[0] and wt.rows.shape[0] <= wt.N
    for l in range(wt.p):
        assert wt.total(l) == flat.total(l)
        for j in range(0, wt.N + 1):
            for largest in (False, True):
                assert wt.extreme_sum(l, j, largest) == flat.extreme_sum(l, j, largest)
    assert [len(g) for g in wt.class_groups().values()] == [len(g) for g in flat.class_groups().values()]
    values = {"k": 1, "delta": "1/10", "l": 2}           # every parameter a registered definition declares
    for d in all_definitions():
        params = {name: values[name] for name in d.params if name in values}
        try:
            expected = optimal_level(flat, d, **params)
        except Exception as exc:                          # the same refusal on both
            with pytest.raises(type(exc)):
                optimal_level(wt, d, **params)
            continue
        assert _same(optimal_level(wt, d, **params), expected), d.name


# -- the command line -----------------------------------------------------------------------------

def test_cli_text(capsys):
    assert main(["levels", str(PATIENTS), "--qi", "age,zip", "--sensitive", "disease"]) == 0
    out = capsys.readouterr().out
    assert "N = 10 records, 3 equivalence classes on age, zip" in out
    assert "k = 3" in out and "t = 1/5" in out and "eps = log(9/5)" in out
    assert "infinite because the table is deterministic" in out


def test_cli_json(capsys):
    assert main(["levels", str(PATIENTS), "--qi", "age,zip", "--sensitive", "disease", "--json", "--k", "1"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["N"] == 10 and data["classes"] == 3 and data["deterministic"] is True
    defs = data["sensitive"]["disease"]["definitions"]
    assert data["sensitive"]["disease"]["buckets"] == ["cancer", "flu", "hiv"]
    assert defs["kdp"]["level"] == "log(9/5)"             # k = 1 removes one record: the dp level
    assert defs["ldp"]["infinite"] and "deterministic" in defs["ldp"]["infinite_because"]
    assert "infinite_because" not in defs["k-anonymity"]
    assert math.isclose(float(defs["entropy-l-diversity"]["approx"]), 3 / 2 ** (2 / 3), rel_tol=1e-12)


@pytest.mark.parametrize("args, needle", [
    (["--qi", "age,nope", "--sensitive", "disease"], "quasi-identifier column(s) 'nope' not in the data"),
    (["--qi", "age", "--sensitive", "nope"], "sensitive column(s) 'nope'"),
    (["--qi", "age"], "no sensitive column given"),
    (["--qi", "age", "--sensitive", "disease", "--k", "10"], "--k 10 is out of range"),
    (["--qi", "age", "--sensitive", "disease", "--param", "delta"], "is not NAME=VALUE"),
])
def test_cli_bad_input(capsys, args, needle):
    assert main(["levels", str(PATIENTS), *args]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and needle in err and "fix:" in err and "Traceback" not in err


def test_cli_microdata_without_qi_says_how(capsys):
    assert main(["levels", str(PATIENTS)]) == 2
    err = capsys.readouterr().err
    assert "is not a number" in err and "--qi COLUMNS --sensitive COLUMN" in err


def test_docs_example_is_what_the_tool_prints(capsys, monkeypatch, tmp_path):
    """docs/sections/microdata.md shows lines of the quick start's output verbatim (on the tutorial's
    patients.csv, this file's PATIENTS, in the reader's folder)."""
    repo = Path(__file__).resolve().parents[1]
    text = (repo / "docs" / "sections" / "microdata.md").read_text()
    shown = text.split("```\n")[3].strip().splitlines()   # the block after the commands
    (tmp_path / "patients.csv").write_bytes(PATIENTS.read_bytes())
    monkeypatch.chdir(tmp_path)
    assert main(["levels", "patients.csv", "--qi", "age,zip", "--sensitive", "disease"]) == 0
    printed = capsys.readouterr().out.strip().splitlines()
    words = [" ".join(line.split()) for line in printed]     # column widths follow the longest label
    assert shown[:2] == printed[:2] and {" ".join(line.split()) for line in shown} <= set(words)


def test_cli_param_reaches_every_definition_declaring_it(capsys):
    assert main(["levels", str(PATIENTS), "--qi", "age,zip", "--sensitive", "disease", "--json",
                 "--param", "l=2"]) == 0
    defs = json.loads(capsys.readouterr().out)["sensitive"]["disease"]["definitions"]
    with_l = [name for name, d in defs.items() if "l" in d["params"]]
    assert all(defs[name]["params"]["l"] == "2" for name in with_l)
    if "recursive-cl-diversity" in defs:
        assert defs["recursive-cl-diversity"]["level"] == "2"          # by hand, HAND above
