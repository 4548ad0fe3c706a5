"""Where B's ceiling (``distance-ceiling`` or ``one-sided-ceiling``) is attained by a table satisfying A at every level.

:func:`attained_ceiling` over classes of >= s records (any partition otherwise: s = ``floor``, a minimum class size A
declares, or 1):

- A's level of a class uniform over m values improves strictly with m, its table's level being its worst
  class's (:func:`implgraph.definitions.class_bounds.uniform_values`: the l-diversities, ``m``, and
  (alpha,k)-anonymity, ``1 + 1/m``): s records uniform over the fewest m meeting T in a class of their own and
  N - s uniform over m other values in another have A's level at T and B's ceiling, (N - s)/N from the table or
  N/s times its mean;
- (s = 1) A's level is a tail ratio with parameter l (recursive (c,l)-diversity): the same with m = l, A's level 1;
- (s = 1) A has an additive slack delta > 0 (``AdditiveSlack``, (eps,delta)-DP and -LDP) and B is a one-sided
  class ratio: one record at (delta, 1 - delta) in a class of its own and N - 1 at (0, 1) differ by at most delta
  on every event, so A holds at its strongest level, and the lone class holds N times the table's mean.
"""

from __future__ import annotations

from fractions import Fraction

import sympy

from implgraph.core import methods
from implgraph.definitions.capabilities import AdditiveSlack, TailRatio
from implgraph.prover.answer import Bound, T
from implgraph.prover.shapes import any_partition
from implgraph.prover.tables import at, binary_column_table, frac, uniform_classes

__all__ = ["attained_ceiling"]

_CEILINGS = (methods.DISTANCE_CEILING.name, methods.ONE_SIDED_CEILING.name)


def attained_ceiling(a, a_params, a_classes, b_classes, bound, N, floor=None):
    """B's ceiling ``bound``, tight where a table satisfying A at every level reaches it (module notes); None where
    no such table is known here."""
    if bound is None or bound.method not in _CEILINGS:
        return None
    if floor is None and not (any_partition(a_classes) and any_partition(b_classes)
                              and sympy.sympify((b_classes or {}).get("min_size", 1)) == 1):
        return None
    s = sympy.Integer(1) if floor is None else sympy.sympify(floor)
    base = bound.argument.replace(" (an upper bound; not argued to be attained)", "")
    checks = bound.checks + (["any partition: True"] if floor is None else [])
    found = _by_uniform_classes(a, bound, N, s, base, checks)
    if found is not None or floor is not None:
        return found
    return _by_tail_ratio(a, a_params, bound, N, base, checks) or _by_slack(a, a_params, bound, N, base, checks)


def _by_uniform_classes(a, bound, N, s, base, checks):
    from implgraph.definitions.class_bounds import uniform_class_raw, uniform_values
    uniform = uniform_values(a, T)
    if uniform is None:
        return None
    m, where = uniform
    if s != 1:      # two classes of >= s records
        where = sympy.And(where, 2 * s <= N)
    who = "one record" if s == 1 else f"{s} records"
    arg = (f"{base}; and it is attained whatever A's level T{'' if where is sympy.true else f' with {where}'}: "
           f"{a.name}'s raw level of a class uniform over m values is {uniform_class_raw(a)} (its declared class "
           f"level at q_i = 1/m), improving with m, and the table's is its worst class's, so {who} uniform over "
           f"m = {m} values in a class of {'its' if s == 1 else 'their'} own and N - {s} records uniform over m "
           f"other values in another (2 m buckets) satisfy A at T, and the class of {s} holds all its mass where "
           f"the table holds {s}/N of it: B's ceiling")
    return Bound(bound.upper, True, bound.method, arg, build=uniform_classes(N, m, s),
                 checks=checks + [f"A ({a.name}): a uniform class's level improves with its number of values m, "
                                  f"T met at m = {m}: True"],
                 buckets=2 * m, attained_where=where)


def _by_tail_ratio(a, a_params, bound, N, base, checks):
    declared = a.declared(TailRatio)
    name = None if declared is None else declared.param
    tail = sympy.sympify((a_params or {})[name]) if name in (a_params or {}) else None
    if not (tail is not None and tail.is_Integer and tail >= 1):
        return None
    lv = int(tail)
    arg = (f"{base}; and it is attained whatever A's level: {a.name}'s level is max(1, max_E r_1/(r_l + ... + r_m)) "
           f"(l = {lv}), and a class uniform over l values has r_1 = 1/l and r_l + ... = 1/l: level 1, the "
           f"strongest. One record uniform over {lv} values in a class of its own and N - 1 uniform over {lv} other "
           "values in another satisfy A at every level, and the lone class holds all its mass where the table "
           "holds 1/N of it: B's ceiling")
    return Bound(bound.upper, True, bound.method, arg, build=uniform_classes(N, sympy.Integer(lv)),
                 checks=checks + [f"A ({a.name}) is a tail ratio with l = {lv}: True"], buckets=sympy.Integer(2 * lv))


def _by_slack(a, a_params, bound, N, base, checks):
    delta = sympy.sympify((a_params or {}).get("delta", 0))
    if not (a.has(AdditiveSlack) and bound.method == methods.ONE_SIDED_CEILING.name
            and delta.is_Rational and 0 < delta < 1):
        return None

    def build(point):
        _, Nv, _ = at(point, N)
        d = frac(delta)
        return binary_column_table([d] + [Fraction(0)] * (Nv - 1), labels=["E1"] + ["E2"] * (Nv - 1))

    arg = (f"{base}; and it is attained whatever A's level: one record at ({delta}, 1 - {delta}) in a class of its "
           f"own and N - 1 at (0, 1) in another differ by at most delta = {delta} on every event (the table "
           f"and the table without one record, or two records), so each of {a.name}'s constraints "
           "a <= e^eps b + delta holds at eps = 0, and the lone class's mean of the first bucket is N times the "
           "table's")
    return Bound(bound.upper, True, bound.method, arg, build=build,
                 checks=checks + [f"A ({a.name}) has an additive slack delta = {delta} > 0: True"])
