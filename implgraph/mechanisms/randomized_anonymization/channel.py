"""The set channel of sei2019 Section V-B, with exact probabilities.

For one sensitive QID ``S_j`` with domain ``D(S_j)`` of size ``d`` and parameters ``(p, eta)``, a record
with value ``v`` is released as a set ``R`` of ``eta`` distinct values: with probability ``p`` (the coin is
head) ``R = {v}`` plus ``eta - 1`` distinct values drawn uniformly from ``D(S_j) minus {v}``; otherwise
``eta`` distinct values drawn uniformly from ``D(S_j)``. Hence, for an ``eta``-subset ``Z``,

.. math::

    \\Pr(R = Z \\mid v) = \\kappa_c = \\frac{p}{\\binom{d-1}{\\eta-1}} + \\frac{1-p}{\\binom{d}{\\eta}}
    \\ (v \\in Z), \\qquad
    \\Pr(R = Z \\mid v) = \\kappa_d = \\frac{1-p}{\\binom{d}{\\eta}} \\ (v \\notin Z),

which are the paper's ``kappa_c = (p + (1 - p) eta/d) / C(d - 1, eta - 1)`` and
``kappa_d = (1 - (p + (1 - p) eta/d)) / C(d - 1, eta)`` (Section V-C-3) rewritten with
``C(d, eta) = d/eta C(d - 1, eta - 1) = d/(d - eta) C(d - 1, eta)``; the second form is also defined at
``eta = d``. A value is in ``R`` with probability ``p + (1 - p) eta/d`` if it is the input and
``p (eta - 1)/(d - 1) + (1 - p) eta/d`` otherwise (eq. 19).

Everything here is exact (sympy); ``p``, ``eta`` and ``d`` may be symbols.

Examples
--------
>>> import sympy
>>> ch = SetChannel(["x", "y", "z"], sympy.Rational(1, 2), 2)
>>> ch.prob(("x", "y"), "x"), ch.prob(("y", "z"), "x")
(5/12, 1/6)
>>> sum(ch.prob(z, "x") for z in ch.outputs())
1
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import sympy

from implgraph.core.errors import InputError

__all__ = ["set_probabilities", "inclusion_probabilities", "check_parameters", "SetChannel",
           "posterior"]


def _num(x):
    """An exact sympy number or expression (floats through their decimal text)."""
    if isinstance(x, float):
        return sympy.Rational(repr(x))
    return sympy.sympify(x)


def set_probabilities(p, eta, d):
    """``(kappa_c, kappa_d)``: Pr(R = Z | v) for one ``eta``-subset ``Z`` with ``v`` in / not in ``Z``.

    Parameters
    ----------
    p, eta, d : numbers or sympy expressions
        Head probability, set size and domain size (``1 <= eta <= d``).

    Returns
    -------
    tuple of sympy expressions
    """
    p, eta, d = _num(p), _num(eta), _num(d)
    kappa_d = (1 - p) / sympy.binomial(d, eta)
    kappa_c = p / sympy.binomial(d - 1, eta - 1) + kappa_d
    return kappa_c, kappa_d


def inclusion_probabilities(p, eta, d):
    """``(own, other)``: Pr(the input is in R), Pr(a given other value is in R) (eq. 19).

    >>> inclusion_probabilities(1, 2, 4)
    (1, 1/3)
    """
    p, eta, d = _num(p), _num(eta), _num(d)
    own = p + (1 - p) * eta / d
    other = p * (eta - 1) / (d - 1) + (1 - p) * eta / d if d != 1 else sympy.Integer(0)
    return own, other


def check_parameters(p, eta, d, name: str = "S_j"):
    """Raise :class:`InputError` unless ``0 <= p <= 1`` and ``1 <= eta <= d`` (numbers only)."""
    p, eta = _num(p), _num(eta)
    if p.is_number and not (0 <= p <= 1):
        raise InputError(f"{name}: p = {p} is outside [0, 1]", fix="give a probability 0 <= p <= 1")
    if eta.is_number and not (eta.is_integer and 1 <= eta <= d):
        raise InputError(f"{name}: eta = {eta} is not an integer in [1, d] with d = {d}",
                         fix=f"choose 1 <= eta <= {d}")
    return p, eta


@dataclass
class SetChannel:
    """The channel of one sensitive QID: input a value of ``domain``, output an ``eta``-subset.

    Parameters
    ----------
    domain : list
        The values of ``D(S_j)`` (``d = len(domain)``).
    p : number or sympy expression
        The coin's head probability.
    eta : int
        The size of every released set.
    """

    domain: list
    p: object
    eta: int

    def __post_init__(self):
        self.p, eta = check_parameters(self.p, self.eta, len(self.domain))
        self.eta = int(eta)

    @property
    def d(self) -> int:
        return len(self.domain)

    def outputs(self) -> list:
        """Every possible released set, as a tuple of values in domain order."""
        return list(itertools.combinations(self.domain, self.eta))

    def prob(self, out, inp):
        """Pr(R = ``out`` | value ``inp``), exact."""
        if len(set(out)) != self.eta or not set(out) <= set(self.domain):
            return sympy.Integer(0)
        kc, kd = set_probabilities(self.p, self.eta, self.d)
        return kc if inp in out else kd

    def matrix(self) -> sympy.Matrix:
        """``M[i, k] = Pr(R = outputs()[k] | domain[i])`` (rows are inputs)."""
        outs = self.outputs()
        return sympy.Matrix([[self.prob(z, v) for z in outs] for v in self.domain])

    def output_distribution(self, counts) -> dict:
        """The exact distribution of the released set of a record drawn from ``counts``.

        Parameters
        ----------
        counts : sequence of int
            How many records hold each value of ``domain`` (same order).

        Returns
        -------
        dict
            ``{released set: probability}``.
        """
        counts = [sympy.Integer(c) for c in counts]
        n = sum(counts)
        if len(counts) != self.d or n == 0:
            raise InputError(f"{len(counts)} counts for a domain of {self.d} values (total {n})",
                             fix="give one count per domain value, not all zero")
        return {z: sympy.nsimplify(sum(c * self.prob(z, v) for c, v in zip(counts, self.domain)) / n)
                for z in self.outputs()}


def posterior(prior, released, p, eta):
    """The distribution ``B_j`` inferred by Bayes' theorem from ``A_j`` and a released set (eq. 12).

    Parameters
    ----------
    prior : sequence
        ``A_j`` (exact numbers, summing to 1).
    released : iterable of int
        Indices of the values in the released set ``E(r*, S_j)``.
    p, eta : numbers
        The channel's parameters.

    Returns
    -------
    list of sympy numbers

    Examples
    --------
    >>> posterior([sympy.Rational(1, 2), sympy.Rational(1, 4), sympy.Rational(1, 4)], [0], 1, 1)
    [1, 0, 0]
    """
    prior = [_num(a) for a in prior]
    released = set(released)
    kc, kd = set_probabilities(p, eta, len(prior))
    ups = [(kc if m in released else kd) * a for m, a in enumerate(prior)]
    total = sum(ups)
    return [u / total if (u / total).is_number else sympy.cancel(u / total) for u in ups]
