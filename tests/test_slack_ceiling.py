"""(eps,delta)-DP and (eps,delta)-LDP with delta > 0 => basic beta-likeness, tight at B's ceiling N - 1 for every eps.

By hand: one record at (delta, 1 - delta) in a class of its own and N - 1 records at (0, 1) in another. Two records
differ by at most delta on every event ({b1}: delta against 0; {b2}: 1 - delta against 1), and so do the table and
the table without one record (at most delta/N and delta/(N - 1) - delta/N on {b1}, the same on {b2}): every constraint
a <= e^eps b + delta holds at eps = 0. The table's mean of b1 is delta/N and the lone class's is delta: N times it,
beta = N - 1, the most any table of N records has (a class of e >= 1 records holds at most the table's mass). The
slack lets a rare value through, however small eps is.
"""

import copy
import random
from fractions import Fraction

import pytest
import sympy

import brute
from implgraph.certify import certificates_in, check_certificate
from implgraph.certify.levels import level
from implgraph.engines.prove import check_implication

N = sympy.Symbol("N", integer=True)
DELTAS = (Fraction(1, 10), Fraction(1, 3))
BRUTE = {"eps-delta-dp": brute.eps_delta_dp, "eps-delta-ldp": brute.eps_delta_ldp}


def _family(n, delta):
    return [[delta, 1 - delta]] + [[Fraction(0), Fraction(1)]] * (n - 1), ["E1"] + ["E2"] * (n - 1)


@pytest.mark.parametrize("n", range(2, 13))
def test_the_family_attains_the_ceiling_by_brute_force(n):
    for delta in DELTAS:
        rows, labels = _family(n, delta)
        for name, levels in BRUTE.items():
            assert levels(rows, delta) == 1, name          # eps = 0
        assert brute.basic_beta_likeness(rows, labels) == n - 1


@pytest.mark.parametrize("a", sorted(BRUTE))
def test_prover_tight_f_and_certificate(a):
    r = check_implication(a, "basic-beta-likeness", a_params={"delta": "1/10"})
    assert r.verdict == "proved" and r.tightness == "tight" and r.method == "one-sided-ceiling"
    assert sympy.simplify(sympy.sympify(str(r.tight), locals={"N": N}) - (N - 1)) == 0
    (cert,) = certificates_in(r.details)
    rep = check_certificate(cert, ns=range(2, 9))
    assert rep.ok, rep.failures()


def test_no_tightness_claimed_without_a_slack():
    # delta = 0 is eps-DP: the record at delta would be at 0, with no rare value to let through
    r = check_implication("eps-delta-dp", "basic-beta-likeness", a_params={"delta": "0"})
    assert "differ by at most delta" not in r.evidence


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("compares, a", [("removal", "eps-delta-dp"), ("pairs", "eps-delta-ldp")])
def test_the_checkers_slack_level_is_the_brute_force_one(seed, compares, a):
    rng = random.Random(seed)
    for _ in range(30):
        n, m = rng.randint(2, 5), rng.randint(2, 3)
        rows = brute.random_rows(rng, n, m)
        delta = rng.choice((Fraction(0), Fraction(1, 10), Fraction(1, 4)))
        got = level({"family": None, "slack": {"compares": compares, "delta": str(delta)}},
                    [(1, row, None) for row in rows])
        assert got == BRUTE[a](rows, delta), (rows, delta)


def test_forgeries_are_rejected():
    r = check_implication("eps-delta-ldp", "basic-beta-likeness", a_params={"delta": "1/10"})
    cert = certificates_in(r.details)[0]

    def ok(change):
        c = copy.deepcopy(cert)
        change(c)
        return check_certificate(c, ns=range(2, 6)).ok
    assert ok(lambda c: None)
    # a record twice delta from the others: no finite eps (2/10 > 0 + 1/10)
    assert not ok(lambda c: c["tightness"]["blocks"][0].update(value="2/10"))
    # the slack dropped from A's description, or another delta than A's parameter: not A as registered
    assert not ok(lambda c: c["A"].pop("slack"))
    assert not ok(lambda c: c["A"]["slack"].update(delta="1/5"))
    assert not ok(lambda c: c["A"]["slack"].update(compares="removal"))


def test_a_parameter_the_definition_does_not_take_is_rejected_and_delta_is_read_as_a_number():
    r = check_implication("eps-delta-dp", "basic-beta-likeness", a_params={"delta": "1/10"})
    cert = certificates_in(r.details)[0]
    extra = copy.deepcopy(cert)
    extra["A"]["params"]["k"] = "2"                  # eps-delta-dp takes delta only (second review)
    assert not check_certificate(extra, ns=range(2, 5)).ok
    written = copy.deepcopy(cert)
    written["A"]["slack"]["delta"] = "2/20"          # the same delta, written another way
    assert check_certificate(written, ns=range(2, 5)).ok
