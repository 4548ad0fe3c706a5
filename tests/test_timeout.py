"""--timeout: a long computation ends in "unknown (timeout)", never in a hang (issue 10, item 9)."""

import json
import os
import subprocess
import sys
import time

import pytest

from implgraph.core.deadline import Timeout, deadline, remaining


def _spin(seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass


def test_deadline_raises_and_is_not_swallowed_by_except_exception():
    start = time.monotonic()
    with pytest.raises(Timeout):
        with deadline(0.2):
            try:
                _spin(5)
            except Exception:       # an engine's broad handler must not turn a timeout into an answer
                pass
            _spin(5)
    assert time.monotonic() - start < 2


def test_inner_deadline_never_extends_the_outer_one():
    start = time.monotonic()
    with pytest.raises(Timeout):
        with deadline(0.2):
            with deadline(10):
                assert remaining() <= 0.2
                _spin(5)
    assert time.monotonic() - start < 2


def test_no_deadline_is_no_limit():
    with deadline(None):
        _spin(0.05)
    assert remaining() is None


def test_verify_claim_past_its_timeout_is_unknown(tmp_path):
    """In a process of its own with a cache folder of its own: in this one an earlier test may have checked the claim,
    whose remembered parts then answer within any timeout."""
    env = dict(os.environ, IMPLGRAPH_CACHE_DIR=str(tmp_path))
    p = subprocess.run([sys.executable, "-m", "implgraph.cli", "verify", "ekenstedt2022/theorem-2b", "--timeout", "0.01",
                        "--json"], capture_output=True, text=True, timeout=120, env=env)
    [v] = json.loads(p.stdout)["claims"]
    assert v["verdict"] == "unknown" and "timeout" in v["evidence"]
    assert p.returncode == 3        # a timeout (README: exit 3), not a regression of the engine's answer (exit 1)
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and "timeout after 0.01 s" in lines[0] and "fix: raise --timeout" in lines[0]


def test_cli_command_past_its_timeout_exits_3_with_one_line():
    # (about 9 s without the limit: every partition of up to 7 records into classes)
    p = subprocess.run([sys.executable, "-m", "implgraph.cli", "check-edge", "mult-t-closeness", "ldp", "--N", "7",
                        "--timeout", "1"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 3
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and "unknown (timeout after 1 s)" in lines[0] and "fix:" in lines[0]
    assert "Traceback" not in p.stderr


def test_a_deadline_never_fires_inside_a_finaliser_or_what_it_calls():
    import sys as _sys

    from implgraph.core.deadline import _in_finaliser

    def inner():
        return _in_finaliser(_sys._getframe())

    class Held:
        def __del__(self):
            Held.seen = inner()        # a call made by a finaliser (like z3's AstRef.__del__ -> as_ast)

    Held()
    assert Held.seen is True
    assert inner() is False


def test_a_timeout_a_c_library_wrapped_is_still_a_timeout():
    import ctypes
    import time as _time

    from implgraph.core.deadline import Timeout, as_timeout, deadline
    caught = None
    try:
        with deadline(0.05):
            try:
                while True:
                    _time.sleep(0.001)
            except Timeout as exc:     # what ctypes does when the signal lands in an argument conversion
                raise ctypes.ArgumentError(f"argument 1: {type(exc).__name__}: {exc}") from None
    except ctypes.ArgumentError as exc:
        caught = as_timeout(exc)
    assert isinstance(caught, Timeout)
    assert as_timeout(ctypes.ArgumentError("argument 1: TypeError: wrong type")) is None
    assert as_timeout(ValueError("x")) is None
