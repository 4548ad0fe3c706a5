"""The proof methods' names: one small data module that the prover, the certificate builder and the independent
checker (:mod:`implgraph.certify`) all import, so that a method's name is written once.

A :class:`Method` names a proof argument (the certificate's ``method``), the lemma of the checker it cites (the
certificate's ``lemma``, one module of :mod:`implgraph.certify.lemmas` per lemma) and the page of the docs that
proves it in prose (``docs/arguments/<doc>.md``). The prover registers one handler per method
(:mod:`implgraph.prover`), the checker one lemma per method; neither knows the other.

Examples
--------
>>> from implgraph.core import methods
>>> methods.VERTEX.name, methods.VERTEX.lemma
('vertex', 'linear-fractional-vertex')
>>> methods.get("vertex") is methods.VERTEX
True
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Method", "ALL", "get", "names", "ALGORITHM_1_READING"]


@dataclass(frozen=True)
class Method:
    """A proof method: its certificate ``name``, the checker's ``lemma`` and a one-line ``summary``."""

    name: str
    lemma: str
    summary: str

    @property
    def doc(self) -> str:
        """The docs page proving it in prose: ``docs/arguments/<name>.md``."""
        return f"arguments/{self.name}.md"


ALL: dict[str, Method] = {}


def _m(name: str, lemma: str | None, summary: str) -> Method:
    method = Method(name, lemma or name, summary)
    ALL[name] = method
    return method


# -- bounds between two levels (the prover's arguments) --------------------------------------------------------------
SAME_LEVEL = _m("same-level", None, "B's raw level is A's on every table")
SUBSET_MONOTONE = _m("subset-monotone", "extreme-means-monotone",
                     "the mean of the j extreme values is monotone in j")
SUBSET_SUPREMUM = _m("subset-supremum", "extreme-means-supremum", "the tight f of the subset-monotone case")
SUBSET_TO_CLASSES = _m("subset-to-classes", "class-mean-between-extremes",
                       "a class mean lies between the means of its size's extreme values")
CLASS_TO_SUBSET = _m("class-to-subset", "class-mass", "a removal bounded by the mass of the classes")
ONE_SIDED_CEILING = _m("one-sided-ceiling", "set-mass", "a set holds at most the whole table's mass")
ONE_SIDED_CLASS = _m("one-sided-class", "rest-mass", "the other classes bound a class from below")
SUBSET_TO_ONE_SIDED = _m("subset-to-one-sided", "max-value", "a class mean is at most the bucket's largest value")
CLASS_DISTANCE = _m("class-distance", None, "a class's total variation distance under a two-sided class ratio")
PAIRWISE_DISTANCE = _m("pairwise-distance", None, "a class's total variation distance under pairwise ratios")
SAME_DISTANCE = _m("same-distance", None, "two definitions declaring the same class distance")
ONE_SIDED_DISTANCE = _m("one-sided-distance", None, "a class's distance under a one-sided class ratio")
REMOVAL_DISTANCE = _m("removal-distance", None, "a class's distance under record removal")
REMOVAL_DISTANCE_PAIR = _m("removal-distance-pair", None, "the two-record piece of removal-distance")
SUBSET_DISTANCE = _m("subset-distance", None, "a class's distance under a subset ratio of size j")
SLACK_PAIRWISE_DISTANCE = _m("slack-pairwise-distance", None, "a class's distance under an additive slack on pairs")
SLACK_REMOVAL_DISTANCE = _m("slack-removal-distance", None, "a class's distance under an additive slack on removal")
SLACK_REMOVAL_DISTANCE_PAIR = _m("slack-removal-distance-pair", None,
                                 "the two-record piece of slack-removal-distance")
SLACK_TARGET_PAIRS = _m("slack-target-pairs", None, "an additive slack between two records as the target")
SLACK_TARGET_REMOVAL = _m("slack-target-removal", None,
                          "an additive slack on record removal as the target, under a ratio bound on record removal")
SLACK_PAIRS_TO_REMOVAL = _m("slack-pairs-to-removal", "slack-averaging",
                            "an additive slack between any two records bounds the one of record removal")
