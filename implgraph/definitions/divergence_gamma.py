"""The ratio a total variation or hockey-stick level compares at (its gamma), read off a declared divergence."""

from __future__ import annotations

import sympy

__all__ = ["gamma_of"]


def gamma_of(div, compares=None, least=1, tv=True):
    """The ratio gamma of a declared divergence (:class:`implgraph.definitions.divergences.Divergence`).

    Parameters
    ----------
    div : Divergence or None
        The declaration (:func:`implgraph.definitions.divergences.divergence_of`).
    compares : str or None
        What it must compare (``pairs``, ``removal``, ...); None: anything.
    least : number
        The least gamma accepted.
    tv : bool
        Whether a total variation counts (its gamma is 1).

    Returns
    -------
    sympy.Expr or None
        1 for a total variation (where ``tv``), a hockey-stick's declared order where it is a real finite number
        >= ``least``; None otherwise.
    """
    if div is None or (compares is not None and div.compares != compares):
        return None
    if div.kind == "tv":
        return sympy.Integer(1) if tv else None
    if div.kind != "hockey-stick" or div.order is None:
        return None
    g = sympy.sympify(div.order)
    return g if g.is_number and g.is_finite and g.is_real and bool(g >= least) else None
