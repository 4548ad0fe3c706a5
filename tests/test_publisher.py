"""The data publisher's path: real files read as shipped, requirements answered (`implgraph levels DATA ...`).

``tests/data/microdata/adult_like.data`` has UCI Adult's quirks (no header, ``", "`` separators, ``?`` for a
missing value, a trailing blank line) on 13 records; every expected value below is counted by hand from it:

====  ===  ================  ============  ======  ======
line  age  workclass         education     sex     salary
====  ===  ================  ============  ======  ======
1     39   State-gov         Bachelors     Male    <=50K
2     50   Self-emp-not-inc  Bachelors     Male    <=50K
3     38   Private           HS-grad       Male    <=50K
4     53   Private           11th          Male    <=50K
5     28   Private           Bachelors     Female  <=50K
6     37   Private           Masters       Female  <=50K
7     49   Private           9th           Female  <=50K
8     52   Self-emp-not-inc  HS-grad       Male    >50K
9     31   Private           Masters       Female  >50K
10    42   Private           Bachelors     Male    >50K
11    37   Private           Some-college  Male    >50K
12    30   State-gov         Bachelors     Male    >50K
13    54   ?                 Some-college  Male    >50K
====  ===  ================  ============  ======  ======

Salary: 7 records <=50K, 6 >50K. On sex: Male 9 records (4 <=50K, 5 >50K), Female 4 (3 <=50K, 1 >50K).
On sex, education (7 classes): Male/Bachelors 4 (2, 2), Male/HS-grad 2 (1, 1), Male/11th 1 (1, 0),
Female/Bachelors 1 (1, 0), Female/Masters 2 (1, 1), Female/9th 1 (1, 0), Male/Some-college 2 (0, 2).
On workclass: State-gov 2, Self-emp-not-inc 2, Private 8, ? 1.
"""

from __future__ import annotations

import bz2
import gzip
import json
import lzma
import zipfile
from pathlib import Path

import pytest

pd = pytest.importorskip("pandas", reason="the microdata path needs pandas (pip install implgraph[microdata])")

from implgraph.cli import main  # noqa: E402

ADULT = Path(__file__).parent / "data" / "microdata" / "adult_like.data"
NAMES = "age,workclass,education,sex,salary"
RECORDS = [line.split(", ") for line in ADULT.read_text().splitlines() if line]


def _levels(capsys, *args):
    """(exit status, JSON) of `levels ... --json`."""
    code = main(["levels", *map(str, args), "--json"])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out else None), err


def _k(data, col="salary"):
    return data["sensitive"][col]["definitions"]["k-anonymity"]["level"]


def _refused(capsys, *args, needle):
    code = main(["levels", *map(str, args)])
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert code == 2 and out == "" and len(lines) == 1, (code, err)
    assert needle in lines[0] and "fix:" in lines[0] and "Traceback" not in err, lines[0]
    return lines[0]


# -- reading the file as shipped ------------------------------------------------------------------------------

def test_fixture_is_what_the_docstring_says():
    assert len(RECORDS) == 13 and ADULT.read_text().endswith(">50K\n\n")       # a trailing blank line
    assert sum(r[4] == "<=50K" for r in RECORDS) == 7 and RECORDS[12][1] == "?"


def test_adult_as_shipped(capsys):
    code, data, _ = _levels(capsys, ADULT, "--no-header", "--names", NAMES, "--qi", "sex", "--sensitive", "salary")
    assert code == 0 and data["N"] == 13 and data["classes"] == 2
    assert data["sensitive"]["salary"]["buckets"] == ["<=50K", ">50K"]          # ", " read as the separator
    assert _k(data) == "4"                                                       # Female: 4 records


def test_no_header_without_names_numbers_the_columns(capsys):
    code, data, _ = _levels(capsys, ADULT, "--no-header", "--qi", "4", "--sensitive", "5")
    assert code == 0 and data["N"] == 13 and _k(data, "5") == "4"


def test_question_mark_is_a_label_unless_marked_missing(capsys):
    code, data, _ = _levels(capsys, ADULT, "--no-header", "--names", NAMES, "--qi", "workclass",
                            "--sensitive", "salary")
    assert code == 0 and data["classes"] == 4 and _k(data) == "1"                # the class `?` holds 1 record


def test_header_line_read_as_a_header_says_how(capsys):
    line = _refused(capsys, ADULT, "--qi", "sex", "--sensitive", "salary", needle="not in the data")
    assert "--no-header" in line


def _frame():
    return pd.DataFrame(RECORDS, columns=NAMES.split(","))


