"""The ground distances of emd-t-closeness, declared with their costs, and the set channel's closeness resting on
each being a metric: the certificate names its grounds, the independent checker proves each a metric for every
number of values, the Coq statement names exactly the certificate's grounds.

Every value here is derived by hand (in the comments) or by the exact transport program below (every vertex of the
flow polytope, fractions), never copied from the engine.
"""

from __future__ import annotations

from fractions import Fraction as F
from itertools import combinations

import pytest

from _forge import edited

from implgraph.certify import check_certificate
from implgraph.certify.ground_metric import METRIC_VARIABLES, ORDERINGS, metric_steps
from implgraph.certify.lemmas.proof import Proof
from implgraph.core.concrete import ConcreteTable
from implgraph.definitions import get
from implgraph.definitions.capability_grounds import GroundDistances

from _coq import check_generated, coq, load_certs

#: three values: 1 between neighbours, 10 between the ends (no metric: 10 > 1 + 1); as a formula in i, j, K:
#: 4 x^2 - 3 |x| with x = i - j gives 0, 1, 10 at |x| = 0, 1, 2
NOT_A_METRIC = "4*(i - j)**2 - 3*Abs(i - j)"
COSTS_3 = [[0, 1, 10], [1, 0, 1], [10, 1, 0]]
FIXTURE = load_certs("set_channel.json")["sei2019 theorem 4 reading"]
BOTH = {"equal": "Piecewise((0, Eq(i, j)), (1, True))", "ordered": "Abs(i - j)/(K - 1)"}


def _solve(rows, rhs):
    """The unique solution of a square system over the fractions, or None (Gauss-Jordan)."""
    m = [list(r) + [b] for r, b in zip(rows, rhs)]
    n = len(m)
    for c in range(n):
        p = next((r for r in range(c, n) if m[r][c] != 0), None)
        if p is None:
            return None
        m[c], m[p] = m[p], m[c]
        m[c] = [x / m[c][c] for x in m[c]]
        for r in range(n):
            if r != c and m[r][c] != 0:
                m[r] = [x - m[r][c] * y for x, y in zip(m[r], m[c])]
    return [m[r][n] for r in range(n)]


def transport(p, q, cost):
    """The earth mover's distance from ``p`` to ``q`` (equal mass) under ``cost``, exact: the least cost over every
    vertex of the flows {f >= 0, rows p, columns q} (each a basic solution of 2K - 1 independent constraints)."""
    k = len(p)
    cells = [(i, j) for i in range(k) for j in range(k)]
    cons = [[F(int(c[0] == i)) for c in cells] for i in range(k)] + \
           [[F(int(c[1] == j)) for c in cells] for j in range(k - 1)]      # the last column follows from the rest
    rhs = [F(x) for x in p] + [F(x) for x in q[:-1]]
    best = None
    for basis in combinations(range(len(cells)), len(cons)):
        x = _solve([[row[b] for b in basis] for row in cons], rhs)
        if x is None or min(x) < 0:
            continue
        value = sum((F(cost[cells[b][0]][cells[b][1]]) * v for b, v in zip(basis, x)), F(0))
        best = value if best is None else min(best, value)
    return best


def _declared():
    return get("emd-t-closeness").declared(GroundDistances)


# -- the declaration ------------------------------------------------------------------------------------------------

def test_the_declared_costs_over_three_values():
    """equal: 1 off the diagonal; ordered: |i - j| / (K - 1), so 1/2 between neighbours and 1 between the ends."""
    g = _declared()
    assert g.names() == ("equal", "ordered") and g.param == "ground"
    assert g.matrix("equal", 3) == [[0, 1, 1], [1, 0, 1], [1, 1, 0]]
    h = F(1, 2)
    assert g.matrix("ordered", 3) == [[0, h, 1], [h, 0, h], [1, h, 0]]


