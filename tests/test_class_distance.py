"""The ``class-distance`` argument: a two-sided class level A (multiplicative t-closeness, delta-disclosure
privacy) bounds the total variation distance of every class from the table (EMD t-closeness with the
equal ground distance) by U = Min((T - 1)/(T + 1), (N - s)(T - 1)/(N T)) for every N, tight.

Values here are derived by hand (the module notes of implgraph.engines.bounds) or by tests/brute.py,
and compared with the exact tight values check-edge computes by linear programs at small N.
"""

import copy
from fractions import Fraction as F

import pytest
import sympy

import brute
from implgraph.certify import certificates_in, check_certificate
from implgraph.engines.direction import check_direction
from implgraph.engines.prove import Word, check_implication

N, T, k = sympy.Symbol("N", integer=True), sympy.Symbol("T", positive=True), sympy.Symbol("k", integer=True)
EQUAL = {"ground": Word("equal")}


def _tv_bound(n, t, s=1):
    """By hand: the larger of the two constraints x <= T P with 1 - x >= (1 - P)/T, and the other
    classes' mass >= P/T, cut first."""
    return min((t - 1) / (t + 1), F(n - s) * (t - 1) / (n * t))


def test_table_by_hand():
    """N = 3, T = 3 (beyond T = N - 1): record (7/9, 2/9) alone, two records (1/9, 8/9). The table's
    bucket-1 mean is 1/3; the lone class is at 7/3 and 1/3 of the table's means, the other at 1/3 and
    4/3: multiplicative t-closeness level 3; the lone class is 7/9 - 1/3 = 4/9 away in total variation."""
    rows = [[F(7, 9), F(2, 9)], [F(1, 9), F(8, 9)], [F(1, 9), F(8, 9)]]
    classes = ["E1", "E2", "E2"]
    assert brute.mult_t(rows, classes) == 3
    assert brute.emd_t(rows, classes, "equal") == F(4, 9) == _tv_bound(3, F(3))
    assert _tv_bound(3, F(3)) < F(1, 2)          # below (T - 1)/(T + 1): the second component counts


@pytest.mark.parametrize("b", ["emd-t-closeness", "hierarchical-emd-t-closeness"])
def test_prover_tight_f(b):
    r = check_implication("mult-t-closeness", b, None, b_params=EQUAL)
    assert r.verdict == "proved" and r.method == "class-distance" and r.tightness == "tight"
    t = sympy.Symbol("t", real=True)
    f = r.tight.subs({s: N for s in r.tight.free_symbols if s.name == "N"})
    f = f.subs({s: t for s in f.free_symbols if s.name == "t"})
    for n in range(2, 9):
        for tv in (F(1), F(5, 4), F(2), F(3), F(7), F(10)):
            assert f.subs({N: n, t: sympy.Rational(tv.numerator, tv.denominator)}) == _tv_bound(n, tv), (n, tv)


def test_delta_disclosure_in_log_units():
    r = check_implication("delta-disclosure-privacy", "emd-t-closeness", None, b_params=EQUAL)
    assert r.verdict == "proved" and r.tightness == "tight"
    d = next(s for s in r.tight.free_symbols if s.name == "delta")
    n = next(s for s in r.tight.free_symbols if s.name == "N")
    assert sympy.simplify(r.tight.subs({n: 5, d: sympy.log(3)}) - _tv_bound(5, F(3))) == 0


def _pairwise_tv(n, t, s=1):
    """By hand: X <= T Y and T (1 - X) >= 1 - Y give X - Y <= (T - 1)/(T + 1), and a class's distance is
    (N - e)(X - Y)/N with e >= s."""
    return F(n - s, n) * (t - 1) / (t + 1)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
@pytest.mark.parametrize("a, bound", [("mult-t-closeness", _tv_bound), ("ldp", _pairwise_tv)])
def test_tight_f_equals_the_linear_programs(a, bound, n):
    """check-edge's tight values at N = n (a linear program per form, over every partition, exact) are the
    bounds derived by hand at every sampled level."""
    d = check_direction(a, "emd-t-closeness(ground=equal)", N=n, n_min=n, prover=False)
    samples = d.instances[-1].samples
    assert len(samples) >= 6
    for level, v in samples:
        assert F(v) == bound(n, F(level)), (n, level, v)


