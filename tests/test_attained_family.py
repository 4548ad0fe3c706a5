"""The attained-family mechanism: families read from the sides' declarations, the independent checker's lemma and its
forgeries, and the cells whose proved upper bound it shows tight.

Every level below is derived by hand (or by ``tests/brute.py``) on the family's rows; the certificates come from
``tests/data/coq/attained_family.json`` (the prover's, for the matrix cells) and each forgery's reason is written
beside it.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest
import sympy

import brute
from _forge import edited

from implgraph.certify import check_certificate
from implgraph.prover.arguments.attained_family import family_of

from _coq import load_certs

CERTS = load_certs("attained_family.json")
N, T = sympy.symbols("N T")


def _rows(shape, A, B, n, t, da=None, db=None):
    """The family ``shape`` at (N, T) = (n, t): rows (binary, exact) and class labels."""
    (blocks,) = [b for name, b in family_of(A, da, B, db) if name == shape]
    rows, labels = [], []
    for count, value, label in blocks:
        c = int(sympy.sympify(count, locals={"N": N, "T": T}).subs({N: n, T: t}))
        v = sympy.sympify(value, locals={"N": N, "T": T}).subs({N: n, T: t})
        rows += [[F(str(v)), 1 - F(str(v))]] * c
        labels += [label] * c
    return rows, labels


def _record_to_table(rows):
    """The largest ratio of one record's value to the table's mean, over records and buckets (pml's raw level)."""
    n = len(rows)
    return max(r[b] / (sum(x[b] for x in rows) / n) for r in rows for b in range(2))


def _tv_removal(rows):
    """The largest total variation between the table's mean and the mean without one record."""
    n = len(rows)
    P = [sum(x[b] for x in rows) / n for b in range(2)]
    out = F(0)
    for i in range(n):
        Q = [sum(x[b] for j, x in enumerate(rows) if j != i) / (n - 1) for b in range(2)]
        out = max(out, abs(P[0] - Q[0]))
    return out


PAIRWISE = {"family": "pairwise", "sides": "two-sided"}
ONE_RECORD = {"family": "subset", "sides": "one-sided", "size": "1"}
CLASS_TV = {"family": "class", "distance": "total-variation", "min_class": "1"}


def test_lone_ratio_family_ldp_pml_by_hand():
    # N = 3, T = 2: (2/3, 1/3) and twice (1/3, 2/3); every pair's ratio is 2; P_1 = 4/9, so the lone record's ratio
    # to the table is (2/3)/(4/9) = 3/2 = N T/(N + T - 1)
    rows, _ = _rows("lone-ratio", PAIRWISE, ONE_RECORD, 3, 2)
    assert brute.ldp(rows) == 2
    assert _record_to_table(rows) == F(3, 2)


@pytest.mark.parametrize("n, t, c, tv", [(4, F(3, 2), F(5, 9), F(1, 3)), (4, F(6, 5), F(7, 10), F(3, 20)),
                                         (6, F(5, 4), F(19, 25), F(1, 5)), (3, 5, 0, F(2, 3))])
def test_one_record_class_family_pml_emd_by_hand(n, t, c, tv):
    # the pieces: T <= N/(N - 1): (N - 1)(T - 1)/N; up to N: (T - 1)/T; beyond: (N - 1)/N (module notes)
    rows, labels = _rows("one-record-class", ONE_RECORD, CLASS_TV, n, t)
    assert rows[1][0] == c
    assert _record_to_table(rows) <= t
    assert brute.emd_t(rows, labels) == tv


def test_lone_removal_family_tv_dp_emd_by_hand():
    # N = 3, T = 1/10: (3/10, 7/10), twice (0, 1); removing the lone record moves P_1 = 1/10 to 0; its class is at 1/5
    from implgraph.definitions import get
    from implgraph.definitions.divergences import divergence_of
    rows, labels = _rows("lone-removal", {}, CLASS_TV, 3, F(1, 10), da=divergence_of(get("tv-dp")))
    assert _tv_removal(rows) == F(1, 10)
    assert brute.emd_t(rows, labels) == F(1, 5)


def test_mirror_pair_family_slack_to_tv_dp_by_hand():
    # delta = 1/10, N = 3, T = 2: (7/10, 3/10) and twice (3/10, 7/10): 7/10 <= 2 (3/10) + 1/10; P_1 = 13/30, removing
    # the lone record leaves 3/10: TV 2/15 = (T - 4/5)/(N (T + 1))
    from implgraph.definitions import get
    from implgraph.definitions.divergences import divergence_of
    slack = {"slack": {"compares": "pairs", "delta": "1/10"}}
    rows, _ = _rows("mirror-pair", slack, {}, 3, 2, db=divergence_of(get("tv-dp")))
    assert brute.eps_delta_ldp(rows, F(1, 10)) <= 2
    assert _tv_removal(rows) == F(2, 15)


def test_removal_to_pairs_family_by_hand():
    # N = 3, T = 1/10: (2/5, 3/5), (0, 1), (1/5, 4/5): P_1 = 1/5; removing either end moves it by 1/10; between the
    # ends, 2/5 - 2 * 0 = 2/5 = 2 (N - 1) T (delta-ldp at eps = log 2)
    from implgraph.definitions import get
    from implgraph.definitions.divergences import divergence_of
    da, db = divergence_of(get("tv-dp")), divergence_of(get("delta-ldp"), {"eps": sympy.log(2)})
    rows, _ = _rows("removal-to-pairs", {}, {}, 3, F(1, 10), da=da, db=db)
    assert _tv_removal(rows) == F(1, 10)
    assert rows[0][0] - 2 * rows[1][0] == F(2, 5)


def test_no_family_for_undeclared_shapes():
    # a pairwise A against a class distance: no shape of the catalogue
    assert family_of(PAIRWISE, None, CLASS_TV, None) == []


@pytest.mark.parametrize("name", sorted(CERTS))
def test_cells_certificates_accepted(name):
    assert check_certificate(CERTS[name], ns=range(2, 7)).ok


def _forged_value(name, i, value):
    return edited(CERTS[name], ["tightness", "blocks", i, "value"], value)


FORGERIES = [
    # the lone record at T/(T + 2): its ratio to the table is below N T/(N + T - 1)
    ("value", _forged_value("ldp => pml", 0, "T/(T + 2)")),
    # the others at 1/(2 T): ldp's ratio exceeds T
    ("value above A", _forged_value("ldp => pml", 1, "1/(2*T)")),
    # two lone records: N + 1 records
    ("count", edited(CERTS["ldp => pml"], ["tightness", "blocks", 0, "count"], "2")),
    # a larger U than the part proves: the part's claim is another
    ("upper", edited(CERTS["tv-dp => emd-t-closeness(ground=equal)"], ["upper"], "(N - 1)/N")),
    # the family claimed only where T <= 1/2: not A's weakest level
    ("own domain", edited(CERTS["delta-ldp(eps=log(2)) => tv-dp"], ["tightness", "domain"], ["T <= 1/2"])),
    # without its own domain: at T > 1 the family's TV stays 1/N below U
    ("no own domain", edited(CERTS["delta-ldp(eps=log(2)) => tv-dp"], ["tightness", "domain"], [])),
    # the lone record's class at N T: U = (N - 1) T needs x_1 = N T where N T <= 1, not N T/2
    ("lone removal", _forged_value("tv-dp => emd-t-closeness(ground=equal)", 0, "Min(1, N*T/2)")),
]


@pytest.mark.parametrize("what, cert", FORGERIES, ids=[w for w, _ in FORGERIES])
def test_forged_families_rejected(what, cert):
    assert not check_certificate(cert, ns=range(2, 7)).ok


def test_part_must_be_an_upper_bound_of_another_method():
    cert = CERTS["ldp => pml"]
    assert not check_certificate(edited(cert, ["parts"], [cert]), ns=range(2, 5)).ok
    assert not check_certificate(edited(cert, ["parts"], []), ns=range(2, 5)).ok


def test_removal_class_divergence_family_by_hand():
    # N = 3, T = 1/10: (0, 3/10, 7/10) and twice (3/10, 0, 7/10): P = (1/5, 1/10, 7/10); removing the lone record
    # leaves (3/10, 0, 7/10), at total variation 1/10; the lone record's ratios to P are 0, 3, 1: KL = (3/10) log 3,
    # exp(D_2) = (3/10)^2/(1/10) + (7/10)^2/(7/10) = 8/5 = 1 + N (N - 1) T
    from implgraph.definitions import get
    from implgraph.definitions.divergences import divergence_of
    tv, kl = divergence_of(get("tv-dp")), divergence_of(get("kl-closeness"))
    (blocks,) = [b for name, b in family_of({}, tv, {"family": "class", "min_class": "1"}, kl)
                 if name == "removal-class-divergence"]
    x = [sympy.sympify(v, locals={"N": N, "T": T}).subs({N: 3, T: sympy.Rational(1, 10)}) for v in blocks[0][1]]
    z = [sympy.sympify(v, locals={"N": N, "T": T}).subs({N: 3, T: sympy.Rational(1, 10)}) for v in blocks[1][1]]
    P = [(a + 2 * b) / 3 for a, b in zip(x, z)]
    assert P == [sympy.Rational(1, 5), sympy.Rational(1, 10), sympy.Rational(7, 10)]
    assert sum(abs(p - q) for p, q in zip(P, z)) / 2 == sympy.Rational(1, 10)
    kl_x = sum(a * sympy.log(a / p) for a, p in zip(x, P) if a)
    assert sympy.simplify(kl_x - sympy.Rational(3, 10) * sympy.log(3)) == 0
    assert sum(a ** 2 / p for a, p in zip(x, P)) == sympy.Rational(8, 5)


def test_forged_three_bucket_family_rejected():
    # the lone record at (0, m/2, 1 - m/2): its KL from the table is below U
    name = "tv-dp => kl-closeness"
    row = ["0", "Min(1, N*T)/2", "1 - Min(1, N*T)/2"]
    assert not check_certificate(edited(CERTS[name], ["tightness", "blocks", 0, "row"], row), ns=range(2, 5)).ok


def test_symbolic_step_rejects_a_value_right_only_at_the_points():
    # the lone record's value off by a term that vanishes at every sampled point (T = 2 there): B is no longer U
    # as a function of T, which the sampled levels alone would not see
    from implgraph.certify.lemmas.attained_symbolic import symbolic_steps
    cert = _forged_value("ldp => pml", 0, "T/(T + 1) + (T - 2)/1000")
    points = [{"N": n, "T": F(2)} for n in range(2, 6)]
    assert symbolic_steps(CERTS["ldp => pml"], points)[0][1]
    assert not symbolic_steps(cert, points)[0][1]


def test_symbolic_step_reads_ties_both_ways():
    # at N T = 1 the lone-removal family's Min ties (1 = N T): both branches are tried there (a pattern of its own),
    # and the patterns below and above 1/N are identities too (U = (N - 1) T, then (N - 1)/N): three in all
    from implgraph.certify.lemmas.attained_symbolic import symbolic_steps
    points = [{"N": 4, "T": t} for t in (F(1, 8), F(1, 4), F(1, 2))]
    what, ok, how = symbolic_steps(CERTS["tv-dp => emd-t-closeness(ground=equal)"], points)[0]
    assert ok and how.startswith("3 pattern")


def test_point_mass_class_family_by_hand():
    # N = 3, T = log 2: (1, 0) and twice (1/4, 3/4): P_1 = 1/2 = exp(-T); the lone record's class has KL and D_2
    # log(1/P_1) = log 2 = T; the other class's D_2 is log((1/4)^2/(1/2) + (3/4)^2/(1/2)) = log(5/4) < T
    from implgraph.definitions import get
    from implgraph.definitions.divergences import divergence_of
    da = divergence_of(get("renyi-closeness"), {"alpha": 2})
    db = divergence_of(get("kl-closeness"))
    (blocks,) = [b for name, b in family_of({}, da, {"family": "class", "min_class": "1"}, db)
                 if name == "point-mass-class"]
    at = {N: 3, T: sympy.log(2)}
    x, z = (sympy.sympify(b[1], locals={"N": N, "T": T}).subs(at) for b in blocks)
    assert (x, z) == (1, sympy.Rational(1, 4))
    P1 = (x + 2 * z) / 3
    assert P1 == sympy.Rational(1, 2)
    assert z ** 2 / P1 + (1 - z) ** 2 / (1 - P1) == sympy.Rational(5, 4)


def test_point_mass_family_claims_only_up_to_log_n():
    # renyi-closeness is at most log N on every table: beyond it U = T is not attained, and a family domain other
    # than T <= log N (here T <= 2 log N) is not licensed
    name = "renyi-closeness(alpha=2) => kl-closeness"
    assert CERTS[name]["tightness"]["domain"] == ["T <= log(N)"]
    forged = edited(CERTS[name], ["tightness", "domain"], ["T <= 2*log(N)"])
    assert not check_certificate(forged, ns=range(2, 5)).ok
