"""The guarantee of a release, re-checked exactly before it is written (sei2019 Sections V-C, VII-D).

A release of sei2019's algorithm is random, so what it guarantees is a property of each attribute's channel
``(p_j, eta_j)`` and of the prior ``A_j`` (the data's own distribution of ``S_j``), for *every* set the channel
can release. This module computes that level a second time, exactly (Python integers and
:class:`fractions.Fraction`), from the counts of the data and the parameters written in the release, without
Algorithm 1's closed form or its subset-sum table (:mod:`~implgraph.mechanisms.randomized_anonymization.optimise`):

- **closeness** (Definition 15 with ``B_j`` inferred by eq. 12, as in Theorem 4's proof): the largest
  ``EMD(A_j, B_j)`` over every ``eta_j``-subset ``Z`` the channel releases with positive probability
  (:func:`closeness_achieved`). By Lemma 1 (``sei2019/lemma-1``, proved by the engine), an equivalence class for
  ``S_j``, whose ``B_j`` is read as the average of its records' posteriors, is never farther;
- **diversity** (Theorems 2-3, Section VII-D): the fewest distinct values in a released set of ``S_j``, read from
  the release's own sets (:func:`diversity_achieved`); a class for ``S_j`` with ``m`` records holds every value at
  most ``m`` times and ``eta m`` values in all, so its frequency level (and its entropy level, which is at least
  the frequency level) is at least that, and a class of one record attains it.

**How the worst released set is found.** With ``kappa_c``, ``kappa_d`` the probabilities of one released set
``Z`` given a value in / not in ``Z`` (Section V-B's draw: with probability ``p`` the true value and ``eta - 1``
of the other ``d - 1`` values, else ``eta`` of the ``d`` values, uniformly), Bayes' theorem gives
``B_m = w_m c_m / sum_b w_b c_b`` (``c`` the counts, ``w_m = kappa_c`` on ``Z``, ``kappa_d`` off it). When
``C(d, eta) <= ENUM_LIMIT`` every subset is enumerated and its EMD computed from that formula in integers (equal
ground distance: half the L1 distance; ordered ``|i - k|/(d - 1)``: the sum of the absolute cumulative
differences over ``d - 1``). Otherwise, for the equal ground distance, the EMD of ``Z`` depends on its count sum
``s`` only: ``B - A`` is ``A_m (1 - a) c / den`` on ``Z`` and ``-A_m a c / den`` off it (``a = s/N``,
``c = kappa_c - kappa_d``, ``den = kappa_d + c a``), so

    ``f(s) = s (N - s) c / (N (kappa_d N + c s))``,

whose derivative in ``a`` is ``-c q(a) / den^2`` with ``q(a) = c a^2 + 2 kappa_d a - kappa_d``, non-decreasing for
``a >= 0``: ``f`` rises while ``q <= 0`` and falls once ``q > 0``. The achievable sums of ``eta`` counts are
listed exactly (a subset-sum bitset in Python integers, :func:`achievable_sums`), and the largest ``f`` over them
is at the last sum with ``q <= 0`` or the first with ``q > 0``. For the ordered ground distance beyond
``ENUM_LIMIT`` subsets, the equal ground distance's level is an upper bound (every ground distance of the
ordered one is at most 1), reported as a bound.
"""

from __future__ import annotations

import bisect
import itertools
import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from implgraph.core.errors import InputError

__all__ = ["kappas", "achievable_sums", "closeness_achieved", "diversity_achieved", "Guarantee", "check_attribute",
           "ENUM_LIMIT", "BITS_LIMIT", "distinct_in_sets"]

ENUM_LIMIT = 20_000
"""Most released sets :func:`closeness_achieved` enumerates one by one."""

BITS_LIMIT = 100_000_000_000
"""Most bit operations (``d eta N``) of the subset-sum route; beyond it the re-check refuses."""


def kappas(p, eta: int, d: int) -> tuple:
    """``(kappa_c, kappa_d)``: Pr(the channel releases one given ``eta``-subset ``Z`` | the value is in / not in ``Z``).

    In ``Z``: head (probability ``p``) and the other ``eta - 1`` values of ``Z`` drawn among the ``d - 1`` others,
    or tail and ``Z`` drawn among the ``C(d, eta)`` subsets; not in ``Z``: tail only.

    >>> kappas(Fraction(1, 2), 2, 3)
    (Fraction(5, 12), Fraction(1, 6))
    """
    p = Fraction(p)
    tail = (1 - p) / math.comb(d, eta)
    return p / math.comb(d - 1, eta - 1) + tail, tail


