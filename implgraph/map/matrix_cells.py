"""The cells of the pair matrix (:mod:`implgraph.map.matrix`): one :class:`Cell` per ordered pair.

:func:`cell_of` reads a cell off check-edge's answer for one direction, :func:`not_proved_reason` says why an
implication has no proof for every N (from the two declarations), and :func:`counts_of` counts the cells.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy

from implgraph.definitions.capabilities import AdditiveSlack, RatioLevel, TailRatio, family_of
from implgraph.definitions.nodes import parse_node
from implgraph.engines.bounds import class_distance_of, compares, subset_size_expr
from implgraph.core.verdict import trivial_open

__all__ = ["Cell", "cell_of", "counts_of", "not_proved_reason", "PROVER_ARGUMENTS"]


@dataclass
class Cell:
    """One ordered pair A => B."""

    a: str
    b: str
    relation: str           # implication | non-implication | open
    verdict: str            # the engine's verdict word (proved, verified-bounded, refuted, unknown, timeout)
    kind: str               # the pair's combination (equivalence, reciprocal, generalisation, ...)
    tight: str | None = None
    tight_at: str = ""      # "every N" (the prover's; with the attaining table's buckets where more than two) or
    #                         "N = n" (the exact tight f at the largest N checked)
    tight_upto: str | None = None
    tight_in_N: str | None = None   # one expression in N fitted through the exact tight f of every N checked
    proved_every_n: bool = False
    bound: str = ""
    trivial: bool = False
    equivalent: bool = False
    witness: dict | None = None
    reason: str = ""
    not_proved: str = ""    # an implication not proved for every N: why (not_proved_reason)
    proved_f: str | None = None     # an f proved for every N that is not the tight f everywhere (with where it is tight)
    #: the tight f is B's own ceiling on every table of N records, whatever A (``reason`` says which): every table
    #: meets it, so it is no implication (never drawn or counted as one)
    vacuous: bool = False
    #: where a table of one class decides the cell: the cell under the assumption "partitions into at least 2
    #: classes" (``assumption`` and the cell's fields)
    conditional: dict | None = None

    def to_json(self) -> dict:
        # proved_f and conditional only where there is one (the published cells of every other pair keep their keys)
        return {k: v for k, v in self.__dict__.items() if k not in ("proved_f", "conditional") or v is not None}

    @property
    def counted(self) -> bool:
        """An implication that says something of A: not trivial (f B's weakest level) and not vacuous (B's ceiling)."""
        return self.relation == "implication" and not self.trivial and not self.vacuous


def cell_of(direction, kind: str) -> Cell:
    """The matrix cell of one :class:`~implgraph.engines.direction.DirectionResult`."""
    d = direction
    rel = d.relation if d.relation in ("implication", "non-implication") else "open"
    cell = Cell(d.a, d.b, rel, d.verdict, kind, bound=d.bound, trivial=bool(d.trivial and rel == "implication"),
                equivalent=kind == "equivalence")
    if rel == "implication":
        cell.tight = d.tight_all_n or d.tight
        cell.tight_upto = None if d.tight_all_n else d.tight_upto
        cell.tight_in_N = None if d.tight_all_n else d.tight_in_N
        if cell.tight is not None:
            cell.tight_at = ("every N" + (f"; {d.tight_attained}" if d.tight_attained else "") if d.tight_all_n
                             else f"N = {max(i.N for i in d.instances)}")
        cell.proved_every_n = d.verdict == "proved"
        if not cell.proved_every_n:
            cell.not_proved = not_proved_reason(d.a, d.b, cell.trivial, tight_known=cell.tight is not None)
        if getattr(d, "proved_f", None):
            cell.proved_f = d.proved_f      # an f proved for every N, tight only where it says (beside a bounded tight f)
            if cell.proved_every_n and cell.tight is not None:
                cell.not_proved = (f"the tight f shown is exact at the N checked only; for every N the prover proves "
                                   f"f = {d.proved_f}")
        elif cell.tight is None:
            cell.reason = "no closed form of low degree fits the exact tight values" if not d.trivial else ""
    elif rel == "non-implication":
        cell.witness = d.witness
    else:
        cell.reason = d.evidence
    if rel == "implication" and getattr(d, "vacuous", None):
        cell.vacuous, cell.reason = True, d.vacuous
    if getattr(d, "conditional", None) is not None:
        inner = cell_of(d.conditional, "").to_json()
        cell.conditional = {"assumption": d.conditional.assumption,
                            **{k: v for k, v in inner.items() if k not in ("a", "b", "kind")}}
    return cell


#: the arguments :mod:`implgraph.engines.bounds` has for every N
PROVER_ARGUMENTS = ("same-level (one definition, or two declaring the same raw level), subset-monotone (with its exact "
                    "supremum), subset-to-classes, vertex, product, class-to-subset, one-sided-class, "
                    "subset-to-one-sided, finite-level-of, same-distance, one-sided-distance, class-distance, pairwise-distance, "
                    "removal-distance, "
                    "registered inequality lemmas, one-sided-ceiling")


def _ratio_of_averages(d) -> bool:
    return any(compares(d, family) for family in ("pairwise", "subset", "class"))


def _outside(d) -> str:
    """Why a declaration is outside the prover's families (two-sided ratios of averages)."""
    scale = d.level_scale
    slack, tail, ratio = d.declared(AdditiveSlack), d.declared(TailRatio), d.declared(RatioLevel)
    if slack is not None:
        return (f"{d.name}'s level carries an additive slack (a <= e^level b + delta on every event, comparing "
                f"{slack.compares}), not a ratio of averages: the prover reads such a level as A (towards a class "
                "distance or a ceiling) and, comparing pairs, as B from a pairwise ratio level only")
    if tail is not None:
        return (f"{d.name}'s level is max_E r_1/(r_l + ... + r_m) over each class's sorted frequencies (l its "
                f"parameter {tail.param}), not a ratio of averages over fixed sets: the prover reads it only "
                "as A (towards a ceiling)")
    if family_of(d) is None:
        return f"{d.name} declares no ratio-of-averages family (its level is {scale.name}-valued)"
    if ratio is not None and ratio.sides == "one-sided":
        return f"{d.name} is one-sided (the arguments need both directions of each ratio bounded)"
    return f"{d.name}'s level ({scale.name}) is not declared a two-sided ratio of averages over its {family_of(d)} sets"


