"""Refutations by witness in Coq: a table that satisfies A at a level and on which B's level is infinite.

A non-implication of the pair matrix (``implgraph/data/matrix.json``, ``implgraph/data/matrix-symbols.json``) carries a witness table:
rows of rational values, a class label per record, A's level on it and B's (``oo``). For each, a Coq theorem states,
on that table (``qx rows``, classes ``qcls labels``; ``coq/theories/Witness.v``):

- it is a table (every value >= 0, every row summing to 1) and, where a side has classes, a partition into at least
  two classes;
- A's predicate holds at A's stated level (raw, exact): the library's boolean evaluator over the rationals accepts the
  table (``vm_compute``), and the evaluator's lemma turns that into the predicate on the real values; an entropy
  bound ``-ln p >= c`` or ``< r`` by ``exp x >= (1 + x/n)^n``, decided over the rationals (not coq-interval: its
  tactic rests on Coq's primitive integers and floats, axioms beyond the real numbers');
- B's predicate fails at every level U: a constraint of B compares a mass that is 0 with one that is not (found here
  with exact fractions, checked in Coq by ``vm_compute``), or a class is smaller than B's declared minimum.

    python -m implgraph.kernel_coq.witness OUT.json [--root .]     # the matrices' witness tables, deduplicated

A witness whose sides have no evaluator in the library (a level declared only on uniform classes, a tail ratio, a
minimum class size with the rest of the definition abstract, on A's side) is not stated; the reason is kept.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import sys
from fractions import Fraction

from implgraph.kernel_coq import adapter
from implgraph.kernel_coq.coqexpr import Untranslatable
from implgraph.kernel_coq.witness_table import _Table, _bools, _events, _q

__all__ = ["harvest", "witness_blocks", "witness_theorem", "main"]

WITNESS_MODULES = ("Witness",)


def harvest(root) -> list:
    """``[{"a", "b", "rows", "classes", "level_a", "level_b", "point", "sources"}]``: the witness tables of the pair
    matrices' non-implications, one per distinct (A, B, table) at its point."""
    store = {}
    from implgraph.data import MATRIX, MATRIX_SYMBOLS
    for path in (MATRIX, MATRIX_SYMBOLS):
        name = path.name
        if not os.path.exists(path):
            continue
        with open(path) as fh:
            cells = json.load(fh)["cells"]
        for cell in cells:
            w = cell.get("witness")
            if not w or not w.get("rows"):
                continue
            item = {"a": cell["a"], "b": cell["b"], "rows": w["rows"], "classes": w.get("classes"),
                    "level_a": str(w.get("level_a")), "level_b": str(w.get("level_b")), "point": w.get("point") or {}}
            key = json.dumps([_label_at(item["a"], item["point"]), _label_at(item["b"], item["point"]), item["rows"],
                              item["classes"], item["level_a"]], sort_keys=True)
            if key not in store:
                store[key] = {**item, "sources": []}
            store[key]["sources"].append(f"{name}:{cell['a']} =/=> {cell['b']}")
    return list(store.values())


def _label_at(label, point):
    try:
        side, _ = adapter.node_side(label, point)
        return [side.definition, sorted((k, str(v)) for k, v in side.params.items())]
    except Exception:       # (only the deduplication key: an unreadable label keeps its text)
        return label


# A: the evaluators ------------------------------------------------------------------------------------------------


