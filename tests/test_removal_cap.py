"""``removal-cap``: every table of N >= 1/delta records is at the central (eps, delta)-DP's strongest level.

The fact, by hand: the table's mean P and the table without record i, Q_i, satisfy P(E) - Q_i(E) = (x_i(E) -
Q_i(E))/N, so |P(E) - Q_i(E)| <= 1/N; at delta = 1/10 every table of N >= 10 records meets both constraints at
e^eps = 1, while at N = 9 one record (1, 0) beside eight (0, 1) has P(E_1) = 1/9 > Q_i(E_1) + 1/10 = 1/10 when the
record (1, 0) is removed (Q_i(E_1) = 0): no finite eps. These are checked against tests/brute.py. The prover's bound
(dp => eps-delta-dp(1/10): U = Piecewise((1, N >= 10), (T, True))) is read at points where its value is known by hand,
its certificate is re-checked by the checker and forged ones (an n0 below 1/delta, U cut at another N, the part on a
wider condition) are rejected; the Coq theorems check (slow, with Debian's coq) and a forged n0 fails in coqc.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
import sympy

import brute
from _coq import assert_kernel_checked, check_generated, coq, load_certs
from _forge import edited

from implgraph.certify import check_certificate
from implgraph.core.region import Region
from implgraph.definitions import get
from implgraph.definitions.capability_strongest import StrongestFrom, strongest_from
from implgraph.kernel_coq.registry import generate
from implgraph.prover.answer import T
from implgraph.prover.search import tight_bound

CERTS = load_certs("removal_cap.json")
N = sympy.Symbol("N", integer=True, positive=True)
DELTA = Fraction(1, 10)


def _random_table(rng, n, m=3):
    rows = []
    for _ in range(n):
        w = [rng.randint(0, 5) for _ in range(m)]
        w[rng.randrange(m)] += 1
        rows.append([Fraction(v, sum(w)) for v in w])
    return rows


def test_the_declaration_is_one_over_delta():
    d = get("eps-delta-dp")
    assert strongest_from(d, {"delta": "1/10"}) == 10
    assert strongest_from(d, {"delta": "1/4"}) == 4
    assert strongest_from(d, {"delta": 0}) is None      # delta = 0: eps-DP, no such N
    assert get("eps-delta-ldp").declared(StrongestFrom) is None      # between records: no 1/N


def test_every_table_of_ten_records_is_at_eps_zero_by_brute_force():
    rng = random.Random(51)
    for _ in range(12):
        rows = _random_table(rng, 10)
        assert brute.eps_delta_dp(rows, DELTA) == 1
    extreme = [[Fraction(1), Fraction(0)]] + [[Fraction(0), Fraction(1)]] * 9
    assert brute.eps_delta_dp(extreme, DELTA) == 1      # |P - Q_i| = 1/10 = delta exactly


def test_nine_records_can_be_at_no_finite_eps():
    rows = [[Fraction(1), Fraction(0)]] + [[Fraction(0), Fraction(1)]] * 8
    assert brute.eps_delta_dp(rows, DELTA) == brute.INF


def _dp_bound():
    region = Region({T: "real", N: "integer"}, (T >= 1, N >= 2))
    return tight_bound("dp", "eps-delta-dp", {}, {"delta": sympy.Rational(1, 10)}, region, N)


def test_dp_bound_is_one_from_ten_records_and_t_below():
    b = _dp_bound()
    assert b.method == "removal-cap" and not b.tight
    # N >= 10: raw 1 (eps = 0) whatever T; N < 10: the ratio bound T (slack-target-removal: x <= T y <= T y + delta)
    assert b.upper.subs({N: 10, T: 3}) == 1 and b.upper.subs({N: 25, T: 7}) == 1
    assert b.upper.subs({N: 9, T: 3}) == 3
    assert "every table of N >= 10 records meets eps-delta-dp at level 0" in b.argument


@pytest.mark.parametrize("name", sorted(CERTS))
def test_the_certificates_are_accepted(name):
    assert check_certificate(CERTS[name]).ok


def _failures(cert):
    rep = check_certificate(cert)
    assert not rep.ok
    return " ".join(w for w, _, _ in rep.failures())


@pytest.mark.parametrize("name", sorted(CERTS))
def test_forged_certificates_are_rejected(name):
    cert = CERTS[name]
    # n0 = 5: 5 * 1/10 < 1, and at N = 5..9 a table has no finite eps (one record (1, 0), the rest (0, 1))
    low = edited(cert, ["upper_certificate", "least_records"], "5")
    low["upper"] = low["upper"].replace("N >= 10", "N >= 5")
    low["parts"][0]["domain"] = [c.replace("N < 10", "N < 5") for c in low["parts"][0]["domain"]]
    assert "n0 delta >= 1" in _failures(low)
    # U's cap at N >= 9 is not n0's
    assert "U = Piecewise" in _failures(edited(cert, ["upper"], cert["upper"].replace("N >= 10", "N >= 9")))
    # the part on N < 12 claims more than the certificate's split
    wide = edited(cert, ["parts", 0, "domain"],
                  [c for c in cert["parts"][0]["domain"] if c != "N < 10"] + ["N < 12"])
    assert "N < 10" in _failures(wide)
    # another delta: 1/20 * 10 < 1
    other = edited(cert, ["B", "slack", "delta"], "1/20")
    assert not check_certificate(other).ok


def test_the_coq_theorem_is_the_cap_and_the_part():
    text = generate(CERTS["dp => eps-delta-dp(delta=1/10)"])
    assert "apply (bp_removal_tv N K x ((1 / 10)))" in text
    assert "(INR N) >= 10 ->" in text and "(INR N) < 10 ->" in text
    assert "split; [exact certificate_cap | exact certificate_part1]." in text


@pytest.mark.parametrize("name", sorted(CERTS))
def test_a_u_edited_alone_has_no_theorem(name):
    # U cut at N >= 9 (n0 and the part left): no theorem states it (the cap's n0 and the part's U are what Coq proves)
    from implgraph.kernel_coq.registry import Untranslatable
    cert = CERTS[name]
    with pytest.raises(Untranslatable, match="removal-cap U"):
        generate(edited(cert, ["upper"], cert["upper"].replace("N >= 10", "N >= 9")))


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name", sorted(CERTS))
def test_real_removal_cap_certificates_check(name, library, tmp_path):
    assert_kernel_checked(CERTS[name], library, tmp_path, name)


@pytest.mark.slow
@coq
def test_forged_least_records_fails_in_coq(library, tmp_path):
    cert = CERTS["dp => eps-delta-dp(delta=1/10)"]
    low = edited(cert, ["upper_certificate", "least_records"], "5")
    low["upper"] = low["upper"].replace("N >= 10", "N >= 5")
    low["parts"][0]["domain"] = [c.replace("N < 10", "N < 5") for c in low["parts"][0]["domain"]]
    # 1 <= N/10 does not follow from N >= 5: bp_removal_tv's premise is unproved
    assert not check_generated(low, library, tmp_path, "forged n0")["ok"]


def test_eps_delta_dp_as_a_gives_b_its_weakest_level_from_ten_records():
    # every table of N >= 10 records meets A at eps = 0, so f(0) there is B's weakest level on N records: the class
    # total variation (N - 1)/N (one record (1, 0) in a class of its own beside N - 1 records (0, 1): by brute force,
    # that table is (0, 1/10)-DP at N = 10 and its class is (N - 1)/N away), and the total variation between records
    # 1 (the same table's two kinds of record)
    from implgraph.core.formula import Word
    region = Region({T: "real", N: "integer"}, (T >= 1, N >= 2))
    emd = tight_bound("eps-delta-dp", "emd-t-closeness", {"delta": sympy.Rational(1, 10)}, {"ground": Word("equal")},
                      region, N)
    tv = tight_bound("eps-delta-dp", "tv-ldp", {"delta": sympy.Rational(1, 10)}, {}, region, N)
    for n in (10, 11, 20):
        assert emd.upper.subs({N: n, T: 1}) == Fraction(n - 1, n)
        assert tv.upper.subs({N: n, T: 1}) == 1
    rows = [[Fraction(1), Fraction(0)]] + [[Fraction(0), Fraction(1)]] * 9
    assert brute.eps_delta_dp(rows, DELTA) == 1
    assert brute.emd_t(rows, ["E1"] + ["E2"] * 9) == Fraction(9, 10)
