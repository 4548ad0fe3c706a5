"""The prover's last argument, ``one-sided-ceiling`` (kernel lemma ``set-mass``): a one-sided ratio of
averages over classes is at most N / s on every table of N records, whatever A is.

Values by hand: a class of s records holds at most the whole table's mass in a bucket, so its mean is
at most N / s times the table's; one record at 1 in bucket 1 and the rest at 0 attains N (s = 1).
Checked against tests/brute.py's basic beta-likeness on random tables.
"""

import copy
import random
from fractions import Fraction

import pytest
import sympy

import brute
from implgraph.certify import certificates_in, check_certificate
from implgraph.core.region import Region
from implgraph.engines.bounds import ceiling_bound
from implgraph.engines.checkedge import check_edge
from implgraph.engines.prove import check_implication

N = sympy.Symbol("N", integer=True)
ONE_SIDED = "basic-beta-likeness"          # the built-in one-sided class level


def _random_table(rng, max_n, low=0, high=4):
    """(rows, classes): n = 2..max_n records over 2 or 3 buckets with weights low..high (a record of zero
    weights gets one on its first bucket), in up to 3 classes, at least 2 of them."""
    n, m = rng.randint(2, max_n), rng.randint(2, 3)
    rows = []
    for _ in range(n):
        w = [rng.randint(low, high) for _ in range(m)]
        if not any(w):
            w[0] = 1
        rows.append([Fraction(x, sum(w)) for x in w])
    classes = [f"E{rng.randint(0, 2)}" for _ in range(n)]
    if len(set(classes)) < 2:
        classes[0] = "E9"
    return rows, classes


def test_bound_is_n_over_s():
    region = Region({N: "integer"}, (N >= 2,))
    assert sympy.simplify(ceiling_bound(ONE_SIDED, {}, None, region, N).upper - N) == 0
    s = sympy.Symbol("s", integer=True)
    region = Region({N: "integer", s: "integer"}, (N >= 2, s >= 1, 2 * s <= N))
    assert sympy.simplify(ceiling_bound(ONE_SIDED, {}, {"min_size": s}, region, N).upper - N / s) == 0


@pytest.mark.parametrize("two_sided", ["mult-t-closeness", "kt-closeness", "ldp"])
def test_no_ceiling_for_two_sided(two_sided):
    # a zero against a positive value makes a two-sided level infinite: no ceiling
    assert ceiling_bound(two_sided, {"k": 1} if two_sided == "kt-closeness" else {}, None,
                         Region({N: "integer"}, (N >= 2,)), N) is None


@pytest.mark.parametrize("seed", range(3))
def test_random_tables_below_n_minus_1(seed):
    """beta = raw - 1 <= N - 1 on random tables (brute force), and = N - 1 on the attaining table."""
    rng = random.Random(seed)
    for _ in range(40):
        rows, classes = _random_table(rng, 7)
        assert brute.basic_beta_likeness(rows, classes) <= len(rows) - 1
    for n in range(2, 9):
        rows = [[Fraction(1), Fraction(0)]] + [[Fraction(0), Fraction(1)]] * (n - 1)
        classes = ["E1"] + ["E2"] * (n - 1)
        assert brute.basic_beta_likeness(rows, classes) == n - 1


@pytest.mark.parametrize("a", ["distinct-l-diversity", "frequency-l-diversity", "entropy-l-diversity"])
def test_l_diversity_pairs_proved_with_n_minus_1(a):
    """Open in the matrix before (no linear-fractional form, no witness on the grid): an implication for every N with
    f = N - 1, its certificate accepted; since stop 27 tight (a class uniform over ceiling(l) values of its own,
    tests/test_uniform_ceiling.py)."""
    r = check_implication(a, ONE_SIDED, None)
    assert r.verdict == "proved" and r.method == "one-sided-ceiling" and r.tightness == "tight"
    assert sympy.simplify(sympy.sympify(str(r.tight), locals={"N": N}) - (N - 1)) == 0
    certs = certificates_in(r.details)
    assert certs and all(check_certificate(c).ok for c in certs)
    res = check_edge(a, ONE_SIDED, N=3)
    fw = res.forward
    assert fw.relation == "implication" and fw.verdict == "proved" and fw.tight_all_n == "N - 1"