def test_minimum_class_size():
    """With classes of >= k records the second component is (N - k)(T - 1)/(N T): at N = 6, k = 2,
    T = 4 it is 1/2 < 3/5, attained by the table below (levels checked by tests/brute.py: the classes are
    at 5/2 and 1/4 of the table's mean 1/3 in bucket 1, at 1/4 and 11/8 of its 2/3 in bucket 2)."""
    r = check_implication("mult-t-closeness", "emd-t-closeness", None, b_params=EQUAL,
                          a_classes={"min_size": k}, b_classes={"min_size": k}, symbols={"k": k})
    assert r.verdict == "proved" and r.tightness == "tight"
    names = {s.name: s for s in r.tight.free_symbols}
    val = r.tight.subs({names["N"]: 6, names["k"]: 2, names["t"]: 4})
    assert val == F(1, 2) == _tv_bound(6, F(4), 2)
    # by hand: P = Max(1/5, 2/6) = 1/3; E1 (2 records) at U' P with U' = Min(4, (24 - 6 + 2)/8) = 5/2,
    # i.e. 5/6; E2 (4 records) at P/T = 1/12
    rows = [[F(5, 6), F(1, 6)]] * 2 + [[F(1, 12), F(11, 12)]] * 4
    classes = ["E1"] * 2 + ["E2"] * 4
    assert brute.mult_t(rows, classes) == 4 and brute.emd_t(rows, classes, "equal") == F(1, 2)


def test_other_ground_distance_not_claimed():
    """The ordered ground distance is no total variation: the argument does not apply."""
    r = check_implication("mult-t-closeness", "emd-t-closeness", None, b_params={"ground": Word("ordered")})
    assert r.verdict == "unknown"


def _corrupted(cert, identity, fact, value):
    """A copy of ``cert`` with one multiplier changed."""
    bad = copy.deepcopy(cert)
    bad["upper_certificate"]["multipliers"][identity][fact] = value
    return bad


def _certificate():
    r = check_implication("mult-t-closeness", "emd-t-closeness", None, b_params=EQUAL)
    (cert,) = certificates_in(r.details)
    return cert


def _lowered_rejected(cert, upper, ns):
    lowered = copy.deepcopy(cert)
    lowered["upper"] = upper
    assert not check_certificate(lowered, ns=ns).ok


def _ordered_ground_rejected(cert):
    other = copy.deepcopy(cert)
    other["B"]["params"] = {"ground": "ordered"}      # the registry declares no distance for it
    rep = check_certificate(other, ns=range(2, 4))
    assert not rep.ok and any("as registered" in w for w, _, _ in rep.failures())


def test_certificate_rechecked_and_corruptions_rejected():
    cert = _certificate()
    assert check_certificate(cert).ok
    rep = check_certificate(_corrupted(cert, "far", "e - s >= 0", "T"), ns=range(2, 4))      # was T - 1
    assert not rep.ok and any("not 0" in h for _, _, h in rep.failures())
    _lowered_rejected(cert, "Min((T - 1)/(T + 2), (N - 1)*(T - 1)/(N*T))", range(2, 4))
    _ordered_ground_rejected(cert)


# --- pairwise-distance: A pairwise (LDP), B the total variation distance ------------------------------

def test_pairwise_table_by_hand():
    """N = 4, T = 3: one record at (3/4, 1/4) alone, three at (1/4, 3/4): every pair within ratio 3 in both
    buckets (LDP level ln 3), and the lone class is 3/4 - 3/8 = 3/8 from the table (mean 3/8)."""
    rows = [[F(3, 4), F(1, 4)]] + [[F(1, 4), F(3, 4)]] * 3
    classes = ["E1", "E2", "E2", "E2"]
    assert brute.ldp(rows) == 3
    assert brute.emd_t(rows, classes, "equal") == F(3, 8) == _pairwise_tv(4, F(3))


def test_pairwise_certificate_and_corruption():
    r = check_implication("ldp", "hierarchical-emd-t-closeness", None, b_params=EQUAL)
    assert r.verdict == "proved" and r.method == "pairwise-distance" and r.tightness == "tight"
    (cert,) = certificates_in(r.details)
    assert check_certificate(cert).ok
    assert not check_certificate(_corrupted(cert, "pairs", "e - s >= 0", "T + 1"), ns=range(2, 4)).ok
    _lowered_rejected(cert, "(N - 1)*(T - 1)/(N*(T + 2))", range(2, 4))


