"""A publisher's requirements on microdata (``--require k=5,l=3``): pass or fail, and the classes that violate.

A requirement names a registered definition, by its name (``emd-t-closeness=1/5``) or by its level symbol when
exactly one definition has that symbol (``k=5``: k-anonymity); the value is read exactly by the project's formula
reader (:func:`implgraph.core.formula.parse_expr`; ``0.2`` is 1/5, nothing is evaluated). It holds when the
definition's exact level is at least as strong: ``level >= value`` where larger is stronger (k, l), ``level <=
value`` where smaller is (t, eps, beta).

The violating classes of a failed requirement on a definition computed over classes are those whose own level
fails it. A class's own level is read from what the definition declares (:mod:`implgraph.definitions.capabilities`):
its size (:class:`ClassSizeLevel`), a minimum class size (:class:`MinClassSize`), a formula of the class
(:class:`ClassLevel`), a distance to the table (:class:`ClassDistance`) or a ratio of the class's share of a value
to the table's (a class :class:`RatioLevel`). The classes' levels are checked against the table's level (their
extremum must equal it, exactly); where a definition declares none of these, or the check fails, the classes are
not listed and the report says so.

Examples
--------
>>> [(r.definition.name, str(r.value)) for r in parse_requirements("k=5,emd-t-closeness=0.2")]
[('k-anonymity', '5'), ('emd-t-closeness', '1/5')]
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from implgraph.core.errors import InputError, printable

__all__ = ["Requirement", "parse_requirements", "parse_definitions", "check_requirement", "class_levels", "SHOWN"]

SHOWN = 5
"""Violating classes listed per failed requirement (the worst first); the report gives how many in all."""


@dataclass(frozen=True)
class Requirement:
    """``definition`` at ``value`` (an exact sympy number, or a Fraction where the level is one too), as
    written (``text``)."""

    definition: object
    value: object
    text: str

    def holds(self, level):
        """True, False, or None (undecided) for an exact level value (None: undefined, fails)."""
        if level is None:
            return False
        if _exact(level) and _exact(self.value):
            return level >= self.value if self.definition.stronger == "larger" else level <= self.value
        import sympy
        rel = level >= self.value if self.definition.stronger == "larger" else level <= self.value
        return bool(rel) if isinstance(rel, sympy.logic.boolalg.BooleanAtom) else None


def _resolve(key: str, option: str = "--require"):
    from implgraph.definitions import all_definitions, get
    try:
        return get(key)
    except (InputError, KeyError):
        pass
    having = [d for d in all_definitions() if d.level_symbol == key]
    if len(having) == 1:
        return having[0]
    if having:
        names = ", ".join(d.name for d in having)
        value = "=VALUE" if option == "--require" else ""
        raise InputError(f"{option} {printable(key)[:40]}: {printable(key)[:40]} is the level of {names}",
                         fix=f"name the definition, e.g. {option} {having[0].name}{value}")
    symbols = sorted({d.level_symbol for d in all_definitions()
                      if sum(e.level_symbol == d.level_symbol for e in all_definitions()) == 1})
    raise InputError(f"{option} {printable(key)[:40]}: no registered definition has that name or level symbol",
                     fix=f"give a definition's name (implgraph definitions) or one of the symbols {', '.join(symbols)}")


def parse_requirements(text: str) -> list:
    """The requirements of ``--require NAME=VALUE,...`` (InputError on a bad item, a repeated definition, or a
    value that is not a finite real number)."""
    from implgraph.core.formula import parse_expr
    out, seen = [], set()
    for item in str(text).split(","):
        key, sep, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or not key or not value:
            raise InputError(f"--require {printable(repr(item))[:60]} is not NAME=VALUE",
                             fix="write e.g. --require k=5 or --require k=5,emd-t-closeness=1/5")
        d = _resolve(key)
        if d.name in seen:
            raise InputError(f"--require names {d.name} twice", fix="give each requirement once")
        seen.add(d.name)
        try:
            v = parse_expr(value, {})
        except InputError as exc:
            raise InputError(f"--require {printable(key)[:40]}={printable(value)[:40]}: {exc.reason}",
                             fix="give a number, e.g. 5 or 1/5 or 0.2") from None
        if not (v.is_real and v.is_finite):
            raise InputError(f"--require {printable(key)[:40]}={printable(value)[:40]} is not a finite real number",
                             fix="give a number, e.g. 5 or 1/5 or 0.2")
        out.append(Requirement(d, v, f"{d.level_symbol}={value}" if key == d.level_symbol else f"{d.name}={value}"))
    return out


def parse_definitions(text: str) -> list | None:
    """The definitions of ``--definitions NAME[,NAME...]`` (a name, or a level symbol only one definition has;
    ``all``: None, every definition), in the order given, each once (InputError on an unknown or ambiguous name,
    an empty item or a name given twice)."""
    if str(text).strip() == "all":
        return None
    out = []
    for item in str(text).split(","):
        key = item.strip()
        if not key:
            raise InputError(f"--definitions {printable(repr(text))[:60]} has an empty name",
                             fix="write e.g. --definitions k,distinct-l-diversity,emd-t-closeness (or all)")
        d = _resolve(key, "--definitions")
        if d.name in out:
            raise InputError(f"--definitions names {d.name} twice", fix="give each definition once")
        out.append(d.name)
    return out


def _exact(x) -> bool:
    """Is ``x`` an exact number of the levels computed without sympy (int, Fraction, or the log of a Fraction)?"""
    from implgraph.io.count_levels import LogOf
    return isinstance(x, (int, Fraction, LogOf))


def _frac(x) -> Fraction:
    return Fraction(int(x), 1)


def _ratio_level(d, ratio, sizes, sums, totals, n):
    """Each class's raw ratio of a class RatioLevel: max over values of q/p (and p/q, two-sided); None for
    infinite."""
    import sympy
    out = []
    for size, row in zip(sizes, sums):
        worst = Fraction(1)
        for c, t in zip(row, totals):
            if t == 0:
                continue
            q, p = Fraction(int(c), int(size)), Fraction(int(t), n)
            if q > 0:
                worst = max(worst, q / p)
            if ratio.sides == "two-sided":
                if q == 0:
                    worst = None
                    break
                worst = max(worst, p / q)
        out.append(worst)
    return [sympy.oo if r is None else d.level_from_raw(sympy.Rational(r.numerator, r.denominator)) for r in out]


def class_levels(d, ct, params: dict):
    """Each class's own level of the definition ``d`` on the grouped deterministic table ``ct`` at ``params``
    (exact, in ``d``'s units, one per class in ``ct.class_labels`` order), from what ``d`` declares; None when
    ``d`` declares no per-class level or ``ct`` has no classes."""
    from implgraph.definitions._classes import GenericClass
    from implgraph.definitions.capabilities import (ClassDistance, ClassLevel, ClassSizeLevel, MinClassSize,
                                                    RatioLevel)
    import sympy
    if ct.class_labels is None:
        return None
    sizes, sums = ct.class_sums()
    sizes, sums = [int(s) for s in sizes], [[int(x) for x in row] for row in sums]
    n = sum(sizes)
    totals = [sum(row[v] for row in sums) for v in range(len(ct.buckets))]
    if d.has(ClassSizeLevel):
        return [sympy.Integer(s) for s in sizes]
    floor = d.declared(MinClassSize)
    k = params.get(floor.param) if floor else None
    small = [floor is not None and k is not None and s < int(k) for s in sizes]
    cl, dist, ratio = d.declared(ClassLevel), d.declared(ClassDistance), d.declared(RatioLevel)
    if cl is not None:
        g = GenericClass()
        levels = [g.evaluate(cl.formula(g), [sympy.Rational(c, s) for c in row if c]) for s, row in zip(sizes, sums)]
    elif dist is not None and dist.at(params, d.words) == "total-variation":
        levels = [sympy.Rational(sum(abs(Fraction(c, s) - Fraction(t, n)) for c, t in zip(row, totals)) / 2)
                  for s, row in zip(sizes, sums)]
    elif ratio is not None and ratio.family == "class":
        levels = _ratio_level(d, ratio, sizes, sums, totals, n)
    elif floor is not None and k is not None:
        return None
    else:
        return None
    return [sympy.oo if bad else lv for bad, lv in zip(small, levels)]


def _same(a, b) -> bool:
    """Exactly equal (oo only with oo)."""
    if _exact(a) and _exact(b):
        return a == b
    import sympy
    if a is sympy.oo or b is sympy.oo:
        return a is b
    return sympy.simplify(a - b) == 0


def check_requirement(req: Requirement, level, ct) -> dict:
    """The outcome of ``req`` on one table: ``{"requirement", "definition", "required", "level", "holds",
    "violating": {...} | None, "note"?}``; ``violating`` lists the failing classes (the worst first, at most
    :data:`SHOWN`), their number and records (``classes``, ``records``), None where not listed."""
    value = level.value
    holds = req.holds(value) if level.defined else False
    out = {"requirement": req.text, "definition": req.definition.name, "required": str(req.value),
           "level": None if value is None else str(value), "holds": holds}
    if not level.defined:
        out["note"] = f"the level is undefined ({level.note})" if level.note else "the level is undefined"
    if holds is not False or not level.defined:
        out["violating"] = None
        return out
    per_class = level.class_levels(ct) if hasattr(level, "class_levels") else \
        class_levels(req.definition, ct, dict(level.params))
    if per_class is None:
        out["violating"] = None
        if req.definition.needs_classes:
            out["note"] = "the violating classes are not listed: the definition declares no level of one class"
        else:
            out["note"] = "a level of the whole table, not of each class: no classes to list"
        return out
    extremum = max(per_class) if req.definition.stronger == "smaller" else min(per_class)
    if not _same(extremum, value):
        out["violating"] = None
        out["note"] = "the violating classes are not listed: the classes' levels do not give the table's"
        return out
    sizes, _ = ct.class_sums()
    bad = [i for i, lv in enumerate(per_class) if req.holds(lv) is False]
    larger = req.definition.stronger == "larger"
    try:            # the weakest level first, the larger class first among equal levels (both sorts are stable)
        bad.sort(key=lambda i: -int(sizes[i]))
        bad.sort(key=lambda i: per_class[i], reverse=not larger)
    except TypeError:
        pass
    out["violating"] = {"classes": len(bad), "records": int(sum(int(sizes[i]) for i in bad)),
                        "of_classes": len(per_class),
                        "worst": [{"class": ct.class_labels[i], "records": int(sizes[i]), "level": str(per_class[i])}
                                  for i in bad[:SHOWN]]}
    return out
