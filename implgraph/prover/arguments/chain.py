"""``chain``: A declares a finite level X's, then X's bound towards B (docs/arguments/chain.md).

A declares its level X's wherever finite (``FiniteLevelOf``, the same scale and direction, no parameters), so a
table with A <= T has X <= T, and X's bound towards B holds for A. Tight where X's bound is, with a binary family,
and A's finite condition is a cap on each increase that spreading each value over m = 3^ceiling(T) buckets meets
(``increase_cap="-log(p)"``: e^(q/p - 1) <= e^(T - 1) < m <= m/p). A composite: its certificate is the two parts'.

Where X's supremum is derived piece by piece beside its bound, each piece is chained (and the supremum is A's,
each piece attained on its family split so) only where the supremum is signed at least B's strongest level on the
condition: a table of one class (B there at its strongest) is covered only so, since the chain is not an argument on
every table. A chord's piece is the chord of a convex phi at 1, so at least phi(1); for a class's KL divergence,
((N - 1) T log T + lo log lo)/N with lo = N - (N - 1) T >= 0 needs x log x >= x - 1, which the solver's abstraction
of log does not know: :func:`implgraph.prover.log_tangents.at_least` signs it by the tangents of log at 1. Unsigned,
the piece equal to X's bound is chained alone, tight where its condition holds.
"""

from __future__ import annotations

from dataclasses import replace

import sympy

from implgraph.core import methods
from implgraph.definitions.capabilities import FiniteLevelOf
from implgraph.prover.answer import Bound, T
from implgraph.prover.registry import certificate_parts
from implgraph.prover.log_tangents import at_least
from implgraph.prover.shapes import lowest_raw
from implgraph.prover.tables import CAP_SPLIT, split

METHOD = methods.CHAIN
#: where the prover tries it (it has no handler of its own)
TRIED = ("by the prover (`engines/prove.py`) where A declares a finite level: the registered arguments then run for "
         "that level towards B")
_NOT_INNER = (methods.MIN.name, methods.FINITE_LEVEL_OF.name)


def finite_level_chain(a, b, b_params, region, N, a_classes=None, b_classes=None):
    """The chain's :class:`Bound` (module notes); None where no bound of X towards B is derived here."""
    from implgraph.definitions import get
    from implgraph.prover.search import tight_bound
    finite = a.declared(FiniteLevelOf)
    if finite is None or a.params:
        return None
    x = get(finite.name)
    if x.scale != a.scale or x.stronger != a.stronger or x.params:
        return None
    inner = tight_bound(x, b, {}, b_params, region, N, a_classes, b_classes)
    if inner is None or inner.parts or inner.method in _NOT_INNER:
        return None
    pieces = inner.exact.parts if inner.exact is not None and not inner.tight else None
    if inner.exact is not None and not (pieces and all(not p.parts and p.exact is None for _, p in pieces)):
        return None
    first = Bound(T, False, methods.FINITE_LEVEL_OF.name,
                  f"{a.name} declares that its optimal level is {x.name}'s wherever it is finite, in the same units: "
                  f"a table satisfying A at level alpha has {x.name}'s level <= alpha")
    if pieces and not at_least(region, inner.exact.upper, lowest_raw(b)):
        # the supremum not signed above B's strongest level on the condition (a table of one class would not be
        # covered): the piece that is X's bound itself, tight where its condition holds, if there is one
        same = [(cond, p) for cond, p in pieces if p.tight and p.upper == inner.upper]
        if not same:
            return _chained(a, x, b, finite, first, replace(inner, exact=None))
        cond, piece = same[0]
        return _chained(a, x, b, finite, first, replace(piece, attained_where=sympy.And(cond, piece.attained_where)))
    if pieces:      # X's supremum piece by piece beside its bound: the chain of the bound, and of each piece
        out = _chained(a, x, b, finite, first, replace(inner, exact=None))
        parts = [(cond, _chained(a, x, b, finite, first, piece)) for cond, piece in pieces]
        tight = all(p.tight for _, p in parts)
        out.exact = Bound(inner.exact.upper, tight, METHOD.name,
                          f"{first.argument}; and {x.name} => {b.name} piece by piece: {inner.exact.argument}",
                          checks=inner.exact.checks, parts=parts, buckets=2 * CAP_SPLIT if tight else None)
        return out
    return _chained(a, x, b, finite, first, inner)


def _chained(a, x, b, finite, first, inner):
    """The chain's :class:`Bound` of A => X (``first``) and X's bound ``inner`` towards B (module notes)."""
    spread = finite.increase_cap == "-log(p)" and inner.buckets is None and inner.build is not None
    arg = f"{first.argument}; and {x.name} => {b.name} ({inner.method}): {inner.argument}"
    if inner.tight and spread:
        arg += (f"; attained: {x.name}'s attaining table with each bucket split into m = 3^ceiling(T) equal buckets "
                "keeps every ratio and distance, and each increase q/p - 1 <= T - 1 is then below -ln(p/m) >= ln m "
                f"> T, so {a.name}'s cap holds and its level is {x.name}'s")

        return Bound(inner.upper, True, METHOD.name, arg, build=split(inner.build), checks=inner.checks,
                     parts=[(sympy.true, first), (sympy.true, inner)], buckets=2 * CAP_SPLIT,
                     attained_where=inner.attained_where)
    return Bound(inner.upper, False, METHOD.name, arg + " (an upper bound; tightness not derived)", checks=inner.checks,
                 parts=[(sympy.true, first), (sympy.true, inner)])


@certificate_parts(METHOD, whole=True)
def chain_certificate(a, b, a_params, b_params, a_classes, b_classes, region, N, bound):
    """A => X (finite-level-of, U = T), then X => B: each part's certificate, inside one."""
    from implgraph.definitions import get
    from implgraph.prover.certificate import FORMAT, certificate
    x = get(a.declared(FiniteLevelOf).name)
    (_, first), (_, inner) = bound.parts
    parts = [certificate(a, x, a_params, {}, a_classes, a_classes, region, N, first),
             certificate(x, b, {}, b_params, a_classes, b_classes, region, N, inner)]
    fam = parts[1].get("tightness")
    # (X's family: blocks of binary rows, or a chord's rows, re-checked by the lemma with the chord's part)
    tight = bool(bound.tight and fam and (fam.get("blocks") or fam.get("rows")) and not fam.get("split"))
    return {"format": FORMAT, "method": METHOD.name, "symbols": parts[1]["symbols"],
            "domain": list(dict.fromkeys(c for p in parts for c in p["domain"])), "A": parts[0]["A"],
            "B": parts[1]["B"], "upper": str(bound.upper), "tight": tight, "argument": bound.argument,
            "parts": parts,
            # X's attaining table, each bucket split into 3^ceiling(T) equal ones (A's cap on each increase)
            "tightness": {**fam, "split": str(CAP_SPLIT)} if tight else None}
