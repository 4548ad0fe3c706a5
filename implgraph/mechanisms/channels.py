"""Randomised-response mechanisms as exact channels, and the tables they produce.

A :class:`Mechanism` is a channel over a nominal domain ``{a1, ..., an}``: an exact (sympy)
transition matrix ``M[i, j] = Pr(output = a_j | input = a_i)`` (rows are inputs). Three mechanisms of
Ekenstedt et al. [1]_ Section V-A are built in:

- :func:`randomised_response` (Fig. 4): keep the input with probability ``p_LDP``, else output a value
  drawn uniformly from the n values: ``M = p I + (1 - p)/n J``;
- :func:`empirical_response` (Fig. 5): keep the input with probability ``p_t``, else output a value
  drawn from the empirical distribution ``p_y`` of the whole data set: ``M = p I + (1 - p) 1 p_y^T``;
- :func:`sequential` (mechanism 2 of Section V-C): Fig. 5 then Fig. 4, ``M = M_5 M_4``.

Applying a mechanism to a :class:`~implgraph.mechanisms.datasets.Dataset` (value counts per equivalence
class) gives a parametric
:class:`~implgraph.core.table.Table` with one block per (class, input value): the block's row is the
channel's row of that input and its count the number of such records. Every definition's level of a
mechanism is then the core's :func:`~implgraph.definitions.levels.optimal_level` of that table (exact; symbolic in
the mechanism's parameters and in symbolic counts).

For a symbolic number of values ``n`` the matrix cannot be written out; :func:`lumped_randomised_response`
gives the exact channel of the event ``{Z = a1}`` (inputs ``a1`` / any other value; outputs ``a1`` /
any other value). By the symmetry of Fig. 4 under permutations of the values every singleton bucket
has the column of ``a1``, so the LDP level over singleton buckets is the level of that column.

References
----------
.. [1] E. Ekenstedt et al., "When Differential Privacy Implies Syntactic Privacy", IEEE TIFS 17, 2022,
   Section V (Fig. 4, Fig. 5, eq. 1-2).

Examples
--------
>>> import sympy
>>> m = randomised_response(2, sympy.Rational(1, 2))
>>> m.matrix
Matrix([
[3/4, 1/4],
[1/4, 3/4]])
>>> m.row(0)
(3/4, 1/4)
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np
import sympy

from implgraph.core.errors import InputError
from implgraph.core.region import Region
from implgraph.core.table import Block, Table
from implgraph.mechanisms.datasets import value_names
from implgraph.core.simplified import simplified

__all__ = ["Mechanism", "randomised_response", "empirical_response", "sequential",
           "lumped_randomised_response", "check_probability"]


def _num(x):
    """A Python or sympy number as an exact sympy number (floats via their decimal text)."""
    if isinstance(x, float):
        return sympy.Rational(repr(x))
    if isinstance(x, str):
        from implgraph.core.formula import parse_expr
        return parse_expr(x, {})
    return sympy.sympify(x)


def _tidy(x):
    """A rational function in lowest terms (``cancel``); anything else simplified (memoised: a channel's row is
    read again for every data set and stage it is applied to)."""
    x = sympy.sympify(x)
    try:
        return _tidy_memo(x)
    except TypeError:   # an unhashable entry: no memo
        return _tidy_now(x)


@functools.lru_cache(maxsize=20_000)
def _tidy_memo(x):
    return _tidy_now(x)


def _tidy_now(x):
    if x.is_rational_function():
        return sympy.cancel(x)
    return simplified(x)


def check_probability(p, name: str = "p", strict_upper: bool = False):
    """Raise :class:`InputError` if ``p`` is a number outside [0, 1] (or [0, 1) if ``strict_upper``).

    Symbolic ``p`` is accepted (its range is stated by the mechanism's region).
    """
    p = _num(p)
    if p.is_number:
        if p.is_real is False or p < 0 or p > 1 or (strict_upper and p == 1):
            hi = "1)" if strict_upper else "1]"
            raise InputError(f"{name} = {p} is outside [0, {hi}",
                             fix=f"give a probability 0 <= {name} {'<' if strict_upper else '<='} 1")
    return p


@dataclass
class Mechanism:
    """A channel over a nominal domain, with an exact transition matrix.

    Parameters
    ----------
    matrix : sympy.Matrix
        ``matrix[i, j] = Pr(output = values[j] | input = values[i])``; every row sums to 1.
    values : list of str
        The domain ``a1..an`` (inputs and outputs).
    name : str
    kinds : dict
        ``{Symbol: "real" | "integer"}`` of the parameters.
    constraints : tuple
        Where the parameters live (e.g. ``0 <= p_LDP <= 1``).
    """

    matrix: sympy.Matrix
    values: list
    name: str = ""
    kinds: dict = field(default_factory=dict)
    constraints: tuple = ()

    @property
    def n(self) -> int:
        return len(self.values)

    @property
    def region(self) -> Region:
        return Region(dict(self.kinds), tuple(self.constraints))

    def prob(self, out, inp):
        """Pr(output = ``out`` | input = ``inp``) (value names or indices)."""
        i = self.values.index(inp) if isinstance(inp, str) else inp
        j = self.values.index(out) if isinstance(out, str) else out
        return self.matrix[i, j]

    def row(self, inp) -> tuple:
        i = self.values.index(inp) if isinstance(inp, str) else inp
        return tuple(_tidy(self.matrix[i, j]) for j in range(self.n))

    def then(self, other: "Mechanism") -> "Mechanism":
        """Sequential composition: ``self`` first, then ``other`` on its output (``M_self M_other``)."""
        if other.values != self.values:
            raise InputError(f"cannot compose mechanisms over {self.values} and {other.values}",
                             fix="use the same value domain")
        m = (self.matrix * other.matrix).applyfunc(sympy.factor)
        kinds = {**self.kinds, **other.kinds}
        return Mechanism(m, list(self.values), f"{self.name} then {other.name}", kinds,
                         tuple(self.constraints) + tuple(c for c in other.constraints if c not in self.constraints))

    def subs(self, point: dict) -> "Mechanism":
        point = {(sympy.Symbol(k, real=True) if isinstance(k, str) else k): _num(v) for k, v in point.items()}
        m = self.matrix.subs(point).applyfunc(sympy.simplify)
        kinds = {s: k for s, k in self.kinds.items() if s not in point}
        cons = []
        for c in self.constraints:
            cc = sympy.sympify(c).subs(point)
            if cc is sympy.true:
                continue
            if cc is sympy.false:
                raise InputError(f"parameter values {point} violate {c}", fix="choose values in range")
            cons.append(cc)
        return Mechanism(m, list(self.values), self.name, kinds, tuple(cons))

    def validate(self) -> "Mechanism":
        """Decide (z3, whole region) that every entry is in [0, 1] and every row sums to 1."""
        region = self.region
        for i in range(self.n):
            total = simplified(sum(self.matrix.row(i)))
            if total != 1 and region.decide(sympy.Eq(total, 1)) is not True:
                raise InputError(f"{self.name}: row {self.values[i]} sums to {total}, not 1",
                                 fix="check the mechanism's parameters")
            for j in range(self.n):
                v = self.matrix[i, j]
                for rel in (v >= 0, v <= 1):
                    rel = sympy.sympify(rel)
                    if rel is sympy.true:
                        continue
                    if rel is sympy.false or region.decide(rel) is not True:
                        raise InputError(f"{self.name}: Pr({self.values[j]} | {self.values[i]}) = {v} can leave "
                                         f"[0, 1]", fix="check the mechanism's parameters")
        return self

    def numeric(self) -> np.ndarray:
        """The matrix as floats (for sampling and plots only)."""
        if self.matrix.free_symbols:
            raise InputError(f"{self.name}: the matrix has free symbols {sorted(map(str, self.matrix.free_symbols))}",
                             fix="substitute values first")
        return np.array(self.matrix.tolist(), dtype=float)

    def sample(self, inputs, rng) -> np.ndarray:
        """Apply the mechanism to an array of input indices (Monte-Carlo; floats)."""
        m = self.numeric()
        cum = np.cumsum(m, axis=1)
        u = rng.random(len(inputs))
        out = (u[:, None] > cum[np.asarray(inputs)]).sum(axis=1)
        return np.minimum(out, self.n - 1)

    def apply(self, dataset: "Dataset") -> Table:
        """The probability table of the mechanism's output on ``dataset``.

        One block per (class, input value) with a non-zero count; its row is the channel's row of that
        input, its count the number of such records. The region joins the mechanism's parameter
        constraints and the data set's count constraints.
        """
        if dataset.values != self.values:
            raise InputError(f"the data set's values {dataset.values} differ from the mechanism's {self.values}",
                             fix="use the same value domain")
        blocks = []
        for label, counts in dataset.classes.items():
            for i, c in enumerate(counts):
                c = sympy.sympify(c)
                if c == 0:
                    continue
                blocks.append(Block(probs=self.row(i), count=c, cls=None if label is None else str(label)))
        kinds = {**dataset.kinds, **self.kinds}
        for s in self.matrix.free_symbols:
            kinds.setdefault(s, "integer" if s.is_integer else "real")
        region = Region(kinds, tuple(self.constraints) + tuple(dataset.constraints))
        symbols = {s.name: s for s in kinds}
        return Table(blocks=blocks, buckets=list(self.values), region=region, symbols=symbols,
                     id=f"{self.name} on {dataset.name}" if dataset.name else self.name)


def randomised_response(n, p) -> Mechanism:
    """Fig. 4 of [1]_: keep with probability ``p``, else a value drawn uniformly from the n values.

    ``Pr(a_i | a_i) = p + (1 - p)/n`` and ``Pr(a_j | a_i) = (1 - p)/n`` for ``j != i``.

    Raises
    ------
    InputError
        ``p`` outside [0, 1] or ``n < 2``.
    """
    n = int(n)
    if n < 2:
        raise InputError(f"n = {n} values", fix="a nominal attribute needs n >= 2 values")
    p = check_probability(p, "p_LDP")
    m = sympy.Matrix(n, n, lambda i, j: (p if i == j else 0) + (1 - p) / n)
    kinds, cons = _param_region([p])
    return Mechanism(m, value_names(n), "Fig. 4 randomised response", kinds, cons)


def empirical_response(py, p) -> Mechanism:
    """Fig. 5 of [1]_: keep with probability ``p``, else a value drawn from the empirical distribution.

    ``Pr(a_j | a_i) = p [i = j] + (1 - p) p_y(a_j)``.

    Raises
    ------
    InputError
        ``p`` outside [0, 1], or ``py`` not a distribution (a number outside [0, 1], or a sum != 1).
    """
    py = [_num(x) for x in py]
    n = len(py)
    if n < 2:
        raise InputError(f"p_y has {n} values", fix="give the frequency of each of n >= 2 values")
    for i, x in enumerate(py):
        check_probability(x, f"p_y(a{i + 1})")
    total = simplified(sum(py))
    if total.is_number and total != 1:
        raise InputError(f"the frequencies p_y sum to {total}, not 1", fix="give a distribution")
    p = check_probability(p, "p_t")
    m = sympy.Matrix(n, n, lambda i, j: (p if i == j else 0) + (1 - p) * py[j])
    kinds, cons = _param_region([p] + py)
    return Mechanism(m, value_names(n), "Fig. 5 randomised response", kinds, cons)


def sequential(first: Mechanism, second: Mechanism) -> Mechanism:
    """Mechanism 2 of [1]_ Section V-C: ``first`` (Fig. 5), then ``second`` (Fig. 4) on its output."""
    return first.then(second)


def lumped_randomised_response(n, p) -> Mechanism:
    """The exact channel of the event ``{Z = a1}`` under Fig. 4 with a (possibly symbolic) ``n``.

    Inputs and outputs are ``a1`` and ``other`` (any of a2..an):
    ``Pr(a1 | a1) = p + (1 - p)/n``, ``Pr(a1 | other) = (1 - p)/n``.
    """
    n = sympy.sympify(n)
    p = check_probability(p, "p_LDP")
    m = sympy.Matrix([[p + (1 - p) / n, (1 - p) * (n - 1) / n],
                      [(1 - p) / n, 1 - (1 - p) / n]])
    kinds, cons = _param_region([p])
    if not n.is_number:
        for s in n.free_symbols:
            kinds[s] = "integer"
        cons = cons + (n >= 2,)
    return Mechanism(m, ["a1", "other"], "Fig. 4 randomised response (a1 vs other values)", kinds, cons)


def _param_region(params):
    kinds, cons = {}, []
    for p in params:
        for s in sympy.sympify(p).free_symbols:
            kinds[s] = "integer" if s.is_integer else "real"
        if not sympy.sympify(p).is_number:
            cons += [p >= 0, p <= 1]
    return kinds, tuple(cons)
