"""The privacy models of sei2019 Section IV (and Definitions 17-18) on a release, exactly.

The release is read in the non-aggregated expression: record ``i`` stands for the rows
``R_i1 x ... x R_iq``. An *equivalence class for S_j* (Definition 10) is the set of rows that agree on
every attribute but ``S_j``; :func:`classes_for` lists them with, per class, the number of rows holding
each value of ``S_j`` (``n_j(v)``) and the records that contribute (record ``i`` contributes the
``eta_j`` rows ``key x R_ij`` to every class ``key`` in the product of its other sets).

Levels (the model holds at level ``x`` iff ``x`` is at most / at least the returned value):

- :func:`frequency_level` -- frequency ``[[l, j]]``-diversity (Definition 11) holds iff ``l <=`` the minimum
  over classes of ``sum_v n_j(v) / max_v n_j(v)``;
- :func:`entropy_holds` -- entropy ``[[l, j]]``-diversity (Definition 13), decided exactly;
- :func:`anonymity_level` -- ``[[k, j]]``-anonymity (Definition 17) holds iff ``k <=`` the smallest class;
- :func:`closeness_level` -- ``[[t, j]]``-closeness (Definition 15) holds iff ``t >=`` the largest EMD between
  ``A_j`` and a class's inferred distribution ``B_j``. The paper leaves "inferred from the original
  distribution of the equivalence class" open; Section V-C-3 infers per record by Bayes' theorem (eq. 12)
  and argues with Lemma 1 about merged sets of records, so the class's ``B_j`` is read as the average of
  its records' posteriors. :func:`record_closeness_level` is the largest per-record EMD, which bounds every
  class's by Lemma 1 (the argument of Theorem 4).

The ``(l_1, ..., l_q)``, ``(t_1, ..., t_q)`` and ``(k_1, ..., k_q)`` models (Definitions 12, 14, 16, 18) are the
conjunctions over ``j``: :func:`vector_levels`.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import sympy

from implgraph.core.concrete import ConcreteTable
from implgraph.core.errors import InputError
from implgraph.definitions.emd_t_closeness import _emd
from implgraph.definitions.l_diversity import compare_entropies, compare_level
from implgraph.mechanisms.randomized_anonymization.channel import posterior

__all__ = ["classes_for", "classes_of_records", "class_table", "class_csv", "frequency_level", "entropy_holds", "entropy_level",
           "anonymity_level", "emd", "closeness_level", "record_closeness_level", "vector_levels", "CLASS_LIMIT"]

CLASS_LIMIT = 2_000_000
"""Most (record, class) incidences :func:`classes_for` enumerates before refusing."""


def classes_for(release, j: int, limit: int = CLASS_LIMIT) -> dict:
    """The equivalence classes for ``S_j`` (Definition 10).

    Returns
    -------
    dict
        ``{key: (counts, records)}``: ``key`` the values (indices) of the other attributes, ``counts`` a
        list ``n_j(v)`` over ``D(S_j)``, ``records`` the contributing record indices.
    """
    others = [k for k in range(len(release.names)) if k != j]
    sizes = [int(release.member[k].sum(axis=1).max(initial=0)) for k in others]
    if release.N * math.prod(sizes) > limit:
        raise InputError(f"the release has up to {release.N} x {math.prod(sizes)} incidences of records "
                         f"and classes for {release.names[j]}, more than {limit}",
                         fix="check a smaller release or fewer attributes (the parameters' guarantee "
                             "holds for any size)")
    return classes_of_records([release.sets(i) for i in range(release.N)], j, len(release.domains[j]))


def classes_of_records(records, j: int, d: int) -> dict:
    """:func:`classes_for` of the release whose record ``i`` released the sets ``records[i]`` (one tuple of value
    indices per attribute; ``d`` the size of ``D(S_j)``), without the size limit."""
    others = [k for k in range(len(records[0])) if k != j] if records else []
    out: dict = {}
    for i, sets in enumerate(records):
        own = sets[j]
        for key in itertools.product(*(sets[k] for k in others)):
            counts, rows = out.setdefault(key, ([0] * d, []))
            for v in own:
                counts[v] += 1
            rows.append(i)
    return out


def class_table(release, j: int) -> ConcreteTable:
    """The non-aggregated release as the core's table for ``S_j``: one row per row of ``T*`` (a point mass
    on its ``S_j`` value), classed by the classes for ``S_j``; every registered definition's level of it is
    then the core's :func:`~implgraph.definitions.levels.optimal_level`."""
    rows, labels = [], []
    d = len(release.domains[j])
    for n, (key, (counts, _)) in enumerate(sorted(classes_for(release, j).items())):
        for v, c in enumerate(counts):
            rows += [[int(u == v) for u in range(d)]] * c
            labels += [f"E{n + 1}"] * c
    return ConcreteTable.from_numerators(rows, 1, buckets=list(release.domains[j]), classes=labels)


