"""Pointwise maximal leakage (pml: the largest x_i(l)/P(l), one record against the table) against the two-sided subset
levels, as A or B.

Values by hand. A two-sided subset level of size j at ratio t (dp: j = N - 1; kdp(k): j = N - k; kt-closeness(k):
j = k) bounds the largest value M of a bucket of mean 1: the other N - 1 values have mean >= the j smallest's >= 1/t,
so M <= N - (N - 1)/t; and the j largest, M and j - 1 others of mean H >= (N - M)/(N - 1), have mean <= t, so
(N - j) M <= j t (N - 1) - (j - 1) N. One record at M and the other N - 1 equal attain the smaller (on a bucket of
small mass, the other bucket near 1 everywhere). Checked against tests/brute.py (``subset_upper(rows, 1)`` is pml's
ratio).
"""

import copy
import random
from fractions import Fraction

import pytest
import sympy

import brute
from implgraph.certify import certificates_in, check_certificate
from implgraph.engines.checkedge import check_edge
from implgraph.engines.prove import check_implication

N = sympy.Symbol("N", integer=True)
EPS = sympy.Symbol("eps", positive=True)
t = sympy.Symbol("t", positive=True)


def _at(expr, **values):
    return expr.subs({x: values[x.name] for x in expr.free_symbols})


def _f(r, level="eps"):
    return sympy.sympify(str(r.tight), locals={"N": N, level: {"eps": EPS, "t": t}.get(level, sympy.Symbol(level))})


def test_dp_bounds_pml_tightly_by_hand():
    """dp at eps = log 2, N = 4: M <= 4 - 3/2 = 5/2 (the second component, (3*2*3 - 2*4)/1 = 10, is larger): pml's
    level is log(5/2), attained by one record at 5/2 c and three at c/2 (c = 1/10: rows (1/4, 3/4), (1/20, 19/20)):
    removing a low record leaves (1/4 + 1/10)/3 = 7/60 against the mean 1/10 (ratio 7/6), removing the high one
    1/20 (ratio 2)."""
    rows = [[Fraction(1, 4), Fraction(3, 4)]] + [[Fraction(1, 20), Fraction(19, 20)]] * 3
    assert brute.dp(rows) == 2 and brute.subset_upper(rows, 1) == Fraction(5, 2)
    r = check_implication("dp", "pml")
    assert r.verdict == "proved" and r.method == "subset-to-one-sided" and r.tightness == "tight"
    assert sympy.simplify(_at(_f(r), N=4, eps=sympy.log(2)) - sympy.log(Fraction(5, 2))) == 0
    assert sympy.simplify(_f(r) - sympy.log(N - (N - 1) * sympy.exp(-EPS))) == 0
    cert = certificates_in(r.details)[0]
    assert check_certificate(cert).ok
    bad = copy.deepcopy(cert)
    bad["upper"] = "N - N/T"                      # below the attained 5/2 at N = 4, T = 2
    assert not check_certificate(bad).ok
    bad = copy.deepcopy(cert)
    bad["B"]["size"] = "2"                        # a subset of 2 records is no single value: not this lemma's B
    assert not check_certificate(bad).ok


def test_kdp_bounds_pml_with_the_j_largest_component_at_n_3():
    """kdp(k=2) at N = 3 is j = 1 (one record against the table, two-sided): the second component is
    (1*t*2 - 0)/2 = t, the first 3 - 2/t >= t only for t <= 2: at t = 3/2 U = 3/2 (pml = the A ratio itself),
    at t = 4, U = Min(4, 5/2) = 5/2."""
    r = check_implication("kdp", "pml", a_params={"k": 2})
    assert r.verdict == "proved" and r.tightness == "tight"
    f = _f(r)
    assert sympy.simplify(_at(f, N=3, eps=sympy.log(Fraction(3, 2))) - sympy.log(Fraction(3, 2))) == 0
    assert sympy.simplify(_at(f, N=3, eps=sympy.log(4)) - sympy.log(Fraction(5, 2))) == 0
    # N = 4 (j = 2): 4 - 3/t, as the matrix's bounded search found
    assert sympy.simplify(_at(f, N=4, eps=sympy.log(2)) - sympy.log(Fraction(5, 2))) == 0
    assert all(check_certificate(c).ok for c in certificates_in(r.details))


