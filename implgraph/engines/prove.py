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
from dataclasses import dataclass, field, replace

import sympy

from implgraph.core.formula import Word
from implgraph.core.region import Region
from implgraph.definitions.capabilities import MinClassSize
from implgraph.prover.answer import Bound, ProofResult, T
from implgraph.prover.arguments import divergence_family
from implgraph.prover.arguments import zcdp_family
from implgraph.prover.arguments import zcdp_lower_family
from implgraph.prover.arguments.chain import finite_level_chain
from implgraph.prover.attained import attained_ceiling
from implgraph.prover.certificate import (EVERY_TABLE_METHODS, certificate, every_partition_certificate,
                                          reads_no_classes, weakest_level_certificate)
from implgraph.prover.search import tight_bound
from implgraph.prover.shapes import decide, lowest_raw
from implgraph.engines.class_floor import class_floor, class_size_floor
from implgraph.prover.arguments.composition import composed_bound
from implgraph.prover.arguments.removal_cap import capped_bound
from implgraph.engines.lemmas import lemma_verdict
from implgraph.engines.prove_claim import (Claim, best_text, capped, ceiling_of, covers_one_class, met_trivially,
                                          supremum_of,
                                          node_params, one_class_possible, oo_refuted, premises_nowhere, premises_on_T,
                                          read_claim, trivially_met)
from implgraph.engines.prove_evidence import (buckets_text, dropped_text, f_dominates, gap_refutation, note_attained,
                                             proof_evidence, vacuous)
from implgraph.engines.prove_points import bounded_search, refute_at_gap
from implgraph.prover.researcher import rejected_note
from implgraph.prover.researcher_verdict import researcher_verdict

__all__ = ["check_implication", "Word", "node_params", "trivially_met", "covers_one_class", "one_class_possible"]


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
    c = read_claim(a, b, f, a_params, b_params, when, kinds, alpha, b_classes, symbols, a_classes)
    settled = _settled_at_once(c, start, a_classes, b_classes, min_classes)
    if settled is not None:
        return settled
    run = _Run(c, start, a_classes, b_classes, b_classes, min_classes, max_n, timeout_ms)
    # (a vacuous "proved" would state a tight f of no table; asked of a copy, whose sample points are its own)
    if Region(c.region.kinds, c.region.constraints).is_empty() is True:
        return run.finish("unknown", evidence="no parameter values satisfy the condition (A's raw level T is > 0, and "
                                              f">= {lowest_raw(c.a)} for {c.a.name}; N >= 2): there is nothing to prove")
    bound = tight_bound(c.a, c.b, c.a_params, c.b_params, c.region, c.N, a_classes, b_classes)
    if bound is None:
        found = run.other_arguments()
        if isinstance(found, ProofResult):
            return found
        bound = found
    elif not bound.tight and bound.exact is None:
        bound = capped(bound, c, b_classes, c.region)
    return run.decided_by(run.composed_below(bound)) or run.without_argument()


def _settled_at_once(c, start, a_classes, b_classes, min_classes):
    """The claims :func:`check_implication` decides before any argument, or None.

    Parameters
    ----------
    c : Claim
        The claim read (:func:`read_claim`).
    start : float
        When the check started (``time.perf_counter``).
    a_classes, b_classes, min_classes
        As in :func:`check_implication`.

    Returns
    -------
    ProofResult or None
        ``refuted`` for f = oo where B's stronger levels are larger (a count is finite: any table satisfying
        A refutes it); ``proved`` (trivial) where f is met by every table (B's weakest level); else None.
    """
    if c.raw_f is sympy.oo and c.b.stronger == "larger":
        # f = oo: stronger than every level B has on a table (a count is finite): any table satisfying A refutes it
        return ProofResult(**oo_refuted(c, a_classes, b_classes, min_classes),
                           seconds=round(time.perf_counter() - start, 3))
    trivial = met_trivially(c)
    if trivial:
        return ProofResult("proved", evidence=trivial, tightness="trivial", method="weakest-level",
                           seconds=round(time.perf_counter() - start, 3),
                           details={"trivial": True, "certificate": weakest_level_certificate(
                               c.a, c.b, c.a_params, c.b_params, a_classes, b_classes, c.region, c.N, c.raw_f)})
    return None