def test_the_transport_program_on_the_non_metric_cost():
    """A = (1/4, 1/4, 1/2), Z = {2} (a = 1/2): v = A (1[m in Z] - a) = (-1/8, -1/8, 1/4).
    D[A, A + v] = 3/8: 1/8 from value 1 to 2 (cost 1/8), 1/8 from 0 to 1 and the 1/8 value 1 had to 2 (2/8).
    D[A, A + 3/2 v] = 25/16: A + 3/2 v = (1/16, 1/16, 7/8); value 1 keeps 1/16 at most, all of it from 0, so 2/16 of
    0's 3/16 go to 2 at cost 10 (20/16), 1/16 to 1 (1/16) and value 1's 1/4 to 2 (4/16). Homogeneity would give
    3/2 * 3/8 = 9/16."""
    a = [F(1, 4), F(1, 4), F(1, 2)]
    v = [F(-1, 8), F(-1, 8), F(1, 4)]
    assert transport(a, [x + y for x, y in zip(a, v)], COSTS_3) == F(3, 8)
    assert transport(a, [x + F(3, 2) * y for x, y in zip(a, v)], COSTS_3) == F(25, 16) != F(9, 16)
    # the declared (metric) grounds are homogeneous there: equal, the total variation 1/4 then 3/8; ordered, the
    # cumulative differences (1/8, 1/4) over K - 1 = 2: 3/16, then 9/32
    for name, one, more in (("equal", F(1, 4), F(3, 8)), ("ordered", F(3, 16), F(9, 32))):
        cost = _declared().matrix(name, 3)
        assert transport(a, [x + y for x, y in zip(a, v)], cost) == one
        assert transport(a, [x + F(3, 2) * y for x, y in zip(a, v)], cost) == more == F(3, 2) * one


TABLES = [
    # rows over three values and the class of each record
    ([[1, 0, 0], [0, 1, 0], [0, 0, 1], [0, 0, 1]], [0, 0, 1, 1]),
    ([[F(1, 2), F(1, 2), 0], [0, 0, 1], [F(1, 3), F(1, 3), F(1, 3)], [1, 0, 0]], [0, 1, 1, 0]),
    ([[1, 0, 0], [1, 0, 0], [0, 0, 1], [0, 1, 0], [0, 0, 1]], [0, 0, 0, 1, 1]),
    ([[F(1, 4), 0, F(3, 4)], [F(1, 2), F(1, 4), F(1, 4)], [0, 1, 0]], [0, 1, 2]),
    ([[1, 0], [0, 1], [F(1, 2), F(1, 2)]], [0, 0, 1]),
]


@pytest.mark.parametrize("rows,labels", TABLES)
@pytest.mark.parametrize("ground", ["equal", "ordered"])
def test_the_declared_costs_give_the_definitions_emd(rows, labels, ground):
    """The definition's EMD (its closed forms) is the transport program's under the declared cost, class by class."""
    k, n = len(rows[0]), len(rows)
    prior = [sum((F(r[m]) for r in rows), F(0)) / n for m in range(k)]
    worst = F(0)
    for c in set(labels):
        members = [F(r[m]) for r, lab in zip(rows, labels) if lab == c for m in range(k)]
        size = len(members) // k
        q = [sum(members[m::k], F(0)) / size for m in range(k)]
        worst = max(worst, transport(q, prior, _declared().matrix(ground, k)))
    ct = ConcreteTable.from_fractions(rows, classes=labels)
    assert get("emd-t-closeness").concrete(ct, ground) == worst


def test_the_first_table_by_hand():
    """Class {0, 1}: (1/2, 1/2, 0) against the prior (1/4, 1/4, 1/2): equal 1/2; ordered, cumulative differences
    (1/4, 1/2) over 2: 3/8 (class {2, 3} is (0, 0, 1): equal 1/2, ordered (1/4, 1/2) / 2 = 3/8 too)."""
    rows, labels = TABLES[0]
    ct = ConcreteTable.from_fractions(rows, classes=labels)
    assert get("emd-t-closeness").concrete(ct, "equal") == F(1, 2)
    assert get("emd-t-closeness").concrete(ct, "ordered") == F(3, 8)


# -- the checker ----------------------------------------------------------------------------------------------------

def _metric(text):
    pf = Proof({"symbols": {}, "domain": []}, METRIC_VARIABLES)
    ok = metric_steps(pf, "g", text)
    return ok, {w.split(": ", 1)[1].split(" for every")[0]: (good, how) for w, good, how in pf.steps}


