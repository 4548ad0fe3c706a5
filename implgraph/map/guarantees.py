"""What follows from a table's levels: measured levels joined with the levels the map implies.

For a concrete table of ``N`` records (microdata, or a mechanism's release on it) every definition's
exact optimal level is *measured* (:func:`implgraph.io.microdata.table_levels`). Each measured level
is also a fact about the table at its parameters; every chain of established implications of the
map (:func:`implgraph.map.compose.compositions`, at this ``N`` and at the table's own parameters)
turns it into a level *implied* for another definition: the composed ``f`` evaluated at the measured
level, where the chain's conditions hold. :func:`guarantees` gives, per definition, the measured
level, the strongest implied level with its why-trace (the chain of claim ids) and the best of the
two.

The parameters a definition is read at on the table (:func:`table_params`): its group size ``k`` as
measured (``--k``), and for a class-based definition (``needs_classes``) the table's partition: the
smallest class size (``k``) and the largest (``max``); a rule's source ``NAME(k=a, max=b)`` applies
when the partition's class sizes are exactly these bounds' values, a rule's target
``NAME(k=a)`` holds for every partition with classes of at least ``a`` records, so for the table's.

An implied level is an upper bound of the optimal level (for a definition where smaller is
stronger), so it can never beat an exact measured one: a stronger implied level than the measured
one means a wrong claim or a wrong level, and is reported (``consistent`` False).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import sympy

from implgraph import definitions
from implgraph.definitions.nodes import node_text
from implgraph.core.region import Region
from implgraph.map.compose import compositions
from implgraph.core.simplified import simplified

__all__ = ["Guarantee", "Implied", "guarantees", "table_params", "class_sizes", "map_families"]


@dataclass
class Implied:
    """A level implied for ``target`` from the measured level of ``source`` along one composition."""

    target: str
    params: dict
    value: object
    source: str
    source_params: dict
    source_value: object
    composition: object
    source_label: str = ""

    def to_json(self) -> dict:
        c = self.composition
        return {"value": str(self.value), "from": self.source, "from_label": self.source_label or self.source,
                "from_params": {k: str(v) for k, v in self.source_params.items()},
                "from_value": str(self.source_value), "f": str(c.f), "level": str(c.level),
                "trace": c.trace, "chain": [f"{r.a.label()} => {r.b.label()}" for r in c.rules],
                "status": c.status}


@dataclass
class Guarantee:
    """One definition on the table: the measured level, the implied ones, the best of them.

    Attributes
    ----------
    definition : Definition
    params : dict
        Its own parameters on the table (as measured, e.g. a group size ``k``).
    measured : sympy expression or None
        The exact optimal level (None: undefined on this table).
    implied : list of Implied
        Every implied level, strongest first.
    """

    definition: object
    params: dict
    measured: object = None
    note: str = ""
    implied: list = field(default_factory=list)

    @property
    def best_implied(self):
        return self.implied[0] if self.implied else None

    @property
    def best(self):
        """``(value, "measured" | "implied" | None)``: the strongest known level and where it comes from."""
        imp = self.best_implied
        if self.measured is None:
            return (imp.value, "implied") if imp else (None, None)
        if imp is not None and _stronger(self.definition, imp.value, self.measured) is True:
            return imp.value, "implied"
        return self.measured, "measured"

    @property
    def consistent(self):
        """False when an implied level is strictly stronger than the exact measured one (None: cannot tell)."""
        imp = self.best_implied
        if imp is None or self.measured is None:
            return True
        s = _stronger(self.definition, imp.value, self.measured)
        return None if s is None else not s

    def to_json(self) -> dict:
        value, where = self.best
        return {"params": {k: str(v) for k, v in self.params.items()},
                "measured": None if self.measured is None else str(self.measured),
                **({"note": self.note} if self.note else {}),
                "implied": [i.to_json() for i in self.implied],
                "best": None if value is None else str(value), "best_from": where,
                "consistent": self.consistent}


def _stronger(d, a, b):
    """True when level ``a`` is strictly stronger than ``b`` for ``d`` (exact; None if undecided)."""
    a, b = sympy.sympify(a), sympy.sympify(b)
    if a == b:
        return False
    rel = sympy.Lt(a, b) if d.stronger == "smaller" else sympy.Gt(a, b)
    if rel in (sympy.true, sympy.false):
        return bool(rel)
    return None


def class_sizes(table):
    """``(smallest, largest)`` class size of a concrete table ((None, None) without classes)."""
    sizes = table.class_sums()[0]
    if len(sizes) == 0:
        return None, None
    return int(min(sizes)), int(max(sizes))


def table_params(d, level_params: dict, sizes) -> dict | None:
    """The map-endpoint parameters of definition ``d`` on the table (None: not on this table)."""
    if d.needs_classes:
        if sizes[0] is None:
            return None
        return {"k": sizes[0], "max": sizes[1]}
    return {k: int(v) for k, v in level_params.items() if k == "k"}


def map_families(rules) -> list:
    """The definitions on the map (table scope; a per-class reading ``NAME@class`` is not a table's level)."""
    fams = []
    for r in rules:
        for ep in (r.a, r.b):
            if ep.scope == "table" and ep.definition not in fams:
                fams.append(ep.definition)
    return fams


def _evaluate(comp, value, N):
    """The composed level at the measured ``value``, or None where the chain's conditions fail there."""
    point = {comp.level: value}
    conds = [sympy.sympify(c).xreplace(point) for c in comp.conditions]
    if any(c is sympy.false for c in conds):
        return None
    rest = [c for c in conds if c is not sympy.true]
    if rest and Region(dict(comp.kinds), tuple(rest)).is_empty() is not False:
        return None                  # the conditions fail (or the solver cannot tell): nothing implied
    f = sympy.sympify(comp.f).xreplace(point)
    if f.free_symbols:
        return None                  # f depends on an intermediate parameter: not one level
    return simplified(f)


def _source_variants(d, params):
    """Source parameter sets: a class-based source with and without its largest class size."""
    if d.needs_classes:
        return [({"k": params["k"]}, False), (params, True)]
    return [(params, True)]


def guarantees(rules, levels: dict, N: int, sizes=(None, None), max_length: int = 5, memo: dict | None = None) -> list:
    """Measured and implied levels of every definition of ``levels`` on one concrete table.

    Parameters
    ----------
    rules : list of Rule
        The map's rules with their verdicts (:func:`implgraph.map.rules.load_rules`); only established
        implications are composed.
    levels : dict
        ``{definition name: Level}`` measured on the table.
    N : int
        Number of records.
    sizes : tuple
        ``(smallest, largest)`` class size (:func:`class_sizes`).
    memo : dict, optional
        Compositions already made with the same ``rules`` (they do not depend on the measured levels:
        several tables of one data set share them).

    Returns
    -------
    list of Guarantee
        One per definition of ``levels``, in its order.
    """
    on_map = set(map_families(rules))
    memo = {} if memo is None else memo
    out, known = [], {}
    for name, lv in levels.items():
        d = lv.definition
        params = table_params(d, lv.params, sizes)
        value = lv.value if lv.defined else None
        g = Guarantee(d, dict(lv.params), value, note=lv.note)
        out.append(g)
        if params is not None and name in on_map:
            known[name] = (g, params)
    for src, (gs, sp) in known.items():
        if gs.measured is None or gs.measured in (sympy.oo, sympy.zoo) or not gs.measured.is_number:
            continue
        for dst, (gt, tp) in known.items():
            if dst == src:
                continue
            target = {k: v for k, v in tp.items() if k != "max"}
            for source, with_max in _source_variants(gs.definition, sp):
                key = (src, dst, tuple(sorted(source.items())), tuple(sorted(target.items())), N, max_length)
                if key not in memo:
                    memo[key] = compositions(rules, src, dst, source, target or None, N=N, max_length=max_length)
                for comp in memo[key]:
                    if not with_max and "max" in comp.rules[0].a.param_dict:
                        continue      # a rule on partitions with bounded classes: read with the largest class
                    value = _evaluate(comp, gs.measured, N)
                    if value is not None:
                        gt.implied.append(Implied(dst, tp, value, src, sp, gs.measured, comp,
                                                  node_text(src, gs.params, "")))
    for g in out:
        g.implied.sort(key=lambda i: (_sort_key(g.definition, i.value), len(i.composition.rules)))
    return out


def _sort_key(d, value):
    try:
        x = float(sympy.N(value, 30))
    except (TypeError, ValueError):
        return float("inf")
    return x if d.stronger == "smaller" else -x

