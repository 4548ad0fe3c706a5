"""A minimum class size that A declares, read as B's level where B's level is the smallest class's size.

Where A declares a parameter a minimum class size (``MinClassSize``: A's level is infinite on a table with a
class of fewer records, e.g. k of (alpha,k)-anonymity) and B's level is the size of the smallest class (declared
``ClassSizeLevel()``, larger is stronger: k-anonymity), every table satisfying A at a finite level has B's level
``>= s``, s the parameter's value, whatever A's level: the ``class-size-floor`` argument, for every N.

It is tight where a table satisfying A at its level has a class of exactly s records: two classes, s records and
N - s, exist only where ``2 s <= N`` (with fewer records a partition into classes of >= s records has one class,
and B's level is N there); A's level is met where A's declared class level of a class uniform over m values
(:func:`implgraph.definitions.class_bounds.uniform_values`) meets it, every record uniform over those m values.
The certificate (method ``class-size-floor``) is re-checked by :mod:`implgraph.certify.floor`.

B's level is larger-is-stronger, so this argument gives a *lower* bound of B's level; the prover's other
arguments bound a smaller-is-stronger B from above (:mod:`implgraph.engines.bounds`).
"""

from __future__ import annotations

from fractions import Fraction

import sympy

from implgraph.core import methods
from implgraph.core.concrete import ConcreteTable
from implgraph.definitions.capabilities import ClassSizeLevel, family_of
from implgraph.definitions.class_bounds import uniform_class_raw, uniform_values
from implgraph.engines.recheck import raw_level, weaker
from implgraph.engines.witness import witness_json
from implgraph.prover.answer import T
from implgraph.prover.certificate import class_floor_certificate
from implgraph.prover.shapes import any_partition, level_conditions, min_class_name, param_ranges

__all__ = ["class_floor", "class_size_floor", "METHOD"]

METHOD = methods.CLASS_SIZE_FLOOR.name


def class_floor(a, a_params, b, a_classes, b_classes):
    """The minimum class size A's declared parameter gives (``MinClassSize``), where both sides are class levels
    on an otherwise unrestricted partition; None otherwise."""
    name = min_class_name(a)
    if name is None or name not in a_params or family_of(a) != "class" or family_of(b) != "class" \
            or not (any_partition(a_classes) and any_partition(b_classes)):
        return None
    return sympy.sympify(a_params[name])


def _table(s: int, N: int, m: int) -> ConcreteTable:
    """s records in one class and N - s in another, every record uniform over m buckets (at least two buckets)."""
    p = max(m, 2)
    row = [Fraction(1, m)] * m + [Fraction(0)] * (p - m)
    return ConcreteTable.from_fractions([row] * N, classes=["E1"] * s + ["E2"] * (N - s))


def class_size_floor(c, a_classes, b_classes) -> dict | None:
    """The prover's verdict on A => B (f) by the ``class-size-floor`` argument (module notes), or None where it does
    not apply or does not decide f.

    Parameters
    ----------
    c : implgraph.engines.prove_claim.Claim
        The claim read (sides, parameters, region in A's raw level T, B's raw target ``raw_f`` or None).
    a_classes, b_classes : dict or None
        The class sizes each side is asked about (any partition only).

    Returns
    -------
    dict or None
        Keyword arguments of the prover's result (``verdict``, ``evidence``, ``tight``, ``tightness``, ``method``,
        ``details`` and, for a refutation, ``witness``).
    """
    found = _floor(c, a_classes, b_classes)
    if found is None:
        return None
    s, m, where, region, argument, common = found
    b = c.b
    if c.raw_f is None:
        return dict(verdict="proved", evidence=f"{METHOD}: {argument}", tightness="tight", **common)
    if region.decide(b.at_least_as_strong(s, c.raw_f)) is True:
        same = region.decide(sympy.Eq(c.raw_f, s)) is True
        tight_f, attained = common["tight"], common["details"]["attained"]
        note = "f is the tight f" if same else f"f is loose: the tight f is {tight_f} ({attained})"
        return dict(verdict="proved", evidence=f"{METHOD}: {argument}; {note}", tightness="tight" if same else "loose",
                    **common)
    return _below(c, s, m, where, region, argument, common)


