"""``class-size``: A's level is the size of its smallest class (docs/arguments/class-size.md).

A declares ``ClassSizeLevel()`` (an integer, larger is stronger): at level T every class has >= T records. B a
one-sided class ratio (``U = N/T``) or a class's total variation distance from the table (``U = (N - T)/N``), on any
partition; tight, attained by T records at (1, 0) in one class and N - T at (0, 1) in another (where 2 T <= N).
"""

from __future__ import annotations

import sympy

from implgraph.core import methods
from implgraph.definitions.capabilities import ClassSizeLevel, family_of
from implgraph.prover.answer import Bound, T
from implgraph.prover.parts import distance_mass_multipliers, set_mass_multipliers, two_classes
from implgraph.prover.registry import argument, certificate_parts
from implgraph.prover.shapes import any_partition, class_distance_of, ratio_sides
from implgraph.prover.tables import at, binary_column_table, frac

METHOD = methods.CLASS_SIZE


def _applies(ctx):
    return ctx.a.has(ClassSizeLevel) and any_partition(ctx.a_classes)


@argument(METHOD, order=10, applies=_applies)
def bound(ctx):
    """A's level is its smallest class's size: it bounds the classes B compares (None: B is not such a level)."""
    return class_size_bound(ctx.b, ctx.b_params, ctx.b_classes, ctx.N)


def class_size_bound(b, b_params, b_classes, N):
    """A's level is the size of its smallest class (declared ``ClassSizeLevel()``; an integer, larger is
    stronger): at level T every class has >= T records. B a one-sided class ratio or the total variation
    distance of a class from the table, on any partition (no other class size on either side: the caller checks
    A's, this checks B's)."""
    if family_of(b) != "class" or not any_partition(b_classes):
        return None
    distance = class_distance_of(b, b_params)
    if distance == "total-variation":
        U = (N - T) / N
        what = ("B is the total variation distance of a class from the table: for a class E of e records and the "
                "buckets S where E lies above the table (E's mass x on S, the table's P), the other records hold "
                "N P - e x >= 0 on S, so x - P <= (N - e) x/N <= (N - T)/N")
    elif ratio_sides(b) == "one-sided" and distance is None:
        U = N / T
        what = ("B is a one-sided class ratio: in each bucket a class E of e records holds at most the table's "
                "mass (values >= 0), so mean_E <= N/e times the table's mean <= N/T")
    else:
        return None

    def build(point):
        Tv, Nv, _ = at(point, N)
        k = int(sympy.ceiling(Tv))
        if 2 * k > Nv:
            return None         # no partition into two classes of >= T records
        return binary_column_table([frac(1)] * k + [frac(0)] * (Nv - k), labels=["E1"] * k + ["E2"] * (Nv - k))

    arg = (f"A's level is its smallest class's size, so at level T (an integer) every class has >= T records. {what}. "
           "A class other than the whole table leaves N - e >= T records to the others, so a partition into two or "
           f"more classes exists only where 2 T <= N (elsewhere no table satisfies A at T): U = {U}, attained by T "
           "records at (1, 0) in one class and N - T at (0, 1) in another")
    return Bound(U, True, METHOD.name, arg, build=build,
                 checks=["A declares class_size_level: True", f"B: {distance or 'one-sided class ratio'}"])


def _class_size_family():
    """T records at (1, 0) in class E1, N - T at (0, 1) in E2, where 2 T <= N."""
    return [{"count": "T", "value": "1", "class": "E1"}, {"count": "N - T", "value": "0", "class": "E2"}]


@certificate_parts(METHOD, family=lambda cert, ctx: {"blocks": _class_size_family()})
def upper_certificate(cert, ctx):
    two_classes(cert, "T")     # a partition into >= 2 classes of >= T records: T >= 1, 2 T <= N
    cert["upper_certificate"] = {"lemma": METHOD.lemma, "multipliers": {
        "mass": set_mass_multipliers("T") if cert["B"].get("distance") is None else distance_mass_multipliers()}}