def test_corrupted_ceiling_rejected():
    r = check_implication("distinct-l-diversity", ONE_SIDED, None)
    cert = certificates_in(r.details)[0]
    low = copy.deepcopy(cert)
    low["upper"] = "N - 1"                      # below the attained N
    assert not check_certificate(low).ok
    wrong = copy.deepcopy(cert)
    wrong["upper_certificate"]["multipliers"]["mass"]["e - s >= 0"] = "N - 1"
    assert not check_certificate(wrong).ok
    two = copy.deepcopy(cert)
    two["B"]["sides"] = "two-sided"             # the lemma needs a one-sided level
    assert not check_certificate(two).ok


def test_claimed_f_below_ceiling_not_proved():
    # f = N - 2 is below the bound: the ceiling proves nothing about it (not tight: no refutation from it)
    r = check_implication("distinct-l-diversity", ONE_SIDED, "N - 2", max_n=3)
    assert r.verdict != "proved"


# --- finite-level-of: enhanced beta-likeness is basic beta-likeness wherever it is finite ---------

@pytest.mark.parametrize("seed", range(3))
def test_enhanced_is_basic_where_finite_by_brute(seed):
    """The declaration the prover reads, checked on random tables: enhanced's raw level (1 + beta) is
    basic's beta + 1 or infinite (tests/brute.py, both written from the paper's definitions)."""
    from implgraph import definitions
    from implgraph.definitions.capabilities import FiniteLevelOf
    assert definitions.get("enhanced-beta-likeness").declared(FiniteLevelOf).name == ONE_SIDED
    rng = random.Random(seed)
    finite = 0
    for _ in range(60):
        rows, classes = _random_table(rng, 6, low=1, high=9)
        try:
            e = brute.enhanced_beta_likeness(rows, classes)
        except AssertionError:      # too close to call in brute's decimals: skip the table
            continue
        if e != brute.INF:
            finite += 1
            assert e == 1 + brute.basic_beta_likeness(rows, classes)
    assert finite >= 10


def _finite_level_part(r):
    (cert,) = certificates_in(r.details)
    assert cert["method"] == "min" and [p["method"] for p in cert["parts"]] == ["finite-level-of", "one-sided-ceiling"]
    return cert, cert["parts"][0]


def test_enhanced_implies_basic_with_f_beta_capped_by_the_ceiling():
    """Where enhanced beta-likeness is finite its level is basic's (f = beta), and basic's is at most N - 1 on every
    table: f = min(beta, N - 1), each bound with its certificate inside one ``min`` certificate."""
    r = check_implication("enhanced-beta-likeness", ONE_SIDED, None)
    # tight since stop 28 (test_enhanced_min_family_by_brute_force)
    assert r.verdict == "proved" and r.method == "min" and r.tightness == "tight"
    beta = sympy.Symbol("beta", positive=True)
    f = sympy.sympify(str(r.tight), locals={"N": N, "beta": beta})
    for n in range(2, 7):
        for b in (sympy.Rational(1, 3), 1, 4, 9):
            assert f.subs({N: n, beta: b}) == min(b, n - 1)
    cert, part = _finite_level_part(r)
    assert check_certificate(cert).ok and check_certificate(part).ok
    other = copy.deepcopy(cert)
    other["parts"][0]["B"]["definition"] = "mult-t-closeness"     # not the definition A declares
    assert not check_certificate(other).ok
    lower = copy.deepcopy(cert)                # U below the parts' Min
    lower["upper"] = "Min(T, N - 1)"
    assert "U = Min of the parts' bounds" in [w for w, _, _ in check_certificate(lower).failures()]
    for forge in ({"split": "1"}, {"blocks": [{"count": "1", "value": "1", "class": "E1"},
                                              {"count": "N - 1", "value": "0", "class": "E2"}]}):
        bad = copy.deepcopy(cert)               # no split: a rare value breaks -ln p; or beta = N - 1 at every T
        bad["tightness"].update(forge)
        assert [w for w, _, _ in check_certificate(bad, ns=range(2, 7)).failures()] == ["tightness family attains U"]
    alone = copy.deepcopy(cert)                # one part: not a min of bounds
    alone["parts"] = alone["parts"][:1]
    assert not check_certificate(alone).ok
    # f = beta/2 is below the bound: not proved by it
    assert check_implication("enhanced-beta-likeness", ONE_SIDED, "beta/2", max_n=3).verdict != "proved"


