"""``slack-removal-distance-pair``: the two-record piece of slack-removal-distance
(docs/arguments/slack-removal-distance-pair.md).

At N = 2 (removing a record leaves the other) the classes are the two records: for the class x1 and the buckets S
where it lies above the table, P <= T x2 + delta on S and 1 - P <= T (1 - x1) + delta on the complement, whose sum is
(T - 1 + 2 delta) - 2 T (x1 - P) >= 0, and x1 <= 1, x2 >= 0 give x1 - P <= 1/2:
``U = Min((T - 1 + 2 delta)/(2 T), 1/2)``, tight. A piece of ``slack-removal-distance``'s supremum (no handler of its
own).
"""

from __future__ import annotations

import sympy

from implgraph.core import methods
from implgraph.prover.answer import Bound, T
from implgraph.prover.registry import certificate_parts
from implgraph.prover.tables import binary_column_table, frac

METHOD = methods.SLACK_REMOVAL_DISTANCE_PAIR
#: where the prover tries it (it has no handler of its own)
TRIED = "with `slack-removal-distance` (the N = 2 piece of its `exact`)"


def slack_removal_pair_bound(d):
    """The bound (module notes); None where an identity fails."""
    x1, P_ = sympy.symbols("x1_ P_")
    other = T * (2 * P_ - x1) - P_ + d             # the table's mass on S is <= T times the other record's + delta
    rest = T * (1 - x1) - (1 - P_) + d             # on the complement, <= T times the class's record's + delta
    ok = sympy.expand((T - 1 + 2 * d) - 2 * T * (x1 - P_) - (other + rest)) == 0
    half = sympy.expand(1 - 2 * (x1 - P_) - ((1 - x1) + (2 * P_ - x1))) == 0
    if not (ok and half):
        return None

    def build(point):
        Tv = sympy.Rational(point[T])
        D = min(sympy.Integer(1), (Tv - 1 + 2 * d) / Tv)
        return binary_column_table([frac((1 + D) / 2), frac((1 - D) / 2)], labels=["E1", "E2"])

    arg = ("with N = 2 records the classes are the two records and A compares each record with the table (the other "
           "record is the table without it); for the class E1 = {x1} and the buckets S where it lies above the table, "
           "P the table's mass and x2 = 2 P - x1 the other record's: P <= T x2 + delta on S and 1 - P <= T (1 - x1) + "
           "delta on the complement, whose sum is (T - 1 + 2 delta) - 2 T (x1 - P) >= 0, and x1 <= 1, x2 >= 0 give "
           "x1 - P <= 1/2: U = Min((T - 1 + 2 delta)/(2 T), 1/2), attained by x1 = (1 + D)/2, x2 = (1 - D)/2 with "
           "D = Min(1, (T - 1 + 2 delta)/T) in two classes")
    return Bound(sympy.Min((T - 1 + 2 * d) / (2 * T), sympy.Rational(1, 2)), True, METHOD.name, arg,
                 build=build, checks=[f"(T - 1 + 2 delta) - 2 T (x1 - P) = (T x2 - P + delta) + (T (1 - x1) - (1 - P) + "
                                      f"delta) (identity): {ok}", f"1 - 2 (x1 - P) = (1 - x1) + x2 (identity): {half}"])


def _slack_removal_pair_family(cert):
    """At N = 2: x1 = (1 + D)/2 in class E1, x2 = (1 - D)/2 in E2, D = Min(1, (T - 1 + 2 delta)/T)."""
    D = f"Min(1, (T - 1 + 2*({cert['A']['slack']['delta']}))/T)"
    return [{"count": "1", "value": f"(1 + {D})/2", "class": "E1"}, {"count": "1", "value": f"(1 - {D})/2", "class": "E2"}]


@certificate_parts(METHOD, family=lambda cert, ctx: {"blocks": _slack_removal_pair_family(cert)})
def upper_certificate(cert, ctx):
    cert["upper_certificate"] = {"lemma": METHOD.lemma, "multipliers": {
        "pair": {"A on S: T*x2 - P + delta >= 0": "1", "A on the rest: T*(1 - x1) - (1 - P) + delta >= 0": "1"},
        "half": {"1 - x1 >= 0": "1", "x2 = 2*P - x1 >= 0": "1"}}}
