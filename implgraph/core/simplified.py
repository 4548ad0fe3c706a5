"""``sympy.simplify``, memoised in the process: the engine simplifies the same expressions again and
again (a tight f, a certificate's values, a raw target: 2,373 calls on 297 distinct expressions in a
whole ``implgraph verify``), and one call can take a tenth of a second.

The result is the one ``sympy.simplify`` gives for an expression without ``Min`` or ``Max`` (sympy's own answer for
an expression does not depend on earlier calls). An expression with them is simplified by parts: each outermost
``Min``/``Max`` stands for a new symbol while the rest is simplified, and its arguments are simplified apart (a
``Min`` of three rational functions in a logarithm: 0.1 s instead of 0.7 s, the same value; ``sympy.simplify`` of
the whole compares the arguments pairwise and seldom finds a shorter form).

``sympy.simplify`` imports ``sympy.physics.units`` on every call, only to ask whether the expression
holds a physical ``Quantity`` (0.1-0.4 s, a quarter of a short command's time; ``sympy.solve`` likewise asks about a
``Unit``): :func:`solved` and :func:`plain_simplify` (unmemoised) are those calls for the rest of the engine, and
:func:`without_units` wraps a call of code that simplifies inside. While no module of
``sympy.physics`` is loaded no ``Quantity`` can exist, so that answer is no; there the call may run with
a placeholder module whose ``Quantity`` is a class without instances, removed again afterwards. Another
thread importing ``sympy.physics.units`` meanwhile would find the placeholder, so this is done only where
this process is the implgraph program (:data:`implgraph.core.program.RUNNING`, set by :func:`implgraph.cli.run`),
whose only threads are implgraph's, none importing anything from sympy.physics. A program that embeds implgraph
gets sympy's own call.
"""

from __future__ import annotations

import contextlib
import functools
import sys
import threading
import types

import sympy

from implgraph.core import program

__all__ = ["simplified", "substituted", "solved", "plain_simplify", "without_units"]


_UNITS = "sympy.physics.units"
_units_lock = threading.RLock()


@contextlib.contextmanager
def without_units():
    """While no module of ``sympy.physics`` is loaded (in the implgraph program's own process:
    :data:`implgraph.core.program.RUNNING`), a placeholder ``sympy.physics.units`` whose ``Quantity`` and ``Unit`` are
    classes without instances stands in for the module sympy's ``simplify`` and ``solve`` import only to ask whether an
    expression holds one; removed again afterwards. Elsewhere nothing is replaced."""
    if not program.RUNNING or "sympy.physics" in sys.modules:     # (a module of the package imports the package)
        yield
        return
    with _units_lock:
        placeholder = types.ModuleType(_UNITS, "no module of sympy.physics is loaded: nothing is a Quantity")
        placeholder.Quantity = type("Quantity", (), {})
        placeholder.Unit = type("Unit", (), {})
        mine = sys.modules.setdefault(_UNITS, placeholder) is placeholder
        try:
            yield
        finally:
            if mine and sys.modules.get(_UNITS) is placeholder:
                del sys.modules[_UNITS]


def _simplify(e):
    """``sympy.simplify(e)``, without importing ``sympy.physics.units`` when no unit can be in ``e`` (in the
    implgraph program's own process: :data:`implgraph.core.program.RUNNING`)."""
    with without_units():
        return sympy.simplify(e)


def solved(*args, **kwargs):
    """``sympy.solve(*args, **kwargs)``, without importing ``sympy.physics.units`` where no unit can be in the
    equations (as :func:`simplified`; the same answer: sympy asks the module only whether an expression holds a unit).
    """
    with without_units():
        return sympy.solve(*args, **kwargs)


def plain_simplify(e):
    """``sympy.simplify(e)`` without the memo (for one-off questions), without importing ``sympy.physics.units``
    where no unit can be in ``e``."""
    return _simplify(e)


def _extrema(e) -> list:
    """The ``Min`` and ``Max`` nodes of ``e`` that no other ``Min`` or ``Max`` holds, in order, each once."""
    found: dict = {}

    def walk(x):
        if isinstance(x, (sympy.Min, sympy.Max)):
            found.setdefault(x)
        else:
            for a in x.args:
                walk(a)
    walk(e)
    return list(found)


