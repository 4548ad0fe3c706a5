"""``removal-cap``: every table of N >= 1/delta records is at B's strongest level; another argument's bound below
(docs/arguments/removal-cap.md).

B declares the fewest records from which every table is at its strongest level
(:class:`~implgraph.definitions.capability_strongest.StrongestFrom`; the central (eps, delta)-DP: ``N >= 1/delta``,
as the table's mean P and the table without record i, Q_i, differ by ``P(E) - Q_i(E) = (x_i(E) - Q_i(E))/N``, at most
1/N <= delta on every event E). Whatever A is, B's raw level is 1 (eps = 0) on every table of ``N >= n0`` records: a
fact of B alone, met by every table there, so that part of the claim is trivial and is said so, not counted as an
edge. Where the claim's condition leaves N on both sides of n0, the argument asks the other direct arguments (those
after it) for A => B, and answers ``U = Piecewise((1, N >= n0), (U', True))``: U' that bound's (its certificate the
one part, stated on ``N < n0``). Where no direct argument gives a bound, the prover's engine applies the same cap to
a composition's bound (:func:`capped_bound`), after its cheap search for a non-implication at small N, so that a
pair with no implication pays for no composition here. Where the other arguments' bound on the whole condition is tight, or
already 1 wherever ``N >= n0``, it is answered as it is (nothing to add). The bound is an upper bound: the first piece
is attained by every table, the second is as tight as its part (not claimed here).

The certificate (method ``removal-cap``) states n0, B's slack and the one-line identity; the checker
(:mod:`implgraph.certify.lemmas.removal_cap`) re-derives ``n0 delta >= 1`` from B's declared slack and re-checks the
part; the Coq theorem (:mod:`implgraph.kernel_coq.gen_removal_cap`) proves the first piece by
``BinaryTables.bp_removal_tv`` and the second by the part's own theorem.
"""

from __future__ import annotations

import sympy

from implgraph.core import methods
from implgraph.definitions.capability_strongest import strongest_from
from implgraph.prover.answer import NO_BOUND, Bound
from implgraph.prover.registry import argument, certificate_parts
from implgraph.prover.shapes import declared_slack, decide

METHOD = methods.REMOVAL_CAP
#: where it is tried: before every other direct argument (it asks them itself)
ORDER = 0.5

__all__ = ["bound", "least_records", "split_region", "capped_upper", "capped_bound", "removal_cap_certificate"]


def least_records(b, b_params):
    """``n0``: B's declared fewest records from which every table is at its strongest level, where B is an additive
    slack on record removal with a stated delta > 0; None otherwise."""
    d = declared_slack(b, b_params)
    if d is None or d <= 0:
        return None
    return strongest_from(b, b_params)


def split_region(region, N, n0):
    """The claim's condition with ``N < n0``: where the other argument's bound is asked."""
    return region.add(sympy.StrictLessThan(N, n0))


def capped_upper(N, n0, below):
    """``Piecewise((1, N >= n0), (below, True))``, a Piecewise ``below``'s pieces after the first (one flat Piecewise)."""
    rest = below.args if isinstance(below, sympy.Piecewise) else ((below, sympy.true),)
    return sympy.Piecewise((sympy.Integer(1), N >= n0), *rest)


def _applies(ctx):
    return ctx.a is not None and least_records(ctx.b, ctx.b_params) is not None


def _has_cap(region, upper, N, n0):
    """Is ``upper`` already at most 1 wherever ``N >= n0`` on the condition (decided)?"""
    return decide(region.add(N >= n0), sympy.Le(upper, 1)) is True


@argument(METHOD, order=ORDER, applies=_applies)
def bound(ctx):
    """``Piecewise((1, N >= n0), (U', True))`` (module notes) with U' the first answer of the direct arguments after
    this one, that bound as it is, or :data:`NO_BOUND` where none of them answers (the direct stage's answer then)."""
    from implgraph.prover.search import first_answer
    n0 = least_records(ctx.b, ctx.b_params)
    if decide(ctx.region, ctx.N >= n0) is not None:      # the condition is on one side of n0: nothing to split
        return None
    whole = first_answer(ctx, after=ORDER)
    # (none of the later arguments answers: the direct stage ends here, rather than asking them all again)
    return NO_BOUND if whole is None else capped_bound(ctx.b, ctx.b_params, ctx.region, ctx.N, whole)


def capped_bound(b, b_params, region, N, part):
    """``part`` (a bound of A => B on the claim's condition) with B's cap where ``N >= n0`` (module notes): the
    removal-cap :class:`Bound` whose one part is ``part`` on ``N < n0``; ``part`` as it is where B declares no cap,
    the condition is on one side of n0, or ``part`` is tight, has an exact supremum or is already at most 1 there. The
    prover's engine calls it on a composition's bound too (composition tries no part made of pieces)."""
    n0 = least_records(b, b_params)
    if part is None or part is NO_BOUND or n0 is None or decide(region, N >= n0) is not None:
        return part
    if part.tight or part.exact is not None or _has_cap(region, part.upper, N, n0):
        return part
    delta = declared_slack(b, b_params)
    text = (f"every table of N >= {n0} records meets {b.name} at level 0 (raw 1), whatever A is: B compares the "
            "table's mean P with Q_i, the table without record i, with an additive slack delta = "
            f"{delta}, and P(E) - Q_i(E) = (x_i(E) - Q_i(E))/N lies in [-1/N, 1/N], so |P(E) - Q_i(E)| <= 1/N <= "
            f"delta on every event E once N >= 1/delta = {n0} (trivial there: not an implication of A). Where "
            f"N < {n0}: ({part.method}) {part.argument}")
    return Bound(capped_upper(N, n0, part.upper), False, METHOD.name, text,
                 checks=[f"N >= {n0}: N delta >= 1 ({n0} * {delta} = {n0 * delta})"] + list(part.checks),
                 parts=[(sympy.Not(N >= n0), part)], uncapped=part)


@certificate_parts(METHOD, whole=True)
def removal_cap_certificate(a, b, a_params, b_params, a_classes, b_classes, region, N, bound):
    """The certificate: n0, B's slack, the identity, and the part's certificate on the condition with N < n0."""
    from implgraph.prover.certificate import FORMAT, certificate, side, symbols_and_domain
    n0 = least_records(b, b_params)
    (_, part), = bound.parts
    inner = certificate(a, b, a_params, b_params, a_classes, b_classes, split_region(region, N, n0), N, part)
    kinds, domain = symbols_and_domain(region, [*a_params.values(), *b_params.values(), *(a_classes or {}).values(),
                                                *(b_classes or {}).values()])
    out = {"format": FORMAT, "method": METHOD.name, "symbols": kinds, "domain": domain,
           "A": side(a, a_params, a_classes, N), "B": side(b, b_params, b_classes, N), "upper": str(bound.upper),
           "tight": False, "argument": bound.argument,
           "upper_certificate": {"lemma": METHOD.lemma, "least_records": str(n0),
                                 "identity": "P(E) - Q_i(E) = (x_i(E) - Q_i(E))/N, |x_i(E) - Q_i(E)| <= 1"},
           "parts": [inner], "tightness": None,
           "tightness_note": (f"U is 1 (B's strongest level, met by every table) where N >= {n0}; below, the part's "
                              "bound, an upper bound")}
    if "min_classes" in inner:
        out["min_classes"] = inner["min_classes"]
    return out
