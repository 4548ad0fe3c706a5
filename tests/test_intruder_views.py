"""domingo-ferrer2015 Proposition 3 under its assumptions (``views:``, implgraph.checks.intruder_views).

Hand facts: with T = exp(eps/2) the views P, v (I's class in D1), w (I's class in D2) satisfy
v <= T P and P <= T w per bucket, so v / w <= T^2, i.e. eps-DP of k_I: the tight f is 2 ln t. The
tightness family at T = 2, N = 3: p = 1/(2 (T + 1)) = 1/6, E1 = (1/3, 2/3), E2 = (1/12, 11/12) and
E3 (one record) at y = p (N - T - 1/T)/(N - 2) = 1/12; its multiplicative distance is 2 (E1 and E2 on
a1: (1/3)/(1/6) = (1/6)/(1/12) = 2) and E1 / E2 on a1 is 4 = T^2.
"""

import copy
import random
from fractions import Fraction as F

import pytest

import brute
from implgraph.checks import check_claim
from implgraph.core.errors import InputError
from implgraph.io.theorems import load_claims

CID = "domingo-ferrer2015/proposition-3"


def _claim(**changes):
    node = copy.copy({str(c.get("id")): c for c in load_claims()}[CID])
    node.update(changes)
    return node


def test_family_at_t2_by_brute_force():
    rows = [[F(1, 3), F(2, 3)], [F(1, 12), F(11, 12)], [F(1, 12), F(11, 12)]]
    classes = ["E1", "E2", "E3"]
    assert brute.mult_t(rows, classes) == 2
    assert max(rows[0][l] / rows[1][l] for l in range(2)) == 4      # I in E1 (D1) vs I in E2 (D2)


@pytest.mark.parametrize("seed", range(30))
def test_views_ratio_at_most_square_on_random_tables(seed):
    """The upper bound by brute force: every pair of views (whole table or a class) of a table, on every
    bucket, differs by at most the square of its multiplicative distance."""
    rng = random.Random(seed)
    n, p = rng.randint(2, 6), rng.randint(2, 3)
    rows = []
    for _ in range(n):
        w = [F(rng.randint(1, 6)) for _ in range(p)]
        rows.append([x / sum(w) for x in w])
    classes = [f"E{rng.randint(1, 3)}" for _ in range(n)]
    t = brute.mult_t(rows, classes)
    views = [brute.mean(rows, range(n), l) for l in range(p)], *[
        [brute.mean(rows, e, l) for l in range(p)] for e in brute.groups(classes)]
    worst = max(v[l] / w[l] for v in views for w in views for l in range(p))
    assert worst <= t ** 2


def test_proposition_3_is_proved_with_the_tight_f():
    v = check_claim(_claim())
    assert v.verdict == "proved"
    assert v.tight_str == "2*log(t)"
    assert v.details["tightness"] == "tight"


def test_a_smaller_f_is_not_proved():
    v = check_claim(_claim(f="ln(t)"))
    assert v.verdict == "unknown" and "not shown to be >=" in v.evidence


def test_a_looser_f_is_proved_loose():
    v = check_claim(_claim(f="3*ln(t)"))
    assert v.verdict == "proved" and v.details["tightness"] == "loose"


def test_an_unknown_model_is_an_input_error():
    with pytest.raises(InputError) as exc:
        check_claim(_claim(views={"prior": "uniform", "posterior": "class", "same_prior": True}))
    assert "views" in str(exc.value) and "fix" in str(exc.value).lower()


def test_not_an_edge_of_the_map():
    from implgraph.map.rules import load_edges, rules_from_edges
    assert not [r for r in rules_from_edges(load_edges()) if r.claim == CID]


def test_the_non_implication_under_the_views_is_refuted():
    # the claim turned into "A does not imply B" about the same views: the views argument proves A => B (f = 2 ln t,
    # by hand in the module docstring), so the non-implication is false; the literal definitions' tables (a class
    # of one row far from the table) say nothing about the intruder's views (found by the mutation run)
    v = check_claim(_claim(kind="not-implies", f=None))
    assert v.verdict == "refuted" and v.refuted_by == "proved"
    assert v.tight_str == "2*log(t)"


def test_a_non_implication_about_an_unmodelled_quantity_is_unknown():
    # `of:` on a side without `views:`: nothing the engine models is claimed; the literal verdict stays in details
    node = _claim(kind="not-implies", f=None)
    del node["views"]
    v = check_claim(node)
    assert v.verdict == "unknown" and "literal_verdict" in v.details
