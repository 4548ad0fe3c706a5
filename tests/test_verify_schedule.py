"""implgraph.checks.verify.claim_cost: the static cost estimate the workers' order comes from."""

import pytest

from implgraph.checks.verify import claim_cost, work_units


@pytest.mark.parametrize("claim, cost", [
    ({"kind": "level"}, 0.5),
    ({"kind": "no-such-kind"}, 0.5),
    ({"kind": "math", "grid": {}, "channels": {}}, 0.1 + 2.5),            # the largest heavy field only
    ({"kind": "math", "definitions": {}}, 0.1 + 1.0),
    ({"kind": "math", "grid": {}, "reading_channels": {"x": 1}}, (0.1 + 2.5) * 1.6),
    ({"kind": "not-implies", "reading_kind": "not-implies"}, 1.0 * 1.6),
    ({"kind": "not-implies", "reading_kind": None}, 1.0),                 # an empty reading is none
    ({"kind": "reachability"}, 2.5),
])
def test_claim_cost(claim, cost):
    assert claim_cost(claim) == pytest.approx(cost)


def test_work_units_longest_first():
    """A table's claims add up: two level claims (0.5 + 0.5) go before one implication (0.5), after a
    reachability claim (2.5)."""
    claims = [{"id": "e", "kind": "implies"},
              {"id": "t/a", "kind": "level", "_table": "t"},
              {"id": "r", "kind": "reachability"},
              {"id": "t/b", "kind": "level", "_table": "t"}]
    assert work_units(claims) == [["r"], ["t/a", "t/b"], ["e"]]
