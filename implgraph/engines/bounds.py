"""The prover's arguments: an upper bound U of B's raw level given A's raw level <= T, for every N.

Each argument holds for every value of the parameters and says whether ``U`` is the supremum (the
*tight* f). The definitions are told apart by their declarations only (``family``, ``sides``,
:meth:`Definition.subset_size`, ``needs_classes``):

``same-level``
    A and B are the same definition with the same parameters, or declare the same raw level (both
    two-sided pairwise, or both two-sided class levels, without parameters): B's level is A's on
    every table (``U = T``; tight for a two-sided ratio of averages, whose every level T is some table's,
    an upper bound for another level, e.g. a distance, at most (N - 1)/N at N records).
``subset-monotone``
    A and B are two-sided subset definitions (``family = "subset"``, subset sizes j_A and j_B from
    ``subset_size``) with j_B >= j_A on the whole condition (decided by the region's solver): the
    mean of the j smallest values is nondecreasing in j and the mean of the j largest
    nonincreasing, so B's ratio is at most A's (``U = T``; tight when j_B = j_A identically).
``subset-supremum``
    The tight f of the subset-monotone case (:func:`subset_supremum`): with q = min(j_B, N - j_A),
    ``U = T`` where ``(N - q) T >= q`` and ``q / (N - (N - q) T)`` below, for any number of buckets,
    attained by a binary table of two blocks. Reported beside the subset-monotone bound (``exact``),
    whose certificate stays that of ``U = T``.
``subset-to-classes``
    A a subset definition with subset size j, B a two-sided class definition with classes of size
    >= s >= j: a class mean lies between the mean of the s smallest and the s largest values, hence
    between the j-extremes (``U = T``; tight when s = j).
``vertex``
    A is pairwise (every bucket's values lie in a box [a, T a]); B's ratio (subset or class) is a
    maximum of linear-fractional functions of each value, so its maximum over the box is at a
    vertex: m values T a and N - m values a. The maximum over m (checked on the reals, m in [0, N])
    is the tight ``U``: ((N - j) T + j)/N for subset size j, (k + (N - k) T)/N for classes of size
    >= k, attained by a binary table (a = 1/(T+1)).
``product``
    A a subset definition of subset size 1 on the whole condition (or a class definition with singleton classes, the same
    level), B pairwise: for a bucket with minimum a, maximum b and mean m, b <= T m and m <= T a
    give b/a <= T^2; with the mean between (b + (N-1) a)/N and (a + (N-1) b)/N also
    b/a <= N(T - 1) + 1. Both are checked and ``U = Min(T^2, N (T - 1) + 1)`` is attained by an
    explicit table.
``class-to-subset``
    A a two-sided class level with classes of >= s records (``a_classes``, default s = 1; no maximum
    class size), B a two-sided subset level of size j_B = N - 1 on the whole condition (record
    removal): ``U = (N - 1) T / s``, tight (:mod:`implgraph.engines.class_subset`,
    docs/proofs/class-to-subset.md); for j_B <= N - 2 the supremum is infinite (not handled here).

``one-sided-class`` (:func:`_one_sided_class_bound`)
    A a two-sided class level, B a one-sided class level, on the same partition (classes of >= s
    records, no maximum): for a class E of e records with mean x against the table's mean p, A gives
    x <= T p and every other class's mean >= p/T, so N p >= e x + (N - e) p/T and
    x/p <= (N T - N + e)/(e T) <= (N T - N + s)/(s T). ``U = Min(T, (N T - N + s)/(s T))``, tight: a
    binary table of two classes (s records at U c, N - s at c (N - s U)/(N - s), c = (T - 1)/(T (T + 1))).
``same-distance`` (:func:`_same_distance_bound`)
    A and B declare the same class distance at their parameters (``class_distance``: EMD and hierarchical
    EMD with the equal ground distance, both the total variation distance), on the same partition (classes
    of >= s records, no maximum): B's raw level is A's on every table, and no class is farther than
    (N - s)/N from the table (its mass x on the buckets S where it lies above the table, less the table's
    P >= e x/N). ``U = Min(T, (N - s)/N)``, tight: s records at (1, 0) in one class, the rest at
    (v, 1 - v) with v = 1 - N U/(N - s) (the other class is s (1 - v)/N <= U from the table).
``one-sided-distance`` (:func:`_one_sided_distance_bound`)
    A a one-sided class level (basic beta-likeness: every class at most T times the table in each bucket), B
    a class's total variation distance from the table, on the same partition (classes of >= s records, no
    maximum). For a class E of e records, the buckets S where E lies above the table, E's mass x and the
    table's P on S: x <= T P (a mediant of one-sided ratios), the other classes hold at most T (1 - P) each
    on the complement, so (T - 1)(N - e)(1 - P) >= e (x - P), and x <= 1, N P >= e x.
    ``U = Min((N - s)(T - 1)/N, (T - 1)/T, (N - s)/N)``, tight: s records at x = Min(1, T (N - s)/N) in one
    class, the rest at (N (x - U) - s x)/(N - s) in another.
``class-distance`` (:func:`_class_distance_bound`)
    A a two-sided class level, B the total variation distance of a class's distribution from the
    table's (``class_distance`` declares it: EMD with the equal ground distance), on the same partition
    (classes of >= s records, no maximum). For a class E of e records let S be the buckets where E lies
    above the table, x and P E's and the table's mass on S: B's distance for E is x - P. Merging the
    buckets of S, and of its complement, keeps every ratio of A within [1/T, T] (a mediant), so
    x <= T P, 1 - x >= (1 - P)/T and every other class's mass on S is >= P/T, whence
    N P >= e x + (N - e) P/T. Then (T - 1) - (T + 1)(x - P) = (T P - x) + (T (1 - x) - (1 - P)) >= 0
    and (N - s)(T - 1) - N T (x - P) = T (N P - e x - (N - e) P/T) + (N - e)(T (1 - x) - (1 - P))
    + (T - 1)(e - s) >= 0: ``U = Min((T - 1)/(T + 1), (N - s)(T - 1)/(N T))``, tight: s records at
    x = U' P and N - s at P (N - s U')/(N - s), with U' = Min(T, (N T - N + s)/(s T)) and
    P = Max(1/(T + 1), s/N) (binary rows, two classes).
``pairwise-distance`` (:func:`_pairwise_distance_bound`)
    A pairwise, B a class's total variation distance from the table (classes of >= s records, no
    maximum). For a class E of e records and the buckets S where E lies above the table, let X and Y be
    the means, on S, of E's records and of the others: B's distance for E is x - P = (N - e)(X - Y)/N.
    Every record of E and every other record are within ratio T on S and on its complement (A, a
    mediant), so averaging, X <= T Y and T (1 - X) >= 1 - Y, whence (T + 1)(X - Y) <= T - 1:
    ``U = (N - s)(T - 1)/(N (T + 1))``, tight: s records at T/(T + 1) in one class, the rest at
    1/(T + 1) (binary rows).
``removal-distance`` (:func:`_removal_distance_bound`)
    A a two-sided subset level of size N - 1 (record removal: eps-DP), or of any size j <= N - 1 (a set of
    >= j records has its mean between the means of the j smallest and the j largest values, so A bounds the
    N - 1 records as well), B a class's total variation distance from the table over any classes (minimum
    class size 1). A class's mass x on the buckets S
    where it lies above the table is at most the largest record's, M; removing that record leaves N - 1
    records whose means on S and on its complement are within ratio T of the table's (a mediant):
    T (N P - M) >= (N - 1) P and (N - 1) T (1 - P) >= N (1 - P) - (1 - M). Their sum is
    (N - 1)(T - 1) - (T + 1)(M - P) >= 0, and the first plus (N - 1)(T - 1) (1 - M) >= 0 is
    (N - 1)(T - 1) - (N T - N + 1)(M - P) >= 0:
    ``U = Min((N - 1)(T - 1)/(T + 1), (N - 1)(T - 1)/(N T - N + 1))``, attained for every N >= 3 by one
    record at x = Min(1, (N T - N + 1)/(T + 1)) in a class of its own and N - 1 at x/(N T - N + 1) (at N = 2
    that table breaks A: the supremum there is smaller, (T - 1)/(2 T)); tight where the condition gives
    j = N - 1 and N >= 3, an upper bound otherwise. For j < N - 1 U may or may not be attained (that table
    need not satisfy A; at N = 4, j = 2 the supremum is 3 (T - 1)/(2 T), below U, for T < 3/2 and U from 3/2
    on). Where the condition has N = 2 and j = N - 1, the supremum (``exact``) is
    ``Piecewise(((T - 1)/(2 T), Eq(N, 2)), (U, True))``, proved piece by piece (U for N >= 3, and:)
``removal-distance-pair`` (:func:`_removal_pair_bound`, the N = 2 piece)
    With two records the classes are the records, and A bounds each against the table: for the class x1 and the
    buckets S where it lies above the table, x2 = 2 P - x1, T x2 >= P on S and T (1 - x1) >= 1 - P on the
    complement; their sum is (T - 1) - 2 T (x1 - P) >= 0: ``U = (T - 1)/(2 T)``, tight: x1 = (2 T - 1)/(2 T),
    x2 = 1/(2 T) in two classes.
``subset-to-one-sided`` (:func:`_subset_one_sided_bound`)
    A a two-sided subset level of size j (1 <= j <= N - 1), B a one-sided class level (any class
    sizes): a class mean is at most the bucket's largest value M. The N - 1 other values are the N - 1
    smallest, with mean >= the j smallest's >= p/T, so M <= N p - (N - 1) p/T; the j largest are M and
    the j - 1 largest of the others, whose mean H is at least the others' mean (N p - M)/(N - 1), and
    M + (j - 1) H <= j T p, so (N - j) M <= (j T (N - 1) - (j - 1) N) p.
    ``U = Min(N - (N - 1)/T, (j T (N - 1) - (j - 1) N)/(N - j))``, tight: one record at U c and N - 1 at
    c (N - U)/(N - 1) (binary rows, c = (T - 1)/(N T (T + 1)); the high record its own class) satisfy A
    and have B's ratio U. (Making the others equal lowers the j - 1 largest and raises the j smallest,
    so no table does better.)
``finite-level-of``
    A declares ``finite_level_of = B`` (no parameters on either side, the same scale): where A's level
    is finite it is B's, so ``U = T`` (an upper bound; tightness not derived).
``distance-ceiling`` (:func:`ceiling_bound`, the last resort, after the registered lemmas)
    B a class's total variation distance over classes of >= s records (no maximum), whatever A is: the other
    records hold N P - e x >= 0 on the buckets where a class lies above the table, so ``U = (N - s)/N``, an
    upper bound.
``one-sided-ceiling`` (:func:`ceiling_bound`, the last resort, after the registered lemmas)
    B a one-sided ratio of averages (``sides = "one-sided"``) over classes of >= s records or over
    subsets of j records, whatever A is: in each bucket a set S of the table D holds at most all of
    D's mass (values >= 0), so ``|S| mean_S <= N mean_D`` and B's raw level is at most ``U = N / s``
    (``N / j``) on every table of N records. An upper bound only (``tight`` False): whether a table
    satisfying A attains it is not argued.

Every argument bounds one bucket's values at a time (a column of the table), so it holds for any
number of buckets p >= 2, and every attaining table is binary: the binary case is extremal
(:data:`ANY_BUCKETS`, :data:`BINARY_EXTREMAL`, appended to the prover's evidence).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import itertools

import sympy

from implgraph import definitions
from implgraph.core.concrete import ConcreteTable
from implgraph.core.formula import Word
from implgraph.core.verdict import VerdictWord
from implgraph.core.simplified import simplified
from implgraph.engines.class_subset import class_to_subset
from implgraph.definitions.base import range_bound

__all__ = ["ANY_BUCKETS", "BINARY_EXTREMAL", "Bound", "ProofResult", "T", "tight_bound", "ceiling_bound", "any_partition", "class_distance_of", "lowest_raw", "param_ranges", "subset_size_expr", "declared_subset_size", "compares", "decide",
           "as_definition"]

#: what every argument here says of the number of buckets (see the module notes)
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


@dataclass
class ProofResult(VerdictWord):
    """Verdict-like outcome of :func:`check_implication`."""

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


def as_definition(d):
    return definitions.get(d) if isinstance(d, str) else d


def compares(d, family: str) -> bool:
    """Is ``d`` a two-sided ratio of averages over the declared ``family`` of record sets
    (``"pairwise"``, ``"subset"``, ``"class"``)? The arguments below assume both directions of each
    ratio are bounded (a one-sided declaration bounds only one)."""
    return d.family == family and getattr(d, "sides", None) == "two-sided"


def _one_sided(d, family: str) -> bool:
    """Is ``d`` a one-sided ratio of averages over ``family`` (only ``mean_S / mean_D`` bounded)?"""
    return getattr(d, "family", None) == family and getattr(d, "sides", None) == "one-sided"


def _class_level(d) -> bool:
    """Is ``d`` a ratio of averages over classes with declared sides (two- or one-sided)?"""
    return compares(d, "class") or _one_sided(d, "class")


def declared_subset_size(d, N, params):
    """Symbolic subset size of a subset definition (one- or two-sided) at ``params``, or None."""
    if getattr(d, "family", None) != "subset":
        return None
    j = d.subset_size(N, **{k: sympy.sympify(v) for k, v in params.items()})
    return None if j is None else sympy.sympify(j)


def subset_size_expr(d, N, params):
    """Symbolic subset size of a two-sided subset definition, or None."""
    return declared_subset_size(d, N, params) if compares(d, "subset") else None


def decide(region, cond):
    """Three-valued ``region.decide``; an error inside it is a bug and propagates."""
    return region.decide(cond)


def _at(point, N, s=1):
    """T, N and the class size s as exact values at a ``point`` of the tightness family (N may be a number)."""
    return (sympy.Rational(point[T]), int(point[N]) if N in point else int(N), int(sympy.sympify(s).subs(point)))


def _two_blocks(N, s, values):
    """``build(point)``: s records at x in class E1 and N - s at y in E2 (binary rows), ``(x, y) = values(T, N, s)`` at
    the point."""
    def build(point):
        Tv, Nv, sv = _at(point, N, s)
        x, y = values(Tv, Nv, sv)
        return _binary_column_table([_frac(x)] * sv + [_frac(y)] * (Nv - sv), labels=["E1"] * sv + ["E2"] * (Nv - sv))
    return build


def _binary_column_table(values, labels=None):
    rows = [[v, 1 - v] for v in values]
    return ConcreteTable.from_fractions(rows, classes=labels)


def _frac(x):
    x = sympy.Rational(x)
    return Fraction(int(x.p), int(x.q))


def _at_least_one(x):
    """``x >= 1``, kept as a condition when ``x`` is a symbol declared positive (sympy would evaluate
    it to True, and the solver sees only the symbol's kind, not its sign)."""
    x = sympy.sympify(x)
    c = sympy.Ge(x, 1)
    return sympy.Ge(x, 1, evaluate=False) if c is sympy.true and x.free_symbols else c


def integer_param(d, name) -> bool:
    """Are the values a definition declares for its parameter ``name`` integers (a group or class size;
    :func:`implgraph.definitions.families.param_grid` at 4 records)?"""
    from implgraph.definitions.families import param_grid
    grid = param_grid(d, 4) or []
    values = [g[name] for g in grid if name in g]
    return bool(values) and all(isinstance(v, int) for v in values)


def param_ranges(a, b, a_params, b_params, N, b_classes=None) -> list:
    """The ranges where the parameters mean something: each side's declared ``ranges`` (1 <= k <= N - 1 for a
    group size ``k``), and 1 <= s, 2 s <= N for B's minimum class size ``s`` (a partition into >= 2 classes; with a
    single class the level is 1, below every bound)."""
    ranges = []
    for d, ps in ((a, a_params), (b, b_params)):
        for name, (low, high) in (getattr(d, "ranges", None) or {}).items():
            if name not in ps or isinstance(ps[name], Word):
                continue
            v = sympy.sympify(ps[name])
            if v.is_number and v.is_integer is not True and integer_param(d, name):
                ranges.append(sympy.false)      # a group or class size that is no integer: no table has it
            low, high = (range_bound(x, N) for x in (low, high))     # declared text: the formula reader
            ranges += [_at_least_one(v) if low == 1 else sympy.Ge(v, low), sympy.Le(v, high)]
    if (_class_level(b) or class_distance_of(b, b_params)) and (b_classes or {}).get("min_size") is not None:
        s_ = sympy.sympify(b_classes["min_size"])
        ranges += [_at_least_one(s_), sympy.Le(2 * s_, N)]
    return [c for c in ranges if c not in (sympy.true, True)]


def tight_bound(a, b, a_params, b_params, region, N, a_classes=None, b_classes=None):
    """The strongest :class:`Bound` the engine can establish for A => B, or None."""
    a, b = as_definition(a), as_definition(b)
    if (_class_level(b) or class_distance_of(b, b_params)) and not b_classes:
        b_classes = {"min_size": sympy.Integer(1)}   # any partition: classes of size >= 1
    region = region.add(*param_ranges(a, b, a_params, b_params, N, b_classes))
    by_size = _class_size_bound(b, b_params, b_classes, N) \
        if getattr(a, "class_size_level", False) and any_partition(a_classes) else None
    if by_size is not None:     # A's level is its smallest class's size: it bounds the classes B compares
        return by_size
    ja = subset_size_expr(a, N, a_params)
    jb = subset_size_expr(b, N, b_params)
    # same definition, same parameters
    if a.name == b.name and all(_same_value(a_params[k], b_params.get(k, 0)) for k in a_params) \
            and not a_classes and not b_classes:
        # every level T is some table's exactly for a two-sided ratio of averages (the family of U = T);
        # a distance, a count or an entropy takes a bounded or discrete set of values at each N
        ratio = any(compares(a, fam) for fam in ("pairwise", "subset", "class"))
        return Bound(T, ratio, "same-level",
                     "A and B are the same definition with the same parameters: a table satisfying it at "
                     "level alpha has optimal level <= alpha, so B holds at every level >= alpha" + (
                         ", and at no smaller level on a table whose optimal level is alpha" if ratio else
                         " (an upper bound: not every alpha is some table's level at each N, e.g. a distance is "
                         "at most (N - 1)/N, so U = T is not claimed tight)"))
    # two definitions declaring the same raw level: a two-sided ratio of averages over the same record sets
    same_family = next((fam for fam in ("pairwise", "class") if compares(a, fam) and compares(b, fam)), None)
    one_spec = same_family == "pairwise" or (
        (a_classes or {"min_size": sympy.Integer(1)}) == b_classes and not (b_classes or {}).get("max_size"))
    if same_family is not None and not a.params and not b.params and one_spec:
        sets = "pairs of records" if same_family == "pairwise" else "the classes of the table's one partition"
        return Bound(T, True, "same-level",
                     f"A and B declare the same raw level, a two-sided ratio of averages over {sets} (family "
                     f"{same_family}, no parameters): on every table B's raw level is A's, so B holds at A's raw "
                     "level and at no smaller one on a table whose level is exactly that")
    # two definitions declaring the same class distance at their parameters, on the same partition
    distance = class_distance_of(a, a_params)
    if distance == "total-variation" and distance == class_distance_of(b, b_params) \
            and (a_classes or {"min_size": sympy.Integer(1)}) == b_classes and not (b_classes or {}).get("max_size"):
        return _same_distance_bound(sympy.sympify(b_classes["min_size"]), region, N, distance)
    # A a class's distance from the table, B a one-sided class ratio: no bound below B's ceiling N
    if distance == "total-variation" and _one_sided(b, "class") and class_distance_of(b, b_params) is None \
            and any_partition(a_classes) and any_partition(b_classes):
        return _escape_bound(N)
    # A declares that where its level is finite it is B's (a condition added to B's): U = T
    if getattr(a, "finite_level_of", None) == b.name and not a.params and not b.params \
            and a.scale == b.scale and a.stronger == b.stronger:
        return Bound(T, False, "finite-level-of",
                     f"{a.name} declares that its optimal level is {b.name}'s wherever it is finite (a condition "
                     f"added to {b.name}'s makes the rest infinite), in the same units: a table satisfying A at "
                     "level alpha has B's level <= alpha (an upper bound; tightness not derived)")
    if ja is not None and jb is not None:
        same = simplified(ja - jb) == 0 or decide(region, sympy.Eq(jb, ja)) is True
        ok = True if same else decide(region, sympy.Ge(jb, ja))
        if ok is True:
            arg = (f"both are subset-ratio levels (subset sizes j_A = {ja}, j_B = {jb}); "
                   + ("j_A = j_B on the whole condition, so the two level functions coincide (both are read "
                      "off the same subset ratio)" if same else
                      "j_B >= j_A on the whole condition (z3), and the mean of the j smallest values "
                      "is nondecreasing in j, the mean of the j largest nonincreasing, so B's ratio is "
                      "at most A's"))
            return Bound(T, bool(same), "subset-monotone", arg,
                         checks=[f"j_B >= j_A on the condition: {ok}"],
                         exact=None if same else subset_supremum(ja, jb, region, N))
    if ja is not None and compares(b, "class") and b_classes and b_classes.get("min_size") is not None:
        s = sympy.sympify(b_classes["min_size"])
        ok = decide(region, sympy.Ge(s, ja))
        if ok is True:
            same = simplified(s - ja) == 0
            return Bound(T, bool(same), "subset-to-classes",
                         f"every class has >= {s} >= j_A = {ja} records; a class mean lies between the means "
                         f"of its size's smallest and largest values, hence between the j_A-extreme means, so "
                         f"each class ratio is at most A's ratio" + (
                             "; tight: the class of the j_A extreme records of the bucket that attains A's "
                             "level has exactly A's ratio" if same else ""),
                         checks=[f"min class size >= j_A on the condition: {ok}"])
    if compares(a, "class") and _one_sided(b, "class") and not (b_classes or {}).get("max_size") \
            and (a_classes or {"min_size": sympy.Integer(1)}) == b_classes:
        return _one_sided_class_bound(sympy.sympify(b_classes["min_size"]), region, N)
    if compares(a, "class") and class_distance_of(b, b_params) == "total-variation" \
            and not (b_classes or {}).get("max_size") and (a_classes or {"min_size": sympy.Integer(1)}) == b_classes:
        return _class_distance_bound(sympy.sympify(b_classes["min_size"]), region, N)
    if _one_sided(a, "class") and class_distance_of(b, b_params) == "total-variation" \
            and not (b_classes or {}).get("max_size") and (a_classes or {"min_size": sympy.Integer(1)}) == b_classes:
        return _one_sided_distance_bound(sympy.sympify(b_classes["min_size"]), N)
    if compares(a, "pairwise") and class_distance_of(b, b_params) == "total-variation" \
            and not (b_classes or {}).get("max_size"):
        return _pairwise_distance_bound(sympy.sympify(b_classes["min_size"]), N)
    # (a maximum class size other than 1 may rule out the vertex table, a class of k records and the rest
    # in classes of equal values: no argument then; with singleton classes every record is its own class)
    vertex_classes = (_class_level(b) and b_classes and b_classes.get("min_size") is not None
                      and (b_classes.get("max_size") is None or sympy.sympify(b_classes["max_size"]) == 1))
    if compares(a, "pairwise") and (jb is not None or vertex_classes):
        return _vertex_bound(b, jb, b_classes, region, N)
    singleton_a = (compares(a, "class") and a_classes and
                   sympy.sympify(a_classes.get("max_size", 0)) == 1)
    if (ja is not None and (simplified(ja - 1) == 0 or decide(region, sympy.Eq(ja, 1)) is True) or singleton_a) \
            and compares(b, "pairwise"):
        return _product_bound(region, N, singleton=bool(singleton_a))
    # (with classes of >= s >= 2 records the ceiling N/s can be smaller: this argument only for any classes)
    if ja is not None and _one_sided(b, "class") and sympy.sympify((b_classes or {}).get("min_size", 1)) == 1 \
            and decide(region, sympy.And(ja >= 1, ja <= N - 1)) is True:
        return _subset_one_sided_bound(ja, N, region)
    if ja is not None and class_distance_of(b, b_params) == "total-variation" \
            and sympy.sympify((b_classes or {}).get("min_size", 1)) == 1 and not (b_classes or {}).get("max_size") \
            and decide(region, sympy.And(ja >= 1, ja <= N - 1)) is True:
        if simplified(ja - (N - 1)) == 0 or decide(region, sympy.Eq(ja, N - 1)) is True:
            return _removal_distance_bound(N, region, ja)
        return _subset_distance_bound(ja, N, region) or _removal_distance_bound(N, region, ja)
    # B compares two records with an additive slack, A bounds every ratio between two records
    target = sympy.sympify(b_params.get("delta", "none")) if getattr(b, "slack_compares", None) == "pairs" else None
    if target is not None and target.is_Rational and 0 < target < 1 and compares(a, "pairwise") \
            and not getattr(a, "slack_compares", None):
        return _slack_target_bound(target, region, N)
    # A's constraints a <= T b + delta on every event, B a class's total variation distance
    compares_slack = getattr(a, "slack_compares", None)
    delta = sympy.sympify(a_params.get("delta", "none")) if compares_slack else None
    if compares_slack in ("pairs", "removal") and delta is not None and delta.is_Rational and 0 <= delta < 1 \
            and class_distance_of(b, b_params) == "total-variation" and not (b_classes or {}).get("max_size") \
            and any_partition(a_classes) \
            and (compares_slack == "pairs" or sympy.sympify((b_classes or {}).get("min_size", 1)) == 1):
        return _slack_distance_bound(compares_slack, delta, sympy.sympify((b_classes or {}).get("min_size", 1)),
                                     region, N)
    if compares(a, "class") and jb is not None:
        return class_to_subset(a_classes, jb, region, N, T=T, decide=decide, Bound=Bound, at_least_one=_at_least_one)
    return None


def ceiling_bound(b, b_params, b_classes, region, N):
    """B's raw level on every table of N records, whatever A is: ``N / s`` for a one-sided class level
    with classes of >= s records (s = 1 unless ``b_classes`` says more), ``N / j`` for a one-sided
    subset level of size j; None for any other declaration (a two-sided level is unbounded: a zero
    against a positive value).

    Examples
    --------
    >>> from implgraph.definitions.families import RatioOfAverages
    >>> from implgraph.core.region import Region
    >>> class Upper(RatioOfAverages):
    ...     name, level_symbol, scale, family, sides = "upper-doc", "beta", "affine", "class", "one-sided"
    >>> N = sympy.Symbol("N", integer=True)
    >>> ceiling_bound(Upper(), {}, None, Region({N: "integer"}, (N >= 2,)), N).upper
    N
    """
    b = as_definition(b)
    if class_distance_of(b, b_params) == "total-variation" and b.family == "class" \
            and not (b_classes or {}).get("max_size"):
        return _distance_ceiling(sympy.sympify((b_classes or {}).get("min_size", 1)), region, N)
    if getattr(b, "sides", None) != "one-sided" or b.family not in ("class", "subset"):
        return None
    if b.family == "class":
        s = sympy.sympify((b_classes or {}).get("min_size", 1))
        what = f"a class of >= {s} records"
    else:
        s = declared_subset_size(b, N, b_params)
        if s is None:
            return None
        what = f"a set of {s} records"
    if decide(region, sympy.Ge(s, 1)) is not True:
        return None
    return Bound(simplified(N / s), False, "one-sided-ceiling",
                 f"{b.name} is a one-sided ratio of averages: in each bucket {what} holds at most the "
                 f"whole table's mass (values >= 0), so its mean is at most N/({s}) times the table's mean, "
                 f"on every table of N records whatever A is (an upper bound; not argued to be attained)",
                 checks=["B's set size >= 1 on the condition: True"])


def _distance_ceiling(s, region, N):
    """``distance-ceiling``: a class of >= s records is at most (N - s)/N from the table, whatever A is."""
    ok = decide(region, sympy.And(s >= 1, 2 * s <= N))
    if ok is not True:
        return None
    return Bound(simplified((N - s) / N), False, "distance-ceiling",
                 f"B is a class's total variation distance from the table: for a class E of e >= {s} records and the "
                 "buckets S where it lies above the table (E's mass x, the table's P), the other records hold "
                 f"N P - e x >= 0 on S, so x - P <= (N - e) x/N <= (N - {s})/N on every table of N records whatever A "
                 "is (an upper bound; not argued to be attained)",
                 checks=[f"s >= 1 and 2 s <= N on the condition: {ok}"])


def attained_ceiling(a, a_params, a_classes, b_classes, bound, N, floor=None):
    """B's ceiling ``bound`` (``distance-ceiling`` or ``one-sided-ceiling`` over classes of >= s records, any partition
    otherwise: s = ``floor``, a minimum class size A declares, or 1), tight where a table satisfying A at every level
    reaches it; None where no such table is known here.

    - A's level of a class uniform over m values improves strictly with m, its table's level being its worst
      class's (:func:`implgraph.definitions.class_bounds.uniform_values`: the l-diversities, ``m``, and
      (alpha,k)-anonymity, ``1 + 1/m``): s records uniform over the fewest m meeting T in a class of their own and
      N - s uniform over m other values in another have A's level at T and B's ceiling, (N - s)/N from the table or
      N/s times its mean;
    - (s = 1) A's level is a tail ratio with parameter l (recursive (c,l)-diversity): the same with m = l, A's level 1;
    - (s = 1) A has an additive slack delta > 0 (``slack_compares``, (eps,delta)-DP and -LDP) and B is a one-sided
      class ratio: one record at (delta, 1 - delta) in a class of its own and N - 1 at (0, 1) differ by at most delta
      on every event, so A holds at its strongest level, and the lone class holds N times the table's mean.
    """
    from implgraph.definitions.class_bounds import uniform_class_raw, uniform_values
    if bound is None or bound.method not in ("distance-ceiling", "one-sided-ceiling"):
        return None
    if floor is None and not (any_partition(a_classes) and any_partition(b_classes)
                              and sympy.sympify((b_classes or {}).get("min_size", 1)) == 1):
        return None
    s = sympy.Integer(1) if floor is None else sympy.sympify(floor)
    base = bound.argument.replace(" (an upper bound; not argued to be attained)", "")
    checks = bound.checks + (["any partition: True"] if floor is None else [])
    uniform = uniform_values(a, T)
    if uniform is not None:
        m, where = uniform
        if s != 1:      # two classes of >= s records
            where = sympy.And(where, 2 * s <= N)
        who = "one record" if s == 1 else f"{s} records"
        arg = (f"{base}; and it is attained whatever A's level T{'' if where is sympy.true else f' with {where}'}: "
               f"{a.name}'s raw level of a class uniform over m values is {uniform_class_raw(a)} (its declared class "
               f"level at q_i = 1/m), improving with m, and the table's is its worst class's, so {who} uniform over "
               f"m = {m} values in a class of {'its' if s == 1 else 'their'} own and N - {s} records uniform over m "
               f"other values in another (2 m buckets) satisfy A at T, and the class of {s} holds all its mass where "
               f"the table holds {s}/N of it: B's ceiling")
        return Bound(bound.upper, True, bound.method, arg, build=_uniform_classes(N, m, s),
                     checks=checks + [f"A ({a.name}): a uniform class's level improves with its number of values m, "
                                      f"T met at m = {m}: True"],
                     buckets=2 * m, attained_where=where)
    if floor is not None:
        return None
    name = getattr(a, "tail_ratio_param", None)
    tail = sympy.sympify((a_params or {})[name]) if name in (a_params or {}) else None
    if tail is not None and tail.is_Integer and tail >= 1:
        lv = int(tail)
        arg = (f"{base}; and it is attained whatever A's level: {a.name}'s level is max(1, max_E r_1/(r_l + ... + r_m)) "
               f"(l = {lv}), and a class uniform over l values has r_1 = 1/l and r_l + ... = 1/l: level 1, the "
               f"strongest. One record uniform over {lv} values in a class of its own and N - 1 uniform over {lv} other "
               "values in another satisfy A at every level, and the lone class holds all its mass where the table "
               "holds 1/N of it: B's ceiling")
        return Bound(bound.upper, True, bound.method, arg, build=_uniform_classes(N, sympy.Integer(lv)),
                     checks=checks + [f"A ({a.name}) is a tail ratio with l = {lv}: True"], buckets=sympy.Integer(2 * lv))
    delta = sympy.sympify((a_params or {}).get("delta", 0))
    if getattr(a, "slack_compares", None) and bound.method == "one-sided-ceiling" and delta.is_Rational \
            and 0 < delta < 1:
        def build(point):
            _, Nv, _ = _at(point, N)
            d = _frac(delta)
            return _binary_column_table([d] + [Fraction(0)] * (Nv - 1), labels=["E1"] + ["E2"] * (Nv - 1))

        arg = (f"{base}; and it is attained whatever A's level: one record at ({delta}, 1 - {delta}) in a class of its "
               f"own and N - 1 at (0, 1) in another differ by at most delta = {delta} on every event (the table "
               f"and the table without one record, or two records), so each of {a.name}'s constraints "
               "a <= e^eps b + delta holds at eps = 0, and the lone class's mean of the first bucket is N times the "
               "table's")
        return Bound(bound.upper, True, bound.method, arg, build=build,
                     checks=checks + [f"A ({a.name}) has an additive slack delta = {delta} > 0: True"])
    return None


def finite_level_chain(a, b, b_params, region, N, a_classes=None, b_classes=None):
    """``chain``: A declares its level X's wherever finite (``finite_level_of``, the same scale and direction, no
    parameters), so a table with A <= T has X <= T, and X's bound towards B holds for A. Tight where X's bound is,
    with a binary family, and A's finite condition is a cap on each increase that spreading each value over
    m = 3^ceiling(T) buckets meets (``increase_cap = "-log(p)"``: e^(q/p - 1) <= e^(T - 1) < m <= m/p); None where
    no bound of X towards B is derived here."""
    from implgraph.definitions import get
    name = getattr(a, "finite_level_of", None)
    if not name or a.params:
        return None
    x = get(name)
    if x.scale != a.scale or x.stronger != a.stronger or x.params:
        return None
    inner = tight_bound(x, b, {}, b_params, region, N, a_classes, b_classes)
    if inner is None or inner.exact is not None or inner.parts or inner.method in ("min", "finite-level-of"):
        return None
    first = Bound(T, False, "finite-level-of",
                  f"{a.name} declares that its optimal level is {x.name}'s wherever it is finite, in the same units: "
                  f"a table satisfying A at level alpha has {x.name}'s level <= alpha")
    spread = getattr(a, "increase_cap", None) == "-log(p)" and inner.buckets is None and inner.build is not None
    arg = f"{first.argument}; and {x.name} => {b.name} ({inner.method}): {inner.argument}"
    if inner.tight and spread:
        arg += (f"; attained: {x.name}'s attaining table with each bucket split into m = 3^ceiling(T) equal buckets "
                "keeps every ratio and distance, and each increase q/p - 1 <= T - 1 is then below -ln(p/m) >= ln m "
                f"> T, so {a.name}'s cap holds and its level is {x.name}'s")

        return Bound(inner.upper, True, "chain", arg, build=_split(inner.build), checks=inner.checks,
                     parts=[(sympy.true, first), (sympy.true, inner)], buckets=2 * CAP_SPLIT)
    return Bound(inner.upper, False, "chain", arg + " (an upper bound; tightness not derived)", checks=inner.checks,
                 parts=[(sympy.true, first), (sympy.true, inner)])


def capped_finite_level(a, bound, cap, N):
    """The ``min`` of ``finite-level-of`` (U = T) and B's ceiling N (a one-sided class level over any classes), tight
    where A's finite condition is a cap on each increase (``increase_cap = "-log(p)"``): at R = Min(T, N), one record
    at 1/2 in a class of its own and N - 1 at (N - R)/(2 R (N - 1)) have B's level R (the lone class's ratio; the other
    class's on the second bucket is 1 + P (R - 1)/((N - 1)(1 - P)) <= R, P = 1/(2 R)), and with each bucket split into
    m = 3^ceiling(T) equal ones
    every increase q/p - 1 <= R - 1 < ln m <= -ln(p/m), so A's level is R too; None otherwise."""
    if not (bound.method == "finite-level-of" and cap.method == "one-sided-ceiling" and simplified(cap.upper - N) == 0
            and getattr(a, "increase_cap", None) == "-log(p)"):
        return None
    def values(Tv, Nv, sv):
        Rv = min(Tv, sympy.Integer(Nv))
        return sympy.Rational(1, 2), (Nv - Rv) / (2 * Rv * (Nv - 1))

    arg = (f"the smaller of two upper bounds: ({bound.method}) {bound.argument}; and ({cap.method}) {cap.argument}; "
           "attained: at R = Min(T, N) one record at 1/2 alone and N - 1 at (N - R)/(2 R (N - 1)) have B's level R (the "
           "other class's ratio on the second bucket is 1 + P (R - 1)/((N - 1)(1 - P)) <= R with P = 1/(2 R)), and with "
           "each bucket split into m = 3^ceiling(T) equal buckets every increase q/p - 1 <= R - 1 < ln m <= -ln(p/m), "
           f"so {a.name}'s cap holds and its level is R <= T")
    return Bound(sympy.Min(bound.upper, cap.upper), True, "min", arg, build=_split(_two_blocks(N, 1, values)),
                 checks=bound.checks + cap.checks, parts=[(sympy.true, bound), (sympy.true, cap)], buckets=2 * CAP_SPLIT)


#: the number of equal buckets each bucket is split into where A caps each increase at -ln p: ln m > T - 1 for
#: m = 3^ceiling(T) (the certificates write it as the family's ``split``)
CAP_SPLIT = 3 ** sympy.ceiling(T)


def _split(build, most=8):
    """``build(point)`` with each bucket of its table split into :data:`CAP_SPLIT` equal buckets; None where that is more
    than ``most`` (the checker reads the split family without expanding it)."""
    def split(point):
        mv = int(CAP_SPLIT.subs(T, point[T]))
        table = build(point)
        if table is None or mv > most:
            return None
        rows = [[Fraction(int(v), table.denom * mv) for v in row for _ in range(mv)] for row in table.numer]
        return ConcreteTable.from_fractions(rows, classes=table.classes)
    return split


def _uniform_classes(N, m, s=1):
    """``build(point)``: s records uniform over m values (an expression in T) in class E1 and N - s records uniform
    over m other values in E2 (2 m buckets)."""
    def build(point):
        Tv, Nv, sv = _at(point, N, s)
        mv = int(sympy.sympify(m).subs(T, Tv))
        rows = ([[Fraction(1, mv)] * mv + [Fraction(0)] * mv] * sv
                + [[Fraction(0)] * mv + [Fraction(1, mv)] * mv] * (Nv - sv))
        return ConcreteTable.from_fractions(rows, classes=["E1"] * sv + ["E2"] * (Nv - sv))
    return build


def _escape_bound(N):
    """``one-sided-ceiling``, tight, where A is a class's total variation distance from the table (any partition) and
    B a one-sided class ratio (any partition): B's ceiling N is attained under every distance T > 0."""
    def build(point):
        Tv, Nv, _ = _at(point, N)
        x = min(sympy.Integer(1), Tv * Nv / (Nv - 1))
        return _binary_column_table([_frac(x)] + [_frac(0)] * (Nv - 1), labels=["E1"] + ["E2"] * (Nv - 1))

    arg = ("B is a one-sided class ratio: in each bucket a class of e >= 1 records holds at most the table's mass "
           "(values >= 0), so its mean is at most N times the table's (U = N, whatever A is). A is a class's total "
           "variation distance from the table, which a rare value escapes: one record at x = Min(1, N T/(N - 1)) in "
           "a class of its own and N - 1 at 0 in another (binary rows) are at distances x (N - 1)/N <= T and x/N <= T "
           "from the table, and the lone class's ratio in the first bucket is x/(x/N) = N, for every T > 0")
    return Bound(N, True, "one-sided-ceiling", arg, build=build,
                 checks=["A: a class's total variation distance, any partition: True",
                         "B: a one-sided class ratio, any partition: True"])


def _vertex_bound(b, jb, b_classes, region, N):
    m = sympy.Symbol("m", real=True)
    checks = []
    if jb is not None:
        j = jb
        U = ((N - j) * T + j) / N
        other = N * T / (j * T + N - j)
        # vertex values g(m): m values T*a, N - m values a (a = 1)
        mean = (m * T + N - m) / N
        pieces = [
            ("mean/min_j, m <= N - j", mean / 1, [m >= 0, m <= N - j]),
            ("mean/min_j, m >= N - j", mean / ((N - m + (j - N + m) * T) / j), [m >= N - j, m <= N]),
            ("max_j/mean, m >= j", T / mean, [m >= j, m <= N]),
            ("max_j/mean, m <= j", ((m * T + j - m) / j) / mean, [m >= 0, m <= j]),
        ]
        what = f"subset size j = {j}"
    else:
        k = sympy.sympify(b_classes["min_size"])
        e = sympy.Symbol("e", real=True)
        U = (k + (N - k) * T) / N
        other = N * T / (k * T + N - k)
        # class E of size e at a (or T a), the rest at T a (or a): the extreme of each class ratio
        pieces = [
            ("Pr_D/Pr_E, E at a, rest at T a", (e + (N - e) * T) / N, [e >= k, e <= N - k]),
            ("Pr_E/Pr_D, E at T a, rest at a", N * T / (e * T + N - e), [e >= k, e <= N - k]),
        ]
        if _one_sided(b, "class"):      # only Pr_E / Pr_D is bounded: its extreme is U
            U, other, pieces = other, other, pieces[1:]
        m = e
        what = f"classes of size >= {k}" + (", one-sided" if _one_sided(b, "class") else "")
    ok_all = True
    for label, g, dom in pieces:
        reg = region.with_symbols({m: "real"}).add(*dom)
        r = decide(reg, sympy.Le(sympy.together(g - U), 0))
        checks.append(f"{label} <= U: {r}")
        if r is not True:
            ok_all = False
    r = decide(region, sympy.Ge(U, other))
    checks.append(f"U >= the other side's extreme {other}: {r}")
    if not ok_all:
        return None

    def build(point):
        Tv, Nv, _ = _at(point, N)
        a = sympy.Rational(1) / (Tv + 1)
        if jb is not None:
            jv = int(sympy.sympify(jb).subs(point))
            vals = [a] * jv + [Tv * a] * (Nv - jv)
            return _binary_column_table([_frac(v) for v in vals])
        kv = int(sympy.sympify(b_classes["min_size"]).subs(point))
        vals = [a] * kv + [Tv * a] * (Nv - kv)
        return _binary_column_table([_frac(v) for v in vals], labels=["E1"] * kv + ["E2"] * (Nv - kv))

    arg = (f"A is pairwise: every bucket's values lie in [a, T a]. B's ratio ({what}) is a maximum of "
           f"linear-fractional functions of each value, so its maximum over the box is at a vertex "
           f"(m values T a, N - m values a); z3 checked that every vertex value is at most "
           f"U = {simplified(U)} (m real in [0, N]) and that U dominates the other ratio; U is attained "
           f"by a binary table with a = 1/(T + 1)")
    return Bound(simplified(U), True, "vertex", arg, build=build, checks=checks)


def one_sided_class_upper(s, N):
    """``U = Min(T, (N T - N + s)/(s T))`` of the ``one-sided-class`` argument (raw levels)."""
    return sympy.Min(T, (N * T - N + s) / (s * T))


def _one_sided_class_bound(s, region, N):
    y_, e_ = sympy.symbols("y_ e_", positive=True)
    U2 = (N * T - N + s) / (s * T)
    # p = 1 (ratios are scale free): E's mean x, the rest's mean y >= 1/T, N = e x + (N - e) y
    reg = region.with_symbols({y_: "real", e_: "real"}).add(
        e_ >= s, e_ <= N - s, T * y_ >= 1, y_ >= 0, N - (N - e_) * y_ >= 0)
    c = decide(reg, sympy.Le((N - (N - e_) * y_) / e_, U2))
    checks = [f"x/p <= (N T - N + s)/(s T) given the rest's mean >= p/T: {c}"]
    if c is not True:
        return None
    U = one_sided_class_upper(s, N)

    def build(point):
        Tv, Nv, sv = _at(point, N, s)
        Uv = min(Tv, (Nv * Tv - Nv + sv) / (sv * Tv))
        cv = (Tv - 1) / (Tv * (Tv + 1))
        vals = [Uv * cv] * sv + [cv * (Nv - sv * Uv) / (Nv - sv)] * (Nv - sv)
        return _binary_column_table([_frac(v) for v in vals], labels=["E1"] * sv + ["E2"] * (Nv - sv))

    arg = (f"A is a two-sided class level, B a one-sided one, on the same partition (classes of >= {s} records): "
           "a class E of e records has mean x <= T p (A) and every other class a mean >= p/T (A), so "
           "N p >= e x + (N - e) p/T and x/p <= (N T - N + e)/(e T) <= (N T - N + s)/(s T) (z3); "
           f"U = {U} is attained by a binary table of two classes ({s} records at U c, the rest at "
           "c (N - s U)/(N - s), c = (T - 1)/(T (T + 1)))")
    return Bound(U, True, "one-sided-class", arg, build=build, checks=checks)


def _same_value(x, y) -> bool:
    """Two parameter values are the same: words (a ground distance) as text, expressions identically."""
    if isinstance(x, Word) or isinstance(y, Word):
        return str(x) == str(y)
    return simplified(sympy.sympify(x) - sympy.sympify(y)) == 0


def lowest_raw(d):
    """The smallest valid raw level of ``d`` (sympy): the most private table's, 1 for a ratio (and its log and
    affine forms), 0 for a distance; 1 for a count (k, l >= 1)."""
    best = d.level_scale.best_raw
    return sympy.Integer(1) if best is None else sympy.Rational(best.numerator, best.denominator)


def class_distance_of(d, params):
    """The class distance ``d`` declares at ``params`` (``Definition.class_distance``, which reads words), or None."""
    return d.class_distance(**{k: str(v) for k, v in params.items()})


def _smaller_alone(U, region):
    """``U = Min(x, y)`` as the one component the condition makes the smaller (z3), else ``U`` (the kernel accepts
    either component alone: each is an upper bound by its own obligation)."""
    if not (isinstance(U, sympy.Min) and len(U.args) == 2):
        return U
    first, second = U.args
    for x, y in ((first, second), (second, first)):
        if decide(region, sympy.Le(x, y)) is True:
            return x
    return U


def class_distance_upper(s, N):
    """``U = Min((T - 1)/(T + 1), (N - s)(T - 1)/(N T))`` of the ``class-distance`` argument (B's raw level:
    the distance itself)."""
    return sympy.Min((T - 1) / (T + 1), (N - s) * (T - 1) / (N * T))


def _class_distance_bound(s, region, N):
    # the two identities of the argument (module notes), in E's mass x and the table's P on S, e records
    x_, P_, e_ = sympy.symbols("x_ P_ e_")
    h1, h2 = T * P_ - x_, T * (1 - x_) - (1 - P_)
    h3, h4 = T * N * P_ - T * e_ * x_ - (N - e_) * P_, e_ - s
    first = sympy.expand((T - 1) - (T + 1) * (x_ - P_) - (h1 + h2)) == 0
    second = sympy.expand((N - s) * (T - 1) - N * T * (x_ - P_) - (h3 + (N - e_) * h2 + (T - 1) * h4)) == 0
    checks = [f"(T + 1)(x - P) <= T - 1 from A on S and on its complement (identity): {first}",
              f"N T (x - P) <= (N - s)(T - 1) from A on the other classes (identity): {second}"]
    if not (first and second):
        return None
    U = _smaller_alone(class_distance_upper(s, N), region)

    def values(Tv, Nv, sv):
        Uc = min(Tv, (Nv * Tv - Nv + sv) / (sv * Tv))
        Pv = max(1 / (Tv + 1), sympy.Rational(sv, Nv))
        return Uc * Pv, Pv * (Nv - sv * Uc) / (Nv - sv)
    build = _two_blocks(N, s, values)

    arg = (f"A is a two-sided class level, B a class's total variation distance from the table, on the same "
           f"partition (classes of >= {s} records): for a class E of e records and the buckets S where E lies above "
           "the table (E's mass x on S, the table's P), merging S and its complement keeps A's ratios within "
           "[1/T, T], so x <= T P, 1 - x >= (1 - P)/T and the other classes' mass on S is >= P/T "
           "(N P >= e x + (N - e) P/T); hence (T + 1)(x - P) <= T - 1 and N T (x - P) <= (N - s)(T - 1) "
           f"(multipliers 1, N - e, T - 1; e >= s): U = {U}, attained by a binary table of two classes "
           "(s records at x = U' P, the rest at P (N - s U')/(N - s), U' = Min(T, (N T - N + s)/(s T)), "
           "P = Max(1/(T + 1), s/N))")
    return Bound(U, True, "class-distance", arg, build=build, checks=checks)


def _same_distance_bound(s, region, N, distance):
    # the identity of the argument (module notes): E's mass x and the table's P on S, e records in E
    x_, P_, e_ = sympy.symbols("x_ P_ e_")
    ok = sympy.expand((N - s) - N * (x_ - P_) - ((N * P_ - e_ * x_) + (N - e_) * (1 - x_) + (e_ - s))) == 0
    checks = [f"N (x - P) <= N - s from the other records' mass >= 0, x <= 1 and e >= s (identity): {ok}"]
    if not ok:
        return None
    U = _smaller_alone(sympy.Min(T, (N - s) / N), region)

    def build(point):
        Tv, Nv, sv = _at(point, N, s)
        Uv = min(Tv, sympy.Rational(Nv - sv, Nv))
        v = 1 - Nv * Uv / (Nv - sv)
        return _binary_column_table([_frac(1)] * sv + [_frac(v)] * (Nv - sv),
                                    labels=["E1"] * sv + ["E2"] * (Nv - sv))

    arg = (f"A and B declare the same class distance ({distance}) at their parameters, on the same partition "
           f"(classes of >= {s} records): on every table B's raw level is A's, so U <= T; and for a class E of e "
           "records and the buckets S where E lies above the table (E's mass x on S, the table's P), the other "
           "records hold N P - e x >= 0 on S, so N (x - P) <= (N - e) x <= N - s (multipliers 1, N - e, 1): "
           f"U = {U}, attained by s records at (1, 0) in one class and the rest at (v, 1 - v), "
           "v = 1 - N U/(N - s), in another")
    return Bound(U, True, "same-distance", arg, build=build, checks=checks)


def any_partition(classes) -> bool:
    """Is a class specification no restriction at all (none, or a minimum size of 1 without a maximum)?"""
    return not classes or (classes.get("max_size") is None
                           and simplified(sympy.sympify(classes.get("min_size", 1)) - 1) == 0)


def _class_size_bound(b, b_params, b_classes, N):
    """A's level is the size of its smallest class (declared ``class_size_level``; an integer, larger is
    stronger): at level T every class has >= T records. B a one-sided class ratio or the total variation
    distance of a class from the table, on any partition (no other class size on either side: the caller checks
    A's, this checks B's)."""
    if b.family != "class" or not any_partition(b_classes):
        return None
    distance = class_distance_of(b, b_params)
    if distance == "total-variation":
        U = (N - T) / N
        what = ("B is the total variation distance of a class from the table: for a class E of e records and the "
                "buckets S where E lies above the table (E's mass x on S, the table's P), the other records hold "
                "N P - e x >= 0 on S, so x - P <= (N - e) x/N <= (N - T)/N")
    elif getattr(b, "sides", None) == "one-sided" and distance is None:
        U = N / T
        what = ("B is a one-sided class ratio: in each bucket a class E of e records holds at most the table's "
                "mass (values >= 0), so mean_E <= N/e times the table's mean <= N/T")
    else:
        return None

    def build(point):
        Tv, Nv, _ = _at(point, N)
        k = int(sympy.ceiling(Tv))
        if 2 * k > Nv:
            return None         # no partition into two classes of >= T records
        return _binary_column_table([_frac(1)] * k + [_frac(0)] * (Nv - k), labels=["E1"] * k + ["E2"] * (Nv - k))

    arg = (f"A's level is its smallest class's size, so at level T (an integer) every class has >= T records. {what}. "
           "A class other than the whole table leaves N - e >= T records to the others, so a partition into two or "
           f"more classes exists only where 2 T <= N (elsewhere no table satisfies A at T): U = {U}, attained by T "
           "records at (1, 0) in one class and N - T at (0, 1) in another")
    return Bound(U, True, "class-size", arg, build=build,
                 checks=["A declares class_size_level: True", f"B: {distance or 'one-sided class ratio'}"])


def _one_sided_distance_bound(s, N):
    # the three identities of the argument (module notes): E's mass x and the table's P on S, e records in E
    x_, P_, e_ = sympy.symbols("x_ P_ e_")
    h1, h3, h4, h5 = T * P_ - x_, 1 - x_, N * P_ - e_ * x_, e_ - s
    h2 = (T - 1) * (N - e_) * (1 - P_) - e_ * (x_ - P_)
    near = sympy.expand((T - 1) - T * (x_ - P_) - (h1 + (T - 1) * h3)) == 0
    spread = sympy.expand((N - s) * (T - 1) - N * (x_ - P_) - ((N - e_) * h1 + h2 + (T - 1) * h5)) == 0
    mass = sympy.expand((N - s) - N * (x_ - P_) - (h4 + (N - e_) * h3 + h5)) == 0
    checks = [f"T (x - P) <= T - 1 from x <= T P and x <= 1 (identity): {near}",
              f"N (x - P) <= (N - s)(T - 1) from x <= T P and the other classes on the complement (identity): {spread}",
              f"N (x - P) <= N - s from the other records' mass >= 0 and x <= 1 (identity): {mass}"]
    if not (near and spread and mass):
        return None
    U = sympy.Min((N - s) * (T - 1) / N, (T - 1) / T, (N - s) / N)

    def build(point):
        Tv, Nv, sv = _at(point, N, s)
        Uv = min(sympy.Rational((Nv - sv), Nv) * (Tv - 1), (Tv - 1) / Tv, sympy.Rational(Nv - sv, Nv))
        x = min(sympy.Integer(1), Tv * (Nv - sv) / Nv)
        y = (Nv * (x - Uv) - sv * x) / (Nv - sv)
        return _binary_column_table([_frac(x)] * sv + [_frac(y)] * (Nv - sv), labels=["E1"] * sv + ["E2"] * (Nv - sv))

    arg = (f"A is a one-sided class level, B a class's total variation distance from the table, on the same partition "
           f"(classes of >= {s} records): for a class E of e records and the buckets S where E lies above the table "
           "(E's mass x on S, the table's P), merging buckets keeps A's one-sided ratios <= T (a mediant), so x <= T P, "
           "and every other class's mass on the complement is <= T times the table's, whence "
           "(T - 1)(N - e)(1 - P) >= e (x - P); with x <= 1 and the other records' mass N P - e x >= 0: "
           "T (x - P) <= T - 1, N (x - P) <= (N - s)(T - 1) and N (x - P) <= N - s (multipliers 1, T - 1; N - e, 1, "
           f"T - 1; 1, N - e, 1): U = {U}, attained by s records at x = Min(1, T (N - s)/N) in one class and the rest "
           "at (N (x - U) - s x)/(N - s) in another")
    return Bound(U, True, "one-sided-distance", arg, build=build, checks=checks)


def _pairwise_distance_bound(s, N):
    # the identity of the argument (module notes): E's mean X and the others' Y on S, e records in E
    X_, Y_, e_ = sympy.symbols("X_ Y_ e_")
    h1, h2 = T * Y_ - X_, T * (1 - X_) - (1 - Y_)
    ok = sympy.expand((N - s) * (T - 1) - (T + 1) * (N - e_) * (X_ - Y_)
                      - ((N - e_) * (h1 + h2) + (T - 1) * (e_ - s))) == 0
    checks = [f"(T + 1)(N - e)(X - Y) <= (N - s)(T - 1) from A on S and on its complement (identity): {ok}"]
    if not ok:
        return None
    U = (N - s) * (T - 1) / (N * (T + 1))

    build = _two_blocks(N, s, lambda Tv, Nv, sv: (Tv / (Tv + 1), 1 / (Tv + 1)))

    arg = (f"A is pairwise, B a class's total variation distance from the table (classes of >= {s} records): for a "
           "class E of e records and the buckets S where E lies above the table, with X and Y the means on S of "
           "E's records and of the others, B's distance for E is (N - e)(X - Y)/N; every record of E and every "
           "other record are within ratio T on S and on its complement (a mediant), so X <= T Y and "
           "T (1 - X) >= 1 - Y, and (T + 1)(N - e)(X - Y) <= (N - s)(T - 1) (multipliers N - e, N - e, T - 1; "
           f"e >= s): U = {U}, attained by s records at T/(T + 1) in one class and the rest at 1/(T + 1)")
    return Bound(U, True, "pairwise-distance", arg, build=build, checks=checks)


def _removal_distance_bound(N, region, j=None):
    # the two identities of the argument (module notes): the largest record M, the table's P, on S
    M_, P_ = sympy.symbols("M_ P_")
    f1 = T * (N * P_ - M_) - (N - 1) * P_
    f2 = (N - 1) * T * (1 - P_) - N * (1 - P_) + (1 - M_)
    near = sympy.expand((N - 1) * (T - 1) - (T + 1) * (M_ - P_) - (f1 + f2)) == 0
    far = sympy.expand((N - 1) * (T - 1) - (N * T - N + 1) * (M_ - P_) - (f1 + (N - 1) * (T - 1) * (1 - M_))) == 0
    checks = [f"(T + 1)(M - P) <= (N - 1)(T - 1) (identity): {near}",
              f"(N T - N + 1)(M - P) <= (N - 1)(T - 1) (identity): {far}"]
    if not (near and far):
        return None
    U = sympy.Min((N - 1) * (T - 1) / (T + 1), (N - 1) * (T - 1) / (N * T - N + 1))
    # A of subset size j <= N - 1 bounds the N - 1 other records as well (a set of >= j records has its mean
    # between the j smallest's and the j largest's); the family is A's extreme only for j = N - 1, and it
    # satisfies A only where N >= 3 (at N = 2 the sets of N - 1 records are single records, and the other
    # record's ratio on the complement exceeds T): tight where the condition gives j = N - 1 and N >= 3
    j = N - 1 if j is None else j
    removal = simplified(j - (N - 1)) == 0 or decide(region, sympy.Eq(j, N - 1)) is True
    checks.append(f"1 <= j <= N - 1 on the condition (j = {j}): {decide(region, sympy.And(j >= 1, j <= N - 1))}")
    tight = removal and decide(region, N >= 3) is True
    checks.append(f"j = N - 1 and N >= 3 on the condition (the family attains U there): {tight}")

    def build(point):
        Tv, Nv, _ = _at(point, N)
        if Nv < 3 or not removal:
            return None
        x = min(sympy.Integer(1), (Nv * Tv - Nv + 1) / (Tv + 1))
        vals = [x] + [x / (Nv * Tv - Nv + 1)] * (Nv - 1)
        return _binary_column_table([_frac(v) for v in vals], labels=["E1"] + ["E2"] * (Nv - 1))

    common = (("A is a two-sided subset level of size N - 1 (record removal)" if removal else
            f"A is a two-sided subset level of size j = {j} <= N - 1, so it bounds every set of >= j records (a set's "
            "mean lies between the means of the j smallest and the j largest values), the N - 1 records left after "
            "removing one among them") + ", B a class's total variation distance from "
           "the table (any classes): a class's mass on the buckets S where it lies above the table is at most the "
           "largest record's, M; without that record the other N - 1 have means on S and on its complement within "
           "ratio T of the table's (a mediant), T (N P - M) >= (N - 1) P and (N - 1) T (1 - P) >= N (1 - P) - (1 - M); "
           "their sum gives (T + 1)(M - P) <= (N - 1)(T - 1), the first with (N - 1)(T - 1)(1 - M) >= 0 gives "
           f"(N T - N + 1)(M - P) <= (N - 1)(T - 1): U = {U}")
    attained = (", attained for every N >= 3 by one record at x = Min(1, (N T - N + 1)/(T + 1)) in a class of its own "
                "and N - 1 at x/(N T - N + 1)")
    arg = common + ((attained + ("" if tight else " (at N = 2 the family breaks A and the supremum is smaller: an "
                                                  "upper bound there)"))
                    if removal else " (an upper bound: with sets of j < N - 1 records that table need not satisfy A, "
                                    "and whether U is attained is not argued)")
    exact = None
    if removal and not tight:       # the region has N = 2, where U is not attained
        exact = _pair_piece_supremum("removal-distance", U, build, N, common + attained, checks, region,
                                     _removal_pair_bound())
    return Bound(U, tight, "removal-distance", arg, build=build, checks=checks, exact=exact)


#: the subset-distance argument's facts (scaled by N j), with M the largest record's mass on S and y the other records'
#: mean there: the lower choices bound M - y by y, the upper ones by 1 - y (engines/bounds ``_subset_distance_bound``)
def subset_distance_facts(j, N, M, y):
    """``({name: (a, fact)}, {name: (b, fact)})``: A's four constraints on a two-sided subset level of size j and
    M <= 1, each ``fact >= 0`` read as ``a (M - y) <= (T - 1) y`` (lower) or ``b (M - y) <= (T - 1)(1 - y)`` (upper),
    scaled by N j."""
    D = M - y
    lower = {"the j smallest: L >= P/T": (1 / N, j * (N * (T - 1) * y - D)),
             "the j largest: H <= T P": (1 / j - T / N, N * j * (T - 1) * y - (N - T * j) * D)}
    upper = {"the j smallest on the complement: 1 - L <= T (1 - P)": (T / N, j * (N * (T - 1) * (1 - y) - T * D)),
             "the j largest on the complement: 1 - H >= (1 - P)/T": (T / j - 1 / N,
                                                                      N * j * (T - 1) * (1 - y) - (N * T - j) * D),
             "M <= 1": (T - 1, N * j * (T - 1) * (1 - M))}
    return lower, upper


def _subset_distance_bound(j, N, region):
    """``subset-distance``: A a two-sided subset level of size j (1 <= j <= N - 1), B a class's total variation
    distance over any classes: the tight ``U = (N - 1)(T - 1)/(N (a + b))``, a the largest of the lower coefficients
    and b of the upper (:func:`subset_distance_facts`), written as the Min over the pairs; None if an identity fails."""
    M_, y_ = sympy.symbols("M_ y_")
    lower, upper = subset_distance_facts(j, N, M_, y_)
    # a coefficient another one is >= on the whole condition never gives the Min: left out
    def kept(opts):
        out = dict(opts)
        for n1, (c1, _) in opts.items():
            for n2, (c2, _) in opts.items():
                if n1 != n2 and n1 in out and n2 in out and decide(region, sympy.Ge(c2, c1)) is True:
                    del out[n1]
                    break
        return out
    lower, upper = kept(lower), kept(upper)
    comps, checks = [], []
    for (ln, (a, fa)), (un, (b, fb)) in itertools.product(lower.items(), upper.items()):
        ok = sympy.expand(N * j * (T - 1) - simplified(N * j * (a + b)) * (M_ - y_) - (fa + fb)) == 0
        checks.append(f"N j (T - 1) - N j (a + b)(M - y) = [{ln}] + [{un}] (identity): {ok}")
        if not ok:
            return None
        comps.append((N - 1) * j * (T - 1) / sympy.factor(simplified(N * j * (a + b))))
    U = sympy.Min(*comps, evaluate=False) if len(comps) > 1 else comps[0]    # (evaluated: slow pairwise comparisons)
    ja = [a for a, _ in lower.values()]
    jb = [b for b, _ in upper.values()]

    def build(point):
        Tv, Nv, _ = _at(point, N)
        jv = sympy.sympify(j).subs(point)
        av = max(sympy.sympify(a).subs(point) for a in ja)
        bv = max(sympy.sympify(b).subs(point) for b in jb)
        y = av / (av + bv)
        D = (Tv - 1) / (av + bv)
        if not (jv.is_Integer and 1 <= jv <= Nv - 1):
            return None
        return _binary_column_table([_frac(y + D)] + [_frac(y)] * (Nv - 1), labels=["E1"] + ["E2"] * (Nv - 1))

    arg = (f"A is a two-sided subset level of size j = {j} (1 <= j <= N - 1), B a class's total variation distance from "
           "the table (any classes): merging the buckets S where a class lies above the table keeps A's ratios <= T (a "
           "mediant), and the class's mass there is at most the largest record's, M; with y = (N P - M)/(N - 1) the "
           "other records' mean, the j largest have mean H >= (M + (j - 1) y)/j and the j smallest L <= y, so A's "
           "H <= T P, L >= P/T and, on the complement, 1 - L <= T (1 - P), 1 - H >= (1 - P)/T, with M <= 1, bound "
           "M - y by (T - 1) y/a (a = 1/N, 1/j - T/N) and by (T - 1)(1 - y)/b (b = T/N, T/j - 1/N, T - 1); adding one "
           "of each (multipliers 1, 1), (a + b)(M - y) <= T - 1, and M - P = (N - 1)(M - y)/N: U = (N - 1)(T - 1)/"
           f"(N (a + b)) for every pair, U = {U}; attained, a and b the largest, by one record at y + (T - 1)/(a + b) "
           "in a class of its own and N - 1 at y = a/(a + b) (equal records meet A's extreme means exactly, so A's "
           "level is <= T)")
    return Bound(U, True, "subset-distance", arg, build=build, checks=checks)


def level_conditions(where, a, alpha) -> str:
    """A condition on A's raw level T (an And of several, or one) as text in A's level ``alpha``, each condition
    simplified alone (simplifying the And whole took 0.3 s), in a fixed order."""
    plain = sympy.Symbol(str(alpha), real=True)       # (an assumption on the level symbol would drop alpha > 0)
    # (in sympy's canonical order: the order of an And's arguments may differ from one process to the next)
    conds = sorted(sympy.And.make_args(where.subs(T, a.raw_from_level(plain))), key=sympy.default_sort_key)
    return " and ".join(str(simplified(x)) for x in conds)


def _piecewise_supremum(method, pieces, region):
    """A supremum proved piece by piece: ``pieces`` ``[(condition, label, Bound)]`` in order, the last one's condition
    holding wherever the others' fail. The one piece whose condition the claim's condition gives, else a Piecewise of
    the pieces' bounds with each piece a part (its own certificate on its condition), attained piece by piece."""
    alone = next((piece for cond, _, piece in pieces if decide(region, cond) is True), None)
    if alone is not None:
        return alone

    def build(point):
        return next(piece for cond, _, piece in pieces
                    if cond is pieces[-1][0] or sympy.sympify(cond).subs(point) is sympy.true).build(point)
    upper = sympy.Piecewise(*[(piece.upper, cond) for cond, _, piece in pieces[:-1]], (pieces[-1][2].upper, True))
    return Bound(upper, True, method, "; ".join(f"{label}: {piece.argument}" for _, label, piece in pieces),
                 build=build, checks=[c for _, _, piece in pieces for c in piece.checks],
                 parts=[(cond, piece) for cond, _, piece in pieces])


def _pair_piece_supremum(method, U, build, N, arg, checks, region, pair):
    """The supremum of a removal argument over the condition: U for N >= 3 (its family), and at N = 2, where that
    family breaks A, the ``pair`` bound (two records): :func:`_piecewise_supremum` of the two; None without ``pair``."""
    if pair is None:
        return None
    rest = Bound(U, True, method, arg, build=build, checks=checks + ["N >= 3 on this piece: True"])
    return _piecewise_supremum(method, [(sympy.Eq(N, 2), f"at N = 2 ({pair.method})", pair),
                                        (N >= 3, "for N >= 3", rest)], region)


def _removal_pair_bound():
    """``removal-distance-pair``: at N = 2 a two-sided subset level of size 1 (record removal leaves one record)
    and a class's total variation distance from the table: ``U = (T - 1)/(2 T)``, tight."""
    # the identity of the argument: records x1 (the class, above the table on S) and x2 = 2 P - x1
    x1, P_ = sympy.symbols("x1_ P_")
    other = T * (2 * P_ - x1) - P_                  # the table's mass on S is <= T times the other record's
    rest = T * (1 - x1) - (1 - P_)                  # on the complement, <= T times the class's record's
    ok = sympy.expand((T - 1) - 2 * T * (x1 - P_) - (other + rest)) == 0
    if not ok:
        return None

    def build(point):
        Tv = sympy.Rational(point[T])
        return _binary_column_table([_frac((2 * Tv - 1) / (2 * Tv)), _frac(1 / (2 * Tv))], labels=["E1", "E2"])

    arg = ("with N = 2 records the classes are the two records (one class of both is the table, at distance 0) and "
           "A bounds each record against the table (the other record is the table without it); for the class E1 = "
           "{x1} and the buckets S where it lies above the table, P the table's mass and x2 = 2 P - x1 the other "
           "record's: T x2 >= P on S and T (1 - x1) >= 1 - P on the complement (a mediant), and their sum is "
           "(T - 1) - 2 T (x1 - P) >= 0: U = (T - 1)/(2 T), attained by x1 = (2 T - 1)/(2 T), x2 = 1/(2 T) in "
           "two classes")
    return Bound((T - 1) / (2 * T), True, "removal-distance-pair", arg, build=build,
                 checks=[f"(T - 1) - 2 T (x1 - P) = (T x2 - P) + (T (1 - x1) - (1 - P)) (identity): {ok}"])


def _slack_target_bound(d, region, N):
    """A a two-sided pairwise ratio level, B two records compared with an additive slack ``d`` in (0, 1) on every event:
    U = T everywhere (an upper bound), and the supremum Max(1, (1 - d) T - d), one piece each side of
    T = (1 + d)/(1 - d), each with its certificate (``slack-target-pairs``)."""
    x_, y_ = sympy.symbols("x_ y_")
    h1, h2 = T * y_ - x_, T * (1 - x_) - (1 - y_)
    U = (1 - d) * T - d
    flat_c = (1 + d) - (1 - d) * T
    ok = [sympy.expand(T * y_ - x_ + d - (h1 + d)) == 0,
          sympy.expand((T + 1) * (y_ - x_ + d) - (h1 + h2 + flat_c)) == 0,
          sympy.expand((T - 1) * (U * y_ - x_ + d) - ((T - 1 - d * T) * h1 + d * h2)) == 0]
    checks = [f"T y - x + delta = h1 + delta (identity): {ok[0]}",
              f"(T + 1)(y - x + delta) = h1 + h2 + ((1 + delta) - (1 - delta) T) (identity): {ok[1]}",
              f"(T - 1)(U y - x + delta) = (T - 1 - delta T) h1 + delta h2 (identity): {ok[2]}"]
    if not all(ok):
        return None
    common = (f"B compares two records with an additive slack delta = {d} on every event (its raw level the least e^eps "
              ">= 1 with x <= e^eps y + delta, x and y two records' masses on the event), A bounds the ratio of any two "
              "records in every bucket by T: summed over the event's buckets and over its complement's, h1 = T y - x "
              ">= 0 and h2 = T (1 - x) - (1 - y) >= 0")

    def build(point):
        Tv, Nv, _ = _at(point, N)
        return _binary_column_table([_frac(Tv / (Tv + 1))] + [_frac(1 / (Tv + 1))] * (Nv - 1))
    flat = Bound(sympy.Integer(1), True, "slack-target-pairs",
                 common + "; where (1 - delta) T <= 1 + delta, (T + 1)(y - x + delta) = h1 + h2 + ((1 + delta) - "
                 "(1 - delta) T) >= 0 (multipliers 1, 1, 1): U = 1, B's strongest level, which every table meets",
                 build=build, checks=checks[1:2])
    slope = Bound(U, True, "slack-target-pairs",
                  common + f"; where (1 - delta) T >= 1 + delta, (T - 1)(U y - x + delta) = (T - 1 - delta T) h1 + "
                  f"delta h2 >= 0 (multipliers >= 0 there, T > 1): U = {U}, attained by one record at T/(T + 1) and "
                  "N - 1 at 1/(T + 1) (their ratio T in each bucket; on the first bucket (x - delta)/y = T - delta "
                  "(T + 1))", build=build, checks=checks[2:3])
    exact = _piecewise_supremum("slack-target-pairs", [(flat_c >= 0, "where (1 - delta) T <= 1 + delta", flat),
                                                       (flat_c <= 0, "elsewhere", slope)], region)
    return Bound(T, False, "slack-target-pairs",
                 common + "; T y - x + delta = h1 + delta >= 0 (multipliers 1, 1): U = T, an upper bound; the supremum "
                 "is piecewise", checks=checks[:1], exact=exact)


def slack_distance_upper(compares, delta, N, s=1):
    """U of the ``slack-pairwise-distance`` argument (``compares == "pairs"``: ``(N - s)(T - 1 + 2 delta)/(N (T + 1))``)
    or of ``slack-removal-distance`` (``"removal"``: ``Min((N - 1)(T - 1 + delta)/(N T - N + 1),
    (N - 1)(T - 1 + 2 delta)/(T + 1), (N - 1)/N)``), raw levels, T = e^eps."""
    if compares == "pairs":
        return (N - s) * (T - 1 + 2 * delta) / (N * (T + 1))
    return sympy.Min((N - 1) * (T - 1 + delta) / (N * T - N + 1), (N - 1) * (T - 1 + 2 * delta) / (T + 1), (N - 1) / N)


def _slack_distance_bound(compares, delta, s, region, N):
    """A's constraints ``a <= T b + delta`` on every event (``slack_compares``: two records, or the table and the table
    without one record), B a class's total variation distance (classes of >= s records; any partition for removal)."""
    d = sympy.sympify(delta)
    if compares == "pairs":
        X_, Y_, e_ = sympy.symbols("X_ Y_ e_")
        h1, h2 = T * Y_ - X_ + d, T * (1 - X_) - (1 - Y_) + d
        ok = sympy.expand((N - s) * (T - 1 + 2 * d) - (T + 1) * (N - e_) * (X_ - Y_)
                          - ((N - e_) * (h1 + h2) + (T - 1 + 2 * d) * (e_ - s))) == 0
        checks = [f"(T + 1)(N - e)(X - Y) <= (N - s)(T - 1 + 2 delta) from A on S and on its complement (identity): {ok}"]
        if not ok:
            return None
        U = slack_distance_upper("pairs", d, N, s)

        build = _two_blocks(N, s, lambda Tv, Nv, sv: ((Tv + d) / (Tv + 1), (1 - d) / (Tv + 1)))
        arg = (f"A compares two records on every event with an additive slack delta = {d} (a <= T b + delta), B is a "
               f"class's total variation distance from the table (classes of >= {s} records): for a class E of e records "
               "and the buckets S where E lies above the table, with X and Y the means on S of E's records and of the "
               "others, B's distance for E is (N - e)(X - Y)/N; averaging A's constraints over the pairs, X <= T Y + "
               "delta on S and 1 - Y <= T (1 - X) + delta on its complement, so (T + 1)(N - e)(X - Y) <= (N - s)(T - 1 + "
               f"2 delta) (multipliers N - e, N - e, T - 1 + 2 delta; e >= s): U = {U}, attained by s records at "
               "(T + delta)/(T + 1) in one class and the rest at (1 - delta)/(T + 1)")
        return Bound(U, True, "slack-pairwise-distance", arg, build=build, checks=checks)
    M_, P_ = sympy.symbols("M_ P_")
    f1 = T * (N * P_ - M_) - (N - 1) * P_ + (N - 1) * d
    f2 = (N - 1) * T * (1 - P_) - N * (1 - P_) + (1 - M_) + (N - 1) * d
    near = sympy.expand((N - 1) * (T - 1 + 2 * d) - (T + 1) * (M_ - P_) - (f1 + f2)) == 0
    far = sympy.expand((N - 1) * (T - 1 + d) - (N * T - N + 1) * (M_ - P_) - (f1 + (N - 1) * (T - 1) * (1 - M_))) == 0
    mass = sympy.expand((N - 1) - N * (M_ - P_) - ((N * P_ - M_) + (N - 1) * (1 - M_))) == 0
    checks = [f"(T + 1)(M - P) <= (N - 1)(T - 1 + 2 delta) (identity): {near}",
              f"(N T - N + 1)(M - P) <= (N - 1)(T - 1 + delta) (identity): {far}",
              f"N (M - P) <= N - 1 from the other records' mass and M <= 1 (identity): {mass}"]
    if not (near and far and mass):
        return None
    U = slack_distance_upper("removal", d, N)

    def build(point):
        Tv, Nv, _ = _at(point, N)
        if Nv < 3:
            return None
        x = min(sympy.Integer(1), (Nv * Tv - Nv + 1) * (1 - d) / (Tv + 1) + Nv * d)
        z = max(sympy.Integer(0), (x - Nv * d) / (Nv * Tv - Nv + 1))
        return _binary_column_table([_frac(x)] + [_frac(z)] * (Nv - 1), labels=["E1"] + ["E2"] * (Nv - 1))

    common = (f"A compares the table with the table without one record on every event with an additive slack delta = "
              f"{d} (a <= T b + delta, both ways), B is a class's total variation distance from the table (any classes): "
              "a class's mass on the buckets S where it lies above the table is at most the largest record's, M; without "
              "that record the other N - 1 have masses on S and on its complement with T (N P - M) >= (N - 1)(P - delta) "
              "and (N - 1) T (1 - P) >= N (1 - P) - (1 - M) - (N - 1) delta; their sum gives (T + 1)(M - P) <= (N - 1)(T - "
              "1 + 2 delta), the first with (N - 1)(T - 1)(1 - M) >= 0 gives (N T - N + 1)(M - P) <= (N - 1)(T - 1 + "
              f"delta), and the other records' mass N P - M >= 0 with M <= 1 gives N (M - P) <= N - 1: U = {U}")
    attained = (", attained for every N >= 3 by one record at x = Min(1, (N T - N + 1)(1 - delta)/(T + 1) + N delta) in "
                "a class of its own and N - 1 at Max(0, (x - N delta)/(N T - N + 1))")
    tight = decide(region, N >= 3) is True
    checks.append(f"N >= 3 on the condition (the family attains U there): {tight}")
    exact = None
    if not tight:
        exact = _pair_piece_supremum("slack-removal-distance", U, build, N, common + attained, checks, region,
                                     _slack_removal_pair_bound(d))
    arg = common + attained + ("" if tight else " (at N = 2 the family breaks A and the supremum is smaller: an upper "
                                                "bound there)")
    return Bound(U, tight, "slack-removal-distance", arg, build=build, checks=checks, exact=exact)


def _slack_removal_pair_bound(d):
    """``slack-removal-distance-pair``: at N = 2 (removing a record leaves the other), ``U = Min((T - 1 + 2 delta)/(2 T),
    1/2)``, tight."""
    x1, P_ = sympy.symbols("x1_ P_")
    other = T * (2 * P_ - x1) - P_ + d             # the table's mass on S is <= T times the other record's + delta
    rest = T * (1 - x1) - (1 - P_) + d             # on the complement, <= T times the class's record's + delta
    ok = sympy.expand((T - 1 + 2 * d) - 2 * T * (x1 - P_) - (other + rest)) == 0
    half = sympy.expand(1 - 2 * (x1 - P_) - ((1 - x1) + (2 * P_ - x1))) == 0
    if not (ok and half):
        return None

    def build(point):
        Tv = sympy.Rational(point[T])
        D = min(sympy.Integer(1), (Tv - 1 + 2 * d) / Tv)
        return _binary_column_table([_frac((1 + D) / 2), _frac((1 - D) / 2)], labels=["E1", "E2"])

    arg = ("with N = 2 records the classes are the two records and A compares each record with the table (the other "
           "record is the table without it); for the class E1 = {x1} and the buckets S where it lies above the table, "
           "P the table's mass and x2 = 2 P - x1 the other record's: P <= T x2 + delta on S and 1 - P <= T (1 - x1) + "
           "delta on the complement, whose sum is (T - 1 + 2 delta) - 2 T (x1 - P) >= 0, and x1 <= 1, x2 >= 0 give "
           "x1 - P <= 1/2: U = Min((T - 1 + 2 delta)/(2 T), 1/2), attained by x1 = (1 + D)/2, x2 = (1 - D)/2 with "
           "D = Min(1, (T - 1 + 2 delta)/T) in two classes")
    return Bound(sympy.Min((T - 1 + 2 * d) / (2 * T), sympy.Rational(1, 2)), True, "slack-removal-distance-pair", arg,
                 build=build, checks=[f"(T - 1 + 2 delta) - 2 T (x1 - P) = (T x2 - P + delta) + (T (1 - x1) - (1 - P) + "
                                      f"delta) (identity): {ok}", f"1 - 2 (x1 - P) = (1 - x1) + x2 (identity): {half}"])


def subset_one_sided_upper(j, N):
    """``U = Min(N - (N - 1)/T, (j T (N - 1) - (j - 1) N)/(N - j))`` of the ``subset-to-one-sided`` argument
    (raw levels)."""
    return sympy.Min(N - (N - 1) / T, (j * T * (N - 1) - (j - 1) * N) / (N - j))


def _subset_one_sided_bound(j, N, region=None):
    U = subset_one_sided_upper(j, N) if region is None else _smaller_alone(subset_one_sided_upper(j, N), region)

    def build(point):
        Tv, Nv, _ = _at(point, N)
        Uv = U.subs({T: Tv, N: Nv, **{k: v for k, v in point.items() if k not in (T, N)}})
        c = (Tv - 1) / (Nv * Tv * (Tv + 1))
        vals = [Uv * c] + [c * (Nv - Uv) / (Nv - 1)] * (Nv - 1)
        return _binary_column_table([_frac(v) for v in vals], labels=["E1"] + ["E2"] * (Nv - 1))

    arg = (f"A is a two-sided subset level of size j = {j}, B a one-sided class level: a class mean is at most the "
           "bucket's largest value M; the other N - 1 values are the N - 1 smallest, with mean >= the j smallest's "
           ">= p/T, so M <= N p - (N - 1) p/T; the j largest values are M and the j - 1 largest of the others, "
           "whose mean H is at least the others' mean (N p - M)/(N - 1), and M + (j - 1) H <= j T p, so "
           f"(N - j) M <= (j T (N - 1) - (j - 1) N) p: U = {U}, tight: one record at U c (its own class) and N - 1 "
           "at c (N - U)/(N - 1), c = (T - 1)/(N T (T + 1)), satisfy A and have B's ratio U")
    return Bound(U, True, "subset-to-one-sided", arg, build=build)


def _product_bound(region, N, singleton=False):
    a_, b_, m_ = sympy.symbols("a_ b_ m_", positive=True)
    reg = region.with_symbols({a_: "real", b_: "real", m_: "real"}).add(
        a_ > 0, a_ <= b_, b_ <= T * m_, m_ <= T * a_, b_ + (N - 1) * a_ <= N * m_, N * m_ <= a_ + (N - 1) * b_)
    c1 = decide(reg, sympy.Le(b_, T ** 2 * a_))
    c2 = decide(reg, sympy.Le(b_, (N * (T - 1) + 1) * a_))
    checks = [f"b <= T^2 a: {c1}", f"b <= (N (T - 1) + 1) a: {c2}"]
    if c1 is not True:
        return None
    U = sympy.Min(T ** 2, N * (T - 1) + 1) if c2 is True else T ** 2

    def build(point):
        Tv, Nv, _ = _at(point, N)
        if Tv == 1:
            vals = [sympy.Rational(1, 2)] * Nv
        else:
            r = min(Tv ** 2, Nv * (Tv - 1) + 1)
            if Nv == 2:
                mean = (1 + r) / 2
                mids = []
            else:
                mean = max(r / Tv, (r + Nv - 1) / Nv)
                y = (Nv * mean - 1 - r) / (Nv - 2)
                mids = [y] * (Nv - 2)
            sc = (Tv - 1) / (Tv * r + Tv * mean)
            vals = sorted([sc] + [sc * y for y in mids] + [sc * r])
        labels = [f"E{i + 1}" for i in range(Nv)] if singleton else None
        return _binary_column_table([_frac(v) for v in vals], labels=labels)

    arg = ("for a bucket with minimum a, maximum b and mean m, A gives b <= T m and m <= T a, so "
           "b/a <= T^2" + ("; the mean lies between (b + (N-1) a)/N and (a + (N-1) b)/N, so also "
                           "b/a <= N (T - 1) + 1" if c2 is True else "") +
           " (both checked with z3); the bound is attained by a table with one record at a, one at b and "
           "N - 2 at a middle value" + (" (with singleton classes A's class ratio is its subset ratio of "
                                        "size 1)" if singleton else ""))
    return Bound(U, True, "product", arg, build=build, checks=checks)


def subset_supremum(ja, jb, region, N):
    """The supremum of B's subset ratio (size j_B) over tables whose subset ratio of size j_A <= j_B is
    at most T, for every N and any number of buckets, as a tight :class:`Bound`; None where the solver
    does not confirm the argument's steps.

    With q = min(j_B, N - j_A) the supremum is ``T`` where ``(N - q) T >= q`` and ``q / (N - (N - q) T)``
    below. Per bucket, with mean m: the j_B smallest have a mean >= that of the q smallest (q <= j_B),
    and the N - q largest (N - q >= j_A) a mean <= T m, so ``N m = q low_q + (N - q) high_{N-q}`` gives
    ``m / low_{j_B} <= q / (N - (N - q) T)``; the mirror argument bounds ``high_{j_B} / m`` by
    ``(N T - (N - q)) / (q T)``, never more. A binary table of two blocks (j_B records at m/F, N - j_B at
    m (N F - j_B)/((N - j_B) F), F the supremum, scaled so that the second bucket's values lie in
    [1/F, 1]) attains it (:func:`_subset_supremum_table`). The steps are decided by the region's solver
    on the claim's condition; the sorting facts are those of the subset-monotone argument.
    """
    q = sympy.Min(jb, N - ja)
    m, low, high = sympy.symbols("m_ low_ high_", positive=True)
    base = region.with_symbols({m: "real", low: "real", high: "real"})
    below = N - (N - q) * T > 0
    steps = {
        "q <= j_B and N - q >= j_A": decide(region, sympy.And(q <= jb, N - q >= ja)),
        "m / low_q <= q / (N - (N - q) T)": decide(
            base.add(N * m - q * low - (N - q) * high == 0, high <= T * m, below), q * m <= low * (N - (N - q) * T)),
        "high_q / m <= (N T - (N - q)) / (q T)": decide(
            base.add(N * m - q * high - (N - q) * low == 0, low * T >= m), q * T * high <= m * (N * T - (N - q))),
        "(N T - (N - q)) / (q T) <= q / (N - (N - q) T)": decide(
            region.add(below), (N * T - (N - q)) * (N - (N - q) * T) <= q * q * T),
        "q / (N - (N - q) T) <= T where (N - q) T < q": decide(region.add((N - q) * T < q), q <= T * (N - (N - q) * T)),
    }
    checks = [f"{k}: {v}" for k, v in steps.items()]
    if not all(v is True for v in steps.values()):
        return None
    upper = sympy.Piecewise((T, (N - q) * T >= q), (q / (N - (N - q) * T), True))
    arg = (f"with q = min(j_B, N - j_A) = {q}: the j_B smallest values have a mean >= that of the q smallest, and "
           "the N - q >= j_A largest a mean <= T m, so m / low_(j_B) <= q / (N - (N - q) T); the largest j_B "
           "are bounded by the mirror argument, never above it (each step decided by z3); so B's ratio is at most "
           "T where (N - q) T >= q and q / (N - (N - q) T) below, attained by a binary table of two blocks (j_B "
           "records at m/F, N - j_B at m (N F - j_B)/((N - j_B) F), F the bound)")
    return Bound(upper, True, "subset-supremum", arg, checks=checks,
                 build=lambda point: _subset_supremum_table(upper, ja, jb, N, point))


def _subset_supremum_table(upper, ja, jb, N, point):
    """The two-block binary table of :func:`subset_supremum` at ``point`` (T, N and the parameters)."""
    Tv = sympy.Rational(point[T])
    Nv = int(point[N]) if N in point else int(N)
    j = int(sympy.sympify(jb).subs(point))
    F = sympy.Rational(upper.subs(point))
    if F == 1 or Tv == 1:
        return _binary_column_table([Fraction(1, 2)] * Nv)
    lo, hi = 1 / F, (Nv * F - j) / ((Nv - j) * F)       # the two blocks as multiples of the mean
    s = (1 - 1 / F) / max(lo, hi)                      # scaled: the largest value is 1 - 1/F
    return _binary_column_table([_frac(s * lo)] * j + [_frac(s * hi)] * (Nv - j))