def test_kt_closeness_bounds_pml_tightly():
    """kt-closeness(k=2), N = 10, t = 2 (as for basic beta-likeness, by hand): nine values y with 2 y >= 1 and
    M + y <= 4, M + 9 y = 10: y = 3/4, M = 13/4; the table built from it has these levels by the brute force."""
    r = check_implication("kt-closeness", "pml", a_params={"k": 2})
    assert r.verdict == "proved" and r.tightness == "tight"
    assert sympy.simplify(_at(_f(r, "t"), N=10, t=2) - sympy.log(Fraction(13, 4))) == 0
    c = Fraction(1, 80)
    rows = [[Fraction(13, 4) * c, 1 - Fraction(13, 4) * c]] + [[Fraction(3, 4) * c, 1 - Fraction(3, 4) * c]] * 9
    assert brute.kt(rows, 2) == 2 and brute.subset_upper(rows, 1) == Fraction(13, 4)
    assert all(check_certificate(c).ok for c in certificates_in(r.details))


@pytest.mark.parametrize("seed", range(2))
def test_subset_levels_bound_pml_on_random_tables(seed):
    """pml's ratio (brute force) <= the prover's f at the dp level and at the kt-closeness(k=2) level (brute force)
    on random tables, and <= Min(N - (N - 1)/T, (j T (N - 1) - (j - 1) N)/(N - j)) for every j = 1..N - 1."""
    rng = random.Random(seed)
    f_dp = sympy.exp(_f(check_implication("dp", "pml")))
    f_kt = sympy.exp(_f(check_implication("kt-closeness", "pml", a_params={"k": 2}), "t"))
    tested = 0
    for _ in range(40):
        n = rng.randint(3, 6)
        rows = brute.random_rows(rng, n, rng.randint(2, 3), high=5)
        pml = brute.subset_upper(rows, 1)
        for level, f in ((brute.dp(rows), f_dp), (brute.kt(rows, 2), f_kt)):
            if level != brute.INF:
                bound = _at(f, N=n, eps=sympy.log(level), t=level)
                assert sympy.Rational(pml.numerator, pml.denominator) <= sympy.nsimplify(sympy.simplify(bound))
                tested += 1
        for j in range(1, n):
            T = brute.kt(rows, j)
            if T != brute.INF:
                assert pml <= min(n - (n - 1) / T, (j * T * (n - 1) - (j - 1) * n) / (n - j))
    assert tested >= 30


def test_pml_bounds_basic_beta_likeness_tightly():
    """pml at ratio t bounds every record's value by t P, so every class mean: beta + 1 <= Min(t, N) (N: a record holds
    at most the bucket's mass). N = 4, t = 2: one record at 2/10 in a class of its own and three at 2/30 (the rest of
    the mass, mean 1/10): pml 2, beta 1; t = 9 >= N = 4: one record at 1/10, the others at 0 in the first bucket:
    beta 3."""
    rows = [[Fraction(2, 10), Fraction(8, 10)]] + [[Fraction(2, 30), Fraction(28, 30)]] * 3
    classes = ["E1", "E2", "E2", "E2"]
    assert brute.subset_upper(rows, 1) == 2 and brute.basic_beta_likeness(rows, classes) == 1
    r = check_implication("pml", "basic-beta-likeness")
    assert r.verdict == "proved" and r.method == "subset-to-one-sided" and r.tightness == "tight"
    f = _f(r)
    assert sympy.simplify(f - (sympy.Min(N, sympy.exp(EPS)) - 1)) == 0
    assert _at(f, N=4, eps=sympy.log(2)) == 1 and _at(f, N=4, eps=sympy.log(9)) == 3
    cert = certificates_in(r.details)[0]
    assert check_certificate(cert).ok
    bad = copy.deepcopy(cert)
    bad["upper"] = "Min(N, N - (N - 1)/T)"        # the two-sided first component: pml bounds no value from below
    assert not check_certificate(bad).ok
    bad = copy.deepcopy(cert)
    bad["A"]["sides"] = "two-sided"               # pml is registered one-sided
    assert not check_certificate(bad).ok
    rng = random.Random(7)
    for _ in range(40):
        n = rng.randint(2, 5)
        rows = brute.random_rows(rng, n, 3, high=4)
        classes = brute.random_labels(rng, n)
        t = brute.subset_upper(rows, 1)
        assert 1 + brute.basic_beta_likeness(rows, classes) <= min(t, n)


