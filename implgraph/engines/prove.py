"""The prover: implications A(alpha) => B(f(alpha)) for every N (and k), with the tight f.

:func:`check_implication` asks :func:`implgraph.engines.bounds.tight_bound` for an argument that
holds for every value of the parameters, giving an upper bound ``U`` of B's raw level (ratio) in
terms of A's raw level ``T`` (and whether ``U`` is the supremum, i.e. the *tight* f).

Then the printed f is compared with ``U`` on the claim's whole condition (:meth:`Region.decide`):
``f >= U`` everywhere -> ``proved`` (tight, or loose with the tight f); ``f < U`` somewhere and U
tight -> ``refuted`` with an exact witness table (built at a point of the condition, re-checked with
:func:`implgraph.engines.refute.witness_check`). Where no argument applies, the refuter checks every
N <= ``max_n`` (:mod:`implgraph.engines.prove_points`): ``verified-bounded`` ("N <= n") when no
witness exists, ``refuted`` when one does, ``unknown`` on a solver timeout.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

import sympy

from implgraph.core.errors import InputError
from implgraph.core.concrete import ConcreteTable
from implgraph.core.formula import Word, parse_condition, parse_expr
from implgraph.core.region import Region
from implgraph.certify.partitions import one_class_strongest
from implgraph.engines.certificates import (EVERY_TABLE_METHODS, certificate, every_partition_certificate,
                                           weakest_level_certificate)
from implgraph.engines.recheck import weakest_raw
from implgraph.engines.bounds import (ANY_BUCKETS, BINARY_EXTREMAL, Bound, ProofResult, T, any_partition, as_definition,
                                     ceiling_bound, decide, lowest_raw, param_ranges, tight_bound, attained_ceiling,
                                     finite_level_chain, capped_finite_level, level_conditions)
from implgraph.engines.class_floor import class_floor, class_size_floor
from implgraph.engines.lemmas import lemma_verdict
from implgraph.prover.researcher import rejected_note
from implgraph.prover.researcher_verdict import researcher_verdict
from implgraph.engines.prove_points import bounded_search, params_at, point_text, probe_tightness, raw_at, refute_at_gap
from implgraph.engines.witness import witness_json
from implgraph.core.point_values import not_identically_zero
from implgraph.core.simplified import simplified, substituted

__all__ = ["check_implication", "Word", "node_params", "trivially_met", "covers_one_class", "one_class_possible"]


def _auto_names(text, names):
    """Declare the identifiers of ``text`` not in ``names``: N and k... integer, the others real."""
    import re
    from implgraph.core.formula import CONSTANTS, FUNCTIONS
    for ident in set(re.findall(r"[A-Za-z_][A-Za-z_0-9]*", text)) - set(FUNCTIONS) - set(CONSTANTS):
        if ident not in names:
            integer = ident == "N" or ident.startswith("k") or ident.startswith("K")
            names[ident] = sympy.Symbol(ident, integer=True) if integer else sympy.Symbol(ident, real=True)
    return names


def node_params(node) -> dict:
    """A node's parameters for :func:`check_implication`: expressions as they are, words (a parameter the
    node reads as text, e.g. ``ground=equal``) as :class:`Word`."""
    return {k: Word(v) if k in node.definition.words else v for k, v in node.param_dict.items()}


def _sym(expr_or_text, names):
    if isinstance(expr_or_text, Word):
        return expr_or_text
    if isinstance(expr_or_text, str):
        return parse_expr(expr_or_text, _auto_names(expr_or_text, names))
    return sympy.sympify(expr_or_text)


def check_implication(a, b, f=None, *, a_params=None, b_params=None, when=(), max_n=12, kinds=None,
                      alpha=None, a_classes=None, b_classes=None, timeout_ms=2000, symbols=None, min_classes=1):
    """Prove, bound-check or refute A(alpha) => B(f(alpha)).

    Parameters
    ----------
    a, b : str or Definition
    f : str or sympy expression, optional
        B's level (in B's units) as a function of A's level ``alpha`` and the parameters. None: the
        claim is only that some f exists.
    a_params, b_params : dict
        Parameters (sympy expressions in N, k, ...).
    when : sequence
        Conditions (sympy relations or strings) on the parameters and levels.
    max_n : int
        Bound of the bounded check when no argument for all N applies.
    kinds : dict, optional
        ``{Symbol: "integer" | "real"}``; inferred from the symbols' assumptions otherwise.
    alpha : Symbol or str, optional
        A's level symbol in ``f`` (default: A's level symbol name).
    a_classes, b_classes : dict, optional
        Class-size constraints ``{"min_size": expr, "max_size": expr}`` for a class-based definition.
    min_classes : {1, 2}
        Where a side compares classes, the fewest classes of the partitions claimed: 1, every partition (a table of
        one class, the whole table, included), or 2, the assumption "partitions into at least 2 classes", stated in
        the evidence and in the certificate (``min_classes``). An argument about classes reads another class than
        the one it bounds: it covers a table of one class only where B's level there is its strongest and U at least
        that (:func:`covers_one_class`; the certificate then has a ``one-class`` part), else the bounded search
        (which then tries tables of one class) decides.

    Returns
    -------
    ProofResult
        ``verdict`` is proved / verified-bounded / refuted / unknown; ``tight`` the tight f (B's
        units, in terms of A's level) when derived; ``tightness`` tight / loose / wrong / not derived.
    """
    start = time.perf_counter()
    own_b_classes = b_classes      # (B's own partition, before A's declared minimum class size narrows it)
    c = _claim(a, b, f, a_params, b_params, when, kinds, alpha, b_classes, symbols, a_classes)
    a, b, region, raw_f = c.a, c.b, c.region, c.raw_f
    if raw_f is sympy.oo and b.stronger == "larger":
        # f = oo: stronger than every level B has on a table (a count is finite): any table satisfying A refutes it
        return ProofResult(**_oo_refuted(c, a_classes, b_classes, min_classes),
                           seconds=round(time.perf_counter() - start, 3))
    trivial = _trivially_met(c)
    if trivial:
        return ProofResult("proved", evidence=trivial, tightness="trivial", method="weakest-level",
                           seconds=round(time.perf_counter() - start, 3),
                           details={"trivial": True, "certificate": weakest_level_certificate(
                               a, b, c.a_params, c.b_params, a_classes, b_classes, region, c.N, raw_f)})
    invalid = None
    best = lowest_raw(b)
    if raw_f is not None:
        # an f below B's most private raw value (1 for a ratio, 0 for a distance) is not a valid level: a
        # finding, reported with a point
        if decide(region, sympy.Ge(raw_f, best)) is not True:
            invalid = region.find_point(sympy.Lt(raw_f, best))

    def finish(verdict, **kw):
        res = ProofResult(verdict=verdict, seconds=round(time.perf_counter() - start, 3), **kw)
        if invalid:
            where = ", ".join(f"{'A raw level' if k == T else k} = {v}" for k, v in invalid.items())
            res.evidence += f"; finding: f is not a valid level (below {_best_text(b)}) at {where}"
            res.details["invalid_f_at"] = {str(k): str(v) for k, v in invalid.items()}
        return res

    # (a vacuous "proved" would state a tight f of no table; asked of a copy, whose sample points are its own)
    if Region(region.kinds, region.constraints).is_empty() is True:
        return finish("unknown", evidence="no parameter values satisfy the condition (A's raw level T is > 0, and "
                                          f">= {lowest_raw(a)} for {a.name}; N >= 2): there is nothing to prove")
    bound = tight_bound(a, b, c.a_params, c.b_params, region, c.N, a_classes, b_classes)
    if bound is None:       # outside the families: a chain of registered inequality lemmas (engines/lemmas.py)
        # B's level the smallest class's size, A's parameter a minimum class size (engines/class_floor.py)
        by_floor = class_size_floor(c, a_classes, b_classes)
        if by_floor is not None:
            return finish(**by_floor)
        by_lemmas = (lemma_verdict(a, b, region, raw_f, c.alpha, c.a_params, c.b_params)
                     or researcher_verdict(a, b, region, raw_f, c.alpha, c.a_params, c.b_params))
        if by_lemmas is not None:
            return finish(**by_lemmas)
        # last: B's own ceiling on every table of N records (a one-sided level, a distance), whatever A is, over
        # the classes A allows (a parameter A declares a minimum class size)
        floor = class_floor(a, c.a_params, b, a_classes, b_classes)
        if floor is not None:
            a_classes = b_classes = {"min_size": floor}
        # A's level is another definition's where finite: that definition's bound (engines.bounds finite_level_chain)
        chain = None if floor is not None else finite_level_chain(a, b, c.b_params, region, c.N, a_classes, b_classes)
        bound = chain or _ceiling(c, b_classes, region)
        if bound is not None and floor is not None:
            bound.argument += (f"; {a.name} declares its parameter {a.min_class_param} a minimum class size (its level "
                               f"is infinite on a table with a smaller class), so every table where it is finite "
                               f"has classes of >= {floor} records")
        # attained where a table satisfying A at every level reaches it
        if chain is None:
            bound = attained_ceiling(a, c.a_params, a_classes, b_classes, bound, c.N, floor) or bound
    elif not bound.tight and bound.exact is None:
        bound = _capped(bound, c, b_classes, region)
    classed = (a.needs_classes or b.needs_classes) and one_class_possible(a_classes, b_classes, region, c.N)
    partitions_note, one_class, dropped = "", False, None
    if bound is not None and classed and bound.method not in EVERY_TABLE_METHODS:
        if min_classes >= 2:
            partitions_note = ("; for partitions into at least 2 classes (the assumption stated: a table of one class "
                               "is not covered)")
        elif covers_one_class(b, c.b_params, bound, region, a, c.N):
            one_class = True
            partitions_note = (f"; a table of one class (the class is the table) has {b.name} at its strongest level, "
                               f"at most U ({b.name}'s declared class level): every partition into classes, one class "
                               "included")
        else:       # an argument for partitions into >= 2 classes: a table of one class is decided by the search
            dropped, bound = bound, None
    words = [f"{k} = {v}" for k, v in {**c.a_params, **c.b_params}.items() if isinstance(v, Word)]
    if bound is None and words:
        return finish("unknown", evidence=f"no argument for every N applies, and the bounded check takes no word "
                                          f"parameter ({', '.join(words)})")
    if bound is not None:
        details = {"method": bound.method, "checks": bound.checks, "U_raw": str(bound.upper)}
        supremum = bound if bound.tight else bound.exact      # the tight bound, where one is derived
        tight_f = c.to_level(supremum.upper) if supremum is not None else None
        if bound.exact is not None:
            details["supremum"] = {"method": bound.exact.method, "checks": bound.exact.checks,
                                   "U_raw": str(bound.exact.upper)}
        cert = certificate(a, b, c.a_params, c.b_params, a_classes, b_classes, region, c.N, bound)
        if one_class:
            cert = every_partition_certificate(cert)
            on_T = _premises_on_T(cert, region)
            if on_T and supremum is not None:
                # beyond the premises (e.g. 2 T <= N: two classes of >= T records) only a table of one class satisfies
                # A, with B at its strongest: the supremum is attained where they hold only
                tighter = replace(supremum, attained_where=sympy.And(supremum.attained_where, *on_T))
                bound, supremum = (tighter, tighter) if supremum is bound else (bound, tighter)
        premises = _premises_nowhere(cert, region)
        if premises:
            # (a vacuous "proved" would state a tight f of no table)
            return finish("unknown", evidence=f"{bound.method}: its premises {premises} (where a table of the kind "
                                              f"the definitions compare exists) hold at no point of the condition: "
                                              f"no such table satisfies {a.name} there, and there is nothing to prove",
                          method=bound.method)
        if bound.exact is not None:     # the supremum's own certificate (one per piece), beside the bound's
            details["certificates"] = [certificate(a, b, c.a_params, c.b_params, a_classes, b_classes,
                                                   region.add(where), c.N, part)
                                       for where, part in bound.exact.parts or [(sympy.true, bound.exact)]]
            if one_class:
                details["certificates"] = [every_partition_certificate(x) for x in details["certificates"]]
        # (only a tight f that is the ceiling is vacuous: an upper bound at the ceiling leaves the tight f open)
        vacuous = None if supremum is None else _vacuous(c, supremum, own_b_classes, region)
        if vacuous is not None:
            text, own = vacuous
            details["vacuous"] = text
            if own.method != bound.method:      # the ceiling's own certificate: every table of N records meets it
                own_cert = certificate(a, b, c.a_params, c.b_params, a_classes, own_b_classes, region, c.N, own)
                details.setdefault("certificates", []).append(
                    every_partition_certificate(own_cert) if one_class else own_cert)
        if supremum is None:    # an upper bound only: the f it proves, in B's units
            details["proved_f"] = str(c.to_level(bound.upper))
            details["proved_f_tightness"] = "an upper bound; tightness not derived"
        if raw_f is None:
            details["certificate"] = cert
            if supremum is not None:
                _note_attained(details, supremum, c)
            return finish("proved", evidence=f"{bound.method}: {bound.argument}; {_buckets_text(supremum or bound, c)}"
                                             f"{partitions_note}" + (f"; {details['vacuous']}" if vacuous else ""),
                          tight=tight_f,
                          tightness="tight" if supremum is not None else "not derived", method=bound.method,
                          details=details)
        # f >= U, or f >= the supremum proved beside a U that is not tight (its certificates are in details)
        if _f_dominates(c, bound) or (supremum is not None and supremum is not bound and _f_dominates(c, supremum)):
            details["certificate"] = cert
            ev, tightness = _proof_evidence(c, bound, tight_f, details, a_classes, b_classes)
            return finish("proved", evidence=ev + partitions_note, tight=tight_f, tightness=tightness, method=bound.method,
                          details=details)
        if supremum is not None:
            # f < the tight bound somewhere: a witness at such a point
            wit = refute_at_gap(a, b, c.fx, raw_f, supremum, region, c.kinds, c.alpha, c.a_params, c.b_params,
                                 a_classes, b_classes, max_n, c.N)
            if wit is not None:
                return finish("refuted", **_gap_refutation(c, supremum, tight_f, wit), tightness="wrong",
                              method=bound.method, details=details)
    # no argument for all N: first a definitive non-implication (A finite, B infinite) at small N
    if bound is None and not ((a_classes or {}).get("max_size") is not None):
        r0 = bounded_search(a, b, None, None, region, c.kinds, c.alpha, c.a_params, c.b_params, a_classes, b_classes,
                      min(max_n, 5), c.N, min(timeout_ms, 1000), start, limit=12, min_classes=min_classes)
        if r0.verdict == "refuted":
            r0.evidence = ("no f can work: " + r0.evidence + " (A's level is finite, B's is infinite); "
                           "the implication fails for every f" + _dropped_text(dropped))
            r0.tightness = "wrong"
            return r0
    # no argument for all N: bounded check with the refuter
    r = bounded_search(a, b, c.fx, raw_f, region, c.kinds, c.alpha, c.a_params, c.b_params, a_classes, b_classes,
                       max_n, c.N, timeout_ms, start, prior=bound, min_classes=min_classes)
    r.evidence += _dropped_text(dropped) + rejected_note(a, b)
    return r


def _oo_refuted(c, a_classes, b_classes, min_classes) -> dict:
    """The verdict on f = oo for a B whose larger levels are stronger: refuted by the first small table (two blocks of
    equal binary rows, N = 2..4, at a point of the condition) where A's level is finite and B's finite, re-checked
    exactly; unknown where none is found."""
    from implgraph.engines.blocks import candidate_tables
    from implgraph.engines.recheck import is_witness, raw_level
    from implgraph.core.concrete import INF
    a, b = c.a, c.b
    classed = a.needs_classes or b.needs_classes
    for n in range(2, 5):
        pt = Region(c.region.kinds, c.region.constraints).find_point(sympy.Eq(c.N, n))
        if pt is None:
            continue
        a_ps, b_ps = params_at(c.a_params, pt), params_at(c.b_params, pt)
        lo = _size_at((a_classes or b_classes or {}).get("min_size"), pt)
        tables = list(candidate_tables(a, b, n, list(a_ps.values()) + list(b_ps.values()), classed, lo))
        if classed and min_classes < 2:
            tables += [ConcreteTable.from_fractions([[1, 0]] * n, classes=["E1"] * n)]
        for ct in tables:
            ra = raw_level(a, a_ps, ct)
            if ra is None or ra == INF or not is_witness(a, a_ps, b, b_ps, ct, a_raw=ra, f_raw=sympy.oo):
                continue
            level = a.level_from_raw(ra if isinstance(ra, sympy.Basic) else sympy.Rational(ra.numerator, ra.denominator))
            return {"verdict": "refuted", "tightness": "wrong",
                    "evidence": (f"f = oo is stronger than every level {b.name} has on a table (larger is stronger, and "
                                 f"a table's level is finite): at {point_text(pt)} a table satisfying {a.name} at "
                                 f"{c.alpha} = {level} has {b.name} level {b.level_from_raw(raw_level(b, b_ps, ct))} "
                                 "(re-checked in exact arithmetic)"),
                    "witness": witness_json(ct, {str(k): v for k, v in pt.items() if k != T}, **{str(c.alpha): level})}
    return {"verdict": "unknown", "evidence": f"f = oo is stronger than every level of {b.name}, but no small table "
                                              f"satisfying {a.name} was found at a point of the condition"}


def _size_at(size, pt):
    """A minimum class size at a point (an integer), or None."""
    if size is None:
        return None
    by_name = {str(k): v for k, v in pt.items()}
    x = sympy.sympify(size)
    return int(sympy.ceiling(x.subs({s: by_name[s.name] for s in x.free_symbols if s.name in by_name})))


def _vacuous(c, bound, b_classes, region):
    """``(text, ceiling)`` where U is B's own ceiling on every table of N records whatever A (or above it:
    :func:`implgraph.engines.bounds.ceiling_bound` with B's own classes, e.g. N - 1 for basic beta-likeness, (N - 1)/N
    for a class's total variation distance): every table meets U, so A => B at U says nothing of A; else None."""
    own = _ceiling(c, b_classes, region)
    if own is None:
        return None
    U = bound.upper
    if not (_same(U, own.upper) or decide(region, sympy.Ge(U, own.upper)) is True):
        return None
    level = c.b.level_from_raw(own.upper)
    return (f"vacuous: f = {level} is {c.b.name}'s own ceiling on every table of N records, whatever "
            f"{c.a.name} ({own.method}: {own.argument}): every table meets it, so it says nothing of {c.a.name} and "
            "is no implication"), own


def one_class_possible(a_classes, b_classes, region, N) -> bool:
    """Can a table of one class (N records) satisfy the class sizes asked for somewhere on the condition (no maximum
    class size below N everywhere, e.g. singleton classes)?"""
    for spec in (a_classes, b_classes):
        top = (spec or {}).get("max_size")
        if top is not None and decide(region, sympy.Lt(top, N)) is True:
            return False
    return True


def _dropped_text(dropped) -> str:
    """What is said of an argument for partitions into >= 2 classes that a table of one class is outside."""
    if dropped is None:
        return ""
    return (f"; the prover's argument ({dropped.method}) is for partitions into at least 2 classes, and a table of one "
            "class (the whole table) is outside it")


def covers_one_class(b, b_params, bound, region, a=None, N=None) -> bool:
    """Does ``bound``, an argument for partitions into >= 2 classes, hold on a table of one class too: is B's level
    there its strongest by its declaration (:func:`implgraph.certify.partitions.one_class_strongest`: the class is the
    table), and U (and the supremum's, where one is derived beside it) at least that on the whole condition (where A's
    level is a class size, ``a``, at most N: no table satisfies A beyond)?"""
    if not one_class_strongest(b, b_params):
        return False
    best = lowest_raw(b)
    if a is not None:       # (A's raw level is at least its strongest: T >= 0 for a distance, which sympy folds away)
        region = region.add(sympy.Ge(T, lowest_raw(a), evaluate=False))
    if a is not None and getattr(a, "class_size_level", False) and N is not None:
        region = region.add(T <= N)
    return all(decide(region, sympy.Ge(x.upper, best)) is True for x in (bound, bound.exact) if x is not None)


def trivially_met(a, b, f, *, a_params=None, b_params=None, when=(), kinds=None, alpha=None, b_classes=None,
                  symbols=None) -> str | None:
    """Where f (B's level in terms of A's level ``alpha``) is at least as weak as B's weakest level at every level of A
    on the condition (``f = oo`` for a ratio, ``f >= 1`` for a distance, ``f <= 1`` for a count): why every table
    satisfies B at f, a trivial truth and no implication; else None. The arguments are :func:`check_implication`'s."""
    return _trivially_met(_claim(a, b, f, a_params, b_params, when, kinds, alpha, b_classes, symbols))


def _trivially_met(c) -> str | None:
    """:func:`trivially_met` on a read claim."""
    if c.raw_f is None:
        return None
    b = c.b
    weakest = weakest_raw(b)
    if c.raw_f is sympy.oo:
        met = b.stronger == "smaller"
    elif weakest is sympy.oo or c.raw_f.has(sympy.oo, sympy.zoo, sympy.nan):
        met = False
    else:
        met = decide(c.region, sympy.Ge(c.raw_f, weakest) if b.stronger == "smaller"
                     else sympy.Le(c.raw_f, weakest)) is True
    if not met:
        return None
    return (f"trivially: f = {c.fx} is at least as weak as {b.name}'s weakest level {b.weakest()} at every level of "
            f"{c.a.name} on the condition, and every table satisfies {b.name} at its weakest level ({b.name}'s "
            f"{b.scale} scale declares every level at least as strong as {b.weakest()}; every level computed is "
            "checked against it): true of every table, whatever A, so it is no implication")


def _premises_on_T(cert, region) -> list:
    """The premises a certificate's domain adds to the claim's condition that hold A's raw level T (sympy relations)."""
    own = {str(x) for x in region.constraints}
    names = {str(s): s for s in region.kinds}
    rels = [sympy.sympify(x, locals=names) for x in cert["domain"] if x not in own]
    return [r for r in rels if T in r.free_symbols]


def _premises_nowhere(cert, region):
    """The premises a certificate's domain adds to the claim's condition (e.g. ``2*(T) <= N``: a partition into
    two classes of >= T records), as text, where together with the condition they hold at no point; else ''."""
    own = {str(c) for c in region.constraints}
    extra = [c for c in cert["domain"] if c not in own]
    if not extra:
        return ""
    names = {str(s): s for s in region.kinds}
    rels = [sympy.sympify(c, locals=names) for c in extra]
    if region.add(*rels).is_empty() is not True:
        return ""
    return ", ".join(c for c, r in zip(extra, rels) if region.add(r).is_empty() is not False) or ", ".join(extra)


@dataclass
class _Claim:
    """A => B(f) read: the parameters and f as sympy, A's level symbol, the symbols' kinds, N and the
    region of the condition in terms of A's raw level T (``raw_f``: B's raw target, or None)."""

    a: object
    b: object
    a_params: dict
    b_params: dict
    conds: list
    fx: object
    alpha: sympy.Symbol
    kinds: dict
    N: sympy.Symbol
    region: Region
    raw_f: object

    def to_level(self, U):
        """B's level as a function of A's level alpha, from a raw bound U(T)."""
        raw = self.a.raw_from_level(self.alpha)
        if isinstance(U, sympy.Piecewise):    # piece by piece (simplifying a whole Piecewise is slow)
            tidy = lambda e: e if e.has(sympy.Min, sympy.Max) else simplified(e)   # noqa: E731 (a Min: slow, kept)
            return sympy.Piecewise(*[(tidy(self.b.level_from_raw(substituted(v, {T: raw}))), c.subs(T, raw))
                                     for v, c in U.args])
        if isinstance(U, sympy.Min) and len(U.args) > 2:
            # argument by argument (B's scale is increasing, so its level of a Min is the Min of the levels;
            # simplifying a Min of many arguments whole compares them pairwise, slowly)
            def tidy(v):        # (a rational function of T is factored first: simplify is slow, finds no shorter form)
                if v.is_rational_function():
                    return self.b.level_from_raw(substituted(sympy.factor(v), {T: raw}))
                return simplified(self.b.level_from_raw(substituted(v, {T: raw})))
            return sympy.Min(*[tidy(v) for v in U.args], evaluate=False)
        return simplified(self.b.level_from_raw(substituted(U, {T: raw})))


def _claim(a, b, f, a_params, b_params, when, kinds, alpha, b_classes, symbols, a_classes=None) -> _Claim:
    a, b = as_definition(a), as_definition(b)
    for d, given in ((a, a_params or {}), (b, b_params or {})):
        extra, missing = set(given) - set(d.params), set(d.params) - set(given) - set(d.words)
        if extra:
            raise InputError(f"{d.name} has no parameter(s) {', '.join(sorted(extra))}",
                             fix=f"its parameters are: {', '.join(d.params) or 'none'}")
        if missing:
            raise InputError(f"{d.name} needs parameter(s) {', '.join(sorted(missing))}",
                             fix=f"give {', '.join(sorted(missing))} in its parameters")
    names = dict(symbols or {})
    a_params = {k: Word(v) if k in a.words else _sym(v, names) for k, v in (a_params or {}).items()}
    b_params = {k: Word(v) if k in b.words else _sym(v, names) for k, v in (b_params or {}).items()}
    conds = [parse_condition(c, _auto_names(c, names)) if isinstance(c, str) else sympy.sympify(c) for c in when]
    fx = None if f is None else _sym(f, names)
    all_syms = set()
    sizes = [v for spec in (a_classes, b_classes) for v in (spec or {}).values() if v is not None]
    for e in list(a_params.values()) + list(b_params.values()) + conds + ([fx] if fx is not None else []) + sizes:
        if not isinstance(e, Word):
            all_syms |= sympy.sympify(e).free_symbols
    if alpha is not None:
        alpha_sym = alpha if isinstance(alpha, sympy.Symbol) else next(
            (s for s in all_syms if s.name == str(alpha)), sympy.Symbol(str(alpha), real=True))
    else:
        alpha_sym = next((s for s in all_syms if s.name == a.level_symbol), sympy.Symbol(a.level_symbol, real=True))
    kinds = {s: k for s, k in dict(kinds or {}).items() if s in all_syms or s.name == "N"}
    for s in all_syms:
        kinds.setdefault(s, "integer" if s.is_integer else "real")
    kinds.pop(alpha_sym, None)
    N = next((s for s in kinds if s.name == "N"), sympy.Symbol("N", integer=True))
    kinds.setdefault(N, "integer")
    # A's raw level T: a real, an integer where A's level is a class size (declared ``class_size_level``)
    kinds[T] = "integer" if getattr(a, "class_size_level", False) else "real"
    # the condition in terms of T (A's raw level) instead of alpha
    alpha_of_T = a.level_from_raw(T)
    conds_T = [_in_T(sympy.sympify(c).subs(alpha_sym, alpha_of_T)) for c in conds]
    region = Region(kinds, tuple(conds_T) + (T >= lowest_raw(a), N >= 2))
    region = region.add(*param_ranges(a, b, a_params, b_params, N, b_classes))
    raw_f = None if fx is None else b.raw_from_level(fx.subs(alpha_sym, alpha_of_T))
    if raw_f is not None and raw_f.has(sympy.tanh):      # tanh(log(T)/2) is (T - 1)/(T + 1): exp's, simplified
        raw_f = raw_f.rewrite(sympy.exp)
    raw_f = None if raw_f is None else simplified(raw_f)
    return _Claim(a, b, a_params, b_params, conds, fx, alpha_sym, kinds, N, region, raw_f)


def _in_T(cond):
    """A condition on A's raw level T alone that holds a log or an exp (``log(T) >= log(2)``: A's level on the log
    scale) as the polynomial relation sympy solves it into (``T >= 2``), which the solvers read; else as it is."""
    if not isinstance(cond, sympy.core.relational.Relational) or cond.free_symbols != {T} \
            or not cond.has(sympy.log, sympy.exp):
        return cond
    try:
        solved = sympy.solve_univariate_inequality(cond, T, relational=True)     # (T is declared positive)
    except (NotImplementedError, ValueError, TypeError):
        return cond
    parts = solved.args if isinstance(solved, sympy.And) else (solved,)
    kept = [x for x in parts if not (isinstance(x, sympy.core.relational.Relational) and sympy.oo in (x.lhs, x.rhs))]
    if any(x.has(sympy.log, sympy.exp) or not isinstance(x, sympy.core.relational.Relational) for x in kept):
        return cond
    return sympy.And(*kept) if kept else cond


def _ceiling(c, b_classes, region):
    """B's own ceiling on every table of N records whatever A is (:func:`ceiling_bound`), on the claim's condition
    with the parameters' ranges, or None."""
    return ceiling_bound(c.b, c.b_params, b_classes,
                         region.add(*param_ranges(c.a, c.b, c.a_params, c.b_params, c.N, b_classes)), c.N)


def _capped(bound, c, b_classes, region):
    """A bound that is not tight, with B's ceiling beside it where the ceiling is smaller somewhere: U the smaller
    of the two (method ``min``, each part with its certificate)."""
    cap = _ceiling(c, b_classes, region)
    if cap is None or cap.method == bound.method or decide(region, sympy.Le(bound.upper, cap.upper)) is True:
        return bound
    return capped_finite_level(c.a, bound, cap, c.N) or Bound(
        sympy.Min(bound.upper, cap.upper), False, "min",
        f"the smaller of two upper bounds: ({bound.method}) {bound.argument}; and ({cap.method}) {cap.argument}",
        checks=bound.checks + cap.checks, parts=[(sympy.true, bound), (sympy.true, cap)])


def _best_text(b) -> str:
    """``1 as a ratio`` (ratio, log and affine levels: the raw value is a ratio) / ``0 as a distance`` /
    ``1 as a count``: B's lowest raw level (:func:`implgraph.engines.bounds.lowest_raw`) in words."""
    name = b.level_scale.name
    return f"{lowest_raw(b)} as a {'ratio' if name in ('ratio', 'log', 'affine') else name}"


def _f_dominates(c: _Claim, bound) -> bool:
    """f >= U on the whole condition: in raw units, else in level units in terms of alpha (keeps
    e.g. eps0 <= eps1 linear)."""
    if decide(c.region, sympy.Ge(c.raw_f, bound.upper)) is True:
        return True
    dom = c.alpha >= c.a.level_from_raw(lowest_raw(c.a))      # A's strongest level, in A's own units
    areg = Region({**{s: k for s, k in c.kinds.items() if s != T}, c.alpha: "real"}, tuple(c.conds) + (dom, c.N >= 2))
    if decide(areg, sympy.Ge(c.fx, c.to_level(bound.upper))) is True:
        return True
    return _dominates_by_pieces(c.raw_f, bound.upper, c.region)


def _dominates_by_pieces(f, U, region) -> bool:
    """``f >= U`` on ``region`` piece by piece where U or f is a Piecewise (a solver takes neither whole): on each
    piece of U (its condition, after the earlier pieces' negations, added to the region) f's piece there (the first
    whose condition holds on it) is U's identically or is decided >= it."""
    if not (isinstance(U, sympy.Piecewise) or isinstance(f, sympy.Piecewise)):
        return False
    before = sympy.false
    for u, cond in (U.args if isinstance(U, sympy.Piecewise) else [(U, sympy.true)]):
        here = region.add(sympy.And(cond, sympy.Not(before)))
        before = sympy.Or(before, cond)
        if here.is_empty() is True:
            continue
        g = _piece_on(f, here)
        if g is None or not (_identical(g, u) or decide(here, sympy.Ge(g, u)) is True):
            return False
    return True


def _piece_on(e, region):
    """The piece of a Piecewise ``e`` that holds on the whole region (the first whose condition is decided true
    there, the earlier ones false), or None where that is not decided; ``e`` itself if it is no Piecewise."""
    if not isinstance(e, sympy.Piecewise):
        return e
    for value, cond in e.args:
        holds = decide(region, cond)
        if holds is True:
            return _piece_on(value, region)
        if holds is not False:
            return None
    return None


def _buckets_text(bound, c) -> str:
    """What the argument says of the number of buckets (and, when it is tight, of its attaining table)."""
    if not bound.tight:
        return ANY_BUCKETS
    parts = [ANY_BUCKETS] + ([] if _wider(bound) else [BINARY_EXTREMAL])
    return "; ".join(parts + ([_attained_text(bound, c)] if _noted(bound) else []))


def _wider(bound) -> bool:
    """Does the attaining table of a tight bound have more than two buckets somewhere (``buckets``, in T)?"""
    return bound.buckets is not None and sympy.sympify(bound.buckets) != 2


def _noted(bound) -> bool:
    """Is there something to say of a tight bound's attaining table: more than two buckets, or levels where it does not
    exist?"""
    return _wider(bound) or bound.attained_where is not sympy.true


def _note_attained(details, bound, c) -> None:
    """Where a tight bound's attaining table may have more than two buckets: say how many (``attained``, in A's
    level; ``attained_buckets``, in T, for check-edge's comparison with its instances)."""
    if _noted(bound):
        details["attained"] = _attained_text(bound, c)
    if _wider(bound):
        details["attained_buckets"] = str(bound.buckets)
    if bound.attained_where is not sympy.true:
        details["attained_where"] = str(bound.attained_where)


def _attained_text(bound, c) -> str:
    """The attaining table's number of buckets where it may be more than two, and the levels where it exists when
    not all, in A's level."""
    raw = c.a.raw_from_level(c.alpha)
    out = []
    if bound.attained_where is not sympy.true:
        out.append(f"tight where {level_conditions(bound.attained_where, c.a, c.alpha)}, where the attaining table "
                   "exists (elsewhere not derived)")
    if _wider(bound):
        out.append(f"the attaining table has {bound.buckets.subs(T, raw)} buckets (with fewer the supremum may be "
                   "smaller: not derived)")
    return "; ".join(out)


def _identical(f, upper) -> bool:
    """``f == upper`` identically (a Piecewise: on every piece; simplifying a whole Piecewise is slow, and a
    difference with an exact non-zero value at a point is not simplified at all)."""
    pieces = [v for v, _ in upper.args] if isinstance(upper, sympy.Piecewise) else [upper]
    return all(_same(f, v) for v in pieces)


def _equal_piece_by_piece(region, f, upper) -> bool:
    """``f == upper`` on ``region``, a Piecewise ``upper`` decided piece by piece (each value on its condition and not
    the earlier ones'), each piece identically or by the solver; False where ``upper`` is no Piecewise."""
    if not isinstance(upper, sympy.Piecewise):
        return False
    before = []
    for value, cond in upper.args:
        here = region.add(*before, cond) if cond is not sympy.true else region.add(*before)
        if here.is_empty() is not True and not (_same(f, value) or decide(here, sympy.Eq(f, value)) is True):
            return False
        before.append(sympy.Not(cond))
    return True


def _same(f, v) -> bool:
    """``f == v`` identically: their difference simplifies to 0, or both are a Min (Max) of arguments that pair off
    one to one, each pair identical."""
    if not not_identically_zero(f - v) and simplified(f - v) == 0:
        return True
    if isinstance(f, (sympy.Min, sympy.Max)) and f.func == v.func and len(f.args) == len(v.args):
        left = list(v.args)
        for x in f.args:
            match = next((y for y in left if _same(x, y)), None)
            if match is None:
                return False
            left.remove(match)
        return True
    return False


def _proof_evidence(c: _Claim, bound, tight_f, details, a_classes, b_classes):
    """(evidence, tightness) of a proved f: tight, loose (with the tight f), tight at some points, or
    probed on samples when the bound is not known to be tight."""
    region, raw_f = c.region, c.raw_f
    extra, proof_method, proof_argument = "", bound.method, bound.argument
    if not bound.tight and bound.exact is not None:      # the supremum is a smaller bound than the proof's
        extra = f"; the supremum ({bound.exact.method}): {bound.exact.argument}"
        bound = bound.exact
    is_eq = _identical(raw_f, bound.upper)
    tightness = ("tight" if is_eq else "loose") if bound.tight else "not derived"
    if bound.tight and not is_eq and (decide(region, sympy.Eq(raw_f, bound.upper)) is True
                                      or _equal_piece_by_piece(region, raw_f, bound.upper)):
        tightness = "tight"
    equal_at = None
    if tightness == "loose":
        equal_at = region.find_point(sympy.Eq(raw_f, bound.upper))
    if tightness == "not derived":
        probe = probe_tightness(c.a, c.b, c.fx, region, c.kinds, c.alpha, c.a_params, c.b_params, a_classes,
                                 b_classes, c.N)
        if probe:
            details["tightness_probe"] = probe["text"]
            tightness = probe["label"]
    ev = f"proved for every parameter value ({bound.method}): {bound.argument}" if not extra else \
        f"proved for every parameter value ({proof_method}): {proof_argument}{extra}"
    ev += f"; {_buckets_text(bound, c)}"
    if bound.tight:
        _note_attained(details, bound, c)
    if tightness == "loose" and equal_at:
        tightness = "tight at some parameter values, loose at others"
        ev += f"; f is tight at some parameter values and loose at others: the tight f is {tight_f}"
        ev += (" (f equals it at some parameter values, e.g. "
               + ", ".join(f"{'A raw level' if k == T else k} = {v}" for k, v in equal_at.items()) + ")")
        upper = bound.upper.rewrite(sympy.Piecewise) if isinstance(bound.upper, (sympy.Min, sympy.Max)) else bound.upper
        pieces = upper.args if isinstance(upper, sympy.Piecewise) else ()
        where = [cond for value, cond in pieces if cond is not sympy.true and _identical(raw_f, value)]
        if where:   # the pieces of the supremum that f is: exactly where f is tight
            exact = sympy.Or(*where).subs(T, c.a.raw_from_level(c.alpha))
            ev += (f"; exactly: the tight f is f where {exact} (with A's level {c.alpha}); elsewhere it is the "
                   "tight f's other piece")
            details["tight_where"] = str(exact)
    elif tightness == "loose":
        ev += f"; f is loose: the tight f is {tight_f}"
    elif tightness == "tight":
        ev += "; f is tight"
    if "tightness_probe" in details:
        ev += "; tightness (sampled): " + details["tightness_probe"]
    return ev, tightness


def _gap_refutation(c: _Claim, bound, tight_f, wit) -> dict:
    """``evidence``, ``tight`` and ``witness`` of a refutation by a table where f is below the tight U."""
    pt, table, alpha_value = wit
    a, b, fx, alpha_sym = c.a, c.b, c.fx, c.alpha
    ev = (f"f is below the tight bound at {point_text(pt)}: the witness satisfies {a.name} at "
          f"{alpha_sym} = {alpha_value} and has {b.name} level {b.level_from_raw(raw_at(table, b, c.b_params, pt))} "
          f"> f = {simplified(fx.subs(alpha_sym, alpha_value).subs(pt))}; tight f = {tight_f} "
          f"({bound.method}: {bound.argument})")
    if bool(simplified(c.raw_f.subs(pt)) < lowest_raw(b)):
        ev += (f"; this is a degenerate level (f is below {_best_text(b)}, no valid level): no witness "
               "was found at a point where f is a valid level")
    return {"evidence": ev, "tight": tight_f,
            "witness": witness_json(table, {str(k): v for k, v in pt.items() if k != T}, **{str(alpha_sym): alpha_value})}
