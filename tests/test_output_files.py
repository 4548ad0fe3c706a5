"""Output files: mode from the umask, the format asked for, no temporary file left, one-line errors."""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import textwrap

import pytest

from implgraph.io import output
from _hostile import failing_writes
from implgraph.cli import main
from implgraph.core.errors import InputError


def _py(code, **kw):
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=120, **kw)


@pytest.mark.parametrize("mask,mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664), (0o027, 0o640)])
def test_mode_follows_umask(tmp_path, mask, mode):
    # a new regular file gets 0666 & ~umask, as open() would give it
    target = tmp_path / "out.txt"
    r = _py(f"""
        import os
        os.umask({mask})
        from implgraph.io.output import atomic_write
        atomic_write({str(target)!r}, "x")
    """)
    assert r.returncode == 0, r.stderr
    assert os.stat(target).st_mode & 0o777 == mode
    assert os.listdir(tmp_path) == ["out.txt"]


def test_exception_mid_write_leaves_nothing(tmp_path, monkeypatch):
    class Boom(Exception):
        pass

    failing_writes(monkeypatch, Boom(), partial=3)
    with pytest.raises(Boom):
        output.atomic_write(tmp_path / "out.txt", "hello world")
    assert os.listdir(tmp_path) == []


_SLOW_WRITER = """
    import os, sys, time
    from implgraph.io import output
    real = os.fdopen
    class Slow:
        def __init__(self, fh): self.fh = fh
        def __enter__(self): return self
        def __exit__(self, *a): self.fh.close()
        def fileno(self): return self.fh.fileno()
        def write(self, data):
            self.fh.write(data[:3]); self.fh.flush()
            print("writing", flush=True)
            time.sleep(60)
    output.os.fdopen = lambda fd, mode: Slow(real(fd, mode))
    output.atomic_write({target!r}, "hello world")
"""


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
def test_kill_mid_write_leaves_no_temporary_file(tmp_path, sig):
    target = tmp_path / "out.txt"
    proc = subprocess.Popen([sys.executable, "-c", textwrap.dedent(_SLOW_WRITER.format(target=str(target)))],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "writing"
        assert len(os.listdir(tmp_path)) == 1             # the temporary file exists now
        proc.send_signal(sig)
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    # killed by the signal (SIGTERM/SIGHUP re-sent after the cleanup) or KeyboardInterrupt (SIGINT)
    assert proc.returncode in (-sig, 1)
    assert os.listdir(tmp_path) == []


def test_write_output_into_a_directory_or_missing_folder(tmp_path):
    with pytest.raises(InputError, match="is a directory"):
        output.write_output(tmp_path, "x")
    with pytest.raises(InputError, match="does not exist"):
        output.write_output(tmp_path / "no" / "f.txt", "x")
    assert os.listdir(tmp_path) == []


def test_disk_full_is_one_line_input_error_and_nothing_written(tmp_path, monkeypatch):
    failing_writes(monkeypatch, OSError(errno.ENOSPC, os.strerror(errno.ENOSPC)))
    with pytest.raises(InputError) as exc:
        output.write_output(tmp_path / "f.txt", "x")
    assert "No space left on device" in str(exc.value) and "fix: free some disk space" in str(exc.value)
    assert "\n" not in str(exc.value)
    assert os.listdir(tmp_path) == []


# -- figure --------------------------------------------------------------------------------------

@pytest.mark.parametrize("suffix,magic", [(".svg", (b"<?xml", b"<svg")), (".pdf", (b"%PDF",)),
                                          (".png", (b"\x89PNG",))])
def test_figure_writes_the_format_of_its_extension(tmp_path, capsys, suffix, magic):
    out = tmp_path / ("fig" + suffix)
    assert main(["figure", "fig-6", "--out", str(out), "--points", "5"]) == 0
    assert out.read_bytes().startswith(magic)


@pytest.mark.parametrize("name,match", [("fig.gif", "unknown figure format"), ("fig", "unknown figure format"),
                                        ("missing/fig.png", "does not exist")])
def test_figure_bad_out_is_one_line_exit_2(tmp_path, capsys, name, match):
    rc = main(["figure", "fig-6", "--out", str(tmp_path / name), "--points", "5"])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and match in err and "fix:" in err
    assert os.listdir(tmp_path) == []


def test_figure_out_is_a_directory(tmp_path, capsys):
    d = tmp_path / "d.svg"
    d.mkdir()
    rc = main(["figure", "fig-6", "--out", str(d), "--points", "5"])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and "is a directory" in err
    assert os.listdir(d) == []


@pytest.mark.parametrize("points", [0, 1, 10_001, 100_000_000])
def test_figure_points_out_of_range(tmp_path, capsys, points):
    rc = main(["figure", "fig-6", "--out", str(tmp_path / "f.png"), "--points", str(points)])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and "--points" in err and "fix:" in err
    assert os.listdir(tmp_path) == []
