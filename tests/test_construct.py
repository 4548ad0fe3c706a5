"""The bucketization construction of domingo-ferrer2015 Section 6."""

import os
import random
from fractions import Fraction
from pathlib import Path

import pytest
import sympy

from implgraph.cli import main
from implgraph.mechanisms.construct import (achieved_t, bucketize, class_compositions, construct, is_t_close_partition)
from implgraph.core.errors import InputError
from implgraph.definitions.levels import optimal_level
from implgraph.io.tablefile import load_table_file

ROOT = Path(__file__).resolve().parent.parent


def test_bucketize_sizes_hand():
    # N = 10, t = 2: ends [10/3 + 0.5] = 3, [20/3 + 0.5] = 7
    bucket, sizes = bucketize([5, 1, 9, 3, 7, 2, 8, 4, 6, 10], 2)
    assert sizes == [3, 4, 3]
    assert [int(b) for b in bucket] == [1, 0, 2, 0, 1, 0, 2, 1, 1, 2]


def test_fig2_reproduced():
    """12 records, t = 2 (3 buckets of 4), k = 4: the classes of Fig. 2, t = 3/2."""
    r = construct(list(range(12)), t=2, k=4)
    assert r.compositions == [[2, 1, 1], [1, 2, 1], [1, 1, 2]]
    assert r.t == Fraction(3, 2)
    fig2 = load_table_file(ROOT / "counterexamples" / "domingo-ferrer2015.yaml", "domingo-ferrer2015/fig-2")
    assert optimal_level(fig2, "mult-t-closeness").value == sympy.Rational(3, 2)


@pytest.mark.parametrize("t", [2, 3, 4])
def test_table1_exact_when_divisible(t):
    """N = (t+1)^2 t records, l = 1: Table 1's masses t/(t+1) and 1/(t(t+1)) exactly, so t is reached."""
    N = (t + 1) ** 2 * t
    r = construct(list(range(N)), t=t, k=N // (t + 1))
    e = N // (t + 1)
    assert r.compositions[0] == [e * t // (t + 1)] + [e // (t * (t + 1))] * t
    assert r.t == t


def test_compositions_respect_bounds():
    sizes = [33, 34, 33]
    comps = class_compositions(sizes, 2, 7)
    assert [sum(c[i] for c in comps) for i in range(3)] == sizes
    for c in comps:
        e = sum(c)
        assert e >= 7
        for i, x in enumerate(c):
            assert Fraction(x, e) <= 2 * Fraction(sizes[i], 100)
            assert Fraction(x, e) >= Fraction(sizes[i], 100) / 2


def test_checker_pair():
    r = construct(list(range(60)), t=3, k=8)
    assert is_t_close_partition(r.bucket, r.cls, 3, k=8)
    assert not is_t_close_partition(r.bucket, r.cls, r.t - Fraction(1, 100))
    assert achieved_t(r.bucket, r.cls, 4) == r.t


def test_construction_1e5_rows_meets_t():
    rng = random.Random(3)
    values = [rng.randint(0, 10_000) for _ in range(100_000)]
    r = construct(values, t=3, k=100)
    assert r.meets and r.t <= 3 and r.min_class >= 100


@pytest.mark.slow
@pytest.mark.parametrize("t, k", [(2, 5), (4, 7), (1, 10)])
def test_construction_1e5_rows_small_classes(t, k):
    rng = random.Random(t)
    values = [rng.random() for _ in range(100_000)]
    r = construct(values, t=t, k=k)
    assert r.meets and r.min_class >= k


@pytest.mark.parametrize("t, k, match", [(0, 2, "< 1"), ("1.5", 2, "not an integer"), (2, 50, "larger than the data"),
                                         (2, 0, "k = 0")])
def test_bad_parameters(t, k, match):
    with pytest.raises(InputError, match=match):
        construct(list(range(20)), t=t, k=k)


def test_unreachable_t():
    with pytest.raises(InputError, match="not reachable|reaches"):
        construct(list(range(7)), t=1, k=2)


def _csv(tmp_path, text):
    p = tmp_path / "in.csv"
    p.write_text(text)
    return p


def test_cli_writes_records_with_bucket_and_class(tmp_path, capsys):
    rows = "\n".join(f"{i},{(i * 37) % 101}" for i in range(40))
    src = _csv(tmp_path, "id,income\n" + rows + "\n")
    out = tmp_path / "out.csv"
    assert main(["construct", "--t", "3", "--k", "5", str(src), "--attribute", "income", "--out", str(out)]) == 0
    lines = out.read_text().splitlines()
    assert lines[0] == "id,income,bucket,class" and len(lines) == 41
    assert "achieved multiplicative t = " in capsys.readouterr().out


@pytest.mark.parametrize("args, text, where", [
    (["--t", "0", "--k", "2"], "a,b\n1,2\n3,4\n", "t = 0"),
    (["--t", "1", "--k", "5"], "a,b\n1,2\n3,4\n", "larger than the data"),
    (["--t", "1", "--k", "1"], "a,b\n1,x\n3,4\n", "in.csv:2: attribute 'b' value 'x' is not numeric"),
])
def test_cli_bad_input_one_line_exit_2_no_output(tmp_path, capsys, args, text, where):
    src = _csv(tmp_path, text)
    out = tmp_path / "out.csv"
    rc = main(["construct", *args, str(src), "--attribute", "b", "--out", str(out)])
    err = capsys.readouterr().err
    assert rc == 2
    assert err.count("\n") == 1 and where in err and "fix:" in err
    assert not out.exists()


def _same_file_spellings(tmp_path, src):
    (tmp_path / "sub").mkdir()
    link = tmp_path / "link.csv"
    link.symlink_to(src)
    return [str(src), str(tmp_path / "sub" / ".." / src.name), str(link), os.path.relpath(src)]


@pytest.mark.parametrize("which", range(4))
def test_cli_refuses_to_overwrite_its_input(tmp_path, capsys, which):
    # the same path, another spelling of it (sub/..), a symlink to it, a relative path
    text = "id,income\n" + "\n".join(f"{i},{i}" for i in range(10)) + "\n"
    src = _csv(tmp_path, text)
    out = _same_file_spellings(tmp_path, src)[which]
    rc = main(["construct", "--t", "1", "--k", "2", str(src), "--attribute", "income", "--out", out])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and "is the input file" in err and "fix:" in err
    assert src.read_text() == text
    assert sorted(os.listdir(tmp_path)) == ["in.csv", "link.csv", "sub"]


@pytest.mark.parametrize("out,match", [("sub", "is a directory"), ("nodir/out.csv", "does not exist")])
def test_cli_bad_out_path_exit_2_nothing_written(tmp_path, capsys, out, match):
    src = _csv(tmp_path, "id,income\n" + "\n".join(f"{i},{i}" for i in range(10)) + "\n")
    (tmp_path / "sub").mkdir()
    rc = main(["construct", "--t", "1", "--k", "2", str(src), "--attribute", "income", "--out",
               str(tmp_path / out)])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and match in err
    assert sorted(os.listdir(tmp_path)) == ["in.csv", "sub"] and os.listdir(tmp_path / "sub") == []