@dataclass
class _Run:
    """One run of :func:`check_implication` on a read claim: the classes asked for (B's own, before A's declared
    minimum class size narrows them), the search's limits, the bound left undecided and the one dropped."""

    c: Claim
    start: float
    a_classes: object
    b_classes: object
    own_b_classes: object
    min_classes: int
    max_n: int
    timeout_ms: int
    bound: object = None
    dropped: object = None
    invalid: dict = field(default=None)

    def __post_init__(self):
        c = self.c
        # an f below B's most private raw value (1 for a ratio, 0 for a distance) is not a valid level: a finding,
        # reported with a point
        if c.raw_f is not None and decide(c.region, sympy.Ge(c.raw_f, lowest_raw(c.b))) is not True:
            self.invalid = c.region.find_point(sympy.Lt(c.raw_f, lowest_raw(c.b)))

    def finish(self, verdict, **kw) -> ProofResult:
        res = ProofResult(verdict=verdict, seconds=round(time.perf_counter() - self.start, 3), **kw)
        if self.invalid:
            where = ", ".join(f"{'A raw level' if k == T else k} = {v}" for k, v in self.invalid.items())
            res.evidence += f"; finding: f is not a valid level (below {best_text(self.c.b)}) at {where}"
            res.details["invalid_f_at"] = {str(k): str(v) for k, v in self.invalid.items()}
        return res

    def composed_below(self, found):
        """``found``, or where it is an upper bound at B's own ceiling (or supremum) only, a composition through an
        intermediate below the ceiling somewhere (prover/arguments/composition.py), capped by the ceiling (method
        ``min``)."""
        c = self.c
        if found is None or found.tight or found.exact is not None:
            return found
        cap = ceiling_of(c, self.b_classes, c.region) or supremum_of(c, self.b_classes, c.region)
        if cap is None or decide(c.region, sympy.Ge(found.upper, cap.upper)) is not True:
            return found
        composed = composed_bound(c.a, c.b, c.a_params, c.b_params, c.region, c.N, self.a_classes, self.b_classes,
                                  beat=cap.upper)
        return found if composed is None else capped(composed, c, self.b_classes, c.region)

    def other_arguments(self):
        """Outside the direct arguments: a class-size floor, a chain of registered inequality lemmas (a verdict), or a
        bound from A's declared finite level or B's own ceiling (a :class:`Bound`, or None)."""
        c, a, b = self.c, self.c.a, self.c.b
        # B's level the smallest class's size, A's parameter a minimum class size (engines/class_floor.py)
        by_floor = class_size_floor(c, self.a_classes, self.b_classes)
        if by_floor is not None:
            return self.finish(**by_floor)
        by_lemmas = (lemma_verdict(a, b, c.region, c.raw_f, c.alpha, c.a_params, c.b_params)
                     or researcher_verdict(a, b, c.region, c.raw_f, c.alpha, c.a_params, c.b_params)
                     or divergence_family.refutation(a, b, c.a_params, c.b_params, self.b_classes)
                     or zcdp_family.refutation(a, b, c.a_params, c.b_params, self.b_classes)
                     or zcdp_lower_family.refutation(a, b, c.a_params, c.b_params))
        if by_lemmas is not None:
            return self.finish(**by_lemmas)
        # last: B's own ceiling on every table of N records (a one-sided level, a distance), whatever A is, over
        # the classes A allows (a parameter A declares a minimum class size)
        floor = class_floor(a, c.a_params, b, self.a_classes, self.b_classes)
        if floor is not None:
            self.a_classes = self.b_classes = {"min_size": floor}
        # A's level is another definition's where finite: that definition's bound (engines.bounds finite_level_chain)
        chain = None if floor is not None else finite_level_chain(a, b, c.b_params, c.region, c.N, self.a_classes,
                                                                  self.b_classes)
        bound = chain or ceiling_of(c, self.b_classes, c.region)
        if bound is not None and floor is not None:
            bound.argument += (f"; {a.name} declares its parameter {a.declared(MinClassSize).param} a minimum class size "
                               f"(its level "
                               f"is infinite on a table with a smaller class), so every table where it is finite "
                               f"has classes of >= {floor} records")
        # attained where a table satisfying A at every level reaches it
        if chain is None:
            bound = attained_ceiling(a, c.a_params, self.a_classes, self.b_classes, bound, c.N, floor) or bound
        return bound

    def _partitions(self, bound):
        """``(bound, note, one_class)``: where a side compares classes, which partitions the bound covers (a bound for
        partitions into >= 2 classes that a table of one class is outside is dropped: the search decides it)."""
        c, a, b = self.c, self.c.a, self.c.b
        classed = (a.needs_classes or b.needs_classes) and one_class_possible(self.a_classes, self.b_classes,
                                                                              c.region, c.N)
        if bound is None or not classed or bound.method in EVERY_TABLE_METHODS:
            return bound, "", False
        if bound.tight and reads_no_classes(bound, b):     # B's set ceiling, attained: whatever the partition
            return bound, ("; B compares no classes and the bound reads nothing of A: every partition into classes, "
                           "one class included"), False
        if self.min_classes >= 2:
            return bound, ("; for partitions into at least 2 classes (the assumption stated: a table of one class is "
                           "not covered)"), False
        if covers_one_class(b, c.b_params, bound, c.region, a, c.N):
            return bound, (f"; a table of one class (the class is the table) has {b.name} at its strongest level, at "
                           f"most U ({b.name}'s declared class level): every partition into classes, one class "
                           "included"), True
        self.dropped = bound
        return None, "", False

    def decided_by(self, bound):
        """The verdict from ``bound`` (None: it decides nothing; ``self.bound`` is then what is left of it)."""
        c = self.c
        bound, note, one_class = self._partitions(bound)
        self.bound = bound
        words = [f"{k} = {v}" for k, v in {**c.a_params, **c.b_params}.items() if isinstance(v, Word)]
        if bound is None and words:
            return self.finish("unknown", evidence=f"no argument for every N applies, and the bounded check takes no "
                                                   f"word parameter ({', '.join(words)})")
        if bound is None:
            return None
        proof = _Proof.of(self, bound, one_class)
        self.bound = proof.bound
        if proof.premises:
            # (a vacuous "proved" would state a tight f of no table)
            return self.finish("unknown", evidence=f"{proof.bound.method}: its premises {proof.premises} (where a table "
                                                   "of the kind the definitions compare exists) hold at no point of "
                                                   f"the condition: no such table satisfies {c.a.name} there, and there "
                                                   "is nothing to prove", method=proof.bound.method)
        return proof.verdict(self, note)

    def without_argument(self):
        """No argument decided the claim: a definitive non-implication at small N, a composition of two proved bounds,
        then the bounded check with the refuter."""
        c = self.c
        # first a definitive non-implication (A finite, B infinite) at small N
        if self.bound is None and not ((self.a_classes or {}).get("max_size") is not None):
            r0 = bounded_search(c.a, c.b, None, None, c.region, c.kinds, c.alpha, c.a_params, c.b_params,
                                self.a_classes, self.b_classes, min(self.max_n, 5), c.N, min(self.timeout_ms, 1000),
                                self.start, limit=12, min_classes=self.min_classes)
            if r0.verdict == "refuted":
                r0.evidence = ("no f can work: " + r0.evidence + " (A's level is finite, B's is infinite); "
                               "the implication fails for every f" + dropped_text(self.dropped))
                r0.tightness = "wrong"
                return r0
        # two proved bounds through an intermediate definition (engines/composition.py)
        if self.bound is None and self.dropped is None:
            composed = composed_bound(c.a, c.b, c.a_params, c.b_params, c.region, c.N, self.a_classes, self.b_classes)
            # (B's declared cap where N >= n0, as the direct argument removal-cap adds it to a direct bound)
            composed = capped_bound(c.b, c.b_params, c.region, c.N, composed)
            result = None if composed is None else self.decided_by(composed)
            if result is not None:
                return result
        r = bounded_search(c.a, c.b, c.fx, c.raw_f, c.region, c.kinds, c.alpha, c.a_params, c.b_params,
                           self.a_classes, self.b_classes, self.max_n, c.N, self.timeout_ms, self.start,
                           prior=self.bound, min_classes=self.min_classes)
        r.evidence += dropped_text(self.dropped) + rejected_note(c.a, c.b)
        return r


