"""``same-level`` for B one side of A's two-sided ratio over the same record sets (local information privacy =>
pointwise maximal leakage): B's ratios are some of A's, so B's raw level is at most A's; values by hand and by
tests/brute.py."""

from __future__ import annotations

import copy
import random
from fractions import Fraction

import pytest
import sympy

from implgraph.certify import check_certificate
from implgraph.engines.prove import check_implication

import brute


def _lip_raw(rows):
    """The largest of x_i(l)/P(l) and P(l)/x_i(l) over records and buckets of positive mean (oo where x_i(l) = 0)."""
    n, p = len(rows), len(rows[0])
    best = Fraction(1)
    for l in range(p):
        P = sum(r[l] for r in rows) / n
        if P == 0:
            continue
        for r in rows:
            if r[l] == 0:
                return None
            best = max(best, r[l] / P, P / r[l])
    return best


def test_pml_is_at_most_lip_and_log_N_on_random_tables():
    rng = random.Random(7)
    for _ in range(300):
        N = rng.randint(2, 5)
        rows = brute.random_rows(rng, N, rng.randint(2, 4))
        pml = brute.subset_upper(rows, 1)
        lip = _lip_raw(rows)
        assert pml <= N
        if lip is not None:
            assert pml <= lip


@pytest.fixture(scope="module")
def lip_pml():
    """The same-level argument's own bound for lip => pml (B one side of A's ratio), built directly: the prover's
    answer for the pair is now the tight subset-to-one-sided bound, tried first (same-level's one side is last)."""
    from implgraph.core.region import Region
    from implgraph.prover.answer import T
    from implgraph.prover.arguments.same_level import one_side_of
    from implgraph.prover.certificate import certificate
    from implgraph.prover.context import ProofContext
    N = sympy.Symbol("N", integer=True)
    ctx = ProofContext.build("lip", "pml", {}, {}, Region({N: "integer"}, (T >= 1, N >= 2)), N)
    bound = one_side_of(ctx)
    return bound, certificate(ctx.a, ctx.b, {}, {}, None, None, ctx.region, N, bound)


def _part(r):
    return r[1]


def test_lip_implies_pml_at_the_smaller_of_eps_and_log_N(lip_pml):
    # by hand: pml <= lip (one side of the two-sided ratio): the same-level bound T, an upper bound
    bound, part = lip_pml
    assert bound.method == "same-level" and str(bound.upper) == "T" and not bound.tight
    assert part["upper"] == "T" and part["tight"] is False and check_certificate(part).ok
    # the prover's answer: tight, the largest value of a bucket within [P/T, T P] (tests/test_pml_edges.py):
    # M <= T and M <= N - (N - 1)/T (the others >= 1/T), both attained; below log(Min(N, e^eps))
    r = check_implication("lip", "pml")
    assert r.verdict == "proved" and r.tightness == "tight"
    N, eps = sympy.Symbol("N", integer=True, positive=True), sympy.Symbol("eps", positive=True)
    by_hand = sympy.log(sympy.Min(N - (N - 1) * sympy.exp(-eps), sympy.exp(eps)))
    for n, e in ((2, sympy.Rational(1, 3)), (5, 1), (10, 3), (40, sympy.Rational(7, 2))):   # each side the smaller
        got = r.tight.subs({s: v for s in r.tight.free_symbols for v in [n if s.name == "N" else e]})
        assert sympy.simplify(got - by_hand.subs({N: n, eps: e})) == 0


def test_a_one_sided_part_claiming_tightness_is_rejected(lip_pml):
    bad = copy.deepcopy(_part(lip_pml))
    bad["tight"] = True
    assert not check_certificate(bad).ok


def test_the_converse_sides_are_rejected(lip_pml):
    # A one-sided, B two-sided: A's ratios are some of B's, nothing bounds B's other side
    bad = copy.deepcopy(_part(lip_pml))
    bad["A"], bad["B"] = bad["B"], bad["A"]
    assert not check_certificate(bad).ok


def test_pml_does_not_imply_lip():
    # one record (0, 1), one (1, 0): pml = log 2, lip = oo (a record at 0 where the table is positive)
    assert check_implication("pml", "lip").verdict != "proved"
    assert brute.subset_upper([[Fraction(0), Fraction(1)], [Fraction(1), Fraction(0)]], 1) == 2
    assert _lip_raw([[Fraction(0), Fraction(1)], [Fraction(1), Fraction(0)]]) is None


def test_a_tight_argument_for_the_same_pair_goes_first():
    # mult-t-closeness (two-sided class ratio) => basic-beta-likeness (its one side): one-sided-class proves the tight
    # Min(t, (N t - N + 1)/t) - 1 (hand: a class mean is at most t P and the rest's mean at least P/t), below t - 1
    r = check_implication("mult-t-closeness", "basic-beta-likeness")
    assert r.verdict == "proved" and r.method == "one-sided-class" and r.tightness == "tight"