DISTANCE_CEILING = _m("distance-ceiling", "distance-mass", "a class of >= s records is at most (N - s)/N away")
CLASS_SIZE = _m("class-size", None, "A's level is the smallest class's size")
CLASS_SIZE_FLOOR = _m("class-size-floor", None, "A's declared minimum class size bounds B's class-size level")
FINITE_LEVEL_OF = _m("finite-level-of", "declared-finite-level", "A's level is B's wherever it is finite")
VERTEX = _m("vertex", "linear-fractional-vertex", "a max of linear-fractional functions is largest at a vertex")
EXTREME_POINTS = _m("extreme-points", "quasi-convex-extreme-points",
                    "a max of linear-fractional requirements over a symmetric polytope, at a vertex of two blocks")
EXTREME_POINTS_PIECES = _m("extreme-points-pieces", None, "extreme-points piece by piece: the pieces cover the condition")
PRODUCT = _m("product", "extremes-and-mean", "extremes and the mean of a bucket")
MIN = _m("min", None, "the smaller of two proved bounds")
REMOVAL_CAP = _m("removal-cap", None, "every table of N >= 1/delta records is at B's strongest level (P - Q_i = "
                 "(x_i - Q_i)/N); another argument's bound below")
CHAIN = _m("chain", None, "a declared finite level, then that definition's bound")
COMPOSITION = _m("composition", None, "A => C with h and C => B at every threshold t (with g(t)) give A => B with g(h)")
INEQUALITY_LEMMAS = _m("inequality-lemmas", None, "a chain of registered inequalities between class levels")
CHORD = _m("chord", None, "an f-divergence of ratios confined to [lo, hi] is at most the chord of its convex generator")
CORNERS = _m("corners", None, "two records each within [1/T, T] of the table: an f-divergence between them at most its "
             "perspective's value at three corners of the box [1/T, T]^2")
SUBSET_CHORD = _m("subset-chord", None, "every j records' mean within [1/T, T] of the table: a record's ratio range, and "
                  "a class's divergence from the table at most the chord of phi over it")
SUBSET_CORNERS = _m("subset-corners", None, "every j records' mean within [1/T, T] of the table: each record in "
                    "[lo, hi] of it, a hockey stick between two records at most (hi - gamma lo)^+ "
                    "min(1 - lo, hi - 1)/(hi - lo)")
SUBSET_PAIRS = _m("subset-pairs", None, "two records are j times the difference of two subset means sharing j - 1 "
                  "others: their total variation at most j (1 - 1/T)")
ONE_SIDED_PAIRS = _m("one-sided-pairs", None, "two records are j times the difference of two subset means sharing "
                     "j - 1 others, each mean at most T times the table's: their total variation at most j (T - 1)")
ONE_SIDED_REMOVAL = _m("one-sided-removal", None, "each record at most T times the table, the others at least "
                       "1 - T (1 - P) on every event: the total variation on record removal at most "
                       "min((T - 1)/N, (T - 1)/(T (N - 1)))")
SLACK_PAIRS_TV = _m("slack-pairs-tv", None, "an (eps, delta) level between two records or on record removal bounds the "
                    "total variation between two records")
SLACK_HOCKEY_STICK = _m("slack-hockey-stick", None, "an (eps, delta) level between two records bounds the hockey-stick "
                        "slack at a gamma >= 1 between two records, and at a gamma >= 2 on record removal (KOV 2015)")
DIVERGENCE_ORDER = _m("divergence-order", None, "cited orderings of divergences: Renyi monotone in its order, Pinsker")
DIVERGENCE_FAMILY = _m("divergence-family", None, "a witness family: a bounded divergence between records, an unbounded "
                       "ratio")
BINARY_PROGRAM = _m("binary-program", None, "a divergence obeying data processing bounds the (eps, delta) slack "
                   "through binary pairs: the optimum of the two-bucket program, certified")
CHI_SQUARE_TV = _m("chi-square-tv", None, "a Renyi level of order 2 (chi^2 <= e^T - 1) bounds the total variation: "
                   "between records sqrt(c/(c + 4)), on record removal that over N, a class from the table min(h(c), "
                   "(N - 1)/N)")
