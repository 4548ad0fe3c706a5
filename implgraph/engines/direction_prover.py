"""The prover beside the bounded search of one direction: a proof for every N, or a refutation.

:func:`_prover_answer` asks :func:`implgraph.engines.prove.check_implication` on the direction's nodes and
conditions; :func:`_ask_prover` and :func:`_apply_answer` upgrade a bounded verdict with its answer;
:func:`_claimed_at` and :func:`_proved_at` compare a tight f proved for every N with the exact tight value of
one instance; :func:`proved_by_prover` asks about the implication alone.
"""

from __future__ import annotations

import functools
from dataclasses import replace

import sympy

from implgraph.core.concrete import ConcreteTable
from implgraph.core.formula import free_names, parse_condition, parse_expr
from implgraph.core.point_values import not_identically_zero
from implgraph.core.simplified import simplified, substituted
from implgraph.definitions.nodes import N_SYM, parse_node
from implgraph.engines.direction_result import DirectionResult
from implgraph.engines.fit import level_symbol
from implgraph.engines.recheck import witness_dict
from implgraph.prover import divergence_witness

__all__ = ["proved_by_prover", "PROVER_SEARCH_MAX", "PROVED_LEVELS"]

#: the largest N of the prover's own witness search, where it has no argument for every N (a z3 search
#: over N records per parameter point, up to 120 points: at --N 1000 it took a minute); beyond it, the
#: two-block tables of :func:`_block_instance` sample N (2..4, N/2, N)
PROVER_SEARCH_MAX = 12

#: A's raw level in the prover's expressions (its bucket counts)
T_RAW = sympy.Symbol("T", positive=True)

#: the levels of A at which an instance's exact tight value is compared with a tight f the prover proved
#: for every N (the first, middle and last of its samples)
PROVED_LEVELS = 3


def _differs(x, y) -> bool:
    """x and y are not identically equal: a point where they differ, else their difference does not simplify to 0."""
    return not_identically_zero(x - y) or simplified(x - y) != 0


def _in_records(f):
    """``f`` (an expression or the engine's text of one) with its number of records as :data:`N_SYM`: the prover's
    own N carries other assumptions, and log(N) - log(N) of two such symbols is not 0."""
    if isinstance(f, str):
        return parse_expr(f, _plain_names(f, {"N": N_SYM}))
    f = sympy.sympify(f)
    return f.xreplace({x: N_SYM for x in f.free_symbols if x.name == "N"})


def _plain_names(text, fixed=None) -> dict:
    """Every name of ``text`` (:func:`~implgraph.core.formula.free_names`) as a plain symbol (``fixed``'s own symbol
    where it gives one)."""
    return {n: (fixed or {}).get(n, sympy.Symbol(n)) for n in free_names(text)}


@functools.lru_cache(maxsize=4096)
def _domain_condition(text, names):
    """One condition of a certificate's domain (the prover's own text, read by the formula reader: nothing is
    evaluated) with its names as plain symbols; None where it mentions A's raw level T."""
    rel = parse_condition(text, _plain_names(text))
    return None if sympy.Symbol("T") in rel.free_symbols else rel


def _claimed_at(answer, point) -> bool:
    """Does the prover's proof (its certificate's domain, the conditions without A's raw level T) claim anything at
    ``point`` (names -> integers)?"""
    domain = ((answer.details or {}).get("certificate") or {}).get("domain") or []
    at = {k: sympy.Integer(v) for k, v in point.items()}
    names = tuple(sorted(at))
    for text in domain:
        rel = _domain_condition(text, names)
        if rel is not None and rel.subs(at) is sympy.false:
            return False
    return True


