"""sei2019's anonymization at scale: the Parquet release read back as written, columns kept untouched and never
randomized, the draw's distribution, the exact re-check on the sets as codes, and one-line refusals.

Expected values are derived by hand in the comments (the channel's probabilities ``kappa_c``, ``kappa_d`` of
Section V-B) or read with pyarrow and Python's csv module independently of the release's own reader."""

import csv
import os
from fractions import Fraction

import numpy as np
import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from implgraph.cli import main  # noqa: E402
from implgraph.mechanisms.randomized_anonymization import release as release_mod  # noqa: E402
from implgraph.mechanisms.randomized_anonymization.guarantee import check_attribute  # noqa: E402
from implgraph.mechanisms.randomized_anonymization.release import Release  # noqa: E402

KEPT_CELLS = [" z", "007", "w,v", "x y ", "007"]


def write_rows(path, header, rows):
    with open(path, "w", newline="") as fh:
        out = csv.writer(fh)
        out.writerow(header)
        out.writerows(rows)
    return path


@pytest.fixture
def data(tmp_path):
    rows = [(d, j, KEPT_CELLS[k % 5], f"id{k}") for k, (d, j) in
            enumerate([("flu", "a"), ("hiv", "b"), ("cold", "a"), ("flu", "b"), ("cold", "c")] * 8)]
    return write_rows(tmp_path / "d.csv", ["disease", "job", "note", "id"], rows)


def files(folder):
    return sorted(os.listdir(folder))


# -- the file: read back equals what was written ------------------------------------------------------------------------

def test_a_parquet_release_reads_back_as_written(tmp_path):
    sets = [np.array([[0, 2], [1, 2], [0, 1]], dtype=np.uint8), None]
    rel = Release(["s", "k"], [["x", "y", "z"], None], [(Fraction(1, 3), 2), (1, 1)], None, "src.csv",
                  {"model": "l"}, sets=sets, kept={"k": ["a ", "007", "b,c"]})
    path = tmp_path / "r.parquet"
    rel.save(path)
    table = pq.read_table(path)                   # any Parquet reader sees the sets and the cells
    assert table.column("s").to_pylist() == [[0, 2], [1, 2], [0, 1]]
    assert table.column("k").to_pylist() == ["a ", "007", "b,c"]
    meta = table.schema.field("s").metadata
    assert meta[b"implgraph.domain"] == b'["x", "y", "z"]' and meta[b"implgraph.p"] == b"1/3"
    assert meta[b"implgraph.eta"] == b"2"
    back = Release.load(path)
    assert back.names == ["s", "k"] and back.N == 3 and back.meta == {"model": "l"}
    assert list(back.domains[0]) == ["x", "y", "z"] and back.params[0] == (Fraction(1, 3), 2)
    assert back.params[1] == (1, 1) and back.is_kept(1) and not back.is_kept(0)
    assert back.codes(0).tolist() == [[0, 2], [1, 2], [0, 1]]
    assert back.kept["k"].to_pylist() == ["a ", "007", "b,c"]
    assert back.member[0].tolist() == [[True, False, True], [False, True, True], [True, True, False]]
    only = Release.load(path, columns=["k"])      # only the columns asked for are read
    assert only.names == ["k"] and only.N == 3