@pytest.mark.parametrize("b", ["kl-closeness", "renyi-closeness"])
def test_pml_bounds_class_divergences_by_log_t(b):
    """Every record has x_i(l) <= t P(l) at pml ratio t, so every class mean has ratios in [0, t] to the table: KL and
    Renyi-2 of a class are at most log t (the log of the largest ratio). At N = 4, t = 2 it is reached: one record
    (1, 0) in a class of its own and three (1/3, 2/3): P = (1/2, 1/2), pml 2, the lone class's KL and Renyi-2 log 2.
    Tight where N/(N - 1) <= t <= N (below N/(N - 1) no class reaches it): there the middle piece of the supremum,
    which is tight for every N piece by piece in T (tests/test_chord_one_record.py)."""
    params = {"alpha": 2} if b == "renyi-closeness" else {}
    r = check_implication("pml", b, b_params=params)
    assert r.verdict == "proved" and r.method == "chord" and r.tightness == "tight"
    assert not r.details.get("attained_where") and isinstance(r.tight, sympy.Piecewise)
    middle = r.tight.args[1]
    assert sympy.simplify(middle.expr.subs({s: {"eps": EPS, "N": N}[s.name] for s in middle.expr.free_symbols})
                          - EPS) == 0
    assert all(check_certificate(c).ok for c in certificates_in(r.details))
    rows = [[Fraction(1), Fraction(0)]] + [[Fraction(1, 3), Fraction(2, 3)]] * 3
    classes = ["E1", "E2", "E2", "E2"]
    assert brute.subset_upper(rows, 1) == 2 and brute.renyi_level_sum(rows, 2, "class", classes) == 2
    assert abs(brute.kl_level_float(rows, "class", classes) - float(sympy.log(2))) < 1e-12
    rng = random.Random(3)
    for _ in range(40):
        n = rng.randint(2, 5)
        rows = brute.random_rows(rng, n, 3, high=4)
        classes = brute.random_labels(rng, n)
        t = brute.subset_upper(rows, 1)
        assert brute.renyi_level_sum(rows, 2, "class", classes) <= t
        assert brute.kl_level_float(rows, "class", classes) <= float(sympy.log(t)) + 1e-12


# --- p-sensitive k-anonymity: at p >= 1 every class has >= k records -----------------------------------------------

def _p_sensitive(rows, classes, k):
    """p-sensitive k-anonymity's level (Truta and Vinay), literally: 0 where a class has fewer than k records, else the
    fewest values with positive mass in a class."""
    groups = brute.groups(classes)
    if min(len(g) for g in groups) < k:
        return 0
    return min(sum(1 for l in range(len(rows[0])) if brute.mean(rows, g, l) > 0) for g in groups)


@pytest.mark.parametrize("b", ["basic-beta-likeness", "kl-closeness", "renyi-closeness"])
def test_p_sensitive_bounds_class_levels_by_its_class_size(b):
    """At p >= 1 every class has >= k = 2 records, so a class holds at most the table's mass over >= 2 records: its
    ratio to the table is <= N/2, beta <= N/2 - 1, KL and Renyi-2 <= log(N/2). At p = 0 (a class of one record) beta
    reaches N - 1: the bound is for p >= 1 (the condition's T >= 1). Reached at N = 4 and p = 2 by two classes of two
    records over buckets of their own (beta 1, KL = Renyi-2 = log 2)."""
    params = {"alpha": 2} if b == "renyi-closeness" else {}
    r = check_implication("p-sensitive-k-anonymity", b, a_params={"k": 2}, b_params=params)
    # (tight where N >= 4, two classes of >= 2 records over ceiling(p) values each; on N < 4 records too: one class,
    # the table, beta and the divergences 0)
    assert r.verdict == "proved" and r.tightness == "tight"
    f = sympy.sympify(r.details.get("proved_f") or str(r.tight), locals={"N": N})
    want = sympy.Piecewise((0, N < 4), (N / 2 - 1 if b == "basic-beta-likeness" else sympy.log(N / 2), True))
    assert all(sympy.simplify(sympy.expand_log(f.subs(N, n) - want.subs(N, n), force=True)) == 0
               for n in (2, 3, 4, 5, 9))
    certs = certificates_in(r.details)
    assert certs and all(check_certificate(c).ok for c in certs)
    cert = certs[0]
    bad = copy.deepcopy(cert)
    bad["domain"] = [c for c in bad["domain"] if c not in ("T >= 1", "T > 0")]      # p = 0 allowed: no floor
    assert not check_certificate(bad).ok
    bad = copy.deepcopy(cert)
    bad["A"]["definition"] = "distinct-l-diversity"        # declares no class size
    assert not check_certificate(bad).ok
    half = Fraction(1, 2)
    rows = [[half, half, 0, 0]] * 2 + [[0, 0, half, half]] * 2
    classes = ["E1", "E1", "E2", "E2"]
    assert _p_sensitive(rows, classes, 2) == 2 and brute.basic_beta_likeness(rows, classes) == 1
    assert brute.renyi_level_sum(rows, 2, "class", classes) == 2
    rows = [[Fraction(1), Fraction(0)]] + [[Fraction(0), Fraction(1)]] * 3     # p = 0: a class of one record
    assert _p_sensitive(rows, ["E1", "E2", "E2", "E2"], 2) == 0
    assert brute.basic_beta_likeness(rows, ["E1", "E2", "E2", "E2"]) == 3
    rng = random.Random(11)
    tested = 0
    for _ in range(80):
        n = rng.randint(2, 6)
        rows = brute.random_rows(rng, n, 3, high=4)
        classes = brute.random_labels(rng, n, classes=2)
        if _p_sensitive(rows, classes, 2) < 1:
            continue
        assert 1 + brute.basic_beta_likeness(rows, classes) <= Fraction(n, 2)
        assert brute.renyi_level_sum(rows, 2, "class", classes) <= Fraction(n, 2)
        assert brute.kl_level_float(rows, "class", classes) <= float(sympy.log(Fraction(n, 2))) + 1e-12
        tested += 1
    assert tested >= 10


