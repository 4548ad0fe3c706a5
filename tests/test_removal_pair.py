"""eps-DP => a class's total variation distance (EMD t-closeness with the equal ground distance) at N = 2.

By hand: with two records the classes are the two records (one class of both is the table, at distance 0).
DP's sets of N - 1 records are the single records, so each record is within ratio T = e^eps of the table's
mean P in every bucket. For the class {x1} and the buckets S where x1 lies above the table, x2 = 2 P - x1:
T x2 >= P on S and T (1 - x1) >= 1 - P on the complement; their sum is (T - 1) - 2 T (x1 - P) >= 0, so the
distance x1 - P is at most (T - 1)/(2 T). x1 = (2 T - 1)/(2 T), x2 = 1/(2 T) attain it (both constraints
tight, mean 1/2). For N >= 3 the tight value is Min((N - 1)(T - 1)/(T + 1), (N - 1)(T - 1)/(N T - N + 1))
(``removal-distance``), which at N = 2 would be (T - 1)/(T + 1): larger, and not attained there.
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

N, eps = sympy.Symbol("N", integer=True), sympy.Symbol("eps", positive=True)


def _pair(T):
    return (T - 1) / (2 * T)


def _rest(n, T):
    return min((n - 1) * (T - 1) / (T + 1), (n - 1) * (T - 1) / (n * T - n + 1))


def _prove(b="emd-t-closeness"):
    return check_implication("dp", b, b_params={"ground": "equal"})


@pytest.mark.parametrize("b", ["emd-t-closeness", "hierarchical-emd-t-closeness"])
def test_tight_f_for_every_n_is_the_hand_derived_one(b):
    r = _prove(b)
    assert r.verdict == "proved" and r.tightness == "tight" and r.tight is not None
    f = sympy.sympify(str(r.tight), locals={"N": N, "eps": eps})
    for n in range(2, 13):
        for T in (Fraction(1), Fraction(5, 4), Fraction(2), Fraction(7, 2), Fraction(10)):
            want = _pair(T) if n == 2 else _rest(n, T)
            got = f.subs({N: n, eps: sympy.log(sympy.Rational(T.numerator, T.denominator))})
            assert sympy.simplify(got - sympy.Rational(want.numerator, want.denominator)) == 0, (n, T)


def test_the_family_attains_the_pair_value_by_brute_force():
    for T in (Fraction(1), Fraction(5, 4), Fraction(3, 2), Fraction(2), Fraction(10)):
        rows = [[(2 * T - 1) / (2 * T), 1 / (2 * T)], [1 / (2 * T), (2 * T - 1) / (2 * T)]]
        assert brute.dp(rows) <= T
        assert brute.emd_t(rows, ["E1", "E2"]) == _pair(T)


@pytest.mark.parametrize("T", [Fraction(2), Fraction(5)])
def test_the_grid_supremum_at_n_2_is_the_pair_value(T):
    # every 2-record binary table on the grid 0, 1/20, ..., 1 (which holds the attaining family at these T)
    grid = [Fraction(i, 20) for i in range(21)]
    best = max(brute.emd_t([[x, 1 - x], [y, 1 - y]], ["E1", "E2"])
               for x in grid for y in grid if brute.dp([[x, 1 - x], [y, 1 - y]]) <= T)
    assert best == _pair(T) < _rest(2, T)


def test_no_random_two_record_table_exceeds_the_pair_value():
    rng = random.Random(3)
    for _ in range(400):
        rows = brute.random_rows(rng, 2, rng.randint(2, 4), high=5)
        T = brute.dp(rows)
        if T == brute.INF:
            continue
        assert brute.emd_t(rows, ["E1", "E2"]) <= _pair(T)


def test_certificates_rechecked_and_corruptions_rejected():
    certs = {c["method"]: c for c in certificates_in(_prove().details) if c.get("tight")}
    pair = certs["removal-distance-pair"]
    assert "Eq(N, 2)" in pair["domain"] and "N >= 3" in certs["removal-distance"]["domain"]
    for cert in certs.values():
        assert check_certificate(cert, ns=range(2, 9)).ok
    bad = copy.deepcopy(pair)       # a multiplier changed
    bad["upper_certificate"]["multipliers"]["pair"]["A on S: T*x2 - P >= 0"] = "2"
    assert not check_certificate(bad, ns=range(2, 6)).ok
    bad = copy.deepcopy(pair)       # a smaller U
    bad["upper"] = "(T - 1)/(3*T)"
    assert not check_certificate(bad, ns=range(2, 6)).ok
    bad = copy.deepcopy(pair)       # the lemma outside N = 2
    bad["domain"] = [c for c in bad["domain"] if c != "Eq(N, 2)"]
    assert not check_certificate(bad, ns=range(2, 6)).ok


def _loose(cert):
    """The certificate as an upper bound only (no tightness family): only the kernel's obligations decide."""
    out = copy.deepcopy(cert)
    out["tight"], out["tightness"] = False, None
    return out


