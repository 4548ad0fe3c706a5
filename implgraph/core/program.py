"""Whether this process is the ``implgraph`` program itself (:func:`implgraph.cli.run`, the console script) rather than
a program that imports implgraph as a library: such a process runs no thread but implgraph's own, which lets
:mod:`implgraph.core.simplified` skip an import sympy makes. Nothing here imports sympy (``implgraph --version`` stays
quick).

:func:`start` also sizes sympy's memo: sympy keeps the last :data:`SYMPY_CACHE_SIZE` results of each of its cached
functions (``SYMPY_CACHE_SIZE``, read once when sympy is first imported; its default 1000 is too few for a whole
``implgraph verify``, which then recomputes results it had: 0.2 s of its 8 s of CPU). A memo answers as the
computation does, so no answer changes; a size the user set in the environment is kept.
"""

import os
import sys

#: set by :func:`implgraph.cli.run` (through :func:`start`)
RUNNING = False

#: the entries of each sympy memo in the program (sympy's default: 1000)
SYMPY_CACHE_SIZE = 10000


def start() -> None:
    """Mark this process as the implgraph program (:data:`RUNNING`) and, unless sympy is imported already or the
    environment names a size, set sympy's memo size to :data:`SYMPY_CACHE_SIZE` (processes started from this one
    inherit it)."""
    global RUNNING
    RUNNING = True
    if "sympy" not in sys.modules:
        os.environ.setdefault("SYMPY_CACHE_SIZE", str(SYMPY_CACHE_SIZE))
