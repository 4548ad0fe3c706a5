"""One direction A => B over every N and parameter point: the instances combined into one verdict.

:func:`check_direction` runs :func:`implgraph.engines.instance.analyse` for N = n_min..N and every
point allowed by ``when`` (:mod:`implgraph.engines.direction_points`), combines the instances
(:func:`~implgraph.engines.direction_aggregate.aggregate`), fits the tight f in N
(:func:`implgraph.engines.fit.generalise_over_N`) and, where :mod:`implgraph.engines.prove` has an
argument for every N, upgrades the bounded verdict (:mod:`implgraph.engines.direction_prover`).
:class:`~implgraph.engines.direction_result.DirectionResult` carries ``status`` and ``strength`` from
:mod:`implgraph.core.verdict`.
"""

from __future__ import annotations

import sympy

from implgraph.core.errors import InputError
from implgraph.core.formula import parse_condition, parse_expr
from implgraph.core.simplified import simplified
from implgraph.definitions.nodes import N_SYM, Node, parse_node, symbols_for
from implgraph.engines.blocks import block_witness
from implgraph.engines.direction_aggregate import aggregate
from implgraph.engines.direction_beyond import WIDER_N, WIDER_P_MAX, _search_beyond
from implgraph.engines.direction_points import (EXHAUSTIVE_MAX, _block_ns, _has_partition, _in_declared_ranges,
                                                _trivial_f, _valid_f, _valid_points, sampled_sizes)
from implgraph.engines.direction_prover import (PROVED_LEVELS, PROVER_SEARCH_MAX, _ask_prover, _claimed_at,
                                                _proved_at, _prover_answer, _relation_beside_refuted_f,
                                                proved_by_prover)
from implgraph.engines.direction_result import DirectionResult
from implgraph.engines.fit import generalise_over_N, level_symbol, to_level
from implgraph.engines.instance import PENDING_SEARCH, PENDING_TIGHT, Instance, analyse
from implgraph.engines.recheck import PluginError, is_plugin
from implgraph.prover import divergence_witness

__all__ = ["DirectionResult", "check_direction", "aggregate", "EXHAUSTIVE_MAX"]
# (sampled_sizes, proved_by_prover, PROVER_SEARCH_MAX, _has_partition, WIDER_N and WIDER_P_MAX are imported above for
# the importers of this module: they moved to direction_points, direction_prover and direction_beyond)


def check_direction(a, b, f=None, when=(), N=4, p=2, n_min=2, classes=None, prover=True,
                    every_tight=False, min_classes=1) -> DirectionResult:
    """A => B (optionally with f) for N = n_min..N; see :func:`_check_direction` for the arguments.

    Where a side compares classes and ``min_classes`` is 1, the partitions into >= 2 classes are decided first (the
    assumption "partitions into at least 2 classes"): a witness there is a witness over every partition, and is the one
    reported. Otherwise every partition is decided, a table of one class included, and where the two answers differ
    (a table of one class decides it, or changes the tight f), the first is kept beside it (``conditional``, its
    ``assumption`` stated): both verdicts are shown."""
    a = a if isinstance(a, Node) else parse_node(a)
    b = b if isinstance(b, Node) else parse_node(b)
    if min_classes >= 2 or not (a.definition.needs_classes or b.definition.needs_classes):
        res = _check_direction(a, b, f, when, N, p, n_min, classes, prover, every_tight, min_classes)
        if min_classes >= 2 and (a.definition.needs_classes or b.definition.needs_classes):
            res.assumption = ASSUMPTION
        return res
    two = _check_direction(a, b, f, when, N, p, n_min, classes, prover, every_tight, min_classes=2)
    if two.relation == "non-implication":
        return two          # its witness (of >= 2 classes) is one over every partition
    res = _check_direction(a, b, f, when, N, p, n_min, classes, prover, every_tight, min_classes=1)
    two.assumption = ASSUMPTION
    if (res.relation, res.verdict, res.f_verdict, res.tight_all_n or res.tight) != \
            (two.relation, two.verdict, two.f_verdict, two.tight_all_n or two.tight):
        res.conditional = two
        why = "a table of one class decides it" if _one_class(res.witness) else "the tables of one class count"
        res.evidence += f"; {why}: under the assumption ({ASSUMPTION}) it is {_summary_of(two)}"
    return res


