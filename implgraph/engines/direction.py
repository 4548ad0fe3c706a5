"""One direction A => B over every N and parameter point: the instances combined into one verdict.

:func:`check_direction` runs :func:`implgraph.engines.instance.analyse` for N = n_min..N and every
point allowed by ``when``, combines the instances (:func:`aggregate`), fits the tight f in N
(:func:`implgraph.engines.fit.generalise_over_N`) and, where :mod:`implgraph.engines.prove` has an
argument for every N, upgrades the bounded verdict. :class:`DirectionResult` carries ``status`` and
``strength`` from :mod:`implgraph.core.verdict`.
"""

from __future__ import annotations

import itertools
from dataclasses import asdict, dataclass, field, replace

import sympy

from implgraph.core.concrete import ConcreteTable
from implgraph.core.errors import InputError
from implgraph.core.formula import parse_condition, parse_expr
from implgraph.definitions.capabilities import family_of
from implgraph.prover import divergence_witness
from implgraph.definitions.nodes import N_SYM, Node, parse_node, symbols_for
from implgraph.core.verdict import VerdictWord, math_html
from implgraph.engines.fit import generalise_over_N, level_symbol, to_level
from implgraph.engines.blocks import block_witness
from implgraph.engines.bounds import integer_param
from implgraph.engines.instance import PENDING_SEARCH, PENDING_TIGHT, VACUOUS, Instance, analyse
from implgraph.engines.lf import partitions_for
from implgraph.engines.recheck import PluginError, is_plugin, strongest_raw, witness_dict
from implgraph.solvers.choose import lf_backend
from implgraph.core.simplified import simplified, substituted

__all__ = ["DirectionResult", "check_direction", "aggregate", "EXHAUSTIVE_MAX"]

EXHAUSTIVE_MAX = 8
#: the largest N of the prover's own witness search, where it has no argument for every N (a z3 search
#: over N records per parameter point, up to 120 points: at --N 1000 it took a minute); beyond it, the
#: two-block tables of :func:`_block_instance` sample N (2..4, N/2, N)
PROVER_SEARCH_MAX = 12
"""Largest N at which every partition and every subset is searched; beyond it, tables of two blocks
of equal rows (:mod:`implgraph.engines.blocks`) at a sample of N, and the prover for every N."""


@dataclass
class DirectionResult(VerdictWord):
    """A => B over every checked N and parameter point."""

    a: str
    b: str
    relation: str                   # implication | non-implication | unknown
    verdict: str                    # refuted | verified-bounded | proved | unknown
    bound: str
    evidence: str
    f: str | None = None
    f_verdict: str | None = None    # refuted | holds-at-samples | proved | None
    tight: str | None = None        # at the largest N checked (or for all N from the prover)
    tight_upto: str | None = None   # the tight f holds for A's level up to this value (piecewise beyond)
    tight_all_n: str | None = None  # the tight f for every N, from implgraph.engines.prove
    #: where the table attaining tight_all_n has more than two buckets: how many (the f of fewer is not derived)
    tight_attained: str | None = None
    tight_in_N: str | None = None   # one expression in N fitted through the exact tight f of every N checked
    witness: dict | None = None
    degenerate_witness: dict | None = None  # f refuted where f is no valid level of B, beside witness
    trivial: bool = False
    f_trivial: bool = False         # the conjectured f is met by every table (B's weakest level or weaker)
    #: where the tight f is B's own ceiling on every table of N records, whatever A (every table meets it): why; such
    #: an implication says nothing of A and is never drawn or counted as one
    vacuous: str | None = None
    #: the same direction under the assumption "partitions into at least 2 classes", where a table of one class
    #: decides this one (its ``assumption`` says so); None otherwise
    conditional: "DirectionResult | None" = None
    assumption: str = ""            # the assumption this result is under ("" : none, every partition)
    certificate: dict | None = None  # the prover's certificate of "proved" (implgraph.certify re-checks it)
    proved_f: str | None = None     # an f the prover proved for every N that is not the tight f everywhere
                                    # (registered inequality lemmas), with where it is tight, e.g. "l (tight at
                                    # integer levels)"
    instances: list = field(default_factory=list)

    def to_json(self):
        d = asdict(self)
        d["instances"] = [asdict(i) for i in self.instances]
        d["status"], d["strength"] = self.status, self.strength
        d["conditional"] = None if self.conditional is None else self.conditional.to_json()
        return d

    def __repr__(self):
        tight = self.tight_all_n or self.tight_in_N or self.tight
        return (f"<DirectionResult {self.a} => {self.b}: {self.relation} ({self.verdict}"
                f"{', ' + self.bound if self.bound else ''}){', tight f = ' + tight if tight else ''}>")

    @property
    def tight_f(self):
        """The tight f as a sympy expression (for every N when proved, else fitted in N, else at the largest N; the
        text fields ``tight_all_n``, ``tight_in_N``, ``tight`` are as the engine printed them), or None.

        >>> r = DirectionResult("ldp", "dp", "implication", "proved", "", "", tight_all_n="log((N + exp(eps) - 1)/N)")
        >>> r.tight_f
        log((N + exp(eps) - 1)/N)
        """
        from implgraph.core.verdict import formula
        text = self.tight_all_n or self.tight_in_N or self.tight
        return None if text is None else formula(text)

    def _repr_latex_(self):
        """The tight f in LaTeX (for every N when proved, else fitted in N, else at the largest N)."""
        tight = self.tight_all_n or self.tight_in_N or self.tight
        text = math_html(tight)
        return text if text.startswith("$") else None


