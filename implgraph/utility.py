"""Utility of a mechanism (Alvim et al.'s gain-function utility) and the calibrations of Section V.

- :func:`utility` is eq. (3) of Ekenstedt et al. [1]_: ``U = sum_y p_y(y) sum_yhat p(yhat | y) g(y, yhat)``
  for a guessing strategy ``p(yhat | z)`` after the mechanism; without a strategy the optimal (Bayes)
  one is used, ``U = sum_z max_yhat sum_y p(y, z) g(y, yhat)``.
- :func:`bayes_utility` is eq. (4), the binary gain ``g = delta``: ``U = sum_z max_y p(y, z)``.
- :func:`mechanism_utilities` derives ``U_LDP``, ``U_tClo+LDP`` and ``U_tClo`` of the three mechanisms
  of Section V-C from their exact channels (:mod:`implgraph.mechanisms`).
- :func:`eq5_printed`, :func:`eq6_printed` transcribe eq. (5) and eq. (6) as printed (for any n), so
  that the figures can show the printed curves beside the derived ones.
- Calibrations: :func:`eps_from_t_lemma1` (the relation of [5] used in Section V-C, inverted),
  :func:`p_ldp_for_eps` (from the engine's LDP level of Fig. 4), :func:`p_ldp_eq1` (eq. 1 as printed,
  inverted), :func:`p_t_for_t` (from the engine's multiplicative-t level of Fig. 5), :func:`p_t_eq2`
  (eq. 2 as printed, solved).

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
>>> from implgraph.mechanisms import randomised_response
>>> half = sympy.Rational(1, 2)
>>> bayes_utility(randomised_response(2, half), [half, half])
3/4
"""

from __future__ import annotations

import sympy

from .errors import InputError
from .mechanisms import (Mechanism, _num, check_probability, empirical_response, randomised_response,
                         sequential)

__all__ = ["joint", "utility", "bayes_utility", "binary_gain", "mechanism_utilities", "eq5_printed",
           "eq6_printed", "eps_from_t_lemma1", "p_ldp_for_eps", "p_ldp_eq1", "p_t_for_t", "p_t_eq2",
           "calibrate", "as_float", "check_distribution"]


def check_distribution(py) -> list:
    """Exact p_y; InputError if an entry is outside [0, 1] or the sum is not 1."""
    py = [_num(x) for x in py]
    for i, x in enumerate(py):
        check_probability(x, f"p_y(a{i + 1})")
    total = sympy.simplify(sum(py))
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
        return sympy.simplify(sum(py[y] * guess[y, yh] * g[y, yh] for y in range(n) for yh in range(n)))
    pj = joint(mechanism, py)
    total = sympy.Integer(0)
    for z in range(n):
        total += sympy.Max(*[sum(pj[y, z] * g[y, yh] for y in range(n)) for yh in range(g.shape[1])])
    return total


def bayes_utility(mechanism: Mechanism, py):
    """Eq. (4): ``U(Y, Z) = sum_z max_y p(y, z)`` (binary gain, optimal guess)."""
    pj = joint(mechanism, py)
    return sum((sympy.Max(*[pj[y, z] for y in range(mechanism.n)]) for z in range(mechanism.n)),
               sympy.Integer(0))


# -- the printed formulas ----------------------------------------------------------------------------

def eq5_printed(py, p_ldp, N):
    """Eq. (5) as printed: ``sum_i max{max_{j != i} p_y(a_j)(1 - p)/N, p_y(a_i)(p + (1 - p)/N)}``."""
    py = [_num(x) for x in py]
    n = len(py)
    p, N = _num(p_ldp), _num(N)
    return sum((sympy.Max(*[py[j] * (1 - p) / N for j in range(n) if j != i], py[i] * (p + (1 - p) / N))
                for i in range(n)), sympy.Integer(0))


def eq6_printed(py, p_ldp, p_t, N):
    """Eq. (6) as printed: ``sum_j max_i max{f_1(a_i), f_2(a_i, a_j)}`` with the printed f_1, f_2."""
    py = [_num(x) for x in py]
    n = len(py)
    pl, pt, N = _num(p_ldp), _num(p_t), _num(N)

    def f1(i):
        return py[i] * (pt * (pl + (1 - pl) / N) + (1 - pt) * (py[i] * pl + (1 - pl) / N))

    def f2(i, j):
        return py[i] * (pt * (1 - pl) / N + (1 - pt) * (py[j] * (pl + (1 - pl) / N)))

    return sum((sympy.Max(*[sympy.Max(f1(i), f2(i, j)) for i in range(n)]) for j in range(n)), sympy.Integer(0))


# -- calibrations --------------------------------------------------------------------------------------

