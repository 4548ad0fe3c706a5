"""The checker's lemmas: what each argument of a certificate must establish, as polynomial obligations.

The checker trusts these few textbook facts about ratio-of-averages levels (stated here with their
proofs) and nothing the prover computed:

``same-level``
    Two identical descriptions (family, sides, subset size, distance; for classes the same class sizes:
    the classes are the table's one partition) have the same level on every table. Only a description
    that fixes a level counts: one with declared sides (a ratio of averages) or a declared distance.
``extreme-means-monotone``
    In one bucket the mean of the j smallest values is nondecreasing in j and the mean of the j
    largest nonincreasing (adding the next value moves the mean towards it), so a two-sided subset
    level with size j_B >= j_A is at most the one with size j_A.
``class-mean-between-extremes``
    A class of s records has its mean between the means of the s smallest and the s largest
    values, hence (s >= j) between the j-extreme means: a two-sided class level with classes of at
    least s >= j records is at most the subset level of size j.
``linear-fractional-vertex``
    Under a pairwise level T every bucket's values lie in a box [a, T a]; each ratio of B is
    ``mean_S / mean_D`` or its inverse, linear-fractional in the bucket's values, so its maximum over
    the box is at a vertex: values a or T a. Ratios are scale free (a = 1); a vertex is described by
    how many high values S (or class E) holds and how many the rest holds (``u``, ``m``/``v``, relaxed
    to reals: a larger set, so a proof there is a proof).
``extremes-and-mean``
    Under a two-sided subset level T of size 1 (or singleton classes), a bucket with minimum a,
    maximum b and mean m has b <= T m and m <= T a; with one value at a, one at b and N - 2 between,
    b + (N-1) a <= N m <= a + (N-1) b. B's pairwise ratio of the bucket is b/a.
``extreme-means-supremum`` (method ``subset-supremum``)
    The tight bound of two two-sided subset levels, sizes j_A <= j_B: with an integer q
    (``upper_certificate["q"]``, a polynomial or a ``Min`` of polynomials, each with integer
    coefficients in integer symbols: checked) and D = N - (N - q) T,
    ``U = Min(T, 1/Max(1 - (N/q - 1)*(T - 1), 1/T))`` (checked as that text; q is read once, and
    1 - (N/q - 1)(T - 1) = D/q). Premises, per bucket with mean m and
    low_j / high_j the means of its j smallest / largest values (sizes in 1..N-1, integers):
    (P1) j -> low_j is nondecreasing and j -> high_j nonincreasing (as in
    ``extreme-means-monotone``); (P2) N m = j low_j + (N - j) high_{N-j} for 0 <= j <= N; (P3) A's
    level <= T gives low_{j_A} >= m/T and high_{j_A} <= T m. Obligations, in each case of q's
    ``Min`` (q_ the component that is the smallest): q >= 1, j_B - q >= 0, N - q - j_A >= 0,
    j_B - j_A >= 0, T > 0 and three identities with multipliers >= 0 (the equation (P2) enters
    as the one inequality it implies):
    *lower* ``q a - m D = 1 (q a + (N-q) b - N m) + lambda (T m - b)`` (a = low_q, b = high_{N-q}:
    (P2) with j = q, b <= high_{j_A} <= T m by (P1, P3)), so m/low_{j_B} <= m/low_q <= q/D where
    D > 0; *upper* ``m (N T - (N-q)) - q T b = T (N m - q b - (N-q) a) + lambda (T a - m)``
    (a = low_{N-q} >= low_{j_A} >= m/T, b = high_q >= high_{j_B}), so high_{j_B}/m <= (N T -
    (N-q))/(q T); *gap* ``q^2 T - (N T - (N-q)) D = lambda (T - 1)^2``, so that ratio is <= q/D
    where D > 0. With j_B >= j_A (P1 gives B <= T): where D/q >= 1/T, D > 0 and U = Min(T, q/D) >= B;
    where D/q < 1/T, 1/Max(D/q, 1/T) = T and U = T >= B.
``class-mass`` (method ``class-to-subset``, docs/proofs/class-to-subset.md)
    A two-sided class level <= T with >= 2 classes of >= s records (``A["min_class"]``, no
    ``max_class``; a partition exists only where s >= 1 and N - 2 s >= 0, premises of every
    obligation) bounds the two-sided subset level of size N - 1 by ``U = (N - 1) T / s`` (checked as
    a quotient). Per bucket with mean m = 1 (ratios are scale free): a set of N - 1 records misses
    one record r of a class E of e records; r's value is at most E's sum, and the other classes hold
    N - e >= s records with means >= 1/T, so the N - 1 values sum to L with T L >= N - e. *lower*
    ``T L - s >= 0`` (multipliers on ``T*L >= N - e`` and ``N - e - s >= 0``): m / mean_S =
    (N - 1)/L <= U. The other ratio is mean_S / m <= N / (N - 1) (a value >= 0 dropped): *upper*
    ``(N - 1)^2 T - N s >= 0`` where N >= 4 (multipliers on ``T - 1 >= 0``, ``N - 2s >= 0`` and
    ``1``) and where N = 3 (then s = 1: s is an integer, checked, with 1 <= s <= 3/2); where N = 2
    the two classes are single records and S is the other one, a class, so mean_S / m <= T:
    *pair* ``(N - 1 - s) T >= 0`` (multipliers on ``N - 2s >= 0`` and ``N - 2 == 0``), U >= T.

``rest-mass`` (method ``one-sided-class``)
    A a two-sided class level <= T, B a one-sided class level, on the same partition into >= 2 classes
    of >= s records (``A["min_class"] == B["min_class"]``, no ``max_class``; s >= 1, 2 s <= N):
    ``U = Min(T, (N T - N + s)/(s T))`` (checked component by component; U may be one component alone). Per bucket with the table's
    mean p = 1 (scale free; a bucket 0 everywhere has ratio 1 <= U, checked), a class E of e records
    (s <= e <= N - s) has mean x with e x = N - (N - e) y, y the mean of the other records: each of
    their classes has mean >= 1/T by A, so T y >= 1, and A bounds E's ratio, x <= T. *below T*
    ``T e - (N - (N - e) y) >= 0`` is that premise; *rest* ``(N T - N + s) e - s T (N - (N - e) y) >= 0``
    (multipliers N (T - 1) on ``e - s >= 0`` and s (N - e) on ``T*y - 1 >= 0``).
``one-sided-distance`` (method ``one-sided-distance``)
    A a one-sided class level <= T, B the total variation distance of a class's distribution from the table's
    (``B["distance"] == "total-variation"``), on the same partition into >= 2 classes of >= s records (one
    ``min_class``, no ``max_class``; s >= 1, 2 s <= N): ``U = Min((N - s)(T - 1)/N, (T - 1)/T, (N - s)/N)``
    (any of its components, in any order: each is an upper bound by its own obligation). For a class E of e
    records (s <= e <= N - s), the buckets S where E lies above the table, E's mass x and the table's P on S
    (``b_``, ``a_``): A gives x <= T P on S (a mediant of one-sided ratios) and, for the other classes on the
    complement, (T - 1)(N - e)(1 - P) - e (x - P) >= 0; the other records' mass is N P - e x >= 0.
    *near* ``(T - 1) - T (x - P) >= 0`` (multipliers 1, T - 1 on ``T P - x`` and ``1 - x``), *spread*
    ``(N - s)(T - 1) - N (x - P) >= 0`` (N - e, 1, T - 1 on ``T P - x``, the complement and ``e - s``), *mass*
    ``(N - s) - N (x - P) >= 0`` (1, N - e, 1 on ``N P - e x``, ``1 - x`` and ``e - s``).
``same-distance`` (method ``same-distance``)
    A and B class levels of one declared class distance, the total variation distance
    (``A["distance"] == B["distance"] == "total-variation"``, each the
    registered definition's at its parameters), on the same partition into >= 2 classes of >= s records
    (one ``min_class``, no ``max_class``; s >= 1, 2 s <= N): the raw levels are one function of the table,
    so B <= T. ``U = Min(T, (N - s)/N)`` (checked component by component; U may be one alone). For a
    class E of e records (s <= e <= N - s), the buckets S where E lies above the table, E's mass x and the
    table's P on S (``b_``, ``a_``): the other records' mass on S is N P - e x >= 0. *mass*
    ``(N - s) - N (x - P) >= 0`` (multipliers 1, N - e and 1 on that, ``1 - x >= 0`` and ``e - s >= 0``).
``class-distance`` (method ``class-distance``)
    A a two-sided class level <= T, B the total variation distance of a class's distribution from the
    table's (``B["distance"] == "total-variation"``), on the same partition into >= 2 classes of >= s
    records (one ``min_class``, no ``max_class``; s >= 1, 2 s <= N):
    ``U = Min((T - 1)/(T + 1), (N - s)(T - 1)/(N T))`` (checked component by component; U may be one
    component alone). For a class E of e records (s <= e <= N - s) let S be the buckets where E's
    distribution lies above the table's, x = E's mass on S and P = the table's (``b_`` and ``a_``,
    both in [0, 1]): B's distance for E is x - P. A ratio of sums of numbers each within [1/T, T] of
    its partner lies within [1/T, T] (a mediant), so A gives x <= T P (S), T (1 - x) >= 1 - P (the
    complement of S) and, for every other class, a mass on S >= P/T; those classes hold the other
    N - e records, so T (N P - e x) >= (N - e) P. *near* ``(T - 1) - (T + 1)(x - P) >= 0``
    (multipliers 1 and 1 on the first two premises), *far* ``(N - s)(T - 1) - N T (x - P) >= 0``
    (multipliers 1 on the third, N - e on the second and T - 1 on ``e - s >= 0``). Each component is
    >= 0 (a distance is >= 0).
``pairwise-distance`` (method ``pairwise-distance``)
    A a pairwise level <= T, B the total variation distance of a class's distribution from the table's
    (``B["distance"] == "total-variation"``) over classes of >= s records (``B["min_class"]``, no
    ``max_class``; s >= 1, 2 s <= N): ``U = (N - s)(T - 1)/(N (T + 1))`` (checked as a quotient). For a
    class E of e records (s <= e <= N - s) and the buckets S where E lies above the table, let X and Y
    (``b_`` and ``a_``, in [0, 1]) be the means on S of E's records and of the other records: the
    table's mass on S is P = (e X + (N - e) Y)/N, so B's distance for E is X - P = (N - e)(X - Y)/N.
    Each record of E and each other record are within ratio T on S and on its complement (A's bucket
    ratios, a mediant), and averaging over the pairs gives X <= T Y and T (1 - X) >= 1 - Y. *pairs*
    ``(N - s)(T - 1) - (T + 1)(N - e)(X - Y) >= 0`` (multipliers N - e, N - e and T - 1 on those two
    and ``e - s >= 0``), i.e. N (T + 1)(U - (X - P)) >= 0. U >= 0.
``removal-distance`` (method ``removal-distance``)
    A a two-sided subset level <= T of size j (``A["size"]``; the domain gives 1 <= j <= N - 1; j = N - 1 is
    record removal), B the total variation
    distance of a class's distribution from the table's (``B["distance"] == "total-variation"``) over any
    classes (``min_class`` 1, no ``max_class``): ``U = Min((N - 1)(T - 1)/(T + 1), (N - 1)(T - 1)/(N T - N + 1))``
    (checked component by component, in either order; U may be one alone). For a class E and the buckets S
    where E lies above the table, E's mass on S is at most the largest record's, M (``b_``, in [0, 1]), so B's
    distance for E is at most M - P, P the table's mass (``a_``). The N - 1 other records form a set A bounds (a
    set of >= j records has its mean between the means of the j smallest and of the j largest values):
    their mean on S, (N P - M)/(N - 1), is >= P/T, and on the complement, (N (1 - P) - (1 - M))/(N - 1), is
    <= T (1 - P) (each a mediant of A's bucket ratios). *near* ``(N - 1)(T - 1) - (T + 1)(M - P) >= 0``
    (multipliers 1 and 1 on the two), *far* ``(N - 1)(T - 1) - (N T - N + 1)(M - P) >= 0`` (multipliers 1 on
    the first and (N - 1)(T - 1) on ``1 - M >= 0``). Both denominators are > 0 and U >= 0 where T >= 1.
``removal-distance-pair`` (method ``removal-distance-pair``)
    As ``removal-distance`` (A a two-sided subset level <= T of size j, B a class's total variation distance over
    any classes), on a domain where N = 2, so j = 1: ``U = (T - 1)/(2 T)`` (checked as a quotient). The classes
    are the two records (one class of both is the table, at distance 0). For the class of record x1 and the
    buckets S where it lies above the table, x1 (``b_``) its mass, P (``a_``) the table's and x2 = 2 P - x1 the
    other record's: A bounds each record against the table, so T x2 >= P on S and T (1 - x1) >= 1 - P on the
    complement (a mediant). *pair* ``(T - 1) - 2 T (x1 - P) >= 0`` (multipliers 1 and 1 on the two), i.e.
    2 T (U - (x1 - P)) >= 0. U >= 0 where T >= 1.
``subset-distance`` (method ``subset-distance``)
    A a two-sided subset level <= T of size j (``A["size"]``; the domain gives 1 <= j <= N - 1), B the total variation
    distance of a class's distribution from the table's over any classes. Merging the buckets S where a class lies
    above the table keeps A's ratios <= T (a mediant); the class's mass on S is at most the largest record's, M
    (``b_``), and B's distance for the class at most M - P = (N - 1)(M - y)/N, with y (``a_``) the mean of the other
    N - 1 records and P the table's mass. The j largest values have mean H >= (M + (j - 1) y)/j and the j smallest
    L <= y (``extreme-means-monotone``: j <= N - 1), so A's H <= T P and L >= P/T on S and 1 - L <= T (1 - P),
    1 - H >= (1 - P)/T on the complement, and M <= 1, give, scaled by N j, the *lower* facts
    ``j (N (T - 1) y - (M - y)) >= 0`` (a = 1/N) and ``N j (T - 1) y - (N - T j)(M - y) >= 0`` (a = 1/j - T/N) and the
    *upper* facts ``j (N (T - 1)(1 - y) - T (M - y)) >= 0`` (b = T/N), ``N j (T - 1)(1 - y) - (N T - j)(M - y) >= 0``
    (b = T/j - 1/N) and ``N j (T - 1)(1 - M) >= 0`` (b = T - 1). For each pair (a, b): ``N j (T - 1) - N j (a + b)(M - y)
    >= 0`` (multipliers 1 and 1), with N j (a + b) > 0, so M - P <= (N - 1)(T - 1)/(N (a + b)). ``U`` is the Min of
    some of the six (checked as quotients); each is >= 0.
``slack-pairwise-distance`` (method ``slack-pairwise-distance``)
    As ``pairwise-distance`` with A's constraints ``a <= T b + delta`` between two records on every event (``A["slack"]``,
    ``compares == "pairs"``, delta a number in [0, 1)): averaging over the pairs, X <= T Y + delta on S and
    1 - Y <= T (1 - X) + delta on its complement. ``U = (N - s)(T - 1 + 2 delta)/(N (T + 1))``. *pairs*
    ``(N - s)(T - 1 + 2 delta) - (T + 1)(N - e)(X - Y) >= 0`` (multipliers N - e, N - e and T - 1 + 2 delta).
``slack-target-pairs`` (method ``slack-target-pairs``)
    A a two-sided pairwise ratio level <= T (every ordered pair of records, every bucket), B comparing two records with
    an additive slack (``B["slack"]``, ``compares == "pairs"``, delta a number in (0, 1)): B's raw level is the least
    e^eps >= 1 with x <= e^eps y + delta for the masses x, y of two records on every event. Summing A over the event's
    buckets, h1 = T y - x >= 0, and over the complement's, h2 = T (1 - x) - (1 - y) >= 0. ``U`` is one of: ``T``
    (*ratio* ``T y - x + delta >= 0``, multipliers 1 on h1 and on delta >= 0); ``1`` where the domain gives
    (1 + delta) - (1 - delta) T >= 0 (*flat* ``(T + 1)(y - x + delta) >= 0``, multipliers 1 on h1, h2 and that
    condition; T + 1 > 0); ``(1 - delta) T - delta`` where the domain gives (1 - delta) T - 1 - delta >= 0 (*slope*
    ``(T - 1)(U y - x + delta) >= 0``, multipliers T - 1 - delta T on h1 and delta on h2, each >= 0 on the domain;
    T - 1 > 0). In each case ``U >= 1`` on the domain, so e^eps = U meets every constraint.
``slack-removal-distance`` (method ``slack-removal-distance``)
    As ``removal-distance`` with A's constraints ``a <= T b + delta`` between the table and the table without one record,
    both ways, on every event (``A["slack"]``, ``compares == "removal"``, delta in [0, 1)), B a class's total variation
    distance over any classes: without the record of the largest mass M on S, T (N P - M) >= (N - 1)(P - delta) on S
    and (N - 1) T (1 - P) + (N - 1) delta >= N (1 - P) - (1 - M) on the complement.
    ``U = Min((N - 1)(T - 1 + delta)/(N T - N + 1), (N - 1)(T - 1 + 2 delta)/(T + 1), (N - 1)/N)`` (any of the three
    components, or the Min of several). *near* ``(N - 1)(T - 1 + 2 delta) - (T + 1)(M - P) >= 0`` (multipliers 1, 1),
    *far* ``(N - 1)(T - 1 + delta) - (N T - N + 1)(M - P) >= 0`` (1 on the first, (N - 1)(T - 1) on 1 - M >= 0),
    *mass* ``(N - 1) - N (M - P) >= 0`` (1 on the other records' mass N P - M >= 0, N - 1 on 1 - M >= 0).
``slack-removal-distance-pair`` (method ``slack-removal-distance-pair``)
    As ``slack-removal-distance`` on a domain where N = 2: ``U = Min((T - 1 + 2 delta)/(2 T), 1/2)``. *pair*
    ``(T - 1 + 2 delta) - 2 T (x1 - P) >= 0`` from P <= T x2 + delta on S and 1 - P <= T (1 - x1) + delta on the
    complement (multipliers 1, 1), *half* ``1 - 2 (x1 - P) >= 0`` from 1 - x1 >= 0 and x2 = 2 P - x1 >= 0.
``max-value`` (method ``subset-to-one-sided``)
    A a two-sided subset level <= T of size j (``A["size"]``; the domain gives 1 <= j <= N - 1), B a
    one-sided class level (any class sizes): ``U = Min(N - (N - 1)/T, (j T (N - 1) - (j - 1) N)/(N - j))``
    (checked component by component, in either order; U may be one component alone, which the prover writes
    where the domain makes it the smaller). Per bucket with mean p = 1 and largest value M
    (every class mean is <= M): the other N - 1 values are the N - 1 smallest, with mean >= the j
    smallest's >= 1/T (``extreme-means-monotone`` and A), so *all* ``T (N - M) - (N - 1) >= 0``; the
    j - 1 largest of them have mean H >= their mean (N - M)/(N - 1) (``extreme-means-monotone``) and
    M + (j - 1) H <= j T (A), so *j largest* ``j T (N - 1) - (j - 1) N - (N - j) M =
    (N - 1) (j T - (j - 1) H - M) + (j - 1) ((N - 1) H - (N - M)) >= 0``, with N - j > 0; each component
    is >= 1 (a bucket 0 everywhere has ratio 1).
``declared-finite-level`` (method ``finite-level-of``)
    A's declaration says that wherever A's level is finite it is B's, in the same units
    (``A["finite_level_of"]`` names B's definition): ``U = T``. The checker trusts that declaration
    (tests/test_ceiling.py checks it against tests/brute.py on random tables); it checks the names and U.
``set-mass`` (method ``one-sided-ceiling``)
    B a one-sided ratio of averages (``sides: one-sided``) over classes of >= s records
    (``B["min_class"]``) or over sets of s records (``B["size"]``), whatever A is: per bucket with
    mean m = 1 (ratios are scale free; a bucket that is 0 everywhere has ratio 1 <= U), a set S of
    e >= s records sums to L <= N (the other values are >= 0), so mean_S / m = L / e <= N / s = U
    (checked as a quotient). *mass* ``N e - s L >= 0`` (multipliers on ``e - s >= 0`` and
    ``N - L >= 0``), *empty bucket* ``N - s >= 0`` (U >= 1; the domain has 1 <= s <= N, where a set
    of s records exists).
``distance-mass`` (method ``distance-ceiling``)
    B a class's total variation distance from the table (``B["distance"] == "total-variation"``) over classes of
    >= s records (``B["min_class"]``, no ``max_class``; the domain gives s >= 1, 2 s <= N), whatever A is:
    ``U = (N - s)/N`` (checked as a quotient). For a class E of e >= s records, the buckets S where it lies above
    the table, x its mass and P the table's there, the other records hold N P - e x >= 0 on S: *mass*
    ``(N - s) - N (x - P) = (N P - e x) + (N - e)(1 - x) + (e - s) >= 0`` (``same-distance``'s identity, without
    A). Where A's registered definition declares a parameter a minimum class size (``min_class_param``: its level
    is infinite on a table with a smaller class) and the certificate says so (``A["min_class_param"]``), the
    sides' class sizes must be that parameter's value (``A["params"]``): every table where A is finite.
``class-size`` (method ``class-size``)
    A's *registered* definition declares that its level is the size of its smallest class
    (``class_size_level``; the checker reads the registry, not the certificate), with no other class size on
    its side (``min_class`` 1, no ``max_class``): at level T (an integer) every
    class has >= T records, and a partition into >= 2 classes exists only where 2 T <= N (a class of e records
    leaves N - e >= T to the others; the domain has T >= 1 and 2 T <= N). B a class level on any partition
    (``min_class`` 1, no ``max_class``): a one-sided ratio, U = N/T, *mass* ``N e - T L >= 0`` (as in
    ``set-mass`` with s = T), or the total variation distance, U = (N - T)/N, *mass*
    ``(N - T) - N (x - P) >= 0`` (as in ``same-distance`` with s = T).

Each obligation is ``target >= 0`` (or ``> 0``) under its hypotheses and the certificate's domain,
optionally with multipliers: ``target = sum(lambda_i * fact_i)`` identically, every ``lambda_i >= 0``.
"""