# --- regressions found by review -----------------------------------------------------------------------

def test_no_witness_outside_the_partitions_the_claim_allows():
    """With classes of >= k records a table needs N >= 2k; the f below is >= U wherever one exists, so the
    claim holds (no table with N < 2k is a witness: its second class would be too small)."""
    f = "(N - k)*(t - 1)/(N*t) + (N - 2*k)*(t - 1)/(100*N*t)"
    kk = sympy.Symbol("k", integer=True, positive=True)
    r = check_implication("mult-t-closeness", "emd-t-closeness", f, b_params=EQUAL, a_classes={"min_size": kk},
                          b_classes={"min_size": kk}, when=["k >= 2", "N >= 2*k - 1"], max_n=6, symbols={"k": kk})
    assert r.verdict == "proved" and r.witness is None


def test_a_false_f_with_a_word_parameter_is_refuted_not_a_crash():
    """4 (t - 1)/(N (t + 1)) is below (t - 1)/(t + 1) at N = 5, t = 2, where U is 1/3: refuted, with a table."""
    d = check_direction("mult-t-closeness", "emd-t-closeness(ground=equal)", f="4*(t-1)/(N*(t+1))", N=4)
    assert d.f_verdict == "refuted" and d.witness is not None


def test_a_distance_a_is_not_read_as_a_ratio():
    """EMD's levels start at 0: at N = 2, records (1/2, 1/2) and (0, 1) in two classes have EMD 1/4 and basic
    beta-likeness 1 > (N - 1) t = 1/4, so f = (N - 1) t is false and must not be proved (the prover once
    read A's levels as ratios >= 1, where EMD holds on every table)."""
    rows, classes = [[F(1, 2), F(1, 2)], [F(0), F(1)]], ["E1", "E2"]
    assert brute.emd_t(rows, classes, "equal") == F(1, 4) and brute.basic_beta_likeness(rows, classes) == 1
    r = check_implication("emd-t-closeness", "basic-beta-likeness", "(N - 1)*t", a_params=EQUAL, max_n=4)
    assert r.verdict != "proved"


def test_same_level_needs_a_description_that_fixes_the_level():
    """A forged same-level certificate between EMD with the ordered ground distance (no declared distance) and
    with the equal one is rejected: with 3 buckets, d = (c/2, -c, c/2) has total variation c, ordered EMD c/2."""
    cert = _certificate()
    forged = copy.deepcopy(cert)
    forged.update(method="same-level", upper="T", tight=False)
    forged.pop("upper_certificate", None)
    forged["A"] = {"definition": "emd-t-closeness", "params": {"ground": "ordered"}, "family": "class", "sides": None,
                   "min_class": "1"}
    rep = check_certificate(forged, ns=range(2, 4))
    assert not rep.ok and any("identical descriptions" in w for w, _, _ in rep.failures())


# --- removal-distance: A a subset level of size N - 1 (eps-DP), B the total variation distance -------------

def _removal_tv(n, t):
    """By hand (the module notes of implgraph.engines.bounds): the largest record M and the table's P satisfy
    T (N P - M) >= (N - 1) P and (N - 1) T (1 - P) >= N (1 - P) - (1 - M), and M <= 1."""
    return min(F(n - 1) * (t - 1) / (t + 1), F(n - 1) * (t - 1) / (n * t - n + 1))


def test_removal_table_by_hand():
    """N = 4, T = 9/8: one record at 12/17 alone, three at 8/17 (table mean 9/17 = T/(T + 1)). Without the
    first record the mean is 8/17 = P/T; without another, 28/51. On the second bucket 5/17 and 9/17, mean 8/17:
    without the first 9/17 = T (8/17). So eps-DP's ratio is 9/8, and the lone class is 3/17 from the table."""
    rows = [[F(12, 17), F(5, 17)]] + [[F(8, 17), F(9, 17)]] * 3
    classes = ["E1", "E2", "E2", "E2"]
    assert brute.dp(rows) == F(9, 8)
    assert brute.emd_t(rows, classes, "equal") == F(3, 17) == _removal_tv(4, F(9, 8))


