"""Parameter choice of sei2019 Section V-C: E_L2 (eq. 9), the diversity rule and Algorithm 1.

**Algorithm 1's solve, in closed form.** For a released set ``Z`` with prior mass ``a_Z = sum_{m in Z} A_m``
the posterior of eq. (12) is ``B_m = A_m r / (r a_Z + 1 - a_Z)`` on ``Z`` and ``A_m / (r a_Z + 1 - a_Z)``
off ``Z``, with ``r = kappa_c / kappa_d = 1 + x``, ``x = p d / ((1 - p) eta)``. So

    ``B - A = g(x) v_Z``,  ``g(x) = x / (1 + a_Z x)``,  ``v_Z = A (1_Z - a_Z)``,

a fixed direction scaled by ``g``, increasing in ``x`` and ``x`` increasing in ``p``. Both ground distances
(equal, ordered) give an EMD positively homogeneous in ``B - A``, hence ``D[A, B] = g(x) D_Z`` with
``D_Z = EMD of v_Z``. Solving ``D[A, B] = t`` for ``p``: with ``G = t / D_Z``, every ``p`` is allowed when
``D_Z = 0`` or ``a_Z G >= 1``; otherwise ``x* = G / (1 - a_Z G)`` and ``p_Z = x* eta / (d + x* eta)``.
All of this is exact (``fractions.Fraction``). The largest ``p`` that keeps *every* possible released
set within ``t`` is ``min_Z p_Z`` (the text: "we calculate B_j for all possible E[r*, S_j] and then obtain
the largest value of D"); :func:`closeness_parameters` returns it, and ``reading="printed"`` follows
Algorithm 1's lines 6-13 literally (one entry per ``Z``, the least E_L2 wins, i.e. the *largest* ``p_Z``).

With the equal ground distance ``D_Z = a_Z (1 - a_Z)`` depends on ``a_Z`` only, and ``p_Z`` is increasing in
``x* = t / (a_Z (1 - a_Z - t))`` (for ``a_Z < 1 - t``; ``p_Z = 1`` otherwise): the worst released set of size
``eta`` is the one whose count sum is nearest ``(1 - t) N / 2`` from below or above (``a (1 - a - t)`` is
concave). The achievable count sums of every size are found exactly by a subset-sum table over the
counts (:func:`subset_sums`, numpy booleans, ``O(d^2 N)`` bits), so no subset is enumerated. With the
ordered ground distance the subsets of one size are enumerated, up to :data:`SUBSET_LIMIT` (larger sizes
are skipped).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import sympy

from implgraph.core.errors import InputError
from implgraph.definitions.emd_t_closeness import _emd

__all__ = ["expected_l2", "expected_l2_squared", "diversity_parameters", "solve_p", "worst_p",
           "closeness_parameters", "subset_sums", "Choice", "SUBSET_LIMIT", "TABLE_LIMIT"]

SUBSET_LIMIT = 20_000
"""Most subsets of one size that :func:`worst_p` enumerates."""

TABLE_LIMIT = 200_000_000
"""Most cells ``(d + 1) (N + 1)`` of the subset-sum table (one byte each) :func:`closeness_parameters` builds."""


def expected_l2(N, d, p, eta):
    """E_L2 of eq. (9), as printed (sympy; symbolic arguments allowed)."""
    N, d, p, eta = (sympy.sympify(v) for v in (N, d, p, eta))
    return sympy.sqrt((1 - d) * (p ** 2 * d + eta - (p ** 2 + d) * eta) / (p ** 2 * d * N * (d - eta)))


def expected_l2_squared(N, d, p, eta) -> Fraction:
    """E_L2 squared, exact for rational arguments (``inf`` where (9) divides by 0)."""
    p = Fraction(p)
    den = p * p * d * N * (d - eta)
    if den == 0:
        return math.inf
    return Fraction((1 - d) * (p * p * d + eta - (p * p + d) * eta)) / den


def diversity_parameters(level: int, d: int, name: str = "S_j") -> tuple:
    """``(p, eta) = (1, l)`` for frequency and entropy diversity (Section V-C-1, Theorems 2-3)."""
    if not 1 <= int(level) <= d:
        raise InputError(f"{name}: l = {level} needs 1 <= l <= d = {d} (Theorems 2-3 assume d_j >= l_j)",
                         fix=f"choose l <= {d} for {name}")
    return Fraction(1), int(level)


def _direction_emd(prior, subset, ground) -> tuple:
    """``(a_Z, D_Z)``: the prior mass of ``subset`` and the EMD of the direction ``v_Z``."""
    inside = set(subset)
    a_z = sum((prior[m] for m in inside), Fraction(0))
    v = [prior[m] * ((1 if m in inside else 0) - a_z) for m in range(len(prior))]
    return a_z, (Fraction(0) if len(v) == 1 else Fraction(_emd(v, ground, abs)))


def solve_p(prior, subset, t, eta, ground: str = "equal") -> Fraction:
    """The largest ``p`` with ``D[A, B] <= t`` for the released set ``subset`` (exact closed form)."""
    d = len(prior)
    a_z, d_z = _direction_emd(prior, subset, ground)
    if d_z == 0:
        return Fraction(1)
    g = Fraction(t) / d_z
    if a_z * g >= 1:
        return Fraction(1)
    x = g / (1 - a_z * g)
    return x * eta / (d + x * eta)


def subset_sums(counts) -> np.ndarray:
    """``reach[k, s]``: some ``k`` of the ``counts`` sum to ``s`` (exact, boolean table)."""
    total = int(sum(counts))
    reach = np.zeros((len(counts) + 1, total + 1), dtype=bool)
    reach[0, 0] = True
    for c in counts:
        c = int(c)
        if c == 0:
            reach[1:] |= reach[:-1]
        else:
            reach[1:, c:] |= reach[:-1, :total + 1 - c]
    return reach


def _p_of_mass(a, t, eta, d) -> Fraction:
    """``p_Z`` for the equal ground distance from ``a = a_Z`` (``D_Z = a (1 - a)``)."""
    if a == 0 or a >= 1 - t:
        return Fraction(1)
    x = t / (a * (1 - a - t))
    return x * eta / (d + x * eta)


def _equal_ground_p(counts, t, eta, pick, reach) -> Fraction:
    n, d = int(sum(counts)), len(counts)
    sums = np.flatnonzero(reach[eta])          # sorted achievable count sums (each at most n)
    num, den = t.numerator, t.denominator
    # 0 < a < 1 - t with a = s / n, in Python integers (t's denominator may be any size, so no product of
    # a count and it is formed in numpy): 0 < s and s den < (den - num) n, i.e. s <= ((den - num) n - 1) // den
    top = ((den - num) * n - 1) // den if den - num > 0 else -1
    inner = sums[(sums > 0) & (sums <= top)] if top >= 1 else sums[:0]
    if not len(inner) or (pick is max and len(inner) < len(sums)):
        return Fraction(1)
    if pick is max:          # a (1 - a - t) is concave: its minimum is at an end
        cands = [inner[0], inner[-1]]
    else:                    # its maximum is at the achievable masses nearest (1 - t)/2: 2 s den vs (den - num) n
        half = (den - num) * n // (2 * den)                    # 2 s den <= (den - num) n  iff  s <= half
        below = inner[inner <= half]
        above = inner[inner > half] if 2 * den * half != (den - num) * n else inner[inner >= half]
        cands = list(below[-1:]) + list(above[:1])
    return pick(_p_of_mass(Fraction(int(s), n), t, eta, d) for s in cands)


def worst_p(prior, t, eta, ground: str = "equal", pick=min, counts=None, reach=None):
    """``pick`` over every ``eta``-subset ``Z`` of :func:`solve_p` (``min``: safe for every released set).

    With ``ground="equal"`` and the integer ``counts`` behind ``prior`` the subset-sum table is used
    (exact, every size); otherwise the subsets are enumerated (None above :data:`SUBSET_LIMIT`).
    """
    d = len(prior)
    t = Fraction(t)
    if ground == "equal" and counts is not None:
        return _equal_ground_p(counts, t, eta, pick, subset_sums(counts) if reach is None else reach)
    if math.comb(d, eta) > SUBSET_LIMIT:
        return None
    return pick(solve_p(prior, z, t, eta, ground) for z in itertools.combinations(range(d), eta))


@dataclass
class Choice:
    """One attribute's parameters: ``p``, ``eta`` and the squared E_L2 they give."""

    p: Fraction
    eta: int
    el2_squared: object

    @property
    def el2(self):
        return sympy.sqrt(sympy.Rational(self.el2_squared.numerator, self.el2_squared.denominator)) \
            if isinstance(self.el2_squared, Fraction) else sympy.oo