from __future__ import annotations

from fractions import Fraction

import ast
import itertools
from dataclasses import dataclass, field

__all__ = ["Obligation", "obligations", "structural_checks", "supremum_upper", "FACT_NAMES", "SUPREMUM_FACTS",
           "VARIABLES"]

#: the facts of ``extremes-and-mean`` (each ``>= 0``), by the names multipliers refer to
FACT_NAMES = ("max<=T*mean", "mean<=T*min", "mean>=extremes", "mean<=extremes", "min>=0", "max>=min")

#: the lemmas' own real variables (multipliers may mention them by these names): the vertex's
#: ``u_``, ``m_``, ``e_``, ``v_``, the bucket's minimum ``a_``, maximum ``b_`` and mean ``m_`` (of
#: ``extreme-means-supremum``: two extreme means ``a_``, ``b_``) and its integer ``q_``
VARIABLES = ("u_", "m_", "e_", "v_", "a_", "b_", "q_")

#: the facts of ``extreme-means-supremum``'s identities, by the names multipliers refer to
SUPREMUM_FACTS = {"lower": ("N*m = q*low_q + (N-q)*high_(N-q)", "high_(N-q) <= T*m"),
                  "upper": ("N*m = q*high_q + (N-q)*low_(N-q)", "low_(N-q) >= m/T"),
                  "gap": ("(T-1)^2 >= 0",)}


