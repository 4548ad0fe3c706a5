"""A remedy by suppression: the fewest records to leave out of microdata so that every requirement holds.

Two kinds of suppression (``mode``):

- ``classes``: whole equivalence classes are left out;
- ``records``: records are left out within classes (a class may go whole), one sensitive column.

A requirement is **local** when whether a class meets it depends on that class alone: the definition declares
its level as a class's size (:class:`~implgraph.definitions.capabilities.ClassSizeLevel`), or as a formula of
one class (:class:`~implgraph.definitions.capabilities.ClassLevel`, with or without a minimum class size), and
the table's level is the worst class's. Its classes are judged one by one:

- whole classes: a class failing a local requirement must go in every remedy, and leaving out exactly those
  classes is the fewest (**exact**);
- within classes: per class, for each number ``r`` of records left out (0, 1, ...), the records left out are
  taken from the most frequent values first (:func:`lower_top`), which for that ``r`` gives the class whose
  counts are the most even (it is majorized by every other choice of ``r`` records); the first ``r`` at which
  the class passes is its fewest, **exact** where the class's level does not worsen as its counts even out
  (a Schur-concave level: the class's size, its number of values, its top share and its entropy; the
  assumption is stated in the result, and ``tests/test_remedy.py`` checks it against a brute force over every
  subset of records).

Any other requirement (the distance of a class to the table, a ratio to the table's share, a level of the whole
table) depends on the table the remaining classes form. Then, after the local part, whole classes are left out:
by enumeration of every set of the remaining classes (fewest records first; **exact** for whole classes) when
there are at most :data:`ENUMERATE` of them, else greedily, the class worst for the first failing requirement
first: the result is then **an upper bound on the fewest**, with the local part as a lower bound.

Whatever the search, the records kept are re-checked: the exact levels of the remedied records
(:func:`implgraph.io.microdata.microdata_tables` and :func:`implgraph.io.microdata.table_levels`, as
``implgraph levels`` computes them) must meet every requirement, or the remedy is refused.

Examples
--------
>>> lower_top([5, 1, 3], 3)
[2, 1, 3]
>>> lower_top([5, 1, 3], 5)
[1, 1, 2]
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import sympy

from implgraph.core.errors import InputError

__all__ = ["Remedy", "remedy", "lower_top", "is_local", "ENUMERATE", "MODES"]

MODES = ("classes", "records")
ENUMERATE = 10
"""At most this many classes left after the local part: every set of them is tried (exact); more: greedy."""

SCAN = 2000
"""Within a class, at most this many numbers of records left out are tried (each judged exactly) before the whole
class is left out, the count then an upper bound (a class of millions of records is not scanned one by one)."""

SCHUR = ("assumes a class's level does not worsen as its counts even out (Schur-concave), as a class's size, number "
         "of values, top share and entropy do")


@dataclass
class Remedy:
    """A suppression plan and its cost.

    Attributes
    ----------
    mode : {"classes", "records"}
    keep : numpy.ndarray
        One boolean per record of the data given: True for a record kept.
    records : int
        Records left out.
    classes_removed, classes_touched : int
        Classes left out whole; classes losing at least one record (those left out whole included).
    exact : bool
        True: ``records`` is the fewest (under ``assumes``); False: an upper bound on the fewest.
    lower : int
        A lower bound on the fewest (``records`` when exact).
    method : str
        How the plan was found.
    assumes : str
        The assumption the exactness uses ('' if none).
    """

    mode: str
    keep: np.ndarray
    records: int
    classes_removed: int
    classes_touched: int
    of_classes: int
    exact: bool
    lower: int
    method: str
    assumes: str = ""
    levels: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"mode": self.mode, "records_suppressed": self.records, "records_kept": int(self.keep.sum()),
                "classes_removed": self.classes_removed, "classes_touched": self.classes_touched,
                "of_classes": self.of_classes, "fewest": "exact" if self.exact else "upper bound",
                "lower_bound": self.lower, "method": self.method, **({"assumes": self.assumes} if self.assumes else {}),
                "levels_after": {col: {name: str(v) for name, v in lv.items()} for col, lv in self.levels.items()}}


def is_local(d) -> bool:
    """Whether a class meets a requirement on ``d`` by itself: ``d`` declares its level as a class's size or as a
    formula of one class."""
    from implgraph.definitions.capabilities import ClassLevel, ClassSizeLevel
    return d.has(ClassSizeLevel) or d.declared(ClassLevel) is not None


def _by_formula(d) -> bool:
    """Whether a class's level of ``d`` is a formula of its shares (beyond its size)."""
    from implgraph.definitions.capabilities import ClassLevel
    return d.declared(ClassLevel) is not None