@functools.lru_cache(maxsize=8192)
def _memo(e):
    """:func:`_simplify`, where ``e`` holds no ``Min``/``Max``; else ``e`` with each outermost ``Min``/``Max`` as a
    placeholder symbol simplified, and each of their arguments simplified apart."""
    extrema = _extrema(e) if isinstance(e, sympy.Basic) else []
    if not extrema:
        return _simplify(e)
    names = {m: sympy.Dummy("extremum") for m in extrema}
    skeleton = _canonical_signs(_simplify(e.xreplace(names)))
    return skeleton.xreplace({d: m.func(*[_memo(a) for a in m.args]) for m, d in names.items()})


def _canonical_signs(e):
    """``e`` with each sum that stands as a factor of a product (or as its base raised to an integer power) written
    with the sign sympy calls canonical (:meth:`~sympy.core.expr.Expr.could_extract_minus_sign` false), the product's
    sign moved in front: ``X/(m - M)`` and ``-X/(M - m)``, equal values, print one way.

    ``sympy.simplify`` of an expression holding the placeholder symbols of :func:`_memo` returns one of such equal
    forms by the order of a set of those symbols, which follows Python's string hashing: without this, the same f
    printed differently from one run to the next.

    Examples
    --------
    >>> x, M, m = sympy.symbols("x M m")
    >>> _canonical_signs(x / (m - M)) == _canonical_signs(-x / (M - m))
    True
    """
    if not isinstance(e, sympy.Basic) or not e.args:
        return e
    args = [_canonical_signs(a) for a in e.args]
    if isinstance(e, sympy.Mul):
        sign, out = 1, []
        for f in args:
            base, ex = f.as_base_exp() if isinstance(f, sympy.Pow) else (f, sympy.S.One)
            if isinstance(base, sympy.Add) and ex.is_Integer and base.could_extract_minus_sign():
                base = -base
                if ex % 2:
                    sign = -sign
                f = sympy.Pow(base, ex) if ex != 1 else base
            out.append(f)
        return sympy.Mul(sign, *out) if sign == -1 else sympy.Mul(*out)
    return e.func(*args) if tuple(args) != e.args else e


def simplified(e):
    """``sympy.simplify(e)``, memoised (an unhashable argument is simplified without the memo).

    Examples
    --------
    >>> x = sympy.Symbol("x")
    >>> simplified((x**2 - 1) / (x - 1))
    x + 1
    """
    try:
        return _memo(e)
    except TypeError:
        return _simplify(e)


def substituted(e, values):
    """``e.subs(values)`` where a ``Min`` or ``Max`` whose arguments stay symbolic is not re-evaluated.

    sympy re-evaluates every ``Min``/``Max`` a substitution rebuilds, comparing each pair of symbolic
    arguments through the assumptions system (a twentieth of a second for a three-argument ``Min`` of
    rational functions, most of the time of some checks). Here the arguments are substituted one by one;
    equal arguments are merged and numeric ones reduced to their extreme exactly, and a single remaining
    argument is returned; other arguments are kept as they are (the same value: an argument sympy could
    show never to be the extreme may remain). A node without ``Min``/``Max`` is ``subs``'s.

    Examples
    --------
    >>> N, b = sympy.Symbol("N", integer=True), sympy.Symbol("beta", nonnegative=True)
    >>> substituted(sympy.Min((N - 1)/N, b/(b + 1), b - b/N), {N: 4})
    Min(3/4, 3*beta/4, beta/(beta + 1))
    >>> substituted(sympy.Min((N - 1)/N, b/(b + 1), b - b/N), {N: 4, b: 1})
    1/2
    """
    if not e.has(sympy.Min, sympy.Max):
        return e.subs(values)
    if isinstance(e, (sympy.Min, sympy.Max)):
        args = list(dict.fromkeys(substituted(x, values) for x in e.args))
        numbers = [x for x in args if x.is_number and x.is_comparable]
        if len(numbers) == len(args):
            return e.func(*args)
        if len(numbers) > 1:
            keep = e.func(*numbers)
            if keep in numbers:     # (numbers sympy cannot order, e.g. one value written two ways, all stay)
                args = [x for x in args if x not in numbers or x == keep]
        if len(args) == 1:
            return args[0]
        return e.func(*args, evaluate=False)
    return e.func(*(substituted(x, values) for x in e.args))