def test_the_kernel_obligations_reject_corruptions_without_a_family():
    pair = next(c for c in certificates_in(_prove().details) if c["method"] == "removal-distance-pair")
    assert check_certificate(_loose(pair)).ok
    bad = _loose(pair)                  # the lemma outside N = 2
    bad["domain"] = [c for c in bad["domain"] if c != "Eq(N, 2)"]
    assert {w for w, _, _ in check_certificate(bad).failures()} == {"on the domain: N <= 2", "on the domain: j <= 1"}
    bad = _loose(pair)                  # a smaller U
    bad["upper"] = "(T - 1)/(3*T)"
    assert [w for w, _, _ in check_certificate(bad).failures()] == ["U = (T - 1)/(2 T)"]
    bad = _loose(pair)                  # A of another subset size (N - 2 = 0 at N = 2)
    bad["A"]["size"] = "N - 2"
    bad["A"].pop("definition")
    assert [w for w, _, _ in check_certificate(bad).failures()] == ["on the domain: j >= 1"]
    bad = _loose(pair)                  # a multiplier changed
    bad["upper_certificate"]["multipliers"]["pair"]["A on S: T*x2 - P >= 0"] = "2"
    assert [w for w, _, _ in check_certificate(bad).failures()] == ["pair: (T - 1) - 2*T*(x1 - P) >= 0"]


def test_a_condition_with_two_records_only():
    # where the condition gives N <= 2 the supremum is the pair's value alone, with certificates that all check
    r = check_implication("dp", "emd-t-closeness", b_params={"ground": "equal"}, when=["N <= 2"])
    assert r.verdict == "proved" and r.tightness == "tight"
    assert sympy.simplify(sympy.sympify(str(r.tight), locals={"eps": eps}) - (1 - sympy.exp(-eps)) / 2) == 0
    assert all(check_certificate(c, ns=range(2, 6)).ok for c in certificates_in(r.details))


@pytest.mark.parametrize("when", [[], ["N <= 2"]])
def test_a_claimed_f_is_judged_against_the_supremum(when):
    from implgraph.core.formula import Word
    equal = {"ground": Word("equal")}
    # the pair's value itself, at N <= 2, is proved tight
    if when:
        r = check_implication("dp", "emd-t-closeness", "(exp(eps) - 1)/(2*exp(eps))", b_params=equal, when=when)
        assert r.verdict == "proved" and r.tightness == "tight"
    # below it: refuted by a table the brute force confirms (DP level <= the witness's, distance above f)
    r = check_implication("dp", "emd-t-closeness", "(exp(eps) - 1)/(3*exp(eps))", b_params=equal, when=when)
    assert r.verdict == "refuted" and r.witness is not None
    rows = [[Fraction(x) for x in row] for row in r.witness["rows"]]
    T = brute.dp(rows)
    assert len(rows) == 2 and brute.emd_t(rows, r.witness["classes"]) == _pair(T) > (T - 1) / (3 * T)


def test_check_edge_exact_values_at_n_2_are_the_hand_derived_ones():
    # the bounded engine's linear programs (not the prover) at N = 2 and 3, compared with the hand values
    fw = check_edge("dp", "emd-t-closeness(ground=equal)", N=3).forward
    assert fw.relation == "implication" and fw.verdict == "proved"
    for inst in fw.instances:
        assert inst.samples
        for a, v in inst.samples:
            if v == "None":
                continue
            T = Fraction(a)
            want = _pair(T) if inst.N == 2 else _rest(inst.N, T)
            assert Fraction(v) == want, (inst.N, a, v)


# the f written by hand (the pair piece (e^eps - 1)/(2 e^eps), the rest as printed with tanh), given back as a claim
BY_HAND = ("Piecewise(((exp(eps) - 1)/(2*exp(eps)), Eq(N, 2)), "
           "(Min((N - 1)*tanh(eps/2), (N - 1)*(exp(eps) - 1)/(N*exp(eps) - N + 1)), True))")


def test_the_tight_f_given_back_is_proved_and_a_smaller_piece_refuted():
    r = check_implication("dp", "emd-t-closeness", BY_HAND, b_params={"ground": "equal"})
    assert r.verdict == "proved" and r.tightness == "tight"
    # the pair piece a third smaller: refuted by the pair family at N = 2 (1/4 at eps = ln 2, f gives 1/6)
    low = BY_HAND.replace("/(2*exp(eps))", "/(3*exp(eps))")
    r = check_implication("dp", "emd-t-closeness", low, b_params={"ground": "equal"})
    assert r.verdict == "refuted" and "N = 2" in r.evidence
    res = check_edge("dp", "emd-t-closeness", f=BY_HAND, N=3)
    assert res.forward.f_verdict == "proved"


def test_a_thousandth_below_the_tight_f_is_refuted_for_n_at_least_4():
    # ("unknown" at stop 26.) By hand at N = 4, eps = ln 2 the N >= 3 piece is Min(3 tanh(ln(2)/2), 3/5) = 3/5: one
    # record at (1, 0) alone in its class and three at (1/5, 4/5) have the table (2/5, 3/5); removing a record moves
    # the first bucket's mean to 1/5 or 7/15 and the second's to 4/5 or 8/15, ratios at most 2 = e^eps; the lone
    # class is 3/5 from the table, above 999/1000 of it
    f = "999/1000*Min((N - 1)*tanh(eps/2), (N - 1)*(exp(eps) - 1)/(N*exp(eps) - N + 1))"
    r = check_implication("dp", "emd-t-closeness", f, b_params={"ground": "equal"}, when=["N >= 4"])
    assert r.verdict == "refuted"
    rows = [[Fraction(x) for x in row] for row in r.witness["rows"]]
    T = sympy.exp(sympy.sympify(r.witness["eps"]))
    n = len(rows)
    assert n >= 4 and T.is_Rational and brute.dp(rows) <= Fraction(int(T.p), int(T.q))
    T = Fraction(int(T.p), int(T.q))
    assert brute.emd_t(rows, r.witness["classes"]) > Fraction(999, 1000) * _rest(n, T)
