"""The backends of the engines' own problems, chosen like the region backend.

- :func:`lf_backend`: check-edge's linear-fractional problems, a module offering ``NAME``,
  ``context()``, ``infinite_rows(am, bm, N, p, ctx)`` (with ``bm`` None: a table with A finite) and ``Maximiser(am, a, N, p, ctx).maximise(term)``
  (``(value, rows)``, ``rows()`` giving the maximising table's rows; :mod:`implgraph.solvers.lf_z3`);
- :func:`refuter_backend`: the refuter's table problems, a module offering ``TableProblem``,
  ``level_var``, ``ratio_queries``, ``rational_target``, the definitions' encodings and ``solve``
  (:mod:`implgraph.solvers.refute_z3`).

A second solver plugs in as one more module in :data:`LF_MODULES` / :data:`REFUTER_MODULES`;
``$IMPLGRAPH_SOLVER`` selects it where it has one, else the preferred available module is used.
"""

from __future__ import annotations

import importlib
import os

from implgraph.solvers import SOLVER_ENV

__all__ = ["lf_backend", "refuter_backend", "LF_MODULES", "REFUTER_MODULES"]

#: backend name -> module with the linear-fractional interface, in preference order
LF_MODULES = {"z3": "implgraph.solvers.lf_z3"}
#: backend name -> module with the refuter's table interface, in preference order
REFUTER_MODULES = {"z3": "implgraph.solvers.refute_z3"}


def _choose(modules: dict):
    wanted = os.environ.get(SOLVER_ENV)
    names = ([wanted] if wanted in modules else []) + [n for n in modules if n != wanted]
    for name in names:
        try:
            return importlib.import_module(modules[name])
        except ImportError:
            continue
    return None


def lf_backend():
    """The module answering check-edge's linear-fractional problems.

    Raises
    ------
    InputError
        No backend module can be imported.
    """
    backend = _choose(LF_MODULES)
    if backend is None:
        from implgraph.core.errors import InputError
        raise InputError("no solver for check-edge's linear programs is installed", fix="pip install z3-solver")
    return backend


def refuter_backend():
    """The module encoding the refuter's tables, or None when no solver is installed."""
    return _choose(REFUTER_MODULES)