def _check_direction(a, b, f=None, when=(), N=4, p=2, n_min=2, classes=None, prover=True,
                     every_tight=False, min_classes=1) -> DirectionResult:
    """A => B (optionally with f) for N = n_min..N; ``a``, ``b`` are Nodes or strings.

    ``classes`` may restrict the class sizes searched: ``{"min_size": expr, "max_size": expr}``
    (expressions in N and the parameter symbols). ``prover``: ask :mod:`implgraph.engines.prove` for a
    proof for every N. Without an f, each instance first runs the cheap search for a witness of A
    finite, B infinite (:func:`analyse`'s first stage) and the rest only where the result can still
    depend on it: the instances before the first witness, in order (so the witness reported is the one
    a full run finds first), and the tight f only when no instance is a non-implication. An instance
    left unfinished keeps its note (:data:`implgraph.engines.instance.PENDING_TIGHT`, ``PENDING_SEARCH``). ``every_tight``
    finishes every instance (for a caller that reads the instances of each N on its own).

    ``min_classes``: where a side compares classes, the fewest classes of the partitions searched and proved: 1, every
    partition (a table of one class, the whole table, included: the papers' definitions admit it, e.g. ekenstedt2022
    Definition 4's M in [1 : N]), or 2, the assumption "partitions into at least 2 classes" (Definition 4's
    E_m a proper subset of [1 : N]). With 1, where the deciding witness is a table of one class, the same direction
    under the assumption is computed too (``conditional``): both verdicts are shown.
    """
    a = a if isinstance(a, Node) else parse_node(a)
    b = b if isinstance(b, Node) else parse_node(b)
    symbols, when_c = _symbols_and_conditions(a, b, when)
    alpha = level_symbol(a.definition)
    f_expr = None
    if f is not None:
        f_expr = _parsed_f(f, a.definition, symbols, alpha)
        why = _trivial_f(a, b, f_expr, when_c, symbols, alpha)
        if why:
            # every table satisfies B at f: nothing of A is used; the relation itself is decided without f
            res = _check_direction(a, b, None, when_c, N, p, n_min, classes, prover, every_tight, min_classes)
            return _trivially_met(res, f, why)
    _in_declared_ranges([a, b], when_c, max(n_min, 2), N)
    block = N > EXHAUSTIVE_MAX
    staged = f_expr is None and not block and not every_tight
    run = _runner(a, b, block)
    instances, pending = _instances(a, b, (f, f_expr, alpha), when_c, N, p, n_min, classes, min_classes, staged, run)
    answer, extra, unclaimed = None, {}, []
    if pending and staged and prover and not classes and all(i.relation == "implication" for i in instances):
        # no instance fails: where the prover proves a tight f for every N, each instance's exact tight
        # value is computed at PROVED_LEVELS levels only, each compared with that f (instead of the
        # samples a closed form is fitted through)
        answer = _prover_answer(a, b, None, when_c, symbols, alpha, N, min_classes)
        extra, unclaimed = _compared_with_proof(answer, instances, pending, a.definition, b.definition, alpha)
    if pending:
        _finish(instances, pending, run, extra, min_classes)
    res = aggregate(a, b, f, instances, p, classes, min_classes)
    _no_proof_beside_a_witness(res, answer, a, b, N)
    _note_compared_with_proof(res, instances, answer, extra, unclaimed)
    _fit_over_N(res, instances, a.definition, b.definition)
    if prover and not classes:
        _decide_by_prover(res, a, b, (f_expr, when_c, symbols, alpha), N, answer, min_classes, block)
    _search_beyond(res, a, b, instances, when_c, N, p, n_min, classes, min_classes, block)
    divergence_witness.attach(res, a, b)        # one table refuting a divergence's edge: its family in N, if any
    return res


def _symbols_and_conditions(a, b, when):
    """The symbols of a direction by name, and its conditions parsed.

    Parameters
    ----------
    a, b : Node
        The two sides.
    when : iterable of str or sympy relational
        The conditions on the parameters (a string is read with the project's safe parser).

    Returns
    -------
    symbols : dict
        Name -> symbol: the nodes' free symbols, ``N``, and every symbol of the conditions.
    when_c : list
        The conditions as sympy relationals.
    """
    symbols = {s.name: s for s in a.free_symbols() | b.free_symbols()}
    symbols["N"] = N_SYM
    when_c = [parse_condition(w, symbols_for(w, symbols.values())) if isinstance(w, str) else w for w in when]
    for c in when_c:
        symbols.update({s.name: s for s in c.free_symbols})
    return symbols, when_c


