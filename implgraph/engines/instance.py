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

from fractions import Fraction

import sympy

from implgraph.core.concrete import INF
from implgraph.definitions.families import lf_model
from implgraph.engines.fit import fit_rational, to_level
from implgraph.engines.instance_grid import (GRID_BUDGET, _ceiling, _finer_grids, _grid_count,  # noqa: F401
                                             _grid_instance, _grid_tables, _simplex_points)
from implgraph.engines.instance_types import (PENDING_SEARCH, PENDING_TIGHT, STAGES, VACUOUS, Instance,
                                              samples_for)
from implgraph.engines.lf import finite_somewhere, infinite_witness, new_context, partitions_for, tight_at
from implgraph.engines.recheck import PluginError, is_degenerate, is_witness, weaker, witness_dict
from implgraph.solvers.choose import lf_backend
from implgraph.core.simplified import simplified

__all__ = ["Instance", "analyse", "samples_for", "PENDING_TIGHT", "PENDING_SEARCH", "STAGES", "VACUOUS"]


def analyse(a_def, a_params, b_def, b_params, N, p=2, f_raw=None, point=None, min_class=None,
            max_class=None, *, stage="all", proved=None, excluded=False, min_classes=1) -> Instance:
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

    ``excluded``: a proof for every N claims the implication at this instance, so no table has A finite and B
    infinite here: on a grid the finer grids are not searched (the note says so).
    """
    if stage not in STAGES or (stage == "first" and f_raw is not None):
        raise ValueError(f"stage {stage!r} (with f: {f_raw is not None})")
    point = dict(point or {})
    classed = a_def.needs_classes or b_def.needs_classes
    parts = partitions_for(N, min_class, max_class, min_classes) if classed else [(N,)]
    if classed and not parts:
        return Instance(N, point, "unknown", note=f"no partition into >= {min_classes} class(es) has the class "
                                                  "sizes asked for")
    models = []
    for sizes in parts:
        am = lf_model(a_def, N, sizes, p, **a_params)
        bm = lf_model(b_def, N, sizes, p, **b_params)
        if am is None or bm is None:
            return _grid_instance(a_def, a_params, b_def, b_params, N, p, f_raw, point, parts, stage, excluded)
        models.append((sizes, am, bm))
    # one solver context per instance: the same question always gets the same models
    ctx = new_context()
    sides = (a_def, a_params, b_def, b_params)
    if stage != "rest":
        inst = _first_stage(sides, models, N, p, point, f_raw, classed, ctx)
        if inst is not None:
            return inst
    if stage == "first":
        return Instance(N, point, "implication", note=PENDING_TIGHT)
    return _tight_stage(sides, models, N, p, point, f_raw, classed, ctx, proved)


def _first_stage(sides, models, N, p, point, f_raw, classed, ctx):
    """Step 1, A finite and B infinite: the instance of a witness found (or of an unknown, or vacuous), else
    None."""
    a_def, a_params, b_def, b_params = sides
    unknown = False
    for sizes, am, bm in models:
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
    if not any(finite_somewhere(am, N, p, ctx) is not False for _, am, _ in models):
        return Instance(N, point, "implication", note=VACUOUS)     # no table to compare: nothing is shown here
    return None


def _tight_stage(sides, models, N, p, point, f_raw, classed, ctx, proved):
    """Step 2, the tight F at the sample levels (compared with a proved f, or fitted), and step 3, a given f."""
    a_def, a_params, b_def, b_params = sides
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
    _fit(inst, samples, a_def, b_def)
    # 3. a given f
    if f_raw is not None:
        _check_f(inst, samples, best_tables, f_raw, a_def, a_params, b_def, b_params)
    return inst


def _fit(inst, samples, a_def, b_def):
    """The tight f fitted through the exact samples (a rational function of A's raw level), if one fits."""
    fit, upto = fit_rational([(a, v) for a, v in samples if v is not None and v != INF])
    if fit is None:     # (too few samples to fit, e.g. at N = 2: every one at B's weakest level there is the trivial f)
        _at_weakest(inst, samples, b_def)
    if fit is not None:
        f_level = to_level(fit, a_def, b_def)
        inst.tight = str(f_level)
        inst.raw_fit = str(fit)
        if upto is not None:
            inst.fit_upto = str(a_def.level_from_raw(sympy.Rational(upto)))
            inst.fit_range = f"{a_def.level_symbol} <= {inst.fit_upto}"
        inst.trivial = _is_weakest(b_def, f_level, a_def, samples, inst.N)


def _at_weakest(inst, samples, b_def):
    """Where every exact sample is B's weakest raw level at the instance's N, the tight f there is that level
    (trivial)."""
    from implgraph.engines.recheck import weakest_raw
    w = weakest_raw(b_def, inst.N)
    values = [v for _, v in samples if v is not None]
    if not values or w is sympy.oo or not all(isinstance(v, Fraction) for v in values):
        return
    if all(simplified(sympy.Rational(v.numerator, v.denominator) - w) == 0 for v in values):
        inst.tight = str(b_def.weakest(inst.N))
        inst.trivial = True


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
    inst.trivial = _is_weakest(b_def, f_level, a_def, samples, inst.N)
    return inst


def _is_weakest(b_def, f_level, a_def=None, samples=(), N=None) -> bool:
    """Is the tight f (B's level units) B's weakest level, which every table (of ``N`` records) meets?

    ``samples`` (A's raw levels, each in A's range, with ``a_def``) answer "no" without simplifying: f differs
    from the weakest level at one of them. Otherwise ``f - weakest`` is simplified.
    """
    weakest = b_def.weakest(N)
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