def test_thirteen_weak_orderings():
    # 3! = 6 strict, 3 * 2 with exactly two tied (which pair, which side), 1 all tied
    assert len(ORDERINGS) == 13 == len(set(ORDERINGS))


@pytest.mark.parametrize("name", ["equal", "ordered"])
def test_the_declared_grounds_are_metrics(name):
    ok, steps = _metric(_declared().formula(name))
    assert ok and len(steps) == 5 and all(good for good, _ in steps.values())


def test_the_non_metric_cost_fails_only_the_triangle():
    """4 x^2 - 3 |x| is 0 on the diagonal, symmetric, >= 0 (|x| >= 1 gives x^2 >= |x|); with k < i < j one step
    apart d(k, j) = 10 > d(k, i) + d(i, j) = 2: over the case's gaps, 4 (2 + e1 + e2)^2 - 3 (2 + e1 + e2) against
    the two steps' sum, a difference of -8 (1 + e1)(1 + e2)."""
    ok, steps = _metric(NOT_A_METRIC)
    assert not ok
    failed = [w for w, (good, _) in steps.items() if not good]
    assert failed == ["the triangle inequality d(k, j) <= d(k, i) + d(i, j)"]
    assert "-8*e1_*e2_ - 8*e1_ - 8*e2_ - 8" in steps[failed[0]][1]


@pytest.mark.parametrize("text,why", [
    ("log(1 + Abs(i - j))", "log in the cost is not resolved"),    # a function the cases do not resolve
    ("Abs(i - j - K/2)", "not decided"),            # a sign that depends on more than the ordering
    ("Abs(i - j)/(K - 2)", "not shown"),            # undefined at K = 2: its denominator is not > 0
])
def test_a_cost_not_resolved_or_not_shown_fails(text, why):
    ok, steps = _metric(text)
    assert not ok and any(why in how for good, how in steps.values() if not good)


def _engine_certificate(params):
    from implgraph.engines.set_channel_certificates import closeness_certificate
    import sympy
    return closeness_certificate({sympy.Symbol("t_j", real=True): "real"}, [sympy.Le(0, sympy.Symbol("t_j"))],
                                 get("emd-t-closeness"), FIXTURE["parts"][0], params)


def test_the_certificate_names_the_claims_grounds():
    # unspecified (sei2019 Theorem 4): every declared ground; stated: that one
    assert _engine_certificate({"ground": "unspecified"})["B"]["grounds"] == BOTH
    assert _engine_certificate(None)["B"]["grounds"] == BOTH
    assert _engine_certificate({"ground": "ordered"})["B"]["grounds"] == {"ordered": "Abs(i - j)/(K - 1)"}
    assert _engine_certificate({"ground": "unspecified"}) == FIXTURE


def test_the_real_certificate_is_accepted():
    rep = check_certificate(FIXTURE)
    assert rep.ok, rep.failures()
    metric = [w for w, ok, _ in rep.steps if "triangle inequality" in w]
    assert len(metric) == 2 and all(ok for w, ok, _ in rep.steps if w in metric)


def test_the_real_certificate_from_verify():
    from implgraph.api import verify
    from implgraph.certify.statement import check_statement
    from implgraph.checks.common import theorem_claim
    row = next(v for v in verify(["sei2019/theorem-4"]) if v.id == "sei2019/theorem-4#reading")
    cert = row.details["certificate"]
    assert row.verdict == "proved" and cert["B"]["grounds"] == BOTH
    assert check_certificate(cert).ok
    assert check_statement(theorem_claim("sei2019/theorem-4"), row, [cert]).ok


def _failed(cert):
    rep = check_certificate(cert)
    assert not rep.ok
    return {w: how for w, ok, how in rep.steps if not ok}


def test_a_forged_non_metric_ground_is_rejected_at_the_metric_step():
    failed = _failed(edited(FIXTURE, ["B", "grounds"], {"equal": NOT_A_METRIC}))
    assert any(w.startswith("ground equal") and "triangle inequality" in w for w in failed)
    assert "each ground is one B's definition declares, with the cost it declares" in failed


