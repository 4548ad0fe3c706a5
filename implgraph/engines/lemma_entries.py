"""The registered inequality lemmas (:mod:`implgraph.engines.lemmas`): one :class:`Lemma` entry each.

Each entry is data (pi-Base style): definitions A and B by name, B's level ``f`` as a formula in A's level,
the statement, the reference, and either a proof handler returning the argument's steps ``{step: bool}`` (from
the definitions' declared class levels, :mod:`implgraph.definitions.class_bounds`) or a citation only.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy

from implgraph import definitions
from implgraph.core.simplified import simplified
from implgraph.definitions.capabilities import ClassLevel
from implgraph.definitions.class_bounds import capped_steps, class_level_steps, support_steps

__all__ = ["Lemma", "LEMMAS"]


@dataclass(frozen=True)
class Lemma:
    """A(alpha) => B(f(alpha)) for every table with classes, by an inequality between their class levels.

    Attributes
    ----------
    name : str
        The lemma's short name, as evidence cites it.
    a, b : str
        Definition names (A's optimal level is the hypothesis, B's the conclusion).
    f : str
        B's level as a formula in A's level symbol (nondecreasing; checked by
        :func:`~implgraph.engines.lemmas.lemma_verdict`).
    statement : str
        The inequality, per class and per table, in words.
    reference : str
        Where the fact is stated (and proved) in the literature.
    proof : callable or None
        ``proof()`` returns ``{step: bool}`` (None: not applicable); the lemma is proved when every step holds.
    cited : bool
        True: no proof here, the lemma rests on ``reference`` (reported as "rests on a cited lemma").
    fact : str
        The class-level inequality as :mod:`implgraph.certify.lemma_chain` names it (the certificate's step);
        empty: the lemma gives no certificate.
    monotone_by_proof : bool
        True: the lemma's own proof steps show that f is nondecreasing (an f the solver cannot decide, e.g.
        a transcendental one); False: the solver decides it, ceilings as integers.
    family : str
        The tables that attain f: ``"uniform"`` (every record uniform over m buckets: tight where f equals
        the ceiling, read by :func:`~implgraph.engines.lemmas.tightness_of`) or ``"capped"`` (every record
        the capped distribution of :func:`implgraph.definitions.class_bounds.capped_steps`, attaining f at
        every level, as the lemma's own steps show).
    """

    name: str
    a: str
    b: str
    f: str
    statement: str
    reference: str
    proof: object = None
    cited: bool = False
    fact: str = ""          # the independent checker's name of the class-level inequality (certify.lemma_chain)
    monotone_by_proof: bool = False     # f nondecreasing by the proof's own steps (the solver cannot decide it)
    family: str = "uniform"     # the tables attaining f: "uniform" (over m buckets) or "capped" (see class_bounds)


def _entropy_at_least_min_entropy():
    """Steps of ``exp(H(q)) >= 1/max q`` for a class over any number of values, from the declared levels."""
    freq, ent = definitions.get("frequency-l-diversity"), definitions.get("entropy-l-diversity")
    from implgraph.definitions._classes import GenericClass
    cls = GenericClass()
    steps = {"frequency l-diversity's class level is 1/max q":
             simplified(sympy.sympify(freq.declared(ClassLevel).formula(cls)) - 1 / cls.top) == 0}
    steps.update(class_level_steps(ent) or {"entropy l-diversity declares its class level": False})
    return steps


def _support_at_least_entropy():
    """Steps of ``k >= exp(H(q))`` (Gibbs) for a class over ``k`` values, from the declared levels."""
    return support_steps(definitions.get("distinct-l-diversity"), definitions.get("entropy-l-diversity")) or {
        "both definitions declare their class levels": False}


def _capped_entropy():
    """Steps of ``exp(H(q)) >= g(1/max q)`` (the capped distribution) with g nondecreasing."""
    return capped_steps(definitions.get("frequency-l-diversity"), definitions.get("entropy-l-diversity")) or {
        "both definitions declare their class levels": False}


def _support_at_least_min_entropy():
    """Steps of ``k >= 1/max q`` for a class over ``k`` values: ``k max q - 1 = sum_i (max q - q_i) >= 0``."""
    from implgraph.definitions._classes import GenericClass
    cls = GenericClass()
    freq, dist = definitions.get("frequency-l-diversity"), definitions.get("distinct-l-diversity")
    count = sympy.sympify(dist.declared(ClassLevel).formula(cls))
    return {"frequency l-diversity's class level is 1/max q":
            simplified(sympy.sympify(freq.declared(ClassLevel).formula(cls)) - 1 / cls.top) == 0,
            "distinct l-diversity's class level is the number of values k (an integer)":
            simplified(count - cls.k) == 0 and count.is_integer is True,
            "k max q - sum_i q_i = sum_i (max q - q_i), each term >= 0 (sum_i q_i = 1)":
            simplified((cls.k * cls.top - sympy.Sum(cls.q[cls.i], (cls.i, 1, cls.k))
                        - sympy.Sum(cls.top - cls.q[cls.i], (cls.i, 1, cls.k))).doit()) == 0}


LEMMAS = (
    # f is g(l) of class_bounds.capped_entropy, written out (the lemma's steps check that it is that function)
    Lemma("entropy of the capped distribution", "frequency-l-diversity", "entropy-l-diversity",
          "l**(floor(l)/l)*(1 - floor(l)/l)**(-1 + floor(l)/l)",
          "per class exp(H(q)) >= g(1/max q), g(x) = x^(n/x) (1 - n/x)^(-(1 - n/x)) with n = floor(x): exp(H) of the "
          "capped distribution (n values at 1/x, one at 1 - n/x), the least entropy where every value is at most "
          "1/x; g is nondecreasing, so the minimum over classes of exp(H) is at least g of the minimum of 1/max q",
          "Shannon entropy is a sum of concave terms, so its minimum over the polytope {0 <= q_i <= 1/x, "
          "sum q_i = 1} is at a vertex (e.g. Boyd & Vandenberghe, Convex Optimization, 2004, sec. 4.2.2 for the "
          "vertex principle; A. W. Marshall, I. Olkin, B. C. Arnold, Inequalities: Theory of Majorization, 2nd ed., "
          "2011, 3.D: entropy is Schur-concave and the capped distribution majorizes every q in the polytope); "
          "proved here: concavity, the vertex's entropy and g's derivative by sympy",
          proof=_capped_entropy, fact="shannon>=capped", monotone_by_proof=True, family="capped"),
    Lemma("Shannon entropy >= min-entropy", "frequency-l-diversity", "entropy-l-diversity", "l",
          "per class exp(H(q)) >= 1/max q (H: Shannon entropy; log(1/max q): min-entropy), hence the minimum over "
          "classes of exp(H) is at least the minimum of 1/max q",
          "Renyi entropies are nonincreasing in their order, Shannon (order 1) >= min-entropy (order oo) (A. Renyi, "
          "On measures of entropy and information, 4th Berkeley Symposium, 1961; e.g. C. Cachin, Entropy measures "
          "and unconditional security in cryptography, PhD thesis, ETH Zurich, 1997); proved here: a weighted "
          "geometric mean of the q_i is at most their maximum",
          proof=_entropy_at_least_min_entropy, fact="shannon>=min-entropy"),
    Lemma("entropy <= log of the support size", "entropy-l-diversity", "distinct-l-diversity", "ceiling(l)",
          "per class exp(H(q)) <= |support of q| (the number of values with positive frequency), hence the "
          "minimum over classes of the support size, an integer, is at least the ceiling of the minimum of exp(H)",
          "Cover & Thomas, Elements of Information Theory, 2nd ed. (2006), Theorem 2.6.4 (H(X) <= log |X|); "
          "proved here from Gibbs' inequality, x log x - x + 1 >= 0",
          proof=_support_at_least_entropy, fact="support>=shannon"),
    Lemma("support >= 1/max q", "frequency-l-diversity", "distinct-l-diversity", "ceiling(l)",
          "per class the number k of values with positive frequency has 1 = sum q_i <= k max q, so k >= 1/max q, and "
          "k, an integer, is at least its ceiling; hence the minimum over classes",
          "elementary: a sum of k values, each at most their maximum (the pigeonhole bound)",
          proof=_support_at_least_min_entropy, fact="support>=min-entropy"),
)
