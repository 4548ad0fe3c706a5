"""The pair matrix's worker processes seen from the parent: a pair's cells from a worker's answer, open cells (with
their reason) where there is none, and a worker's end (:mod:`implgraph.map.matrix` runs them)."""

from __future__ import annotations

import time

from implgraph.map.matrix_cells import Cell

__all__ = ["open_cells", "cells_of", "retire", "answer_of"]


def open_cells(a, b, verdict, reason):
    return [Cell(a, b, "open", verdict, "unknown", reason=reason),
            Cell(b, a, "open", verdict, "unknown", reason=reason)]


def cells_of(key, answer):
    """The cells of :func:`implgraph.map.matrix._decided`'s ``answer`` for the pair ``key``."""
    status, payload = answer
    return ([Cell(**c) for c in payload] if status == "ok"
            else open_cells(*key, "unknown", f"the check failed: {payload}"))


def retire(worker, kill):
    """End a worker: killed (past its timeout, or dead), else told to stop; its pipe closed."""
    proc, conn = worker
    if kill:
        proc.terminate()
    else:
        try:
            conn.send(None)
        except (BrokenPipeError, OSError):
            proc.terminate()
    proc.join()
    conn.close()


def answer_of(worker, key, start, timeout):
    """``(cells, dead)`` of a busy worker's pair: its answer, or open cells where it died or ran past ``timeout``
    (``dead``: the worker is to be killed); ``(None, False)`` while it is still working."""
    proc, conn = worker
    answer, dead = None, False
    try:
        if conn.poll():
            answer = conn.recv()
    except (EOFError, OSError):     # the worker died (a reset socket when it left a job unread)
        dead = True
    if answer is not None:
        return cells_of(key, answer), False
    if dead or not proc.is_alive():
        proc.join()
        return open_cells(*key, "unknown", f"the check ended without an answer (exit code {proc.exitcode})"), True
    if time.monotonic() - start <= timeout:
        return None, False
    return open_cells(*key, "timeout", f"unknown (timeout after {timeout:g} s)"), True
