"""The ``class-to-subset`` argument (docs/proofs/class-to-subset.md): a two-sided class level <= T with
classes of >= s records bounds the record-removal level by (N - 1) T / s, tightly.

Expected values are the theorem's formula, worked by hand, and the independent brute force
(tests/brute.py); none is copied from the engine's output.
"""

import itertools
import random
from fractions import Fraction

import pytest
import sympy

import brute
from implgraph.engines.bounds import T, tight_bound
from implgraph.engines.class_subset import class_to_subset_values
from implgraph.engines.prove import check_implication
from implgraph.engines.prove_claim import read_claim as _claim

LEVELS = [Fraction(1), Fraction(3, 2), Fraction(2), Fraction(7, 3), Fraction(5)]


def _hand_family(N, s, t):
    """The attaining table written from the proof: class E1 of N - s records (one at (N t - s) c, the rest
    at 0), class E2 of s records at c, c = 1/(t (N t + 1)); binary rows."""
    c = 1 / (t * (N * t + 1))
    col = [(N * t - s) * c] + [Fraction(0)] * (N - s - 1) + [c] * s
    return [[x, 1 - x] for x in col], ["E1"] * (N - s) + ["E2"] * s


def _partitions(N, s):
    """Every partition of range(N) into >= 2 classes of >= s records, as one label per record."""
    seen = set()
    for lab in itertools.product(range(N), repeat=N):
        first = {}
        canon = tuple(first.setdefault(x, len(first)) for x in lab)
        if canon in seen:
            continue
        g = brute.groups(canon)
        if len(g) >= 2 and min(map(len, g)) >= s:
            seen.add(canon)
    return sorted(seen)


def _random_rows(rng, N, p, zeros):
    rows = []
    for _ in range(N):
        w = [Fraction(rng.randint(0 if zeros else 1, 7)) for _ in range(p)]
        if not sum(w):
            w[rng.randrange(p)] = Fraction(1)
        rows.append([x / sum(w) for x in w])
    return rows


def test_proved_with_the_tight_f():
    # (the theorem is for partitions into >= 2 classes: the assumption, stated)
    r = check_implication("mult-t-closeness", "dp", "log((N-1)*t)", min_classes=2)
    assert r.verdict == "proved" and r.tightness == "tight" and r.method == "class-to-subset"
    N, t = sympy.Symbol("N", integer=True), sympy.Symbol("t", real=True)
    assert sympy.simplify(sympy.expand_log(r.tight.subs({sympy.Symbol(s.name): s for s in r.tight.free_symbols})
                                           - sympy.log((N - 1) * t), force=True)) == 0
    assert r.details["certificate"]["method"] == "class-to-subset"
    assert r.details["certificate"]["min_classes"] == 2 and "at least 2 classes" in r.evidence


@pytest.mark.parametrize("f", ["log((N-1)*t) - 1/100", "log(t)", "log((N-2)*t + 1)"])
def test_false_f_refuted(f):
    # each is below ln((N - 1) t) at some N >= 2, t >= 1 (N = 2; N = 3; N = 3 with t > 1)
    r = check_implication("mult-t-closeness", "dp", f)
    assert r.verdict == "refuted" and r.tightness == "wrong"


def test_loose_f_proved():
    r = check_implication("mult-t-closeness", "dp", "log(N*t)", min_classes=2)
    assert r.verdict == "proved" and r.tightness == "loose"


def test_min_class_size_and_kdp_one():
    # classes of >= 2 records: (N - 1) t / 2; kdp with k = 1 is record removal
    r = check_implication("mult-t-closeness", "dp", "log((N-1)*t/2)", a_classes={"min_size": 2}, when=["N >= 4"],
                          min_classes=2)
    assert r.verdict == "proved" and r.tightness == "tight"
    r = check_implication("mult-t-closeness", "dp", "log((N-1)*t/2) - 1/100", a_classes={"min_size": 2},
                          when=["N >= 4"])
    assert r.verdict == "refuted"
    r = check_implication("mult-t-closeness", "kdp", "log((N-1)*t)", b_params={"k": "1"}, min_classes=2)
    assert r.verdict == "proved" and r.method == "class-to-subset"