@pytest.mark.parametrize("n", range(2, 6))
def test_enhanced_min_family_by_brute_force(n):
    """By hand: at R = Min(T, N) one record at 1/2 alone and N - 1 at y = (N - R)/(2 R (N - 1)): the table's first
    bucket holds 1/(2 R), so the lone class's ratio is R; the other class's second-bucket ratio is
    (1 - y)/(1 - 1/(2 R)) <= R. Split each bucket into m = 3^ceiling(T) equal ones: every increase q/p - 1 <= R - 1
    stays below -ln(p/m) >= ln m, so enhanced beta-likeness is basic's, R - 1 = beta."""
    import math
    for t in (Fraction(1), Fraction(5, 4), Fraction(2)):
        R = min(t, Fraction(n))
        m = 3 ** math.ceil(t)
        y = (n - R) / (2 * R * (n - 1))
        rows = [[Fraction(1, 2 * m)] * (2 * m)] + [[y / m] * m + [(1 - y) / m] * m] * (n - 1)
        labels = ["E1"] + ["E2"] * (n - 1)
        assert brute.basic_beta_likeness(rows, labels) == R - 1
        assert brute.enhanced_beta_likeness(rows, labels) == R        # raw: 1 + beta


def test_forged_finite_level_certificate_rejected():
    """The checker reads the declaration from the registry, not from the certificate's copy."""
    _, cert = _finite_level_part(check_implication("enhanced-beta-likeness", ONE_SIDED, None))
    forged = copy.deepcopy(cert)
    forged["A"]["definition"] = "ldp"            # ldp declares nothing of the kind
    forged["A"]["finite_level_of"] = ONE_SIDED
    assert not check_certificate(forged).ok
    forged = copy.deepcopy(cert)
    forged["B"]["definition"] = "mult-t-closeness"
    forged["A"]["finite_level_of"] = "mult-t-closeness"
    assert not check_certificate(forged).ok


def test_one_sided_subset_ceiling_is_n_over_j():
    """A one-sided subset level of size j (a plugin declaration): U = N / j, with its certificate."""
    from implgraph.definitions.capabilities import RatioLevel, SubsetSize
    from implgraph.definitions.families import RatioOfAverages

    class UpperSubset(RatioOfAverages):
        name, level_symbol, scale = "upper-subset-test", "t", "ratio"
        declares = (RatioLevel("subset", "one-sided"), SubsetSize("k"))
        params = {"k": "subset size"}
        ranges = {"k": (1, "N - 1")}

    k = sympy.Symbol("k", integer=True, positive=True)
    region = Region({N: "integer", k: "integer"}, (N >= 2, k >= 1, k <= N - 1))
    assert sympy.simplify(ceiling_bound(UpperSubset(), {"k": k}, None, region, N).upper - N / k) == 0
    r = check_implication("ldp", UpperSubset(), None, b_params={"k": 2}, symbols={"N": N})
    assert r.verdict == "proved" and r.method == "one-sided-ceiling"
    assert sympy.simplify(sympy.sympify(r.details["proved_f"], locals={"N": N}) - N / 2) == 0
    assert all(check_certificate(c).ok for c in certificates_in(r.details))
    # by hand: two records at 1 and N - 2 at 0 in bucket 1: the 2 largest have mean 1, the table 2/N
    n = 6
    col = [Fraction(1)] * 2 + [Fraction(0)] * (n - 2)
    assert (sum(sorted(col)[-2:]) / 2) / (sum(col) / n) == Fraction(n, 2)


# --- one-sided-class: a two-sided class level bounds a one-sided one on the same partition ----------

def test_one_sided_class_tight_f_by_hand():
    """mult-t-closeness t => basic beta-likeness Min(t, (N t - N + 1)/t) - 1, by hand at N = 4, t = 4:
    one record at 39/80 (class E1), three at 3/80 (E2): p = 3/20, E1's ratio 13/4 (beta 9/4), E2's
    downward ratio 4 = t; bucket 2 ratios 68/41 and 77/68."""
    rows = [[Fraction(39, 80), Fraction(41, 80)]] + [[Fraction(3, 80), Fraction(77, 80)]] * 3
    classes = ["E1", "E2", "E2", "E2"]
    assert brute.mult_t(rows, classes) == 4
    assert brute.basic_beta_likeness(rows, classes) == Fraction(9, 4)
    r = check_implication("mult-t-closeness", ONE_SIDED, None)
    assert r.verdict == "proved" and r.method == "one-sided-class" and r.tightness == "tight"
    f = r.tight.subs({x: {"N": 4, "t": 4}[x.name] for x in r.tight.free_symbols})
    assert f == sympy.Rational(9, 4)
    # below t = 3 the two-sided level itself binds: beta = t - 1 (check-edge's bounded tight f at N = 4)
    assert all(sympy.simplify(sympy.Min(tv, (4 * tv - 3) / tv) - 1 - (tv - 1)) == 0
               for tv in (sympy.Rational(3, 2), 2, 3))