def _weakest(d) -> str:
    """``d``'s weakest level as text: a formula of N where its scale declares one (1/N on N records)."""
    if d.level_scale.weakest_depends_on_N:
        return f"{d.weakest(sympy.Symbol('N', integer=True))} on N records"
    return str(d.level_scale.weakest)


def not_proved_reason(a: str, b: str, trivial: bool = False, tight_known: bool = True) -> str:
    """Why the implication A => B (node texts) has no proof for every N, from the declarations.

    ``trivial``: the tight f is B's weakest level, which every table of every N meets (nothing to
    prove); with ``tight_known`` False, f = B's weakest level holds on every table but the tight f was not computed
    (no linear-fractional form), so a stronger f may hold: said so. Otherwise a side outside the prover's families (a count, a distance, a one-sided ratio,
    no declared family) is named; or the families and subset sizes none of the prover's arguments covers.

    Examples
    --------
    >>> not_proved_reason("dp", "k-anonymity", trivial=True).split(",")[0]
    "trivial: the tight f is k-anonymity's weakest level (1)"
    >>> not_proved_reason("dp", "eps-delta-dp(delta=1/10)").split(":")[0]     # no declared family: a slack
    "outside the prover's families"
    """
    na, nb = parse_node(a), parse_node(b)
    da, db = na.definition, nb.definition
    if trivial and not tight_known:
        return (f"trivial at {db.name}'s weakest level: f = {_weakest(db)} holds, every table of every N "
                f"meets it ({db.name}'s declared {db.scale} scale); the tight f was not computed (no "
                "linear-fractional form), so a stronger f may hold: not counted as an implication")
    if trivial:
        return (f"trivial: the tight f is {db.name}'s weakest level ({_weakest(db)}), which every table "
                f"of every N meets ({db.name}'s declared {db.scale} scale; every level computed is checked against it): "
                "not counted as an implication")
    distance = class_distance_of(db, nb.param_dict)
    outside = [_outside(d) for d in (da, db) if not _ratio_of_averages(d) and not (d is db and distance)]
    if distance and not outside:
        j = subset_size_expr(da, sympy.Symbol("N", integer=True), na.param_dict)
        one_sided = da.has(RatioLevel) and da.declared(RatioLevel).sides == "one-sided"
        shape = ("one-sided " if one_sided else "") + family_of(da) + ("" if j is None else f", size {j}")
        return (f"no argument for every N: {db.name} is a class's {distance} distance, which the prover bounds from "
                f"a pairwise level (pairwise-distance), a two-sided or one-sided class level on the same partition "
                f"(class-distance, one-sided-distance), the same distance (same-distance) or a two-sided subset level "
                f"of any size j <= N - 1 (removal-distance), not from {da.name} "
                f"({shape}) (bounded evidence only)")
    if outside:
        return "outside the prover's families: " + "; ".join(outside) + " (bounded evidence only)"
    N = sympy.Symbol("N", integer=True)
    sizes = [subset_size_expr(d, N, n.param_dict) for d, n in ((da, na), (db, nb))]
    shape = " => ".join(f"{family_of(d)}" + (f" (size {j})" if j is not None else "") for d, j in zip((da, db), sizes))
    why = f"; subset-monotone needs {sizes[1]} >= {sizes[0]} for every N" if None not in sizes else ""
    # (a witness family beyond the N checked makes the pair a non-implication in the engine itself:
    # implgraph.engines.direction, smaller_subset.witness_beyond)
    return (f"no argument for every N: {shape} matches none of the prover's arguments ({PROVER_ARGUMENTS}){why}; "
            f"the tight f is exact at each N checked")


