"""Witnesses beyond the tables searched: tables of one more bucket, and witness families beyond the N checked.

Where a direction holds at every N checked without a proof for every N (:func:`_search_beyond`), a table of
``p + 1`` buckets with A finite and B infinite (:func:`_wider_witness`), or a family of tables known to be
witnesses from some larger N on (:mod:`implgraph.engines.smaller_subset`, :func:`_beyond`), makes it a
non-implication, its table re-checked in exact arithmetic.
"""

from __future__ import annotations

import sympy

from implgraph.definitions.nodes import N_SYM
from implgraph.engines.direction_points import EXHAUSTIVE_MAX, _valid_points
from implgraph.engines.instance import VACUOUS, analyse
from implgraph.engines.recheck import witness_dict

__all__ = ["WIDER_P_MAX", "WIDER_N"]


def _beyond(res, a, b, N) -> None:
    """An implication at every N checked without a proof for every N, where a witness family is known from some
    larger N on (:func:`implgraph.engines.smaller_subset.witness_beyond`: A finite and B infinite at every N >= n0,
    symbolically): a non-implication, with the family's table at n0 re-checked in exact arithmetic (the implication
    held only at the N checked)."""
    from implgraph.engines.recheck import is_witness
    from implgraph.engines.smaller_subset import small_class_beyond, witness_beyond
    found = witness_beyond(a, b, N)
    if found is not None:
        family = f"{found['z']} record(s) at (0, 1) and N - ({found['z']}) at (1/2, 1/2), every N >= {found['n0']}"
        text = (f"a table of {found['z'].subs(sympy.Symbol('N', integer=True), found['n0'])} record(s) at (0, 1) and "
                f"the rest at (1/2, 1/2)")
        symbolic = (f"; the same table of N records has {a.label()} level {found['level_a']} (finite) and {b.label()} "
                    f"level oo for every N >= {found['n0']} (exact symbolic levels)")
    else:
        found = small_class_beyond(a, b, N)
        if found is None:
            return
        family, text, symbolic = found["text"], found["text"].split(":")[0], ""
    n0, ct = found["n0"], found["table"]
    ap, bp = a.at({N_SYM: n0}), b.at({N_SYM: n0})
    if not is_witness(a.definition, ap, b.definition, bp, ct):
        if symbolic:
            raise RuntimeError(f"{a.label()} => {b.label()}: the zero-records table at N = {n0} is no witness in exact "
                               "arithmetic, though its symbolic levels say so: a bug")
        return      # (A is not finite there: no witness)
    if n0 <= min(N, EXHAUSTIVE_MAX):
        raise RuntimeError(f"{a.label()} => {b.label()}: a witness family from N = {n0} on, but the search at N <= {N} "
                           "found none: a bug")
    held = (f"the implication held at every N checked ({res.bound})" if res.relation == "implication" else
            f"at the N checked no table satisfied {a.label()} ({res.bound})")
    res.relation, res.verdict = "non-implication", "refuted"
    res.witness = dict(witness_dict(ct, a.definition, ap, b.definition, bp), point={"N": n0}, family=family)
    res.evidence = (f"at N = {n0}, beyond the N checked: {text}, where {a.label()} has level "
                    f"{res.witness['level_a']} and {b.label()} level oo (re-checked in exact arithmetic){symbolic}: "
                    f"no f can work; {held}")
    res.bound, res.tight, res.tight_upto, res.tight_in_N, res.trivial = "", None, None, None, False
    if res.f is not None:
        res.f_verdict = "refuted"



#: the largest number of buckets of the wider tables (p + 1 where the tables of p buckets have no witness) and the
#: largest N of that search
WIDER_P_MAX, WIDER_N = 8, 4


def _wider_witness(res, a, b, when_c, N, p, n_min, classes, min_classes=1) -> None:
    """Where ``res`` is an implication on tables of ``p`` buckets without a proof for every N, or unknown because A
    is infinite on every table of ``p`` buckets searched: a table of ``p + 1`` buckets with A finite and B infinite, at
    N <= :data:`WIDER_N` (exact, the first stage of :func:`analyse`), makes it a non-implication (a table of more
    buckets is still a table); its evidence says that the tables of ``p`` buckets have none. Skipped where B's weakest
    level is finite (B is never infinite)."""
    a_def, b_def = a.definition, b.definition
    if b_def.weakest() is not sympy.oo:
        return
    wider = p + 1
    for n in range(max(n_min, 2), min(N, WIDER_N) + 1):
        for _, ap, bp, lo, hi, pt in _valid_points(a, b, when_c, n, classes, min_classes=min_classes):
            inst = analyse(a_def, ap, b_def, bp, n, wider, None, pt, lo, hi, stage="first", min_classes=min_classes)
            if inst.relation != "non-implication":
                continue
            where = ", ".join(f"{k}={v}" for k, v in inst.point.items())
            res.relation, res.verdict, res.witness = "non-implication", "refuted", dict(inst.witness, point=inst.point)
            res.evidence = (f"at {where}: a table of {wider} buckets where {a.label()} has level "
                            f"{inst.witness['level_a']} and {b.label()} level oo (re-checked in exact arithmetic); no "
                            f"f can work (the tables of {p} buckets have none: {res.bound})")
            res.bound, res.tight, res.tight_upto, res.tight_in_N, res.trivial = "", None, None, None, False
            if res.f is not None:
                res.f_verdict = "refuted"
            return


def _search_beyond(res, a, b, instances, when_c, N, p, n_min, classes, min_classes, block):
    """An implication without a proof for every N (or a direction whose A is infinite on every table searched):
    the wider tables of ``p + 1`` buckets (:func:`_wider_witness`), then a witness family beyond the N checked
    (:func:`_beyond`)."""
    vacuous = res.relation == "unknown" and instances and all(i.note == VACUOUS for i in instances)
    if (res.relation == "implication" and res.verdict != "proved" or vacuous) and not block and p < WIDER_P_MAX:
        _wider_witness(res, a, b, when_c, N, p, n_min, classes, min_classes)
    if (res.relation == "implication" and res.verdict != "proved" or vacuous and res.relation == "unknown") \
            and not classes:
        _beyond(res, a, b, N)
