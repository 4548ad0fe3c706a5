"""The range, shape and extreme-level checks of :func:`implgraph.checks.definition_check.check_definition`."""

from __future__ import annotations

from fractions import Fraction

import sympy

from implgraph.checks.definition_levels import Check, _same, raw_level
from implgraph.definitions.capabilities import ClassLevel

__all__ = ["range_check", "shape_check", "extremes_check"]


def _stronger_or_equal(d, a, b) -> bool:
    """Is level ``a`` at least as strong as ``b`` (exact; sympy compares numbers exactly or to certainty)?"""
    return bool(d.at_least_as_strong(a, b))


def range_check(d, levels) -> Check:
    """Every defined level between the declared weakest and the scale's most private level; raw >= raw_min."""
    name = "levels within the declared range"
    scale = d.level_scale
    best = None if scale.best_raw is None else d.level_from_raw(sympy.Rational(scale.best_raw.numerator,
                                                                                scale.best_raw.denominator))
    seen = 0
    for table, raw in levels:
        if raw is None:
            continue
        level, weakest = d.level_from_raw(raw), sympy.sympify(d.weakest(len(table[0])))
        if scale.raw_min is not None and raw is not sympy.oo and bool(raw < sympy.Rational(
                scale.raw_min.numerator, scale.raw_min.denominator)):
            return Check(name, False, f"raw level {raw} below the scale's {scale.raw_min}", table)
        if not _stronger_or_equal(d, level, weakest):
            return Check(name, False, f"level {level} is weaker than the declared weakest {weakest}", table)
        if best is not None and level != best and _stronger_or_equal(d, level, best):
            return Check(name, False, f"level {level} is stronger than the most private level {best}", table)
        seen += 1
    where = f"at most as strong as {best}" if best is not None else "no strongest declared"
    return Check(name, True, f"{seen} levels at least as strong as {_weakest_text(d)} ({where})")


def _weakest_text(d) -> str:
    """The declared weakest level, as a formula of N where it depends on the number of records."""
    if d.level_scale.weakest_depends_on_N:
        return f"{d.weakest(sympy.Symbol('N'))} on N records"
    return str(d.weakest())


def _class_levels(d, rows, labels):
    """Each class's declared level (its ``ClassLevel`` formula at its positive mean frequencies)."""
    from implgraph.definitions._classes import GenericClass
    cls = GenericClass()
    formula = d.declared(ClassLevel).formula(cls)
    groups = {}
    for row, c in zip(rows, labels):
        groups.setdefault(c, []).append(row)
    out = []
    for members in groups.values():
        q = [sum(col, Fraction(0)) / len(members) for col in zip(*members)]
        out.append(sympy.sympify(cls.evaluate(formula, [x for x in q if x > 0])))
    return out


def shape_check(d, params, levels) -> Check:
    """Order of records, ``needs_classes``, and the declared class level (the weakest class's)."""
    name = "declared shape agrees with the computed levels"
    has_formula = d.has(ClassLevel)
    notes = ["record order"]
    for (rows, labels), raw in levels:
        back = raw_level(d, rows[::-1], labels[::-1] if labels else None, params)
        if not _same(raw, back):
            return Check(name, False, f"the level changes when the records are reversed ({raw} vs {back})",
                         (rows, labels))
        if d.needs_classes and raw_level(d, rows, None, params) is not None:
            return Check(name, False, "declares needs_classes, but has a level on a table without classes",
                         (rows, None))
        if has_formula and labels and raw is not None:
            bad = _class_formula_fault(d, rows, labels, raw)
            if bad:
                return Check(name, False, bad, (rows, labels))
    if d.needs_classes:
        notes.append("undefined without classes")
    if has_formula:
        notes.append("the weakest class's declared class level")
    return Check(name, True, f"{', '.join(notes)}: on {len(levels)} tables")


def _class_formula_fault(d, rows, labels, raw) -> str:
    """Why the table's level is not the weakest of its classes' declared levels, or ''."""
    level = d.level_from_raw(raw)
    per_class = _class_levels(d, rows, labels)
    if _same(level, sympy.sympify(d.weakest(len(rows)))) and not any(_same(level, v) for v in per_class):
        return ""       # the weakest level for another reason (a class smaller than a declared minimum size)
    if not any(_same(level, v) for v in per_class):
        return f"the level {level} is none of the classes' declared levels {per_class}"
    weaker = [v for v in per_class if not _stronger_or_equal(d, v, level)]
    if weaker:
        return f"a class's declared level {weaker[0]} is weaker than the table's level {level}"
    return ""


def _one_hot(n, layout):
    """``n`` one-hot records over 2 buckets: ``skewed`` (the first on bucket 1, the others on bucket 2) or
    ``alternating``; one class per record (``each``) or the first record against the rest (``two``)."""
    spread, classes = layout
    rows = [[Fraction(int(j == (i % 2 if spread == "alternating" else int(i > 0)))) for j in range(2)]
            for i in range(n)]
    labels = [f"E{i + 1}" for i in range(n)] if classes == "each" else ["E1"] + ["E2"] * (n - 1)
    return rows, labels


def extremes_check(d, params, levels) -> Check:
    """Strongest: each table with its records made equal (uniform; same N and classes) is at least as strong;
    weakest: attained or approached by one-hot records."""
    name = "weakest and strongest levels as declared"
    shown = _weakest_text(d)
    for (rows, labels), raw in levels:
        p = len(rows[0])
        table = ([[Fraction(1, p)] * p for _ in rows], labels)
        even = _at(d, table, params)
        if raw is not None and even is not None and not _stronger_or_equal(d, d.level_from_raw(even),
                                                                           d.level_from_raw(raw)):
            return Check(name, False, f"records made equal have level {d.level_from_raw(even)}, weaker than the "
                                      f"table's {d.level_from_raw(raw)} (is 'stronger' declared right?)",
                         (rows, labels))
    notes = [f"records made equal are at least as strong ({len(levels)} tables)"]
    for layout in (("skewed", "each"), ("skewed", "two"), ("alternating", "each"), ("alternating", "two")):
        series = [(n, _one_hot(n, layout)) for n in range(2, 7)]
        raws = [(t, _at(d, t, params)) for _, t in series]
        levels = [(t, d.level_from_raw(r)) for t, r in raws if r is not None]
        if d.level_scale.weakest_depends_on_N:     # attained at every N tried: the formula of N, not one value
            if len(levels) == len(series) and all(_same(v, sympy.sympify(d.weakest(len(t[0])))) for t, v in levels):
                return Check(name, True, "; ".join(notes + [f"weakest {shown} attained by one-hot records at N = 2 "
                                                            f"to {len(series) + 1}"]))
            continue
        weakest = sympy.sympify(d.weakest())
        if any(_same(v, weakest) for _, v in levels):
            return Check(name, True, "; ".join(notes + [f"weakest {weakest} attained by one-hot records"]))
        if len(levels) >= 2 and all(not _stronger_or_equal(d, b, a) for (_, a), (_, b) in zip(levels, levels[1:])):
            return Check(name, True, "; ".join(notes + [f"weakest {weakest} approached by one-hot records as N "
                                                        f"grows ({', '.join(str(v) for _, v in levels)})"]))
    last = series[-1][1]
    return Check(name, False, f"the declared weakest level {shown} is neither attained nor approached by one-hot "
                              "records", last)


def _at(d, table, params):
    """The raw level of ``table`` (None where undefined or where the parameters do not fit its N)."""
    from implgraph.core.errors import InputError
    try:
        return raw_level(d, *table, params)
    except InputError:
        return None