def _parsed_f(f, a_def, symbols, alpha):
    """The conjectured f as a sympy expression in A's level ``alpha`` (InputError where it is no real number).

    Parameters
    ----------
    f : str or sympy expression
        The f as given (a string is read with :func:`implgraph.core.formula.parse_expr`).
    a_def : Definition
        A's definition (its ``level_symbol`` names ``alpha`` in the text).
    symbols : dict
        The direction's symbols by name.
    alpha : sympy.Symbol
        A's level symbol.
    """
    fsyms = dict(symbols)
    fsyms[a_def.level_symbol] = alpha
    f_expr = parse_expr(f, fsyms) if isinstance(f, str) else sympy.sympify(f)
    _valid_f(f_expr, f)
    return f_expr


def _trivially_met(res, f, why):
    """``res`` (the relation decided without f) with f proved trivially: every table meets it, for ``why``."""
    res.f, res.f_verdict, res.f_trivial = f, "proved", True
    res.verdict, res.bound = "proved", "every table (trivially)"
    res.evidence += f"; the conjectured f = {f}: {why}"
    return res


def _runner(a, b, block):
    """The function running one instance from its arguments: :func:`_block_instance` where ``block``, else
    :func:`analyse`; an exception of a plugin's code becomes a :class:`PluginError` (an engine bug is raised as it
    is, never hidden as an unknown)."""
    a_def, b_def = a.definition, b.definition

    def run(args, **kw):
        try:
            if block:
                return _block_instance(*args)
            return analyse(*args, **kw)
        except InputError:
            raise
        except Exception as exc:
            if not (is_plugin(a_def) or is_plugin(b_def)):
                raise           # an engine bug: never hidden, never an unknown
            raise PluginError(f"checking {a.label()} => {b.label()} at N = {args[4]} failed: "
                              f"{exc.__class__.__name__}: {exc}",
                              fix="a plugin's lf_terms or level code is broken; fix or uninstall it") from None
    return run


def _f_raw(f, fe, n, a, b_def, alpha):
    """B's raw level that f (``fe``: f at one point, in A's level ``alpha``) asks for at A's raw level, at ``n``
    records; InputError where it is no real number (``f``: the f as given, for the message)."""
    a_def = a.definition

    def f_raw(araw):
        lvl = a_def.level_from_raw(araw)
        v = simplified(b_def.raw_from_level(fe.subs(alpha, lvl)))
        if v.has(sympy.nan, sympy.zoo, sympy.I) or v.is_extended_real is False:
            raise InputError(f"f = {f} is not a real number at {a.label()}'s level {lvl} (N = {n})",
                             fix="give B's level as an expression that is real at every level of A")
        return v
    return f_raw


def _instances(a, b, conjecture, when_c, N, p, n_min, classes, min_classes, staged, run):
    """Run one instance per N and valid point (beyond :data:`EXHAUSTIVE_MAX`: the sampled N, by two-block tables).

    Parameters
    ----------
    a, b : Node
        The two sides.
    conjecture : tuple
        ``(f, f_expr, alpha)``: the f as given, as an expression (None: the relation only), and A's level symbol.
    when_c : list
        The conditions.
    N, p, n_min : int
        The largest N, the number of buckets and the smallest N.
    classes : dict or None
        The class sizes searched.
    min_classes : int
        The fewest classes of the partitions searched.
    staged : bool
        Run only :func:`analyse`'s first stage (the rest is left to :func:`_finish`).
    run : callable
        The runner of one instance (:func:`_runner`).

    Returns
    -------
    instances : list of Instance
        In order of N and point; beyond :data:`EXHAUSTIVE_MAX` the sample of N stops at the first refutation.
    pending : dict
        Index -> arguments of each instance left unfinished.
    """
    f, f_expr, alpha = conjecture
    a_def, b_def = a.definition, b.definition
    block = N > EXHAUSTIVE_MAX
    instances, pending = [], {}
    for n in (_block_ns(n_min, N) if block else range(max(n_min, 2), N + 1)):
        if block and any(i.relation == "non-implication" or i.f_status == "refuted" for i in instances):
            break           # refuted: the sample of N stops at the first witness
        for point, ap, bp, lo, hi, pt in _valid_points(a, b, when_c, n, classes, block, min_classes):
            f_raw = None if f_expr is None else _f_raw(f, f_expr.subs(point), n, a, b_def, alpha)
            args = (a_def, ap, b_def, bp, n, f_raw, pt, lo, hi, min_classes) if block else \
                (a_def, ap, b_def, bp, n, p, f_raw, pt, lo, hi)
            inst = run(args, stage="first", min_classes=min_classes) if staged else run(args, min_classes=min_classes)
            if inst.note in (PENDING_TIGHT, PENDING_SEARCH):
                pending[len(instances)] = args
            instances.append(inst)
    return instances, pending


