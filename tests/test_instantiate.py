"""Rules compiled for instantiation at concrete group counts (implgraph.map.instantiate)."""

import pytest
import sympy

from implgraph.map.instantiate import CompiledRule, _compiled_side
from implgraph.map.rules import N_SYM, Endpoint, Rule

k = sympy.Symbol("k", integer=True)
KW = sympy.Symbol("_kw", integer=True)


def _rule(a_params, b_params, kind="implies"):
    a = Endpoint("X", tuple(a_params.items()))
    b = Endpoint("Y", tuple(b_params.items()))
    return Rule(claim="test/rule", kind=kind, basis="printed", a=a, b=b, kinds={k: "integer"})


@pytest.mark.parametrize("node_k, N, expected", [
    (3, 5, 2),      # N - k = 3 at N = 5: k = 2
    (1, 4, 3),      # N - k = 1 at N = 4: k = 3
])
def test_unify_inverts_a_parameter(node_k, N, expected):
    comp = CompiledRule(_rule({"k": N_SYM - k}, {"k": k}), KW)
    assert comp.unify(0, {"k": node_k}, {"N": N}) == {"N": N, "k": expected}


def test_unify_rejects_a_non_integer_solution():
    comp = CompiledRule(_rule({"k": 2 * k}, {"k": k}), KW)
    assert comp.unify(0, {"k": 3}, {"N": 6}) is None       # 2 k = 3: no integer k
    assert comp.unify(0, {"k": 4}, {"N": 6}) == {"N": 6, "k": 2}


def test_a_rule_end_is_compiled_once():
    # two equal rules (e.g. the same rule for each N of a map) share the compiled ends
    first = CompiledRule(_rule({"k": N_SYM - k}, {"k": k}), KW)
    second = CompiledRule(_rule({"k": N_SYM - k}, {"k": k}), KW)
    assert first.sides[0] is second.sides[0] and first.sides[1] is second.sides[1]
    assert _compiled_side.cache_info().hits >= 2
