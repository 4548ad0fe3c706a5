"""What an argument of the prover answers: a :class:`Bound`, or :data:`NO_BOUND`, or None.

A handler of :mod:`implgraph.prover.registry` returns

- a :class:`Bound` (an upper bound U of B's raw level given A's raw level <= T, for every N): the search ends with it;
- :data:`NO_BOUND`: the case is the argument's, but a step of it was not confirmed (a solver's unknown): the search
  ends without a bound (a later argument is not tried on a case an earlier one claims);
- None: not the argument's case; the search goes on.

Examples
--------
>>> final(None) is NO_BOUND
True
"""

from __future__ import annotations

from dataclasses import dataclass, field

import sympy

from implgraph.core.verdict import VerdictWord

__all__ = ["ANY_BUCKETS", "BINARY_EXTREMAL", "Bound", "NO_BOUND", "ProofResult", "T", "final"]

#: what every argument says of the number of buckets (each step bounds one bucket's values at a time)
ANY_BUCKETS = "every step bounds one bucket's values at a time, so the bound holds for any number of buckets"
#: ... and of a tight one's attaining table
BINARY_EXTREMAL = "the attaining table is binary, so two buckets are extremal"

#: A's raw level (t, or e^eps)
T = sympy.Symbol("T", positive=True)


@dataclass
class Bound:
    """An upper bound U(T, params) of B's raw level given A's raw level <= T."""

    upper: sympy.Expr
    tight: bool
    method: str
    argument: str
    build: object = None            # point -> ConcreteTable reaching U (or None)
    checks: list = field(default_factory=list)
    exact: "Bound | None" = None    # a smaller upper bound that is the supremum (when ``upper`` is not)
    #: a Piecewise ``upper`` proved piece by piece: ``[(condition, Bound)]``, the conditions covering the claim's
    #: (each piece has its own certificate, on the claim's condition and the piece's)
    parts: list = field(default_factory=list)
    #: the number of buckets of the attaining table of a tight bound, in T (None: two, :data:`BINARY_EXTREMAL`)
    buckets: object = None
    #: the condition on T where a tight bound's attaining table exists (elsewhere tightness is not derived)
    attained_where: object = sympy.true
    #: the intermediate of a ``composition`` (its parts: A => via, via => B): its definition, parameters and classes
    via: object = None
    #: the tight bound is a supremum approached by a family of tables (its ``buckets`` theirs), not attained
    approached: bool = False
    #: the same bound without B's declared cap from N >= n0 records on (``removal-cap``), valid on the whole condition:
    #: what a composition takes as its part (a part is one bound, not pieces)
    uncapped: "Bound | None" = None


class _NoBound:
    """The case is the argument's and it found no bound: the search ends without one."""

    def __repr__(self):
        return "NO_BOUND"

    def __bool__(self):
        return False


NO_BOUND = _NoBound()


def final(bound):
    """``bound``, or :data:`NO_BOUND` where it is None: the answer of an argument whose case it is."""
    return NO_BOUND if bound is None else bound


@dataclass
class ProofResult(VerdictWord):
    """Verdict-like outcome of :func:`implgraph.engines.prove.check_implication`."""

    verdict: str
    evidence: str = ""
    tight: sympy.Expr | None = None         # B's tight level as a function of A's level
    tightness: str | None = None            # tight | loose | wrong | not derived
    bound: str | None = None
    witness: dict | None = None
    method: str | None = None
    seconds: float = 0.0
    details: dict = field(default_factory=dict)

    @property
    def tight_str(self):
        return None if self.tight is None else str(self.tight)

    @property
    def upper_f(self):
        """``(f, how)``: where no tight f is derived, the f proved for every N (a lemma chain's, or an upper
        bound's, in B's units) and what is known of its tightness; None otherwise."""
        d = self.details or {}
        f = d.get("lemma_f") or d.get("proved_f")
        if self.tight is not None or f is None:
            return None
        return f, d.get("lemma_tightness") or d.get("proved_f_tightness") or self.tightness