def test_not_applied_outside_its_conditions():
    # B's subset size not N - 1 on the whole condition, or classes of bounded size: another route
    c = _claim("mult-t-closeness", "kdp", None, None, {"k": "k"}, (), None, None, None, None)
    b = tight_bound(c.a, c.b, c.a_params, c.b_params, c.region, c.N)
    assert b is None or b.method != "class-to-subset"
    c = _claim("mult-t-closeness", "dp", None, None, None, (), None, None, None, None)
    b = tight_bound(c.a, c.b, c.a_params, c.b_params, c.region, c.N, a_classes={"min_size": 1, "max_size": 1})
    assert b is None or b.method != "class-to-subset"


@pytest.mark.parametrize("N", range(2, 9))
def test_family_attains_vs_brute(N):
    c = _claim("mult-t-closeness", "dp", None, None, None, (), None, None, None, None)
    for s in range(1, N // 2 + 1):
        bound = tight_bound(c.a, c.b, c.a_params, c.b_params, c.region, c.N, a_classes={"min_size": s})
        assert bound.method == "class-to-subset" and bound.tight
        for t in LEVELS:
            rows, labels = _hand_family(N, s, t)
            assert brute.mult_t(rows, labels) == t
            assert brute.dp(rows) == (N - 1) * t / s
            if N >= 3:
                assert brute.kdp(rows, 1) == (N - 1) * t / s
            # the engine's table is the hand family
            vals, labs = class_to_subset_values(t, N, s)
            assert [r[0] for r in rows] == vals and labs == labels
            ct = bound.build({T: sympy.Rational(t.numerator, t.denominator), c.N: N})
            assert ct.to_rows() == rows and list(ct.classes) == labels
            assert sympy.Rational((N - 1) * t.numerator, s * t.denominator) == \
                bound.upper.subs({T: sympy.Rational(t.numerator, t.denominator), c.N: N})


@pytest.mark.parametrize("p", [2, 3])
def test_bound_holds_on_random_tables(p):
    rng = random.Random(20261126 + p)
    for N in range(2, 8):
        parts = _partitions(N, 1) if N <= 6 else None
        for trial in range(120 if N <= 6 else 40):
            if parts is not None:
                labels = list(rng.choice(parts))
            else:
                cut = rng.randint(1, N - 1)
                labels = [0] * cut + [1] * (N - cut)
            rows = _random_rows(rng, N, p, zeros=trial % 2 == 0)
            t = brute.mult_t(rows, labels)
            if t == brute.INF:
                continue
            s = min(map(len, brute.groups(labels)))
            assert brute.dp(rows) <= (N - 1) * t / s


def test_smaller_subsets_unbounded():
    # the theorem's other half: for j <= N - 2 the supremum is infinite, already at level 1: class E1 of
    # N - 1 records holds its mass on one record (N - 2 zeros), class E2 is one record, both class means m
    for N in range(3, 8):
        m = Fraction(1, 2 * (N - 1))
        col = [(N - 1) * m] + [Fraction(0)] * (N - 2) + [m]
        rows, labels = [[x, 1 - x] for x in col], ["E1"] * (N - 1) + ["E2"]
        assert brute.mult_t(rows, labels) == 1
        for j in range(1, N - 1):
            assert brute.kt(rows, j) == brute.INF
        assert brute.dp(rows) == N - 1      # = (N - 1) T / s at T = 1, s = 1


@pytest.mark.parametrize("s", [1, 2])
def test_certificate_accepted_and_tampering_rejected(s):
    from implgraph.certify import check_certificate
    r = check_implication("mult-t-closeness", "dp", None, a_classes={"min_size": s}, min_classes=2)
    cert = r.details["certificate"]
    rep = check_certificate(cert, ns=range(2, 13))
    assert rep.ok, rep.failures()
    # a smaller U, a wrong family value, a wrong multiplier: each rejected
    bad = dict(cert, upper="T*(N - 2)" if s == 1 else "T*(N - 2)/2")
    assert not check_certificate(bad, ns=range(2, 7)).ok
    fam = [dict(b) for b in cert["tightness"]["blocks"]]
    fam[2]["value"] = "1/(T*(N*T + 2))"
    assert not check_certificate(dict(cert, tightness={"blocks": fam}), ns=range(2, 7)).ok
    mult = {k: dict(v) for k, v in cert["upper_certificate"]["multipliers"].items()}
    mult["lower"]["N - e - s >= 0"] = "2"
    assert not check_certificate(dict(cert, upper_certificate={"lemma": "class-mass", "multipliers": mult}),
                                 ns=range(2, 7)).ok
