"""The prover's registry of arguments: one handler per proof argument, tried in declared order.

An argument is one module of :mod:`implgraph.prover.arguments` (every module there is imported when the registry is
first read; nothing else lists them). It registers

- its **handler** with :func:`argument`: ``bound(ctx) -> Bound | NO_BOUND | None`` for a
  :class:`~implgraph.prover.context.ProofContext`, tried where its declared shape ``applies(ctx)`` holds (a predicate
  on the sides' declarations: family, sides, subset size, class distance, capabilities; never a definition's name), in
  the order ``order`` among the arguments of its ``stage``;
- its **certificate parts** with :func:`certificate_parts`: ``upper(cert, ctx)`` writes the checker's lemma data into
  the certificate (``upper_certificate``, and any domain premise), ``family(cert, ctx)`` returns the tightness family
  of a tight bound (None: no family); a composite argument (the parts are other certificates) registers ``whole``
  instead, which builds the whole certificate.

The method's name comes from :mod:`implgraph.core.methods` (a :class:`~implgraph.core.methods.Method`); the checker
registers the lemma it cites in :mod:`implgraph.certify.lemmas`.

Stages: ``"direct"`` (:func:`implgraph.prover.search.tight_bound`, the first definite answer wins) and ``"ceiling"``
(:func:`implgraph.prover.search.ceiling_bound`, B's level on every table whatever A is, the prover's last resort), and
``"supremum"`` (:func:`implgraph.prover.search.supremum_bound`: B's own supremum on every table of N records, attained,
read only to tell that an implication proved at it says nothing of A; it never caps another bound).

Examples
--------
A new argument, ``implgraph/prover/arguments/my_argument.py``::

    from implgraph.core import methods
    from implgraph.prover.answer import Bound, T, final
    from implgraph.prover.registry import argument, certificate_parts
    from implgraph.prover.shapes import compares

    @argument(methods.MY_METHOD, order=125, applies=lambda ctx: compares(ctx.a, "pairwise") and ...)
    def bound(ctx):
        ...     # Bound(U, tight, methods.MY_METHOD.name, argument_text, build=..., checks=[...]); final(None) to end
                # the search without a bound, None where the case is not this argument's after all

    @certificate_parts(methods.MY_METHOD, family=lambda cert, ctx: {"blocks": [...]})
    def upper_certificate(cert, ctx):
        cert["upper_certificate"] = {"lemma": methods.MY_METHOD.lemma, "multipliers": {...}}

>>> from implgraph.prover import registry
>>> [arg.method.name for arg in registry.arguments()][:2]
['removal-cap', 'class-size']
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from typing import Callable

from implgraph.core.methods import Method

__all__ = ["Argument", "Parts", "argument", "arguments", "certificate_parts", "parts_of", "STAGES"]

#: the stages a handler may belong to
STAGES = ("direct", "ceiling", "supremum")


@dataclass(frozen=True)
class Argument:
    """A registered handler: ``bound(ctx)`` for ``method``, tried where ``applies(ctx)`` holds, at ``order``."""

    method: Method
    order: float
    applies: Callable
    bound: Callable
    stage: str = "direct"
    module: str = ""


@dataclass(frozen=True)
class Parts:
    """What one method adds to its certificate (see the module notes)."""

    upper: Callable | None = None
    family: Callable | None = None
    whole: Callable | None = None


_ARGUMENTS: list = []
_PARTS: dict = {}
_loaded = False


def argument(method: Method, *, order: float, applies: Callable, stage: str = "direct"):
    """Register the decorated ``bound(ctx)`` as ``method``'s handler (see the module notes).

    Raises
    ------
    ValueError
        For a stage other than :data:`STAGES`, or an ``order`` another handler of the stage has (the order decides
        which argument answers a case two of them claim: it must be explicit).
    """
    if not isinstance(method, Method):
        raise TypeError(f"argument: {method!r} is no implgraph.core.methods.Method; fix: declare it there")
    if stage not in STAGES:
        raise ValueError(f"argument {method.name}: stage {stage!r}; fix: one of {', '.join(STAGES)}")

    def register(bound):
        clash = next((x for x in _ARGUMENTS if x.stage == stage and x.order == order), None)
        if clash is not None and (clash.module, clash.bound.__name__) != (bound.__module__, bound.__name__):
            raise ValueError(f"argument {method.name}: order {order} is {clash.method.name}'s; fix: another order")
        _ARGUMENTS[:] = [x for x in _ARGUMENTS if x is not clash]
        _ARGUMENTS.append(Argument(method, order, applies, bound, stage, bound.__module__))
        return bound
    return register


def certificate_parts(method: Method, *, family: Callable | None = None, whole: bool = False):
    """Register the decorated ``upper(cert, ctx)`` (and ``family(cert, ctx)``) as ``method``'s certificate parts;
    with ``whole=True`` the decorated function builds the whole certificate instead, ``whole(a, b, a_params,
    b_params, a_classes, b_classes, region, N, bound)``."""
    if not isinstance(method, Method):
        raise TypeError(f"certificate_parts: {method!r} is no implgraph.core.methods.Method; fix: declare it there")

    def register(fn):
        _PARTS[method.name] = Parts(whole=fn) if whole else Parts(fn, family)
        return fn
    return register


def _load():
    global _loaded
    if not _loaded:
        _loaded = True
        from implgraph.prover import arguments as package
        for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name):
            importlib.import_module(f"{package.__name__}.{info.name}")


def arguments(stage: str = "direct") -> list:
    """The registered handlers of ``stage``, in their declared order."""
    _load()
    return sorted((x for x in _ARGUMENTS if x.stage == stage), key=lambda x: x.order)


def parts_of(name: str) -> Parts | None:
    """The certificate parts registered for the method called ``name``, or None."""
    _load()
    return _PARTS.get(name)
