"""EMD t-closeness (equal ground distance: a class's total variation distance) => basic beta-likeness.

By hand: basic beta-likeness is at most N - 1 on every table of N records (a class of e >= 1 records holds at most
the table's mass of a value, so q <= N p / e <= N p). t-closeness does not lower that ceiling: one record at
x = min(1, N t/(N - 1)) on the first value, alone in its class, and N - 1 records at 0 in another class. The table's
frequency of the first value is x/N; the lone class is x - x/N = x (N - 1)/N <= t from the table and the other
class x/N <= t; the lone class's frequency x is N times the table's, beta = N - 1, for every t > 0. At t = 0 every
class has the table's distribution and beta = 0 (the prover's claims are for levels t > 0).
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
TS = (Fraction(1, 100), Fraction(1, 10), Fraction(1, 3), Fraction(1, 2), Fraction(9, 10), Fraction(1))


def _family(n, t):
    x = min(Fraction(1), n * t / (n - 1))
    return [[x, 1 - x]] + [[Fraction(0), Fraction(1)]] * (n - 1), ["E1"] + ["E2"] * (n - 1)


@pytest.mark.parametrize("n", range(2, 13))
def test_the_family_attains_the_ceiling_by_brute_force(n):
    for t in TS:
        rows, labels = _family(n, t)
        assert brute.emd_t(rows, labels) <= t
        assert brute.basic_beta_likeness(rows, labels) == n - 1


def test_no_random_table_exceeds_the_ceiling():
    rng = random.Random(7)
    for _ in range(300):
        n, m = rng.randint(2, 7), rng.randint(2, 4)
        rows, labels = brute.random_rows(rng, n, m), brute.random_labels(rng, n)
        assert brute.basic_beta_likeness(rows, labels) <= n - 1


@pytest.mark.parametrize("a", ["emd-t-closeness", "hierarchical-emd-t-closeness"])
def test_prover_tight_f_and_certificate(a):
    r = check_implication(a, "basic-beta-likeness", a_params={"ground": "equal"})
    assert r.verdict == "proved" and r.tightness == "tight" and r.method == "one-sided-ceiling"
    assert sympy.simplify(sympy.sympify(str(r.tight), locals={"N": N}) - (N - 1)) == 0
    (cert,) = certificates_in(r.details)
    rep = check_certificate(cert, ns=range(2, 9))
    assert rep.ok and any("levels 0, 1/100, 1/20, 1/10" in h for w, _, h in rep.steps if "family" in w)
    fast = copy.deepcopy(cert)         # a record too far from the table: A's level exceeds T
    fast["tightness"]["blocks"][0]["value"] = "Min(1, 2*N*T/(N - 1))"
    assert not check_certificate(fast, ns=range(2, 6)).ok
    low = copy.deepcopy(cert)          # a smaller U: the family no longer equals it (and the identity fails)
    low["upper"] = "N - 1"
    assert not check_certificate(low, ns=range(2, 6)).ok


def test_not_claimed_tight_for_other_sides():
    # an ordered ground distance is no total variation distance; a ratio A is not this argument either
    ordered = check_implication("emd-t-closeness", "basic-beta-likeness", a_params={"ground": "ordered"})
    assert ordered.method != "one-sided-ceiling" or ordered.tightness != "tight"
    ratio = check_implication("enhanced-beta-likeness", "basic-beta-likeness")
    assert ratio.method != "one-sided-ceiling" or ratio.tightness != "tight"


def test_check_edge_exact_values_are_the_hand_derived_ones():
    # the linear programs (not the prover): beta = N - 1 (raw N) at every sampled t > 0, and 0 (raw 1) at t = 0
    fw = check_edge("emd-t-closeness(ground=equal)", "basic-beta-likeness", N=4).forward
    assert fw.relation == "implication" and fw.verdict == "proved"
    for inst in fw.instances:
        for a, v in inst.samples:
            assert Fraction(v) == (inst.N if Fraction(a) > 0 else 1), (inst.N, a, v)


def test_level_zero_and_small_levels():
    """At t = 0 every class has the table's distribution (beta = 0): a certificate whose domain lets T be 0 while
    claiming U = N is rejected (the checker samples a distance at 0 and small levels too); a claim on t <= 0
    alone has no level of the prover's (T > 0) and is not 'proved'; a claim on small t gets a certificate that
    checks (levels 1/100, 1/20 are sampled)."""
    from implgraph.core.formula import Word
    equal = {"ground": Word("equal")}
    (cert,) = certificates_in(check_implication("emd-t-closeness", "basic-beta-likeness", a_params=equal).details)
    at_zero = copy.deepcopy(cert)
    at_zero["domain"] = ["T >= 0" if c == "T > 0" else c for c in at_zero["domain"]]
    rep = check_certificate(at_zero, ns=range(2, 5))
    assert not rep.ok and [w for w, _, _ in rep.failures()] == ["tightness family attains U"]
    empty = check_implication("emd-t-closeness", "basic-beta-likeness", "0", a_params=equal, when=["t <= 0"])
    assert empty.verdict == "unknown" and "no parameter values" in empty.evidence
    small = check_implication("emd-t-closeness", "basic-beta-likeness", a_params=equal, when=["t <= 1/20"])
    assert small.verdict == "proved" and small.tightness == "tight"
    assert all(check_certificate(c, ns=range(2, 6)).ok for c in certificates_in(small.details))
