"""The solver a :class:`~implgraph.core.region.Region` asks: an interface declared here, filled from above.

The core knows no solver. It declares what a region needs (:class:`RegionSolver`) and keeps a registry of one
provider, in the manner of pysmt's solver factory; :mod:`implgraph.solvers` registers its provider when it is
imported, and ``import implgraph`` imports it, so every region finds one. A provider is a function of no
arguments that returns the solver to ask now (``IMPLGRAPH_SOLVER`` may name another between two calls), and may
come with a ``forget`` function that drops what its translations keep between questions.

Examples
--------
>>> import implgraph
>>> get().name in ("z3", "cvc5")
True
"""

from __future__ import annotations

from typing import Callable, Protocol

__all__ = ["RegionSolver", "Untranslatable", "register", "get", "forget"]


class Untranslatable(Exception):
    """A sympy expression outside the fragment the solver understands."""


class RegionSolver(Protocol):
    """What a region asks of a solver.

    Attributes
    ----------
    name : str
        The solver's registry name ("z3"); answers are kept per name.
    """

    name: str

    def translate(self, cond, kinds: dict, relax: bool) -> tuple:
        """``(formula, side conditions, exact, variables)`` of a sympy condition over ``kinds``
        (``{Symbol: "real" | "integer"}``); ``relax`` reads integer symbols as reals. ``exact`` is False once an
        abstraction or the relaxation was used (then only unsat is meaningful); ``variables`` maps each symbol
        (and each abstracted sub-expression) to its solver term. Raises :class:`Untranslatable`."""

    def check(self, formulas, timeout_ms, variables, logic=None) -> tuple:
        """``(status, model)``: status ``"sat"``, ``"unsat"`` or ``"unknown"`` (a timeout is unknown, never a proof);
        when sat, ``{key: sympy.Rational}`` for the given variables, or None when a value is irrational."""


_PROVIDER: list = []   # [(provider, forget)] of the one registered provider


def register(provider: Callable[[], RegionSolver], forget: Callable[[], None] | None = None) -> None:
    """Make ``provider()`` the solver every region asks (a later registration replaces an earlier one)."""
    _PROVIDER[:] = [(provider, forget)]


def get() -> RegionSolver:
    """The solver to ask now.

    Raises
    ------
    RuntimeError
        No provider is registered (``import implgraph`` registers :mod:`implgraph.solvers`'s).
    """
    if not _PROVIDER:
        raise RuntimeError("no region solver is registered: import implgraph.solvers first")
    return _PROVIDER[0][0]()


def forget() -> None:
    """Drop whatever the provider's translations keep between questions (abstraction names)."""
    if _PROVIDER and _PROVIDER[0][1] is not None:
        _PROVIDER[0][1]()