def _compared_with_proof(answer, instances, pending, a_def, b_def, alpha):
    """Where the prover's ``answer`` proves a tight f for every N: the keyword arguments of :func:`analyse` that
    compare each pending instance's exact tight value with it (``extra``: index -> arguments; where it proves the
    implication, tight or not, a grid instance it claims skips its finer grids, ``excluded``), and the pending
    instances outside the proof's domain (``unclaimed``: indices, fitted on their own)."""
    extra, unclaimed = {}, []
    if answer is not None and answer.verdict == "proved" and (answer.details or {}).get("certificate"):
        # a proof for every N, with its certificate (re-checked by implgraph.certify where the matrix's cells are
        # harvested), claiming an instance rules out a witness of A finite, B infinite there: its finer grids are
        # not searched
        for at, args in pending.items():
            if instances[at].note == PENDING_SEARCH and _claimed_at(answer, args[7]):
                extra[at] = {"excluded": True}
    if answer is not None and answer.verdict == "proved" and answer.tight is not None:
        buckets = (answer.details or {}).get("attained_buckets")
        where = (answer.details or {}).get("attained_where")
        for at, args in pending.items():
            # (an instance outside the proof's domain, e.g. N < 2 s where only a table of one class has classes of
            # >= s records, is fitted on its own: the proof says nothing there)
            if instances[at].note == PENDING_TIGHT and _claimed_at(answer, args[7]):
                extra[at] = {"proved": _proved_at(answer.tight, args[7], a_def, b_def, alpha, buckets, where)}
            elif instances[at].note == PENDING_TIGHT:
                unclaimed.append(at)
    return extra, unclaimed


def _no_proof_beside_a_witness(res, answer, a, b, N):
    """Raise where the prover proves the implication for every N and the search found a witness: one of the two is
    wrong (a :class:`PluginError` where a side is a plugin, else a RuntimeError: a bug)."""
    if answer is not None and answer.verdict == "proved" and res.relation == "non-implication":
        # a proof for every N beside a witness of A finite, B infinite: one of the two is wrong
        what = (f"{a.label()} => {b.label()}: implgraph.engines.prove proves the implication for every N "
                f"({answer.method}), and the search at N <= {N} found a table with A's level finite and B's "
                f"infinite ({res.witness})")
        if is_plugin(a.definition) or is_plugin(b.definition):
            raise PluginError(what, fix="a plugin's declarations (family, sides, class_size_level, finite_level_of) "
                                        "disagree with its levels; fix or uninstall it")
        raise RuntimeError(what + ": a bug in the prover or in a declaration")


def _note_compared_with_proof(res, instances, answer, extra, unclaimed):
    """Add to the evidence of an implication the N the proof's domain leaves out, and that the exact tight value of
    every other N equals the tight f proved for every N."""
    if unclaimed and res.relation == "implication":
        where = [x for x in answer.details["certificate"]["domain"] if "T" not in x]
        shown = ", ".join(f"N = {instances[at].N}: {instances[at].tight}" for at in unclaimed)
        res.evidence += (f"; the proof's domain ({', '.join(where)}) leaves out N = "
                         f"{', '.join(str(instances[at].N) for at in unclaimed)}, where the exact tight f is fitted on "
                         f"its own ({shown})")
    if extra and res.relation == "implication" and all(i.proved_checked for i in instances if i.N not in
                                                        {instances[at].N for at in unclaimed}):
        res.evidence += (f"; at each N the exact tight value equals the tight f proved for every N at "
                         f"{PROVED_LEVELS} levels of A")


