"""``removal-scaling``: a record-removal total variation or hockey-stick against a distance between records or on
record removal, tight for every N (docs/proofs/tight-removal-scaling.md).

B declares the total variation or the hockey-stick at gamma_B >= 1 (:class:`~implgraph.definitions.divergences.
Divergence`, kind ``tv`` = the hockey-stick at 1, or ``hockey-stick``) between the table's mean P and the mean Q_i of
the table without record i, both ways. A declares the total variation or a hockey-stick at gamma_A <= gamma_B:

``pairs`` (A between every two records)
    P = (x_i + (N - 1) Q_i)/N, so N (P - gamma Q_i) = x_i - (gamma N - N + 1) Q_i <= x_i - gamma_A Q_i and
    N (Q_i - gamma P) = (N - gamma (N - 1)) Q_i - gamma x_i <= Q_i - gamma_A x_i bucket by bucket (the coefficients'
    differences (gamma - 1)(N - 1) + gamma - gamma_A >= 0 multiply Q_i, x_i >= 0); summing the positive parts,
    B <= E_gamma_A(x_i || Q_i)/N and E_gamma_A(Q_i || x_i)/N, each at most the largest over the records j != i, Q_i
    being their mean (an f-divergence is jointly convex): U = T/N. Attained by one record at (T, 1 - T) and N - 1 at
    (0, 1): A's level T, B's T/N (removing the first).
``removal`` (A of the same pairs, a smaller gamma)
    max(p - gamma_B q, 0) <= max(p - gamma_A q, 0) bucket by bucket: U = T. Attained by one record at
    (N T, 1 - N T) and N - 1 at (0, 1) where N T <= 1 (every level A takes: a removal distance is at most 1/N): both
    levels T.

The certificate (method ``removal-scaling``) is re-checked by :mod:`implgraph.certify.lemmas.removal_scaling`.
"""

from __future__ import annotations

import sympy

from implgraph.core import methods
from implgraph.definitions.divergences import divergence_of
from implgraph.prover import registry

METHOD = methods.REMOVAL_SCALING

__all__ = ["gamma_of", "case_of", "bound"]


def gamma_of(div):
    """The hockey-stick's gamma (total variation: 1) as a number, else None."""
    if div is None:
        return None
    if div.kind == "tv":
        return sympy.Integer(1)
    if div.kind == "hockey-stick" and getattr(div.order, "is_number", False):
        return div.order
    return None


def case_of(a_div, b_div):
    """``"pairs"`` or ``"removal"`` where the argument applies (module notes), else None."""
    ga, gb = gamma_of(a_div), gamma_of(b_div)
    if ga is None or gb is None or b_div.compares != "removal" or a_div.compares not in ("pairs", "removal"):
        return None
    if (sympy.Ge(gb, ga) is not sympy.true) or (sympy.Ge(ga, 1) is not sympy.true):
        return None
    if a_div.compares == "removal" and (a_div.kind, a_div.order) == (b_div.kind, b_div.order):
        return None         # the same level: not this argument's
    return a_div.compares


def bound(ctx):
    from implgraph.prover.answer import T, Bound
    a_div, b_div = divergence_of(ctx.a, ctx.a_params), divergence_of(ctx.b, ctx.b_params)
    case = case_of(a_div, b_div)
    if case is None:
        return None
    N = ctx.N
    if case == "pairs":
        text = ("B compares the table's mean P with the mean Q_i without record i, both ways, by the hockey-stick at "
                f"gamma = {gamma_of(b_div)} (total variation: 1); P = (x_i + (N - 1) Q_i)/N, so N (P - gamma Q_i) = "
                "x_i - (gamma N - N + 1) Q_i <= x_i - gamma_A Q_i and N (Q_i - gamma P) = (N - gamma (N - 1)) Q_i - "
                f"gamma x_i <= Q_i - gamma_A x_i (gamma_A = {gamma_of(a_div)} <= gamma), so B <= E_gamma_A(x_i, Q_i)/N "
                "either way, at most A's level over the records j != i by joint convexity (Q_i is their mean): "
                "B <= T/N; attained by one record at (T, 1 - T) and N - 1 at (0, 1) (A's level T, B's T/N)")
        return Bound(T / N, True, METHOD.name, text, checks=["gamma_A <= gamma_B, both >= 1: True"],
                     attained_where=sympy.true)
    text = (f"A and B compare the same pairs (record removal) by hockey-sticks at gamma_A = {gamma_of(a_div)} <= "
            f"gamma_B = {gamma_of(b_div)} (total variation: 1): max(p - gamma_B q, 0) <= max(p - gamma_A q, 0) "
            "bucket by bucket, B <= T; attained by one record at (N T, 1 - N T) and N - 1 at (0, 1) where N T <= 1 "
            "(every level A takes on N records: a removal distance is at most 1/N)")
    return Bound(T, True, METHOD.name, text, checks=["gamma_A <= gamma_B, both >= 1: True"],
                 attained_where=sympy.Le(N * T, 1))


def certificate_parts(cert, ctx):
    from implgraph.definitions import get
    a_div, b_div = (divergence_of(get(cert[k]["definition"]), cert[k].get("params")) for k in ("A", "B"))
    cert["upper_certificate"] = {"lemma": METHOD.lemma, "case": case_of(a_div, b_div)}


def certificate_family(cert, ctx):
    """The attaining table: one record at (T, 1 - T) (pairs) or (N T, 1 - N T) (removal), N - 1 at (0, 1)."""
    case = (cert.get("upper_certificate") or {}).get("case")
    if case == "pairs":
        return {"rows": [{"count": "1", "value": "T", "class": "E1"}, {"count": "N - 1", "value": "0", "class": "E2"}],
                "domain": []}
    return {"rows": [{"count": "1", "value": "N*T", "class": "E1"}, {"count": "N - 1", "value": "0", "class": "E2"}],
            "domain": ["N*T <= 1"]}


registry.certificate_parts(METHOD, family=certificate_family)(certificate_parts)


@registry.argument(METHOD, order=200.5, applies=lambda ctx: case_of(divergence_of(ctx.a, ctx.a_params),
                                                                    divergence_of(ctx.b, ctx.b_params)) is not None)
def handler(ctx):
    """B a removal total variation or hockey-stick, A one at a smaller gamma between records or on removal."""
    return bound(ctx)