def closeness_parameters(counts, t, eta_max=None, ground: str = "equal", reading: str = "text",
                         name: str = "S_j", eta_min: int = 1) -> Choice:
    """Algorithm 1 for one attribute: ``(p, eta)`` minimising E_L2 under ``[[t, j]]``-closeness.

    Parameters
    ----------
    counts : sequence of int
        How many records hold each value (gives ``A_j`` and ``N``), in the domain's order (the order the
        ordered ground distance uses).
    t : number
        The closeness level ``t_j``.
    eta_max : int, optional
        ``eta~`` (default ``d - 1``; ``eta = d`` makes (9) divide by 0).
    ground : {"equal", "ordered"}
    reading : {"text", "printed"}
        ``"text"``: the smallest ``p`` over the released sets of one size (safe); ``"printed"``: lines 6-13
        as printed (the largest).
    eta_min : int
        The smallest ``eta`` tried (default 1). Section VII-D: from ``l_j``, so that the release is also
        frequency and entropy ``l_j``-diverse (every released set has ``eta >= l_j`` distinct values).

    Returns
    -------
    Choice
        ``p = 0, eta = eta_min`` (nothing of the input is released: a uniform ``eta``-subset) when no ``eta``
        gives ``p > 0``.

    Raises
    ------
    InputError
        No records, ``t < 0``, ``eta_min`` outside ``1..d``, or (equal ground distance) a subset-sum table of
        more than :data:`TABLE_LIMIT` cells.
    """
    counts, n, d, t, eta_min = _closeness_inputs(counts, t, ground, name, eta_min)
    prior = [Fraction(c, n) for c in counts]
    top = d - 1 if eta_max is None else min(int(eta_max), d - 1)
    best = Choice(Fraction(0), eta_min, math.inf)
    reach = subset_sums(counts) if ground == "equal" else None
    for eta in range(eta_min, top + 1):
        p = worst_p(prior, t, eta, ground, min if reading == "text" else max, counts, reach)
        if p is None or p == 0:
            continue
        e2 = expected_l2_squared(n, d, p, eta)
        if best.el2_squared == math.inf or e2 < best.el2_squared:
            best = Choice(p, eta, e2)
    if d == 1:
        best = Choice(Fraction(1), 1, Fraction(0))
    return best


def _closeness_inputs(counts, t, ground, name, eta_min) -> tuple:
    """``(counts, N, d, t, eta_min)`` of :func:`closeness_parameters`, read exactly (ints, ``t`` a Fraction: a
    float by its shortest repr) and checked; InputError as documented there."""
    counts = [int(c) for c in counts]
    n = sum(counts)
    d = len(counts)
    t = Fraction(t) if not isinstance(t, float) else Fraction(repr(t))
    if n <= 0 or t < 0:
        raise InputError(f"{name}: closeness needs records and t >= 0 (N = {n}, t = {t})",
                         fix="give a non-empty column and t >= 0")
    eta_min = int(eta_min)
    if not 1 <= eta_min <= d:
        raise InputError(f"{name}: eta from {eta_min} needs 1 <= eta <= d = {d}", fix=f"choose l <= {d} for {name}")
    if ground == "equal" and (d + 1) * (n + 1) > TABLE_LIMIT:
        raise InputError(f"{name}: {d} values and {n} records need a subset-sum table of {(d + 1) * (n + 1)} cells, "
                         f"more than {TABLE_LIMIT}",
                         fix=f"coarsen {name} to fewer values or anonymize fewer records")
    return counts, n, d, t, eta_min