def class_csv(release, j: int) -> str:
    """:func:`class_table` as the CSV ``implgraph levels`` reads (``class`` column, one column per value)."""
    table = class_table(release, j)
    lines = [",".join(["class", *(f'"{b}"' if "," in b else b for b in table.buckets)])]
    for label, row in zip(table.classes, table.numer.tolist()):
        lines.append(",".join([str(label), *map(str, row)]))
    return "\n".join(lines) + "\n"


def frequency_level(release, j: int) -> Fraction:
    """The largest ``l`` with frequency ``[[l, j]]``-diversity: ``min sum n_j / max n_j`` over classes."""
    return min(Fraction(sum(c), max(c)) for c, _ in classes_for(release, j).values())


def entropy_holds(release, j: int, level) -> bool:
    """Whether entropy ``[[level, j]]``-diversity holds (exact: ``exp(H) >= level`` in every class)."""
    target = Fraction(level)
    return all(compare_level((tuple(c), sum(c)), target) >= 0 for c, _ in classes_for(release, j).values())


def entropy_level(release, j: int):
    """The largest ``l`` with entropy ``[[l, j]]``-diversity: ``min exp(H)`` over classes (sympy, exact)."""
    dists = [(tuple(c), sum(c)) for c, _ in classes_for(release, j).values()]
    worst = dists[0]
    for dist in dists[1:]:
        if compare_entropies(dist, worst) < 0:
            worst = dist
    counts, total = worst
    return sympy.Mul(*[sympy.Pow(sympy.Rational(c, total), -sympy.Rational(c, total)) for c in counts if c])


def anonymity_level(release, j: int) -> int:
    """The largest ``k`` with ``[[k, j]]``-anonymity: the fewest rows in a class for ``S_j``."""
    return min(sum(c) for c, _ in classes_for(release, j).values())


def emd(a, b, ground: str = "equal"):
    """The EMD between two distributions over the same ordered domain (exact; Definition 5).

    ``ground="equal"`` (every two values at distance 1) or ``"ordered"`` (``|i - k| / (d - 1)``), the
    ground distances of the project's EMD t-closeness.
    """
    diffs = [sympy.sympify(x) - sympy.sympify(y) for x, y in zip(b, a)]
    if len(diffs) == 1:
        return sympy.Integer(0)
    return _emd(diffs, ground, abs)


def _record_posteriors(release, j: int, prior):
    p, eta = release.params[j]
    cache = {}
    rows = []
    for i in range(release.N):
        key = tuple(np.flatnonzero(release.member[j][i]).tolist())
        if key not in cache:
            cache[key] = posterior(prior, key, p, eta)
        rows.append(cache[key])
    return rows


def closeness_level(release, j: int, prior, ground: str = "equal"):
    """The least ``t`` with ``[[t, j]]``-closeness: the largest ``EMD(A_j, B_j)`` over classes for ``S_j``.

    ``B_j`` of a class is the average of the Bayes posteriors (eq. 12) of its rows' records (each record
    weighted by its ``eta_j`` rows, i.e. equally).
    """
    rows = _record_posteriors(release, j, prior)
    best = sympy.Integer(0)
    for _, records in classes_for(release, j).values():
        mix = [sum(rows[i][m] for i in records) / len(records) for m in range(len(prior))]
        best = sympy.Max(best, emd(prior, mix, ground))
    return best


def record_closeness_level(release, j: int, prior, ground: str = "equal"):
    """The largest ``EMD(A_j, B_j^(i))`` over records (the per-record bound of Theorem 4's proof)."""
    rows = {tuple(r) for r in _record_posteriors(release, j, prior)}
    return max((emd(prior, r, ground) for r in rows), default=sympy.Integer(0))


def vector_levels(release, model: str, priors=None, ground: str = "equal") -> list:
    """Per-attribute levels ``[x_1, ..., x_q]`` of ``model`` (``"frequency"``, ``"entropy"``,
    ``"anonymity"`` or ``"closeness"``): the release satisfies the ``(x_1, ..., x_q)`` model at the
    returned vector (Definitions 12, 14, 16, 18)."""
    funcs = {"frequency": frequency_level, "entropy": entropy_level, "anonymity": anonymity_level}
    if model == "closeness":
        if priors is None:
            raise InputError("closeness needs the distributions A_j of the original data",
                             fix="pass priors (one distribution per attribute)")
        return [closeness_level(release, j, priors[j], ground) for j in range(len(release.names))]
    if model not in funcs:
        raise InputError(f"unknown model {model!r}", fix=f"use one of {', '.join([*funcs, 'closeness'])}")
    return [funcs[model](release, j) for j in range(len(release.names))]
