"""``class-to-subset``: a removal bounded by the mass of the classes (docs/arguments/class-to-subset.md);
a two-sided class level bounds the record-removal subset level.

Theorem (docs/proofs/class-to-subset.md). Let a table of N >= 2 records (any number of buckets) be
partitioned into >= 2 classes of >= s records each (1 <= s, 2 s <= N) with two-sided class level
<= T (every class mean within a factor T of the table mean, every bucket). Then its two-sided
subset level of size j_B = N - 1 (record removal, ``dp``) is at most ``U = (N - 1) T / s``, and this
is the supremum: it is attained by a binary table with a class E1 of N - s records (one at
``(N T - s) c``, N - s - 1 at 0) and a class E2 of s records at ``c``, ``c = 1/(T (N T + 1))``. For
j_B <= N - 2 the supremum is infinite (each class's mass on one record leaves N - 2 zeros), and for
j_B = N the level is 1; only j_B = N - 1 is handled here.

Proof per bucket with mean m > 0: the N - 1 smallest values sum to N m minus the largest value x,
and x is at most the sum of its class E (size e); the other classes hold >= N - e >= s records with
means >= m/T, so ``N m - x >= s m / T`` and ``m / low_{N-1} <= (N - 1) T / s``. The other direction:
``high_{N-1} / m <= N / (N - 1)`` (drop a value >= 0), which is <= (N - 1) T / s for N >= 4 (s <= N/2)
and for N = 3 (s = 1, an integer), and for N = 2 the classes are the two singletons, whose ratios are <= T.
"""

from __future__ import annotations

from fractions import Fraction

import sympy

from implgraph.core import methods
from implgraph.prover.answer import Bound, T, final
from implgraph.prover.parts import two_classes
from implgraph.prover.registry import argument, certificate_parts
from implgraph.prover.shapes import at_least_one, compares, decide
from implgraph.prover.tables import frac

METHOD = methods.CLASS_TO_SUBSET


@argument(METHOD, order=190, applies=lambda ctx: compares(ctx.a, "class") and ctx.jb is not None)
def bound(ctx):
    return final(class_to_subset(ctx.a_classes, ctx.jb, ctx.region, ctx.N))


def _class_mass_family(A):
    """The table of docs/proofs/class-to-subset.md, c = 1/(T (N T + 1)): class E1 of N - s records (one
    at (N T - s) c, N - s - 1 at 0), class E2 of s records at c."""
    s_ = f"({A.get('min_class', '1')})"
    return [{"count": "1", "value": f"(N*T - {s_})/(T*(N*T + 1))", "class": "E1"},
            {"count": f"N - {s_} - 1", "value": "0", "class": "E1"},
            {"count": s_, "value": "1/(T*(N*T + 1))", "class": "E2"}]


#: the multipliers of ``class-mass``'s identities (the checker's fact names)
_CLASS_MASS_MULTIPLIERS = {
    "lower": {"T*L >= N - e": "1", "N - e - s >= 0": "1"},
    "upper": {"T - 1 >= 0": "(N - 1)**2", "N - 2s >= 0": "N/2", "1": "(N**2 - 4*N + 2)/2"},
    "pair": {"N - 2s >= 0": "T/2", "N - 2 == 0": "T/2"}}


@certificate_parts(METHOD, family=lambda cert, ctx: {"blocks": _class_mass_family(cert["A"])})
def upper_certificate(cert, ctx):
    s_ = cert["A"].get("min_class", "1")
    two_classes(cert, s_)
    cert["upper_certificate"] = {"lemma": METHOD.lemma, "multipliers": {
        k: dict(v) for k, v in _CLASS_MASS_MULTIPLIERS.items()}}