@pytest.mark.parametrize("name, text", [
    ("semicolon.csv", lambda df: df.to_csv(sep=";", index=False)),
    ("tab.tsv", lambda df: df.to_csv(sep="\t", index=False)),
    ("pipe.txt", lambda df: df.to_csv(sep="|", index=False)),
    ("comma-space.csv", lambda df: df.to_csv(index=False).replace(",", ", ")),
])
def test_separators_are_sniffed(capsys, tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text(_frame()))
    code, data, _ = _levels(capsys, path, "--qi", "sex", "--sensitive", "salary")
    assert code == 0 and data["N"] == 13 and _k(data) == "4"
    assert data["sensitive"]["salary"]["buckets"] == ["<=50K", ">50K"]


def test_separator_given(capsys, tmp_path):
    path = tmp_path / "odd.data"
    path.write_text(_frame().to_csv(sep=":", index=False))
    code, data, _ = _levels(capsys, path, "--sep", ":", "--qi", "sex,education", "--sensitive", "salary")
    assert code == 0 and data["classes"] == 7 and _k(data) == "1"


@pytest.mark.parametrize("suffix, opener", [(".gz", gzip.open), (".bz2", bz2.open), (".xz", lzma.open)])
def test_compressed(capsys, tmp_path, suffix, opener):
    path = tmp_path / ("adult.data" + suffix)
    with opener(path, "wb") as fh:
        fh.write(ADULT.read_bytes())
    code, data, _ = _levels(capsys, path, "--no-header", "--names", NAMES, "--qi", "sex", "--sensitive", "salary")
    assert code == 0 and data["N"] == 13 and _k(data) == "4"


def test_zip_of_one_file_and_of_two(capsys, tmp_path):
    path = tmp_path / "adult.data.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("adult.data", ADULT.read_text())
    code, data, _ = _levels(capsys, path, "--no-header", "--names", NAMES, "--qi", "sex", "--sensitive", "salary")
    assert code == 0 and _k(data) == "4"
    with zipfile.ZipFile(path, "a") as zf:
        zf.writestr("adult.names", "x")
    _refused(capsys, path, "--no-header", "--qi", "4", "--sensitive", "5", needle="holds 2 files")


@pytest.mark.parametrize("suffix", [".parquet", ".arrow", ".feather"])
def test_columnar(capsys, tmp_path, suffix):
    pytest.importorskip("pyarrow")
    path = tmp_path / ("adult" + suffix)
    df = _frame()
    df.to_parquet(path) if suffix == ".parquet" else df.to_feather(path)
    code, data, _ = _levels(capsys, path, "--qi", "sex,education", "--sensitive", "salary")
    assert code == 0 and data["classes"] == 7 and _k(data) == "1"
    code, data, _ = _levels(capsys, path, "--qi", "workclass", "--sensitive", "salary", "--na-values", "?",
                            "--na", "drop")
    assert code == 0 and data["N"] == 12 and data["dropped"] == 1 and _k(data) == "2"


def test_columnar_refuses_text_options(capsys, tmp_path):
    pytest.importorskip("pyarrow")
    path = tmp_path / "adult.parquet"
    _frame().to_parquet(path)
    _refused(capsys, path, "--sep", ";", "--qi", "sex", "--sensitive", "salary", needle="--sep reads a text file")
    _refused(capsys, path, "--no-header", "--qi", "sex", "--sensitive", "salary", needle="--no-header reads a text")


def test_names_replace_a_header(capsys):
    patients = ADULT.parent / "patients.csv"          # age,zip,disease; classes of 4, 3 and 3 records
    code, data, _ = _levels(capsys, patients, "--names", "A,Z,D", "--qi", "A,Z", "--sensitive", "D")
    assert code == 0 and data["N"] == 10 and _k(data, "D") == "3"


# -- missing values -------------------------------------------------------------------------------------------

def test_na_refuse_names_the_line(capsys):
    line = _refused(capsys, ADULT, "--no-header", "--names", NAMES, "--qi", "workclass", "--sensitive", "salary",
                    "--na-values", "?", needle="adult_like.data:13: column 'workclass' has a missing value")
    assert "--na drop" in line


def test_na_refuse_line_counts_blank_lines_and_the_header(capsys, tmp_path):
    path = tmp_path / "gaps.csv"
    path.write_text("q,s\na,x\n\nb,\nb,y\na,y\n")       # the empty cell is on line 4 (record 2)
    _refused(capsys, path, "--qi", "q", "--sensitive", "s", needle="gaps.csv:4: column 's' has a missing value")