@pytest.mark.parametrize("seed", range(3))
def test_one_sided_class_bound_on_random_tables(seed):
    """basic beta-likeness + 1 <= Min(T, (N T - N + s)/(s T)) with T the mult-t level (tests/brute.py),
    s the smallest class of the random partition."""
    rng = random.Random(seed)
    tested = 0
    for _ in range(80):
        rows, classes = _random_table(rng, 7, high=5)
        n = len(rows)
        T = brute.mult_t(rows, classes)
        if T == brute.INF:
            continue
        s = min(classes.count(c) for c in set(classes))
        U = min(T, (n * T - n + s) / (s * T))
        assert 1 + brute.basic_beta_likeness(rows, classes) <= U
        tested += 1
    assert tested >= 15


def test_one_sided_class_certificate_with_symbolic_classes():
    k = sympy.Symbol("k", integer=True, positive=True)
    r = check_implication("delta-disclosure-privacy", ONE_SIDED, None, a_classes={"min_size": k},
                          b_classes={"min_size": k}, symbols={"k": k, "N": N})
    assert r.verdict == "proved" and r.method == "one-sided-class"
    cert = certificates_in(r.details)[0]
    assert check_certificate(cert).ok
    bad = copy.deepcopy(cert)
    bad["upper"] = bad["upper"].replace("N*T - N + k", "N*T - N + 2*k")     # a larger second component
    assert bad["upper"] != cert["upper"] and not check_certificate(bad).ok
    bad = copy.deepcopy(cert)
    bad["upper_certificate"]["multipliers"]["rest"]["e - s >= 0"] = "N*T"
    assert not check_certificate(bad).ok
    bad = copy.deepcopy(cert)
    bad["B"]["min_class"] = "1"                 # another partition than A's
    assert not check_certificate(bad).ok


def test_one_sided_vertex_and_registered_description():
    """ldp => basic beta-likeness: the vertex argument for a one-sided class level, U = N T/(T + N - 1)
    (by hand: one record at T a, the rest at a: (T a)/((T + N - 1) a / N)); a certificate calling B
    two-sided, or giving B another family than its registered one, is rejected."""
    r = check_implication("ldp", ONE_SIDED, None)
    assert r.verdict == "proved" and r.method == "vertex"
    cert = certificates_in(r.details)[0]
    T = sympy.Symbol("T")
    assert sympy.simplify(sympy.sympify(cert["upper"], locals={"N": N, "T": T}) - N * T / (T + N - 1)) == 0
    assert check_certificate(cert).ok
    for key, value in (("sides", "two-sided"), ("family", "subset")):
        bad = copy.deepcopy(cert)
        bad["B"][key] = value
        assert not check_certificate(bad).ok
    rows = [[Fraction(3, 4), Fraction(1, 4)]] + [[Fraction(1, 4), Fraction(3, 4)]] * 3      # T = 3, N = 4
    assert brute.ldp(rows) == 3 and 1 + brute.basic_beta_likeness(rows, ["E1", "E2", "E2", "E2"]) == Fraction(2)


def test_checker_review_forgeries_rejected():
    """Found by review: a side without declared sides was read as two-sided; a domain that does not give
    s >= 1 and 2 s <= N was accepted (the lemma assumed them); a side that is not a mapping crashed."""
    k = sympy.Symbol("k", integer=True, positive=True)
    r = check_implication("mult-t-closeness", ONE_SIDED, None, a_classes={"min_size": k},
                          b_classes={"min_size": k}, symbols={"k": k, "N": N})
    cert = certificates_in(r.details)[0]
    bad = copy.deepcopy(cert)
    bad["A"]["definition"] = "k-anonymity"     # a count, no ratio of averages
    bad["A"].pop("sides")
    assert not check_certificate(bad).ok
    bad = copy.deepcopy(cert)
    bad["domain"], bad["tight"] = ["T >= 1", "N >= 2"], False
    assert not check_certificate(bad).ok
    bad = copy.deepcopy(cert)
    bad["A"] = "x"
    assert not check_certificate(bad).ok