@dataclass
class _Proof:
    """A bound with its certificates: the bound (narrowed to where a table of one class attains it), the supremum
    where one is derived, the tight f, the details and the premises that hold nowhere on the condition."""

    bound: Bound
    supremum: object
    tight_f: object
    cert: dict
    details: dict
    premises: str
    is_vacuous: bool

    @classmethod
    def of(cls, run, bound, one_class):
        c = run.c
        args = (c.a, c.b, c.a_params, c.b_params, run.a_classes)
        details = {"method": bound.method, "checks": bound.checks, "U_raw": str(bound.upper)}
        supremum = bound if bound.tight else bound.exact      # the tight bound, where one is derived
        tight_f = c.to_level(supremum.upper) if supremum is not None else None
        if bound.exact is not None:
            details["supremum"] = {"method": bound.exact.method, "checks": bound.exact.checks,
                                   "U_raw": str(bound.exact.upper)}
        cert = certificate(*args, run.b_classes, c.region, c.N, bound)
        if one_class:
            cert = every_partition_certificate(cert)
            on_T = premises_on_T(cert, c.region)
            if on_T and supremum is not None:
                # beyond the premises (e.g. 2 T <= N: two classes of >= T records) only a table of one class satisfies
                # A, with B at its strongest: the supremum is attained where they hold only
                tighter = replace(supremum, attained_where=sympy.And(supremum.attained_where, *on_T))
                bound, supremum = (tighter, tighter) if supremum is bound else (bound, tighter)
        premises = premises_nowhere(cert, c.region)
        if premises:
            return cls(bound, supremum, tight_f, cert, details, premises, False)
        mark = every_partition_certificate if one_class else (lambda x: x)
        if bound.exact is not None:     # the supremum's own certificate (one per piece), beside the bound's
            details["certificates"] = [mark(certificate(*args, run.b_classes, c.region.add(where), c.N, part))
                                       for where, part in bound.exact.parts or [(sympy.true, bound.exact)]]
        # (only a tight f that is the ceiling is vacuous: an upper bound at the ceiling leaves the tight f open)
        found = None if supremum is None else (
            vacuous(c, supremum, run.own_b_classes, c.region)
            or vacuous(c, supremum, run.own_b_classes, c.region, own_of=supremum_of))   # (B's own supremum stage)
        if found is not None:
            text, own = found
            details["vacuous"] = text
            if own.method != bound.method:      # the ceiling's own certificate: every table of N records meets it
                details.setdefault("certificates", []).append(
                    mark(certificate(*args, run.own_b_classes, c.region, c.N, own)))
        if supremum is None:    # an upper bound only: the f it proves, in B's units
            details["proved_f"] = str(c.to_level(bound.upper))
            details["proved_f_tightness"] = "an upper bound; tightness not derived"
            at_ceiling = (vacuous(c, bound, run.own_b_classes, c.region)
                          or vacuous(c, bound, run.own_b_classes, c.region, own_of=supremum_of))
            if at_ceiling is not None:      # proved only where every table is: no edge until a smaller f is
                details["at_ceiling"] = at_ceiling[0].removeprefix("vacuous: ")
        return cls(bound, supremum, tight_f, cert, details, "", found is not None)

    def verdict(self, run, note):
        """The verdict of a claim with f (or the tight f of one without), or None where f is below U and no witness
        is found (the bounded check then decides)."""
        c, bound, supremum, details = run.c, self.bound, self.supremum, self.details
        if c.raw_f is None:
            details["certificate"] = self.cert
            if supremum is not None:
                note_attained(details, supremum, c)
            return run.finish("proved", evidence=f"{bound.method}: {bound.argument}; "
                                                 f"{buckets_text(supremum or bound, c)}{note}"
                                                 + (f"; {details['vacuous']}" if self.is_vacuous else ""),
                              tight=self.tight_f, tightness="tight" if supremum is not None else "not derived",
                              method=bound.method, details=details)
        # f >= U, or f >= the supremum proved beside a U that is not tight (its certificates are in details)
        if f_dominates(c, bound) or (supremum is not None and supremum is not bound and f_dominates(c, supremum)):
            details["certificate"] = self.cert
            ev, tightness = proof_evidence(c, bound, self.tight_f, details, run.a_classes, run.b_classes)
            return run.finish("proved", evidence=ev + note, tight=self.tight_f, tightness=tightness,
                              method=bound.method, details=details)
        if supremum is not None:
            # f < the tight bound somewhere: a witness at such a point
            wit = refute_at_gap(c.a, c.b, c.fx, c.raw_f, supremum, c.region, c.kinds, c.alpha, c.a_params,
                                c.b_params, run.a_classes, run.b_classes, run.max_n, c.N)
            if wit is not None:
                return run.finish("refuted", **gap_refutation(c, supremum, self.tight_f, wit), tightness="wrong",
                                  method=bound.method, details=details)
        return None