def _a_pred(side, d, tab, T, names):
    """``(statement, tactic)`` of A's predicate at the raw level ``T`` (a Fraction)."""
    N, K = tab.N, tab.K
    x, cls, rows, labels = f"(qx {names[0]})", f"(qcls {names[1]})", names[0], names[1]
    TQ = f"(Q2R {_q(T)})"
    eval_ = "vm_compute; reflexivity"
    kind = adapter.class_level_kind(side.definition)
    if side.finite_level_of and side.increase_cap == "-log(p)":
        inner = adapter.registered_side(side.finite_level_of)
        if inner is None or inner.family != "class" or inner.sides != "OneSided":
            raise Untranslatable("a capped level whose own level is not a one-sided class level")
        lbs, cases = [], []
        for b in range(K):
            p = tab.tmean(b)
            need = [tab.cmean(i, b) / p - 1 for i in range(N) if p > 0 and tab.cmean(i, b) > p]
            if p <= 0:
                lbs.append(Fraction(-1))
                cases.append("intros Hp; vm_compute in Hp; discriminate")
                continue
            lbs.append(max(need) if need else Fraction(-1))
            cases.append("intros _; " + _neg_ln_ge(p, lbs[-1]))
        lb = "[" + "; ".join(_q(v) for v in lbs) + "]"
        bucket = "intros b Hb; " + _by_cases("b", cases)
        stmt = (f"capped_level (class_le OneSided {N} {K} {x} {cls} {TQ}) (increase_cap_log {N} {K} {x} {cls})")
        tac = (f"split; [apply class_of_b; {eval_} | apply (cap_of_b {N} {K} {rows} {labels} {lb}); "
               f"[lia | {bucket} | {eval_}]]")
        return stmt, tac
    if side.min_class_param or side.uniform_class_level and kind is None or side.tail_ratio is not None:
        raise Untranslatable(f"A ({side.definition}) has no evaluator in the library")
    if side.class_size_level:
        return f"class_size_ge {N} {cls} {TQ}", f"apply class_size_of_b; {eval_}"
    if kind == "min-entropy":
        return f"minent_ge {N} {K} {x} {cls} {TQ}", f"apply minent_of_b; {eval_}"
    if kind == "support":
        return f"support_ge {N} {K} {x} {cls} {TQ}", f"apply support_of_b; {eval_}"
    if kind == "shannon":
        if T > 1:
            raise Untranslatable("a Shannon class level above 1 (exp H of a concrete table: not evaluated yet)")
        return (f"shannon_ge {N} {K} {x} {cls} {TQ}",
                f"apply shannon_one; [apply table_of_b; {eval_} | rewrite <- RMicromega.Q2R_1; apply Qle_R; {eval_}]")
    if side.slack is not None:
        d = Fraction(side.slack.delta)
        if side.slack.compares == "pairs":
            return (f"slack_pairs_le {N} {K} {x} (Q2R {_q(d)}) {TQ}", f"apply slack_pairs_of_b; {eval_}")
        if side.slack.compares == "removal":
            return (f"slack_removal_le {N} {K} {x} (Q2R {_q(d)}) {TQ}",
                    f"apply slack_removal_of_b; [lia | {eval_}]")
        raise Untranslatable("a slack comparing other records")
    if side.distance == "total-variation" and side.family == "class":
        return f"tv_le {N} {K} {x} {cls} {TQ}", f"apply tv_of_b; [lia | {eval_}]"
    if side.family == "pairwise" and side.sides == "TwoSided":
        return f"pairwise_le {N} {K} {x} {TQ}", f"apply pairwise_of_b; {eval_}"
    if side.family == "subset" and side.sides and side.size is not None:
        j = int(side.size)
        return f"subset_le {side.sides} {N} {K} {x} (INR {j}) {TQ}", f"apply subset_of_b; {eval_}"
    if side.family == "class" and side.sides:
        return f"class_le {side.sides} {N} {K} {x} {cls} {TQ}", f"apply class_of_b; {eval_}"
    raise Untranslatable(f"A ({side.definition}) has no evaluator in the library")


#: the exponents n tried in exp(x) >= (1 + x/n)^n (Witness.neg_ln_ge_q, neg_ln_lt_q)
_NS = (8, 32, 128, 512, 2048)


def _qpow(q, n):
    return q ** n


