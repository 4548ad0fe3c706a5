"""The supremum of a subset ratio given a smaller one (engines.bounds.subset_supremum): Lemma 2.1 / 3.1 of
ekenstedt2022 with their exact tight f for every N.

Hand facts (q = min(j_B, N - j_A), F(T) = T where (N - q) T >= q, q / (N - (N - q) T) below):
N = 3, j_A = 1, j_B = 2: q = 2, F(3/2) = min(3/2, 2/(3 - 3/2)) = 4/3, F(2) = 2; N = 4, j_A = 1, j_B = 3:
q = 3, F(2) = 3/(4 - 2) = 3/2, F(3) = 3; N = 5, j_A = 1, j_B = 3: q = 3, F(5/4) = 3/(5 - 5/2) = 6/5; N = 8,
j_A = 1, j_B = 2: q = 2 <= N/2, F(T) = T. Attainment and the bound are checked with tests/brute.py.
"""

import random
from fractions import Fraction as Fr

import pytest
import sympy

import brute
from implgraph.core.region import Region
from implgraph.engines.bounds import T, subset_supremum

N, JA, JB = sympy.symbols("N j_A j_B", integer=True)
REGION = Region({N: "integer", JA: "integer", JB: "integer", T: "real"},
                (T >= 1, N >= 2, 1 <= JA, JA <= JB, JB <= N - 1))
BOUND = subset_supremum(JA, JB, REGION, N)


def F(n, ja, jb, t):
    return Fr(str(BOUND.upper.subs({N: n, JA: ja, JB: jb, T: sympy.Rational(str(t))})))


def test_every_step_decided():
    assert BOUND is not None and all(c.endswith(": True") for c in BOUND.checks)


@pytest.mark.parametrize("n,ja,jb,t,want", [
    (3, 1, 2, Fr(3, 2), Fr(4, 3)), (3, 1, 2, 2, 2), (4, 1, 3, 2, Fr(3, 2)), (4, 1, 3, 3, 3),
    (5, 1, 3, Fr(5, 4), Fr(6, 5)), (8, 1, 2, 5, 5), (4, 2, 3, Fr(3, 2), Fr(3, 2)), (6, 1, 1, 2, 2)])
def test_hand_values(n, ja, jb, t, want):
    assert F(n, ja, jb, t) == want


def _rows(ct):
    return [[Fr(str(x)) for x in r] for r in ct.to_rows()]


CASES = [(n, ja, jb, t) for n in range(2, 9) for ja in range(1, n) for jb in range(ja, n)
         for t in (Fr(5, 4), Fr(3, 2), Fr(2), Fr(3))]


@pytest.mark.parametrize("n,ja,jb,t", CASES)
def test_attained_by_the_two_block_table(n, ja, jb, t):
    rows = _rows(BOUND.build({N: n, JA: ja, JB: jb, T: sympy.Rational(str(t))}))
    assert brute.kt(rows, ja) <= t
    assert brute.kt(rows, jb) == F(n, ja, jb, t)


@pytest.mark.parametrize("seed", range(60))
def test_bound_holds_on_random_tables(seed):
    rng = random.Random(seed)
    n, p = rng.randint(2, 7), rng.choice([2, 2, 3])
    ja = rng.randint(1, n - 1)
    jb = rng.randint(ja, n - 1)
    rows = []
    for _ in range(n):
        w = [Fr(rng.randint(0, 5)) for _ in range(p)]
        if sum(w) == 0:
            w[0] = Fr(1)
        rows.append([x / sum(w) for x in w])
    a = brute.kt(rows, ja)
    if a == brute.INF:
        return
    assert brute.kt(rows, jb) <= F(n, ja, jb, a)


@pytest.mark.parametrize("n,k0,k1", [(n, k0, k1) for n in range(3, 7) for k0 in range(1, n) for k1 in range(1, k0 + 1)])
def test_lemma_3_1_subset_sizes_by_brute_force(n, k0, k1):
    """(k, eps)-DP removes k records: its subset size is N - k (Lemma 3.1: j_A = N - k0 <= j_B = N - k1)."""
    t = Fr(3, 2)
    rows = _rows(BOUND.build({N: n, JA: n - k0, JB: n - k1, T: sympy.Rational(3, 2)}))
    assert brute.kdp(rows, k0) <= t
    assert brute.kdp(rows, k1) == F(n, n - k0, n - k1, t)


def test_theorem_2a_says_exactly_where_the_printed_f_is_tight():
    """Theorem 2a: (1, t)-closeness => ln(t^2)-LDP; the tight f is ln(min(t^2, N (t - 1) + 1)) (the product
    argument), so the printed f is tight exactly where t^2 <= N (t - 1) + 1."""
    from implgraph.checks import check_claim
    from implgraph.io.theorems import load_claims
    claim = {str(c.get("id")): c for c in load_claims()}["ekenstedt2022/theorem-2a"]
    v = check_claim(claim)
    assert v.verdict == "proved"
    t = sympy.Symbol("t", real=True)
    where = sympy.sympify(v.details["tight_where"], locals={"t": t, "N": sympy.Symbol("N", integer=True)})
    n = sympy.Symbol("N", integer=True)
    assert where.subs({n: 4, t: 2}) is sympy.true        # 4 <= 4*1 + 1
    assert where.subs({n: 3, t: 3}) is sympy.false       # 9 > 3*2 + 1