def class_to_subset(a_classes, jb, region, N):
    """The tight :class:`Bound` ``(N - 1) T / s`` of a two-sided subset level of size ``jb = N - 1``
    under a two-sided class level <= T with classes of >= s records (``a_classes["min_size"]``,
    default 1); None where the argument does not apply or the solver does not confirm a step.

    Parameters
    ----------
    a_classes : dict or None
        A's class spec; a ``max_size`` (bounded classes) is not handled (None is returned).
    jb : sympy.Expr
        B's subset size.
    region : Region
        The claim's condition in terms of T with the parameter ranges.
    N : sympy.Symbol or int

    Returns
    -------
    Bound or None
    """
    spec = a_classes or {}
    if spec.get("max_size") is not None:
        return None
    s = sympy.sympify(spec.get("min_size", 1))
    if s.is_integer is not True:
        return None             # a class size is a count: N/2 or 3/2 has no partition at every N
    # the class size's symbols, integers as declared (a size is a count: the N = 3 step needs it)
    region = region.with_symbols({x: "integer" if x.is_integer else "real" for x in s.free_symbols
                                  if x not in region.kinds})
    reg = region.add(*[c for c in (at_least_one(s), sympy.Le(2 * s, N)) if c not in (sympy.true, True)])
    if decide(reg, sympy.Eq(jb, N - 1)) is not True:
        return None
    U = (N - 1) * T / s
    L, e = sympy.symbols("L_ e_", positive=True)
    base = reg.with_symbols({L: "real", e: "real"})
    steps = {
        # scale-free, m = 1: the N - 1 smallest sum to L = N - x >= (N - e) / T (the other classes), N - e >= s,
        # and m / low_(N-1) = (N - 1) / L
        "m / low_(N-1) <= (N - 1) T / s": decide(base.add(T * L >= N - e, N - e >= s, L > 0), s <= T * L),
        "N / (N - 1) <= (N - 1) T / s where N >= 4": decide(reg.add(N >= 4), N * s <= (N - 1) ** 2 * T),
        "N / (N - 1) <= (N - 1) T / s where N = 3 (s = 1, an integer <= 3/2)": decide(
            reg, sympy.Or(sympy.Ne(N, 3), sympy.And(sympy.Eq(s, 1), 3 <= 4 * T))),
        "N = 2 only with s = 1 (two singleton classes)": decide(reg, sympy.Or(sympy.Ne(N, 2), sympy.Eq(s, 1))),
    }
    checks = [f"{k}: {v}" for k, v in steps.items()]
    if not all(v is True for v in steps.values()):
        return None
    arg = (f"classes of >= s = {s} records, B's subset size N - 1 (record removal): in a bucket with mean m the "
           "N - 1 smallest values sum to N m - x, x the largest, which is at most its class's sum; the other "
           "classes hold >= s records with means >= m/T, so m / low_(N-1) <= (N - 1) T / s; the other ratio "
           "high_(N-1) / m is <= N / (N - 1) <= (N - 1) T / s for N >= 4 and for N = 3 (then s = 1, an integer), and "
           "<= T (singleton classes) for N = 2 "
           "(each step decided by z3); attained by a binary table with classes E1 of N - s records (one at "
           "(N T - s) c, N - s - 1 at 0) and E2 of s records at c, c = 1/(T (N T + 1)) "
           "(docs/proofs/class-to-subset.md)")
    return Bound(U, True, METHOD.name, arg, checks=checks,
                 build=lambda point: class_to_subset_table(T, N, s, point))


def class_to_subset_values(Tv, Nv, sv):
    """Bucket-1 values and class labels of the attaining table (exact Fractions)."""
    Tv = Fraction(Tv)
    c = 1 / (Tv * (Nv * Tv + 1))
    vals = [(Nv * Tv - sv) * c] + [Fraction(0)] * (Nv - sv - 1) + [c] * sv
    labels = ["E1"] * (Nv - sv) + ["E2"] * sv
    return vals, labels


def class_to_subset_table(T, N, s, point):
    """The attaining :class:`ConcreteTable` at ``point`` (values of T, N and the parameters)."""
    from implgraph.core.concrete import ConcreteTable
    Tv = frac(point[T])
    Nv = int(point[N]) if N in point else int(N)
    sv = int(sympy.sympify(s).subs(point))
    vals, labels = class_to_subset_values(Tv, Nv, sv)
    return ConcreteTable.from_fractions([[v, 1 - v] for v in vals], classes=labels)
