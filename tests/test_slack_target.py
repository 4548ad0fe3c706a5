"""eps-LDP => (eps,delta)-LDP: B compares two records with an additive slack delta, A bounds their ratio (``slack-target-pairs``).

By hand, with T = e^eps, x and y two records' masses on an event S: A's ratio bound summed over S's buckets gives
x <= T y, and over the complement's 1 - y <= T (1 - x). B's raw level is the least e^eps' >= 1 with x <= e^eps' y + delta.
For a fixed x, y is least at max(x/T, 1 - T (1 - x)); the two meet at x = T/(T + 1), where (x - delta)/y = T - delta (T + 1);
below, T (1 - delta/x) increases with x; above, (x - delta)/(1 - T + T x) decreases where (1 - delta) T > 1. So the
tight raw level is Max(1, (1 - delta) T - delta), for every N and any number of buckets: one record at T/(T + 1) and
N - 1 at 1/(T + 1) attain it (at delta = 1/10, T = 2: (2/3 - 1/10)/(1/3) = 17/10). It is 1 (eps' = 0) up to
T = (1 + delta)/(1 - delta) (11/9 at delta = 1/10).
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

DELTAS = [Fraction(1, 10), Fraction(1, 4), Fraction(1, 2)]
LEVELS = [Fraction(1), Fraction(11, 10), Fraction(11, 9), Fraction(3, 2), Fraction(2), Fraction(7, 2)]


def by_hand(t, d):
    return max(Fraction(1), (1 - d) * t - d)


def _prove(d, f=None):
    return check_implication("ldp", "eps-delta-ldp", f, a_params={}, b_params={"delta": str(d)})


@pytest.mark.parametrize("d", DELTAS)
def test_tight_f_is_the_hand_derived_one(d):
    r = _prove(d)
    assert r.verdict == "proved" and r.tightness == "tight" and r.method == "slack-target-pairs"
    eps = sympy.Symbol("eps", real=True)
    f = sympy.sympify(str(r.tight), locals={"eps": eps})
    for t in LEVELS:
        want = by_hand(t, d)
        got = f.subs(eps, sympy.log(sympy.Rational(t.numerator, t.denominator)))
        assert sympy.simplify(sympy.exp(got) - sympy.Rational(want.numerator, want.denominator)) == 0, (t, d)


def _engine_f(d):
    """The prover's tight f as a function of A's raw level t (Fractions)."""
    eps = sympy.Symbol("eps", real=True)
    f = sympy.sympify(str(_prove(d).tight), locals={"eps": eps})
    return lambda t: sympy.exp(f.subs(eps, sympy.log(sympy.Rational(t.numerator, t.denominator))))


@pytest.mark.parametrize("d", DELTAS)
def test_the_engines_family_attains_f_by_brute_force(d):
    # the table family of the supremum's certificates (one record at T/(T + 1), N - 1 at 1/(T + 1)), by brute force
    cert = certificates_in(_prove(d).details)[-1]
    blocks = cert["tightness"]["blocks"]
    for n in range(2, 9):
        for t in LEVELS:
            T_ = sympy.Rational(t.numerator, t.denominator)
            rows, names = [], {"T": sympy.Symbol("T"), "N": sympy.Symbol("N")}
            for b in blocks:
                x = sympy.sympify(b["value"], locals=names).subs(names["T"], T_)
                count = int(sympy.sympify(b["count"], locals=names).subs(names["N"], n))
                rows += [[Fraction(str(x)), 1 - Fraction(str(x))]] * count
            assert brute.ldp(rows) == t
            assert brute.eps_delta_ldp(rows, d) == by_hand(t, d)


@pytest.mark.parametrize("d", DELTAS)
def test_no_random_table_exceeds_the_proved_f(d):
    f = _engine_f(d)
    rng = random.Random(23)
    for _ in range(300):
        n, m = rng.randint(2, 5), rng.randint(2, 4)
        rows = brute.random_rows(rng, n, m)
        t = brute.ldp(rows)
        if t == brute.INF:
            continue
        b = brute.eps_delta_ldp(rows, d)
        assert sympy.Rational(b.numerator, b.denominator) <= sympy.nsimplify(f(t))


def test_certificates_rechecked_and_corruptions_rejected():
    certs = certificates_in(_prove(Fraction(1, 10)).details)
    # U = T everywhere (an upper bound), then the two pieces of the supremum, each with its domain
    assert [c["upper"] for c in certs] == ["T", "1", "9*T/10 - 1/10"]
    assert all(check_certificate(c).ok for c in certs)
    ratio, flat, slope = certs

    def rejected(cert, change):
        bad = copy.deepcopy(cert)
        change(bad)
        return not check_certificate(bad, ns=range(2, 6)).ok
    key = "A on the event: T*y - x >= 0"
    assert rejected(slope, lambda c: c["upper_certificate"]["multipliers"]["slope"].update({key: "T - 1"}))
    assert rejected(slope, lambda c: c.update(upper="9*T/10"))                      # a smaller U
    assert rejected(slope, lambda c: c["domain"].remove("11/10 - 9*T/10 <= 0"))     # the piece's condition
    assert rejected(flat, lambda c: c["domain"].remove("11/10 - 9*T/10 >= 0"))
    assert rejected(flat, lambda c: c["B"]["slack"].update(delta="1/5"))             # not B's registered delta
    assert rejected(ratio, lambda c: c.update(upper="T - 1/10"))
    assert rejected(slope, lambda c: c["tightness"]["blocks"][0].update(value="T/(T + 2)"))
    assert rejected(ratio, lambda c: c["A"].update(family="subset"))


def test_forgeries_only_the_lemma_itself_rejects():
    # (review, stop 29) an unnamed A (the registry cannot vouch for it) that is a class level, not pairwise; and a
    # slope piece on a domain where U = (1 - delta) T - delta < 1 (T = 10/9: U = 9/10), claiming no tightness
    ratio, _, slope = certificates_in(_prove(Fraction(1, 10)).details)
    bad = copy.deepcopy(ratio)
    bad["A"] = {"family": "class", "sides": "two-sided", "params": {}, "min_class": "1"}
    assert not check_certificate(bad, ns=range(2, 5)).ok
    bad = copy.deepcopy(slope)
    bad.update(domain=["T >= 10/9", "N >= 2"], tight=False, tightness=None)
    rep = check_certificate(bad, ns=range(2, 5))
    assert not rep.ok and any("U >= 1" in w for w, _, _ in rep.failures())


@pytest.mark.parametrize("d", ["9/10", "19/20"])
def test_a_piece_beyond_the_grid_is_sampled(d):
    # (review) with delta >= 9/10 the slope piece starts at T = (1 + delta)/(1 - delta) >= 19, beyond the checker's grid
    # of levels: the checker samples the thresholds the domain sets on T (r, r + 1, 2 r)
    certs = certificates_in(_prove(d).details)
    assert len(certs) == 3 and all(check_certificate(c).ok for c in certs)


def test_a_claimed_f_equal_to_the_tight_f_piece_by_piece_is_tight():
    # Max(0, log(9 e^eps/10 - 1/10)) is the tight f written without Piecewise: exp of a Max is the Max of the exps
    r = _prove(Fraction(1, 10), "Max(0, log(9*exp(eps)/10 - 1/10))")
    assert (r.verdict, r.tightness) == ("proved", "tight")
    for when, upper in ((["eps <= log(11/9)"], "1"), (["eps >= log(2)"], "9*T/10 - 1/10")):
        r = check_implication("ldp", "eps-delta-ldp", None, a_params={}, b_params={"delta": "1/10"}, when=when)
        certs = certificates_in(r.details)
        # a condition on the level, log(T) <= log(11/9), read as T <= 11/9: one piece of the supremum applies
        assert [c["upper"] for c in certs][-1] == upper and all(check_certificate(c).ok for c in certs)


def test_check_edge_proves_it_and_its_exact_values_agree():
    fw = check_edge("ldp", "eps-delta-ldp(delta=1/10)", N=4).forward
    assert fw.verdict == "proved" and "equals the tight f proved for every N" in fw.evidence


def test_a_stronger_f_is_refuted_with_a_witness():
    # raw f = 9 T/10 - 1/5 < U where it is a valid level: a witness the brute force confirms
    r = _prove(Fraction(1, 10), "log(9*exp(eps)/10 - 1/5)")
    assert r.verdict == "refuted"
    w = r.witness
    rows = [[Fraction(x) for x in row] for row in w["rows"]]
    t = brute.ldp(rows)
    f_raw = Fraction(9, 10) * t - Fraction(1, 5)
    assert t != brute.INF and f_raw >= 1 and brute.eps_delta_ldp(rows, Fraction(1, 10)) > f_raw


@pytest.mark.parametrize("when", [["eps >= 3"], ["eps**2 >= 9"], ["eps >= 5/2"]])
def test_a_piece_beyond_the_grid_under_a_transcendental_condition_is_sampled(when):
    # (final review, stop 29) eps >= 3 is T >= e^3 ~ 20.09, beyond the checker's grid of levels and no rational
    # threshold: the checker samples the rationals around each root it finds (20.085, 20.086, ...)
    r = check_implication("ldp", "eps-delta-ldp", None, a_params={}, b_params={"delta": "1/10"}, when=when)
    certs = certificates_in(r.details)
    assert r.verdict == "proved" and certs and all(check_certificate(c).ok for c in certs)


def test_many_conditions_on_t_add_few_sample_levels():
    from implgraph.certify.domain import MAX_THRESHOLDS, Domain
    cert = certificates_in(_prove(Fraction(1, 10)).details)[-1]
    many = dict(cert, domain=cert["domain"] + [f"T >= {k}" for k in range(1, 200)])
    base = Domain(cert).t_grid
    assert len(Domain(many).t_grid) <= len(base) + 3 * MAX_THRESHOLDS