@dataclass
class Obligation:
    """``target >= 0`` (``strict``: ``> 0``) under ``hypotheses`` (``[(">=", g)]``: each g >= 0).

    ``target`` and the hypotheses are polynomials of the certificate's
    :class:`implgraph.certify.expr.Reader` ring; ``facts`` name the hypotheses multipliers refer to,
    ``multipliers`` (from the certificate) the claimed ``target = sum(lambda_i * fact_i)``.
    """

    name: str
    target: object
    hypotheses: list = field(default_factory=list)
    facts: dict | None = None
    strict: bool = False
    multipliers: dict | None = None


def _two_sided(side) -> bool:
    """Is the side declared two-sided (never by default: a side without ``sides`` is not)?"""
    return side.get("sides") == "two-sided"


def _multipliers(data, rd):
    """The certificate's multipliers ``{identity: {fact: polynomial}}`` read in the ring of ``rd``."""
    return {k: {f: rd.poly(x) for f, x in v.items()} for k, v in (data.get("multipliers") or {}).items()}


def registered(name):
    """The registered definition called ``name``, or None (not registered here, or no name)."""
    from implgraph import definitions
    try:
        return definitions.get(name) if name else None
    except Exception:       # an unknown name (a plugin not installed here)
        return None


def _size(side, rd):
    s = side.get("size")
    return None if s is None else rd.poly(s)


def _upper_is(cert, rd, num, den) -> bool:
    """Is the certificate's U the quotient ``num / den`` (polynomials of ``rd``'s ring), compared as quotients?"""
    try:
        P, Q = rd.ratio(cert["upper"])
    except ValueError:
        return False
    return P * den == Q * num


def _ratio_obligations(label, num, den, U, hyps):
    """num/den <= U = P/Q with den > 0 and Q > 0: ``P den - Q num >= 0`` (polynomial)."""
    P, Q = U
    out = [Obligation(f"{label}: denominator > 0", den, hyps, strict=True)]
    if Q != 1:
        out.append(Obligation(f"{label}: denominator of U > 0", Q, hyps, strict=True))
    return out + [Obligation(f"{label} <= U", P * den - Q * num, hyps)]


def _vertex(B, upper, rd, multipliers):
    g = rd.gens
    T, N = g["T"], g["N"]
    if B["family"] == "subset":
        j = _size(B, rd)
        u, m = g["u_"], g["m_"]
        facts = {"u>=0": u, "j-u>=0": j - u, "m-u>=0": m - u, "N-j-(m-u)>=0": N - j - m + u}
        mean_s, mean_d = (u * T + j - u, j), (m * T + N - m, N)
        what = f"subset S of {j} records holding u high values, m high values in all"
    else:
        k = rd.poly(B["min_class"])
        e, u, v = g["e_"], g["u_"], g["v_"]
        facts = {"u>=0": u, "v>=0": v, "e-u>=0": e - u, "e-k>=0": e - k, "N-e>=0": N - e, "N-e-v>=0": N - e - v}
        mean_s, mean_d = (u * T + e - u, e), ((u + v) * T + N - u - v, N)
        what = f"class E of e >= {k} records holding u high values, v high values outside it"
    hyps = [(">=", f) for f in facts.values()]
    ratios = [("mean_S/mean_D", mean_s, mean_d)]
    if B.get("sides") != "one-sided":      # both ratios unless B is declared one-sided
        ratios.append(("mean_D/mean_S", mean_d, mean_s))
    U = rd.ratio(upper)
    out = []
    for label, (n1, d1), (n2, d2) in ratios:
        # (n1/d1) / (n2/d2) = (n1 d2) / (d1 n2)
        obs = _ratio_obligations(f"vertex {label} ({what})", n1 * d2, d1 * n2, U, hyps)
        obs[-1].facts, obs[-1].multipliers = facts, multipliers.get(label)
        out += obs
    return out


def _product(upper, rd, multipliers):
    g = rd.gens
    T, N, a, b, m = g["T"], g["N"], g["a_"], g["b_"], g["m_"]
    facts = dict(zip(FACT_NAMES, (T * m - b, T * a - m, N * m - b - (N - 1) * a, a + (N - 1) * b - N * m, a, b - a)))
    hyps = [(">=", f) for f in facts.values()]
    out = []
    for i, c in enumerate(rd.components(upper)):
        mult = multipliers[i] if i < len(multipliers) else None
        out.append(Obligation(f"max <= ({c}) * min", c * a - b, hyps, facts=facts, multipliers=mult))
    return out


def supremum_upper(q):
    """The text of ``extreme-means-supremum``'s bound ``Min(T, 1/Max(1 - (N/q - 1)*(T - 1), 1/T))``."""
    return f"Min(T, 1/Max(1 - (N/({q}) - 1)*(T - 1), 1/T))"


def _same_text(rd, a, b):
    """Are two expressions the same tree (parentheses and spacing aside)?"""
    return ast.dump(rd.tree(a)) == ast.dump(rd.tree(b))


def _integer_valued(polys, kinds):
    """Does every polynomial have integer coefficients and only integer symbols (N is one)?"""
    ints = {n for n, k in kinds.items() if k == "integer"} | {"N"}
    return all(all(c.denominator == 1 for c in p.coeffs())
               and all(str(x) in ints for x in p.ring.gens if p.degree(x) > 0) for p in polys)


def _supremum(cert, A, B, rd, data):
    """The obligations of ``extreme-means-supremum`` (see the module notes), case by case of q's ``Min``."""
    g = rd.gens
    T, N, q, a, b, m = g["T"], g["N"], g["q_"], g["a_"], g["b_"], g["m_"]
    ja, jb = _size(A, rd), _size(B, rd)
    D = N - (N - q) * T
    lo, up = SUPREMUM_FACTS["lower"], SUPREMUM_FACTS["upper"]
    identities = {
        "lower": (q * a - m * D, {lo[0]: q * a + (N - q) * b - N * m, lo[1]: T * m - b},
                  "q*low_q - m*(N - (N-q)*T) >= 0"),
        "upper": (m * (N * T - (N - q)) - q * T * b, {up[0]: N * m - q * b - (N - q) * a, up[1]: T * a - m},
                  "m*(N*T - (N-q)) - q*T*high_q >= 0"),
        "gap": (q * q * T - (N * T - (N - q)) * D, {SUPREMUM_FACTS["gap"][0]: (T - 1) ** 2},
                "q^2*T - (N*T - (N-q))*(N - (N-q)*T) >= 0"),
    }
    mults = _multipliers(data, rd)
    out = [Obligation("j_B - j_A >= 0", jb - ja), Obligation("T > 0", T, strict=True)]
    comps = rd.components(data["q"])
    for i, c in enumerate(comps):
        case = [("==", q - c)] + [(">=", o - c) for k, o in enumerate(comps) if k != i]
        where = f" (q = {c}" + (", the smallest" if len(comps) > 1 else "") + ")"
        out += [Obligation("q >= 1" + where, q - 1, case), Obligation("j_B - q >= 0" + where, jb - q, case),
                Obligation("N - q - j_A >= 0" + where, N - q - ja, case)]
        for key, (target, facts, what) in identities.items():
            out.append(Obligation(f"{key}: {what}{where}", target, case + [(">=", f) for f in facts.values()],
                                  facts=facts, multipliers=mults.get(key)))
    return out