def sampled_sizes(n) -> list:
    """The values of an integer parameter (a group or class size) checked at ``n`` records beyond
    :data:`EXHAUSTIVE_MAX`: 1, 2, 3, n/2, n - 2 and n - 1 (each of 1..n - 1 would make the work grow with n)."""
    return sorted({1, 2, 3, n // 2, n - 2, n - 1})


def _valid_points(a, b, when_c, n, classes, block=False, min_classes=1):
    """``(point, A's params, B's params, min class, max class, point as names -> ints)`` of each point of the
    parameters at N = ``n`` where both sides' parameters are valid and, for a definition with classes, a partition
    into >= ``min_classes`` classes of the sizes asked for exists (``block``: beyond EXHAUSTIVE_MAX, the sampled
    sizes)."""
    a_def, b_def = a.definition, b.definition
    for point in _points([a, b], when_c, n, sampled_sizes(n) if block else None):
        ap, bp = a.at(point), b.at(point)
        try:
            a_def.check_params(None, ap)
            b_def.check_params(None, bp)
            _validate_sizes(a_def, ap, n)
            _validate_sizes(b_def, bp, n)
        except InputError:
            continue
        lo, hi = _class_limits([a.classes_at(point), b.classes_at(point), classes or {}], point)
        if (lo is not None or hi is not None) and (a_def.needs_classes or b_def.needs_classes) \
                and not (_has_partition(n, lo, hi, min_classes) if block else partitions_for(n, lo, hi, min_classes)):
            continue        # no partition into >= min_classes classes of these sizes at this N
        yield point, ap, bp, lo, hi, {str(k): int(v) for k, v in point.items()}


def _in_declared_ranges(nodes, when_c, n_lo, n_hi) -> None:
    """InputError where a node's parameters are numbers (no symbol bound by ``when``) outside the definition's
    declared range at every N from ``n_lo`` to ``n_hi`` (``kdp(k=-1)``, ``kdp(k=1/2)``, or ``kdp(k=10**100)`` at N <= 4):
    nothing would be checked, and a proof for every N would speak of no N asked."""
    for node in nodes:
        if node.free_symbols():
            continue        # a symbol: its values are the conditions' (points outside the ranges are skipped)
        d, why = node.definition, None
        for n in range(n_lo, n_hi + 1):
            params = node.at({N_SYM: n})
            try:
                d.check_params(None, params)
                _validate_sizes(d, params, n)
            except InputError as exc:
                why = why or exc.reason
                continue
            break
        else:
            ranges = "; ".join(f"{k}: {v}" for k, v in d.params.items())
            raise InputError(f"{node.label()}: no valid parameter value at any N from {n_lo} to {n_hi} ({why})",
                             fix=f"give values within {d.name}'s declared ranges ({ranges})"
                             + (" or a larger --N" if n_hi < 100 else ""))


def _valid_f(f_expr, text) -> None:
    """InputError where a conjectured f is no real number at any level: a complex constant (``sqrt(-1)``), an undefined
    value, or a Piecewise without an otherwise piece (undefined where none of its conditions holds)."""
    if f_expr.has(sympy.I, sympy.nan, sympy.zoo):
        raise InputError(f"f = {text} is not a real number",
                         fix="give B's level as a real expression of A's level (e.g. sqrt of a nonnegative expression)")
    for pw in f_expr.atoms(sympy.Piecewise):
        if pw.args[-1].cond is not sympy.true:
            raise InputError(f"f = {text} is undefined where none of the Piecewise's conditions holds",
                             fix="end the Piecewise with an otherwise piece, e.g. Piecewise((t, t > 2), (2, True))")


def _trivial_f(a, b, f_expr, when_c, symbols, alpha):
    """Why f is met by every table (at least as weak as B's weakest level at every level of A:
    :func:`implgraph.engines.prove.trivially_met`), or None."""
    from implgraph.engines import prove
    if f_expr is sympy.oo:      # (no region to read: B's scale alone decides)
        return prove.trivially_met(a.definition, b.definition, "oo", a_params=prove.node_params(a),
                                   b_params=prove.node_params(b), when=list(when_c), symbols=symbols, alpha=alpha)
    syms = dict(symbols)
    syms[alpha.name] = alpha
    return prove.trivially_met(a.definition, b.definition, f_expr, a_params=prove.node_params(a),
                               b_params=prove.node_params(b), when=list(when_c), symbols=syms, alpha=alpha)


def _points(nodes, when, N, values=None):
    syms = set()
    for n in nodes:
        syms |= n.free_symbols()
    for c in when:
        syms |= {s for s in c.free_symbols if s != N_SYM}
    syms = sorted(syms, key=lambda s: s.name)
    for vals in itertools.product(values or range(1, N), repeat=len(syms)):
        point = {N_SYM: N, **dict(zip(syms, vals))}
        if all(bool(sympy.sympify(c).subs(point)) for c in when):
            yield point


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
    a_def, b_def = a.definition, b.definition
    symbols = {s.name: s for s in a.free_symbols() | b.free_symbols()}
    symbols["N"] = N_SYM
    when_c = [parse_condition(w, symbols_for(w, symbols.values())) if isinstance(w, str) else w for w in when]
    for c in when_c:
        symbols.update({s.name: s for s in c.free_symbols})
    alpha = level_symbol(a_def)
    f_expr = None
    if f is not None:
        fsyms = dict(symbols)
        fsyms[a_def.level_symbol] = alpha
        f_expr = parse_expr(f, fsyms) if isinstance(f, str) else sympy.sympify(f)
        _valid_f(f_expr, f)
        why = _trivial_f(a, b, f_expr, when_c, symbols, alpha)
        if why:
            # every table satisfies B at f: nothing of A is used; the relation itself is decided without f
            res = _check_direction(a, b, None, when_c, N, p, n_min, classes, prover, every_tight, min_classes)
            res.f, res.f_verdict, res.f_trivial = f, "proved", True
            res.verdict, res.bound = "proved", "every table (trivially)"
            res.evidence += f"; the conjectured f = {f}: {why}"
            return res
    _in_declared_ranges([a, b], when_c, max(n_min, 2), N)
    instances, pending = [], {}
    block = N > EXHAUSTIVE_MAX
    staged = f_expr is None and not block and not every_tight

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

    for n in (_block_ns(n_min, N) if block else range(max(n_min, 2), N + 1)):
        if block and any(i.relation == "non-implication" or i.f_status == "refuted" for i in instances):
            break           # refuted: the sample of N stops at the first witness
        for point, ap, bp, lo, hi, pt in _valid_points(a, b, when_c, n, classes, block, min_classes):
            f_raw = None
            if f_expr is not None:
                fe = f_expr.subs(point)
                def f_raw(araw, fe=fe, n=n):
                    lvl = a_def.level_from_raw(araw)
                    v = simplified(b_def.raw_from_level(fe.subs(alpha, lvl)))
                    if v.has(sympy.nan, sympy.zoo, sympy.I) or v.is_extended_real is False:
                        raise InputError(f"f = {f} is not a real number at {a.label()}'s level {lvl} (N = {n})",
                                         fix="give B's level as an expression that is real at every level of A")
                    return v
            args = (a_def, ap, b_def, bp, n, f_raw, pt, lo, hi, min_classes) if block else \
                (a_def, ap, b_def, bp, n, p, f_raw, pt, lo, hi)
            inst = run(args, stage="first", min_classes=min_classes) if staged else run(args, min_classes=min_classes)
            if inst.note in (PENDING_TIGHT, PENDING_SEARCH):
                pending[len(instances)] = args
            instances.append(inst)
    answer, extra, unclaimed = None, {}, []
    if pending and staged and prover and not classes and all(i.relation == "implication" for i in instances):
        # no instance fails: where the prover proves a tight f for every N, each instance's exact tight
        # value is computed at PROVED_LEVELS levels only, each compared with that f (instead of the
        # samples a closed form is fitted through)
        answer = _prover_answer(a, b, None, when_c, symbols, alpha, N, min_classes)
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
    if pending:
        _finish(instances, pending, run, extra, min_classes)
    res = aggregate(a, b, f, instances, p, classes, min_classes)
    if answer is not None and answer.verdict == "proved" and res.relation == "non-implication":
        # a proof for every N beside a witness of A finite, B infinite: one of the two is wrong
        what = (f"{a.label()} => {b.label()}: implgraph.engines.prove proves the implication for every N "
                f"({answer.method}), and the search at N <= {N} found a table with A's level finite and B's "
                f"infinite ({res.witness})")
        if is_plugin(a_def) or is_plugin(b_def):
            raise PluginError(what, fix="a plugin's declarations (family, sides, class_size_level, finite_level_of) "
                                        "disagree with its levels; fix or uninstall it")
        raise RuntimeError(what + ": a bug in the prover or in a declaration")
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
    if res.relation == "implication":
        g = generalise_over_N(instances)
        if g is not None:
            res.tight_in_N = str(to_level(g, a_def, b_def))
            ns = sorted({i.N for i in instances})
            res.evidence += (f"; one expression fits the exact tight f of every N = {ns[0]}..{ns[-1]}: "
                             f"{res.tight_in_N} (fitted, bounded evidence)")
    if prover and not classes:
        # an open relation (no witness, no bound on the grid) is decided only by a proof for every N
        undecided = res.relation == "unknown" and res.f_verdict != "refuted"
        if undecided:
            res.relation = "implication"        # only a proof for every N may decide it
        _ask_prover(res, a, b, f_expr, when_c, symbols, alpha, N, answer, min_classes)
        if undecided and res.relation == "implication" and res.verdict != "proved":
            res.relation = "unknown"        # (a refutation for every f has made it a non-implication)
        if block and res.relation == "unknown" and res.f_verdict == "refuted":
            _relation_beside_refuted_f(res, when_c, symbols, N, min_classes)
    vacuous = res.relation == "unknown" and instances and all(i.note == VACUOUS for i in instances)
    if (res.relation == "implication" and res.verdict != "proved" or vacuous) and not block and p < WIDER_P_MAX:
        _wider_witness(res, a, b, when_c, N, p, n_min, classes, min_classes)
    if (res.relation == "implication" and res.verdict != "proved" or vacuous and res.relation == "unknown") \
            and not classes:
        _beyond(res, a, b, N)
    divergence_witness.attach(res, a, b)        # one table refuting a divergence's edge: its family in N, if any
    return res


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


#: A's raw level in the prover's expressions (its bucket counts)
T_RAW = sympy.Symbol("T", positive=True)

#: the levels of A at which an instance's exact tight value is compared with a tight f the prover proved
#: for every N (the first, middle and last of its samples)
PROVED_LEVELS = 3


def _claimed_at(answer, point) -> bool:
    """Does the prover's proof (its certificate's domain, the conditions without A's raw level T) claim anything at
    ``point`` (names -> integers)?"""
    domain = ((answer.details or {}).get("certificate") or {}).get("domain") or []
    at = {k: sympy.Integer(v) for k, v in point.items()}
    for text in domain:
        rel = sympy.sympify(text, locals={name: sympy.Symbol(name) for name in [*at, "T"]})
        if sympy.Symbol("T") in rel.free_symbols:
            continue
        if rel.subs(at) is sympy.false:
            return False
    return True


def _proved_at(tight, point, a_def, b_def, alpha, buckets=None, where=None):
    """``(f, raw, buckets_at)`` of a tight f proved for every N at one instance's ``point`` (names -> integers): f in
    B's level units there, ``raw(a)`` B's raw level it gives at A's raw level a, and ``buckets_at(a)`` the number of
    buckets of the table attaining it there (``buckets``: an expression in A's raw level T; None: two; infinite where
    the condition ``where`` on T, under which the attaining table exists, fails)."""
    expr = sympy.sympify(tight, locals={"N": N_SYM})
    # (A's level symbol is never a point's value, even where a parameter has its name)
    here = substituted(expr, {x: point[x.name] for x in expr.free_symbols if x.name in point and x.name != alpha.name})
    here = substituted(here, {x: alpha for x in here.free_symbols if x.name == alpha.name and x != alpha})

    def raw(araw):
        v = b_def.raw_from_level(substituted(here, {alpha: a_def.level_from_raw(araw)}))
        # a number is compared as it is (at 60 digits, then exactly): simplifying tanh(log(3)/2) and the like
        # took most of some pairs' time
        return v if v.is_number else simplified(v)

    count = None if buckets is None else sympy.sympify(buckets, locals={"T": T_RAW})
    exists = None if where is None else sympy.sympify(where, locals={"T": T_RAW, "N": N_SYM})

    def buckets_at(araw):
        at = {T_RAW: sympy.Rational(araw.numerator, araw.denominator)}
        if exists is not None and exists.subs({**at, **{x: point[x.name] for x in exists.free_symbols
                                                        if x.name in point}}) is not sympy.true:
            return float("inf")     # no attaining table at this level: the proved f is compared from above only
        return 2 if count is None else int(count.subs(at))
    return here, raw, buckets_at


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
            instances[at] = run(pending[at], stage="rest", min_classes=min_classes)
            if instances[at].relation == "non-implication":
                first_neg = at
    if first_neg < len(instances):
        return          # the direction fails: the rest of the other instances is not needed
    for at in sorted(pending):
        if instances[at].note == PENDING_TIGHT:
            instances[at] = run(pending[at], stage="rest", min_classes=min_classes, **extra.get(at, {}))


def proved_by_prover(direction: DirectionResult, N: int, when=(), symbols=None, min_classes=1) -> DirectionResult | None:
    """The implication of ``direction`` (no f) as :mod:`implgraph.engines.prove` proves it for every N (on
    the conditions ``when``, e.g. ``[N == 4]``): a copy with verdict ``proved`` and ``tight_all_n``, or None.
    ``symbols``: the direction's symbols by name (default: those of its two nodes, and N)."""
    a, b = parse_node(direction.a), parse_node(direction.b)
    if symbols is None:
        symbols = {s.name: s for s in a.free_symbols() | b.free_symbols()}
        symbols["N"] = N_SYM
    probe = replace(direction, f=None, f_verdict=None, relation="implication", verdict="", evidence="",
                    witness=None, tight_all_n=None)
    _ask_prover(probe, a, b, None, list(when), symbols, level_symbol(a.definition), N, min_classes=min_classes)
    return probe if probe.verdict == "proved" else None


def _relation_beside_refuted_f(res, when_c, symbols, N, min_classes=1):
    """Beyond N = 8 a refuted f leaves the relation open (two-block tables prove nothing): the prover is
    asked about the implication itself (no f), as the exhaustive search answers it up to N = 8."""
    probe = proved_by_prover(res, N, when_c, symbols, min_classes)
    if probe is not None:
        res.relation, res.tight_all_n, res.certificate = "implication", probe.tight_all_n, probe.certificate
        res.evidence += "; the implication itself (some f) is " + probe.evidence.lstrip("; ")


def _has_partition(n, lo, hi, min_classes=2):
    """Is there a partition of n records into m >= ``min_classes`` classes of lo..hi records (m lo <= n <= m hi)?"""
    lo, hi = lo or 1, hi or n
    return any(m * lo <= n <= m * hi for m in range(max(min_classes, 1), n // lo + 1))


def _block_ns(n_min, N):
    """The N checked beyond :data:`EXHAUSTIVE_MAX`: 2..4, N/2 and N itself."""
    return sorted(n for n in set(range(2, 5)) | {N // 2, N} if n >= max(n_min, 2))


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


def _class_limits(specs, point):
    """(min, max) class size at ``point`` from several ``{"min_size", "max_size"}`` specs (the
    largest minimum, the smallest maximum), None where none is given."""
    los = [int(sympy.sympify(c["min_size"]).subs(point)) for c in specs if c.get("min_size") is not None]
    his = [int(sympy.sympify(c["max_size"]).subs(point)) for c in specs if c.get("max_size") is not None]
    return (max(los) if los else None), (min(his) if his else None)


def _class_text(a, b, classes=None, min_classes=1) -> str:
    """How the partitions searched are restricted, for the bound (none where neither side compares classes)."""
    if not (a.definition.needs_classes or b.definition.needs_classes):
        return ""
    specs = [a.class_dict, b.class_dict, classes or {}]
    lo = [str(c["min_size"]) for c in specs if c.get("min_size") is not None]
    hi = [str(c["max_size"]) for c in specs if c.get("max_size") is not None]
    into = "every partition into classes (one class included)" if min_classes < 2 else \
        f"every partition into at least {min_classes} classes"
    if not lo and not hi:
        return into
    parts = ([f">= {' and >= '.join(dict.fromkeys(lo))}"] if lo else []) + (
        [f"<= {' and <= '.join(dict.fromkeys(hi))}"] if hi else [])
    return f"{into}, each of {' and '.join(parts)} records"


def _validate_sizes(d, params, n):
    """InputError where a parameter given as a number lies outside the definition's declared range (``ranges``) at
    ``n`` records, or is not an integer where its declared values are (a group or class size)."""
    for name, (lo, hi) in (getattr(d, "ranges", None) or {}).items():
        if name not in params or name in d.words:
            continue
        v = sympy.sympify(params[name])
        if not v.is_number:
            continue
        if integer_param(d, name) and v.is_integer is not True:
            raise InputError(f"{name} = {v} is not an integer (its declared values are)")
        at = {"N": sympy.Integer(n)}
        low, high = (sympy.sympify(x, locals=at) if isinstance(x, str) else sympy.sympify(x) for x in (lo, hi))
        if not (low <= v) or not (v <= high):
            raise InputError(f"{name} = {v} is outside its range {lo} <= {name} <= {hi} at N = {n}")
    if family_of(d) == "subset":
        k = int(params["k"]) if "k" in params else None
        if k is not None and not 1 <= k <= n - 1:
            raise InputError("k out of range")



def aggregate(a, b, f, instances, p, classes=None, min_classes=1) -> DirectionResult:
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
        w = neg[0]
        res.relation, res.verdict, res.witness = "non-implication", "refuted", dict(w.witness, point=w.point)
        where = ", ".join(f"{k}={v}" for k, v in w.point.items())
        res.evidence = (f"at {where}: a table where {a.label()} has level {w.witness['level_a']} and "
                        f"{b.label()} level oo (re-checked in exact arithmetic); no f can work")
        res.bound = ""
    elif unk:
        res.relation, res.verdict = "unknown", "unknown"
        res.evidence = "; ".join(sorted({i.note for i in unk}))
    else:
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
    if f is not None:
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
    return res


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


def _prover_witness(w, a, b) -> dict:
    """The prover's witness in the shape of every other witness: its table's levels of A and B are
    computed here, exactly (``level_a``, ``level_b``), beside the prover's own fields."""
    ct = ConcreteTable.from_fractions(w["rows"], buckets=w.get("buckets"), classes=w.get("classes"))
    # its number of records as ``point`` (where every other witness keeps it): a table of another N than the one a
    # claim's instance is for is no evidence about that instance
    return dict(w, **witness_dict(ct, a.definition, a.param_dict, b.definition, b.param_dict),
                point={"N": len(w["rows"])}, source="implgraph.engines.prove")


def _ask_prover(res, a, b, f_expr, when_c, symbols, alpha, N, answer=None, min_classes=1):
    """Where :mod:`implgraph.engines.prove` has an argument for every N, upgrade the bounded verdict
    (``answer``: the prover's result for these arguments, when it was asked already)."""
    if res.relation != "implication" or (res.f is not None and res.f_verdict == "refuted"):
        return
    r = answer if answer is not None else _prover_answer(a, b, f_expr, when_c, symbols, alpha, N, min_classes)
    if r is None:
        return
    _apply_answer(res, r, a, b)


def _prover_answer(a, b, f_expr, when_c, symbols, alpha, N, min_classes=1):
    """:func:`implgraph.engines.prove.check_implication` on the direction's nodes and conditions, or None
    where the prover has nothing to say (not installed; a maximum class size)."""
    try:
        from implgraph.engines import prove
    except ImportError:
        return None
    syms = dict(symbols)
    syms[alpha.name] = alpha
    # the partition is the table's: one minimum class size for both sides; the prover's arguments
    # (class of the k extreme records, vertex tables with classes [k, N - k]) assume no maximum
    mins = [c["min_size"] for c in (a.class_dict, b.class_dict) if "min_size" in c]
    if any("max_size" in c for c in (a.class_dict, b.class_dict)):
        return None
    spec = {"min_size": sympy.Max(*mins)} if mins else None
    return prove.check_implication(a.name, b.name, f_expr, a_params=prove.node_params(a), b_params=prove.node_params(b),
                                   when=list(when_c), max_n=min(N, PROVER_SEARCH_MAX), symbols=syms, alpha=alpha,
                                   a_classes=spec if a.definition.needs_classes else None,
                                   b_classes=spec if b.definition.needs_classes else None, min_classes=min_classes)


def _apply_answer(res, r, a, b):
    """The prover's result ``r`` into ``res``: proved (with its f, certificate and evidence) or refuted."""
    if r.verdict == "proved":
        res.verdict = "proved"
        res.bound = "every N"
        if res.f is not None:
            res.f_verdict = "proved"
        if r.tight is not None:
            res.tight_all_n = str(r.tight)
            res.tight_attained = (r.details or {}).get("attained")
        res.certificate = (r.details or {}).get("certificate")
        res.vacuous = (r.details or {}).get("vacuous")
        if res.instances and not all(_claimed_at(r, i.point) for i in res.instances):
            # some N checked lie outside the proof's domain (e.g. classes of >= s records at N < 2 s: one class only)
            res.bound = "every N of the proof's domain (" + ", ".join(
                x for x in (res.certificate or {}).get("domain", []) if "T" not in x) + ")"
        upper = r.upper_f
        if upper is not None:
            res.proved_f = f"{upper[0]} ({upper[1]})"
        shown = r.tight if r.tight is not None else (upper[0] if upper else None)
        if res.trivial and shown is not None and simplified(sympy.sympify(shown, locals={"N": N_SYM}) - b.definition.weakest()) != 0:
            res.trivial = False         # the prover shows a stronger f than B's weakest level
            if res.evidence.startswith("trivial: "):
                res.evidence = "bounded check: " + res.evidence[len("trivial: "):]
        res.evidence += f"; proved for every N by implgraph.engines.prove ({r.method})" + (
            f": tight f = {r.tight}" if r.tight is not None else
            f": f = {res.proved_f}" if res.proved_f is not None else "") + (
            f" ({res.tight_attained})" if r.tight is not None and res.tight_attained else "")
        if (r.details or {}).get("lemmas"):
            res.evidence += f" [{r.evidence}]"     # the lemmas, each proved or cited, with its reference
    elif r.verdict == "refuted" and r.witness:
        res.verdict = "refuted"
        if res.f is not None:
            res.f_verdict = "refuted"
        else:
            res.relation = "non-implication"
        res.witness = _prover_witness(r.witness, a, b)
        res.certificate = divergence_witness.family_certificate_of(r)     # a witness family's, where it has one
        res.evidence += f"; but implgraph.engines.prove refutes it: {r.evidence}"
