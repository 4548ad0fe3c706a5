"""An implication proved only at B's own ceiling (a bound every table of N records meets, whatever A) is no edge.

basic-beta-likeness's level is at most N - 1 on every table of N records (a class of one record holds at most the
whole table's mass: its mean is at most N times the table's), and a class's KL divergence from the table is at most
log N (the log of the largest ratio): both are reached by one record holding a value no other record has (derived by
hand below). A proof of A => B at that ceiling holds for every A and says nothing of A; Definition 3 of ekenstedt2022
counts no edge for it. Whether a smaller f holds is a separate question, open until proved (for basic
beta-likeness => KL closeness it is: every ratio is at most 1 + beta, so KL <= log(1 + beta)) or until a family
satisfying A reaches the ceiling (then the ceiling is the tight f, a vacuous implication).
"""

from __future__ import annotations

import math

import pytest

from implgraph.engines.checkedge import check_edge


def _kl(x, y):
    return sum(a * math.log(a / b) for a, b in zip(x, y) if a > 0)


def test_the_ceilings_are_reached_by_one_record_with_a_value_of_its_own():
    # N = 4 records in singleton classes: record 1 at (1, 0), the others at (0, 1); table P = (1/4, 3/4)
    N = 4
    P = (1 / N, (N - 1) / N)
    assert math.isclose(_kl((1.0, 0.0), P), math.log(N))              # KL(class 1 || P) = log N
    assert math.isclose((1.0 - P[0]) / P[0], N - 1)                     # basic beta: (P_E - P)/P = N - 1


def test_a_proof_at_the_ceiling_is_no_edge():
    """kl-closeness => basic-beta-likeness holds at N - 1 (basic beta's own ceiling) and at nothing smaller (a record
    at (K b, 1 - K b) alone, the others at (b, 1 - b): KL closeness -> 0 while beta -> N - 1; tests/test_ceiling_family.py):
    a vacuous implication, no edge; the reverse has a real f below the ceiling (every ratio <= 1 + beta, so
    KL <= log(1 + beta) < log N for small beta) and is an implication."""
    r = check_edge("basic-beta-likeness", "kl-closeness", N=3)
    back = r.backward
    assert back.relation == "implication" and back.verdict == "proved" and back.tight_all_n == "N - 1"
    assert back.vacuous and "own ceiling" in back.vacuous      # says nothing of A: never drawn or counted
    assert r.forward.relation == "implication" and "own ceiling" not in r.forward.evidence


@pytest.fixture
def undeclared():
    """p-sensitive k-anonymity's level with no capability but OnClasses (the built-in declares its k a minimum class
    size above its weakest level, which bounds both B below their ceilings; tests/test_pml_edges.py): a class level the
    prover knows nothing of, registered for the test."""
    from implgraph.definitions.base import REGISTRY, register
    from implgraph.definitions.capabilities import OnClasses
    from implgraph.definitions.zoo_syntactic import PSensitiveKAnonymity

    class Undeclared(PSensitiveKAnonymity):
        name = "p-sensitive-undeclared-test"
        declares = (OnClasses(),)
    try:
        register(Undeclared)
        yield "p-sensitive-undeclared-test(k=2)"
    finally:
        REGISTRY.pop("p-sensitive-undeclared-test", None)


def test_a_proof_only_at_the_ceiling_stays_open(undeclared):
    """A class level that declares neither a minimum class size nor a uniform class level: basic beta-likeness is
    proved only at its ceiling N - 1, which every table meets; whether A bounds it below is not derived: open."""
    d = check_edge(undeclared, "basic-beta-likeness", N=3).forward
    assert d.relation == "unknown" and d.verdict == "proved"
    assert "own ceiling" in d.evidence and "(open)" in d.evidence


def test_a_class_divergence_at_log_n_is_vacuous():
    """distinct l-diversity keeps a lone class uniform over l values at ratio N to the table: KL closeness log N, its
    ceiling, is attained whatever l: a vacuous implication (tests/test_ceiling_family.py)."""
    d = check_edge("distinct-l-diversity", "kl-closeness", N=3).forward
    assert d.relation == "implication" and d.tight_all_n == "log(N)" and d.vacuous and "own ceiling" in d.vacuous


def test_a_class_divergence_proved_only_at_log_n_is_open(undeclared):
    """A class level declaring nothing the prover reads bounds no class's ratio to the table (nor, through an
    intermediate, its distance): KL closeness is proved only at its ceiling log N (open)."""
    d = check_edge(undeclared, "kl-closeness", N=3).forward
    assert d.relation == "unknown" and "own ceiling" in d.evidence and "(open)" in d.evidence


def test_a_class_divergence_below_log_n_through_an_intermediate():
    """kl-dp bounds no class's ratio to the table, but (Pinsker on removal) a class's total variation distance from
    it, and that bounds KL closeness below log N (the chord): an upper-bound implication (tests/test_composition_params.py)."""
    d = check_edge("kl-dp", "kl-closeness", N=3).forward
    assert d.relation == "implication" and "own ceiling" not in d.evidence and "composition" in d.evidence
