"""Whether this process is the ``implgraph`` program itself (:func:`implgraph.cli.run`, the console script) rather than
a program that imports implgraph as a library: such a process runs no thread but implgraph's own, which lets
:mod:`implgraph.core.simplified` skip an import sympy makes. Nothing here imports sympy (``implgraph --version`` stays
quick).

:func:`start` also sizes sympy's memo: sympy keeps the last :data:`SYMPY_CACHE_SIZE` results of each of its cached
functions (``SYMPY_CACHE_SIZE``, read once when sympy is first imported; its default 1000 is too few for a whole
``implgraph verify``, which then recomputes results it had: about 0.1 s of its 7.6 s of CPU). A memo answers as the
computation does, so no answer changes; a size the user set in the environment is kept.

It also gives the whole process the cyclic collector's batch schedule (:mod:`implgraph.core.gc_batch`: a young
generation of ``YOUNG`` objects): the imports of a command (sympy, the definitions, the prover's arguments: tens of
thousands of long-lived objects) otherwise run the collector about 180 times at Python's default of 700, a fiftieth
of a cold ``implgraph verify``. Only the collector's schedule changes.
"""

import gc
import os
import sys

from implgraph.core.gc_batch import OLDER, YOUNG

#: set by :func:`implgraph.cli.run` (through :func:`start`)
RUNNING = False

#: the entries of each sympy memo in the program (sympy's default: 1000)
SYMPY_CACHE_SIZE = 10000


def start() -> None:
    """Mark this process as the implgraph program (:data:`RUNNING`), raise the collector's thresholds to the batch
    schedule's (thresholds already higher kept) and, unless sympy is imported already or the environment names a size,
    set sympy's memo size to :data:`SYMPY_CACHE_SIZE` (processes started from this one inherit it)."""
    global RUNNING
    RUNNING = True
    gc.set_threshold(*(max(old, new) for old, new in zip(gc.get_threshold(), (YOUNG, OLDER, OLDER))))
    if "sympy" not in sys.modules:
        os.environ.setdefault("SYMPY_CACHE_SIZE", str(SYMPY_CACHE_SIZE))
