"""(eps,delta)-LDP and (eps,delta)-DP => EMD t-closeness and hierarchical EMD (the equal ground distance: a class's
total variation distance from the table), tight for every N, for any slack delta in [0, 1).

By hand, with T = e^eps and S the buckets where a class lies above the table:

- LDP (two records, every event): X <= T Y + delta on S and 1 - Y <= T (1 - X) + delta on its complement (X, Y the
  means on S of the class's records and of the others), whose sum is
  (T + 1)(X - Y) <= T - 1 + 2 delta, and the class's distance is (N - e)(X - Y)/N <= (N - 1)(T - 1 + 2 delta)/(N (T + 1)).
  One record at (T + delta)/(T + 1) in a class of its own and N - 1 at (1 - delta)/(T + 1) reach it: at N = 4,
  delta = 1/10, T = 2 the distance is 3/4 (2.1/3 - 0.9/3) = 3/10.
- DP (the table and the table without one record, both ways): for the record of largest mass M on S and the
  table's P, P <= T (N P - M)/(N - 1) + delta and (N (1 - P) - (1 - M))/(N - 1) <= T (1 - P) + delta, with M <= 1 and
  the others' mass N P - M >= 0: U = Min((N - 1)(T - 1 + delta)/(N T - N + 1), (N - 1)(T - 1 + 2 delta)/(T + 1),
  (N - 1)/N). At N = 4, delta = 1/10 it is 3 (T - 9/10)/(4 T - 3) (the binary tight value the bounded check finds at
  N = 4), e.g. 3 (11/10)/5 = 33/50 at T = 2. With delta = 0 it is eps-DP's f. At N = 2 (removing a record leaves the
  other) the two constraints give U = Min((T - 1 + 2 delta)/(2 T), 1/2).
"""

import copy
import random
from fractions import Fraction

import pytest
import sympy

import brute
from implgraph.certify import certificates_in, check_certificate
from implgraph.engines.prove import check_implication

N = sympy.Symbol("N", integer=True)
EPS = sympy.Symbol("eps")
B_DEFS = ["emd-t-closeness", "hierarchical-emd-t-closeness"]
DELTAS = [Fraction(1, 10), Fraction(1, 4), Fraction(1, 2)]
LEVELS = [Fraction(1), Fraction(5, 4), Fraction(2), Fraction(7, 2)]


def ldp_u(n, t, d):
    return Fraction(n - 1, n) * (t - 1 + 2 * d) / (t + 1)


def dp_u(n, t, d):
    if n == 2:
        return min((t - 1 + 2 * d) / (2 * t), Fraction(1, 2))
    return min((n - 1) * (t - 1 + d) / (n * t - n + 1), (n - 1) * (t - 1 + 2 * d) / (t + 1), Fraction(n - 1, n))


def _row(x):
    return [x, 1 - x]


def dp_family(n, t, d):
    if n == 2:
        D = min(Fraction(1), (t - 1 + 2 * d) / t)
        return [_row((1 + D) / 2), _row((1 - D) / 2)]
    x = min(Fraction(1), (n * t - n + 1) * (1 - d) / (t + 1) + n * d)
    z = max(Fraction(0), (x - n * d) / (n * t - n + 1))
    return [_row(x)] + [_row(z)] * (n - 1)


def test_by_hand_values():
    assert ldp_u(4, Fraction(2), Fraction(1, 10)) == Fraction(3, 10)
    assert dp_u(4, Fraction(2), Fraction(1, 10)) == Fraction(33, 50)
    rows = [_row(Fraction(7, 10))] + [_row(Fraction(3, 10))] * 3       # (2 + 1/10)/3 and (1 - 1/10)/3
    assert brute.eps_delta_ldp(rows, Fraction(1, 10)) == 2
    assert brute.emd_t(rows, ["E1", "E2", "E2", "E2"]) == Fraction(3, 10)


