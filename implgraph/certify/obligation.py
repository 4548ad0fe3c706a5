"""What the checker's lemmas are made of: an :class:`Obligation` (a polynomial inequality to decide) and the
small helpers the lemma modules (:mod:`implgraph.certify.lemmas`) share to read a certificate's sides and bound.

Each obligation is ``target >= 0`` (or ``> 0``) under its hypotheses and the certificate's domain,
optionally with multipliers: ``target = sum(lambda_i * fact_i)`` identically, every ``lambda_i >= 0``
(decided by :func:`implgraph.certify.solve.discharge`).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from fractions import Fraction

__all__ = ["Obligation", "VARIABLES", "two_sided", "multipliers", "size", "upper_is", "ratio_obligations", "same_text",
           "integer_valued", "existence", "min_of", "components_among", "any_partition", "is_T", "same_partition",
           "class_mass_setting", "slack", "two_sided_subsets"]

#: the lemmas' own real variables (multipliers may mention them by these names): the vertex's
#: ``u_``, ``m_``, ``e_``, ``v_``, the bucket's minimum ``a_``, maximum ``b_`` and mean ``m_`` (of
#: ``extreme-means-supremum``: two extreme means ``a_``, ``b_``) and its integer ``q_``
VARIABLES = ("u_", "m_", "e_", "v_", "a_", "b_", "q_")


@dataclass
class Obligation:
    """``target >= 0`` (``strict``: ``> 0``) under ``hypotheses`` (``[(">=", g)]``: each g >= 0).

    ``target`` and the hypotheses are polynomials of the certificate's
    :class:`implgraph.certify.expr.Reader` ring; ``facts`` name the hypotheses multipliers refer to,
    ``multipliers`` (from the certificate) the claimed ``target = sum(lambda_i * fact_i)``.
    """

    name: str
    target: object
    hypotheses: list = field(default_factory=list)
    facts: dict | None = None
    strict: bool = False
    multipliers: dict | None = None


def two_sided(side) -> bool:
    """Is the side declared two-sided (never by default: a side without ``sides`` is not)?"""
    return side.get("sides") == "two-sided"


def multipliers(data, rd):
    """The certificate's multipliers ``{identity: {fact: polynomial}}`` read in the ring of ``rd``."""
    return {k: {f: rd.poly(x) for f, x in v.items()} for k, v in (data.get("multipliers") or {}).items()}


def size(side, rd):
    """A subset side's size as a polynomial of ``rd``'s ring (None for a side without one)."""
    s = side.get("size")
    return None if s is None else rd.poly(s)


def upper_is(cert, rd, num, den) -> bool:
    """Is the certificate's U the quotient ``num / den`` (polynomials of ``rd``'s ring), compared as quotients?"""
    try:
        P, Q = rd.ratio(cert["upper"])
    except ValueError:
        return False
    return P * den == Q * num


def ratio_obligations(label, num, den, U, hyps):
    """num/den <= U = P/Q with den > 0 and Q > 0: ``P den - Q num >= 0`` (polynomial)."""
    P, Q = U
    out = [Obligation(f"{label}: denominator > 0", den, hyps, strict=True)]
    if Q != 1:
        out.append(Obligation(f"{label}: denominator of U > 0", Q, hyps, strict=True))
    return out + [Obligation(f"{label} <= U", P * den - Q * num, hyps)]


def same_text(rd, a, b):
    """Are two expressions the same tree (parentheses and spacing aside)?"""
    return ast.dump(rd.tree(a)) == ast.dump(rd.tree(b))


def integer_valued(polys, kinds):
    """Does every polynomial have integer coefficients and only integer symbols (N is one)?"""
    ints = {n for n, k in kinds.items() if k == "integer"} | {"N"}
    return all(all(c.denominator == 1 for c in p.coeffs())
               and all(str(x) in ints for x in p.ring.gens if p.degree(x) > 0) for p in polys)


