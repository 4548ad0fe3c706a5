"""The verdict of one direction A => B: :class:`DirectionResult`.

:func:`implgraph.engines.direction.check_direction` returns it; ``status`` and ``strength`` come from
:mod:`implgraph.core.verdict`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from implgraph.core.verdict import VerdictWord, math_html

__all__ = ["DirectionResult"]


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