@pytest.mark.parametrize("n", [3, 4, 5])
def test_removal_tight_f_equals_the_linear_programs(n):
    d = check_direction("dp", "emd-t-closeness(ground=equal)", N=n, n_min=n, prover=False)
    samples = d.instances[-1].samples
    assert len(samples) >= 6
    for level, v in samples:
        assert F(v) == _removal_tv(n, F(level)), (n, level, v)


def test_removal_bound_not_attained_at_two_records():
    """At N = 2 the sets of N - 1 records are single records: the LP's tight value at t = 5/4 is
    (t - 1)/(2 t) = 1/10 < U = 1/9, so the prover claims U tight only where N >= 3 (over every N >= 2 the tight
    f is piecewise, its N = 2 piece ``removal-distance-pair``: tests/test_removal_pair.py)."""
    d = check_direction("dp", "emd-t-closeness(ground=equal)", N=2, n_min=2, prover=False)
    assert dict(d.instances[-1].samples)["5/4"] == "1/10" and _removal_tv(2, F(5, 4)) == F(1, 9)
    whole = check_implication("dp", "emd-t-closeness", None, b_params=EQUAL)
    assert whole.verdict == "proved" and whole.tightness == "tight" and whole.upper_f is None
    assert "Eq(N, 2)" in str(whole.tight)
    tight = check_implication("dp", "emd-t-closeness", None, b_params=EQUAL, when=["N >= 3"])
    assert tight.verdict == "proved" and tight.tightness == "tight"
    (cert,) = certificates_in(tight.details)
    assert check_certificate(cert).ok
    assert not check_certificate(_corrupted(cert, "far", "1 - M >= 0", "(N - 1)*T"), ns=range(3, 5)).ok
    early = copy.deepcopy(cert)
    early["domain"] = [c for c in early["domain"] if c != "N >= 3"]     # the family at N = 2 breaks A
    rep = check_certificate(early, ns=range(2, 4))
    assert not rep.ok and any("family" in w for w, _, _ in rep.failures())


# --- removal-distance for a subset level of any size j <= N - 1 ((k,t)-closeness, (k,eps)-DP) -------------

def test_subset_of_two_table_by_hand():
    """N = 4, T = 2: one record at (1, 0) alone, three at (1/5, 4/5); the table's mean is (2/5, 3/5). Pairs on the
    first bucket: largest mean 3/5 = (3/2)(2/5), smallest 1/5 = (2/5)/2; on the second: 4/5 = (4/3)(3/5) and
    2/5 = (3/5)/(3/2). So (2,t)-closeness's t is 2, and the lone class is 1 - 2/5 = 3/5 from the table: U at
    N = 4, T = 2 is attained."""
    rows = [[F(1), F(0)]] + [[F(1, 5), F(4, 5)]] * 3
    classes = ["E1", "E2", "E2", "E2"]
    assert brute.kt(rows, 2) == 2
    assert brute.emd_t(rows, classes, "equal") == F(3, 5) == _removal_tv(4, F(2))


@pytest.mark.parametrize("n", [3, 4, 5])
def test_subset_of_two_tight_values_below_the_bound(n):
    """U bounds the exact tight values of the linear programs at every sample level, and at N = 4 the bound
    is strict at t = 5/4: the tight value there is 3 (t - 1)/(2 t) = 3/10 < U = 1/3 (by hand: the pairs
    give L >= P/T and (1 - H) + (1 - L) >= 2 (1 - P)/T for one record at H, three at L; the two meet at
    P = 1/2): the subset-distance f (_subset_tv) is that value."""
    d = check_direction("kt-closeness(k=2)", "emd-t-closeness(ground=equal)", N=n, n_min=n, prover=False)
    samples = dict(d.instances[-1].samples)
    assert len(samples) >= 6
    for level, v in samples.items():
        assert F(v) <= _removal_tv(n, F(level)), (n, level, v)
    if n == 4:
        assert F(samples["5/4"]) == F(3, 10) < _removal_tv(4, F(5, 4)) == F(1, 3)
    for level, v in samples.items():
        assert F(v) == _subset_tv(n, F(level), 2), (n, level, v)


