"""``sympy.simplify``, memoised in the process: the engine simplifies the same expressions again and
again (a tight f, a certificate's values, a raw target: 2,373 calls on 297 distinct expressions in a
whole ``implgraph verify``), and one call can take a tenth of a second.

The result is the one ``sympy.simplify`` gives for the expression (the first call's; sympy's own
answer for an expression does not depend on earlier calls).
"""

from __future__ import annotations

import functools

import sympy

__all__ = ["simplified"]


@functools.lru_cache(maxsize=8192)
def _memo(e):
    return sympy.simplify(e)


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
        return sympy.simplify(e)
