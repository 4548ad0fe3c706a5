"""Solver backends behind one registry (pysmt style).

A backend module registers itself when it imports cleanly; :func:`get_backend` returns the
preferred available one (or the one named). Today there is one backend, :mod:`.z3_backend`;
another SMT solver would be a sibling module with the same functions
(``encode_satisfies``, ``encode_violates``, ``encode_infinite``, ``solve``).
"""

from __future__ import annotations

import importlib

__all__ = ["register_backend", "get_backend", "available_backends", "BACKENDS"]

BACKENDS: dict = {}
_PREFERENCE = ("z3",)
_MODULES = {"z3": "implgraph.solvers.z3_backend"}


def register_backend(name: str, module) -> None:
    """Register ``module`` (an object with the backend functions) under ``name``."""
    BACKENDS[name] = module


def _load_all() -> None:
    for name, modname in _MODULES.items():
        if name in BACKENDS:
            continue
        try:
            importlib.import_module(modname)
        except ImportError:  # the solver is not installed: skip it
            continue


def available_backends() -> list:
    _load_all()
    return [n for n in _PREFERENCE if n in BACKENDS] + [n for n in BACKENDS if n not in _PREFERENCE]


def get_backend(name: str | None = None):
    """The backend called ``name``, or the preferred available one; None if there is none."""
    _load_all()
    if name is not None:
        return BACKENDS.get(name)
    names = available_backends()
    return BACKENDS[names[0]] if names else None