def test_anonymize_writes_parquet_and_reconstruct_reads_it(data, tmp_path, capsys):
    out = tmp_path / "r.parquet"
    assert main(["anonymize", str(data), "--qid", "disease,job", "--keep", "note", "--drop", "id", "--l", "2",
                 "--seed", "3", "--out", str(out)]) == 0
    capsys.readouterr()
    assert out.read_bytes()[:4] == b"PAR1" and files(tmp_path) == ["d.csv", "r.parquet"]
    table = pq.read_table(out)
    assert table.column_names == ["disease", "job", "note"]          # "id" (dropped) is not published
    rel = Release.load(out)
    assert [list(rel.domains[j]) for j in range(2)] == [["cold", "flu", "hiv"], ["a", "b", "c"]]
    assert rel.params[:2] == [(1, 2), (1, 2)]                        # --l 2: p = 1, eta = 2 (Theorems 2-3)
    truth = [r[0] for r in csv.reader(open(data))][1:]
    for i, value in enumerate(truth):                                  # p = 1: every set holds its true value
        assert rel.domains[0][rel.codes(0)[i][0]] == value or rel.domains[0][rel.codes(0)[i][1]] == value
    assert main(["reconstruct", str(out), "--attributes", "disease,note", "--truth", str(data), "--json"]) == 0
    import json
    rec = json.loads(capsys.readouterr().out)
    assert sum(c["true"] for c in rec["cells"]) == 40 and len(rec["cells"]) == 3 * 4


# -- kept columns: byte-identical, no randomization ---------------------------------------------------------------------

def test_kept_columns_are_the_input_cells_exactly(data, tmp_path, capsys):
    out = tmp_path / "r.parquet"
    assert main(["anonymize", str(data), "--qid", "disease", "--keep", "job,note,id", "--l", "2", "--out",
                 str(out)]) == 0
    with open(data, newline="") as fh:
        rows = list(csv.reader(fh))[1:]
    table = pq.read_table(out)
    assert table.column("note").to_pylist() == [r[2] for r in rows]     # " z", "x y " and "007" as written
    assert table.column("id").to_pylist() == [r[3] for r in rows]


def test_kept_columns_draw_no_randomness(monkeypatch):
    drawn = []
    real = release_mod.sample_sets
    monkeypatch.setattr(release_mod, "sample_sets", lambda codes, d, *a: drawn.append(d) or real(codes, d, *a))
    cols = {"s": ["a", "b", "c"] * 10, "id": [f"i{k}" for k in range(30)]}
    one = release_mod.anonymize(cols, {"s": (Fraction(1, 2), 2)}, np.random.default_rng(7))
    alone = release_mod.anonymize({"s": cols["s"]}, {"s": (Fraction(1, 2), 2)}, np.random.default_rng(7))
    assert drawn == [3, 3]                      # only the --qid column is drawn (d = 3), never the 30-value id
    assert one.codes(0).tolist() == alone.codes(0).tolist()
    assert one.is_kept(1) and one.kept["id"] == cols["id"]


def test_a_kept_identifier_column_of_many_records(tmp_path, capsys):
    """A kept column with a value per record (N x N cells as sets) went through before only when small."""
    n = 6000                                    # 6000^2 = 3.6e7 cells: more than the JSON format's 2.5e7
    data = write_rows(tmp_path / "d.csv", ["s", "id"], [("ab"[k % 2], f"id{k}") for k in range(n)])
    out = tmp_path / "r.parquet"
    assert main(["anonymize", str(data), "--qid", "s", "--keep", "id", "--l", "2", "--out", str(out)]) == 0
    assert pq.read_table(out).column("id").to_pylist() == [f"id{k}" for k in range(n)]


