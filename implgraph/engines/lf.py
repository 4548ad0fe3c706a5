"""Check-edge's questions on linear-fractional forms, at one N and one partition into classes.

Every ratio-of-averages level is a max of linear-fractional forms
(:func:`implgraph.definitions.families.lf_model`). :func:`infinite_witness` asks for a table with
A finite and B infinite; :func:`tight_at` computes the tight raw ``F(a) = sup{B(T) : A(T) <= a}``
over every partition, one linear program per form of B up to the symmetries of the partition
(:func:`_canonical`) and the permutations of buckets that keep A's forms (:func:`bucket_symmetries`). Where no table is asked for (no f to check), the optimum of each linear program
is memoised in the process (:data:`_OPTIMA`): the same A constraints meet the same form of B again
in many pairs, and the optimum of a linear program is one number, whatever was asked before. The
solver is :func:`implgraph.solvers.choose.lf_backend`; its answers are exact rationals, re-checked by
the caller (:mod:`implgraph.engines.recheck`).
"""

from __future__ import annotations

import functools
import itertools
from fractions import Fraction

from implgraph.core.concrete import ConcreteTable
from implgraph.definitions.families import Form, Term
from implgraph.solvers.choose import lf_backend

__all__ = ["partitions", "partitions_for", "table_of", "infinite_witness", "tight_at", "new_context", "bucket_symmetries"]


def new_context():
    """A fresh solver context for one instance (the same question always gets the same models)."""
    return lf_backend().context()


def partitions(N, min_parts=2):
    """Integer partitions of N (class sizes, non-increasing) with at least ``min_parts`` parts."""
    def gen(n, largest):
        if n == 0:
            yield ()
            return
        for first in range(min(n, largest), 0, -1):
            for rest in gen(n - first, first):
                yield (first,) + rest
    return [p for p in gen(N, N) if len(p) >= min_parts]


def partitions_for(N, lo=None, hi=None, min_parts=2):
    """Partitions of N into >= ``min_parts`` classes with every class of lo..hi records: those into >= 2 classes
    first, then (with ``min_parts`` 1) the one class of N records (a search reports a witness of >= 2 classes where
    there is one at this N)."""
    out = [s for s in partitions(N, 2) if (lo is None or min(s) >= lo) and (hi is None or max(s) <= hi)]
    if min_parts <= 1 and (lo is None or N >= lo) and (hi is None or N <= hi):
        out.append((N,))
    return out


def _labels(sizes):
    return [f"E{c + 1}" for c, s in enumerate(sizes) for _ in range(s)]


def table_of(x, sizes, classed) -> ConcreteTable:
    return ConcreteTable.from_fractions(x, classes=_labels(sizes) if classed else None)


def _canonical(term, sizes, p):
    """Key of a form under the permutations that keep the class partition."""
    num = {(i, l): c for i, l, c in term.num.coef}
    den = {(i, l): c for i, l, c in term.den.coef}
    out, start = [], 0
    for size in sizes:
        sig = sorted((tuple(num.get((i, l), 0) for l in range(p)), tuple(den.get((i, l), 0) for l in range(p)))
                     for i in range(start, start + size))
        out.append((size, tuple(sig)))
        start += size
    return (term.num.const, term.den.const, tuple(sorted(out)))


#: bucket permutations are tried only up to this many buckets (4! = 24 permutations)
SYMMETRY_MAX_P = 4


def _relabelled(form, perm):
    """``form`` with bucket ``l`` renamed ``perm[l]``."""
    return Form(tuple(sorted((i, perm[l], c) for i, l, c in form.coef)), form.const)


def bucket_symmetries(am, p) -> list:
    """The permutations of the ``p`` buckets that map A's forms ``am.terms`` onto themselves (the
    identity first; only the identity beyond :data:`SYMMETRY_MAX_P` buckets). They form a group, and
    each keeps the set of tables with A's raw level <= a (the rows' constraints are the same for every
    bucket), so a form of B and its relabelling have the same maximum over that set. The test is on the
    forms as written: a symmetry that holds only because each row sums to 1 (the swap of two buckets under
    the ordered ground distance) is not found, which costs linear programs, never a value."""
    return list(_symmetries(tuple(am.terms), p))


@functools.lru_cache(maxsize=4096)
def _symmetries(terms, p) -> tuple:
    """:func:`bucket_symmetries` of the forms ``terms`` (memoised: every sample level of A asks again)."""
    ident = tuple(range(p))
    if p > SYMMETRY_MAX_P:
        return (ident,)
    have = set(terms)
    return tuple(perm for perm in itertools.permutations(range(p))
                 if perm == ident or all(Term(_relabelled(t.num, perm), _relabelled(t.den, perm)) in have
                                         for t in terms))