def _subset_tv(n, t, j):
    """By hand (subset-distance, since stop 28): merge the buckets where a class lies above the table; with M the
    largest record's mass there and y the others' mean, the j largest have mean >= (M + (j - 1) y)/j and the j
    smallest <= y, so A's four ratios and M <= 1 give a (M - y) <= (t - 1) y and b (M - y) <= (t - 1)(1 - y) with
    a = 1/N or 1/j - t/N, b = t/N, t/j - 1/N or t - 1; the largest a and b give the tight M - P = (N - 1)(M - y)/N."""
    a = max(F(1, n), F(1, j) - t / n)
    b = max(t / n, t / j - F(1, n), t - 1)
    return F(n - 1, n) * (t - 1) / (a + b)


def _subset_family(n, t, j):
    a = max(F(1, n), F(1, j) - t / n)
    b = max(t / n, t / j - F(1, n), t - 1)
    y = a / (a + b)
    return [[y + (t - 1) / (a + b), 1 - y - (t - 1) / (a + b)]] + [[y, 1 - y]] * (n - 1)


def test_subset_distance_by_hand():
    # N = 4, j = 2, t = 5/4: a = 1/4, b = max(5/16, 3/8, 1/4) = 3/8, U = (3/4)(1/4)/(5/8) = 3/10, the linear
    # programs' value (test_subset_of_two_tight_values_below_the_bound); t = 2: b = 1, U = (3/4)/(5/4) = 3/5
    assert _subset_tv(4, F(5, 4), 2) == F(3, 10) == F(3) * F(1, 4) / (2 * F(5, 4))
    assert _subset_tv(4, F(2), 2) == F(3, 5) == _removal_tv(4, F(2))
    # j = N - 1 is record removal: the removal-distance f (N >= 3), and (t - 1)/(2 t) at N = 2
    for n in (3, 5, 8):
        for t in (F(5, 4), F(2), F(7)):
            assert _subset_tv(n, t, n - 1) == _removal_tv(n, t)
    assert _subset_tv(2, F(3), 1) == F(1, 3)


@pytest.mark.parametrize("n", range(2, 10))
def test_subset_distance_family_by_brute_force(n):
    labels = ["E1"] + ["E2"] * (n - 1)
    for j in range(1, n):
        for t in (F(1), F(5, 4), F(3, 2), F(2), F(4)):
            rows = _subset_family(n, t, j)
            assert brute.kt(rows, j) <= t
            assert brute.emd_t(rows, labels, "equal") == _subset_tv(n, t, j)