# --- pml's ceiling log N under class definitions: whatever the partition, one class included -------------------------

@pytest.mark.parametrize("a", ["alpha-k-anonymity(k=2)", "recursive-cl-diversity(l=2)"])
def test_pml_ceiling_covers_one_class_tables(a):
    """A record's value is at most the bucket's mass, whatever the classes: pml <= log N on every table, a table of one
    class too; and a record holding buckets no other record holds reaches it under a class level that spreading over
    more buckets keeps strong. By hand, one class of N = 4 records: record 1 at (1/2, 1/2, 0, 0), the others at
    (0, 0, 1/2, 1/2): P = (1/8, 1/8, 3/8, 3/8), pml 4 = N, (alpha, 2)-anonymity alpha = 3/8, recursive (c, 2)-diversity
    c = max(1, (3/8)/(5/8)) = 1, its strongest. So A => pml is proved for every N over every partition (one class
    included), tight log N: pml's own ceiling, a vacuous implication (no edge)."""
    half = Fraction(1, 2)
    rows = [[half, half, 0, 0]] + [[0, 0, half, half]] * 3
    one = ["E1"] * 4
    assert brute.subset_upper(rows, 1) == 4
    assert brute.alpha_k(rows, one, 2) == Fraction(3, 8) and brute.recursive_cl(rows, one, 2) == 1
    d = check_edge(a, "pml", N=3).forward
    assert d.relation == "implication" and d.verdict == "proved" and d.tight_all_n == "log(N)"
    assert d.vacuous and "own ceiling" in d.vacuous


def test_ldp_bounds_pml_by_the_pairwise_box():
    """ldp at ratio t keeps a bucket's values within [m, t m]: the largest M <= t m and P >= (M + (N - 1) M/t)/N, so pml's
    ratio <= N t/(t + N - 1), i.e. f = log(N e^eps/(N - 1 + e^eps)), reached by one record at t a and N - 1 at a (N = 4,
    t = 2, a = 1/10: pml 8/5). The prover proves this f (through lip and the largest value), tight for every N (that
    family: one record at (t, 1)/(t + 1), N - 1 at (1, t)/(t + 1), pml N t/(t + N - 1))."""
    rows = [[Fraction(2, 10), Fraction(8, 10)]] + [[Fraction(1, 10), Fraction(9, 10)]] * 3
    assert brute.ldp(rows) == 2 and brute.subset_upper(rows, 1) == Fraction(8, 5)
    r = check_implication("ldp", "pml")
    assert r.verdict == "proved"
    f = sympy.sympify(str(r.tight), locals={"N": N, "eps": EPS})
    assert sympy.simplify(sympy.exp(f) - N * sympy.exp(EPS) / (N - 1 + sympy.exp(EPS))) == 0
    assert sympy.simplify(_at(f, N=4, eps=sympy.log(2)) - sympy.log(Fraction(8, 5))) == 0
    assert all(check_certificate(c).ok for c in certificates_in(r.details))