@functools.lru_cache(maxsize=20_000)
def _orbit_key(term, sizes, p, perms):
    """Key of a form under the permutations of records that keep the class partition and the
    bucket permutations ``perms``: equal keys, equal maxima."""
    return min(_canonical(term if perm == tuple(range(p)) else
                          Term(_relabelled(term.num, perm), _relabelled(term.den, perm)), sizes, p)
               for perm in perms)


def infinite_witness(am, bm, N, p, sizes, classed, ctx=None):
    """A table with A finite and B infinite on partition ``sizes``, or None (unsat), or 'unknown'."""
    if bm.structural is not None or not bm.terms:
        return None
    rows = lf_backend().infinite_rows(am, bm, N, p, ctx)
    return rows if rows is None or rows == "unknown" else table_of(rows, sizes, classed)


def finite_somewhere(am, N, p, ctx=None):
    """Is A finite on some table of this partition: True, False, or 'unknown' (A's level structural, or without
    forms, is finite on every table)."""
    if am.structural is not None or not am.terms:
        return True
    rows = lf_backend().infinite_rows(am, None, N, p, ctx)
    return "unknown" if rows == "unknown" else rows is not None


def _satisfying_rows(am, a, N, p, ctx):
    """Rows of a table with A's raw level <= a on this partition, None if there is none, or 'unknown'."""
    if am.floor > a:
        return None
    if not am.terms:
        return [[Fraction(1, p)] * p for _ in range(N)]
    v, rows = lf_backend().Maximiser(am, a, N, p, ctx).maximise(Term(Form(()), Form((), Fraction(1))))
    return "unknown" if v == "unknown" else (None if v is None else rows())


#: the optimum of one linear program, by (A's forms, a, N, p, B's form): the value only (a
#: maximising table depends on the solver's history; an optimum does not), never "unknown"
_OPTIMA: dict = {}
#: the most optima kept (then the memo starts again)
OPTIMA_MAX = 200_000


_MISSING = object()


def _optimum(lp, key, t):
    """The optimum of B's form ``t`` under A's constraints (``lp()`` gives their Maximiser), from the memo
    when it is there."""
    v = _OPTIMA.get((key, t), _MISSING)
    if v is _MISSING:
        v, _ = lp().maximise(t)
        if v != "unknown":
            if len(_OPTIMA) >= OPTIMA_MAX:
                _OPTIMA.clear()
            _OPTIMA[(key, t)] = v
    return v


def tight_at(a_def, b_def, models, a, N, p, classed, ctx=None, tables=True):
    """(raw F(a), a table reaching it) over every partition; with ``tables`` False the table is None
    and each optimum may come from the memo :data:`_OPTIMA`."""
    best, best_table = None, None
    larger_b = b_def.stronger == "larger"
    for sizes, am, bm in models:
        if am.structural is not None:
            ok = am.structural >= a if a_def.stronger == "larger" else am.structural <= a
            if not ok:
                continue
            am = type(am)([], am.floor)
        if bm.structural is not None:
            # the level depends on the partition only: the partition counts when some table on it has
            # A's level <= a (not every partition has one: a minimum class size of A's own makes A
            # infinite on a partition with a smaller class)
            v = bm.structural
            if best is None or (v < best if larger_b else v > best):
                rows = _satisfying_rows(am, a, N, p, ctx)
                if rows == "unknown":
                    return "unknown", None
                if rows is not None:
                    best, best_table = v, table_of(rows, sizes, classed)
            continue
        seen, feasible = {}, False
        perms = _symmetries(tuple(am.terms), p)
        lp = functools.cache(lambda am=am: lf_backend().Maximiser(am, a, N, p, ctx))   # built when first asked
        memo_key = None if tables else (tuple(am.terms), a, N, p)
        for t in bm.terms:
            key = _orbit_key(t, tuple(sizes), p, perms)
            if key in seen:
                continue
            seen[key] = True
            if memo_key is None:
                v, rows = lp().maximise(t)
            else:
                v, rows = _optimum(lp, memo_key, t), None
            if v == "unknown":
                return "unknown", None
            if v is None:
                continue
            feasible = True
            if best is None or v > best:
                best = v
                best_table = None if rows is None else table_of(rows(), sizes, classed)
        floor = bm.floor
        if best is None or floor > best:
            # B's floor counts only on a partition where some table satisfies A (A may be infinite on each of its
            # tables, e.g. a class smaller than A's minimum class size): else no table of it is in the supremum
            if not feasible:
                rows = _satisfying_rows(am, a, N, p, ctx)
                if rows == "unknown":
                    return "unknown", None
                if rows is None:
                    continue
            best, best_table = floor, best_table
    return best, best_table
