"""The facts sei2019's Theorems 2-4 rest on, each checked symbolically or exhaustively.

Symbolic (every domain size, every parameter value):

- :func:`support_is_eta_subsets` -- the channel is a distribution over the ``eta``-subsets: every released set
  has exactly ``eta`` distinct values (``C(d-1, eta-1) kappa_c + (C(d, eta) - C(d-1, eta-1)) kappa_d = 1``);
- :func:`class_count_bound` -- in a class for ``S_j`` (Definition 10) with ``m`` contributing records, each
  adding its ``eta`` distinct values once: ``n_v <= m`` and ``sum n_v = eta m``, hence ``eta max n_v <= sum n_v``
  (z3, integers);
- :func:`posterior_direction` -- ``B - A = g(x) v_Z`` with ``g = x/(1 + a_Z x)``, per coordinate (eq. 12);
- :func:`distance_increases_in_p` -- ``g(x(p))`` is increasing in ``p`` on ``(0, 1)``;
- :func:`closed_form_root` -- Algorithm 1's root ``x* = G / (1 - a_Z G)`` gives ``g(x*) = G``, and
  ``p = x* eta / (d + x* eta)`` gives back ``x(p) = x*``;
- :func:`geometric_mean_bound` -- a class level whose logarithm is ``-sum c_v log q_v`` with ``c_v >= 0``,
  ``sum c_v = 1`` is at least ``1 / max q`` (a weighted geometric mean of the ``q_v`` is at most their maximum);
- :func:`class_level_steps` -- the same for a class over a symbolic number ``k`` of values, from the level a
  definition declares for every ``k`` (``class_level_formula``), term by term over a generic index (defined in
  :mod:`implgraph.definitions.class_bounds`, where the engines' inequality lemmas use it too);
- :func:`whole_domain_release` and :func:`posterior_of_whole_domain` -- with ``eta = d`` every record releases
  the whole domain, whose Bayes posterior (eq. 12) is the prior;
- :func:`emd_to_itself` -- Definition 5's program of any size has optimum 0 between a distribution and itself.

Exhaustive (bounded): :func:`supported_releases` lists every release a database can produce with positive
probability; :func:`supported_records` lists the same releases as their records' sets (cheap to compare;
:func:`release_of` makes one a release).
"""

from __future__ import annotations

import functools
import itertools

import numpy as np
import sympy

from implgraph.core.region import Region
from implgraph.definitions.class_bounds import class_level_steps  # moved there (the engines use it too)
from implgraph.mechanisms.randomized_anonymization.channel import SetChannel, set_probabilities
from implgraph.mechanisms.randomized_anonymization.release import Release
from implgraph.core.simplified import simplified

__all__ = ["support_is_eta_subsets", "class_count_bound", "posterior_direction", "distance_increases_in_p",
           "closed_form_root", "geometric_mean_bound", "class_level_steps", "whole_domain_release",
           "posterior_of_whole_domain", "emd_to_itself", "supported_records", "release_of", "supported_releases"]


def support_is_eta_subsets(p, eta, d) -> bool:
    """``sum over eta-subsets Z of Pr(Z | v) = 1`` identically (sympy ``combsimp``)."""
    kc, kd = set_probabilities(p, eta, d)
    d, eta = sympy.sympify(d), sympy.sympify(eta)
    inside = sympy.binomial(d - 1, eta - 1)
    total = inside * kc + (sympy.binomial(d, eta) - inside) * kd
    return simplified(sympy.combsimp(sympy.expand_func(total)) - 1) == 0


def class_count_bound() -> bool | None:
    """z3: ``n_max <= m``, ``total = eta m``, ``eta, m >= 1`` imply ``eta n_max <= total`` (integers)."""
    n_max, m, eta, total = sympy.symbols("n_max m eta total", integer=True)
    region = Region({n_max: "integer", m: "integer", eta: "integer", total: "integer"},
                    (m >= 1, eta >= 1, n_max >= 0, n_max <= m, sympy.Eq(total, eta * m)))
    return region.decide(eta * n_max <= total)


def posterior_direction() -> bool:
    """``B_m - A_m = g(x) A_m (1[m in Z] - a_Z)`` for both cases of ``m`` (eq. 12, ``r = 1 + x``)."""
    a_m, a_z, x = sympy.symbols("A_m a_Z x", positive=True)
    r = 1 + x
    norm = r * a_z + 1 - a_z
    g = x / (1 + a_z * x)
    inside = sympy.cancel(a_m * r / norm - a_m - g * a_m * (1 - a_z))    # rational functions: 0 iff identically 0
    outside = sympy.cancel(a_m / norm - a_m - g * a_m * (0 - a_z))
    return inside == 0 and outside == 0


def distance_increases_in_p() -> bool:
    """``g(x(p))`` with ``x = p d / ((1 - p) eta)`` is increasing on ``0 < p < 1`` (``p = u/(1 + u)``, ``u > 0``)."""
    u, d, eta, a_z = sympy.symbols("u d eta a_Z", positive=True)
    p = u / (1 + u)
    x = sympy.cancel(p * d / ((1 - p) * eta))
    g = x / (1 + a_z * x)
    return sympy.factor(sympy.diff(g, u)).is_positive is True     # d eta / (a_Z d u + eta)^2


def closed_form_root() -> bool:
    """``g(G / (1 - a G)) = G`` and ``x(x* eta / (d + x* eta)) = x*`` identically."""
    a_z, big_g, xs, d, eta = sympy.symbols("a_Z G x_star d eta", positive=True)
    x = big_g / (1 - a_z * big_g)
    p = xs * eta / (d + xs * eta)
    return (sympy.cancel(x / (1 + a_z * x) - big_g) == 0          # rational functions: 0 iff identically 0
            and sympy.cancel(p * d / ((1 - p) * eta) - xs) == 0)


