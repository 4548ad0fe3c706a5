"""One instance of A => B: fixed N and parameter values (the steps of check-edge's module notes).

:func:`analyse` asks whether A finite and B infinite is possible (non-implication), else computes
the tight raw F at sample levels and fits a closed form (:mod:`implgraph.engines.fit`), and checks
a given f at the samples. Definitions without linear-fractional forms fall back to grids of
tables (:func:`_grid_instance`): a coarse grid of binary rows, then, within a budget of tables
(:data:`GRID_BUDGET`), finer binary rows and rows of ``max(p, 3)`` buckets (a witness with more
buckets than ``p`` still refutes A => B; its note says so). Every witness is re-checked
(:mod:`implgraph.engines.recheck`).
"""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass, field
from fractions import Fraction

import sympy

from implgraph.core.concrete import INF
from implgraph.core.errors import InputError
from implgraph.definitions.families import lf_model
from implgraph.engines.fit import fit_rational, to_level
from implgraph.engines.lf import finite_somewhere, infinite_witness, new_context, partitions, partitions_for, table_of, tight_at
from implgraph.engines.recheck import PluginError, is_degenerate, is_witness, raw_level, weaker, witness_dict
from implgraph.solvers.choose import lf_backend
from implgraph.core.simplified import simplified

__all__ = ["Instance", "analyse", "samples_for", "PENDING_TIGHT", "PENDING_SEARCH", "STAGES", "VACUOUS"]

#: the note of an instance where A is infinite on every table of every partition searched (e.g. a class smaller
#: than (alpha,k)'s k in each): an implication there holds of no table, and shows nothing
VACUOUS = "vacuous: A is infinite on every table searched"


def samples_for(d, N):
    """The raw levels of ``d`` at which the tight function is sampled."""
    return d.level_scale.samples(N)


@dataclass
class Instance:
    """A => B at one N and one assignment of the parameters."""

    N: int
    point: dict
    relation: str                       # implication | non-implication | unknown
    witness: dict | None = None         # exact table (rows, classes) + levels
    samples: list = field(default_factory=list)   # [(raw a, raw F(a))] as strings
    tight: str | None = None            # f in level units, fitted through the samples
    fit_range: str | None = None
    fit_upto: str | None = None         # the fit holds for raw levels of A up to this value
    raw_fit: str | None = None          # the fitted tight F(a) on raw levels (symbol a)
    trivial: bool = False
    f_status: str | None = None         # refuted | holds-at-samples | None
    f_witness: dict | None = None
    f_witness_degenerate: dict | None = None    # a witness where f is no valid level, beside f_witness
    note: str = ""
    proved_checked: bool = False        # the tight f proved for every N equals the exact values here


#: the notes of an instance whose first stage (:func:`analyse` with ``stage="first"``) found no witness
#: of A finite, B infinite and whose second stage has not run: with linear-fractional forms it is an
#: implication at this instance (the first stage is exact) whose tight f is not computed; on a grid
#: the finer grids are not searched (they may still hold a witness)
PENDING_TIGHT = "tight f not computed: the direction fails at another instance"
PENDING_SEARCH = "finer grids not searched: the direction fails at another instance"
#: the stages of :func:`analyse`
STAGES = ("all", "first", "rest")


