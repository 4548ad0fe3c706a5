"""The caches cannot change what implgraph says: a verdict's text is the same cold and warm, and a cached row
that was edited (even with its plain checksum recomputed) is never replayed.

Each run is a process of its own (``python -m implgraph.cli``) with its own cache folder, so that only the disk
carries anything from one run to the next.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest


def _verify(cache, *args, cwd=None, check_json=True):
    env = {**os.environ, "IMPLGRAPH_CACHE_DIR": str(cache)}
    env.pop("IMPLGRAPH_NO_CACHE", None)
    r = subprocess.run([sys.executable, "-m", "implgraph.cli", "verify", *args, "--jobs", "1"], cwd=cwd,
                       capture_output=True, text=True, timeout=900, env=env)
    assert "Traceback" not in r.stderr, r.stderr
    if not check_json:
        return r
    doc = json.loads(r.stdout)
    for row in doc["claims"]:
        row.pop("seconds")          # the time a row took (cold or replayed) is the only field that may differ
    return doc


# -- the evidence is the same cold and warm -------------------------------------------------------------------

#: table claims whose holds-not-tight evidence gives an example point (the solver's point depended on whether
#: the table's level came from the level cache: N = 4 cold, N = 5 with the level cached, for Table VII)
TABLES = ["ekenstedt2022/table-VII", "ekenstedt2022/table-III"]


def test_verify_json_is_the_same_cold_and_warm(tmp_path):
    cache = tmp_path / "cache"
    cold = _verify(cache, *TABLES, "--json")
    assert any("e.g. at" in row["evidence"] for row in cold["claims"])
    warm = _verify(cache, *TABLES, "--json")                      # rows replayed
    for entry in (cache / "claims").glob("*.json"):             # the levels cached, the rows not
        entry.unlink()
    levels_warm = _verify(cache, *TABLES, "--json")
    assert cold == warm == levels_warm


@pytest.mark.slow
def test_whole_verify_json_is_the_same_cold_and_warm(tmp_path):
    cache = tmp_path / "cache"
    cold = _verify(cache, "--json")
    warm = _verify(cache, "--json")
    for entry in (cache / "claims").glob("*.json"):
        entry.unlink()
    assert cold == warm == _verify(cache, "--json")
