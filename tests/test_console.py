"""Terminal output (implgraph.io.console) and the conditions printed with piecewise results
(implgraph.core.conditions): expected values derived by hand."""

from __future__ import annotations

import sympy
import pytest

from implgraph.core.conditions import (condition_text, merge_disjuncts, pair_equalities, simplify_condition,
                                       simplify_pieces)
from implgraph.core.region import Region
from implgraph.io import console

a, m, s = sympy.symbols("alpha mu sigma", real=True)
k, N = sympy.symbols("k N", integer=True)
KINDS = {a: "real", m: "real", s: "real", k: "integer", N: "integer"}


def region(*conds):
    return Region(KINDS, tuple(conds))


# ---- conditions -------------------------------------------------------------------------------

def test_the_issue_example_is_alpha_below_mu():
    """On 0 < alpha <= mu: (alpha < mu < 2 alpha) or mu = 2 alpha or mu > 2 alpha is mu > alpha."""
    cond = ((a < m) & (m < 2 * a)) | ((m >= 2 * a) & (m <= 2 * a)) | ((m >= 2 * a) & (m > 2 * a))
    assert simplify_condition(cond, region(0 < a, a <= m)) == (a < m)


def test_a_bound_against_the_region_becomes_an_equality():
    """k <= 2 where the region says 2 <= k is k = 2."""
    assert simplify_condition(k <= 2, region(2 <= k, k <= N - 1)) == sympy.Eq(k, 2)


@pytest.mark.parametrize("cond, expected", [
    (m > 2, sympy.false),          # contradicts mu <= 1
    (m <= 3, sympy.true),          # implied by mu <= 1
])
def test_decided_conditions(cond, expected):
    assert simplify_condition(cond, region(0 < m, m <= 1)) is expected


def test_a_piece_contradicting_the_region_is_never_printed():
    pieces = [("A", m < a), ("B", m >= a)]
    assert simplify_pieces(pieces, region(0 < a, a < m)) == [("B", sympy.true)]


def test_undecidable_conditions_are_kept_equivalent():
    """sigma < mu neither holds nor fails everywhere on 0 < sigma, 0 < mu: kept as it is."""
    assert simplify_condition(s < m, region(0 < s, 0 < m)) == (s < m)


def test_pair_equalities_and_merge():
    assert pair_equalities((m >= 2 * a) & (m <= 2 * a)) == sympy.Eq(m, 2 * a)
    merged = merge_disjuncts((sympy.Eq(m, 2 * a) & (N > 1)) | ((m > 2 * a) & (N > 1)))
    assert merged == ((m >= 2 * a) & (N > 1))
    assert merge_disjuncts(((s >= 1) & (m < s)) | ((s < 1) & (m < s))) == (m < s)


def test_integer_bounds_join_and_intersect():
    """For integers k <= 2 and k >= 3 cover everything, N = 2k and N >= 2k + 1 are N >= 2k, and
    N <= 2k & N <= 2k - 1 is N <= 2k - 1 (by hand)."""
    assert merge_disjuncts(((N >= k + 3) & (k >= 3)) | ((N >= k + 3) & (k <= 2))) == (N >= k + 3)
    assert merge_disjuncts(sympy.Eq(N, 2 * k) | (N >= 2 * k + 1)) == (N >= 2 * k)
    assert pair_equalities((N <= 2 * k) & (N <= 2 * k - 1)) == (N <= 2 * k - 1)
    assert pair_equalities((N >= 2 * k) & (N <= 2 * k - 1)) is sympy.false
    # reals: mu < 1 and mu >= 1 cover everything; mu > 1/2 and mu < 1/2 leave 1/2 out (not merged)
    assert merge_disjuncts(((m < 1) & (a > 0)) | ((m >= 1) & (a > 0))) == (a > 0)
    half = sympy.Rational(1, 2)
    assert merge_disjuncts((m > half) | (m < half)) == ((m > half) | (m < half))


def test_condition_text():
    assert condition_text(sympy.Eq(m, 2 * a) & (N > 1)) in ("(N > 1) & (mu = 2*alpha)", "(mu = 2*alpha) & (N > 1)")
    assert condition_text(m < a) == "mu < alpha"


# ---- console -----------------------------------------------------------------------------------

def test_piped_rows_are_whole_lines(capsys):
    body = "word " * 200
    console.emit_row(["id", console.verdict_text("proved", 16)], body, ["detail " * 100], indent=4)
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 2
    assert out[0].startswith("id  proved") and out[0].rstrip().endswith(body.strip())
    assert out[1].rstrip() == "    " + ("detail " * 100).rstrip()
    assert "..." not in "".join(out) and "\x1b" not in "".join(out)


@pytest.mark.parametrize("word, style", [("proved", "green"), ("holds-not-tight", "green"),
                                         ("refuted", "bold red"), ("unknown", "yellow")])
def test_verdict_colour_by_status(word, style):
    assert str(console.verdict_text(word).style) == style


def test_progress_off_when_not_a_terminal():
    bar = console.Progress(3, "x")
    bar.step("a")
    bar.close()
    assert not bar.enabled and bar.done == 1


def test_verbosity_is_clamped():
    try:
        console.set_verbosity(5)
        assert console.verbosity() == console.VERBOSE
        console.set_verbosity(-5)
        assert console.verbosity() == console.QUIET
    finally:
        console.set_verbosity(console.NORMAL)


def test_tidy_conditions_in_printed_results():
    """Conditions inside an engine's text rewritten exactly without a region (by hand: for every real
    sigma, 4 sigma >= 1 and 4 sigma <= 1 is 4 sigma = 1; 4 alpha > 1, = 1 or < 1 with 2 alpha < 1 is
    2 alpha < 1); prose and names sympy would read as constants are left alone."""
    from implgraph.io.pieces_text import tidy_conditions
    text = "B = kdp: log(3) if (4*sigma >= 1) & (4*sigma <= 1); oo if 4*sigma < 1 -> oo"
    assert tidy_conditions(text) == "B = kdp: log(3) if 4*sigma = 1; oo if 4*sigma < 1 -> oo"
    text = ("log(5/4) if ((4*alpha > 1) & (2*alpha < 1)) | ((4*alpha >= 1) & (4*alpha <= 1) & (2*alpha < 1)) | "
            "((4*alpha <= 1) & (2*alpha < 1) & (4*alpha < 1)) -> x")
    assert tidy_conditions(text) == "log(5/4) if 2*alpha < 1 -> x"
    assert tidy_conditions("it holds if the table is small; done") == "it holds if the table is small; done"
    assert tidy_conditions("1 if (E >= 2) & (E <= 2)") == "1 if E = 2"