def _neg_ln_ge(p: Fraction, c: Fraction) -> str:
    """A tactic proving ``Q2R c <= - ln (Q2R p)`` (0 < p <= 1): Witness.neg_ln_nonneg_q where c <= 0, else
    neg_ln_ge_q with the first n where p <= (1 - c/n)^n."""
    if c <= 0 and p <= 1:
        return "apply neg_ln_nonneg_q; vm_compute; reflexivity"
    for n in _NS:
        if c <= n and p <= _qpow(1 - c / n, n):
            return f"apply (neg_ln_ge_q _ _ {n}); vm_compute; reflexivity"
    raise Untranslatable(f"-ln {p} >= {c} not decided by (1 - c/n)^n up to n = {_NS[-1]}")


def _neg_ln_lt(p: Fraction, r: Fraction) -> str:
    """A tactic proving ``- ln (Q2R p) < Q2R r`` (r >= 0): neg_ln_lt_q with the first n where p (1 + r/n)^n > 1."""
    for n in _NS:
        if r >= 0 and p * _qpow(1 + r / n, n) > 1:
            return f"apply (neg_ln_lt_q _ _ {n}); vm_compute; reflexivity"
    raise Untranslatable(f"-ln {p} < {r} not decided by (1 + r/n)^n up to n = {_NS[-1]}")


def _by_cases(var, tactics):
    """Case on a natural number ``var`` below ``len(tactics)`` (the rest by lia)."""
    pat = "[|" * len(tactics) + var + "]" * len(tactics)
    return f"destruct {var} as {pat}; [{' | '.join(f'({t})' for t in tactics)} | lia]"


# B: where its constraint fails at every level --------------------------------------------------------------------


def _b_violation(side, d, tab, names):
    """``(statement, tactic)``: B's predicate fails at every level on the table."""
    N, K = tab.N, tab.K
    x, cls, rows, labels = f"(qx {names[0]})", f"(qcls {names[1]})", names[0], names[1]
    ev = "vm_compute; reflexivity"
    zero, pos = f"apply Q2R_eq0; {ev}", f"apply Q2R_pos; {ev}"
    from implgraph.definitions.capabilities import MinClassSize
    minimum = d.declared(MinClassSize) if d is not None else None
    name = None if minimum is None else minimum.param
    if name and name in side.params:
        k = Fraction(str(side.params[name]))
        for c, members in tab.classes().items():
            if len(members) < k:
                i = members[0]
                return (f"forall Arest, ~ min_class_level {N} {cls} (Q2R {_q(k)}) Arest",
                        f"intros Arest; apply (min_class_oo {N} {cls} (Q2R {_q(k)}) {i}); "
                        f"[lia | rewrite card_Q; apply Q2R_lt; {ev}]")
        raise Untranslatable("no class smaller than B's minimum")
    if side.finite_level_of and side.increase_cap == "-log(p)":
        for i, b in itertools.product(range(N), range(K)):
            p, q = tab.tmean(b), tab.cmean(i, b)
            if 0 < p < q and -math.log(p) < float(q / p - 1) - 1e-9:
                return (f"forall U, ~ capped_level (class_le OneSided {N} {K} {x} {cls} U) "
                        f"(increase_cap_log {N} {K} {x} {cls})",
                        f"apply (capped_oo_b {N} {K} {rows} {labels} {i} {b}); [lia | lia | lia | {ev} | {ev} | "
                        f"{_neg_ln_lt(p, q / p - 1)}]")
        raise Untranslatable("no class breaking B's increase cap")
    if side.slack is not None:
        return _slack_violation(side, tab, x, rows, zero, ev)
    found = _zeros_violation(side, tab, x, cls, zero, pos, ev)
    if found is not None:
        return found
    raise Untranslatable(f"B ({side.definition}): an infinite level the library does not state")