@pytest.mark.parametrize("a, j", [("kt-closeness", 2), ("kdp", "N - 2")])
def test_subset_of_any_size_certificate_and_corruptions(a, j):
    # tight since stop 28 (subset-distance; an upper bound from removal-distance before)
    r = check_implication(a, "emd-t-closeness", None, a_params={"k": 2}, b_params=EQUAL)
    assert r.verdict == "proved" and r.method == "subset-distance" and r.tightness == "tight"
    f = sympy.sympify(str(r.tight), locals={"N": N})
    x = sympy.Symbol("eps" if a == "kdp" else "t")
    for n in range(3, 9):
        jn = 2 if a == "kt-closeness" else n - 2
        if not 1 <= jn <= n - 1:
            continue
        for t in (F(5, 4), F(2), F(5)):
            at = sympy.log(sympy.Rational(t.numerator, t.denominator)) if a == "kdp" else sympy.Rational(t.numerator, t.denominator)
            want = _subset_tv(n, t, jn)
            assert sympy.simplify(f.subs({N: n, x: at}) - sympy.Rational(want.numerator, want.denominator)) == 0
    (cert,) = certificates_in(r.details)
    assert cert["tight"] and sympy.sympify(cert["A"]["size"], locals={"N": N}) == sympy.sympify(j, locals={"N": N})
    assert check_certificate(cert).ok
    key = "the j smallest: L >= P/T + the j smallest on the complement: 1 - L <= T (1 - P)"
    assert not check_certificate(_corrupted(cert, key, "the j smallest: L >= P/T", "2"), ns=range(3, 5)).ok
    assert not check_certificate(dict(copy.deepcopy(cert), upper="(N - 1)*(T - 1)/(N*T)"), ns=range(3, 5)).ok
    # (review) an unregistered side with an additive slack is no ratio level without one
    slack = copy.deepcopy(cert)
    slack["A"].update(definition="not-registered", slack={"compares": "subset", "delta": "1/10"})
    slack["tight"], slack["tightness"] = False, None
    assert not check_certificate(slack, ns=range(3, 5)).ok
    wide = copy.deepcopy(cert)
    wide["domain"] = [c for c in wide["domain"] if "<= N - 1" not in c]    # j could exceed N - 1
    wide["A"]["size"] = "N"
    rep = check_certificate(wide, ns=range(3, 5))
    assert not rep.ok and any("j <= N - 1" in w for w, _, _ in rep.failures())
    if a == "kdp":
        # without the domain's k <= N - 1 and 1 <= N - 2 <= N - 1, N = 2 gives j = 0: no set of that size
        low = copy.deepcopy(cert)
        low["domain"] = [c for c in low["domain"] if c not in ("2 <= N - 1", "(N - 2) >= 1", "(N - 2) <= N - 1")]
        assert len(low["domain"]) < len(cert["domain"])
        rep = check_certificate(low, ns=range(2, 4))
        assert not rep.ok and any("j >= 1" in w for w, _, _ in rep.failures())


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_subset_of_any_size_bound_on_random_tables(n):
    """On random tables (brute force: 2 or 3 buckets, zero entries, any partition into >= 2 classes), every
    class's total variation distance is at most U at A's level, for every subset size."""
    import random
    rng = random.Random(n)
    for _ in range(150):
        p = rng.choice((2, 3))
        rows = []
        for _ in range(n):
            w = [rng.randint(0, 4) for _ in range(p)]
            w[rng.randrange(p)] += 1
            rows.append([F(x, sum(w)) for x in w])
        classes = [f"E{rng.randint(1, 3)}" for _ in range(n)]
        classes[0], classes[-1] = "E1", "E2"        # at least two classes
        tv = brute.emd_t(rows, classes, "equal")
        for k in range(1, n):
            for t in (brute.kt(rows, k), brute.kdp(rows, k)):
                if t != brute.INF:
                    assert tv <= _removal_tv(n, t), (rows, classes, k)
            t = brute.kt(rows, k)       # the tight f of subset-distance, j = k ((k,t)-closeness)
            if t != brute.INF:
                assert tv <= _subset_tv(n, t, k), (rows, classes, k)


# --- same-distance: EMD and hierarchical EMD under the equal ground distance, both the total variation ------

def _same_tv(n, t, s=1):
    """By hand: B's level is A's, and a class of e >= s records is at most (N - e)/N <= (N - s)/N from the
    table (x - P = x - (e x + others)/N <= (N - e) x/N)."""
    return min(t, F(n - s, n))


@pytest.mark.parametrize("t, v, want", [(F(1, 2), F(1, 3), F(1, 2)), (F(9, 10), F(0), F(3, 4))])
def test_same_distance_table_by_hand(t, v, want):
    """N = 4: one record at (1, 0) alone, three at (v, 1 - v). The lone class is (3/4)(1 - v) from the table,
    the other (1/4)(1 - v): t = 1/2 needs v = 1/3; beyond 3/4 no class can be farther (v = 0)."""
    rows = [[F(1), F(0)]] + [[v, 1 - v]] * 3
    classes = ["E1", "E2", "E2", "E2"]
    assert brute.emd_t(rows, classes, "equal") == brute.hierarchical_emd(rows, classes, (0, 1)) == want \
        == _same_tv(4, t)


@pytest.mark.parametrize("n", [3, 4])
@pytest.mark.parametrize("a, b", [("emd-t-closeness", "hierarchical-emd-t-closeness"),
                                  ("hierarchical-emd-t-closeness", "emd-t-closeness")])
def test_same_distance_tight_f_equals_the_linear_programs(a, b, n):
    d = check_direction(f"{a}(ground=equal)", f"{b}(ground=equal)", N=n, n_min=n, prover=False)
    samples = d.instances[-1].samples
    assert len(samples) >= 6
    for level, v in samples:
        assert F(v) == _same_tv(n, F(level)), (n, level, v)
    r = check_implication(a, b, None, a_params=EQUAL, b_params=EQUAL)
    assert r.verdict == "proved" and r.method == "same-distance" and r.tightness == "tight"
    assert str(r.tight) == "Min(t, (N - 1)/N)"        # by hand: _same_tv