def lower_top(counts, r: int) -> list:
    """The counts after leaving out ``r`` records, one at a time from the most frequent value (the first such
    value on a tie): for that ``r``, the most even counts reachable.

    Lowers the largest counts to the lowest common level ``m`` that leaves out at most ``r`` (``min(c, m)``),
    then the first values at ``m`` by one more each to leave out exactly ``r``.
    """
    counts = [int(c) for c in counts]
    if r >= sum(counts):
        return [0] * len(counts)
    lo, hi = 0, max(counts, default=0)
    while lo < hi:                                   # the smallest m with sum(max(c - m, 0)) <= r
        mid = (lo + hi) // 2
        if sum(max(c - mid, 0) for c in counts) <= r:
            hi = mid
        else:
            lo = mid + 1
    out = [min(c, lo) for c in counts]
    extra = sum(out) - (sum(counts) - r)             # still to leave out: from the first values at the level m
    for i, c in enumerate(out):
        if extra <= 0:
            break
        if c == lo and lo > 0:
            out[i], extra = c - 1, extra - 1
    return out


def _count_table(sums, labels, buckets):
    from implgraph.io.weighted import WeightedConcreteTable
    return WeightedConcreteTable.from_class_counts(np.asarray(sums, dtype=np.int64), list(labels), buckets)


class _Problem:
    """The count tables of every sensitive column, the requirements and their parameters."""

    def __init__(self, tables, requirements, params, grounds):
        self.tables, self.requirements, self.params, self.grounds = tables, requirements, params, grounds
        first = next(iter(tables.values()))
        self.labels = list(first.class_labels)
        self.sums = {col: np.asarray(ct.class_sums()[1], dtype=np.int64) for col, ct in tables.items()}
        self.sizes = np.asarray(first.class_sums()[0], dtype=np.int64)
        self.names = [r.definition.name for r in requirements]

    def levels(self, sums_by_col, alive) -> dict | None:
        """``{column: {definition: Level}}`` of the required definitions on the classes ``alive`` with the counts
        ``sums_by_col`` (None when fewer than 2 records remain)."""
        from implgraph.io.microdata import table_levels
        if not len(alive) or int(sum(sums_by_col[next(iter(sums_by_col))][alive].sum(axis=1))) < 2:
            return None
        return {col: table_levels(self.table(sums_by_col, col, alive), self.params, ground=self.grounds[col],
                                  only=self.names) for col in self.tables}

    def table(self, sums_by_col, col, alive):
        """The count table of the column ``col`` on the classes ``alive`` with the counts ``sums_by_col``."""
        return _count_table(sums_by_col[col][alive], [self.labels[i] for i in alive], self.tables[col].buckets)

    def holds(self, levels) -> bool:
        if levels is None:
            return False
        return all(lv[r.definition.name].defined and r.holds(lv[r.definition.name].value) is True
                   for lv in levels.values() for r in self.requirements)

    def failing(self, levels):
        """The first ``(column, requirement)`` failing, or None."""
        for col, lv in levels.items():
            for r in self.requirements:
                level = lv[r.definition.name]
                if not (level.defined and r.holds(level.value) is True):
                    return col, r
        return None


def _class_ok(problem, levels, col, row) -> bool | None:
    """Whether one class of counts ``row`` meets every local requirement on ``col`` by itself."""
    from implgraph.io.requirements import class_levels
    if sum(row) == 0:
        return True
    t = _count_table([row], ["class"], problem.tables[col].buckets)
    for r in problem.requirements:
        if not is_local(r.definition):
            continue
        lv = class_levels(r.definition, t, dict(levels[col][r.definition.name].params))
        if lv is None:
            return None
        ok = r.holds(lv[0])
        if ok is not True:
            return ok
    return True


def _local_classes(problem, levels) -> tuple:
    """Whole classes: the classes failing a local requirement on some column (they must go), and whether every
    class was decided."""
    from implgraph.io.requirements import class_levels
    out, decided = set(), True
    for col, ct in problem.tables.items():
        for r in problem.requirements:
            if not is_local(r.definition):
                continue
            per = class_levels(r.definition, ct, dict(levels[col][r.definition.name].params))
            if per is None:
                decided = False
                continue
            for i, lv in enumerate(per):
                ok = r.holds(lv)
                decided = decided and ok is not None
                if ok is not True:
                    out.add(i)
    return out, decided


def _local_records(problem, levels) -> tuple:
    """Within classes (one column): per class the fewest records to leave out (most frequent values first) so
    that it meets every local requirement; ``(removed counts per class, every class decided, a lower bound on the
    records left out)``."""
    col = next(iter(problem.tables))
    sums = problem.sums[col]
    removed = np.zeros_like(sums)
    decided, lower = True, 0
    bad, _ = _local_classes(problem, levels)
    seen = {}                                        # classes of equal counts are judged once
    for i in sorted(bad):
        row = [int(x) for x in sums[i]]
        for r in list(range(1, min(sum(row) - 1, SCAN) + 1)) + [sum(row)]:
            after = lower_top(row, r)
            if tuple(after) not in seen:
                seen[tuple(after)] = _class_ok(problem, levels, col, after)
            ok = seen[tuple(after)]
            decided = decided and ok is not None
            if ok is True:
                removed[i] = np.asarray(row) - np.asarray(after)
                scanned = r <= SCAN or sum(row) - 1 <= SCAN
                decided = decided and scanned
                lower += r if scanned else SCAN + 1    # every r <= SCAN fails: at least SCAN + 1
                break
    return removed, decided, lower