def test_a_metric_not_declared_is_rejected():
    # twice the ordered cost is a metric, but not the cost B's definition declares for ordered
    failed = _failed(edited(FIXTURE, ["B", "grounds"], {"ordered": "2*Abs(i - j)/(K - 1)"}))
    assert list(failed) == ["each ground is one B's definition declares, with the cost it declares"]


@pytest.mark.parametrize("grounds", [None, {}, {"equal": 1}])
def test_a_certificate_without_grounds_is_rejected(grounds):
    cert = edited(FIXTURE, ["B", "grounds"], grounds)
    failed = _failed(cert)
    assert list(failed) == ["B names its ground distances, each with its cost d(i, j) over K values"]


def test_the_grounds_must_cover_the_claims():
    from implgraph.certify.statement import check_statement
    from implgraph.checks.common import theorem_claim
    claim = theorem_claim("sei2019/theorem-4")
    row = {"id": "sei2019/theorem-4#reading", "verdict": "proved", "details": {}}
    only_equal = edited(FIXTURE, ["B", "grounds"], {"equal": BOTH["equal"]})
    assert check_certificate(only_equal).ok
    rep = check_statement(claim, row, [only_equal])          # the claim leaves the ground unspecified
    assert not rep.ok and any("grounds cover" in w for w, ok, _ in rep.steps if not ok)
    stated = edited(claim, ["params"], {"ground": "equal"})
    assert check_statement(stated, row, [only_equal]).ok
    assert check_statement(claim, row, [FIXTURE]).ok


# -- the Coq statement ----------------------------------------------------------------------------------------------

def test_the_coq_grounds_are_the_declared_costs():
    """The generator's table names the library's definitions of exactly the declared costs, and the library defines
    them so (TransportMetric.v, read by hand)."""
    import os
    from implgraph.core.formula import parse_expr
    from implgraph.kernel_coq.gen_set_channel_closeness import COQ_GROUNDS
    import sympy
    names = {n: sympy.Symbol(n) for n in ("i", "j", "K")}
    declared = {parse_expr(t, names): n for n, t in _declared().costs}
    assert {declared[parse_expr(t, names)]: term for t, term in COQ_GROUNDS.items()} == \
        {"equal": "equal_ground", "ordered": "ordered_ground K"}
    with open(os.path.join(os.path.dirname(__file__), "..", "coq", "theories", "TransportMetric.v")) as fh:
        text = fh.read()
    assert "Definition equal_ground (i j : nat) : R := if Nat.eqb i j then 0 else 1." in text
    assert "Definition ordered_ground (K : nat) (i j : nat) : R := Rabs (INR i - INR j) / INR (K - 1)." in text


@pytest.mark.parametrize("grounds,hyp", [
    (BOTH, "(dist = equal_ground \\/ dist = ordered_ground K)"),
    ({"ordered": BOTH["ordered"]}, "(dist = ordered_ground K)"),
    ({"equal": BOTH["equal"]}, "(dist = equal_ground)"),
])
def test_the_coq_statement_names_the_certificates_grounds(grounds, hyp):
    from implgraph.kernel_coq.registry import generate
    text = generate(edited(FIXTURE, ["B", "grounds"], grounds))
    assert f"prior K a -> {hyp} -> 0 <= p <= 1 ->" in text
    assert text.count("dist = ") == len(grounds)


@pytest.mark.parametrize("grounds", [{"equal": NOT_A_METRIC}, {}, None, {"ordered": "2*Abs(i - j)/(K - 1)"}])
def test_a_ground_without_a_coq_metric_is_untranslatable(grounds):
    from implgraph.kernel_coq.coqexpr import Untranslatable
    from implgraph.kernel_coq.registry import generate
    with pytest.raises(Untranslatable):
        generate(edited(FIXTURE, ["B", "grounds"], grounds))


@pytest.mark.slow
@coq
def test_one_ground_checks_in_coq(library, tmp_path):
    res = check_generated(edited(FIXTURE, ["B", "grounds"], {"ordered": BOTH["ordered"]}), library, tmp_path, "ord")
    assert res["ok"], res["error"]