def eps_from_t_lemma1(t0, N, k):
    """Invert the relation of [5] used in Section V-C: ``t0 = (k/N)(1 + ((N-k-1)/k) e^eps)``.

    Returns ``ln((t0 N - k)/(N - k - 1))`` exactly (solved with sympy).
    """
    t0, N, k = _num(t0), _num(N), _num(k)
    if t0.is_number and t0 < 1:
        raise InputError(f"t0 = {t0} < 1", fix="a multiplicative t-closeness level is >= 1")
    if N.is_number and k.is_number and (k < 1 or k > N):
        raise InputError(f"k = {k} is out of range for N = {N}", fix="choose 1 <= k <= N")
    x = sympy.Symbol("x", positive=True)
    sol = sympy.solve(sympy.Eq(t0, (k / N) * (1 + ((N - k - 1) / k) * x)), x)
    if len(sol) != 1:
        raise InputError(f"no unique e^eps for t0 = {t0}, N = {N}, k = {k}", fix="check N - k - 1 > 0")
    return sympy.log(sympy.nsimplify(sol[0]))


def p_ldp_for_eps(eps, n):
    """The keep probability of Fig. 4 whose exact LDP level is ``eps``: ``(e^eps - 1)/(e^eps - 1 + n)``.

    This inverts the engine's level ``e^eps = 1 + n p/(1 - p)`` (see :func:`ldp_ratio`).
    """
    e = sympy.exp(_num(eps))
    return sympy.nsimplify(sympy.simplify((e - 1) / (e - 1 + _num(n))))


def ldp_ratio(n, p):
    """The engine's LDP ratio e^eps of Fig. 4: ``1 + n p/(1 - p)``."""
    p = _num(p)
    return 1 + _num(n) * p / (1 - p)


def p_ldp_eq1(eps, N):
    """Eq. (1) as printed, solved for p_LDP: ``N (e^eps - 1)/(1 + N (e^eps - 1))``."""
    e = sympy.exp(_num(eps))
    N = _num(N)
    return sympy.nsimplify(sympy.simplify(N * (e - 1) / (1 + N * (e - 1))))


def t_fig5(py, p_t):
    """The engine's multiplicative t of Fig. 5 (worst partition): ``max(p_t/min p_y + 1 - p_t, 1/(1 - p_t))``."""
    py = [x for x in (_num(v) for v in py) if x != 0]
    p = _num(p_t)
    return sympy.Max(p / min(py) + 1 - p, 1 / (1 - p))


def p_t_for_t(t0, py):
    """The largest p_t whose Fig. 5 level (worst partition) is at most ``t0``.

    ``min((t0 - 1)/(1/min p_y - 1), 1 - 1/t0)``, or ``1 - 1/t0`` when p_y has one value.
    """
    t0 = _num(t0)
    if t0 < 1:
        raise InputError(f"t0 = {t0} < 1", fix="a multiplicative t-closeness level is >= 1")
    py = [x for x in (_num(v) for v in py) if x != 0]
    m = min(py)
    second = 1 - 1 / t0
    if m == 1:
        return second
    return sympy.Min((t0 - 1) / (1 / m - 1), second)


def p_t_eq2(t0, py):
    """Eq. (2) as printed, solved for p_t at ``t = t0`` (see :func:`calibrate`)."""
    py = [_num(x) for x in py]
    p = sympy.Symbol("p_t", real=True)
    n = len(py)
    terms = []
    for i in range(n):
        if py[i] == 0:
            continue  # the printed terms divide by p_y(a_i); the limit of the second is 1/(1 - p_t)
        mu = py[i] * (p + (1 - p) * py[i] + (1 - p) * sum(py[j] for j in range(n) if j != i))
        terms += [mu / (p / py[i] + (1 - p)), mu / (py[i] * (1 - p))]
    return calibrate(terms, t0, p)


def calibrate(terms, target, var, lo=0, hi=1):
    """The smallest ``var`` in [lo, hi) with ``max(terms) == target``, exactly.

    The candidates are the solutions of ``term == target`` for each term; each is checked by exact
    substitution. Raises InputError when none fits.
    """
    target = _num(target)
    cands = set()
    for term in terms:
        for s in sympy.solve(sympy.Eq(sympy.together(term), target), var):
            s = sympy.nsimplify(s)
            if s.is_real and lo <= s < hi:
                cands.add(s)
    for s in sorted(cands):
        if sympy.simplify(sympy.Max(*[term.subs(var, s) for term in terms]) - target) == 0:
            return s
    raise InputError(f"no {var} in [{lo}, {hi}) reaches the level {target}", fix="choose another target level")


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
