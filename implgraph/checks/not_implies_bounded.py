"""The refuter's bounded check of ``kind: not-implies`` claims (:mod:`implgraph.checks.not_implies`).

At every small parameter point (N <= 6, at most 12 points) inside the claim's condition, the refuter
(:func:`implgraph.engines.refute.find_witness`) looks for a binary table where A's level is finite and B's
infinite: the non-implication at each of those parameter values, a bounded check that states its bound.
"""

from __future__ import annotations

import itertools

import sympy

from implgraph.checks.common import context_max_n
from implgraph.engines.refute import find_witness
from implgraph.engines.witness import witness_json
from implgraph.io.theorems import Edge

__all__ = ["generalise"]


def generalise(edge: Edge, context=None):
    """For every parameter point with N <= 6 (at most 12), a table where A's level is finite and B's
    infinite (the refuter, f = None): the non-implication at each of those parameter values.

    Parameters
    ----------
    edge : Edge
        The claim.
    context : dict, optional
        The run's shared context (its largest N).

    Returns
    -------
    dict or None
        ``text``, ``found``, ``points``, ``all_refuted``, ``bound`` and the ``first`` witness; None when
        the check does not apply (class scope, a real parameter, no parameter point).
    """
    if edge.a.scope == "class" or edge.b.scope == "class":
        return None
    found_points = _generalise_points(edge, context)
    if found_points is None:
        return None
    ints, hi, points = found_points
    if not points:
        return None
    found, missing, first = 0, [], None
    for pt in points:
        r = _refute_at(edge, pt, ints, canonical=first is None)  # only the first witness is shown
        if r is not None:
            found += 1
            if first is None:
                first = witness_json(r.witness, {str(k): v for k, v in pt.items()})
        else:
            missing.append(", ".join(f"{k} = {v}" for k, v in pt.items()))
    bound = f"N <= {hi}"
    text = (f"the refuter found, for {found} of {len(points)} parameter points with {bound}, a binary table "
            f"where A's level is finite and B's infinite")
    if missing:
        text += f" (none found at: {'; '.join(missing[:3])})"
    return {"text": text, "found": found, "points": len(points), "all_refuted": found == len(points),
            "bound": bound, "first": first}


def _generalise_points(edge: Edge, context=None):
    """The parameter points of :func:`generalise`.

    Parameters
    ----------
    edge : Edge
        The claim.
    context : dict, optional
        The run's shared context (its largest N).

    Returns
    -------
    tuple or None
        ``(ints, hi, points)``: the integer parameters (N first), the largest N tried, and at most 12
        points inside the claim's condition where every subset size is between 1 and N - 1; None when a
        real parameter other than the levels is free.
    """
    a, b = edge.a.definition, edge.b.definition
    ints = [s for s, k in edge.kinds.items() if k == "integer"]
    if not any(s.name == "N" for s in ints):
        ints.append(sympy.Symbol("N", integer=True))
    ints.sort(key=lambda s: (s.name != "N", s.name))
    reals = [s for s, k in edge.kinds.items() if k == "real" and s not in (edge.a.level, edge.b.level)]
    if reals:
        return None
    hi = min(context_max_n(context), 6)
    points = []
    for combo in itertools.product(range(0, hi + 1), repeat=len(ints)):
        pt = dict(zip(ints, map(sympy.Integer, combo)))
        if pt[ints[0]] < 2:
            continue
        if edge.region.contains(pt) is not True:
            continue
        ok = True
        for d, ps in ((a, edge.a.params), (b, edge.b.params)):
            for v in (v for k, v in ps.items() if k not in d.words):     # a word (EMD's ground) is no size
                v = sympy.sympify(v).subs(pt)
                if not (1 <= int(v) <= int(pt[ints[0]]) - 1):
                    ok = False
        if ok:
            points.append(pt)
        if len(points) >= 12:
            break
    return ints, hi, points


def _refute_at(edge: Edge, pt, ints, canonical):
    """The refuter's binary table at one parameter point of :func:`generalise`.

    Parameters
    ----------
    edge : Edge
        The claim.
    pt : dict
        The parameter point.
    ints : list of sympy.Symbol
        The integer parameters, N first.
    canonical : bool
        Ask for the canonical witness (the one shown).

    Returns
    -------
    object or None
        The refuter's result (status ``refuted``), or None when no table is found.
    """
    a, b = edge.a.definition, edge.b.definition
    Nv = int(pt[ints[0]])
    aps = {k: str(v) if k in a.words else int(sympy.sympify(v).subs(pt)) for k, v in edge.a.params.items()}
    bps = {k: str(v) if k in b.words else int(sympy.sympify(v).subs(pt)) for k, v in edge.b.params.items()}
    opts = [None]
    if a.needs_classes or b.needs_classes:
        spec = edge.a.classes or edge.b.classes or {}
        lo = int(sympy.sympify(spec.get("min_size", 1)).subs(pt))
        top = spec.get("max_size")
        # two classes, then (every partition counts) the table of one class
        opts = ([[lo, Nv - lo]] if 2 * lo <= Nv else []) + (
            [[Nv]] if lo <= Nv and (top is None or Nv <= int(sympy.sympify(top).subs(pt))) else [])
    for classes in opts:
        r = find_witness(a, b, None, N=Nv, a_params=aps, b_params=bps, classes=classes, timeout_ms=1000,
                         canonical=canonical)
        if r.status == "refuted":
            return r
    return None