def _class_mass_structure(cert, A, B, rd):
    """The shape of ``class-mass``: the sides, B's size N - 1, U = (N - 1) T / s, s an integer."""
    T, N = rd.gens["T"], rd.gens["N"]
    s = rd.poly(A.get("min_class") or "1")
    upper_ok = _upper_is(cert, rd, (N - 1) * T, s)
    return [("A is a two-sided class level without a maximum class size, B a two-sided subset level",
             A["family"] == "class" and A.get("max_class") is None and B["family"] == "subset" and _two_sided(A)
             and _two_sided(B)),
            ("B's subset size is N - 1", B.get("size") is not None and _size(B, rd) == N - 1),
            ("U = (N - 1) T / s", upper_ok),
            ("s is an integer (integer coefficients, integer symbols)", _integer_valued([s], cert.get("symbols") or {}))]


def _class_mass(cert, A, B, rd, data):
    """The obligations of ``class-mass`` (see the module notes)."""
    g = rd.gens
    T, N, L, e = g["T"], g["N"], g["a_"], g["e_"]
    s = rd.poly(A.get("min_class") or "1")
    exists = [(">=", s - 1), (">=", N - 2 * s)]
    mults = _multipliers(data, rd)
    lower = {"T*L >= N - e": T * L - N + e, "N - e - s >= 0": N - e - s}
    upper = {"T - 1 >= 0": T - 1, "N - 2s >= 0": N - 2 * s, "1": rd.poly("1")}
    pair = {"N - 2s >= 0": N - 2 * s, "N - 2 == 0": N - 2}
    return _existence(s, N, 2) + [
        Obligation("lower: T*L - s >= 0 (m / mean_S <= (N - 1) T / s)", T * L - s,
                   exists + [(">=", f) for f in lower.values()], facts=lower, multipliers=mults.get("lower")),
        Obligation("upper: (N - 1)^2 T - N s >= 0 where N >= 4", (N - 1) ** 2 * T - N * s,
                   exists + [(">=", N - 4), (">=", T - 1)], facts=upper, multipliers=mults.get("upper")),
        Obligation("upper: (N - 1)^2 T - N s >= 0 where N = 3 (s = 1, an integer in [1, 3/2])",
                   (N - 1) ** 2 * T - N * s, exists + [("==", N - 3), ("==", s - 1)]),
        Obligation("pair: (N - 1 - s) T >= 0 where N = 2 (singleton classes: mean_S / m <= T <= U)",
                   (N - 1 - s) * T, exists + [("==", N - 2)], facts=pair, multipliers=mults.get("pair")),
    ]


def _existence(s, N, sets):
    """The domain must give what a lemma's premises assume: ``s >= 1`` and room for ``sets`` sets of >= s
    records (``sets * s <= N``); elsewhere the bound would be claimed for sizes no table has."""
    return [Obligation("on the domain: s >= 1", s - 1),
            Obligation(f"on the domain: {sets}*s <= N" if sets > 1 else "on the domain: s <= N", N - sets * s)]


def _set_size(B, rd):
    """s of ``set-mass``: B's minimum class size or its subset size."""
    return rd.poly(B.get("min_class") or "1") if B["family"] == "class" else _size(B, rd)


def _set_mass_structure(cert, A, B, rd):
    """The shape of ``set-mass``: B one-sided over classes or subsets, U = N / s."""
    N = rd.gens["N"]
    s = _set_size(B, rd) if B.get("family") in ("class", "subset") else None
    upper_ok = s is not None and _upper_is(cert, rd, N, s)
    return [("B is a one-sided class or subset level", B.get("family") in ("class", "subset")
             and B.get("sides") == "one-sided" and s is not None),
            ("U = N / s", upper_ok)]


def _set_mass(cert, A, B, rd, data):
    """The obligations of ``set-mass`` (see the module notes)."""
    return _set_mass_of(_set_size(B, rd), rd, data, 1)


def _set_mass_of(s, rd, data, sets):
    """``set-mass``'s obligations for sets of >= s records, with room for ``sets`` of them on the domain."""
    g = rd.gens
    N, L, e = g["N"], g["a_"], g["e_"]
    mults = _multipliers(data, rd)
    exists = [(">=", s - 1), (">=", N - sets * s)]
    facts = {"e - s >= 0": e - s, "N - L >= 0": N - L}
    hyps = exists + [(">=", L)] + [(">=", f) for f in facts.values()]
    return _existence(s, N, sets) + [
        Obligation("mass: e > 0 (a set of >= s >= 1 records)", e, exists + [(">=", e - s)], strict=True),
        Obligation("mass: N*e - s*L >= 0 (mean_S / m = L / e <= N / s)", N * e - s * L, hyps, facts=facts,
                   multipliers=mults.get("mass")),
        Obligation("empty bucket: N - s >= 0 (ratio 1 <= U)", N - s, exists)]


def _min_of(cert, rd, first, second):
    """U's two ``Min`` components as ``(P, Q)``, in the order of the expected ``first`` and ``second``
    (each a pair of polynomials ``(num, den)``, compared as quotients), whichever order U writes them in;
    or ``(P, None)`` when U is one of the two alone (each component is an upper bound by its own
    obligation, so either alone is one too: the prover writes one alone where the domain makes it the
    smaller); None otherwise."""
    try:
        comps = rd.ratio_components(cert["upper"])
    except ValueError:
        return None
    is_ = lambda c, e: c[0] * e[1] == c[1] * e[0]      # noqa: E731 (P/Q == num/den)
    if len(comps) == 1:
        return (comps[0], None) if is_(comps[0], first) or is_(comps[0], second) else None
    if len(comps) != 2:
        return None
    for x, y in (comps, comps[::-1]):
        if is_(x, first) and is_(y, second):
            return x, y
    return None


def _rest_mass_components(cert, A, rd):
    """U's two components, T and (N T - N + s)/(s T), in either order; None if U is not that Min."""
    T, N = rd.gens["T"], rd.gens["N"]
    s = rd.poly(A.get("min_class") or "1")
    return _min_of(cert, rd, (T, rd.poly("1")), (N * T - N + s, s * T))


def _same_partition(A, B, cert, rd):
    """The checks of two class sides on one partition: one minimum class size s, an integer, no maximum."""
    s = rd.poly(A.get("min_class") or "1")
    same = (s == rd.poly(B.get("min_class") or "1") and A.get("max_class") is None and B.get("max_class") is None)
    return [("the same partition: one minimum class size, no maximum", same),
            ("s is an integer (integer coefficients, integer symbols)", _integer_valued([s], cert.get("symbols") or {}))]


def _rest_mass_structure(cert, A, B, rd):
    return [("A is a two-sided class level, B a one-sided class level", A.get("family") == "class" and _two_sided(A)
             and B.get("family") == "class" and B.get("sides") == "one-sided"),
            ("U = Min(T, (N T - N + s)/(s T))", _rest_mass_components(cert, A, rd) is not None),
            *_same_partition(A, B, cert, rd)]


def _rest_mass(cert, A, B, rd, data):
    """The obligations of ``rest-mass`` (see the module notes)."""
    g = rd.gens
    T, N, y, e = g["T"], g["N"], g["v_"], g["e_"]
    s = rd.poly(A.get("min_class") or "1")
    exists = [(">=", s - 1), (">=", N - 2 * s), (">=", T - 1)]
    mults = _multipliers(data, rd)
    x_e = N - (N - e) * y                       # e x
    premise = {"A: T*e - e*x >= 0": T * e - x_e}
    rest = {"e - s >= 0": e - s, "T*y - 1 >= 0": T * y - 1}
    hyps = exists + [(">=", e - s), (">=", N - e - s), (">=", y), (">=", x_e), (">=", T * y - 1), (">=", T * e - x_e)]
    return _existence(s, N, 2) + [
        Obligation("class size e > 0", e, exists + [(">=", e - s)], strict=True),
        Obligation("below T: T*e - e*x >= 0 (x <= T: A's bound on E)", T * e - x_e, hyps, facts=premise,
                   multipliers=mults.get("below T")),
        Obligation("rest: (N*T - N + s)*e - s*T*e*x >= 0 (x <= (N T - N + s)/(s T))",
                   (N * T - N + s) * e - s * T * x_e, hyps, facts=rest, multipliers=mults.get("rest")),
        Obligation("empty bucket: (N*T - N + s) - s*T >= 0 (ratio 1 <= U)", N * T - N + s - s * T, exists),
    ]


def _class_distance_components(cert, A, rd):
    """U's components (T - 1)/(T + 1) and (N - s)(T - 1)/(N T), in either order; None if U is not that Min."""
    T, N = rd.gens["T"], rd.gens["N"]
    s = rd.poly(A.get("min_class") or "1")
    return _min_of(cert, rd, (T - 1, T + 1), ((N - s) * (T - 1), N * T))


def _class_distance_structure(cert, A, B, rd):
    return [("A is a two-sided class level, B a class's total variation distance",
             A.get("family") == "class" and _two_sided(A) and A.get("distance") is None
             and B.get("family") == "class" and B.get("distance") == "total-variation"),
            ("U = Min((T - 1)/(T + 1), (N - s)(T - 1)/(N T))", _class_distance_components(cert, A, rd) is not None),
            *_same_partition(A, B, cert, rd)]


def _class_mass_setting(side, rd):
    """T, N, a class's size e, the table's and the class's mass P, x on S (``e_``, ``a_``, ``b_``), the side's
    minimum class size s and the domain's premises (s >= 1, 2 s <= N, T >= 1) of the distance lemmas."""
    g = rd.gens
    s = rd.poly(side.get("min_class") or "1")
    return g["T"], g["N"], g["e_"], g["a_"], g["b_"], s, [(">=", s - 1), (">=", g["N"] - 2 * s), (">=", g["T"] - 1)]


