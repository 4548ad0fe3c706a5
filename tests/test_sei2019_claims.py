"""sei2019 Lemma 1 and Theorems 2-4 judged by the engine: the facts, the checkers, a false variant refuted."""

import sympy

from implgraph.checks.common import theorem_claim
from implgraph.checks.lp_convexity import _linear, lp_convex_in_marginal
from implgraph.checks.set_channel import check_set_channel
from implgraph.io.datafile import Node
from implgraph.mechanisms.randomized_anonymization import facts


def test_symbolic_facts():
    l, d = sympy.symbols("l d", integer=True, positive=True)
    p = sympy.Symbol("p", positive=True)
    assert facts.support_is_eta_subsets(1, l, d) and facts.support_is_eta_subsets(p, l, d)
    assert facts.class_count_bound() is True
    assert facts.posterior_direction() and facts.distance_increases_in_p() and facts.closed_form_root()


def test_geometric_mean_rule():
    q = sympy.symbols("q1:4", positive=True)
    assert facts.geometric_mean_bound(1 / (q[0] ** q[0] * q[1] ** q[1] * q[2] ** q[2]), q)   # exp(entropy)
    assert facts.geometric_mean_bound(1 / q[2], q)                                         # 1/q3 >= 1/max q
    assert not facts.geometric_mean_bound(q[2], q)                                         # not a bound
    assert not facts.geometric_mean_bound(1 / (q[0] * q[1]), q)                            # weights sum to 2


def test_lp_convexity_steps_and_a_false_identity():
    assert all(lp_convex_in_marginal({"size": "n", "cost": "dist[i, j]"}).values())
    assert all(lp_convex_in_marginal({"size": "n", "cost": "dist[i, j]", "convex_in": "rows"}).values())
    n = sympy.Symbol("n", integer=True, positive=True)
    j = sympy.Symbol("j", integer=True, positive=True)
    f, lam = sympy.IndexedBase("f"), sympy.Symbol("lam")
    assert not _linear(sympy.Sum(2 * f[j], (j, 1, n)), [(1, sympy.Sum(f[j], (j, 1, n)))])
    assert _linear(sympy.Sum(lam * f[j], (j, 1, n)), [(lam, sympy.Sum(f[j], (j, 1, n)))])


def test_the_bundled_claims():
    assert theorem_claim("sei2019/theorem-2")["mechanism"]["set_channel"]["eta"] == "l_j"
    v2 = check_set_channel(theorem_claim("sei2019/theorem-2"))
    assert v2.verdict == "verified-bounded" and v2.bound == "d_j <= 5"
    context = {}
    v4 = check_set_channel(theorem_claim("sei2019/theorem-4"), context)
    assert v4.verdict == "refuted" and v4.witness["class_emd"] == "2/13" and v4.witness["t_1"] == "1/10"
    assert [r.verdict for r in context["extra_rows"]] == ["proved"]


def test_a_false_variant_is_refuted():
    """eta_j = 1 (no added values) cannot give frequency l-diversity for l >= 2: a witness release."""
    claim = Node({"id": "test/eta-1", "kind": "level", "definition": "frequency-l-diversity", "level": "l_j",
                  "symbols": {"l_j": "integer", "d_j": "integer"}, "when": ["2 <= l_j", "l_j <= d_j"],
                  "mechanism": {"set_channel": {"p": "1", "eta": "1", "domain_size": "d_j"}}})
    v = check_set_channel(claim)
    assert v.verdict == "refuted" and v.witness["release"]