def counts_of(cells) -> dict:
    """How many ordered pairs are decided, proved for every N, bounded, refuted, trivial, vacuous and open.

    A trivial implication whose tight f is not known (``implication_trivial_open``: f = B's weakest level holds of
    every table, whether A gives more is not known) is not decided.

    ``implication`` counts the implications that say something of A only (:attr:`Cell.counted`): a trivial one (f B's
    weakest level) and a vacuous one (f B's own ceiling on every table of N records) are counted apart and never as
    implications. ``conditional_implication``: non-implications decided by a table of one class that are implications
    under the assumption "partitions into at least 2 classes"."""
    c = {"pairs": len(cells)}
    c["implication"] = sum(x.counted for x in cells)
    c["implication_proved_every_n"] = sum(x.counted and x.proved_every_n for x in cells)
    # of those, proved for every N with an f not shown tight everywhere (B's ceiling, a declared level, a lemma
    # not shown tight at every level): a tight f shown beside it is exact at the N checked only
    c["implication_proved_upper_only"] = sum(x.counted and x.proved_every_n and bool(x.proved_f) for x in cells)
    c["implication_bounded"] = c["implication"] - c["implication_proved_every_n"]
    c["implication_trivial"] = sum(x.relation == "implication" and x.trivial for x in cells)
    # of those, the ones whose tight f is not known: f = B's weakest level holds of every table, and whether A gives
    # anything stronger is undecided (not counted as decided)
    c["implication_trivial_open"] = sum(trivial_open(x) for x in cells)
    c["implication_vacuous"] = sum(x.relation == "implication" and x.vacuous and not x.trivial for x in cells)
    c["non_implication"] = sum(x.relation == "non-implication" for x in cells)
    c["conditional_implication"] = sum(x.relation == "non-implication" and (x.conditional or {}).get("relation")
                                       == "implication" for x in cells)
    c["decided"] = (c["implication"] + c["implication_trivial"] - c["implication_trivial_open"] + c["implication_vacuous"]
                    + c["non_implication"])
    c["equivalent"] = sum(x.equivalent for x in cells)
    c["open"] = sum(x.relation == "open" for x in cells)
    c["open_timeout"] = sum(x.relation == "open" and x.verdict == "timeout" for x in cells)
    return c