def _class_distance(cert, A, B, rd, data):
    """The obligations of ``class-distance`` (see the module notes)."""
    T, N, e, P, x, s, exists = _class_mass_setting(A, rd)
    mults = _multipliers(data, rd)
    on_s, on_rest = T * P - x, T * (1 - x) - (1 - P)
    others = T * N * P - T * e * x - (N - e) * P
    near = {"A on S: T*P - x >= 0": on_s, "A on the rest: T*(1 - x) - (1 - P) >= 0": on_rest}
    far = {"other classes: T*N*P - T*e*x - (N - e)*P >= 0": others,
           "A on the rest: T*(1 - x) - (1 - P) >= 0": on_rest, "e - s >= 0": e - s}
    hyps = exists + [(">=", e - s), (">=", N - e - s), (">=", P), (">=", 1 - P), (">=", x), (">=", 1 - x),
                     (">=", on_s), (">=", on_rest), (">=", others)]
    return _existence(s, N, 2) + [
        Obligation("near: (T - 1) - (T + 1)*(x - P) >= 0 (x - P <= (T - 1)/(T + 1))",
                   (T - 1) - (T + 1) * (x - P), hyps, facts=near, multipliers=mults.get("near")),
        Obligation("far: (N - s)*(T - 1) - N*T*(x - P) >= 0 (x - P <= (N - s)(T - 1)/(N T))",
                   (N - s) * (T - 1) - N * T * (x - P), hyps, facts=far, multipliers=mults.get("far")),
        Obligation("U >= 0: T - 1 >= 0", T - 1, exists),
        Obligation("U >= 0: (N - s)*(T - 1) >= 0", (N - s) * (T - 1), exists),
    ]


def _components_among(cert, rd, expected):
    """Is every component of U's ``Min`` (compared as quotients) one of ``expected`` (``(num, den)`` pairs),
    each at most once? Each expected component is an upper bound by its own obligation, so any of them, or the
    Min of several, is one."""
    try:
        comps = rd.ratio_components(cert["upper"])
    except ValueError:
        return False
    left = list(expected)
    for c in comps:
        hit = next((e for e in left if c[0] * e[1] == c[1] * e[0]), None)
        if hit is None:
            return False
        left.remove(hit)
    return bool(comps)


def _one_sided_distance_structure(cert, A, B, rd):
    T, N = rd.gens["T"], rd.gens["N"]
    s = rd.poly(B.get("min_class") or "1")
    one = rd.poly("1")
    return [("A is a one-sided class level, B a class's total variation distance",
             A.get("family") == "class" and A.get("sides") == "one-sided" and A.get("distance") is None
             and B.get("family") == "class" and B.get("distance") == "total-variation"),
            ("U = Min((N - s)(T - 1)/N, (T - 1)/T, (N - s)/N), or some of its components",
             _components_among(cert, rd, [((N - s) * (T - 1), N), (T - 1, T), (N - s, N * one)])),
            *_same_partition(A, B, cert, rd)]


def _one_sided_distance(cert, A, B, rd, data):
    """The obligations of ``one-sided-distance`` (see the module notes)."""
    T, N, e, P, x, s, exists = _class_mass_setting(B, rd)
    mults = _multipliers(data, rd)
    on_s, rest, others = T * P - x, (T - 1) * (N - e) * (1 - P) - e * (x - P), N * P - e * x
    hyps = exists + [(">=", e - s), (">=", N - e - s), (">=", P), (">=", 1 - P), (">=", x), (">=", 1 - x),
                     (">=", on_s), (">=", rest), (">=", others)]
    near = {"A on S: T*P - x >= 0": on_s, "1 - x >= 0": 1 - x}
    spread = {"A on S: T*P - x >= 0": on_s,
              "other classes on the rest: (T - 1)*(N - e)*(1 - P) - e*(x - P) >= 0": rest, "e - s >= 0": e - s}
    mass = {"other records on S: N*P - e*x >= 0": others, "1 - x >= 0": 1 - x, "e - s >= 0": e - s}
    return _existence(s, N, 2) + [
        Obligation("near: (T - 1) - T*(x - P) >= 0 (x - P <= (T - 1)/T)", (T - 1) - T * (x - P), hyps,
                   facts=near, multipliers=mults.get("near")),
        Obligation("spread: (N - s)*(T - 1) - N*(x - P) >= 0 (x - P <= (N - s)(T - 1)/N)",
                   (N - s) * (T - 1) - N * (x - P), hyps, facts=spread, multipliers=mults.get("spread")),
        Obligation("mass: (N - s) - N*(x - P) >= 0 (x - P <= (N - s)/N)", (N - s) - N * (x - P), hyps,
                   facts=mass, multipliers=mults.get("mass")),
        Obligation("T > 0 (a denominator)", T, exists, strict=True),
        Obligation("U >= 0: (N - s)*(T - 1) >= 0", (N - s) * (T - 1), exists),
    ]


def _same_distance_structure(cert, A, B, rd):
    T, N = rd.gens["T"], rd.gens["N"]
    s = rd.poly(B.get("min_class") or "1")
    return [("A and B are class levels of one declared distance, the total variation distance",
             A.get("family") == "class" == B.get("family")
             and A.get("distance") == B.get("distance") == "total-variation"),
            ("U = Min(T, (N - s)/N)", _min_of(cert, rd, (T, rd.poly("1")), (N - s, N)) is not None),
            *_same_partition(A, B, cert, rd)]


def _same_distance(cert, A, B, rd, data):
    """The obligations of ``same-distance`` (see the module notes)."""
    return _distance_mass_of(rd.poly(B.get("min_class") or "1"), rd, data)


def _distance_mass_of(s, rd, data):
    """``same-distance``'s obligation for classes of >= s records: x - P <= (N - s)/N from the others' mass."""
    g = rd.gens
    T, N, e, P, x = g["T"], g["N"], g["e_"], g["a_"], g["b_"]
    exists = [(">=", s - 1), (">=", N - 2 * s), (">=", T)]
    others = N * P - e * x
    facts = {"other records on S: N*P - e*x >= 0": others, "1 - x >= 0": 1 - x, "e - s >= 0": e - s}
    hyps = exists + [(">=", e - s), (">=", N - e - s), (">=", P), (">=", 1 - P), (">=", x), (">=", 1 - x),
                     (">=", others)]
    return _existence(s, N, 2) + [
        Obligation("mass: (N - s) - N*(x - P) >= 0 (x - P <= (N - s)/N)", (N - s) - N * (x - P), hyps,
                   facts=facts, multipliers=_multipliers(data, rd).get("mass")),
        Obligation("U >= 0: N - s >= 0", N - s, exists),
    ]


def _pairwise_distance_structure(cert, A, B, rd):
    T, N = rd.gens["T"], rd.gens["N"]
    s = rd.poly(B.get("min_class") or "1")
    upper_ok = _upper_is(cert, rd, (N - s) * (T - 1), N * (T + 1))
    return [("A is pairwise, B a class's total variation distance", A.get("family") == "pairwise" and _two_sided(A)
             and A.get("distance") is None and A.get("slack") is None and B.get("family") == "class"
             and B.get("distance") == "total-variation" and B.get("max_class") is None),
            ("U = (N - s)(T - 1)/(N (T + 1))", upper_ok),
            ("s is an integer (integer coefficients, integer symbols)",
             _integer_valued([s], cert.get("symbols") or {}))]


def _pairwise_distance(cert, A, B, rd, data):
    """The obligations of ``pairwise-distance`` (see the module notes)."""
    g = rd.gens
    T, N, e, Y, X = g["T"], g["N"], g["e_"], g["a_"], g["b_"]
    s = rd.poly(B.get("min_class") or "1")
    exists = [(">=", s - 1), (">=", N - 2 * s), (">=", T - 1)]
    on_s, on_rest = T * Y - X, T * (1 - X) - (1 - Y)
    facts = {"A on S: T*Y - X >= 0": on_s, "A on the rest: T*(1 - X) - (1 - Y) >= 0": on_rest, "e - s >= 0": e - s}
    hyps = exists + [(">=", e - s), (">=", N - e - s), (">=", X), (">=", 1 - X), (">=", Y), (">=", 1 - Y),
                     (">=", on_s), (">=", on_rest)]
    return _existence(s, N, 2) + [
        Obligation("pairs: (N - s)*(T - 1) - (T + 1)*(N - e)*(X - Y) >= 0 (X - P <= U)",
                   (N - s) * (T - 1) - (T + 1) * (N - e) * (X - Y), hyps, facts=facts,
                   multipliers=_multipliers(data, rd).get("pairs")),
        Obligation("U >= 0: (N - s)*(T - 1) >= 0", (N - s) * (T - 1), exists),
    ]


def _removal_distance_components(cert, rd):
    """U's components (N - 1)(T - 1)/(T + 1) and (N - 1)(T - 1)/(N T - N + 1), in either order; None otherwise."""
    T, N = rd.gens["T"], rd.gens["N"]
    return _min_of(cert, rd, ((N - 1) * (T - 1), T + 1), ((N - 1) * (T - 1), N * T - N + 1))


def _removal_distance_structure(cert, A, B, rd):
    return [("A is a two-sided subset level, B a class's total variation distance over any classes",
             A.get("family") == "subset" and _two_sided(A) and A.get("distance") is None and A.get("slack") is None
             and _size(A, rd) is not None and B.get("family") == "class" and B.get("distance") == "total-variation"
             and _any_partition(B, rd)),
            ("U = Min((N - 1)(T - 1)/(T + 1), (N - 1)(T - 1)/(N T - N + 1))",
             _removal_distance_components(cert, rd) is not None),
            ("j is an integer (integer coefficients, integer symbols)",
             _size(A, rd) is not None and _integer_valued([_size(A, rd)], cert.get("symbols") or {}))]


def _removal_distance(cert, A, B, rd, data):
    """The obligations of ``removal-distance`` (see the module notes)."""
    g = rd.gens
    T, N, P, M = g["T"], g["N"], g["a_"], g["b_"]
    j = _size(A, rd)
    exists = [(">=", N - 2), (">=", T - 1)]
    mults = _multipliers(data, rd)
    on_s = T * (N * P - M) - (N - 1) * P
    on_rest = (N - 1) * T * (1 - P) - N * (1 - P) + (1 - M)
    near = {"without M on S: T*(N*P - M) - (N - 1)*P >= 0": on_s,
            "without M on the rest: (N - 1)*T*(1 - P) - N*(1 - P) + (1 - M) >= 0": on_rest}
    far = {"without M on S: T*(N*P - M) - (N - 1)*P >= 0": on_s, "1 - M >= 0": 1 - M}
    hyps = exists + [(">=", P), (">=", 1 - P), (">=", M), (">=", 1 - M), (">=", on_s), (">=", on_rest)]
    return [
        Obligation("on the domain: N >= 2", N - 2),
        Obligation("on the domain: j >= 1", j - 1), Obligation("on the domain: j <= N - 1", N - 1 - j),
        Obligation("near: (N - 1)*(T - 1) - (T + 1)*(M - P) >= 0", (N - 1) * (T - 1) - (T + 1) * (M - P), hyps,
                   facts=near, multipliers=mults.get("near")),
        Obligation("far: (N - 1)*(T - 1) - (N*T - N + 1)*(M - P) >= 0",
                   (N - 1) * (T - 1) - (N * T - N + 1) * (M - P), hyps, facts=far, multipliers=mults.get("far")),
        Obligation("N*T - N + 1 > 0 (the second component's denominator)", N * T - N + 1, exists, strict=True),
        Obligation("U >= 0: (N - 1)*(T - 1) >= 0", (N - 1) * (T - 1), exists),
    ]