def test_na_drop(capsys):
    code, data, _ = _levels(capsys, ADULT, "--no-header", "--names", NAMES, "--qi", "workclass",
                            "--sensitive", "salary", "--na-values", "?", "--na", "drop")
    assert code == 0 and data["N"] == 12 and data["dropped"] == 1 and data["classes"] == 3
    assert _k(data) == "2"                                             # State-gov 2, Self-emp 2, Private 8


def test_na_drop_looks_at_used_columns_only(capsys):
    code, data, _ = _levels(capsys, ADULT, "--no-header", "--names", NAMES, "--qi", "sex",
                            "--sensitive", "salary", "--na-values", "?", "--na", "drop")
    assert code == 0 and data["N"] == 13 and data["dropped"] == 0


def test_na_label(capsys):
    code, data, _ = _levels(capsys, ADULT, "--no-header", "--names", NAMES, "--qi", "workclass",
                            "--sensitive", "salary", "--na-values", "?", "--na", "unknown")
    assert code == 0 and data["N"] == 13 and data["classes"] == 4 and _k(data) == "1"
    _refused(capsys, ADULT, "--no-header", "--names", NAMES, "--qi", "workclass", "--sensitive", "salary",
             "--na-values", "?", "--na", "Private", needle="already holds that value")


# -- requirements ---------------------------------------------------------------------------------------------

QI2 = ("--no-header", "--names", NAMES, "--qi", "sex,education", "--sensitive", "salary")


def _require(capsys, *args):
    code, data, _ = _levels(capsys, ADULT, *args)
    return code, {c["definition"]: c for c in data["sensitive"]["salary"]["requirements"]}, data


def test_require_k_fails_with_the_small_classes(capsys):
    code, checks, data = _require(capsys, *QI2, "--require", "k=2")
    c = checks["k-anonymity"]
    assert code == 1 and data["requirements_hold"] is False and c["holds"] is False and c["level"] == "1"
    v = c["violating"]
    assert (v["classes"], v["records"], v["of_classes"]) == (3, 3, 7)
    assert {w["class"] for w in v["worst"]} == {"sex=Male, education=11th", "sex=Female, education=Bachelors",
                                                "sex=Female, education=9th"}


def test_require_passes_exit_0(capsys):
    code, checks, data = _require(capsys, "--no-header", "--names", NAMES, "--qi", "sex", "--sensitive", "salary",
                                  "--require", "k=4")
    assert code == 0 and data["requirements_hold"] is True and checks["k-anonymity"]["violating"] is None


def test_require_several_definitions(capsys):
    code, checks, _ = _require(capsys, *QI2, "--require",
                               "alpha-k-anonymity=1/2,distinct-l-diversity=2,emd-t-closeness=0.2")
    assert code == 1
    alpha = checks["alpha-k-anonymity"]["violating"]          # 3 singletons (smaller than k = 2), Some-college 2/2
    assert (alpha["classes"], alpha["records"]) == (4, 5)
    ldiv = checks["distinct-l-diversity"]["violating"]        # 11th, F/Bachelors, 9th, Some-college hold 1 value
    assert (ldiv["classes"], ldiv["records"]) == (4, 5)
    t = checks["emd-t-closeness"]                            # |q(<=50K) - 7/13|: 1/26 or 6/13, Some-college 7/13
    assert t["level"] == "7/13" and t["required"] == "1/5"
    assert (t["violating"]["classes"], t["violating"]["records"]) == (4, 5)
    assert t["violating"]["worst"][0] == {"class": "sex=Male, education=Some-college", "records": 2, "level": "7/13"}


def test_require_ratio_and_class_formula_levels(capsys):
    # on sex: frequency l = 1/top: Male 9/5, Female 4/3; delta: Male log(63/52), Female log(24/13) (1/4 vs 6/13)
    code, checks, _ = _require(capsys, "--no-header", "--names", NAMES, "--qi", "sex", "--sensitive", "salary",
                               "--require", "frequency-l-diversity=3/2,delta-disclosure-privacy=log(3/2)")
    assert code == 1
    f, d = checks["frequency-l-diversity"], checks["delta-disclosure-privacy"]
    assert f["level"] == "4/3" and f["violating"]["worst"] == [{"class": "sex=Female", "records": 4, "level": "4/3"}]
    assert d["level"] == "log(24/13)" and d["violating"]["classes"] == 1 and d["violating"]["records"] == 4