def test_same_distance_certificate_and_corruptions():
    r = check_implication("emd-t-closeness", "hierarchical-emd-t-closeness", None, a_params=EQUAL, b_params=EQUAL)
    (cert,) = certificates_in(r.details)
    assert check_certificate(cert).ok
    assert not check_certificate(_corrupted(cert, "mass", "1 - x >= 0", "N - e_ - 1"), ns=range(2, 4)).ok
    _lowered_rejected(cert, "Min(T, (N - 2)/N)", range(2, 5))
    _ordered_ground_rejected(cert)
    undeclared = copy.deepcopy(cert)
    for side in ("A", "B"):
        undeclared[side].pop("distance")
        undeclared[side].pop("params", None)
        undeclared[side].pop("definition", None)
    rep = check_certificate(undeclared, ns=range(2, 4))
    assert not rep.ok and any("one declared distance" in w for w, _, _ in rep.failures())


def test_a_distance_a_is_sampled_below_one():
    """A is a distance (its level in [0, 1]): the family is checked at levels below 1, where U = Min(T, (N - 1)/N)
    is T. A false tightness claim U = (N - 1)/N, with the family one record at (1, 0) alone and the rest at
    (0, 1) (a distance (N - 1)/N from the table, so A's level is (N - 1)/N and A <= T fails for T < (N - 1)/N;
    the bound itself is true), is rejected there; a grid of ratios >= 1 saw only T >= 1, where it holds."""
    r = check_implication("emd-t-closeness", "hierarchical-emd-t-closeness", None, a_params=EQUAL, b_params=EQUAL)
    (cert,) = certificates_in(r.details)
    rep = check_certificate(cert, ns=range(2, 5))
    assert rep.ok and any("levels 0, 1/100, 1/20, 1/10, 1/4" in h for w, _, h in rep.steps if "family" in w)
    forged = copy.deepcopy(cert)
    forged["upper"] = "(N - 1)/N"
    forged["tightness"]["blocks"][1]["value"] = "0"
    rep = check_certificate(forged, ns=range(2, 5))
    assert not rep.ok and [w for w, _, _ in rep.failures()] == ["tightness family attains U"]


def test_same_distance_not_claimed_for_an_ordered_ground():
    r = check_implication("emd-t-closeness", "hierarchical-emd-t-closeness", None,
                          a_params={"ground": Word("ordered")}, b_params=EQUAL)
    assert r.method != "same-distance"


@pytest.mark.parametrize("name, params", [("emd-t-closeness", {"ground": Word("ordered")}), ("k-anonymity", {}),
                                          ("entropy-l-diversity", {})])
def test_one_definition_with_a_bounded_level_is_an_upper_bound(name, params):
    """A definition implies itself at its own level (U = T), but a distance never exceeds (N - 1)/N and a
    count or an entropy takes few values at each N: T is not every table's level, so U = T is not claimed
    tight; the kernel accepts the certificate as one definition with the same parameters."""
    r = check_implication(name, name, None, a_params=params, b_params=params)
    assert r.verdict == "proved" and r.method == "same-level" and r.tight is None and r.upper_f is not None
    (cert,) = certificates_in(r.details)
    assert cert["tightness"] is None and check_certificate(cert).ok
    other = copy.deepcopy(cert)
    other["B"]["definition"] = "distinct-l-diversity" if name != "k-anonymity" else "alpha-k-anonymity"
    assert not check_certificate(other, ns=range(2, 4)).ok


def test_one_ratio_definition_is_tight():
    r = check_implication("dp", "dp", None)
    assert r.verdict == "proved" and r.method == "same-level" and r.tightness == "tight"


def test_same_distance_with_classes_of_two():
    """Classes of >= 2 records at N = 5: no class is farther than (5 - 2)/5 = 3/5 from the table (by hand:
    x - P <= (N - e) x/N with e >= 2), so the exact values level off at 3/5."""
    d = check_direction("emd-t-closeness(ground=equal, k=2)", "hierarchical-emd-t-closeness(ground=equal, k=2)",
                        N=5, n_min=5, prover=False)
    for level, v in d.instances[-1].samples:
        assert F(v) == min(F(level), F(3, 5)), (level, v)
    two = {"min_size": sympy.Integer(2)}
    r = check_implication("emd-t-closeness", "hierarchical-emd-t-closeness", None, a_params=EQUAL, b_params=EQUAL,
                          a_classes=two, b_classes=two)
    assert r.verdict == "proved" and r.method == "same-distance" and str(r.tight) == "Min(t, (N - 2)/N)"
    (cert,) = certificates_in(r.details)
    assert check_certificate(cert).ok