def achievable_sums(counts, size: int) -> np.ndarray:
    """The sorted sums of ``size`` of the ``counts`` (each count used once), exactly (Python-integer bitsets).

    >>> achievable_sums([2, 3, 3], 2).tolist()
    [5, 6]
    """
    reach = [1] + [0] * size              # reach[k]: bit s set iff some k of the counts seen so far sum to s
    for i, c in enumerate(counts):
        for k in range(min(i, size - 1), -1, -1):
            if reach[k]:
                reach[k + 1] |= reach[k] << int(c)
    bits = reach[size]
    raw = np.frombuffer(bits.to_bytes(max(1, (bits.bit_length() + 7) // 8), "little"), dtype=np.uint8)
    return np.flatnonzero(np.unpackbits(raw, bitorder="little"))


def _integer_kappas(p, eta, d):
    """``kappa_c``, ``kappa_d`` as integers over a common denominator (the posterior is a ratio: it cancels)."""
    kc, kd = kappas(p, eta, d)
    den = math.lcm(kc.denominator, kd.denominator)
    return kc.numerator * (den // kc.denominator), kd.numerator * (den // kd.denominator)


def _enumerated(counts, big, small, eta, ground):
    """The largest EMD over every ``eta``-subset released with positive probability, and that subset."""
    n, d = sum(counts), len(counts)
    worst, arg = Fraction(0), None
    for z in itertools.combinations(range(d), eta):
        inside = set(z)
        u = [(big if m in inside else small) * counts[m] for m in range(d)]
        total = sum(u)
        if total == 0:                    # Pr(Z) = 0: never released
            continue
        diff = [n * u[m] - total * counts[m] for m in range(d)]      # (B_m - A_m) N total
        if ground == "equal":
            level = Fraction(sum(x for x in diff if x > 0), n * total)
        else:
            run = acc = 0
            for x in diff:
                run += x
                acc += abs(run)
            level = Fraction(acc, n * total * (d - 1))
        if arg is None or level > worst:
            worst, arg = level, z
    return worst, arg


def _by_mass(counts, big, small, eta):
    """The equal ground distance's largest EMD from the achievable count sums (see the module docstring)."""
    n = sum(counts)
    c = big - small
    sums = achievable_sums(counts, eta)
    if small == 0:
        sums = sums[sums > 0]             # a set of prior mass 0 is never released when kappa_d = 0
    if c == 0 or not len(sums):
        return Fraction(0), None
    rises = lambda s: 1 if c * s * s + 2 * small * s * n - small * n * n > 0 else 0   # noqa: E731  (q(s/N) N^2 > 0)
    first = bisect.bisect_left(sums, 1, key=lambda s: rises(int(s)))
    best, arg = Fraction(0), None
    for s in (int(x) for x in sums[max(first - 1, 0):first + 1]):
        level = Fraction(s * (n - s) * c, n * (small * n + c * s))
        if arg is None or level > best:
            best, arg = level, s
    return best, arg


def closeness_achieved(counts, p, eta: int, ground: str = "equal") -> tuple:
    """The largest ``EMD(A, B_Z)`` over every ``eta``-subset ``Z`` released with positive probability.

    Parameters
    ----------
    counts : sequence of int
        How many records hold each value, in the domain's order (the ordered ground distance's order).
    p, eta :
        The channel's parameters (``0 <= p <= 1``, ``1 <= eta <= d``).
    ground : {"equal", "ordered"}

    Returns
    -------
    tuple
        ``(level, exact, how)``: a Fraction; ``exact`` False when it is only an upper bound; ``how`` in words.

    Raises
    ------
    InputError
        Parameters out of range, or a subset-sum route of more than :data:`BITS_LIMIT` bit operations.
    """
    counts = [int(c) for c in counts]
    n, d = sum(counts), len(counts)
    p, eta = Fraction(p), int(eta)
    if n <= 0 or not 0 <= p <= 1 or not 1 <= eta <= d or min(counts) < 0:
        raise InputError(f"the re-check needs records, 0 <= p <= 1 and 1 <= eta <= d (N = {n}, p = {p}, eta = {eta}, "
                         f"d = {d})", fix="give the parameters of a set channel")
    if d == 1 or eta == d:
        return Fraction(0), True, "every released set is the whole domain (or d = 1): B = A"
    big, small = _integer_kappas(p, eta, d)
    subsets = math.comb(d, eta)
    if subsets <= ENUM_LIMIT:
        level, z = _enumerated(counts, big, small, eta, ground)
        return level, True, f"every released set enumerated ({subsets} sets)"
    if d * eta * (n + 1) > BITS_LIMIT:
        raise InputError(f"re-checking {d} values, sets of {eta} and {n} records needs {d * eta * (n + 1)} bit "
                         f"operations, more than {BITS_LIMIT}",
                         fix="coarsen the attribute to fewer values or anonymize fewer records")
    level, _ = _by_mass(counts, big, small, eta)
    if ground == "equal":
        return level, True, f"the {subsets} released sets by their count sums (exact subset sums)"
    return level, False, (f"bounded by the equal ground distance's level over the {subsets} released sets "
                          f"(too many to enumerate; every ordered ground distance is at most 1)")


def diversity_achieved(member) -> int:
    """The fewest distinct values in a released set of one attribute (``member``: the release's boolean matrix)."""
    member = np.asarray(member, dtype=bool)
    return int(member.sum(axis=1).min(initial=member.shape[1]))


def distinct_in_sets(sets, d: int) -> int:
    """The fewest distinct values in a released set, the sets given as an integer array ``(N, k)`` of value
    indices (every index checked to be below ``d``); ``d`` when there are no records.

    >>> distinct_in_sets(np.array([[0, 2], [1, 1]]), 3)
    1
    """
    sets = np.asarray(sets)
    if sets.ndim != 2:
        raise InputError(f"the sets are not a matrix (shape {sets.shape})", fix="report this as a bug")
    if sets.shape[0] == 0:
        return d
    if sets.size == 0:
        return 0
    if sets.min() < 0 or sets.max() >= d:
        raise InputError(f"a released value index is outside the domain of {d} values", fix="report this as a bug")
    ordered = np.sort(sets, axis=1)
    return int((1 + (np.diff(ordered, axis=1) != 0).sum(axis=1)).min())


@dataclass
class Guarantee:
    """One attribute's requested and re-checked levels.

    Attributes
    ----------
    attribute : str
    p, eta :
        The parameters written in the release.
    l, t :
        The requested levels (None if not requested).
    achieved_l : int
        The fewest distinct values in a released set (frequency and entropy diversity hold at it).
    achieved_t : Fraction or None
        The largest posterior EMD over every possible released set (None when no ``t`` was requested).
    t_exact : bool
        False when ``achieved_t`` is an upper bound only.
    how : str
    """

    attribute: str
    p: Fraction
    eta: int
    l: int | None
    t: Fraction | None
    achieved_l: int
    achieved_t: Fraction | None
    t_exact: bool
    how: str

    @property
    def met(self) -> bool:
        ok_l = self.l is None or self.achieved_l >= self.l
        ok_t = self.t is None or self.achieved_t <= self.t
        return ok_l and ok_t

    def shortfall(self) -> str:
        """What is not met, in words (empty when :attr:`met`)."""
        out = []
        if self.l is not None and self.achieved_l < self.l:
            out.append(f"l = {self.achieved_l} < {self.l} requested")
        if self.t is not None and self.achieved_t > self.t:
            what = "t = " if self.t_exact else "t <= "
            out.append(f"{what}{self.achieved_t} > {self.t} requested ({self.how})")
        return "; ".join(out)

    def to_json(self) -> dict:
        return {"attribute": self.attribute, "p": str(self.p), "eta": self.eta,
                "l": self.l, "t": None if self.t is None else str(self.t),
                "achieved_l": self.achieved_l,
                "achieved_t": None if self.achieved_t is None else str(self.achieved_t),
                "achieved_t_exact": self.t_exact, "how": self.how}


def check_attribute(name: str, counts, p, eta: int, member, l=None, t=None, ground: str = "equal") -> Guarantee:
    """Re-check one attribute of a release: its diversity from its sets, its closeness from its channel.

    Parameters
    ----------
    name : str
    counts : sequence of int
        The original data's counts per value, in the release's domain order.
    p, eta :
        The parameters written in the release.
    member : numpy.ndarray
        The release's sets of this attribute: a boolean matrix ``(N, d)``, or an integer array ``(N, k)`` of
        the value indices of every set (:meth:`Release.codes
        <implgraph.mechanisms.randomized_anonymization.release.Release.codes>`; its distinct values per row
        are counted, so a repeated index lowers the level).
    l, t :
        The requested levels (None: not requested).
    ground : {"equal", "ordered"}

    Returns
    -------
    Guarantee
    """
    member = np.asarray(member)
    n, d = sum(int(c) for c in counts), len(counts)
    boolean = member.dtype == bool
    if member.ndim != 2 or member.shape[0] != n or (boolean and member.shape[1] != d):
        raise InputError(f"{name}: the release's sets (shape {member.shape}) do not fit the data's "
                         f"{n} records over {d} values", fix="report this as a bug")
    written = diversity_achieved(member) if boolean else distinct_in_sets(member, d)
    achieved_l = min(int(eta), written)                         # the channel's sets, and the sets written
    achieved_t, exact, how = (None, True, "") if t is None else closeness_achieved(counts, p, eta, ground)
    return Guarantee(name, Fraction(p), int(eta), None if l is None else int(l), None if t is None else Fraction(t),
                     achieved_l, achieved_t, exact, how)
