"""sei2019 Lemma 1 and Theorems 1-4 judged by the engine: the facts, the checkers, a false variant refuted."""

import pytest
import sympy

from implgraph.checks.common import theorem_claim
from implgraph.checks.definedness import defined_conditions, slices_are_intervals, undefined_parts
from implgraph.checks.lp_convexity import _linear, lp_convex_in_marginal
from implgraph.checks.math_claims import check_math_claim
from implgraph.core.region import Region
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
    assert v2.verdict == "proved" and not v2.bound           # every d_j: tests/test_sei2019_class_level.py
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


X, Y = sympy.symbols("x y", real=True)
SQUARE = Region({X: "real", Y: "real"}, (X >= 0, X <= 1, Y >= 0, Y <= 1))


@pytest.mark.parametrize("expr, parts", [
    (X / Y, ["y = 0"]),                                    # a divisor
    (sympy.sqrt(X - Y), ["x - y < 0"]),                    # a radicand, no bound of the square equals it
    (1 / sympy.sqrt(X * (1 - Y)), ["x = 0", "y = 1"]),     # a radicand under a divisor: > 0 needed
    (sympy.sqrt(X + Y) + X * Y, []),
])
def test_undefined_parts_by_hand(expr, parts):
    assert [text for _, text, _ in undefined_parts(SQUARE, [expr])] == parts


def test_slices_are_intervals():
    assert slices_are_intervals(SQUARE.add(X * Y < sympy.Rational(1, 2)), X)        # linear in x
    assert slices_are_intervals(SQUARE.add(X ** 2 * Y < sympy.Rational(1, 2)), X)   # linear in x^2, x >= 0
    both_signs = Region({X: "real"}, (X >= -1, X <= 1, X ** 2 > sympy.Rational(1, 4)))
    assert not slices_are_intervals(both_signs, X)                                  # two intervals


def test_theorem_1_where_the_printed_formulas_are_undefined():
    """(9) divides by p_j^2 and d_j - eta_j; (10), (11) by the root of
    R = eta_j (d_j - 1 + p_j^2) - d_j p_j^2, and R = (d_j - 1)(1 - p_j^2) at eta_j = 1, R > 0 for eta_j > 1
    (by hand): undefined exactly at p_j = 0, eta_j = d_j, and eta_j = 1 with p_j = 1."""
    claim = theorem_claim("sei2019/theorem-1")
    context = {}
    v = check_math_claim(claim, context)
    assert v.verdict == "unknown"
    assert "exactly where p_j = 0 " in v.evidence and "else eta_j = d_j " in v.evidence
    assert "else eta_j = 1 and p_j = 1 " in v.evidence
    assert "reading_when is exactly where every formula is defined" in v.evidence
    assert v.evidence.count("equals the printed derivative") == 2
    (reading,) = context["extra_rows"]
    assert reading.verdict == "holds"
    assert "E_L2 weakly increasing in eta_j: proved" in reading.evidence
    assert "E_L2 weakly decreasing in p_j: proved" in reading.evidence


def test_theorem_1_a_wrong_derivative_is_not_confirmed():
    claim = theorem_claim("sei2019/theorem-1")
    node = Node({k: x for k, x in claim.items()})
    wrong = [dict(d) for d in claim["derivatives"]]
    wrong[0]["formula"] = "2*(" + str(wrong[0]["formula"]) + ")"    # twice (10): squares differ
    node["derivatives"] = wrong
    context = {}
    check_math_claim(node, context)
    (reading,) = context["extra_rows"]
    assert reading.verdict == "unknown" and "not confirmed" in reading.evidence


def test_defined_conditions_of_theorem_1_are_polynomials():
    d, eta, p, n = sympy.symbols("d_j eta_j p_j N", real=True)
    e_l2 = sympy.sqrt((1 - d) * (p ** 2 * d + eta - (p ** 2 + d) * eta) / (p ** 2 * d * n * (d - eta)))
    region = Region({d: "integer", eta: "real", p: "real", n: "integer"},
                    (d >= 1, eta >= 1, eta <= d, p >= 0, p <= 1, n >= 1))
    conds = defined_conditions(region, [e_l2])
    assert all(c.lhs.is_polynomial() for c in conds)
    radicand = eta * (d - 1 + p ** 2) - d * p ** 2
    assert sympy.Ge(sympy.expand(radicand), 0) in conds


def _restricted(cid, when):
    import copy
    node = copy.deepcopy(dict(theorem_claim(cid)))
    node["when"] = when
    node.pop("when_sources", None)
    return Node(node)


@pytest.mark.parametrize("cid, when", [
    ("sei2019/theorem-2", ["1 <= l_j", "l_j == d_j + 1"]),          # eta_j = l_j = d_j + 1: impossible
    ("sei2019/theorem-3", ["1 <= l_j", "l_j == d_j + 1"]),
    ("sei2019/theorem-2", ["1 <= l_j", "l_j <= d_j + 1"]),          # includes eta_j = d_j + 1
    ("sei2019/sec-VII-D/frequency-diversity-with-eta-from-l",
     ["1 <= l_j", "l_j <= eta_j", "eta_j == d_j + 1", "0 <= p_j", "p_j <= 1"]),
])
def test_a_set_size_beyond_the_domain_is_not_proved(cid, when):
    """eta_j distinct values of D(S_j) cannot be drawn when eta_j > d_j (Section V-B): the claim speaks of no release,
    so it is neither proved nor refuted by a release (the old checker ignored the `when` equality and proved the
    first three; it refuted the last with a point outside the claim's region, eta_j = 1 < l_j = 2)."""
    v = check_set_channel(_restricted(cid, when))
    assert v.verdict == "unknown" and "no release exists there" in v.evidence
    assert "1 <= eta <= domain size: not shown" in v.evidence


def test_a_when_equality_is_substituted_in_the_parameters():
    """l_j == d_j: eta_j = d_j, a set of every value, frequency level d_j = l_j: still proved."""
    v = check_set_channel(_restricted("sei2019/theorem-2", ["1 <= l_j", "l_j == d_j"]))
    assert v.verdict == "proved"
