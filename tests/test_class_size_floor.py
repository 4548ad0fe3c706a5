"""The ``class-size-floor`` argument: A declares a parameter a minimum class size ((alpha,k)-anonymity's k: its level
is infinite on a table with a smaller class), B's level is the smallest class's size (k-anonymity, larger is
stronger).

By hand: a table satisfying (alpha,k)-anonymity at a finite alpha has every class of >= k records, so its
k-anonymity level (the smallest class's size) is >= k, whatever alpha, for every N. With 2 k <= N, k records in one
class and N - k in another, every record uniform over m = ceiling(1/alpha) values, have each class's largest
frequency 1/m <= alpha and k-anonymity level k: the f = k is tight there (alpha > 0). With N < 2 k a partition into
classes of >= k records has one class, and the level is N (> k): not claimed tight there.
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

N, k = sympy.Symbol("N", integer=True), sympy.Symbol("k", integer=True)


def _prove(f=None, kk="k"):
    return check_implication("alpha-k-anonymity", "k-anonymity", f, a_params={"k": kk}, b_params={})


def _uniform(n, kk, m):
    rows = [[Fraction(1, m)] * m + [Fraction(0)] * (max(m, 2) - m)] * n
    return rows, ["E1"] * kk + ["E2"] * (n - kk)


def test_tight_f_for_every_n_is_k():
    r = _prove()
    assert r.verdict == "proved" and r.tightness == "tight" and r.method == "class-size-floor"
    assert sympy.sympify(str(r.tight), locals={"k": k}) == k
    assert r.details["attained_where"] in ("(T > 1) & (2*k <= N)", "(2*k <= N) & (T > 1)")
    assert "alpha > 0" in r.details["attained"] and "N >= 2*k" in r.details["attained"]


# (f = 1 is k-anonymity's weakest level: every table meets it, trivially)
@pytest.mark.parametrize("f, verdict, tightness", [("k", "proved", "tight"), ("1", "proved", "trivial"),
                                                   ("k - 1", "proved", "loose"), ("k + 1", "refuted", "wrong"),
                                                   ("N", "refuted", "wrong")])
def test_a_claimed_f_is_decided(f, verdict, tightness):
    r = _prove(f)
    assert (r.verdict, r.tightness) == (verdict, tightness)
    if verdict == "refuted":
        # the witness, re-checked by brute force: (alpha,k) at most the level claimed, k-anonymity below f
        w = r.witness
        rows = [[Fraction(x) for x in row] for row in w["rows"]]
        kk, n = int(w["params"]["k"]), len(rows)
        a = brute.alpha_k(rows, w["classes"], kk)
        assert a != brute.INF and a <= Fraction(w["alpha"])
        assert brute.k_anonymity(w["classes"]) < sympy.sympify(f, locals={"k": k, "N": N}).subs({k: kk, N: n})


def test_the_engines_attaining_table_attains_k_by_brute_force():
    # the table the engine builds for a witness (engines.class_floor._table), as the certificate's family
    # describes it, at every N >= 2k and four levels: (alpha,k) <= alpha and k-anonymity k, by brute force
    from implgraph.engines.class_floor import _table
    for n in range(2, 13):
        for kk in range(1, n // 2 + 1):
            for alpha in (Fraction(1, 3), Fraction(2, 5), Fraction(1, 2), Fraction(1)):
                m = -(-1 // alpha)         # ceiling(1/alpha)
                ct = _table(kk, n, int(m))
                rows, labels = [list(r) for r in ct.to_rows()], [str(x) for x in ct.classes]
                assert brute.alpha_k(rows, labels, kk) <= alpha
                assert brute.k_anonymity(labels) == kk


def test_no_random_table_satisfying_a_is_below_the_proved_f():
    f = sympy.sympify(str(_prove().tight), locals={"k": k})
    rng = random.Random(17)
    seen = 0
    for _ in range(400):
        n, m = rng.randint(2, 8), rng.randint(2, 3)
        rows, labels = brute.random_rows(rng, n, m), brute.random_labels(rng, n)
        for kk in range(1, n + 1):
            if brute.alpha_k(rows, labels, kk) != brute.INF:
                seen += 1
                assert brute.k_anonymity(labels) >= f.subs(k, kk)
                if 2 * kk > n:      # one class: the level is N
                    assert brute.k_anonymity(labels) == n
    assert seen > 100


def test_a_size_attained_at_one_n_says_where():
    # k = N - 1: two classes of >= N - 1 records exist only at N = 2; elsewhere one class, level N (f loose)
    r = check_implication("alpha-k-anonymity", "k-anonymity", None, a_params={"k": "N - 1"}, b_params={})
    where = r.details["attained"].split("tight where ", 1)[1].split(",", 1)[0]
    assert r.method == "class-size-floor" and set(where.split(" and ")) == {"alpha > 0", "N <= 2"}


@pytest.mark.parametrize("kk, when", [("5/2", ()), ("2", ("N < 4",)), ("k", ("N < 2*k",))])
def test_no_argument_where_it_does_not_hold_or_is_attained_nowhere(kk, when):
    # (review, stop 29) a size that is not an integer (classes of >= 3 records for k = 5/2: f = 5/2 is not tight and
    # a witness built with 2 records in a class does not satisfy A), and a condition where 2k <= N fails everywhere
    # (one class of N records: f = k is loose there) are not this argument's
    r = check_implication("alpha-k-anonymity", "k-anonymity", None, a_params={"k": kk}, b_params={}, when=list(when))
    assert r.method != "class-size-floor"


def test_check_edge_proves_it_at_every_n_with_the_bounded_values():
    # stated k = 2: at N = 2, 3 the only partition is one class (level N), at N = 4 the tight value is 2
    fw = check_edge("alpha-k-anonymity(k=2)", "k-anonymity", N=5).forward
    assert fw.verdict == "proved" and fw.tight_all_n == "2"
    fw = check_edge("alpha-k-anonymity(k=2)", "k-anonymity", N=30, f="3").forward
    assert fw.f_verdict == "refuted"


def test_certificate_rechecked_and_corruptions_rejected():
    certs = certificates_in(_prove().details)
    assert len(certs) == 1 and certs[0]["method"] == "class-size-floor"
    cert = certs[0]
    assert check_certificate(cert).ok
    assert check_certificate(certificates_in(_prove(kk="3").details)[0]).ok
    # k = 1: no second condition 2k <= N in the family's own domain (the checker licenses it only for k > 1; this
    # certificate was rejected before the family was the certificates' own uniform family)
    one = certificates_in(_prove(kk="1").details)[0]
    assert one["tightness"]["domain"] == ["T > 1"] and check_certificate(one).ok

    def rejected(change):
        bad = copy.deepcopy(cert)
        change(bad)
        return not check_certificate(bad, ns=range(2, 8)).ok
    assert rejected(lambda c: c.update(lower="k + 1"))                 # a stronger floor
    assert rejected(lambda c: c.update(lower="1"))                     # not the declared size
    assert rejected(lambda c: c["A"].update(min_class_param=None))     # no declared minimum class size
    assert rejected(lambda c: c["A"].update(definition="mult-t-closeness"))
    assert rejected(lambda c: c["B"].update(definition="distinct-l-diversity"))
    assert rejected(lambda c: c["B"].update(min_class="1"))            # B's classes other than A's
    assert rejected(lambda c: c["tightness"]["uniform_blocks"][0].update(count="k + 1"))
    assert rejected(lambda c: c["tightness"]["uniform_blocks"][0].update(values="1"))     # A not met at T
    assert rejected(lambda c: c["tightness"].update(domain=["T > 1", "2*k <= N", "N >= 6"]))    # an unlicensed domain


def test_certificate_text_shows_the_lower_bound(capsys):
    from implgraph.cli import main
    assert main(["certificate", "--edge", "alpha-k-anonymity(k=k)", "k-anonymity", "--text", "--check"]) == 0
    out = capsys.readouterr().out
    assert "class-size-floor" in out and "L = k" in out and "recheck: accepted" in out


def test_the_comparison_with_a_proved_f_reads_the_direction_of_strength():
    # a larger-is-stronger B: each exact tight value must be at least the proved f (at N = 3, k = 2 the level is 3)
    from implgraph.engines.instance import Instance, _below_proved
    inst = Instance(3, {"N": 3}, "implication")
    samples = [(Fraction(2), Fraction(3))]
    nowhere = lambda a: float("inf")      # noqa: E731 (no attaining table at this N)
    _below_proved(inst, samples, (None, lambda a: sympy.Integer(2), nowhere), 2, larger=True)
    with pytest.raises(RuntimeError):
        _below_proved(inst, samples, (None, lambda a: sympy.Integer(4), nowhere), 2, larger=True)