def _floor(c, a_classes, b_classes):
    """``(s, m, where, region, argument, common)`` of the argument (module notes), or None where it does not apply."""
    a, b = c.a, c.b
    if not b.has(ClassSizeLevel) or b.params or a.has(ClassSizeLevel):
        return None
    s = class_floor(a, c.a_params, b, a_classes, b_classes)
    if s is None or s.is_integer is not True:
        return None     # (a size that is not an integer: the classes have >= ceiling(s) records, not argued here)
    region = c.region.add(*param_ranges(a, b, c.a_params, c.b_params, c.N, None))
    found = uniform_values(a, T)
    if found is None:
        return None
    m, meets = found
    where = sympy.And(meets, 2 * s <= c.N)
    if region.add(where).is_empty() is not False:
        return None     # nowhere attained on the condition (N < 2 s: one class, level N): not argued here
    level_where = level_conditions(where, a, c.alpha)
    name = min_class_name(a)
    argument = (f"{a.name} declares its parameter {name} a minimum class size (its level is infinite on a table with "
                f"a class of fewer than {name} records), and {b.name}'s level is the smallest class's size: every table "
                f"satisfying A at a finite level has {b.name} level >= {s}, whatever A's level, for every N; tight where "
                f"{level_where}: {s} records in one class and N - {s} in another, every record uniform over "
                f"m = {m} values, satisfy A at its level ({a.name}'s raw level of a class uniform over m values is "
                f"{uniform_class_raw(a)}, its declared class level) and have {b.name} level {s} (with N < 2*{s} a "
                f"partition into classes of >= {s} records has one class, and {b.name}'s level is N there: not "
                "claimed tight)")
    cert = class_floor_certificate(METHOD, a, b, c.a_params, c.b_params, region, c.N, s, argument)
    tight_f = b.level_from_raw(s)
    attained = f"tight where {level_where}, where the attaining table exists (elsewhere not derived)"
    details = {"method": METHOD, "certificate": cert, "attained_where": str(where), "attained": attained,
               "checks": [f"A declares min_class_param: {name}", "B declares class_size_level: True"]}
    return s, m, where, region, argument, dict(tight=tight_f, method=METHOD, details=details)


def _below(c, s, m, where, region, argument, common):
    """f stronger than s somewhere the attaining table exists: a refutation by a witness there, or None."""
    a, b = c.a, c.b
    pt = region.add(where).find_point(sympy.Not(b.at_least_as_strong(s, c.raw_f)))
    if not pt:
        return None
    env = {getattr(k, "name", str(k)): v for k, v in pt.items()}
    try:
        N_, s_, t_ = int(env["N"]), int(s.subs(pt)), sympy.Rational(pt[T])
        m_ = int(m.subs(T, t_))
    except (KeyError, TypeError, ValueError):
        return None
    table = _table(s_, N_, m_)
    a_at = {k: sympy.sympify(v).subs(pt) for k, v in c.a_params.items()}
    target = sympy.sympify(c.raw_f).subs(pt)
    ra, rb = raw_level(a, a_at, table), raw_level(b, {}, table)
    if ra is None or rb is None or target.free_symbols or not (ra <= Fraction(str(t_))) or not weaker(b, rb, target):
        return None
    shown = {k: v for k, v in env.items() if k != "T"}
    level_a = a.level_from_raw(t_)
    evidence = (f"f is stronger than {b.name}'s level on a table satisfying A at {c.alpha} = {level_a}: {s_} record(s) in "
                f"one class and {N_ - s_} in another, every record uniform over {m_} buckets, give {a.name} raw level "
                f"{ra} <= {t_} and {b.name} level {rb}, weaker than f = {b.level_from_raw(target)} at {shown}; {METHOD}: {argument}")
    return dict(verdict="refuted", evidence=evidence, tightness="wrong",
                witness=witness_json(table, shown, **{str(c.alpha): level_a}), **common)
