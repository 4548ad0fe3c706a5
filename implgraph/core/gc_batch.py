"""Fewer runs of Python's cyclic garbage collector during a batch of symbolic work (a whole ``implgraph verify``).

sympy builds and drops millions of small objects; with Python's default thresholds (a young-generation run every
700 net allocations) the collector runs about 750 times in a cold ``implgraph verify`` and takes about a twentieth
of its CPU time, mostly re-traversing the long-lived expressions held in the process's memos. With a young
generation of :data:`YOUNG` objects the collector runs a few times and frees the same garbage (reference counting
frees everything that is not in a cycle at once either way); the peak memory of a cold verify stays the same
within a percent. Only the collector's schedule changes: no value, answer or order of the work does.
"""

from __future__ import annotations

import contextlib
import gc

__all__ = ["fewer_collections", "YOUNG", "OLDER"]

#: objects allocated (net) between two runs of the young generation's collection during a batch (Python's
#: default is 700)
YOUNG = 50_000
#: young (then middle) collections between two runs of the next older generation during a batch (default 10, 10)
OLDER = 20


@contextlib.contextmanager
def fewer_collections():
    """Run the body with the collector's thresholds raised to (:data:`YOUNG`, :data:`OLDER`, :data:`OLDER`);
    the thresholds found are restored afterwards (also on an exception). Thresholds already higher are kept.

    Examples
    --------
    >>> before = gc.get_threshold()
    >>> with fewer_collections():
    ...     gc.get_threshold()[0] >= YOUNG
    True
    >>> gc.get_threshold() == before
    True
    """
    before = gc.get_threshold()
    gc.set_threshold(*(max(old, new) for old, new in zip(before, (YOUNG, OLDER, OLDER))))
    try:
        yield
    finally:
        gc.set_threshold(*before)
