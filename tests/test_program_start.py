"""The implgraph program's own process settings (:func:`implgraph.core.program.start`): the collector's batch schedule;
sympy's memos sized for a whole command unless the environment names a size or sympy is imported already; a library
user's sympy untouched.

Values derived by hand: 10000 is :data:`implgraph.core.program.SYMPY_CACHE_SIZE`, 1000 sympy's default, 777 a size
the user gives, (50000, 20, 20) the thresholds of :mod:`implgraph.core.gc_batch`.
"""

from __future__ import annotations

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _child(code: str, **env_extra) -> str:
    """The stdout of ``code`` run in a fresh interpreter on this tree (``SYMPY_CACHE_SIZE`` unset unless given)."""
    env = {k: v for k, v in os.environ.items() if k != "SYMPY_CACHE_SIZE"}
    env.update(PYTHONPATH=ROOT, **env_extra)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


SIZE = "from sympy.core import cache; print(cache.SYMPY_CACHE_SIZE)\n"


def test_the_program_sizes_sympys_memos():
    code = "from implgraph.core import program\nprogram.start()\nprint(program.RUNNING)\n" + SIZE
    assert _child(code).split() == ["True", "10000"]


def test_a_size_in_the_environment_is_kept():
    code = "from implgraph.core import program\nprogram.start()\n" + SIZE
    assert _child(code, SYMPY_CACHE_SIZE="777") == "777"


def test_sympy_imported_first_keeps_its_size():
    # sympy read its size when imported: start() changes no environment a later process would inherit
    code = ("import os, sympy\nfrom implgraph.core import program\nprogram.start()\n"
            "print(os.environ.get('SYMPY_CACHE_SIZE'))\n" + SIZE)
    assert _child(code).split() == ["None", "1000"]


def test_a_library_user_keeps_sympys_default():
    code = "import implgraph.core.program\nimport implgraph.core.simplified\n" + SIZE
    assert _child(code) == "1000"


def test_the_console_script_runs_start():
    # `implgraph --version` goes through implgraph.cli.run, which starts the program before any command
    code = ("import sys\nfrom implgraph import cli\nsys.argv = ['implgraph', '--version']\n"
            "try:\n    cli.run()\nexcept SystemExit:\n    pass\n" + SIZE)
    assert _child(code).splitlines()[-1] == "10000"


def test_the_program_runs_the_collector_on_the_batch_schedule():
    # Python's default thresholds (700, 10, 10) raised to gc_batch's (50000, 20, 20); higher ones kept
    code = ("import gc\nfrom implgraph.core import program\nprogram.start()\nprint(gc.get_threshold())\n"
            "gc.set_threshold(90000, 5, 30)\nprogram.start()\nprint(gc.get_threshold())\n")
    assert _child(code).splitlines() == ["(50000, 20, 20)", "(90000, 20, 30)"]
