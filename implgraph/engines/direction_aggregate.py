"""The instances of one direction combined into one verdict: :func:`aggregate`.

A witness at any instance makes the direction a non-implication; an undecided instance leaves it unknown;
otherwise it is an implication over the N and points checked (bounded), with the tight f of the last
instance; a refuted f is reported at a level where f is a valid level of B where one exists (:func:`_f_refutation`).
"""

from __future__ import annotations

from implgraph.engines.direction_points import _class_text
from implgraph.engines.direction_result import DirectionResult
from implgraph.engines.instance import VACUOUS
from implgraph.engines.recheck import strongest_raw
from implgraph.solvers.choose import lf_backend

__all__ = ["aggregate"]


def aggregate(a, b, f, instances, p, classes=None, min_classes=1) -> DirectionResult:
    """Combine the instances of one direction into one verdict.

    Parameters
    ----------
    a, b : Node
        The two sides of A => B.
    f : str or None
        The conjectured f as given (None: the relation only).
    instances : list of Instance
        The instances checked, in order of N and parameter point.
    p : int
        The number of buckets of the tables searched.
    classes : dict, optional
        The class sizes the search was restricted to (``min_size``, ``max_size``).
    min_classes : int
        The fewest classes of the partitions searched (1: every partition).

    Returns
    -------
    DirectionResult
        A non-implication where an instance has a witness, unknown where one is undecided, else a bounded
        implication with the tight f of the last instance; f's verdict beside it where an f is given.
    """
    parts = _class_text(a, b, classes, min_classes)
    if not instances:
        limited = ("" if not parts or "each of" not in parts
                   else f" with a partition of the sizes asked for ({parts}; a larger --N may have one)")
        return DirectionResult(a.label(), b.label(), "unknown", "unknown", "",
                               f"no N and parameter values satisfy the conditions{limited}", f=f)
    ns = sorted({i.N for i in instances})
    span = f"N = {ns[0]}" if ns[0] == ns[-1] else f"{ns[0]} <= N <= {ns[-1]}"
    bound = f"{span}, {p} buckets" + (f", {parts}" if parts else "")
    neg = [i for i in instances if i.relation == "non-implication"]
    unk = [i for i in instances if i.relation == "unknown"]
    res = DirectionResult(a.label(), b.label(), "implication", "verified-bounded", bound, "", f=f,
                          instances=instances)
    if not neg and not unk and all(i.note == VACUOUS for i in instances):
        # A is infinite on every table searched: an implication of no table shows nothing
        res.relation, res.verdict = "unknown", "unknown"
        res.evidence = (f"no table with {a.label()} finite for {bound} (e.g. a class smaller than its minimum "
                        "class size in every partition): nothing to decide there; a larger N may have one")
        return res
    if neg:
        _witness_found(res, a, b, neg[0])
    elif unk:
        res.relation, res.verdict = "unknown", "unknown"
        res.evidence = "; ".join(sorted({i.note for i in unk}))
    else:
        _bounded_implication(res, a, b, instances, bound)
    if f is not None:
        _f_verdict(res, a, b, instances, bound)
    return res


def _witness_found(res, a, b, w):
    """``res`` a non-implication by the witness of the instance ``w`` (A finite, B infinite)."""
    res.relation, res.verdict, res.witness = "non-implication", "refuted", dict(w.witness, point=w.point)
    where = ", ".join(f"{k}={v}" for k, v in w.point.items())
    res.evidence = (f"at {where}: a table where {a.label()} has level {w.witness['level_a']} and "
                    f"{b.label()} level oo (re-checked in exact arithmetic); no f can work")
    res.bound = ""


def _bounded_implication(res, a, b, instances, bound):
    """The evidence of an implication at every instance (within ``bound``), with the tight f of the last one."""
    last = instances[-1]
    res.tight = last.tight
    res.tight_upto = last.fit_upto
    res.trivial = all(i.trivial for i in instances)
    trivial_notes = [i.note for i in instances if i.note.startswith("trivial")]
    if trivial_notes:
        res.evidence = f"{trivial_notes[0]} ({bound})"
    else:
        res.evidence = (f"no table with {a.label()} finite and {b.label()} infinite for {bound} "
                        f"(decided exactly by {lf_backend().NAME}, linear real arithmetic)")
    if last.tight:
        where = ", ".join(f"{k}={v}" for k, v in last.point.items())
        res.evidence += f"; tight f at {where}: {last.tight}"
        if last.fit_range:
            res.evidence += f" (for {last.fit_range}; piecewise beyond)"


def _f_verdict(res, a, b, instances, bound):
    """The conjectured f's verdict: refuted where an instance refutes it, holds at the samples (bounded, not a
    proof) where every instance's samples meet it, else undecided."""
    bad = [i for i in instances if i.f_status == "refuted"]
    if bad:
        _f_refutation(res, a, b, bad)
    elif res.relation == "implication" and all(i.f_status == "holds-at-samples" for i in instances):
        res.f_verdict = "holds-at-samples"
        res.verdict = "unknown"
        res.evidence += (f"; f is at least the tight value at every sampled level for {bound} "
                         "(bounded evidence, not a proof)")
    elif res.relation == "implication":
        res.f_verdict, res.verdict = "unknown", "unknown"
        res.evidence += "; whether f holds is not decided (the tight f is not known)"


def _f_refutation(res, a, b, bad):
    """Report the refutation of f: at a level where f is a valid level of B where one exists, with a
    witness where f is not a valid level (degenerate) beside it."""
    valid = [i for i in bad if not i.f_witness.get("degenerate")]
    degenerate = [(i, i.f_witness) for i in bad if i.f_witness.get("degenerate")] + \
        [(i, i.f_witness_degenerate) for i in bad if i.f_witness_degenerate]
    w = (valid or bad)[0]
    res.f_verdict, res.verdict, res.witness = "refuted", "refuted", dict(w.f_witness, point=w.point)

    def describe(inst, wit):
        where = ", ".join(f"{k}={v}" for k, v in inst.point.items())
        lvl = wit.get("level", wit["level_a"])
        return (f"at {where}: a table satisfying {a.label()} at level {lvl} has {b.label()} level "
                f"{wit['level_b']}, weaker than f = {wit.get('f_at_level', 'finite')}")

    if valid:
        res.evidence = f"f is refuted {describe(w, w.f_witness)} (re-checked in exact arithmetic)"
        if w.tight:
            res.evidence += f"; the tight f there is {w.tight}"
        if degenerate:
            inst, wit = degenerate[0]
            res.degenerate_witness = dict(wit, point=inst.point)
            res.evidence += (f"; also, at a degenerate level, {describe(inst, wit)}, which is no valid level of "
                             f"{b.label()} (its strongest level is "
                             f"{b.definition.level_from_raw(strongest_raw(b.definition))})")
        return
    res.evidence = (f"f is refuted only at degenerate levels, where f is no valid level of {b.label()} (its "
                    f"strongest level is {b.definition.level_from_raw(strongest_raw(b.definition))}): "
                    f"{describe(w, w.f_witness)} (re-checked in exact arithmetic); at every sampled level "
                    f"where f is a valid level it is at least the tight value")
    if w.tight:
        res.evidence += f"; the tight f there is {w.tight}"