def _proved_at(tight, point, a_def, b_def, alpha, buckets=None, where=None):
    """``(f, raw, buckets_at)`` of a tight f proved for every N at one instance's ``point`` (names -> integers): f in
    B's level units there, ``raw(a)`` B's raw level it gives at A's raw level a, and ``buckets_at(a)`` the number of
    buckets of the table attaining it there (``buckets``: an expression in A's raw level T; None: two; infinite where
    the condition ``where`` on T, under which the attaining table exists, fails)."""
    expr = parse_expr(tight, _plain_names(tight, {"N": N_SYM})) if isinstance(tight, str) else sympy.sympify(tight)
    # (A's level symbol is never a point's value, even where a parameter has its name)
    here = substituted(expr, {x: point[x.name] for x in expr.free_symbols if x.name in point and x.name != alpha.name})
    here = substituted(here, {x: alpha for x in here.free_symbols if x.name == alpha.name and x != alpha})

    def raw(araw):
        v = b_def.raw_from_level(substituted(here, {alpha: a_def.level_from_raw(araw)}))
        # a number is compared as it is (at 60 digits, then exactly): simplifying tanh(log(3)/2) and the like
        # took most of some pairs' time
        return v if v.is_number else simplified(v)

    count = None if buckets is None else sympy.sympify(buckets, locals={"T": T_RAW, "N": N_SYM})
    exists = None if where is None else sympy.sympify(where, locals={"T": T_RAW, "N": N_SYM})

    def buckets_at(araw):
        def at(e):      # e at A's raw level araw and the instance's point (the count may be a formula in N too)
            return e.subs({T_RAW: sympy.Rational(araw.numerator, araw.denominator),
                           **{x: point[x.name] for x in e.free_symbols if x.name in point}})
        if exists is not None and at(exists) is not sympy.true:
            return float("inf")     # no attaining table at this level: the proved f is compared from above only
        return 2 if count is None else int(at(count))
    return here, raw, buckets_at


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


def _prover_witness(w, a, b) -> dict:
    """The prover's witness in the shape of every other witness: its table's levels of A and B are
    computed here, exactly (``level_a``, ``level_b``), beside the prover's own fields."""
    ct = ConcreteTable.from_fractions(w["rows"], buckets=w.get("buckets"), classes=w.get("classes"))
    # its number of records as ``point`` (where every other witness keeps it): a table of another N than the one a
    # claim's instance is for is no evidence about that instance; a parameter symbol at the value the witness states
    names = {s.name for node in (a, b) for v in node.param_dict.values() for s in sympy.sympify(v).free_symbols}
    at = {k: v for k, v in (w.get("point") or {}).items() if k in names and k != "N"}

    def params(node):
        return {k: sympy.sympify(v).subs({s: at[s.name] for s in sympy.sympify(v).free_symbols if s.name in at})
                for k, v in node.param_dict.items()}
    return dict(w, **witness_dict(ct, a.definition, params(a), b.definition, params(b)),
                point={"N": len(w["rows"]), **at}, source="implgraph.engines.prove")


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
        if res.trivial and shown is not None and _differs(_in_records(shown), b.definition.weakest(N_SYM)):
            res.trivial = False         # the prover shows a stronger f than B's weakest level
            if res.evidence.startswith("trivial: "):
                res.evidence = "bounded check: " + res.evidence[len("trivial: "):]
        res.evidence += f"; proved for every N by implgraph.engines.prove ({r.method})" + (
            f": tight f = {r.tight}" if r.tight is not None else
            f": f = {res.proved_f}" if res.proved_f is not None else "") + (
            f" ({res.tight_attained})" if r.tight is not None and res.tight_attained else "")
        if (r.details or {}).get("lemmas"):
            res.evidence += f" [{r.evidence}]"     # the lemmas, each proved or cited, with its reference
        if (r.details or {}).get("at_ceiling") and not res.trivial:
            # the only f proved is B's own ceiling, which every table meets: no implication is shown between A and B
            # (nor a non-implication): the direction stays open until a smaller f is proved or refuted
            res.relation = "unknown"
            res.evidence += (f"; but {r.details['at_ceiling']}: whether {a.name} bounds {b.name} below its "
                             "ceiling is not derived (open)")
    elif r.verdict == "refuted" and r.witness:
        res.verdict = "refuted"
        if res.f is not None:
            res.f_verdict = "refuted"
        else:
            res.relation = "non-implication"
        res.witness = _prover_witness(r.witness, a, b)
        res.certificate = divergence_witness.family_certificate_of(r)     # a witness family's, where it has one
        res.evidence += f"; but implgraph.engines.prove refutes it: {r.evidence}"
