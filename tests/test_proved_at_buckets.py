"""The attaining table's number of buckets, as the prover states it, may be a formula in N as well as in A's raw level
T (one class of N records, each over m values of its own: N m buckets); check-edge reads it at each instance's N."""

from fractions import Fraction

from implgraph.definitions.nodes import get_definition as get
from implgraph.engines.direction_prover import _proved_at
from implgraph.engines.fit import level_symbol


def test_a_bucket_count_in_n_and_t_is_read_at_the_instance():
    a, b = get("k-anonymity"), get("tv-ldp")
    _, _, buckets_at = _proved_at("1", {"N": 3}, a, b, level_symbol(a), buckets="N*(T + 1)")
    # by hand: N = 3, T = 2 gives 3 (2 + 1) = 9 buckets
    assert buckets_at(Fraction(2)) == 9


def test_a_bucket_count_outside_its_condition_is_infinite():
    a, b = get("k-anonymity"), get("tv-ldp")
    _, _, buckets_at = _proved_at("1", {"N": 3}, a, b, level_symbol(a), buckets="2*N", where="T <= N - 1")
    assert buckets_at(Fraction(2)) == 6
    assert buckets_at(Fraction(3)) == float("inf")      # T = 3 > N - 1 = 2: no attaining table there