def _removal_pair_structure(cert, A, B, rd):
    T = rd.gens["T"]
    return [_removal_distance_structure(cert, A, B, rd)[0], ("U = (T - 1)/(2 T)", _upper_is(cert, rd, T - 1, 2 * T))]


def _removal_pair(cert, A, B, rd, data):
    """The obligations of ``removal-distance-pair`` (see the module notes)."""
    g = rd.gens
    T, N, P, x1 = g["T"], g["N"], g["a_"], g["b_"]
    j = _size(A, rd)
    on_s, on_rest = T * (2 * P - x1) - P, T * (1 - x1) - (1 - P)
    facts = {"A on S: T*x2 - P >= 0": on_s, "A on the rest: T*(1 - x1) - (1 - P) >= 0": on_rest}
    hyps = [(">=", T - 1), (">=", P), (">=", 1 - P), (">=", x1), (">=", 1 - x1), (">=", on_s), (">=", on_rest)]
    return [
        Obligation("on the domain: N >= 2", N - 2), Obligation("on the domain: N <= 2", 2 - N),
        Obligation("on the domain: j >= 1", j - 1), Obligation("on the domain: j <= 1", 1 - j),
        Obligation("pair: (T - 1) - 2*T*(x1 - P) >= 0", (T - 1) - 2 * T * (x1 - P), hyps, facts=facts,
                   multipliers=_multipliers(data, rd).get("pair")),
        Obligation("2 T > 0 (U's denominator)", 2 * T, [(">=", T - 1)], strict=True),
        Obligation("U >= 0: T - 1 >= 0", T - 1, [(">=", T - 1)]),
    ]


def _subset_distance_facts(j, N, T, M, y):
    """The ``subset-distance`` facts (see the module notes): ``({name: (N j a, fact)}, {name: (N j b, fact)})``."""
    D = M - y
    lower = {"the j smallest: L >= P/T": (j, j * (N * (T - 1) * y - D)),
             "the j largest: H <= T P": (N - T * j, N * j * (T - 1) * y - (N - T * j) * D)}
    upper = {"the j smallest on the complement: 1 - L <= T (1 - P)": (j * T, j * (N * (T - 1) * (1 - y) - T * D)),
             "the j largest on the complement: 1 - H >= (1 - P)/T": (N * T - j, N * j * (T - 1) * (1 - y) - (N * T - j) * D),
             "M <= 1": (N * j * (T - 1), N * j * (T - 1) * (1 - M))}
    return lower, upper


def _subset_distance_structure(cert, A, B, rd):
    T, N = rd.gens["T"], rd.gens["N"]
    j = _size(A, rd)
    ok = False
    if j is not None:
        lower, upper = _subset_distance_facts(j, N, T, rd.gens["b_"], rd.gens["a_"])
        ok = _components_among(cert, rd, [((N - 1) * j * (T - 1), a + b) for a, _ in lower.values()
                                          for b, _ in upper.values()])
    return [("A is a two-sided subset level, B a class's total variation distance over any classes",
             A.get("family") == "subset" and _two_sided(A) and A.get("distance") is None and j is not None
             and A.get("slack") is None and B.get("family") == "class" and B.get("distance") == "total-variation" and _any_partition(B, rd)),
            ("U = the Min of some of (N - 1) j (T - 1)/(N j (a + b)) over the six pairs", ok),
            ("j is an integer (integer coefficients, integer symbols)",
             j is not None and _integer_valued([j], cert.get("symbols") or {}))]


def _subset_distance(cert, A, B, rd, data):
    """The obligations of ``subset-distance`` (see the module notes)."""
    g = rd.gens
    T, N, y, M = g["T"], g["N"], g["a_"], g["b_"]
    j = _size(A, rd)
    lower, upper = _subset_distance_facts(j, N, T, M, y)
    exists = [(">=", N - 2), (">=", T - 1), (">=", j - 1), (">=", N - 1 - j)]
    hyps = exists + [(">=", y), (">=", 1 - y), (">=", M - y), (">=", 1 - M)] + \
        [(">=", f) for _, f in [*lower.values(), *upper.values()]]
    mults = _multipliers(data, rd)
    out = [Obligation("on the domain: j >= 1", j - 1), Obligation("on the domain: j <= N - 1", N - 1 - j)]
    for (low, (a, fa)), (up, (b, fb)) in itertools.product(lower.items(), upper.items()):
        out += [Obligation(f"{low} + {up}: N j (T - 1) - N j (a + b)(M - y) >= 0",
                           N * j * (T - 1) - (a + b) * (M - y), hyps, facts={low: fa, up: fb},
                           multipliers=mults.get(f"{low} + {up}")),
                Obligation(f"{low} + {up}: N j (a + b) > 0", a + b, exists, strict=True)]
    return out + [Obligation("U >= 0: (N - 1) j (T - 1) >= 0", (N - 1) * j * (T - 1), exists)]


def _slack(A, compares):
    """A's additive slack delta (a polynomial constant) where A declares ``slack`` comparing ``compares`` with delta a
    number in [0, 1); None otherwise."""
    slack = A.get("slack") or {}
    if slack.get("compares") != compares:
        return None
    try:
        d = Fraction(str(slack.get("delta")))
    except (ValueError, ZeroDivisionError):
        return None
    return d if 0 <= d < 1 else None


def _slack_pairwise_structure(cert, A, B, rd):
    T, N = rd.gens["T"], rd.gens["N"]
    s = rd.poly(B.get("min_class") or "1")
    d = _slack(A, "pairs")
    upper_ok = d is not None and _upper_is(cert, rd, (N - s) * (T - 1 + 2 * d), N * (T + 1))
    return [("A compares two records with a slack delta in [0, 1), B a class's total variation distance",
             d is not None and B.get("family") == "class" and B.get("distance") == "total-variation"
             and B.get("max_class") is None),
            ("U = (N - s)(T - 1 + 2 delta)/(N (T + 1))", upper_ok),
            ("s is an integer (integer coefficients, integer symbols)", _integer_valued([s], cert.get("symbols") or {}))]


def _slack_pairwise(cert, A, B, rd, data):
    """The obligations of ``slack-pairwise-distance`` (see the module notes)."""
    g = rd.gens
    T, N, e, Y, X = g["T"], g["N"], g["e_"], g["a_"], g["b_"]
    s, d = rd.poly(B.get("min_class") or "1"), _slack(A, "pairs")
    exists = [(">=", s - 1), (">=", N - 2 * s), (">=", T - 1)]
    on_s, on_rest = T * Y - X + d, T * (1 - X) - (1 - Y) + d
    facts = {"A on S: T*Y - X + delta >= 0": on_s, "A on the rest: T*(1 - X) - (1 - Y) + delta >= 0": on_rest,
             "e - s >= 0": e - s}
    hyps = exists + [(">=", e - s), (">=", N - e - s), (">=", X), (">=", 1 - X), (">=", Y), (">=", 1 - Y),
                     (">=", on_s), (">=", on_rest)]
    return _existence(s, N, 2) + [
        Obligation("pairs: (N - s)*(T - 1 + 2*delta) - (T + 1)*(N - e)*(X - Y) >= 0 (X - P <= U)",
                   (N - s) * (T - 1 + 2 * d) - (T + 1) * (N - e) * (X - Y), hyps, facts=facts,
                   multipliers=_multipliers(data, rd).get("pairs")),
        Obligation("U >= 0: (N - s)*(T - 1 + 2*delta) >= 0", (N - s) * (T - 1 + 2 * d), exists),
    ]


def _slack_target_kind(cert, B, rd):
    """``(delta, kind)`` of a ``slack-target-pairs`` certificate: B's slack delta in (0, 1) and which U it states,
    ``"ratio"`` (T), ``"flat"`` (1) or ``"slope"`` ((1 - delta) T - delta); ``(delta, None)`` otherwise."""
    T = rd.gens["T"]
    d = _slack(B, "pairs")
    if d is None or d <= 0:
        return d, None
    return d, next((k for k, num in (("ratio", T), ("flat", rd.poly("1")), ("slope", (1 - d) * T - d))
                    if _upper_is(cert, rd, num, 1)), None)


def _slack_target_structure(cert, A, B, rd):
    d, kind = _slack_target_kind(cert, B, rd)
    return [("A a two-sided pairwise ratio level, B two records compared with a slack delta in (0, 1)",
             d is not None and d > 0 and A.get("family") == "pairwise" and _two_sided(A) and not A.get("slack")),
            ("U = T, 1 or (1 - delta) T - delta", kind is not None)]