def test_same_distance_only_for_the_total_variation():
    """The lemma's bound (N - s)/N and its identity are the total variation distance's: two unnamed sides
    declaring another distance get no certificate accepted, whatever the tightness flag says."""
    r = check_implication("emd-t-closeness", "hierarchical-emd-t-closeness", None, a_params=EQUAL, b_params=EQUAL)
    (cert,) = certificates_in(r.details)
    other = copy.deepcopy(cert)
    for side in ("A", "B"):
        other[side]["distance"] = "kl"
        other[side].pop("definition", None)
        other[side].pop("params", None)
    other["tight"], other["tightness"] = False, None
    rep = check_certificate(other, ns=range(2, 4))
    assert not rep.ok and any("total variation" in w for w, _, _ in rep.failures())


# --- one-sided-distance: A a one-sided class level (basic beta-likeness), B the total variation distance ------

def _one_sided_tv(n, beta, s=1):
    """By hand: x <= (1 + beta) P, the other classes at most (1 + beta) times the table on the complement,
    x <= 1 and the others' mass >= 0 cut x - P at (N - s) beta/N, beta/(1 + beta) and (N - s)/N."""
    return min(F(n - s, n) * beta, beta / (1 + beta), F(n - s, n))


@pytest.mark.parametrize("beta, rows, want", [
    (F(1, 4), [[F(15, 16), F(1, 16)]] + [[F(11, 16), F(5, 16)]] * 3, F(3, 16)),
    (F(1), [[F(1), F(0)]] + [[F(1, 3), F(2, 3)]] * 3, F(1, 2)),
    (F(4), [[F(1), F(0)]] + [[F(0), F(1)]] * 3, F(3, 4))])
def test_one_sided_distance_tables_by_hand(beta, rows, want):
    """N = 4, one record alone: at beta = 1/4 its mass 15/16 is (5/4)(3/4) and the others' complement 5/16 is
    (5/4)(1/4); at beta = 1 it holds all of bucket 1 against 1/2; at beta = 4, all against 1/4 (ratio 4, so
    beta 3 <= 4): each attains the bound."""
    classes = ["E1", "E2", "E2", "E2"]
    assert brute.basic_beta_likeness(rows, classes) <= beta
    assert brute.emd_t(rows, classes, "equal") == want == _one_sided_tv(4, beta)


@pytest.mark.parametrize("n", [3, 4])
@pytest.mark.parametrize("b", ["emd-t-closeness", "hierarchical-emd-t-closeness"])
def test_one_sided_distance_equals_the_linear_programs(b, n):
    d = check_direction("basic-beta-likeness", f"{b}(ground=equal)", N=n, n_min=n, prover=False)
    samples = d.instances[-1].samples
    assert len(samples) >= 6
    for level, v in samples:
        assert F(v) == _one_sided_tv(n, F(level) - 1), (n, level, v)     # raw level 1 + beta
    r = check_implication("basic-beta-likeness", b, None, b_params=EQUAL)
    assert r.verdict == "proved" and r.method == "one-sided-distance" and r.tightness == "tight"


def test_one_sided_distance_certificate_and_corruptions():
    r = check_implication("basic-beta-likeness", "emd-t-closeness", None, b_params=EQUAL)
    (cert,) = certificates_in(r.details)
    assert check_certificate(cert).ok
    assert not check_certificate(_corrupted(cert, "spread", "e - s >= 0", "T"), ns=range(2, 4)).ok
    _lowered_rejected(cert, "Min((N - 1)*(T - 1)/N, (T - 1)/T, (N - 2)/N)", range(2, 5))
    _lowered_rejected(cert, "Min((N - 1)*(T - 1)/N, (T - 1)/(T + 1))", range(2, 5))
    _ordered_ground_rejected(cert)
    one = copy.deepcopy(cert)           # a component alone is an upper bound too (no tightness claimed)
    one["upper"], one["tight"], one["tightness"] = "(T - 1)/T", False, None
    assert check_certificate(one, ns=range(2, 4)).ok