TV_DISTANCE = _m("tv-distance", None, "a divergence bounds a pair's total variation (exactly, or by Pinsker); a class's "
                 "total variation distance from the table follows")
DIVERGENCE_CEILING = _m("divergence-ceiling", None, "a class divergence is at most log(N/s): a class of s records holds "
                        "at most the table's mass")
RESEARCHER_LEMMA = _m("researcher-lemma", None, "a lemma a researcher registered, its certificate re-checked, chained "
                      "with the built-in lemmas")
CEILING_FAMILY = _m("ceiling-family", None, "B's own ceiling is its supremum under A: a witness family satisfying A "
                    "reaches it or tends to it")
CEILING_CHORD = _m("ceiling-chord", None, "a class's total variation distance from the table, its ratios at most N: "
                   "KL and Renyi-2 closeness at most the chord")
WEAKEST_FAMILY = _m("weakest-family", None, "B's weakest level is the tight f: a family meeting A at every level has B "
                    "at its weakest")
TOP_CAP = _m("top-cap", None, "A caps every class's top frequency: B's class level of the distribution at least its "
             "value at the cap, attained by one class of capped rows")
SKEW_FAMILY = _m("skew-family", None, "B's weakest level is the tight f, approached by skewed classes meeting A and not "
                 "attained beyond A's weakest")
ATTAINED_FAMILY = _m("attained-family", None, "a proved upper bound is the tight f: a family of tables, read from the "
                     "sides' declarations, meets A at T and has B exactly at the bound")
FLOOR_LEVEL = _m("floor-level", None, "a class floor above the weakest level and the level it is there: B's tight f "
                 "from A's declarations")
WEAKEST_LEVEL = _m("weakest-level", None, "the target is B's weakest level, met by every table")
ONE_CLASS = _m("one-class", None, "a table of one class: the class is the table")

# -- claims other than a bound between two levels ---------------------------------------------------------------------
INTRUDER_VIEWS = _m("intruder-views", None, "the intruder's views under stated assumptions")
SET_CHANNEL_DIVERSITY = _m("set-channel-diversity", None, "sei2019's set channel: diversity of a release")
SET_CHANNEL_WHOLE_DOMAIN = _m("set-channel-whole-domain", None, "sei2019's set channel releasing the whole domain")
SET_CHANNEL_CLOSENESS = _m("set-channel-closeness", None, "sei2019's set channel: closeness of a release")
#: the reading of Algorithm 1 a set-channel closeness certificate states (its ``channel.reading``), which the
#: checker's lemma requires: data both sides import, the checker independent of the prover
ALGORITHM_1_READING = "the smallest p over the subsets Z"
TRANSPORT_MIXTURE = _m("transport-mixture", None, "the EMD to a mixture is at most the mixture of the EMDs")


def get(name: str) -> Method:
    """The method called ``name`` (KeyError for a name no module declares)."""
    return ALL[name]


def names() -> list[str]:
    """Every declared method's name."""
    return list(ALL)
REMOVAL_SCALING = _m("removal-scaling", None, "a removal's total variation or hockey-stick is 1/N of the removed "
                     "record's from the rest, tight")
ZCDP_FAMILY = _m("zcdp-family", None, "a witness family: a bounded zero-concentrated level between records or on "
                 "record removal (its Gaussian tail: b = 2^(-j^2 - 2 j)), an unbounded ratio")
ZCDP_LOWER_FAMILY = _m("zcdp-lower-family", None, "a witness family: a bounded KL or Renyi (order <= 2) divergence "
                       "between records, an unbounded zero-concentrated level between records or on record removal "
                       "(at least D_n/n)")
ZCDP_CHORD = _m("zcdp-chord", None, "a pairwise ratio level T bounds the zero-concentrated level between records by "
                "ln T (T - 1)/(T + 1) (the chord of r^alpha and the tanh lemma), attained by randomized response; on "
                "record removal a ratio level confining Q_i/P to [1/R, R] bounds it by ln R (R - 1)/(R + 1), an upper "
                "bound")