def _slack_target(cert, A, B, rd, data):
    """The obligations of ``slack-target-pairs`` (see the module notes)."""
    g = rd.gens
    T, X, Y = g["T"], g["b_"], g["a_"]
    d, kind = _slack_target_kind(cert, B, rd)
    if kind is None:
        return []
    mults = _multipliers(data, rd)
    h1, h2 = T * Y - X, T * (1 - X) - (1 - Y)
    box = [(">=", X), (">=", 1 - X), (">=", Y), (">=", 1 - Y), (">=", T - 1)]
    facts = {"A on the event: T*y - x >= 0": h1, "A on the complement: T*(1 - x) - (1 - y) >= 0": h2}
    one = rd.poly("1")
    if kind == "ratio":
        return [Obligation("ratio: T*y - x + delta >= 0 (x <= U y + delta)", T * Y - X + d, box + [(">=", h1)],
                           facts={**facts, "delta >= 0": d * one}, multipliers=mults.get("ratio")),
                Obligation("U >= 1: T - 1 >= 0", T - 1, [])]
    if kind == "flat":
        flat = (1 + d) - (1 - d) * T
        return [Obligation("on the domain: (1 + delta) - (1 - delta)*T >= 0", flat, []),
                Obligation("flat: (T + 1)*(y - x + delta) >= 0 (x <= y + delta)", (T + 1) * (Y - X + d),
                           box + [(">=", h1), (">=", h2), (">=", flat)],
                           facts={**facts, "(1 + delta) - (1 - delta)*T >= 0": flat}, multipliers=mults.get("flat")),
                Obligation("flat: T + 1 > 0", T + 1, [], strict=True)]
    U = (1 - d) * T - d
    return [Obligation("on the domain: (1 - delta)*T - 1 - delta >= 0 (U >= 1)", U - 1, []),
            Obligation("slope: (T - 1)*(U*y - x + delta) >= 0 (x <= U y + delta)", (T - 1) * (U * Y - X + d),
                       box + [(">=", h1), (">=", h2)], facts=facts, multipliers=mults.get("slope")),
            Obligation("slope: T - 1 > 0", T - 1, [], strict=True)]


def _slack_removal_structure(cert, A, B, rd):
    T, N = rd.gens["T"], rd.gens["N"]
    d = _slack(A, "removal")
    ok = d is not None and _components_among(cert, rd, [((N - 1) * (T - 1 + d), N * T - N + 1),
                                                        ((N - 1) * (T - 1 + 2 * d), T + 1), (N - 1, N)])
    return [("A compares the table without one record with a slack delta in [0, 1), B a class's total variation "
             "distance over any classes", d is not None and B.get("family") == "class"
             and B.get("distance") == "total-variation" and _any_partition(B, rd)),
            ("U = Min((N - 1)(T - 1 + delta)/(N T - N + 1), (N - 1)(T - 1 + 2 delta)/(T + 1), (N - 1)/N), or some of "
             "them", ok)]


def _slack_removal(cert, A, B, rd, data):
    """The obligations of ``slack-removal-distance`` (see the module notes)."""
    g = rd.gens
    T, N, P, M = g["T"], g["N"], g["a_"], g["b_"]
    d = _slack(A, "removal")
    exists = [(">=", N - 2), (">=", T - 1)]
    mults = _multipliers(data, rd)
    on_s = T * (N * P - M) - (N - 1) * (P - d)
    on_rest = (N - 1) * T * (1 - P) - N * (1 - P) + (1 - M) + (N - 1) * d
    others = N * P - M
    s_fact, r_fact = ("without M on S: T*(N*P - M) - (N - 1)*(P - delta) >= 0",
                      "without M on the rest: (N - 1)*T*(1 - P) - N*(1 - P) + (1 - M) + (N - 1)*delta >= 0")
    hyps = exists + [(">=", P), (">=", 1 - P), (">=", M), (">=", 1 - M), (">=", on_s), (">=", on_rest),
                     (">=", others)]
    return [
        Obligation("on the domain: N >= 2", N - 2),
        Obligation("near: (N - 1)*(T - 1 + 2*delta) - (T + 1)*(M - P) >= 0",
                   (N - 1) * (T - 1 + 2 * d) - (T + 1) * (M - P), hyps,
                   facts={s_fact: on_s, r_fact: on_rest}, multipliers=mults.get("near")),
        Obligation("far: (N - 1)*(T - 1 + delta) - (N*T - N + 1)*(M - P) >= 0",
                   (N - 1) * (T - 1 + d) - (N * T - N + 1) * (M - P), hyps,
                   facts={s_fact: on_s, "1 - M >= 0": 1 - M}, multipliers=mults.get("far")),
        Obligation("mass: (N - 1) - N*(M - P) >= 0", (N - 1) - N * (M - P), hyps,
                   facts={"other records on S: N*P - M >= 0": others, "1 - M >= 0": 1 - M},
                   multipliers=mults.get("mass")),
        Obligation("N*T - N + 1 > 0 (a component's denominator)", N * T - N + 1, exists, strict=True),
        Obligation("U >= 0: (N - 1)*(T - 1 + delta) >= 0", (N - 1) * (T - 1 + d), exists),
    ]


def _slack_removal_pair_structure(cert, A, B, rd):
    T = rd.gens["T"]
    d = _slack(A, "removal")
    ok = d is not None and _components_among(cert, rd, [(T - 1 + 2 * d, 2 * T), (rd.poly("1"), rd.poly("2"))])
    return [_slack_removal_structure(cert, A, B, rd)[0],
            ("U = Min((T - 1 + 2 delta)/(2 T), 1/2), or one of them", ok)]


def _slack_removal_pair(cert, A, B, rd, data):
    """The obligations of ``slack-removal-distance-pair`` (see the module notes)."""
    g = rd.gens
    T, N, P, x1 = g["T"], g["N"], g["a_"], g["b_"]
    d = _slack(A, "removal")
    on_s, on_rest = T * (2 * P - x1) - P + d, T * (1 - x1) - (1 - P) + d
    hyps = [(">=", T - 1), (">=", P), (">=", 1 - P), (">=", x1), (">=", 1 - x1), (">=", 2 * P - x1),
            (">=", on_s), (">=", on_rest)]
    mults = _multipliers(data, rd)
    return [
        Obligation("on the domain: N >= 2", N - 2), Obligation("on the domain: N <= 2", 2 - N),
        Obligation("pair: (T - 1 + 2*delta) - 2*T*(x1 - P) >= 0", (T - 1 + 2 * d) - 2 * T * (x1 - P), hyps,
                   facts={"A on S: T*x2 - P + delta >= 0": on_s,
                          "A on the rest: T*(1 - x1) - (1 - P) + delta >= 0": on_rest},
                   multipliers=mults.get("pair")),
        Obligation("half: 1 - 2*(x1 - P) >= 0", 1 - 2 * (x1 - P), hyps,
                   facts={"1 - x1 >= 0": 1 - x1, "x2 = 2*P - x1 >= 0": 2 * P - x1}, multipliers=mults.get("half")),
        Obligation("2 T > 0 (U's denominator)", 2 * T, [(">=", T - 1)], strict=True),
        Obligation("U >= 0: T - 1 + 2*delta >= 0", T - 1 + 2 * d, [(">=", T - 1)]),
    ]


def _max_value_components(cert, A, rd):
    """U's components N - (N - 1)/T and (j T (N - 1) - (j - 1) N)/(N - j), as ``(P, Q)`` in that order;
    None otherwise."""
    T, N = rd.gens["T"], rd.gens["N"]
    j = _size(A, rd)
    return None if j is None else _min_of(cert, rd, (N * T - N + 1, T), (j * T * (N - 1) - (j - 1) * N, N - j))


def _max_value_structure(cert, A, B, rd):
    return [("A is a two-sided subset level, B a one-sided class level", A.get("family") == "subset" and _two_sided(A)
             and A.get("size") is not None and B.get("family") == "class" and B.get("sides") == "one-sided"),
            ("U = Min(N - (N - 1)/T, (j T (N - 1) - (j - 1) N)/(N - j))",
             _max_value_components(cert, A, rd) is not None)]


def _max_value(cert, A, B, rd, data):
    """The obligations of ``max-value`` (see the module notes)."""
    g = rd.gens
    T, N, M, H = g["T"], g["N"], g["b_"], g["a_"]
    j = _size(A, rd)
    mults = _multipliers(data, rd)
    exists = [(">=", j - 1), (">=", N - 1 - j), (">=", T - 1)]
    alls = {"T*(N - M) - (N - 1) >= 0": T * (N - M) - (N - 1)}
    top = {"j*T - (j - 1)*H - M >= 0": j * T - (j - 1) * H - M, "(N - 1)*H - (N - M) >= 0": (N - 1) * H - (N - M)}
    hyps = exists + [(">=", f) for f in (*alls.values(), *top.values())]
    second = j * T * (N - 1) - (j - 1) * N
    return [Obligation("on the domain: j >= 1", j - 1), Obligation("on the domain: j <= N - 1", N - 1 - j),
            Obligation("N - j > 0 (the second component's denominator)", N - j, exists, strict=True),
            Obligation("all: (N*T - N + 1) - T*M >= 0 (M <= N - (N - 1)/T)", N * T - N + 1 - T * M, hyps,
                       facts=alls, multipliers=mults.get("all")),
            Obligation("j largest: (j*T*(N - 1) - (j - 1)*N) - (N - j)*M >= 0 "
                       "(M <= (j T (N - 1) - (j - 1) N)/(N - j))", second - (N - j) * M,
                       hyps, facts=top, multipliers=mults.get("j largest")),
            Obligation("empty bucket: N*T - N + 1 - T >= 0", N * T - N + 1 - T, exists),
            Obligation("empty bucket: j*T*(N - 1) - (j - 1)*N - (N - j) >= 0", second - (N - j), exists)]


def _declares_finite_level(A, B) -> bool:
    """Does A's *registered* definition (not the certificate's word for it) declare ``finite_level_of``
    B's definition, without parameters on either side? The checker reads the declaration from the
    registry: the data the prover read, not a copy the certificate could forge."""
    d = registered(A.get("definition"))
    return (d is not None and bool(getattr(d, "finite_level_of", None)) and d.finite_level_of == B.get("definition")
            and not A.get("params") and not B.get("params"))


def _any_partition(side, rd) -> bool:
    """Does the side allow any partition (no minimum class size above 1, no maximum)?"""
    return side.get("max_class") is None and rd.poly(side.get("min_class") or "1") == 1


def _class_size_structure(cert, A, B, rd):
    """The shape of ``class-size``: A's registered definition declares a class-size level; B a one-sided class
    ratio or the total variation distance, on any partition; U = N/T or (N - T)/N; T an integer."""
    T, N = rd.gens["T"], rd.gens["N"]
    d = registered(A.get("definition"))
    distance = B.get("distance")
    b_ok = (B.get("family") == "class" and _any_partition(B, rd)
            and (distance == "total-variation" or (distance is None and B.get("sides") == "one-sided")))
    upper_ok = _upper_is(cert, rd, *((N - T, N) if distance is not None else (N, T)))
    return [("A's registered definition declares a class-size level, on any partition", d is not None
             and bool(getattr(d, "class_size_level", False)) and not A.get("params") and _any_partition(A, rd)),
            ("B is a one-sided class ratio or the total variation distance, on any partition", b_ok),
            ("T is an integer", (cert.get("symbols") or {}).get("T") == "integer"),
            ("U = (N - T)/N (a distance) or N/T (a ratio)", upper_ok)]


