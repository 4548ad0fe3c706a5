"""Solver backends behind one registry (pysmt style).

A backend is one module (:mod:`.z3_backend`, :mod:`.cvc5_backend`) that registers itself when its
solver imports cleanly; :func:`backends` lists the available ones in preference order and
:func:`get_backend` returns the preferred one (or the one named, or the preferred one offering a
capability). Every backend offers the *region interface*:

- ``terms`` -- a term builder (``const``, ``real_var``, ``int_var``, ``add``, ``mul``, ``div``,
  ``ite``, ``rel``, ``and_``, ``or_``, ``not_``, ``iff``, ``true``, ``false``);
- ``check(formulas, timeout_ms, variables, logic=None)`` -- ``(status, model)`` with status
  ``"sat"`` / ``"unsat"`` / ``"unknown"`` (a timeout is ``"unknown"``, never a proof) and, when
  sat, ``{key: sympy.Rational}`` for the given variables (None when a value is irrational).

The sympy front end every backend shares is :mod:`implgraph.solvers.sympy_front`.
:mod:`implgraph.core.region` asks the solver registered with :mod:`implgraph.core.backends`: this package
registers :func:`region_solver` there when it is imported (the backend of :func:`region_backend`,
``IMPLGRAPH_SOLVER=cvc5`` selects cvc5, seen through the core's interface). The engines' own problems
(check-edge's linear programs, the refuter's tables) have their backend modules chosen by
:mod:`implgraph.solvers.choose`.
"""

from __future__ import annotations

import importlib
import os

from implgraph.core import backends as _core_backends

__all__ = ["register_backend", "get_backend", "backends", "available_backends", "BACKENDS",
           "region_backend", "region_backend_name", "region_solver", "SOLVER_ENV"]

BACKENDS: dict = {}
_PREFERENCE = ("z3", "cvc5")
_MODULES = {"z3": "implgraph.solvers.z3_backend", "cvc5": "implgraph.solvers.cvc5_backend"}
SOLVER_ENV = "IMPLGRAPH_SOLVER"


def register_backend(name: str, module) -> None:
    """Register ``module`` (an object with the backend functions) under ``name``."""
    BACKENDS[name] = module


_TRIED: set = set()


def _load(name: str) -> None:
    """Import the backend module called ``name`` once (a solver that is not installed is skipped)."""
    if name in BACKENDS or name in _TRIED or name not in _MODULES:
        return
    _TRIED.add(name)
    try:
        importlib.import_module(_MODULES[name])
    except ImportError:  # the solver is not installed: skip it
        pass


def _load_all() -> None:
    for name in _MODULES:
        _load(name)


def backends(capability: str | None = None) -> list:
    """Names of the available backends in preference order.

    Parameters
    ----------
    capability : str, optional
        Keep only the backends that define this function (e.g. ``"check"``, ``"encode_satisfies"``).
    """
    _load_all()
    names = [n for n in _PREFERENCE if n in BACKENDS] + [n for n in BACKENDS if n not in _PREFERENCE]
    if capability is not None:
        names = [n for n in names if hasattr(BACKENDS[n], capability)]
    return names


available_backends = backends


def get_backend(name: str | None = None, capability: str | None = None):
    """The backend called ``name``, or the preferred available one (with ``capability``); None if none."""
    if name is not None:
        _load(name)
        return BACKENDS.get(name)
    for candidate in _PREFERENCE:  # import a solver only when the ones preferred to it do not serve
        _load(candidate)
        backend = BACKENDS.get(candidate)
        if backend is not None and (capability is None or hasattr(backend, capability)):
            return backend
    names = backends(capability)
    return BACKENDS[names[0]] if names else None


def region_backend():
    """The backend :mod:`implgraph.core.region` uses: ``$IMPLGRAPH_SOLVER`` if set, else the preferred one.

    Raises
    ------
    InputError
        ``IMPLGRAPH_SOLVER`` names a backend that is not available.
    """
    name = os.environ.get(SOLVER_ENV) or None
    backend = get_backend(name, capability="check")
    if backend is None or not hasattr(backend, "check"):
        from implgraph.core.errors import InputError
        raise InputError(f"{SOLVER_ENV}={name}: no such solver backend here "
                         f"(available: {', '.join(backends('check')) or 'none'})",
                         fix=f"unset {SOLVER_ENV} or set it to one of the available backends "
                             f"(pip install 'implgraph[cvc5]' for cvc5)")
    return backend


def region_backend_name() -> str:
    """The registry name of :func:`region_backend` (for evidence texts: "z3", "cvc5")."""
    return region_solver().name


class _RegionSolver:
    """A backend seen through the core's region interface (:class:`implgraph.core.backends.RegionSolver`):
    its registry name, the shared sympy translation into its terms, and its ``check``."""

    def __init__(self, name: str, backend):
        self.name, self.backend = name, backend

    def translate(self, cond, kinds, relax):
        from implgraph.solvers.sympy_front import SympyTranslator
        t = SympyTranslator(self.backend.terms, kinds, relax)
        f = t.cond(cond)
        return f, tuple(t.side), t.exact, dict(t.vars)

    def check(self, formulas, timeout_ms, variables, logic=None):
        return self.backend.check(formulas, timeout_ms, variables, logic=logic)


_REGION_SOLVERS: dict = {}


_CHOSEN: dict = {}   # the solver chosen, by ($IMPLGRAPH_SOLVER, the registered backends): every region question asks


def region_solver() -> _RegionSolver:
    """:func:`region_backend` through the core's interface (the provider this package registers); the choice is
    made once for the same ``$IMPLGRAPH_SOLVER`` and the same registered backends (every solver question asks)."""
    key = (os.environ.get(SOLVER_ENV) or None, tuple(BACKENDS.items()))
    solver = _CHOSEN.get(key)
    if solver is not None:
        return solver
    backend = region_backend()
    name = next((n for n, b in BACKENDS.items() if b is backend), "solver")
    solver = _REGION_SOLVERS.get(name)
    if solver is None or solver.backend is not backend:
        solver = _REGION_SOLVERS[name] = _RegionSolver(name, backend)
    if len(_CHOSEN) > 16:
        _CHOSEN.clear()
    _CHOSEN[(key[0], tuple(BACKENDS.items()))] = solver
    return solver


def _forget_abstractions() -> None:
    from implgraph.solvers import sympy_front
    sympy_front.forget_abstractions()


_core_backends.register(region_solver, forget=_forget_abstractions)
