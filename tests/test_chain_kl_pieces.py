"""Enhanced beta-likeness (raw level T = 1 + beta) => kl-closeness piece by piece, for every N: the chain through
basic beta-likeness's three chord pieces, each split into 3^ceiling(T) buckets per bucket.

Hand derivation (docs/proofs/chord-small-pieces.md for the pieces). A class of s records has ratio
r = (N - (N - s) r')/s to the table, bucket by bucket, r' the rest's ratio, a union of classes each <= T: so
r >= N - (N - 1) T, and r <= min(T, N). KL = sum P phi(r), phi(r) = r log r convex, sum P r = 1, so KL is at most the
chord of phi over [lo, hi] at 1:

- T < N/(N - 1): [N - (N - 1) T, T], mass (N - 1)/N at T: ((N - 1) T log T + lo log lo)/N, lo = N - (N - 1) T;
  the chord's log T needs ratio 0, which puts the others at N/(N - 1) > T;
- N/(N - 1) <= T <= N: [0, T], log T;
- T > N: [0, N], log N (ratio N only where the others put no mass).

Attaining tables (one record in a class of its own, the N - 1 others in another): ((N - 1) T/N, lo/N) and
((N - T)/N, ...), ratios (T, lo) and ((N - T)/(N - 1), T); (1, 0) and ((N/T - 1)/(N - 1), ...); (1, 0) and (0, 1).
Enhanced beta-likeness also caps an increase q/p - 1 by -ln p: split into m = 3^ceiling(T) equal buckets per bucket,
every p <= 1/m and -ln p >= ceiling(T) ln 3 > T > beta, so its level is basic beta-likeness's. At T > N the split is
needed: unsplit, the lone record's increase N - 1 on a bucket of mass 1/N breaks the cap (N - 1 > ln N).

Every piece is >= 0 (x log x >= x - 1: the low piece's terms sum to (N - 1)(T - 1) + lo - 1 = 0), which the chain needs
for tables of one class (KL 0): the prover signs it by the tangents of log at 1 (implgraph.prover.log_tangents), the
checker by its own copy of that step.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction as F

import pytest
import sympy

import brute
from _forge import edited

from _coq import assert_kernel_checked, check_generated, coq, load_certs

CERTS = load_certs("chain_kl_pieces.json")
LOW, MIDDLE, TOP = (f"enhanced-beta-likeness => kl-closeness, piece {p}"
                    for p in ("T < N/(N - 1)", "N/(N - 1) <= T <= N", "T > N"))
BOUND = "enhanced-beta-likeness => kl-closeness, bound log T on every table"


def supremum(n, t):
    """The hand supremum above at N = n, T = t (floats)."""
    if t < n / (n - 1):
        lo = n - (n - 1) * t
        return ((n - 1) * t * math.log(t) + (lo * math.log(lo) if lo > 0 else 0.0)) / n
    return math.log(t) if t <= n else math.log(n)


def _split(rows, m):
    """Each bucket of each row split into ``m`` equal buckets."""
    return [[v / m for v in row for _ in range(m)] for row in rows]


def _family(n, t):
    """The hand attaining table of the piece holding T = t (two buckets; one record in E1, n - 1 in E2)."""
    if t < F(n, n - 1):
        first, rest = (n - 1) * t / n, (n - t) / n
    elif t <= n:
        first, rest = F(1), (n / t - 1) / (n - 1)
    else:
        first, rest = F(1), F(0)
    return [[first, 1 - first]] + [[rest, 1 - rest]] * (n - 1), ["E1"] + ["E2"] * (n - 1)


@pytest.mark.parametrize("n,t,hand", [
    # (2/3)(5/4) log(5/4) + (1/3)(1/2) log(1/2): the lone record at (5/6, 1/6), the two others at (7/12, 5/12)
    (3, F(5, 4), 5 / 6 * math.log(5 / 4) - math.log(2) / 6),
    # P = (1/2, 1/2), records (3/4, 1/4), (1/4, 3/4): (1/2)(3/2) log(3/2) + (1/2)(1/2) log(1/2)
    (2, F(3, 2), 3 / 4 * math.log(3 / 2) - math.log(2) / 4),
    (3, F(2), math.log(2)), (4, F(3), math.log(3)),       # the middle piece: log T
    (3, F(4), math.log(3)), (2, F(3), math.log(2)),       # beyond N: log N
])
def test_split_family_attains_the_piece(n, t, hand):
    rows, labels = _family(n, t)
    table = _split(rows, 3 ** math.ceil(t))
    assert brute.enhanced_beta_likeness(table, labels) <= t      # A at T (exactly, its cap checked per bucket)
    assert brute.kl_level_float(table, "class", labels) == pytest.approx(hand, abs=1e-12)
    assert supremum(n, float(t)) == pytest.approx(hand, abs=1e-12)


@pytest.mark.parametrize("n,t", [(3, F(4)), (2, F(3))])
def test_beyond_n_the_split_is_needed(n, t):
    rows, labels = _family(n, t)        # (1, 0), (0, 1)^(N - 1): an increase N - 1 > ln N on a bucket of mass 1/N
    assert brute.enhanced_beta_likeness(rows, labels) == brute.INF
    assert brute.basic_beta_likeness(rows, labels) == n - 1


def test_the_pieces_bound_random_tables():
    rng, finite, low = random.Random(51), 0, 0
    for _ in range(400):
        n = rng.randint(2, 5)
        rows, labels = brute.random_rows(rng, n, rng.randint(2, 3), high=rng.choice((2, 4))), brute.random_labels(rng, n)
        t = brute.enhanced_beta_likeness(rows, labels)
        if t == brute.INF:
            continue
        finite += 1
        low += t < F(n, n - 1)
        assert brute.kl_level_float(rows, "class", labels) <= supremum(n, float(t)) + 1e-12
    assert finite > 100 and low > 0


@pytest.fixture(scope="module")
def chained():
    from implgraph.engines.prove import check_implication
    return check_implication("enhanced-beta-likeness", "kl-closeness", max_n=3)


def test_chain_is_tight_piece_by_piece(chained):
    r = chained
    assert r.verdict == "proved" and r.tightness == "tight" and r.method == "chain"
    assert not r.details.get("attained_where")
    names = {s.name: s for s in r.tight.free_symbols}
    for n, beta in ((3, F(1, 4)), (2, F(1, 2)), (4, F(1, 5)), (3, F(1)), (3, F(3)), (2, F(5))):
        got = float(r.tight.subs({names["N"]: n, names["beta"]: sympy.Rational(beta)}))
        assert got == pytest.approx(supremum(n, float(1 + beta)), abs=1e-12)


def test_each_piece_is_checked_and_covers_one_class(chained):
    from implgraph.certify import check_certificate
    certs = chained.details["certificates"]
    assert len(certs) == 3 and all(c["method"] == "chain" and c["tight"] and c["min_classes"] == 1 for c in certs)
    assert sorted(c["parts"][1]["upper_certificate"]["lo"] for c in certs) == ["0", "0", "N - T*(N - 1)"]
    for cert in certs:
        report = check_certificate(cert)
        assert report.ok, [s for s in report.steps if not s[1]]


_LOW_U = CERTS[LOW]["upper"]


def _both(cert, upper):
    return edited(edited(cert, ["upper"], upper), ["parts", 1, "upper"], upper)


#: each a false claim: below the chord's value that the split family attains, or a narrower interval than A allows
CHECKER_FORGERIES = [
    ("low U only", edited(CERTS[LOW], ["upper"], f"({_LOW_U})*9/10")),
    ("low U both", _both(CERTS[LOW], f"({_LOW_U})*9/10")),
    ("low lo", edited(CERTS[LOW], ["parts", 1, "upper_certificate", "lo"], "N - T*(N - 2) - 1")),
    ("low family", edited(CERTS[LOW], ["tightness", "rows", 0, "value"], "(N*T - T + 1)/N")),
    ("top U", _both(CERTS[TOP], "9*log(N)/10")),
]


@pytest.mark.parametrize("name,cert", CHECKER_FORGERIES, ids=[n for n, _ in CHECKER_FORGERIES])
def test_forged_pieces_rejected_by_the_checker(name, cert):
    # by a step of its own (the chain's link, the chord part's lemma, the split family), not only the one-class sign
    from implgraph.certify import check_certificate
    report = check_certificate(cert)
    assert not report.ok and [s for s in report.steps if not s[1] and "one class" not in s[0]]


def test_the_real_pieces_chord_parts_are_checked():
    # the pieces' parts (A => X at U = T, X => B by the chord), as the checker's chain lemma re-checks them; the
    # one-class step of the lowest piece is the checker's sign of U (x log x >= x - 1), where it has one
    from implgraph.certify import check_certificate
    for name in (MIDDLE, TOP, BOUND):
        assert check_certificate(CERTS[name]).ok
    for part in CERTS[LOW]["parts"]:
        assert check_certificate(part).ok


def test_the_lowest_piece_covers_one_class_in_the_checker():
    # the checker signs U >= 0 on its own (log X >= 1 - 1/X where log's factor is >= 0: the terms sum to 0)
    from implgraph.certify import check_certificate
    report = check_certificate(CERTS[LOW])
    assert report.ok, [s for s in report.steps if not s[1]]
    low_by_0_01 = edited(CERTS[LOW], ["upper"], f"{_LOW_U} - 1/100")      # < 0 near T = 1: no table has KL < 0
    assert [s for s in check_certificate(low_by_0_01).steps if not s[1] and "one class" in s[0]]


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name", sorted(CERTS))
def test_real_pieces_check_in_coq(name, library, tmp_path):
    assert_kernel_checked(CERTS[name], library, tmp_path, name)


COQ_FORGERIES = [
    ("low U", _both(CERTS[LOW], f"({_LOW_U})*9/10")),
    ("low lo", edited(CERTS[LOW], ["parts", 1, "upper_certificate", "lo"], "N - T*(N - 2) - 1")),
    ("top U", _both(CERTS[TOP], "9*log(N)/10")),
]


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name,cert", COQ_FORGERIES, ids=[n for n, _ in COQ_FORGERIES])
def test_forged_pieces_fail_in_coq(name, cert, library, tmp_path):
    assert not check_generated(cert, library, tmp_path, name)["ok"]
