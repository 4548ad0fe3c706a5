"""Shared test harness: run ``implgraph ARGV`` as the console script would, in a process forked from the test
process, and check the project's standard for bad input.

The forked process has imported implgraph once (a fresh interpreter per case would spend most of its time
importing). It runs in its own process group (a timeout ends its helpers too), in the case's directory, with
stdin from /dev/null; its stdout and stderr go to files. Before the command runs, sympy's string parser is
wrapped (:func:`guard_sympy_parser`): text that implgraph code hands to ``sympy.sympify`` (which evaluates
Python) is recorded, so a test sees a string reaching the parser even when the text was harmless.
"""

from __future__ import annotations

import os
import signal
import sys
import textwrap
import time
import traceback

import implgraph.cli

FIFO, DIRECTORY, DEV_ZERO = object(), object(), object()

#: the file the forked process records parsed strings in (set per run)
_GUARD_LOG = {"path": None}


def make(tmp_path, name, content):
    """Create ``tmp_path/name``: text, bytes, a FIFO, a directory or a link to /dev/zero."""
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if content is FIFO:
        os.mkfifo(path)
    elif content is DIRECTORY:
        path.mkdir()
    elif content is DEV_ZERO:
        path.symlink_to("/dev/zero")
    elif isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")


def listing(root):
    """Every file and folder under ``root`` with its size (what a command must leave as it was)."""
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        for n in dirnames + filenames:
            full = os.path.join(dirpath, n)
            out.append((os.path.relpath(full, root), os.lstat(full).st_size))
    return sorted(out)


def _caller_outside_sympify(frame):
    """The first frame below sympy's ``sympify`` and string parser (who handed the text over)."""
    while frame is not None and frame.f_code.co_filename.endswith(
            (os.path.join("sympy", "core", "sympify.py"), "sympy_parser.py")):
        frame = frame.f_back
    return frame


def guard_sympy_parser():
    """Wrap ``sympy.parsing.sympy_parser.parse_expr`` (what ``sympify`` runs on a string: it evaluates Python)
    so that a string implgraph code hands to it is recorded in the forked process's guard log. sympy's own
    use of its parser (e.g. while importing a module) is left alone. Idempotent."""
    import sympy.parsing.sympy_parser as parser
    if getattr(parser.parse_expr, "_implgraph_guard", False):
        return
    original = parser.parse_expr

    def guarded(s, *args, **kwargs):
        frame = _caller_outside_sympify(sys._getframe(1))
        name = frame.f_code.co_filename if frame is not None else ""
        if _GUARD_LOG["path"] and f"{os.sep}implgraph{os.sep}" in name:
            with open(_GUARD_LOG["path"], "a", encoding="utf-8") as fh:
                fh.write(f"{name}:{frame.f_lineno}: {str(s)[:200]!r}\n")
        return original(s, *args, **kwargs)

    guarded._implgraph_guard = True
    parser.parse_expr = guarded


def _child(argv, cwd, out, err, guard_log):
    """In the forked process: run the command line as the console script would, then exit."""
    code = 1
    try:
        os.setpgid(0, 0)          # its own process group: a timeout ends its helpers too
        os.chdir(cwd)
        _GUARD_LOG["path"] = guard_log
        null = os.open(os.devnull, os.O_RDONLY)
        for fd, target in ((0, null), (1, out), (2, err)):
            os.dup2(target, fd)
        sys.stdin = open(0, closefd=False)
        sys.stdout = open(1, "w", closefd=False)
        sys.stderr = open(2, "w", closefd=False)
        sys.argv = ["implgraph", *argv]
        try:
            code = implgraph.cli.main(list(argv))
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        except BaseException:
            traceback.print_exc()
            code = 1
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(code if isinstance(code, int) else 1)


def _end_group(pid):
    """End whatever is left of the forked process's group (e.g. pool workers after a timeout)."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def run(argv, cwd, tmp_out, timeout=10.0):
    """``(exit status, stdout, stderr)`` of ``implgraph ARGV`` in a forked process, or None on timeout.

    The strings implgraph handed to sympy's parser meanwhile are in ``tmp_out/parsed`` (see :func:`parsed`).
    """
    guard_sympy_parser()
    paths = [tmp_out / "stdout", tmp_out / "stderr"]
    guard_log = str(tmp_out / "parsed")
    fds = [os.open(p, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600) for p in paths]
    pid = os.fork()
    if pid == 0:
        _child(argv, cwd, *fds, guard_log)
    try:
        os.setpgid(pid, pid)       # also here: no race with the child's own call
    except (ProcessLookupError, PermissionError):
        pass
    for fd in fds:
        os.close(fd)
    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            _end_group(pid)
            os.waitpid(pid, 0)
            return None
        time.sleep(0.01)
    _end_group(pid)
    out, err = (p.read_text(errors="replace") for p in paths)
    return os.waitstatus_to_exitcode(status), out, err


def parsed(tmp_out) -> str:
    """The strings implgraph code handed to sympy's parser during the last :func:`run` in ``tmp_out``."""
    path = tmp_out / "parsed"
    return path.read_text(encoding="utf-8") if path.exists() else ""


def check_refused(code, out, err, status=2):
    """The standard for bad input: exit ``status``, exactly one line on stderr starting ``implgraph:`` with a
    ``fix:``, no traceback, nothing on stdout."""
    assert "Traceback" not in err, err[-2000:]
    lines = err.splitlines()
    assert len(lines) == 1, textwrap.shorten(err, 2000)
    assert lines[0].startswith("implgraph: ") and "fix:" in lines[0], lines[0]
    assert code == status, (code, lines[0])
    assert out == "", out[:2000]