# -- the draw --------------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("route", ["table", "keys"])
def test_the_draw_follows_the_channel(monkeypatch, route):
    """d = 3, eta = 2, p = 1/2: a set holding the value has probability kappa_c = 1/2 * 1/2 + 1/2 * 1/3 = 5/12
    (head: the other value among 2; tail: one of the 3 sets), the set without it kappa_d = 1/2 * 1/3 = 1/6."""
    if route == "keys":
        monkeypatch.setattr(release_mod, "SUBSET_TABLE_LIMIT", 0)
    from implgraph.mechanisms.randomized_anonymization.release import sample_sets
    n = 60_000
    codes = np.repeat(np.arange(3), n // 3)
    sets = sample_sets(codes, 3, Fraction(1, 2), 2, np.random.default_rng(1))
    assert sets.shape == (n, 2) and (sets[:, 0] < sets[:, 1]).all()
    for v in range(3):
        mine = sets[codes == v]
        without = (mine != v).all(axis=1).mean()
        assert abs(without - 1 / 6) < 0.012
        for other in (u for u in range(3) if u != v):
            pair = sorted((v, other))
            assert abs(((mine[:, 0] == pair[0]) & (mine[:, 1] == pair[1])).mean() - 5 / 12) < 0.015


@pytest.mark.parametrize("route", ["table", "keys"])
def test_the_draw_of_one_value(monkeypatch, route):
    """d = 4, eta = 1, p = 1/2: the value itself with probability 1/2 + 1/2 * 1/4 = 5/8, each other 1/8."""
    from implgraph.mechanisms.randomized_anonymization.release import sample_sets
    if route == "keys":
        monkeypatch.setattr(release_mod, "SUBSET_TABLE_LIMIT", 0)
    codes = np.repeat(np.arange(4), 20_000)
    sets = sample_sets(codes, 4, Fraction(1, 2), 1, np.random.default_rng(2))[:, 0]
    for v in range(4):
        freq = np.bincount(sets[codes == v], minlength=4) / 20_000
        assert all(abs(f - (5 / 8 if u == v else 1 / 8)) < 0.015 for u, f in enumerate(freq))


def test_p_one_eta_one_is_the_data_and_eta_d_the_domain():
    from implgraph.mechanisms.randomized_anonymization.release import sample_sets
    codes = np.array([2, 0, 1, 1])
    assert sample_sets(codes, 3, 1, 1, np.random.default_rng(0)).ravel().tolist() == [2, 0, 1, 1]
    assert sample_sets(codes, 3, Fraction(1, 2), 3, np.random.default_rng(0)).tolist() == [[0, 1, 2]] * 4


# -- the exact re-check ----------------------------------------------------------------------------------------------------

def test_distinct_values_of_sets_given_as_codes():
    from implgraph.mechanisms.randomized_anonymization.guarantee import distinct_in_sets
    assert distinct_in_sets(np.array([[0, 2], [1, 1]]), 3) == 1
    assert distinct_in_sets(np.array([[0, 2], [2, 1]]), 3) == 2
    g = check_attribute("s", [1, 1], 1, 2, np.array([[0, 1], [1, 1]]), l=2)
    assert g.achieved_l == 1 and not g.met


def test_the_recheck_refuses_sets_that_miss_the_level(data, tmp_path, monkeypatch, capsys):
    """A sampler that repeated a value would publish a set of one distinct value: l = 1 < 2."""
    real = release_mod.sample_sets

    def faulty(codes, d, p, eta, rng):
        sets = np.array(real(codes, d, p, eta, rng))
        sets[0, :] = sets[0, 0]
        return sets
    monkeypatch.setattr(release_mod, "sample_sets", faulty)
    out = tmp_path / "r.parquet"
    assert main(["anonymize", str(data), "--qid", "disease", "--keep", "job,note,id", "--l", "2", "--out",
                 str(out)]) == 2
    err = capsys.readouterr().err
    assert "l = 1 < 2 requested" in err and len(err.strip().splitlines()) == 1
    assert files(tmp_path) == ["d.csv"]


def test_the_recheck_refuses_parameters_that_miss_t(data, tmp_path, monkeypatch, capsys):
    """p = 1, eta = 1 publishes the value itself: for disease (counts cold 16, flu 16, hiv 8 of 40) the posterior
    of {hiv} is a point mass, EMD = 1 - 8/40 = 4/5 > 1/10."""
    from implgraph.commands import anonymize as anonymize_cmd
    from implgraph.mechanisms.randomized_anonymization.optimise import closeness_parameters

    def weak(*args, **kw):
        choice = closeness_parameters(*args, **kw)
        choice.p, choice.eta = 1, 1
        return choice
    monkeypatch.setattr(anonymize_cmd, "closeness_parameters", weak)
    out = tmp_path / "r.parquet"
    assert main(["anonymize", str(data), "--qid", "disease", "--keep", "job,note,id", "--t", "1/10", "--out",
                 str(out)]) == 2
    err = capsys.readouterr().err
    assert "t = 4/5 > 1/10 requested" in err and len(err.strip().splitlines()) == 1
    assert files(tmp_path) == ["d.csv"]


# -- bad input: one line, exit 2, nothing written ---------------------------------------------------------------------------

def test_a_record_longer_than_the_guard_is_one_line(tmp_path, monkeypatch, capsys):
    from implgraph.mechanisms.randomized_anonymization import columns as columns_mod
    monkeypatch.setattr(columns_mod, "MAX_RECORD_BYTES", 1024)
    data = tmp_path / "d.csv"
    data.write_text("s,k\n" + "a,b\n" * 50 + "a," + "x" * 5000 + "\n" + "b,c\n" * 50)
    assert main(["anonymize", str(data), "--qid", "s", "--keep", "k", "--l", "2", "--out",
                 str(tmp_path / "r.parquet")]) == 2
    err = capsys.readouterr().err
    assert "a record is longer than" in err and "fix:" in err and len(err.strip().splitlines()) == 1
    assert files(tmp_path) == ["d.csv"]


@pytest.mark.parametrize("damage, needle", [
    ("truncate", "not a Parquet release"),
    ("index", "outside its domain"),
    ("repeat", "repeats a value"),
    ("format", "not a release in format"),
])
def test_a_damaged_parquet_release_is_one_line(tmp_path, capsys, damage, needle):
    sets = np.array([[0, 1], [1, 2]], dtype=np.uint8)
    if damage == "index":
        sets = np.array([[0, 1], [1, 3]], dtype=np.uint8)
    if damage == "repeat":
        sets = np.array([[0, 1], [2, 2]], dtype=np.uint8)
    rel = Release(["s"], [["x", "y", "z"]], [(Fraction(1, 2), 2)], None, sets=[sets])
    path = tmp_path / "r.parquet"
    from implgraph.mechanisms.randomized_anonymization import parquet
    table = parquet.to_arrow(rel)
    if damage == "format":
        table = table.replace_schema_metadata({b"implgraph.release": b'{"format": "other"}'})
    pq.write_table(table, path)
    if damage == "truncate":
        path.write_bytes(path.read_bytes()[:-20])
    assert main(["reconstruct", str(path), "--attributes", "s"]) == 2
    err = capsys.readouterr().err
    assert needle in err and "r.parquet" in err and len(err.strip().splitlines()) == 1


@pytest.mark.slow
def test_a_csv_over_64_mib_goes_through(tmp_path, capsys):
    """The former limit of the CSV read (64 MiB) is gone: 2.2 million records of about 31 bytes."""
    n = 2_200_000
    rng = np.random.default_rng(0)
    data = tmp_path / "big.csv"
    with open(data, "w") as fh:
        fh.write("s,k\n")
        a = rng.integers(0, 4, n).astype(str)
        k = np.char.add("k-long-enough-cell-", rng.integers(10 ** 9, 10 ** 10, n).astype(str))
        fh.write("\n".join(np.char.add(np.char.add(a, ","), k)) + "\n")
    assert data.stat().st_size > 64 * 2 ** 20
    out = tmp_path / "r.parquet"
    assert main(["anonymize", str(data), "--qid", "s", "--keep", "k", "--l", "2", "--out", str(out)]) == 0
    assert pq.read_metadata(out).num_rows == n


def test_a_record_of_the_wrong_width_names_its_line(tmp_path, capsys):
    data = tmp_path / "d.csv"
    data.write_text("s,k\na,b\nb,c\nc\n")
    assert main(["anonymize", str(data), "--qid", "s", "--keep", "k", "--l", "2", "--out",
                 str(tmp_path / "r.parquet")]) == 2
    err = capsys.readouterr().err
    assert f"{data}:4:" in err and "fix:" in err and len(err.strip().splitlines()) == 1
    assert files(tmp_path) == ["d.csv"]