def test_vertex_needs_a_partition_with_the_vertex_table():
    """Classes of 3 or 4 records at N = 8 leave no room for a class of 3 beside classes of equal values
    (5 records): the vertex argument (and its 'tight') does not apply; singleton classes keep it."""
    r = check_implication("ldp", ONE_SIDED, b_classes={"min_size": 3, "max_size": 4})
    assert r.method != "vertex"
    r = check_implication("ldp", "mult-t-closeness", b_classes={"min_size": 1, "max_size": 1})
    assert r.method == "vertex" and all(check_certificate(c).ok for c in certificates_in(r.details))


# --- subset-to-one-sided: a two-sided subset level bounds every class mean through the largest value ------

def test_subset_to_one_sided_by_hand():
    """kt-closeness(k=2) at t = 2, N = 4: U = Min(4 - 3/t, (2 t 3 - 4)/2) = Min(5/2, 4) = 5/2, beta = 3/2,
    attained by one record at 1/2 (its own class) and three at 1/10: kt level 2 (the 2 smallest, 1/10,
    against the mean 1/5)."""
    rows = [[Fraction(1, 2), Fraction(1, 2)]] + [[Fraction(1, 10), Fraction(9, 10)]] * 3
    classes = ["E1", "E2", "E2", "E2"]
    assert brute.kt(rows, 2) == 2 and brute.basic_beta_likeness(rows, classes) == Fraction(3, 2)
    r = check_implication("kt-closeness", ONE_SIDED, None, a_params={"k": 2})
    assert r.verdict == "proved" and r.method == "subset-to-one-sided" and r.tightness == "tight"
    f = sympy.sympify(str(r.tight), locals={"N": N, "t": sympy.Symbol("t", positive=True)})
    assert f.subs({x: {"N": 4, "t": 2}[x.name] for x in f.free_symbols}) == sympy.Rational(3, 2)
    cert = certificates_in(r.details)[0]
    assert check_certificate(cert).ok
    bad = copy.deepcopy(cert)
    bad["upper_certificate"]["multipliers"]["j largest"]["(N - 1)*H - (N - M) >= 0"] = "(2)"
    assert not check_certificate(bad).ok
    bad = copy.deepcopy(cert)
    bad["upper"] = "Min(N - N/T, (2*T*(N - 1) - N)/(N - 2))"          # below the attained 5/2 at N = 4, T = 2
    assert not check_certificate(bad).ok


def test_subset_to_one_sided_tight_where_the_old_bound_was_not():
    """N = 10, j = 2, t = 2, by hand: one value M and nine equal values y with M + 9 y = 10 (mean 1); the
    2 largest, M + y <= 4, give y >= 3/4, the 2 smallest, 2 y >= 1, y >= 1/2: M = 10 - 9 * 3/4 = 13/4 (the
    former bound, Min(2 t - 1/t, 10 - 9/t) = 7/2, was not attained). The prover's f is 13/4 - 1 there, and
    the attaining table (built by the prover) has these levels by the brute force."""
    r = check_implication("kt-closeness", ONE_SIDED, None, a_params={"k": 2})
    assert r.verdict == "proved" and r.tightness == "tight"
    t = sympy.Symbol("t", positive=True)
    f = sympy.sympify(str(r.tight), locals={"N": N, "t": t})
    assert f.subs({x: {"N": 10, "t": 2}[x.name] for x in f.free_symbols}) == sympy.Rational(9, 4)
    y = Fraction(3, 4)
    c = Fraction(1, 80)          # any small scale: (t - 1)/(N t (t + 1)) at N = 10, t = 2 is 1/60
    rows = [[Fraction(13, 4) * c, 1 - Fraction(13, 4) * c]] + [[y * c, 1 - y * c]] * 9
    classes = ["E1"] + ["E2"] * 9
    assert brute.kt(rows, 2) == 2 and brute.basic_beta_likeness(rows, classes) == Fraction(9, 4)


