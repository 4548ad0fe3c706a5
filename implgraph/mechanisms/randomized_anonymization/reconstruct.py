"""Reconstruction of a cross tabulation from a release (sei2019 Section V-D).

For the attributes ``S' = (S'_1, ..., S'_q')`` a data analyser estimates, for every cell ``c_m`` of
``C = D(S'_1) x ... x D(S'_q')``, the number ``x_m`` of original records in it.

- :func:`support_counts` -- ``w_m`` (eq. 17): how many released records' products contain ``c_m``
  (exact integers);
- :func:`value_adding` -- eq. (18) as printed;
- :func:`bayes` -- the iteration (26) from ``x^0 = w`` with ``delta`` of eq. (19)/(21), then (27).

``delta`` is the Kronecker product over ``j`` of ``F_j = (own_j - other_j) I + other_j J`` (the inclusion
probabilities of eq. 19), so ``delta @ x`` is applied one axis at a time and ``|C|^2`` is never formed.
The iteration runs in floats (it is a numerical fixed point, not a verdict).
"""

from __future__ import annotations

import math

import numpy as np

from implgraph.mechanisms.randomized_anonymization.channel import inclusion_probabilities

BINCOUNT_LIMIT = 2 ** 22
"""Most record-cell incidences (records x ``prod eta``) counted at once by :func:`support_counts`."""

__all__ = ["support_counts", "true_counts", "value_adding", "bayes", "bayes_counts", "factors", "apply_delta",
           "Reconstruction"]