def test_require_a_table_level(capsys):
    # dp is not over classes: no class is listed. By hand, removing one of the 6 >50K records of 13 moves its
    # share from 6/13 to 5/12: eps = ln((6/13) / (5/12)) = ln(72/65) = 0.102..., above 1/100 and below 1
    code, checks, _ = _require(capsys, *QI2, "--require", "dp=1/100")
    assert code == 1 and checks["dp"]["holds"] is False and checks["dp"]["violating"] is None
    assert "whole table" in checks["dp"]["note"]
    code, checks, _ = _require(capsys, *QI2, "--require", "dp=1")     # log(72/65) = 0.102... <= 1
    assert code == 0 and checks["dp"]["holds"] is True


def test_require_text_output(capsys):
    code = main(["levels", str(ADULT), *QI2, "--require", "k=2"])
    out = capsys.readouterr().out
    assert code == 1
    assert "FAIL      k=2" in out and "3 of 7 classes violate it, holding 3 records" in out
    assert "sex=Male, education=11th: 1 record, k = 1" in out and "requirements: FAIL (exit 1)" in out


def test_require_computes_the_required_levels_only(capsys):
    # with --require and no --definitions, the levels printed are the required definitions' only
    code, data, _ = _levels(capsys, ADULT, *QI2, "--require", "k=2,distinct-l-diversity=2")
    assert code == 1 and set(data["sensitive"]["salary"]["definitions"]) == {"k-anonymity", "distinct-l-diversity"}
    # by hand: 3 singleton classes (k = 1); 11th, F/Bachelors, 9th, Some-college hold one value (l = 1)
    defs = data["sensitive"]["salary"]["definitions"]
    assert defs["k-anonymity"]["level"] == "1" and defs["distinct-l-diversity"]["level"] == "1"


def test_definitions_selects_and_all_gives_every_one(capsys):
    from implgraph.definitions import all_definitions
    code, data, _ = _levels(capsys, ADULT, *QI2, "--definitions", "k,emd-t-closeness")
    assert code == 0 and set(data["sensitive"]["salary"]["definitions"]) == {"emd-t-closeness", "k-anonymity"}
    assert data["sensitive"]["salary"]["definitions"]["emd-t-closeness"]["level"] == "7/13"    # as above, by hand
    code, data, _ = _levels(capsys, ADULT, *QI2, "--definitions", "dp", "--require", "k=2")
    assert set(data["sensitive"]["salary"]["definitions"]) == {"dp", "k-anonymity"}
    code, data, _ = _levels(capsys, ADULT, *QI2, "--definitions", "all", "--require", "k=2")
    assert set(data["sensitive"]["salary"]["definitions"]) == {d.name for d in all_definitions()}
    code, data, _ = _levels(capsys, ADULT, *QI2)                     # neither option: every definition
    assert set(data["sensitive"]["salary"]["definitions"]) == {d.name for d in all_definitions()}


@pytest.mark.parametrize("names, needle", [
    ("t", "t is the level of"),
    ("nosuch", "no registered definition has that name or level symbol"),
    ("k,,dp", "has an empty name"),
    ("k,k-anonymity", "names k-anonymity twice"),
])
def test_definitions_bad(capsys, names, needle):
    line = _refused(capsys, ADULT, *QI2, "--definitions", names, needle=needle)
    assert line.startswith("implgraph") and "--definitions" in line


@pytest.mark.parametrize("require, needle", [
    ("t=1", "t is the level of"),                    # several definitions: name one
    ("l=2", "l is the level of"),
    ("nosuch=1", "no registered definition has that name or level symbol"),
    ("k=x", "undeclared symbol"),
    ("k", "is not NAME=VALUE"),
    ("k=oo", "not a finite real number"),
    ("k=2,k-anonymity=3", "names k-anonymity twice"),
])
def test_require_bad(capsys, require, needle):
    _refused(capsys, ADULT, *QI2, "--require", require, needle=needle)


# -- text output: decimals and the causes of infinite levels ------------------------------------------------

def _csv(tmp_path):
    """The fixture as a CSV with a header (what the reader read before its options)."""
    path = tmp_path / "adult.csv"
    path.write_text(_frame().to_csv(index=False))
    return str(path)


def test_decimals_beside_exact_values(capsys, tmp_path):
    assert main(["levels", _csv(tmp_path), "--qi", "sex", "--sensitive", "salary"]) == 0
    out = capsys.readouterr().out
    # t = max |q(<=50K) - 7/13| = |3/4 - 7/13| = 11/52 = 0.2115...
    assert "t = 11/52 \u2248 0.212" in out and "k = 4\n" in out