@pytest.mark.parametrize("n", range(2, 9))
def test_subset_to_one_sided_family_attains_at_each_N(n):
    """The prover's attaining table (Bound.build) at N = 2..8, j = 1..N - 1, t in {1, 3/2, 2, 5}: kt level
    <= t and basic beta-likeness + 1 = U, both by the brute force."""
    from implgraph.engines.bounds import _subset_one_sided_bound, subset_one_sided_upper, T as T_
    for j in range(1, n):
        b = _subset_one_sided_bound(sympy.Integer(j), N)
        for tv in (sympy.Integer(1), sympy.Rational(3, 2), sympy.Integer(2), sympy.Integer(5)):
            ct = b.build({T_: tv, N: n})
            rows = [[Fraction(x) for x in r] for r in ct.to_rows()]
            classes = ["E1"] + ["E2"] * (n - 1)
            U = subset_one_sided_upper(j, N).subs({T_: tv, N: n})
            assert brute.kt(rows, j) <= tv
            assert 1 + brute.basic_beta_likeness(rows, classes) == U


@pytest.mark.parametrize("seed", range(3))
def test_subset_to_one_sided_on_random_tables(seed):
    """basic beta-likeness + 1 <= Min(N - (N - 1)/T, (j T (N - 1) - (j - 1) N)/(N - j)), T the (k,t)-closeness
    level with k = j (tests/brute.py), for every j = 1..N - 1 and any classes."""
    rng = random.Random(seed)
    tested = 0
    for _ in range(60):
        rows, classes = _random_table(rng, 7, low=1, high=6)
        n = len(rows)
        for j in range(1, n):
            T = brute.kt(rows, j)
            U = min(n - (n - 1) / T, (j * T * (n - 1) - (j - 1) * n) / (n - j))
            assert 1 + brute.basic_beta_likeness(rows, classes) <= U
            tested += 1
    assert tested >= 100


def test_review_subset_size_tied_to_the_registry_and_min_class():
    """Found by review: a dp certificate whose A size was changed to 1 (with a bound that then follows) was
    accepted; with classes of >= 3 records the ceiling N/3 is kept (subset-to-one-sided is for any classes)."""
    r = check_implication("dp", ONE_SIDED, None)
    cert = certificates_in(r.details)[0]
    assert check_certificate(cert).ok
    bad = copy.deepcopy(cert)
    bad["A"]["size"] = "1"
    bad["upper"] = "Min(N - (N - 1)/T, T)"
    bad["upper_certificate"]["multipliers"]["j largest"]["(N - 1)*H - (N - M) >= 0"] = "0"
    bad["domain"] = [c.replace("N - 1) >= 1", "1) >= 1").replace("(N - 1) <= N - 1", "(1) <= N - 1")
                     for c in bad["domain"]]
    assert not check_certificate(bad).ok
    r = check_implication("dp", ONE_SIDED, None, b_classes={"min_size": 3})
    assert r.method == "one-sided-ceiling"
    assert sympy.simplify(sympy.sympify(r.details["proved_f"], locals={"N": N}) - (N / 3 - 1)) == 0


def test_subset_to_one_sided_writes_the_smaller_component_alone_where_it_is_decided():
    """dp (j = N - 1): the second component minus the first is (N - 1)((N - 1) t - 1)(t - 1)/t >= 0 (by hand),
    so U = N - (N - 1)/t alone, beta = (N - 1)(t - 1)/t with t = e^eps; the certificate (U one component alone)
    is accepted, and one alone that is not a component is not."""
    r = check_implication("dp", ONE_SIDED, None)
    eps = sympy.Symbol("eps", positive=True)
    got = sympy.sympify(str(r.tight), locals={"N": N, "eps": eps})
    t = sympy.exp(eps)
    assert sympy.simplify(got - (N - 1) * (t - 1) / t) == 0 and r.tightness == "tight"
    cert = certificates_in(r.details)[0]
    assert "Min" not in cert["upper"] and check_certificate(cert).ok
    bad = copy.deepcopy(cert)
    bad["upper"] = "N - N/T"
    assert not check_certificate(bad).ok


# --- chain: enhanced beta-likeness => the EMD definitions through basic beta-likeness's tight f ------------------

def _one_sided_distance_u(n, t):
    """basic beta-likeness => a class's total variation distance (one-sided-distance, classes of >= 1 record)."""
    return min(Fraction(n - 1, n) * (t - 1), (t - 1) / t, Fraction(n - 1, n))


