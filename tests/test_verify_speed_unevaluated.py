"""Questions built unevaluated for speed (checks.intruder_views, checks.utility_equation): the answers are the region's.

The intruder-views tightness family's bounds and the utility equation's ``engine != printed`` are handed to the
region's decision as they are written, without sympy first ordering their sides through the symbols' assumptions;
these tests check the decisions by values derived by hand, and that a false bound or a real difference is still found.
"""

import sympy

from implgraph.checks import intruder_views
from implgraph.checks.utility_equation import _judge_equal
from implgraph.core.region import Region

T = sympy.Symbol("T", positive=True)
N = sympy.Symbol("N", integer=True, positive=True)


def test_the_views_family_holds_for_every_T_and_N():
    # p = 1/(2(T + 1)), E1 = T p, E2 = p/T, T >= 1. On a1: E1 T = T^2 p >= p, E1 = T p; E2 T = p, E2 = p/T <= T p.
    # On a2 (1 - v against 1 - p): (1 - T p) T - (1 - p) = (T - 1)(1 - p (T + 1)) = (T - 1)/2 >= 0 and
    # T (1 - p) - (1 - T p) = T - 1 >= 0; (1 - p/T) T - (1 - p) = T - 1 >= 0 and
    # T (1 - p) - (1 - p/T) = (T - 1)(1 - p (T + 1)/T) = (T - 1)(1 - 1/(2 T)) >= 0. The E3 rows, the mean and
    # E1/E2 = T^2 are the family's other conditions (all True on T >= 1, N >= T + 1, N >= 3).
    holds = intruder_views._family_holds(T, N)
    assert len(holds) == 8
    assert all(v is True for v in holds.values()), holds


def test_a_family_outside_the_band_is_not_proved(monkeypatch):
    # E2 = p/T^2 instead of p/T: E2 T = p/T < p for every T > 1, so "E2 within [P/T, T P] on a1" fails there
    # (it holds at T = 1 only): not True
    real = intruder_views._family

    def wrong(t, n):
        family, where = real(t, n)
        p = 1 / (2 * (t + 1))
        return [family[0], (1, p / t ** 2, "E2"), family[2]], where
    monkeypatch.setattr(intruder_views, "_family", wrong)
    holds = intruder_views._family_holds(T, N)
    assert holds["E2 within [P/T, T P] on a1"] is not True
    assert holds["E1 within [P/T, T P] on a1"] is True


x = sympy.Symbol("x", real=True)
REGION = Region({x: "real"}, (x >= 0, x <= 1))


def test_equal_forms_are_proved_equal():
    # x (x + 1) and x^2 + x are one polynomial: no point where they differ, and the equality is proved
    out = _judge_equal(REGION, x * (x + 1), x ** 2 + x, recheck=lambda point: point)
    assert out == {"decided": True, "witness": None}


def test_a_difference_gives_a_rechecked_witness():
    # x + 1 - x = 1 != 0 at every point: the point found is handed to the re-check, whose answer is the witness
    seen = []

    def recheck(point):
        seen.append(point)
        return {"at": point}
    out = _judge_equal(REGION, x, x + 1, recheck=recheck)
    assert out["decided"] is False
    assert out["witness"] == {"at": seen[0]}
    assert 0 <= seen[0][x] <= 1
