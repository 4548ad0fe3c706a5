"""A ``solution:`` claim is read on its ``when`` region, the equalities x == e substituted (they were dropped)."""

from implgraph.checks.unique_solution import check_unique_solution


def _claim(when, solution):
    return {"id": "t/unique", "kind": "math", "claim": "a x = 1 has one solution", "formula": "a*x == 1",
            "solution": solution, "symbols": {"a": "real", "x": "real"}, "when": when}


def test_an_equality_of_when_is_substituted():
    # by hand: with a = 2 the equation 2 x = 1 has the one solution x = 1/2 (the claim holds); read without
    # a = 2, the solution 1/a differs from 1/2 and the claim was refuted
    assert check_unique_solution(_claim(["a == 2"], "x == 1/2")).verdict == "holds"


def test_a_wrong_solution_stays_refuted():
    # by hand: with a = 2 the solution is 1/2, not 1/3
    assert check_unique_solution(_claim(["a == 2"], "x == 1/3")).verdict == "refuted"


def test_no_solution_where_the_coefficient_vanishes():
    # by hand: with a = 0 the equation 0 = 1 has no solution: nothing to hold
    assert check_unique_solution(_claim(["a == 0"], "x == 1")).verdict == "refuted"