def _distance_ceiling_structure(cert, A, B, rd):
    """The shape of ``distance-mass``: B a class's total variation distance over classes of >= s records (no
    maximum), U = (N - s)/N."""
    N = rd.gens["N"]
    s = rd.poly(B.get("min_class") or "1")
    upper_ok = _upper_is(cert, rd, N - s, N)
    return [("B is a class's total variation distance, no maximum class size", B.get("family") == "class"
             and B.get("distance") == "total-variation" and B.get("max_class") is None),
            ("U = (N - s)/N", upper_ok),
            ("s is an integer (integer coefficients, integer symbols)", _integer_valued([s], cert.get("symbols") or {}))]


def _declared_min_class(A, B, rd):
    """``[(what, ok)]`` where the certificate says A's registered definition makes a parameter a minimum class size
    (``A["min_class_param"]``): the registry must declare it, and both sides' class sizes be that parameter's value."""
    name = A.get("min_class_param")
    if name is None:
        return []
    d = registered(A.get("definition"))
    value = (A.get("params") or {}).get(name)
    ok = (d is not None and getattr(d, "min_class_param", None) == name and value is not None
          and all(side.get("family") != "class" or (side.get("max_class") is None
                                                    and rd.poly(side.get("min_class") or "1") == rd.poly(str(value)))
                  for side in (A, B)))
    return [(f"A's registered definition declares {name} a minimum class size, the sides' class size", ok)]


def _class_size(cert, A, B, rd, data):
    """The obligations of ``class-size`` (see the module notes): ``set-mass``'s or ``same-distance``'s with s = T."""
    T = rd.gens["T"]
    return _set_mass_of(T, rd, data, 2) if B.get("distance") is None else _distance_mass_of(T, rd, data)


#: method -> (structure, obligations) of the lemma a certificate of that method invokes: ``structure(cert, A, B, rd)``
#: gives ``[(what, ok)]``, the lemma's shape conditions; ``obligations(cert, A, B, rd, data)`` its
#: :class:`Obligation` list (``data``: the certificate's ``upper_certificate``). One entry per lemma, registered
#: below with :func:`_lemma`.
METHOD_LEMMAS: dict = {}
#: the name of each method's lemma in the module notes (a certificate's ``upper_certificate["lemma"]`` must be it)
LEMMA_NAMES: dict = {}


from implgraph.certify import slack as _slack_lemmas  # noqa: E402


def _lemma(method, structure, obligations=None, name=None):
    METHOD_LEMMAS[method] = (structure, obligations or (lambda cert, A, B, rd, data: []))
    LEMMA_NAMES[method] = name or method


def _is_T(cert, rd):
    return ("U = T", _upper_is(cert, rd, rd.gens["T"], 1))


def _same_level_structure(cert, A, B, rd):
    # a description fixes the level only when it declares sides (a ratio of averages) or a distance
    described = (A.get("sides") in ("two-sided", "one-sided") or A.get("distance") is not None)
    same = (described and A["family"] == B["family"] and A.get("sides") == B.get("sides")
            and A.get("distance") == B.get("distance")
            and rd.poly(A.get("size") or 0) == rd.poly(B.get("size") or 0)
            and (A["family"] != "class" or (rd.poly(A.get("min_class") or 1) == rd.poly(B.get("min_class") or 1)
                                            and A.get("max_class") == B.get("max_class"))))
    # or the two sides are one definition (its name, the registry checks the rest) with the same parameters
    # and partition: one level function, whatever its description
    one = (bool(A.get("definition")) and A.get("definition") == B.get("definition")
           and (A.get("params") or {}) == (B.get("params") or {})
           and all(A.get(k) == B.get(k) for k in ("size", "min_class", "max_class")))
    return [("A and B have identical descriptions, or are one definition with the same parameters", same or one),
            _is_T(cert, rd)]


def _two_sided_subsets(A, B):
    return ("A and B are two-sided subset levels", A["family"] == B["family"] == "subset" and _two_sided(A)
            and _two_sided(B))


def _supremum_structure(cert, A, B, rd):
    q = (cert.get("upper_certificate") or {}).get("q")
    return [_two_sided_subsets(A, B),
            ("U = Min(T, 1/Max(1 - (N/q - 1)*(T - 1), 1/T))", q is not None and _same_text(rd, cert["upper"],
                                                                                     supremum_upper(q))),
            ("q is an integer (integer coefficients, integer symbols)", q is not None
             and _integer_valued(rd.components(q), cert.get("symbols") or {}))]


def _vertex_structure(cert, A, B, rd):
    return [("A is pairwise", A["family"] == "pairwise" and _two_sided(A)),
            ("B is a subset or class level with declared sides", B.get("sides") in ("two-sided", "one-sided")
             and B["family"] in ("subset", "class") and (B["family"] == "subset" or B.get("min_class") is not None))]


def _product_structure(cert, A, B, rd):
    size_one = A["family"] == "subset" and _size(A, rd) == 1
    singleton = A["family"] == "class" and str(A.get("max_class")) == "1"
    return [("A is a two-sided subset level of size 1 or has singleton classes", (size_one or singleton)
             and _two_sided(A)), ("B is pairwise", B["family"] == "pairwise")]


def _subset_monotone(cert, A, B, rd, data):
    return [Obligation("j_B - j_A >= 0", _size(B, rd) - _size(A, rd))]


def _subset_to_classes_structure(cert, A, B, rd):
    return [("A is a two-sided subset level, B a two-sided class level", A["family"] == "subset"
             and B["family"] == "class" and _two_sided(A) and _two_sided(B) and B.get("min_class") is not None),
            _is_T(cert, rd)]


def _subset_to_classes(cert, A, B, rd, data):
    return [Obligation("min class size - j_A >= 0", rd.poly(B["min_class"]) - _size(A, rd))]


def _distance_ceiling(cert, A, B, rd, data):
    return _distance_mass_of(rd.poly(B.get("min_class") or "1"), rd, data)


def _vertex_obligations(cert, A, B, rd, data):
    return _vertex(B, cert["upper"], rd, _multipliers(data, rd))


def _product_obligations(cert, A, B, rd, data):
    return _product(cert["upper"], rd, [{k: rd.poly(v) for k, v in comp.items()} for comp in data.get("multipliers", [])])


_lemma("same-level", _same_level_structure)
_lemma("subset-monotone", lambda cert, A, B, rd: [_two_sided_subsets(A, B), _is_T(cert, rd)], _subset_monotone,
       name="extreme-means-monotone")
_lemma("subset-supremum", _supremum_structure, _supremum, name="extreme-means-supremum")
_lemma("subset-to-classes", _subset_to_classes_structure, _subset_to_classes, name="class-mean-between-extremes")
_lemma("class-to-subset", _class_mass_structure, _class_mass, name="class-mass")
_lemma("one-sided-ceiling", _set_mass_structure, _set_mass, name="set-mass")
_lemma("one-sided-class", _rest_mass_structure, _rest_mass, name="rest-mass")
_lemma("subset-to-one-sided", _max_value_structure, _max_value, name="max-value")
_lemma("class-distance", _class_distance_structure, _class_distance)
_lemma("pairwise-distance", _pairwise_distance_structure, _pairwise_distance)
_lemma("same-distance", _same_distance_structure, _same_distance)
_lemma("one-sided-distance", _one_sided_distance_structure, _one_sided_distance)
_lemma("removal-distance", _removal_distance_structure, _removal_distance)
_lemma("removal-distance-pair", _removal_pair_structure, _removal_pair)
_lemma("subset-distance", _subset_distance_structure, _subset_distance)
_lemma("slack-pairwise-distance", _slack_pairwise_structure, _slack_pairwise)
_lemma("slack-removal-distance", _slack_removal_structure, _slack_removal)
_lemma("slack-target-pairs", _slack_target_structure, _slack_target)
_lemma("slack-target-removal", _slack_lemmas.removal_structure,
       lambda cert, A, B, rd, data: _slack_lemmas.removal_obligations(cert, A, B, rd, data, Obligation))
_lemma("slack-pairs-to-removal", _slack_lemmas.averaging_structure,
       lambda cert, A, B, rd, data: _slack_lemmas.averaging_obligations(cert, A, B, rd, data, Obligation),
       name="slack-averaging")
_lemma("slack-removal-distance-pair", _slack_removal_pair_structure, _slack_removal_pair)
_lemma("distance-ceiling", _distance_ceiling_structure, _distance_ceiling, name="distance-mass")
_lemma("class-size", _class_size_structure, _class_size)
_lemma("finite-level-of",
       lambda cert, A, B, rd: [("A's registered definition declares B's level where finite",
                                _declares_finite_level(A, B)), _is_T(cert, rd)], name="declared-finite-level")
_lemma("vertex", _vertex_structure, _vertex_obligations, name="linear-fractional-vertex")
_lemma("product", _product_structure, _product_obligations, name="extremes-and-mean")


def structural_checks(cert, rd):
    """``[(what, ok)]``: the shape conditions of the lemma the certificate invokes (:data:`METHOD_LEMMAS`), and a
    minimum class size A's registered definition declares."""
    A, B, method = cert["A"], cert["B"], cert["method"]
    lemma = METHOD_LEMMAS.get(method)
    checks = lemma[0](cert, A, B, rd) if lemma else [(f"known lemma for method {method!r}", False)]
    named = (cert.get("upper_certificate") or {}).get("lemma")
    if named is not None:       # the lemma the certificate names is the method's (its multipliers are read by name)
        checks.append((f"the certificate names the method's lemma ({LEMMA_NAMES.get(method)})",
                       named == LEMMA_NAMES.get(method)))
    return checks + _declared_min_class(A, B, rd)


def obligations(cert, rd):
    """The :class:`Obligation` list of the certificate's upper bound (its lemma's inequalities, :data:`METHOD_LEMMAS`),
    over the ring of ``rd`` (an :class:`implgraph.certify.expr.Reader`); none for an unknown method (its
    structure fails)."""
    lemma = METHOD_LEMMAS.get(cert["method"])
    return lemma[1](cert, cert["A"], cert["B"], rd, cert.get("upper_certificate") or {}) if lemma else []