def _slack_violation(side, tab, x, rows, zero, ev):
    """``(statement, tactic)``: B's additive slack constraint fails at every level on some event (Untranslatable
    if on none)."""
    N, K = tab.N, tab.K
    dl = Fraction(side.slack.delta)
    for ev_ in _events(K):
        masses = [tab.mass(i, ev_) for i in range(N)]
        if side.slack.compares == "pairs":
            ks = [k for k in range(N) if masses[k] == 0]
            is_ = [i for i in range(N) if masses[i] > dl]
            if ks and is_:
                return (f"forall U, ~ slack_pairs_le {N} {K} {x} (Q2R {_q(dl)}) U",
                        f"apply (slack_pairs_oo {N} {K} {x} (Q2R {_q(dl)}) (of_list {_bools(ev_)}) {is_[0]} "
                        f"{ks[0]}); [lia | lia | rewrite emass_Q; {zero} | rewrite emass_Q; apply Q2R_lt; {ev}]")
        elif side.slack.compares == "removal" and N >= 2:
            tot = sum(masses)
            for k in range(N):
                P, Q = tot / N, (tot - masses[k]) / (N - 1)
                if (P > dl and Q == 0) or (Q > dl and P == 0):
                    return (f"forall U, ~ slack_removal_le {N} {K} {x} (Q2R {_q(dl)}) U",
                            f"apply (slack_removal_oo_b {N} {K} {rows} {_q(dl)} {_bools(ev_)} {k}); "
                            f"[lia | lia | reflexivity | {ev}]")
    raise Untranslatable("no event where B's slack constraint fails at every level")


def _zeros_violation(side, tab, x, cls, zero, pos, ev):
    """``(statement, tactic)`` for a two-sided pairwise, subset or class B: a bucket with mass that is zero on
    a record, a set of B's size or a class (B's level infinite); None for another B (Untranslatable where B's
    family has no such bucket)."""
    N, K = tab.N, tab.K
    if side.family == "pairwise" and side.sides == "TwoSided":
        for b in range(K):
            col = tab.col(b)
            ks = [k for k in range(N) if col[k] == 0]
            is_ = [i for i in range(N) if col[i] > 0]
            if ks and is_:
                return (f"forall U, ~ pairwise_le {N} {K} {x} U",
                        f"apply (pairwise_oo {N} {K} {x} {b} {is_[0]} {ks[0]}); [lia | lia | lia | "
                        f"rewrite x_Q; {zero} | rewrite x_Q; {pos}]")
        raise Untranslatable("no bucket with a zero and a positive value")
    if side.family == "subset" and side.sides == "TwoSided" and side.size is not None:
        j = int(side.size)
        for b in range(K):
            col = tab.col(b)
            zeros = [k for k in range(N) if col[k] == 0]
            if len(zeros) >= j >= 1 and sum(col) > 0:
                S = [k in zeros[:j] for k in range(N)]
                return (f"forall U, ~ subset_le TwoSided {N} {K} {x} (INR {j}) U",
                        f"apply (subset_oo {N} {K} {x} (INR {j}) {b} (of_list {_bools(S)})); [lia | "
                        f"rewrite card_Q, <- Q2R_natQ; apply Qeq_R; {ev} | apply lt_0_INR; lia | "
                        f"rewrite sumS_col_Q; {zero} | rewrite sum_col_Q; {pos}]")
        raise Untranslatable("no set of B's size holding only zeros in a bucket with mass")
    if side.family == "class" and side.sides == "TwoSided":
        for b in range(K):
            col = tab.col(b)
            for c, members in tab.classes().items():
                if all(col[k] == 0 for k in members) and sum(col) > 0:
                    return (f"forall U, ~ class_le TwoSided {N} {K} {x} {cls} U",
                            f"apply (class_oo {N} {K} {x} {cls} {b} {members[0]}); [lia | lia | "
                            f"rewrite sumS_col_Q; {zero} | rewrite sum_col_Q; {pos}]")
        raise Untranslatable("no class holding only zeros in a bucket with mass")
    return None


# the theorem ----------------------------------------------------------------------------------------------------