def support_counts(release, attrs) -> np.ndarray:
    """``w`` of eq. (17) as an integer array of shape ``(d_1, ..., d_q')``: every record's product of sets
    counted, :data:`BINCOUNT_LIMIT` record-cell incidences at a time (integers only)."""
    idx = [release.index(a) for a in attrs]
    shape = tuple(len(release.domains[j]) for j in idx)
    sets = [release.codes(j) for j in idx]
    if len(idx) == 1:
        return np.bincount(np.asarray(sets[0]).ravel(), minlength=shape[0]).astype(np.int64)
    per_record = math.prod(s.shape[1] for s in sets)
    step = max(1, BINCOUNT_LIMIT // max(per_record, 1))
    strides = np.cumprod((1,) + shape[:0:-1])[::-1]
    w = np.zeros(math.prod(shape), dtype=np.int64)
    for lo in range(0, release.N, step):
        flat = np.zeros((min(step, release.N - lo),) + (1,) * len(idx), dtype=np.int64)
        for axis, (chosen, stride) in enumerate(zip(sets, strides)):
            view = [flat.shape[0]] + [1] * len(idx)
            view[axis + 1] = chosen.shape[1]
            flat = flat + chosen[lo:lo + step].astype(np.int64).reshape(view) * int(stride)
        w += np.bincount(flat.ravel(), minlength=w.size)
    return w.reshape(shape)


def true_counts(codes, shape) -> np.ndarray:
    """``x``: the original cross tabulation from per-attribute value codes."""
    flat = np.ravel_multi_index(tuple(np.asarray(c) for c in codes), shape)
    return np.bincount(flat, minlength=math.prod(shape)).reshape(shape)


def factors(release, attrs) -> list:
    """``(own_j, other_j, eta_j)`` of each attribute (eq. 19), as floats for the iteration."""
    out = []
    for a in attrs:
        j = release.index(a)
        p, eta = release.params[j]
        own, other = inclusion_probabilities(p, eta, len(release.domains[j]))
        out.append((float(own), float(other), int(eta)))
    return out


def value_adding(release, attrs) -> np.ndarray:
    """ValueAdding (eq. 18): ``w P / prod eta + (N - w)(1 - P)/(|C| - prod eta)``, ``P = prod own_j``."""
    w = support_counts(release, attrs).astype(float)
    facs = factors(release, attrs)
    own = math.prod(f[0] for f in facs)
    etas = math.prod(f[2] for f in facs)
    cells = w.size
    n = release.N
    rest = (n - w) * (1 - own) / (cells - etas) if cells != etas else 0.0
    return w * own / etas + rest


def apply_delta(x, facs):
    """``delta @ x`` with ``delta`` the Kronecker product of ``(own - other) I + other J``."""
    for axis, (own, other, _) in enumerate(facs):
        x = (own - other) * x + other * x.sum(axis=axis, keepdims=True)
    return x


class Reconstruction(np.ndarray):
    """A reconstructed cross tabulation; ``.iterations`` steps of (26) ran, ``.converged`` says whether the
    last one moved no cell by more than the tolerance (else ``max_iter`` stopped it)."""

    iterations: int = 0
    converged: bool = False


def bayes(release, attrs, tol: float = 1e-2, max_iter: int = 10_000, accelerate: bool = True) -> np.ndarray:
    """The Bayes reconstruction (eq. 26-27) of ``attrs`` from ``release``: :func:`bayes_counts` of ``w``."""
    w = support_counts(release, attrs).astype(float)
    return bayes_counts(w, factors(release, attrs), tol, max_iter, accelerate)


def _step(x, w, facs):
    """One step of (26): ``x * delta (w / delta x)`` (``delta`` is symmetric)."""
    denom = apply_delta(x, facs)
    ratio = np.divide(w, denom, out=np.zeros_like(w), where=denom > 0)
    return x * apply_delta(ratio, facs)


def _jump(x, x2, r, v, alpha):
    """SQUAREM's extrapolation ``x - 2 alpha r + alpha^2 v`` at the step length ``alpha <= -1``, kept in the
    orthant ``x >= 0`` by backtracking [1]_: while the jump leaves it, ``alpha`` moves half way towards -1, whose
    jump is the plain double step ``x2`` (a cell set to 0 would stay 0 under (26)).

    References
    ----------
    .. [1] R. Varadhan and C. Roland, "Simple and globally convergent methods for accelerating the
       convergence of any EM algorithm", Scand. J. Statist. 35, 2008 (Section 5: the step length is
       moved towards -1 until the extrapolated point is admissible).
    """
    for _ in range(BACKTRACK):
        if alpha >= -1.0:
            break
        jump = x - 2 * alpha * r + alpha * alpha * v
        if (jump >= 0).all():
            return jump
        alpha = (alpha - 1.0) / 2
    return x2


BACKTRACK = 20
"""Most halvings of SQUAREM's step length towards -1 (the plain double step) before it is taken."""


def bayes_counts(w, facs, tol: float = 1e-2, max_iter: int = 10_000, accelerate: bool = True) -> np.ndarray:
    """Iterate (26) from ``x^0 = w`` to its fixed point and divide by ``prod eta`` (27).

    (26) is the Richardson-Lucy (EM) iteration for ``w ~ delta x``; it converges linearly and slowly near the
    boundary, so by default it is accelerated by SQUAREM [1]_ (two steps of (26), an extrapolation -- the plain
    double step where it would leave ``x >= 0`` -- then one stabilising step of (26)), which has the same fixed
    points. A jump leaving the orthant ``x >= 0`` is shortened towards the plain double step (:func:`_jump`).

    Parameters
    ----------
    w : numpy.ndarray
        The support counts (eq. 17), one axis per attribute.
    facs : list of tuple
        ``(own_j, other_j, eta_j)`` per axis (eq. 19).
    tol : float
        Stop when one step of (26) moves no cell of ``x / prod eta`` by more than ``tol`` records.
    max_iter : int
        Most steps of (26).
    accelerate : bool
        SQUAREM (default) or the plain iteration as printed.

    Returns
    -------
    numpy.ndarray
        ``x_hat`` (float); its ``iterations`` attribute says how many steps of (26) ran.

    References
    ----------
    .. [1] R. Varadhan and C. Roland, "Simple and globally convergent methods for accelerating the
       convergence of any EM algorithm", Scand. J. Statist. 35, 2008.
    """
    w = np.asarray(w, dtype=float)
    etas = math.prod(f[2] for f in facs)
    x = w.copy()
    steps, converged = 0, False
    while steps < max_iter:
        x1 = _step(x, w, facs)
        steps += 1
        if np.abs(x1 - x).max(initial=0.0) <= tol * etas:
            x, converged = x1, True
            break
        if not accelerate:
            x = x1
            continue
        x2 = _step(x1, w, facs)
        r, v = x1 - x, x2 - 2 * x1 + x
        nv = np.linalg.norm(v)
        alpha = min(-np.linalg.norm(r) / nv, -1.0) if nv > 0 else -1.0
        x = _step(_jump(x, x2, r, v, alpha), w, facs)
        steps += 2
    out = (x / etas).view(Reconstruction)
    out.iterations, out.converged = steps, converged
    return out