def remedy(df, qi, sensitive, requirements, params=None, mode: str = "classes", file=None) -> Remedy:
    """The suppression that makes every requirement hold on ``df`` (records after the missing-value policy).

    Parameters
    ----------
    df : pandas.DataFrame
    qi, sensitive : list of str
    requirements : list of implgraph.io.requirements.Requirement
    params : dict, optional
        Parameters by name for every definition declaring them (as ``implgraph levels --param``).
    mode : {"classes", "records"}

    Raises
    ------
    InputError
        No quasi-identifier, ``records`` with several sensitive columns, or no suppression found that meets
        every requirement (the reason named).
    """
    from implgraph.io.microdata import default_ground, microdata_tables, table_levels
    from implgraph.io.remedy_search import plan_keep, recheck
    if mode not in MODES:
        raise InputError(f"suppression {mode!r} is not one of {', '.join(MODES)}", file=file,
                         fix="give --suppress classes or --suppress records")
    if not qi:
        raise InputError("a remedy by suppression needs equivalence classes", file=file, fix="give --qi COLUMNS")
    if not requirements:
        raise InputError("a remedy needs requirements", file=file, fix="give --require NAME=VALUE[,...], e.g. k=5")
    if mode == "records" and len(sensitive) != 1:
        raise InputError("--suppress records leaves out records within classes for one sensitive column",
                         file=file, fix="give one --sensitive column, or --suppress classes")
    tables = microdata_tables(df, qi, sensitive, file=file)
    grounds = {col: default_ground(df, col) for col in sensitive}
    problem = _Problem(tables, requirements, params or {}, grounds)
    levels = {col: table_levels(ct, problem.params, ground=grounds[col], only=problem.names)
              for col, ct in tables.items()}
    gone, removed, exact, lower, method, assumes = _local_part(problem, levels, mode, requirements)
    n_classes = len(problem.labels)
    rest = [i for i in range(n_classes) if i not in gone]
    after = {col: s.copy() for col, s in problem.sums.items()}
    if mode == "records":
        after[sensitive[0]] = after[sensitive[0]] - removed
    if not problem.holds(problem.levels(after, rest)):
        extra, how, found_exactly = _table_part(problem, after, rest, file)
        gone |= set(extra)
        method += how
        exact = exact and found_exactly and mode == "classes"
    keep = plan_keep(df, qi, sensitive[0], tables, removed, gone, mode)
    achieved = recheck(df.loc[keep], qi, sensitive, problem, file)
    touched = {i for i in range(n_classes) if i in gone or int(removed[i].sum()) > 0}
    records = int(len(df) - keep.sum())
    return Remedy(mode=mode, keep=keep, records=records, classes_removed=len(gone), classes_touched=len(touched),
                  of_classes=n_classes, exact=exact, lower=records if exact else lower, method=method,
                  assumes=assumes if exact else "", levels=achieved)


def _local_part(problem, levels, mode, requirements) -> tuple:
    """The suppression the local requirements force: ``(classes left out whole, records left out per class and
    value, exact, its cost (a lower bound on the fewest), method, assumption)``."""
    col = next(iter(problem.tables))
    n_classes = len(problem.labels)
    if mode == "classes":
        gone, decided = _local_classes(problem, levels)
        removed = np.zeros_like(problem.sums[col])
        lower = int(sum(int(problem.sizes[i]) for i in gone))
        return gone, removed, decided, lower, "the classes failing a requirement met class by class", ""
    removed, decided, lower = _local_records(problem, levels)
    gone = {i for i in range(n_classes) if int(removed[i].sum()) == int(problem.sizes[i])}
    assumes = SCHUR if any(_by_formula(r.definition) for r in requirements) else ""
    return gone, removed, decided, lower, \
        "per class, the fewest records (most frequent values first)", assumes


def _table_part(problem, after, rest, file) -> tuple:
    """Whole classes among ``rest`` left out for the requirements judged on the whole table: ``(classes, method,
    found exactly)``; InputError when no set found meets every requirement."""
    from implgraph.io.remedy_search import enumerate_classes, greedy_classes
    if len(rest) <= ENUMERATE:
        extra = enumerate_classes(problem, after, rest)
        how, exact = "; then every set of the remaining classes (fewest records first)", True
    else:
        extra = greedy_classes(problem, after, rest)
        how, exact = "; then whole classes, the worst for a failing requirement first (greedy)", False
    if extra is None:
        raise InputError("no suppression found that meets every requirement (leaving out classes does not "
                         "reach them)", file=file,
                         fix="relax the requirements, generalise the quasi-identifiers, or randomize the records "
                             "(implgraph anonymize)")
    return extra, how, exact


def level_text(value) -> str:
    return str(sympy.sympify(value))