def geometric_mean_bound(level, probs) -> bool:
    """Is ``level >= 1 / max(probs)`` by the weighted-geometric-mean rule?

    ``log(level)`` must expand to ``-sum c_v log(q_v)`` with every ``c_v >= 0`` (sympy assumptions on the
    positive ``q_v``) and ``sum c_v = 1`` on the simplex ``sum q_v = 1``; then ``log(level) + log(max q) =
    sum c_v log(max q / q_v) >= 0`` term by term.
    """
    probs = list(probs)
    expr = sympy.expand_log(sympy.log(level), force=True)
    coeffs = [-expr.coeff(sympy.log(q)) for q in probs]
    rest = simplified(expr + sum(c * sympy.log(q) for c, q in zip(coeffs, probs)))
    if rest != 0:
        return False
    if any(sympy.sympify(c).is_nonnegative is not True for c in coeffs):
        return False
    last = probs[-1]
    total = simplified(sum(coeffs).subs(last, 1 - sum(probs[:-1])))
    return total == 1


def whole_domain_release(p, d) -> bool:
    """With ``eta = d``, ``Pr(R = D | v) = 1`` for every value ``v``, every ``p`` and every ``d`` (sympy)."""
    kappa_c, _ = set_probabilities(p, d, d)
    return simplified(kappa_c - 1) == 0


def posterior_of_whole_domain() -> bool:
    """eq. (12) with every value in the released set: ``B_m = kappa A_m / sum_k kappa A_k = A_m`` (``sum A = 1``)."""
    a_m, kappa = sympy.symbols("A_m kappa", positive=True)
    return simplified(kappa * a_m / (kappa * 1) - a_m) == 0


def emd_to_itself() -> bool:
    """``D[A, A] = 0`` (Definition 5), for any size ``n`` and any ground distance ``dist >= 0`` with
    ``dist[i, i] = 0``: the diagonal flow ``f[i, j] = a[i] delta_ij`` has row and column sums ``a`` (for
    ``1 <= i <= n``, written ``n = i + m``, ``m >= 0``) and costs 0, and no flow ``f >= 0`` costs less (z3)."""
    n = sympy.Symbol("n", integer=True, positive=True)
    i, j = sympy.symbols("i j", integer=True, positive=True)
    m = sympy.Symbol("m", integer=True, nonnegative=True)
    a, dist = sympy.IndexedBase("a"), sympy.IndexedBase("dist")
    flow = a[i] * sympy.KroneckerDelta(i, j)
    rows = sympy.Sum(flow, (j, 1, n)).doit().subs(n, i + m)
    cols = sympy.Sum(flow, (i, 1, n)).doit().subs(n, j + m)
    cost = sympy.Sum(sympy.Sum(dist[i, j] * flow, (j, 1, n)).doit().xreplace({dist[i, i]: 0}), (i, 1, n)).doit()
    x, y = sympy.symbols("x y", real=True)
    nonnegative = Region({x: "real", y: "real"}, (x >= 0, y >= 0)).decide(x * y >= 0)
    return rows == a[i] and cols == a[j] and cost == 0 and nonnegative is True


def supported_records(columns: dict, params: dict):
    """Every release of ``columns`` with positive probability, as its records' sets: one list per release,
    ``records[i]`` the tuple of record ``i``'s released sets (one tuple of value indices per attribute, in
    domain order, as :meth:`Release.sets <implgraph.mechanisms.randomized_anonymization.release.Release.sets>`
    gives them). :func:`supported_releases` is the same enumeration as :class:`Release` objects.

    ``columns``: ``{name: list of value indices}``; ``params``: ``{name: (domain, p, eta)}``.
    """
    names = list(columns)
    n = len(columns[names[0]])
    options = []
    for name in names:
        dom, p, eta = params[name]
        support = _support(len(dom), p, eta)
        options.append([support[v] for v in columns[name]])
    choices = [list(itertools.product(*[options[a][i] for a in range(len(names))])) for i in range(n)]
    for pick in itertools.product(*choices):
        yield [tuple(sets) for sets in pick]


@functools.lru_cache(maxsize=256)
def _support(d: int, p, eta) -> tuple:
    """``support[v]``: the sets the channel over ``range(d)`` releases with positive probability for value ``v``
    (memo: the same channel serves every database of an exhaustive check)."""
    ch = SetChannel(list(range(d)), p, eta)
    return tuple([z for z in ch.outputs() if ch.prob(z, v) != 0] for v in range(d))


def release_of(columns: dict, params: dict, records: list) -> Release:
    """The :class:`Release` whose record ``i`` released ``records[i]`` (one set per attribute of ``columns``)."""
    names = list(columns)
    member = []
    for a, name in enumerate(names):
        m = np.zeros((len(records), len(params[name][0])), dtype=bool)
        for i, sets in enumerate(records):
            m[i, list(sets[a])] = True
        member.append(m)
    return Release(names, [list(params[nm][0]) for nm in names],
                   [(params[nm][1], params[nm][2]) for nm in names], member)


def supported_releases(columns: dict, params: dict):
    """Every release of ``columns`` with positive probability, as :class:`Release` objects
    (:func:`supported_records`, each made a release).

    ``columns``: ``{name: list of value indices}``; ``params``: ``{name: (domain, p, eta)}``.
    """
    for records in supported_records(columns, params):
        yield release_of(columns, params, records)