def test_infinite_causes(capsys, tmp_path):
    assert main(["levels", _csv(tmp_path), "--qi", "sex,education", "--sensitive", "salary"]) == 0
    lines = {line.split()[0]: line for line in capsys.readouterr().out.splitlines() if line.startswith("  ")}
    assert "infinite because 3 class(es) have fewer than k = 2 records" in lines["alpha-k-anonymity(k=2)"]
    assert "a class lacks a value" not in lines["alpha-k-anonymity(k=2)"]
    assert "exceeds the cap -log(p)" in lines["enhanced-beta-likeness"]
    assert "lacks" in lines["delta-disclosure-privacy"] and "e.g. sex=Male, education=11th lacks >50K" in \
        lines["delta-disclosure-privacy"]


# -- bad input ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("args, needle", [
    (("--sep", ";;"), "is not one character"),
    (("--names", "a,a,b,c,d"), "names the column 'a' twice"),
    (("--names", "a,b"), "--names gives 2 column(s), the file has 5"),
    (("--names", NAMES, "--na", ""), "--na '' is empty"),
])
def test_reading_options_bad(capsys, args, needle):
    _refused(capsys, ADULT, "--no-header", "--qi", "sex", "--sensitive", "salary", *args, needle=needle)


def test_unknown_kind_and_table_file_options(capsys, tmp_path):
    path = tmp_path / "adult"
    path.write_text(ADULT.read_text())
    _refused(capsys, path, "--no-header", "--qi", "4", "--sensitive", "5", needle="unknown microdata file type")
    table = tmp_path / "t.csv"
    table.write_text("a1,a2\n1/2,1/2\n1/4,3/4\n")
    _refused(capsys, table, "--require", "k=2", needle="--require reads microdata")
    _refused(capsys, table, "--definitions", "k", needle="--definitions reads microdata")


# -- pyCANON's conventions ------------------------------------------------------------------------------------

def test_convention_pycanon_by_hand(capsys):
    # on sex, education, the values present: q = 1/2 beside p = 7/13 or 6/13 (ratios 14/13, 13/12), q = 1 beside
    # 7/13 (13/7), and Male/Some-college's q(>50K) = 1 beside 6/13: 13/6, the largest. Enhanced beta:
    # min(basic beta 7/6, -ln(6/13) = 0.773...) = log(13/6)
    code, data, _ = _levels(capsys, ADULT, *QI2, "--convention", "pycanon")
    defs = data["sensitive"]["salary"]["definitions"]
    assert code == 0 and data["convention"] == "pycanon"
    assert defs["delta-disclosure-privacy"]["level"] == "log(13/6)"
    assert defs["delta-disclosure-privacy"]["definition_level"] == "oo"
    assert defs["mult-t-closeness"]["level"] == "13/6"
    assert defs["enhanced-beta-likeness"]["level"] in ("log(13/6)", "-log(6/13)")
    assert defs["basic-beta-likeness"]["level"] == "7/6" and "convention" not in defs["basic-beta-likeness"]


def test_convention_pycanon_with_one_definition(capsys):
    # enhanced beta alone: its pyCANON value still reads basic beta (7/6, by hand above), computed but not shown
    code, data, _ = _levels(capsys, ADULT, *QI2, "--convention", "pycanon", "--definitions", "enhanced-beta-likeness")
    defs = data["sensitive"]["salary"]["definitions"]
    assert code == 0 and set(defs) == {"enhanced-beta-likeness"}
    assert defs["enhanced-beta-likeness"]["level"] in ("log(13/6)", "-log(6/13)")
    assert defs["enhanced-beta-likeness"]["definition_level"] == "oo"


def test_convention_pycanon_equals_pycanon():
    pytest.importorskip("pycanon", reason="the comparison needs pycanon (pip install implgraph[dev])")
    from pycanon import anonymity
    import math

    from implgraph.io.conventions import pycanon_levels
    from implgraph.io.microdata import levels_of, microdata_tables
    df = _frame()
    for qi in (["sex"], ["sex", "education"], ["workclass"]):
        lv = levels_of(df, qi, ["salary"])["salary"]
        ours = pycanon_levels(lv, microdata_tables(df, qi, ["salary"])["salary"])
        assert math.isclose(float(ours["delta-disclosure-privacy"][0]),
                            anonymity.delta_disclosure(df, qi, ["salary"]), abs_tol=1e-9)
        assert math.isclose(float(ours["enhanced-beta-likeness"][0]),
                            anonymity.enhanced_beta_likeness(df, qi, ["salary"]), abs_tol=1e-9)