def _fit_over_N(res, instances, a_def, b_def):
    """For an implication, one expression in N fitted through the exact tight f of every N checked
    (``tight_in_N``: bounded evidence), where one fits."""
    if res.relation == "implication":
        g = generalise_over_N(instances)
        if g is not None:
            res.tight_in_N = str(to_level(g, a_def, b_def))
            ns = sorted({i.N for i in instances})
            res.evidence += (f"; one expression fits the exact tight f of every N = {ns[0]}..{ns[-1]}: "
                             f"{res.tight_in_N} (fitted, bounded evidence)")


def _decide_by_prover(res, a, b, context, N, answer, min_classes, block):
    """Upgrade ``res`` by the prover (``context``: ``(f_expr, when_c, symbols, alpha)``; ``answer``: its answer where
    it was asked already). An open relation (no witness, no bound on the grid) is decided only by a proof for every
    N; beyond :data:`EXHAUSTIVE_MAX` a refuted f leaves the relation to the prover alone."""
    f_expr, when_c, symbols, alpha = context
    undecided = res.relation == "unknown" and res.f_verdict != "refuted"
    if undecided:
        res.relation = "implication"        # only a proof for every N may decide it
    _ask_prover(res, a, b, f_expr, when_c, symbols, alpha, N, answer, min_classes)
    if undecided and res.relation == "implication" and res.verdict != "proved":
        res.relation = "unknown"        # (a refutation for every f has made it a non-implication)
    if block and res.relation == "unknown" and res.f_verdict == "refuted":
        _relation_beside_refuted_f(res, when_c, symbols, N, min_classes)


#: the assumption under which a class level's verdict may differ from its verdict over every partition
ASSUMPTION = "partitions into at least 2 classes"


def _one_class(witness) -> bool:
    """Is ``witness`` a table whose records all lie in one class?"""
    labels = (witness or {}).get("classes")
    return bool(labels) and len(set(labels)) == 1


def _summary_of(d) -> str:
    """A direction's relation and verdict in a few words (for the evidence of the verdict beside it)."""
    how = f"{d.relation} ({d.verdict}{', ' + d.bound if d.bound else ''})"
    tight = d.tight_all_n or d.tight
    return how + (f", tight f = {tight}" if d.relation == "implication" and tight else "")


def _finish(instances, pending, run, extra=None, min_classes=1):
    """The second stage of the unfinished instances (``pending``: index -> arguments; ``extra``: index ->
    keyword arguments of :func:`analyse`). First, in order, the grid searches before the first
    non-implication (one of them may find the witness a full run reports); then, if no instance is a
    non-implication, every other one (the tight f)."""
    extra = extra or {}
    neg = [at for at, i in enumerate(instances) if i.relation == "non-implication"]
    first_neg = neg[0] if neg else len(instances)
    for at in sorted(pending):
        if at > first_neg:
            break
        if instances[at].note == PENDING_SEARCH:
            instances[at] = run(pending[at], stage="rest", min_classes=min_classes, **extra.get(at, {}))
            if instances[at].relation == "non-implication":
                first_neg = at
    if first_neg < len(instances):
        return          # the direction fails: the rest of the other instances is not needed
    for at in sorted(pending):
        if instances[at].note == PENDING_TIGHT:
            instances[at] = run(pending[at], stage="rest", min_classes=min_classes, **extra.get(at, {}))


def _block_instance(a_def, ap, b_def, bp, n, f_raw, point, lo, hi, min_classes=1):
    """One N by two-block tables: a witness (re-checked exactly) or an undecided instance."""
    classed = a_def.needs_classes or b_def.needs_classes
    w = block_witness(a_def, ap, b_def, bp, n, f_raw, classed, lo, hi, one_class=min_classes < 2)
    if w is None:
        return Instance(n, point, "unknown", note=f"tables of two blocks of equal rows (N > {EXHAUSTIVE_MAX}: "
                                                  "no exhaustive search) show no witness; not a proof")
    kind = w.pop("kind")
    if kind == "non-implication":
        inst = Instance(n, point, "non-implication", witness=w)
        if f_raw is not None:
            inst.f_status, inst.f_witness = "refuted", w
        return inst
    return Instance(n, point, "unknown", f_status="refuted", f_witness=w,
                    note="f refuted by a two-block table")
