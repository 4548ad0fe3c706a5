"""Utility of a mechanism (Alvim et al.'s gain-function utility) and the calibrations of Section V.

- :func:`utility` is eq. (3) of Ekenstedt et al. [1]_: ``U = sum_y p_y(y) sum_yhat p(yhat | y) g(y, yhat)``
  for a guessing strategy ``p(yhat | z)`` after the mechanism; without a strategy the optimal (Bayes)
  one is used, ``U = sum_z max_yhat sum_y p(y, z) g(y, yhat)``.
- :func:`bayes_utility` is eq. (4), the binary gain ``g = delta``: ``U = sum_z max_y p(y, z)``.
- :func:`mechanism_utilities` derives ``U_LDP``, ``U_tClo+LDP`` and ``U_tClo`` of the three mechanisms
  of Section V-C from their exact channels (:mod:`implgraph.mechanisms.channels`).
- The keep probabilities of Fig. 4 and Fig. 5 at a given level come from the core's exact levels
  (:func:`implgraph.mechanisms.calibrate.keep_for_level`, for a definition the caller names). The
  printed formulas (eq. 1, 2, 5, 6 and the relation of [5]) live only in the data files.

Everything is exact (sympy rationals, ``exp``/``log`` kept symbolic); floats appear only in
:func:`as_float` for plots.

References
----------
.. [1] E. Ekenstedt et al., "When Differential Privacy Implies Syntactic Privacy", IEEE TIFS 17, 2022,
   Section V-B to V-D.
.. [2] M. S. Alvim et al., "Differential privacy: on the trade-off between utility and information
   leakage", FAST 2011.

Examples
--------
>>> import sympy
>>> from implgraph.mechanisms.channels import randomised_response
>>> half = sympy.Rational(1, 2)
>>> bayes_utility(randomised_response(2, half), [half, half])
3/4
"""

from __future__ import annotations

import sympy

from implgraph.core.errors import InputError
from implgraph.mechanisms.channels import (Mechanism, _num, check_probability, empirical_response, randomised_response,
                                          sequential)
from implgraph.core.simplified import simplified

__all__ = ["joint", "utility", "bayes_utility", "binary_gain", "mechanism_utilities", "as_float", "check_distribution"]


def check_distribution(py) -> list:
    """Exact p_y; InputError if an entry is outside [0, 1] or the sum is not 1."""
    py = [_num(x) for x in py]
    for i, x in enumerate(py):
        check_probability(x, f"p_y(a{i + 1})")
    total = simplified(sum(py))
    if total.is_number and total != 1:
        raise InputError(f"the frequencies p_y sum to {total}, not 1", fix="give a distribution")
    return py


def joint(mechanism: Mechanism, py) -> sympy.Matrix:
    """``p(y = a_i, z = a_j) = p_y(a_i) M[i, j]``."""
    py = check_distribution(py)
    if len(py) != mechanism.n:
        raise InputError(f"{len(py)} frequencies for {mechanism.n} values", fix="give one per value")
    return sympy.Matrix(mechanism.n, mechanism.n, lambda i, j: py[i] * mechanism.matrix[i, j])


def binary_gain(n: int) -> sympy.Matrix:
    """The binary gain function ``g(y, yhat) = delta(y, yhat)``."""
    return sympy.eye(n)


def utility(mechanism: Mechanism, py, gain=None, strategy=None):
    """Eq. (3): the expected gain of the user's guess of Y from Z.

    Parameters
    ----------
    mechanism : Mechanism
    py : sequence
        The distribution p_y of the input.
    gain : sympy.Matrix, optional
        ``gain[y, yhat]``; the binary gain (identity) by default.
    strategy : sympy.Matrix, optional
        The user's post-processing ``strategy[z, yhat] = p(yhat | z)``; the optimal one (for each z the
        guess with the largest expected gain) by default.

    Returns
    -------
    sympy.Expr
    """
    n = mechanism.n
    g = binary_gain(n) if gain is None else sympy.Matrix(gain)
    py = check_distribution(py)
    if strategy is not None:
        guess = mechanism.matrix * sympy.Matrix(strategy)   # p(yhat | y)
        return simplified(sum(py[y] * guess[y, yh] * g[y, yh] for y in range(n) for yh in range(n)))
    pj = joint(mechanism, py)
    total = sympy.Integer(0)
    for z in range(n):
        total += sympy.Max(*[sum(pj[y, z] * g[y, yh] for y in range(n)) for yh in range(g.shape[1])])
    return total


def bayes_utility(mechanism: Mechanism, py):
    """Eq. (4): ``U(Y, Z) = sum_z max_y p(y, z)`` (binary gain, optimal guess)."""
    pj = joint(mechanism, py)
    return sum((_max([pj[y, z] for y in range(mechanism.n)]) for z in range(mechanism.n)), sympy.Integer(0))


def _max(xs):
    """``Max`` of the entries; symbolic maxima are kept unevaluated (sympy's pairwise pruning is slow)."""
    xs = [sympy.sympify(x) for x in xs]
    if all(x.is_number for x in xs):
        return sympy.Max(*xs)
    return sympy.Max(*xs, evaluate=False)


def mechanism_utilities(py, p_ldp, p_t) -> dict:
    """``U_LDP`` (Fig. 4), ``U_tClo+LDP`` (Fig. 5 then Fig. 4) and ``U_tClo`` (Fig. 5) by eq. (4)."""
    py = check_distribution(py)
    n = len(py)
    m4 = randomised_response(n, p_ldp)
    m5 = empirical_response(py, p_t)
    return {"U_LDP": bayes_utility(m4, py),
            "U_tClo_LDP": bayes_utility(sequential(m5, m4), py),
            "U_tClo": bayes_utility(m5, py)}


def as_float(x) -> float:
    """For plots only."""
    return float(sympy.N(x, 30))