def existence(s, N, sets):
    """The domain must give what a lemma's premises assume: ``s >= 1`` and room for ``sets`` sets of >= s
    records (``sets * s <= N``); elsewhere the bound would be claimed for sizes no table has."""
    return [Obligation("on the domain: s >= 1", s - 1),
            Obligation(f"on the domain: {sets}*s <= N" if sets > 1 else "on the domain: s <= N", N - sets * s)]


def min_of(cert, rd, first, second):
    """U's two ``Min`` components as ``(P, Q)``, in the order of the expected ``first`` and ``second``
    (each a pair of polynomials ``(num, den)``, compared as quotients), whichever order U writes them in;
    or ``(P, None)`` when U is one of the two alone (each component is an upper bound by its own
    obligation, so either alone is one too: the prover writes one alone where the domain makes it the
    smaller); None otherwise."""
    try:
        comps = rd.ratio_components(cert["upper"])
    except ValueError:
        return None
    is_ = lambda c, e: c[0] * e[1] == c[1] * e[0]      # noqa: E731 (P/Q == num/den)
    if len(comps) == 1:
        return (comps[0], None) if is_(comps[0], first) or is_(comps[0], second) else None
    if len(comps) != 2:
        return None
    for x, y in (comps, comps[::-1]):
        if is_(x, first) and is_(y, second):
            return x, y
    return None


def components_among(cert, rd, expected):
    """Is every component of U's ``Min`` (compared as quotients) one of ``expected`` (``(num, den)`` pairs),
    each at most once? Each expected component is an upper bound by its own obligation, so any of them, or the
    Min of several, is one."""
    try:
        comps = rd.ratio_components(cert["upper"])
    except ValueError:
        return False
    left = list(expected)
    for c in comps:
        hit = next((e for e in left if c[0] * e[1] == c[1] * e[0]), None)
        if hit is None:
            return False
        left.remove(hit)
    return bool(comps)


def any_partition(side, rd) -> bool:
    """Does the side allow any partition (no minimum class size above 1, no maximum)?"""
    return side.get("max_class") is None and rd.poly(side.get("min_class") or "1") == 1


def is_T(cert, rd):
    """The step ``("U = T", ok)``."""
    return ("U = T", upper_is(cert, rd, rd.gens["T"], 1))


def same_partition(A, B, cert, rd):
    """The checks of two class sides on one partition: one minimum class size s, an integer, no maximum."""
    s = rd.poly(A.get("min_class") or "1")
    same = (s == rd.poly(B.get("min_class") or "1") and A.get("max_class") is None and B.get("max_class") is None)
    return [("the same partition: one minimum class size, no maximum", same),
            ("s is an integer (integer coefficients, integer symbols)", integer_valued([s], cert.get("symbols") or {}))]


def class_mass_setting(side, rd):
    """T, N, a class's size e, the table's and the class's mass P, x on S (``e_``, ``a_``, ``b_``), the side's
    minimum class size s and the domain's premises (s >= 1, 2 s <= N, T >= 1) of the distance lemmas."""
    g = rd.gens
    s = rd.poly(side.get("min_class") or "1")
    return g["T"], g["N"], g["e_"], g["a_"], g["b_"], s, [(">=", s - 1), (">=", g["N"] - 2 * s), (">=", g["T"] - 1)]


def slack(A, compares):
    """A's additive slack delta (a polynomial constant) where A declares ``slack`` comparing ``compares`` with delta a
    number in [0, 1); None otherwise."""
    slack = A.get("slack") or {}
    if slack.get("compares") != compares:
        return None
    try:
        d = Fraction(str(slack.get("delta")))
    except (ValueError, ZeroDivisionError):
        return None
    return d if 0 <= d < 1 else None


def two_sided_subsets(A, B):
    """The step: both sides are two-sided subset levels."""
    return ("A and B are two-sided subset levels", A["family"] == B["family"] == "subset" and two_sided(A)
            and two_sided(B))