@pytest.mark.parametrize("n", range(2, 6))
def test_enhanced_chain_family_by_brute_force(n):
    """By hand: enhanced's level is basic's where finite, so basic's bound towards the distance holds; basic's
    attaining table (one record at x = Min(1, T (N - 1)/N) alone, N - 1 at (N (x - U) - x)/(N - 1)) split into
    m = 3^ceiling(T) equal buckets keeps every ratio and the distance, and meets enhanced's cap -ln(p/m) >= ln m."""
    import math
    for t in (Fraction(1), Fraction(5, 4), Fraction(2), Fraction(3)):
        u = _one_sided_distance_u(n, t)
        x = min(Fraction(1), t * (n - 1) / n)
        y = (n * (x - u) - x) / (n - 1)
        m = 3 ** math.ceil(t)
        rows = [[x / m] * m + [(1 - x) / m] * m] + [[y / m] * m + [(1 - y) / m] * m] * (n - 1)
        labels = ["E1"] + ["E2"] * (n - 1)
        assert brute.enhanced_beta_likeness(rows, labels) <= t
        assert brute.emd_t(rows, labels) == u


@pytest.mark.parametrize("b", ["emd-t-closeness", "hierarchical-emd-t-closeness"])
def test_enhanced_chain_certificate_and_forgeries(b):
    r = check_implication("enhanced-beta-likeness", b, None, b_params={"ground": "equal"})
    assert r.verdict == "proved" and r.method == "chain" and r.tightness == "tight"
    beta = sympy.Symbol("beta", positive=True)
    f = sympy.sympify(str(r.tight), locals={"N": N, "beta": beta})
    for n in range(2, 7):
        for t in (Fraction(5, 4), Fraction(2), Fraction(7)):
            want = _one_sided_distance_u(n, t)
            assert f.subs({N: n, beta: sympy.Rational(t.numerator, t.denominator) - 1}) == \
                sympy.Rational(want.numerator, want.denominator)
    assert "3**(ceiling(beta) + 1) buckets" in r.details["attained"]
    (cert,) = certificates_in(r.details)
    assert [p["method"] for p in cert["parts"]] == ["finite-level-of", "one-sided-distance"]
    assert check_certificate(cert).ok
    for change in (lambda c: c["tightness"].update(split="1"),          # a rare value breaks -ln p
                   lambda c: c.update(upper="(N - 1)/N"),                # not the second part's bound
                   lambda c: c["parts"][0].update(upper="T + 1"),        # X's level not at most A's
                   lambda c: c["parts"].reverse(),                       # the links A => X => B broken
                   lambda c: c["A"].pop("increase_cap")):                # not A as registered
        bad = copy.deepcopy(cert)
        change(bad)
        assert not check_certificate(bad, ns=range(2, 6)).ok


def test_the_exponential_comparison_is_exact_and_bounded():
    """(review) e^r <= K decided exactly (against floats far from ties); a K within 10^-400 of e^r, which a forged
    family could make the checker meet, fails closed quickly instead of costing minutes."""
    import math
    import time
    from implgraph.certify.levels import _exp_at_most
    rng = random.Random(3)
    for _ in range(300):
        r, K = Fraction(rng.randint(0, 300), rng.randint(1, 30)), Fraction(rng.randint(1, 10 ** 6), rng.randint(1, 999))
        if abs(math.exp(float(r)) - float(K)) > 1e-6 * float(K):
            assert _exp_at_most(r, K) == (math.exp(float(r)) <= float(K))
    import mpmath
    r = 1 + Fraction(1, 10 ** 400)          # a rate with a long denominator, and K within 10^-800 of e^r
    with mpmath.workdps(850):
        near = Fraction(int(mpmath.floor(mpmath.e * 10 ** 30)), 10 ** 30)         # e to 30 digits: decided
        tight = Fraction(int(mpmath.floor(mpmath.exp(mpmath.mpf(1) + mpmath.mpf(10) ** -400) * 10 ** 800)), 10 ** 800)
    assert _exp_at_most(1, near + Fraction(1, 10 ** 29)) and not _exp_at_most(1, near - Fraction(1, 10 ** 29))
    start = time.perf_counter()
    with pytest.raises(ValueError):
        _exp_at_most(r, tight)
    assert time.perf_counter() - start < 10