def analyse(a_def, a_params, b_def, b_params, N, p=2, f_raw=None, point=None, min_class=None,
            max_class=None, *, stage="all", proved=None, min_classes=1) -> Instance:
    """Decide A => B at N records (exact, binary tables by default); see the module notes.

    ``f_raw(a)``, if given, maps A's raw level (a sympy Rational) to B's raw level and is checked
    at the sample levels. ``min_class`` / ``max_class`` restrict the partitions searched (class
    sizes), as in claims "with classes of at least k records".

    ``stage``: ``"all"``, or ``"first"`` and then ``"rest"`` (for a caller that needs the rest only
    when no other instance is a non-implication). The first stage is the cheap search for a witness of
    A finite, B infinite: with linear-fractional forms the exact one (step 1), on a grid the coarse
    grid. Where it finds none the instance has the note :data:`PENDING_TIGHT` or :data:`PENDING_SEARCH`
    (relation "implication" until the rest is run). ``"rest"`` runs what
    follows on the same instance: the tight f (step 2), or the finer grids. The first stage is not for
    a given f (an f is checked on every table the search meets).

    ``min_classes``: the fewest classes of the partitions searched where a side compares classes: 1 (every
    partition, the table of one class last) or 2 (the assumption "partitions into at least 2 classes").

    ``proved``: ``(f, raw)``, a tight f proved for every N at this instance (B's level units) and its raw
    value at A's raw level. The exact tight value is then computed at three of the sample levels only
    (the first, middle and last), each must equal ``raw`` there (else a bug in the prover or the linear
    programs: an error), and the instance's tight f is ``f``.
    """
    if stage not in STAGES or (stage == "first" and f_raw is not None):
        raise ValueError(f"stage {stage!r} (with f: {f_raw is not None})")
    point = dict(point or {})
    classed = a_def.needs_classes or b_def.needs_classes
    parts = partitions_for(N, min_class, max_class, min_classes) if classed else [(N,)]
    if classed:
        if not parts:
            return Instance(N, point, "unknown", note=f"no partition into >= {min_classes} class(es) has the class "
                                                      "sizes asked for")
    models = []
    for sizes in parts:
        am = lf_model(a_def, N, sizes, p, **a_params)
        bm = lf_model(b_def, N, sizes, p, **b_params)
        if am is None or bm is None:
            return _grid_instance(a_def, a_params, b_def, b_params, N, p, f_raw, point, parts, stage)
        models.append((sizes, am, bm))
    # one solver context per instance: the same question always gets the same models
    ctx = new_context()
    # 1. A finite, B infinite?
    unknown = False
    for sizes, am, bm in ([] if stage == "rest" else models):
        w = infinite_witness(am, bm, N, p, sizes, classed, ctx)
        if w == "unknown":
            unknown = True
            continue
        if w is not None:
            if not is_witness(a_def, a_params, b_def, b_params, w):
                raise PluginError(f"the level forms of {a_def.name} or {b_def.name} disagree with its own "
                                  f"levels on {w.to_rows()}", fix="check the plugin's lf_terms")
            inst = Instance(N, point, "non-implication", witness=witness_dict(w, a_def, a_params, b_def, b_params))
            if f_raw is not None:
                inst.f_status, inst.f_witness = "refuted", inst.witness
            return inst
    if unknown:
        return Instance(N, point, "unknown", note=f"{lf_backend().NAME} could not decide whether B can be infinite")
    if stage != "rest" and not any(finite_somewhere(am, N, p, ctx) is not False for _, am, _ in models):
        return Instance(N, point, "implication", note=VACUOUS)     # no table to compare: nothing is shown here
    if stage == "first":
        return Instance(N, point, "implication", note=PENDING_TIGHT)
    # 2. tight F at sample levels
    samples, best_tables = [], {}
    levels = samples_for(a_def, N)
    against = proved is not None and f_raw is None
    # a proved f whose attaining table has more buckets than this instance's at some level bounds its exact values
    # from above there only: then every sample is checked against it from above, and the instance is fitted as usual
    wide = against and any(proved[2](a) > p for a in levels)
    against = against and not wide
    # (the prover's claims are for A's raw level T > 0: a distance's level 0 is outside them; at A's most private
    # level both sides are mostly at B's own best, a comparison that cannot fail: the levels beyond it are taken)
    best = a_def.level_scale.best_raw
    claimed = [a for a in levels if a > 0 and (best is None or a != best)] or levels
    first = sorted({claimed[0], claimed[len(claimed) // 2], claimed[-1]}) if against else levels
    for batch in (first, [a for a in levels if a not in first]):
        for a in batch:
            val, table = tight_at(a_def, b_def, models, a, N, p, classed, ctx, tables=f_raw is not None)
            if val == "unknown":
                return Instance(N, point, "implication", note="an LP timed out; tight f not computed")
            samples.append((a, val))
            best_tables[a] = table
        if against and batch is first and sum(v is not None for _, v in samples) >= 2:
            inst = Instance(N, point, "implication", samples=[(str(a), str(v)) for a, v in samples])
            return _against_proved(inst, samples, proved, a_def, b_def, p)
        # (fewer than two of those levels with a table: every sample level, compared with the proof at the levels it
        # claims where two of them have a table (a class size: the tables stop at N/2), else fitted)
    samples.sort(key=lambda av: levels.index(av[0]))        # (the order of samples_for, as without a proof)
    inst = Instance(N, point, "implication", samples=[(str(a), str(v)) for a, v in samples])
    if against:
        compared = [(a, v) for a, v in samples if a in claimed]
        if sum(v is not None for _, v in compared) >= 2:
            return _against_proved(inst, compared, proved, a_def, b_def, p)
    if wide:
        _below_proved(inst, samples, proved, p, larger=b_def.stronger == "larger")
    fit, upto = fit_rational([(a, v) for a, v in samples if v is not None and v != INF])
    if fit is not None:
        f_level = to_level(fit, a_def, b_def)
        inst.tight = str(f_level)
        inst.raw_fit = str(fit)
        if upto is not None:
            inst.fit_upto = str(a_def.level_from_raw(sympy.Rational(upto)))
            inst.fit_range = f"{a_def.level_symbol} <= {inst.fit_upto}"
        inst.trivial = _is_weakest(b_def, f_level, a_def, samples)
    # 3. a given f
    if f_raw is not None:
        _check_f(inst, samples, best_tables, f_raw, a_def, a_params, b_def, b_params)
    return inst


def _below_proved(inst, samples, proved, p, larger=False):
    """Each exact tight value of ``samples`` is at most the proved f there (at least, where B's level is
    larger-is-stronger: ``larger``), whose attaining table may have more buckets than this instance's ``p``, and
    equal where that table has ``p`` buckets or fewer; RuntimeError otherwise."""
    _, raw, buckets_at = proved
    tol = sympy.Float("1e-40")
    for a, val in samples:
        if val is None:
            continue            # no table has A's level <= a here: nothing to compare
        want = raw(sympy.Rational(a.numerator, a.denominator))
        got = sympy.oo if val == INF else sympy.Rational(val.numerator, val.denominator)
        # (a difference sympy does not reduce to 0 is taken as 0 when it is below 1e-40 at 60 digits: this
        # compares a certified f with exact values, it decides no verdict)
        gap = None if got is sympy.oo else sympy.N(got - want if larger else want - got, 60)
        if gap is None or gap < -tol or (buckets_at(a) <= p and abs(gap) > tol and simplified(want - got) != 0):
            wider = f"; it is attained with {buckets_at(a)} buckets, the instance has {p}" if buckets_at(a) > p else ""
            raise RuntimeError(f"at N = {inst.N}, {inst.point}: the exact tight value at A's raw level {a} is {val}, "
                               f"the tight f proved for every N gives {want} (a bug in the prover or in the linear "
                               f"programs{wider})")


def _against_proved(inst, samples, proved, a_def, b_def, p):
    """The instance whose exact tight values ``samples`` are equal to a tight f proved for every N (its attaining
    table has no more than the instance's ``p`` buckets at these levels)."""
    _below_proved(inst, samples, proved, p, larger=b_def.stronger == "larger")
    f_level = proved[0]
    inst.tight = str(f_level)
    inst.proved_checked = True
    inst.trivial = _is_weakest(b_def, f_level, a_def, samples)
    return inst


def _is_weakest(b_def, f_level, a_def=None, samples=()) -> bool:
    """Is the tight f (B's level units) B's weakest level, which every table meets?

    ``samples`` (A's raw levels, each in A's range, with ``a_def``) answer "no" without simplifying: f differs
    from the weakest level at one of them. Otherwise ``f - weakest`` is simplified.
    """
    weakest = b_def.weakest()
    if weakest is sympy.oo:
        return False
    f = sympy.sympify(f_level)
    if a_def is not None:
        alpha = [x for x in f.free_symbols if x.name == a_def.level_symbol]
        for a, val in samples:
            if val is None or len(alpha) != 1:
                continue
            d = f.subs(alpha[0], a_def.level_from_raw(sympy.Rational(a.numerator, a.denominator))) - weakest
            if d.is_number and d.is_zero is False:
                return False
    return bool(simplified(f - weakest) == 0)


def _check_f(inst, samples, best_tables, f_raw, a_def, a_params, b_def, b_params):
    """Compare f with the tight value at every sample level; a witness table where f is weaker.

    A witness where f is not a valid level of B (:func:`implgraph.engines.recheck.is_degenerate`) is marked ``degenerate`` and
    the search goes on for one at a level where f is valid: ``f_witness`` is then that one and
    ``f_witness_degenerate`` the first.
    """
    inst.f_status = "holds-at-samples"
    for a, val in samples:
        a_s = sympy.Rational(a.numerator, a.denominator)
        target = f_raw(a_s)
        if val is None or not weaker(b_def, val, target):
            continue
        ct = best_tables[a]
        if ct is None or not is_witness(a_def, a_params, b_def, b_params, ct, a_raw=a, f_raw=target):
            continue
        degenerate = is_degenerate(b_def, target)
        w = witness_dict(ct, a_def, a_params, b_def, b_params,
                   {"level": str(a_def.level_from_raw(a_s)), "f_at_level": str(b_def.level_from_raw(target)),
                    "degenerate": degenerate})
        inst.f_status = "refuted"
        if not degenerate:
            if inst.f_witness is not None:
                inst.f_witness_degenerate = inst.f_witness
            inst.f_witness = w
            return
        if inst.f_witness is None:
            inst.f_witness = w


#: the most tables one finer grid (:func:`_finer_grids`) probes in one instance (one N, one point of
#: the parameters): its denominators are the largest whose tables fit, and a grid none of whose
#: denominators fits is skipped (at 0.1 to 1 ms a table, a second or two at most)
GRID_BUDGET = 1500
#: the denominators tried, finest first, for rows of two values (v, 1 - v) and for rows of three or
#: more buckets
BINARY_DENOMINATORS = (8, 7, 6, 5, 4, 3)
SIMPLEX_DENOMINATORS = (4, 3, 2)


#: the raw levels of the grid's tables, by (definition's class, name, parameters, rows, class sizes):
#: both directions of a pair probe the same tables, and a definition's level on a table is one exact
#: value whatever was asked before (an error is never kept)
_GRID_LEVELS: dict = {}
#: the most levels kept (then the memo starts again)
GRID_LEVELS_MAX = 100_000
_MISSING = object()


def _grid_level(d, params, rows_key, table):
    """``raw_level(d, params, table())``, from :data:`_GRID_LEVELS` when it is there (``table`` builds the
    table only when a level is computed)."""
    key = (type(d), d.name, tuple(sorted((k, str(v)) for k, v in params.items())), rows_key)
    v = _GRID_LEVELS.get(key, _MISSING)
    if v is _MISSING:
        v = raw_level(d, params, table())
        if len(_GRID_LEVELS) >= GRID_LEVELS_MAX:
            _GRID_LEVELS.clear()
        _GRID_LEVELS[key] = v
    return v


def _grid_instance(a_def, a_params, b_def, b_params, N, p, f_raw, point, parts=None, stage="all"):
    """Fallback for definitions without linear-fractional forms: probe grids of tables.

    First the coarse grid: rows ``(v, 1 - v, 0, ...)`` with v in {0, 1/3, 2/3, 1}. If it shows no
    table with A finite and B infinite, finer grids follow (:func:`_finer_grids`), each of at most
    :data:`GRID_BUDGET` tables: rows ``(v, 1 - v, 0, ...)`` with v a multiple of 1/m for m up to 8,
    then rows of ``max(p, 3)`` buckets on a simplex grid of denominators up to 4 (without an f, only when B
    can be infinite: not when its weakest level is finite or its level has a ceiling on every table of N
    records, :func:`_ceiling`). A table of 3
    buckets refutes A => B as well as one of 2 (it is a table; the witness's rows carry its
    buckets, and the instance's note says how many). Every candidate is re-checked exactly by
    :func:`implgraph.engines.recheck.is_witness`; no definition is named.

    ``parts``: the partitions into classes searched (default: every partition of N into >= 2
    classes when A or B needs classes, else one class of N records). ``stage``: as in :func:`analyse`
    (``"first"``: the coarse grid only; ``"rest"``: the finer grids only).
    """
    classed = a_def.needs_classes or b_def.needs_classes
    if parts is None:
        parts = partitions(N, 2) if classed else [(N,)]
    targets = {}                # f_raw at A's raw levels met (f_raw simplifies with sympy)

    def f_target(ra):
        if ra not in targets:
            ra_s = ra if isinstance(ra, sympy.Basic) else sympy.Rational(ra.numerator, ra.denominator)
            targets[ra] = (ra_s, f_raw(ra_s))
        return targets[ra]

    f_witness = None

    def probe(rows, sizes):
        """The table of ``rows`` if it is a witness of A finite and B infinite (else None); on the way,
        the first table where B is weaker than a given f at A's level becomes ``f_witness``."""
        nonlocal f_witness
        rows_key = (tuple(map(tuple, rows)), sizes, classed)
        table = functools.cache(lambda: table_of(rows, sizes, classed))     # built when a level or a check needs it
        ra = _grid_level(a_def, a_params, rows_key, table)
        if ra is None or ra == INF:
            return None
        rb = _grid_level(b_def, b_params, rows_key, table)
        if rb is None:
            return None
        if f_raw is not None and f_witness is None:
            ra_s, target = f_target(ra)
            if weaker(b_def, rb, target) and is_witness(a_def, a_params, b_def, b_params, table(), a_raw=ra,
                                                        f_raw=target):
                f_witness = witness_dict(table(), a_def, a_params, b_def, b_params,
                                         {"level": str(a_def.level_from_raw(ra_s)),
                                          "f_at_level": str(b_def.level_from_raw(target))})
        if rb == INF and is_witness(a_def, a_params, b_def, b_params, table()):
            return table()
        return None

    def found(ct, note):
        inst = Instance(N, point, "non-implication", witness=witness_dict(ct, a_def, a_params, b_def, b_params),
                        note=note)
        if f_raw is not None:
            inst.f_status, inst.f_witness = "refuted", inst.witness
        return inst

    # the coarse grid (records in increasing v, cut into the classes in order)
    grid = [Fraction(0), Fraction(1, 3), Fraction(2, 3), Fraction(1)]
    for sizes in (parts if stage != "rest" else ()):
        for combo in itertools.combinations_with_replacement(grid, N):
            ct = probe([[v, 1 - v] + [Fraction(0)] * (p - 2) for v in combo], sizes)
            if ct is not None:
                return found(ct, "found by probing a grid of tables")
    if stage == "first":
        return Instance(N, point, "implication", note=PENDING_SEARCH)
    weakest = b_def.weakest()
    ceiling = _ceiling(b_def, b_params, N) if f_raw is None and weakest is sympy.oo else None
    if f_raw is not None or (weakest is sympy.oo and ceiling is None):
        # (B bounded by its weakest level, or by a ceiling on every table of N records, is never infinite:
        # finer grids could only refute an f)
        for points, note in _finer_grids(N, p, parts):
            try:
                for rows, sizes in _grid_tables(points, parts):
                    ct = probe(rows, sizes)
                    if ct is not None:
                        return found(ct, note)
            except InputError:
                if len(points[0]) == p:
                    raise
                # a parameter ties a definition to p buckets (a hierarchy's leaves): no wider table for it
                continue
    if weakest is not sympy.oo:
        # every table satisfies B at its weakest level, so f = weakest is an implication (trivial);
        # the tight f is not computed without linear-fractional forms
        inst = Instance(N, point, "implication", tight=None, trivial=True,
                        note=f"trivial: every table satisfies {b_def.name} at its weakest level {weakest} (its declared "
                             f"{b_def.scale} scale; every level computed is checked against it, a plugin's too); "
                             "the tight f is not computed (no linear-fractional form)")
        if f_witness is not None:
            inst.f_status, inst.f_witness = "refuted", f_witness
        elif f_raw is not None:
            inst.f_status = "holds-at-samples" if all(
                weaker(b_def, weakest, f_raw(sympy.Rational(a.numerator, a.denominator))) is False
                for a in samples_for(a_def, N)) else None
        return inst
    if f_witness is not None:
        return Instance(N, point, "unknown", f_status="refuted", f_witness=f_witness,
                        note=f"{a_def.name} or {b_def.name} has no linear-fractional form; a grid table refutes f")
    if ceiling is not None:
        return Instance(N, point, "unknown",
                        note=f"{a_def.name} or {b_def.name} has no linear-fractional form; {b_def.name}'s raw level is "
                             f"at most {ceiling} on every table of {N} records (one-sided-ceiling), never infinite, so "
                             "no finer grid is searched for a witness; the coarse grid found none")
    return Instance(N, point, "unknown",
                    note=f"{a_def.name} or {b_def.name} has no linear-fractional form; a grid of tables "
                         "found no witness")


def _ceiling(b_def, b_params, N):
    """B's raw level's bound on every table of ``N`` records whatever A is
    (:func:`implgraph.engines.bounds.ceiling_bound`: a one-sided ratio of averages), or None."""
    from implgraph.core.region import Region
    from implgraph.engines.bounds import ceiling_bound
    n = sympy.Symbol("N", integer=True)
    c = ceiling_bound(b_def, b_params, None, Region({n: "integer"}, (sympy.Eq(n, N),)), n)
    return None if c is None else sympy.sympify(c.upper).subs(n, N)


def _finer_grids(N, p, parts, budget=None):
    """The grids probed after the coarse one: ``(points, note)`` pairs, ``points`` the rows a record may
    have (tuples of Fractions summing to 1).

    1. Rows ``(v, 1 - v, 0, ...)`` of ``p`` buckets, v a multiple of 1/m for some m <= d, with the
       largest d of :data:`BINARY_DENOMINATORS` whose tables on ``parts`` number at most ``budget``.
    2. Rows of ``q = max(p, 3)`` buckets, every entry a multiple of 1/m for one m <= d, with the
       largest d of :data:`SIMPLEX_DENOMINATORS` that fits. With ``q > p`` the tables have more
       buckets than asked for: still tables, so a witness among them still refutes A => B.

    A grid none of whose denominators fits the budget is left out.
    """
    budget = GRID_BUDGET if budget is None else budget
    for d in BINARY_DENOMINATORS:
        points = [v + (Fraction(0),) * (p - 2) for v in _simplex_points(2, d)]
        if _grid_count(len(points), parts) <= budget:
            yield points, f"found by probing a finer grid of tables (rows (v, 1 - v), v with denominators up to {d})"
            break
    q = max(p, 3)
    for d in SIMPLEX_DENOMINATORS:
        if math.comb(d + q - 1, q - 1) > budget:        # more rows than tables allowed: too fine
            continue
        points = _simplex_points(q, d)
        if _grid_count(len(points), parts) <= budget:
            more = f" (more than the {p} asked for: a table with more buckets is still a table)" if q > p else ""
            yield points, (f"found by probing a grid of tables with {q} buckets{more}, "
                           f"entries with denominators up to {d}")
            break


def _simplex_points(q, d):
    """Rows of ``q`` buckets whose entries are multiples of 1/m for one m <= d, summing to 1 (sorted)."""
    points = set()
    for m in range(1, d + 1):
        # the compositions of m into q parts (stars and bars)
        for bars in itertools.combinations(range(m + q - 1), q - 1):
            edges = (-1,) + bars + (m + q - 1,)
            points.add(tuple(Fraction(edges[i + 1] - edges[i] - 1, m) for i in range(q)))
    return sorted(points)


def _multichoose(n, k):
    return math.comb(n + k - 1, k)


def _grid_count(n_points, parts):
    """The number of tables :func:`_grid_tables` makes from ``n_points`` rows on ``parts``."""
    total = 0
    for sizes in parts:
        count = 1
        for size, group in itertools.groupby(sizes):
            count *= _multichoose(_multichoose(n_points, size), len(list(group)))
        total += count
    return total


def _grid_tables(points, parts):
    """``(rows, sizes)`` of every table whose records take rows from ``points``, on each partition
    (class sizes, equal sizes adjacent, as :func:`implgraph.engines.lf.partitions` gives them), once up
    to the order of the records within a class and of classes of one size."""
    for sizes in parts:
        groups = []
        for size, group in itertools.groupby(sizes):
            classes = list(itertools.combinations_with_replacement(points, size))
            groups.append(itertools.combinations_with_replacement(classes, len(list(group))))
        for choice in itertools.product(*[list(g) for g in groups]):
            yield [list(row) for group in choice for cls in group for row in cls], sizes