@pytest.mark.parametrize("n", range(2, 13))
def test_the_families_attain_u_by_brute_force(n):
    labels = ["E1"] + ["E2"] * (n - 1)
    for d in DELTAS:
        for t in LEVELS:
            rows = [_row((t + d) / (t + 1))] + [_row((1 - d) / (t + 1))] * (n - 1)
            assert brute.eps_delta_ldp(rows, d) <= t
            assert brute.emd_t(rows, labels) == ldp_u(n, t, d)
            rows = dp_family(n, t, d)
            assert brute.eps_delta_dp(rows, d) <= t
            assert brute.emd_t(rows, labels) == dp_u(n, t, d)


@pytest.mark.parametrize("seed", range(4))
def test_random_tables_respect_u(seed):
    # every table's distance is at most U at its own level (any number of buckets, any partition)
    rng = random.Random(seed)
    for _ in range(25):
        n, m = rng.randint(2, 5), rng.randint(2, 3)
        rows, labels = brute.random_rows(rng, n, m), brute.random_labels(rng, n)
        d = rng.choice(DELTAS)
        dist = brute.emd_t(rows, labels)
        t = brute.eps_delta_ldp(rows, d)
        if t != brute.INF:
            assert dist <= ldp_u(n, t, d), (rows, labels, d)
        t = brute.eps_delta_dp(rows, d)
        if t != brute.INF:
            assert dist <= dp_u(n, t, d), (rows, labels, d)


def _f(r):
    return sympy.sympify(str(r.tight), locals={"N": N, "eps": EPS})


@pytest.mark.parametrize("b", B_DEFS)
@pytest.mark.parametrize("a, u", [("eps-delta-ldp", ldp_u), ("eps-delta-dp", dp_u)])
def test_prover_tight_f_and_certificates(a, u, b):
    r = check_implication(a, b, a_params={"delta": "1/10"}, b_params={"ground": "equal"})
    assert r.verdict == "proved" and r.tightness == "tight"
    f = _f(r)
    for n in range(2, 13):
        for t in (Fraction(1), Fraction(2), Fraction(5)):
            want = u(n, t, Fraction(1, 10))
            got = f.subs({N: n, EPS: sympy.log(sympy.Rational(t.numerator, t.denominator))})
            assert sympy.simplify(got - sympy.Rational(want.numerator, want.denominator)) == 0, (n, t)
    certs = certificates_in(r.details)
    assert len(certs) == (1 if a == "eps-delta-ldp" else 3)     # DP: the upper bound, and one per piece
    for c in certs:
        assert check_certificate(c).ok


def _forged(cert, change):
    c = copy.deepcopy(cert)
    change(c)
    return check_certificate(c, ns=range(2, 7)).ok


def test_forgeries_are_rejected():
    r = check_implication("eps-delta-dp", "emd-t-closeness", a_params={"delta": "1/10"}, b_params={"ground": "equal"})
    cert = next(c for c in certificates_in(r.details) if c["method"] == "slack-removal-distance" and c["tight"])
    assert check_certificate(cert, ns=range(2, 7)).ok
    near = cert["upper_certificate"]["multipliers"]["near"]
    key = next(iter(near))
    assert not _forged(cert, lambda c: c["upper_certificate"]["multipliers"]["near"].update({key: "2"}))
    # another delta than A's parameter: not A as registered
    assert not _forged(cert, lambda c: c["A"]["slack"].update(delta="1/5"))
    # a smaller U than the family reaches
    assert not _forged(cert, lambda c: c.update(upper="(N - 1)*(T - 1)/(T + 1)"))
    # the family at N = 2, where it breaks A
    assert not _forged(cert, lambda c: c.update(domain=[x for x in c["domain"] if x != "N >= 3"]))
    # (review) ... or moved into the family's own domain, which only the registry's conditions may fill
    assert not _forged(cert, lambda c: (c.update(domain=[x for x in c["domain"] if x != "N >= 3"]),
                                        c["tightness"].update(domain=["N >= 3"])))
    r = check_implication("eps-delta-ldp", "emd-t-closeness", a_params={"delta": "1/10"}, b_params={"ground": "equal"})
    (c,) = certificates_in(r.details)
    assert not _forged(c, lambda x: x["upper_certificate"]["multipliers"]["pairs"].update({"e - s >= 0": "T - 1"}))
    assert not _forged(c, lambda x: x["tightness"]["blocks"][0].update(value="(T + 1/5)/(T + 1)"))
