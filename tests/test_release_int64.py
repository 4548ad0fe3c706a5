"""`implgraph release`: a channel's common denominator times N must keep the grouped release's int64 sums exact."""

from implgraph.cli import main


def test_a_large_denominator_is_refused_not_overflowed(tmp_path, capsys):
    """p = 1/(2^59 - 1) on 120 records: randomised response's entries (1 + p)/2, (1 - p)/2 have the denominator
    2 (2^59 - 1) ~ 2^60, below 2^62 alone, but 120 times it is not; the sums overflowed int64 (a traceback, the log
    of a negative number). Refused in one line; a small p still works."""
    data = tmp_path / "rr.csv"
    data.write_text("q,s\n" + "a,x\na,y\nb,x\n" * 40)
    argv = ["release", str(data), "--sensitive", "s", "--qi", "q", "--mechanism", "randomised-response"]
    assert main(argv + ["--p", "1/576460752303423487"]) == 2
    err = capsys.readouterr().err
    assert "passes 2^62" in err and "fix:" in err and len(err.strip().splitlines()) == 1
    assert main(argv + ["--p", "1/5"]) == 0
    assert "k-anonymity                                 k = 40" in capsys.readouterr().out