def witness_theorem(item, name):
    """The Coq text of one witness's theorem ``name`` (raises :class:`Untranslatable`)."""
    if str(item.get("level_b")) != "oo":
        raise Untranslatable("B's level on the witness is finite (only infinite levels are stated yet)")
    point = dict(item.get("point") or {})
    tab = _Table(item["rows"], item.get("classes"))
    point.setdefault("N", tab.N)
    if point["N"] != tab.N:
        raise Untranslatable("the witness's N is not its number of rows")
    a_side, a_def = adapter.node_side(item["a"], point)
    b_side, b_def = adapter.node_side(item["b"], point)
    raw = adapter.raw_level(a_def, item["level_a"])
    if not raw.is_Rational:
        raise Untranslatable(f"A's raw level {raw} is not rational")
    T = Fraction(int(raw.p), int(raw.q))
    rows_name, labels_name = f"{name}_rows", f"{name}_labels"
    names = (rows_name, labels_name)
    a_stmt, a_tac = _a_pred(a_side, a_def, tab, T, names)
    b_stmt, b_tac = _b_violation(b_side, b_def, tab, names)
    N, K = tab.N, tab.K
    rows_text = "[" + "; ".join("[" + "; ".join(_q(v) for v in row) + "]" for row in tab.rows) + "]"
    labels_text = "[" + "; ".join(str(v) for v in tab.labels) + "]%nat"
    classed = a_side.family == "class" or b_side.family == "class" or any(
        s.class_size_level or s.min_class_param for s in (a_side, b_side))
    parts = [f"table {N} {K} (qx {rows_name})"]
    tacs = [f"apply table_of_b; vm_compute; reflexivity"]
    if classed:
        pair = next(((i, k) for i in range(N) for k in range(N) if tab.labels[i] != tab.labels[k]), None)
        if pair is None:
            raise Untranslatable("a witness with one class")
        parts.append(f"Tables.partition {N} (qcls {labels_name}) 1")
        tacs.append(f"apply (partition_of_two {N} {labels_name} {pair[0]} {pair[1]}); [lia | lia | vm_compute; "
                    "reflexivity]")
    parts += [a_stmt, f"({b_stmt})"]
    tacs += [a_tac, b_tac]
    statement = " /\\\n  ".join(parts)
    lines = []
    for i, tac in enumerate(tacs):
        if i < len(tacs) - 1:
            lines.append("split.")
            lines.append(f"{{ {tac}. }}")
        else:
            lines.append(f"{tac}.")
    body = "\n".join(f"  {ln}" for ln in lines)
    return (f"Definition {rows_name} : list (list Q) := {rows_text}.\n"
            f"Definition {labels_name} : list nat := {labels_text}.\n"
            f"Theorem {name} :\n  {statement}.\nProof.\n{body}\nQed.\n")


def witness_blocks(items):
    """``(rows, blocks)``: a summary row per witness and a theorem block ``wNNN`` (for
    :func:`implgraph.kernel_coq.check.check_blocks`) per one stated."""
    rows, blocks = [], []
    for i, item in enumerate(items):
        name = f"w{i:03d}"
        row = {"kind": "witness", "name": name, "method": f"{_def_name(item['a'])} =/=> {_def_name(item['b'])}",
               "sources": item.get("sources", [])}
        try:
            text = witness_theorem(item, name)
        except (Untranslatable, KeyError, ValueError, TypeError, ZeroDivisionError) as exc:
            row.update(generated=False, reason=f"{exc.__class__.__name__}: {exc}")
            rows.append(row)
            continue
        comment = "(* " + "; ".join(item.get("sources", [])[:2]) + " *)\n"
        blocks.append((name, text, set(WITNESS_MODULES), comment))
        row.update(generated=True)
        rows.append(row)
    return rows, blocks


def _def_name(label):
    return str(label).split("(")[0]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out")
    p.add_argument("--root", default=os.getcwd())
    args = p.parse_args(argv)
    items = harvest(args.root)
    from implgraph.io.output import write_output
    write_output(args.out, json.dumps(items, indent=1))
    print(f"{len(items)} distinct witnesses -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
