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

import itertools
import math

import numpy as np

from implgraph.mechanisms.randomized_anonymization.channel import inclusion_probabilities

__all__ = ["support_counts", "true_counts", "value_adding", "bayes", "bayes_counts", "factors", "apply_delta",
           "Reconstruction"]


def support_counts(release, attrs) -> np.ndarray:
    """``w`` of eq. (17) as an integer array of shape ``(d_1, ..., d_q')``."""
    idx = [release.index(a) for a in attrs]
    mats = [release.member[j].astype(np.float32) for j in idx]
    shape = tuple(m.shape[1] for m in mats)
    if len(mats) == 1:
        return mats[0].sum(axis=0).astype(np.int64)
    w = np.zeros(shape, dtype=np.int64)
    head, (m1, m2) = mats[:-2], mats[-2:]
    for cell in itertools.product(*(range(m.shape[1]) for m in head)):
        weight = np.ones(release.N, dtype=np.float32)
        for m, c in zip(head, cell):
            weight = weight * m[:, c]
        # float32 sums of 0/1 products are exact below 2**24 records
        w[cell] = np.rint((m1 * weight[:, None]).T @ m2).astype(np.int64)
    return w


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
    """A reconstructed cross tabulation with the number of iterations in ``.iterations``."""

    iterations: int = 0


def bayes(release, attrs, tol: float = 1e-3, max_iter: int = 10_000) -> np.ndarray:
    """The Bayes reconstruction (eq. 26-27) of ``attrs`` from ``release``: :func:`bayes_counts` of ``w``."""
    w = support_counts(release, attrs).astype(float)
    return bayes_counts(w, factors(release, attrs), tol, max_iter)


def bayes_counts(w, facs, tol: float = 1e-3, max_iter: int = 10_000) -> np.ndarray:
    """Iterate (26) from ``x^0 = w`` and divide by ``prod eta`` (27).

    Parameters
    ----------
    w : numpy.ndarray
        The support counts (eq. 17), one axis per attribute.
    facs : list of tuple
        ``(own_j, other_j, eta_j)`` per axis (eq. 19).
    tol : float
        Stop when no cell of ``x^# / prod eta`` moves by more than ``tol`` records.
    max_iter : int

    Returns
    -------
    numpy.ndarray
        ``x_hat`` (float); its ``iterations`` attribute says how many steps ran.
    """
    w = np.asarray(w, dtype=float)
    etas = math.prod(f[2] for f in facs)
    x = w.copy()
    steps = 0
    for steps in range(1, max_iter + 1):
        denom = apply_delta(x, facs)
        ratio = np.divide(w, denom, out=np.zeros_like(w), where=denom > 0)
        new = x * apply_delta(ratio, facs)
        done = np.abs(new - x).max(initial=0.0) <= tol * etas
        x = new
        if done:
            break
    out = (x / etas).view(Reconstruction)
    out.iterations = steps
    return out
