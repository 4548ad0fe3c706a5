"""Theorems 2-3 of sei2019 for every domain size: the class level declared for a symbolic number of values.

A class over ``k`` values with frequencies ``q_1..q_k`` has frequency level ``1/max q`` and entropy level
``exp(-sum q_i log q_i)`` (Definitions 2-3, by hand). Both are ``>= 1/max q``: the first with equality, the second
because the entropy is at least the min-entropy. The declarations are compared with the definitions' computed
levels on classes over 1..5 values, and the bounded check of the checker (k <= 5) is kept as a cross-check.
"""

import random
from fractions import Fraction

import pytest
import sympy

from implgraph.checks import set_channel
from implgraph.checks.common import theorem_claim
from implgraph.definitions.levels import optimal_level
from implgraph.core.table import table_from_rows
from implgraph.definitions._classes import GenericClass
from implgraph.definitions.base import Definition, get
from implgraph.definitions.capabilities import ClassLevel
from implgraph.io.datafile import Node
from implgraph.mechanisms.randomized_anonymization import facts

DIVERSITIES = ["frequency-l-diversity", "entropy-l-diversity"]
CLS = GenericClass()


def _classes(seed, k):
    """Three classes over k values with positive rational frequencies (deterministic)."""
    rng = random.Random(seed * 10 + k)
    out = []
    for _ in range(3):
        counts = [rng.randint(1, 9) for _ in range(k)]
        out.append([sympy.Rational(c, sum(counts)) for c in counts])
    return out


@pytest.mark.parametrize("name", DIVERSITIES)
@pytest.mark.parametrize("k", [1, 2, 3, 5])
def test_declared_level_is_the_computed_level(name, k):
    definition = get(name)
    formula = definition.declared(ClassLevel).formula(CLS)
    for probs in _classes(0, k):
        core = optimal_level(table_from_rows([probs], classes=["E"]), definition).pieces[0].value
        declared = CLS.evaluate(formula, probs)
        assert sympy.simplify(sympy.expand_log(sympy.log(declared) - sympy.log(definition.level_from_raw(core)),
                                               force=True)) == 0


def test_declared_levels_by_hand():
    probs = [sympy.Rational(1, 6), sympy.Rational(1, 3), sympy.Rational(1, 2)]
    assert CLS.evaluate(get("frequency-l-diversity").declared(ClassLevel).formula(CLS), probs) == 2
    # exp(H) = 6^(1/6) 3^(1/3) 2^(1/2)
    want = 6 ** sympy.Rational(1, 6) * 3 ** sympy.Rational(1, 3) * 2 ** sympy.Rational(1, 2)
    got = CLS.evaluate(get("entropy-l-diversity").declared(ClassLevel).formula(CLS), probs)
    assert sympy.simplify(got - want) == 0


@pytest.mark.parametrize("name", DIVERSITIES)
def test_level_at_least_inverse_max_for_every_k(name):
    steps = facts.class_level_steps(get(name))
    assert steps and all(steps.values())


def _declaring(formula):
    class Fake(Definition):
        name = "test-fake"
        declares = (ClassLevel(formula),)
    return Fake()


@pytest.mark.parametrize("formula", [
    lambda c: 1 / (2 * c.top),                                                     # below 1/max q
    lambda c: c.k,                                                                 # k >= 1/max q, but not term-wise
    lambda c: sympy.exp(-2 * sympy.Sum(c.q[c.i] * sympy.log(c.q[c.i]), (c.i, 1, c.k))),   # exp(2H): true, not shown
    lambda c: sympy.exp(-sympy.Sum(c.q[c.i + 1] * sympy.log(c.q[c.i]), (c.i, 1, c.k))),   # mixes two indices
    lambda c: 1 / c.q[1],                                                          # q outside a sum
    lambda c: c.i / c.top,                                                         # the index outside a sum
])
def test_what_the_term_wise_rule_does_not_prove(formula):
    assert not all(facts.class_level_steps(_declaring(formula)).values())


def test_what_the_term_wise_rule_proves():
    assert all(facts.class_level_steps(_declaring(lambda c: 2 / c.top)).values())      # 2/max q >= 1/max q
    assert facts.class_level_steps(get("k-anonymity")) is None                          # nothing declared


@pytest.mark.parametrize("name", DIVERSITIES)
def test_the_bounded_step_agrees(name):
    """The k <= 5 check (the core's level with symbolic frequencies) still holds: the cross-check."""
    assert set_channel._class_level_bound_of(name) is True


def test_without_a_declaration_the_verdict_is_bounded(monkeypatch):
    monkeypatch.setattr(facts, "class_level_steps", lambda definition: None)
    v = set_channel.check_set_channel(theorem_claim("sei2019/theorem-3"))
    assert v.verdict == "verified-bounded" and v.bound == "d_j <= 5"


@pytest.mark.parametrize("cid", ["sei2019/theorem-2", "sei2019/theorem-3",
                                 "sei2019/sec-VII-D/entropy-diversity-with-eta-from-l"])
def test_theorems_2_3_proved(cid):
    v = set_channel.check_set_channel(theorem_claim(cid))
    assert v.verdict == "proved" and "any number k of values" in v.evidence


# -- Table V (Section VII-C) ---------------------------------------------------------------------------------

def test_whole_domain_facts():
    p = sympy.Symbol("p", positive=True)
    d = sympy.Symbol("d", integer=True, positive=True)
    assert facts.whole_domain_release(p, d) and facts.whole_domain_release(0, 4)
    assert facts.posterior_of_whole_domain() and facts.emd_to_itself()


def test_table_v_is_zero_closeness_for_every_domain():
    v = set_channel.check_set_channel(theorem_claim("sei2019/sec-VII-C/table-V-zero-closeness"))
    assert v.verdict == "proved"


def _table_v_variant(eta, when, p="1", level="0"):
    claim = dict(theorem_claim("sei2019/sec-VII-C/table-V-zero-closeness"))
    claim["mechanism"] = {"set_channel": {"p": p, "eta": eta, "domain_size": "d_j", "inference": "bayes"}}
    claim["when"], claim["level"], claim["id"] = when, level, "test/table-v-variant"
    claim.pop("when_sources", None)
    return Node(claim)


def test_one_value_fewer_is_refuted():
    """eta = d - 1 with p = 1: d = 2 releases the true value, whose posterior is a point mass (by hand: records
    (0, 1), A = (1/2, 1/2), a class of one record at EMD 1/2 > 0)."""
    v = set_channel.check_set_channel(_table_v_variant("d_j - 1", ["d_j >= 2"]))
    assert v.verdict == "refuted" and Fraction(v.witness["class_emd"]) > 0


def test_a_weaker_level_and_a_case_outside_the_argument():
    assert set_channel.check_set_channel(_table_v_variant("d_j", ["d_j >= 1"], level="1/2")).verdict == "proved"
    # p = 0: the release ignores the record, so B_j = A_j (true), but the symbolic argument covers only eta = d
    w = set_channel.check_set_channel(_table_v_variant("1", ["d_j >= 2"], p="0"))
    assert w.verdict == "unknown" and "only eta = d" in w.evidence
