"""sympy's assumption queries without their random shuffle, in the implgraph program's own process.

When sympy's assumption system (``expr.is_positive`` and the like) cannot settle a fact from the expression's own
handler, it queues the facts that might imply it, shuffled by a random generator seeded anew in every process
(``sympy.core.random._assumptions_shuffle``), so that a handler inconsistent with the inference rules shows up as
a non-deterministic answer in sympy's own tests. The answers therefore do not depend on the order, and a process
may meet any order; the shuffle costs about a fiftieth of a cold ``implgraph verify`` (it runs for every
undetermined fact of every new expression). :func:`unshuffled` keeps the queue in the order sympy builds it (the
iteration order of a set of fact names): one of the orders the shuffle itself can give.

As with :mod:`implgraph.core.simplified`, a module attribute of sympy is replaced only where this process is the
implgraph program (:data:`implgraph.core.program.RUNNING`), whose only threads are implgraph's, and put back
afterwards; a program that embeds implgraph keeps sympy's own call.
"""

from __future__ import annotations

import contextlib
import importlib

from implgraph.core import program

__all__ = ["unshuffled"]


def _keep_order(facts) -> None:
    """The shuffle's stand-in: leaves the list as it is."""


@contextlib.contextmanager
def unshuffled():
    """Run the body with sympy's assumption queue unshuffled (in the implgraph program only; a no-op elsewhere).

    Examples
    --------
    >>> assumptions = importlib.import_module("sympy.core.assumptions")
    >>> before = assumptions.shuffle
    >>> with unshuffled():
    ...     pass
    >>> assumptions.shuffle is before
    True
    """
    # (the module itself: ``sympy.core.assumptions`` as an attribute is a function of that name)
    assumptions = importlib.import_module("sympy.core.assumptions")
    if not program.RUNNING or getattr(assumptions, "shuffle", None) is None:
        yield
        return
    before = assumptions.shuffle
    assumptions.shuffle = _keep_order
    try:
        yield
    finally:
        assumptions.shuffle = before
