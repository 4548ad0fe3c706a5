"""``removal-distance-pair``: the two-record piece of removal-distance (docs/arguments/removal-distance-pair.md).

With two records the classes are the records, and A bounds each against the table: for the class x1 and the buckets
S where it lies above the table, x2 = 2 P - x1, T x2 >= P on S and T (1 - x1) >= 1 - P on the complement; their sum is
(T - 1) - 2 T (x1 - P) >= 0: ``U = (T - 1)/(2 T)``, tight: x1 = (2 T - 1)/(2 T), x2 = 1/(2 T) in two classes. A piece
of ``removal-distance``'s supremum (no handler of its own).
"""

from __future__ import annotations

import sympy

from implgraph.core import methods
from implgraph.prover.answer import Bound, T
from implgraph.prover.registry import certificate_parts
from implgraph.prover.tables import binary_column_table, frac

METHOD = methods.REMOVAL_DISTANCE_PAIR
#: where the prover tries it (it has no handler of its own)
TRIED = "with `removal-distance` (the N = 2 piece of its `exact`)"


def removal_pair_bound():
    """At N = 2 a two-sided subset level of size 1 (record removal leaves one record) and a class's total variation
    distance from the table: ``U = (T - 1)/(2 T)``, tight; None where the identity fails."""
    # the identity of the argument: records x1 (the class, above the table on S) and x2 = 2 P - x1
    x1, P_ = sympy.symbols("x1_ P_")
    other = T * (2 * P_ - x1) - P_                  # the table's mass on S is <= T times the other record's
    rest = T * (1 - x1) - (1 - P_)                  # on the complement, <= T times the class's record's
    ok = sympy.expand((T - 1) - 2 * T * (x1 - P_) - (other + rest)) == 0
    if not ok:
        return None

    def build(point):
        Tv = sympy.Rational(point[T])
        return binary_column_table([frac((2 * Tv - 1) / (2 * Tv)), frac(1 / (2 * Tv))], labels=["E1", "E2"])

    arg = ("with N = 2 records the classes are the two records (one class of both is the table, at distance 0) and "
           "A bounds each record against the table (the other record is the table without it); for the class E1 = "
           "{x1} and the buckets S where it lies above the table, P the table's mass and x2 = 2 P - x1 the other "
           "record's: T x2 >= P on S and T (1 - x1) >= 1 - P on the complement (a mediant), and their sum is "
           "(T - 1) - 2 T (x1 - P) >= 0: U = (T - 1)/(2 T), attained by x1 = (2 T - 1)/(2 T), x2 = 1/(2 T) in "
           "two classes")
    return Bound((T - 1) / (2 * T), True, METHOD.name, arg, build=build,
                 checks=[f"(T - 1) - 2 T (x1 - P) = (T x2 - P) + (T (1 - x1) - (1 - P)) (identity): {ok}"])


def _removal_pair_family():
    """At N = 2: x1 = (2 T - 1)/(2 T) in class E1, x2 = 1/(2 T) in E2."""
    return [{"count": "1", "value": "(2*T - 1)/(2*T)", "class": "E1"},
            {"count": "1", "value": "1/(2*T)", "class": "E2"}]


@certificate_parts(METHOD, family=lambda cert, ctx: {"blocks": _removal_pair_family()})
def upper_certificate(cert, ctx):
    cert["upper_certificate"] = {"lemma": METHOD.lemma, "multipliers": {
        "pair": {"A on S: T*x2 - P >= 0": "1", "A on the rest: T*(1 - x1) - (1 - P) >= 0": "1"}}}
