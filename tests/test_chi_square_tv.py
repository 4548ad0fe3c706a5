"""A Renyi level of order 2 against the total variation (docs/arguments/chi-square-tv.md): c = e^T - 1, tight for
every N: sqrt(c/(c + 4)) between records, that over N on record removal, min(sqrt(c)/2, max(1/2, c/(1 + c)),
(N - 1)/N) for a class against the table.

Hand values:

- renyi-ldp(2) => tv-ldp at c = 4/3 (T = log(7/3)): U = sqrt((4/3)/(16/3)) = 1/2. Records (3/4, 1/4), (1/4, 3/4):
  chi^2 = (1/2)^2/(1/4) + (1/2)^2/(3/4) = 4/3 both ways, TV = 1/2 (Pinsker's bound: sqrt(log(7/3)/2) = 0.65).
- => tv-dp at N = 3, the same c: U = 1/6. Records (3/4, 1/4), (1/4, 3/4) twice: P = (5/12, 7/12), removing the first
  leaves (1/4, 3/4), TV = 1/6.
- renyi-closeness(2) => emd(ground = equal), classes {x} and the rest: N = 2, c = 1/4: x = (3/4, 1/4), z = (1/4, 3/4),
  P = (1/2, 1/2): chi^2(x || P) = 2 (1/4)^2/(1/2) = 1/4, TV = 1/4 = sqrt(1/4)/2; N = 4, c = 2: x = (1, 0), three at
  (1/9, 8/9), P = (1/3, 2/3): chi^2(x || P) = (1 - 1/3)/(1/3) = 2, the rest's 2/9, TV = 2/3 = c/(1 + c) (below
  sqrt(2)/2 and 3/4); N = 3, c = 1 (the pieces meet): x = (1, 0), two at (1/4, 3/4), P = (1/2, 1/2), chi^2 = 1,
  TV = 1/2; N = 2, c = 8 (the cap): x = (1, 0), z = (0, 1), chi^2 = 1 <= 8, TV = 1/2 = (N - 1)/N.
"""

from __future__ import annotations

import copy
import itertools
import random
from fractions import Fraction as F

import pytest
import sympy

import brute
from implgraph.certify import check_certificate
from implgraph.engines.prove import check_implication


def _chi(x, y):
    """chi^2(x || y); None where x is not dominated by y."""
    if any(b == 0 and a != 0 for a, b in zip(x, y)):
        return None
    return sum((a - b) ** 2 / b for a, b in zip(x, y) if b != 0)


def _tv(x, y):
    return sum(abs(a - b) for a, b in zip(x, y)) / 2


def _mean(rows):
    return [sum(col) / len(rows) for col in zip(*rows)]


def _pairs(rows):
    """(largest chi^2 between two records both ways, largest TV between records, largest TV(P, Q_i))."""
    chis = [_chi(x, y) for x, y in itertools.permutations(rows, 2)]
    P = _mean(rows)
    removal = max(_tv(P, _mean(rows[:i] + rows[i + 1:])) for i in range(len(rows)))
    return (None if None in chis else max(chis), max(_tv(x, y) for x, y in itertools.permutations(rows, 2)),
            removal)


def _classes(rows, labels):
    """(largest chi^2(class || P), largest TV(class, P))."""
    P = _mean(rows)
    means = [_mean([r for r, k in zip(rows, labels) if k == lab]) for lab in set(labels)]
    chis = [_chi(m, P) for m in means]
    return max(chis), max(_tv(m, P) for m in means)


def _below_pair(t, c):
    """t <= sqrt(c/(c + 4)), exactly."""
    return t * t * (c + 4) <= c


def _below_class(t, c, n):
    """t <= min(sqrt(c)/2, max(1/2, c/(1 + c)), (n - 1)/n), exactly."""
    return 4 * t * t <= c and t <= max(F(1, 2), c / (1 + c)) and t <= F(n - 1, n)


def test_hand_values():
    x, y = [F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)]
    assert _pairs([x, y]) == (F(4, 3), F(1, 2), F(1, 4))
    assert _pairs([x, y, y])[2] == F(1, 6)
    assert _classes([x, y], ["E1", "E2"]) == (F(1, 4), F(1, 4))
    c, t = _classes([[F(1), F(0)]] + [[F(1, 9), F(8, 9)]] * 3, ["E1", "E2", "E2", "E2"])
    assert (c, t) == (F(2), F(2, 3))
    assert _classes([[F(1), F(0)]] + [[F(1, 4), F(3, 4)]] * 2, ["E1", "E2", "E2"]) == (F(1), F(1, 2))
    assert _classes([[F(1), F(0)], [F(0), F(1)]], ["E1", "E2"]) == (F(1), F(1, 2))


def test_brute_no_table_above_the_bounds():
    rng = random.Random(29)
    seen = 0
    for _ in range(2000):
        n = rng.randint(2, 4)
        rows = brute.random_rows(rng, n, rng.randint(2, 3), high=5)
        c, tv, removal = _pairs(rows)
        if c is not None:
            seen += 1
            assert _below_pair(tv, c) and _below_pair(n * removal, c)
        labels = [rng.choice("AB") for _ in rows]
        cc, t = _classes(rows, labels)
        if cc is not None:
            assert _below_class(t, cc, n)
    assert seen > 300


CASES = [("renyi-ldp", "tv-ldp", 2, F(4, 3), F(1, 2)), ("renyi-ldp", "tv-dp", 3, F(4, 3), F(1, 6)),
         ("renyi-closeness", "emd-t-closeness", 2, F(1, 4), F(1, 4)),
         ("renyi-closeness", "emd-t-closeness", 4, F(2), F(2, 3)),
         ("renyi-closeness", "emd-t-closeness", 3, F(1), F(1, 2)),
         ("renyi-closeness", "emd-t-closeness", 2, F(8), F(1, 2))]

_B_PARAMS = {"tv-ldp": {}, "tv-dp": {}, "emd-t-closeness": {"ground": "equal"}}


@pytest.fixture(scope="module")
def results():
    return {(a, b): check_implication(a, b, a_params={"alpha": sympy.Integer(2)}, b_params=_B_PARAMS[b], max_n=2)
            for a, b in {(a, b) for a, b, *_ in CASES}}


@pytest.mark.parametrize("a,b,n,c,hand", CASES)
def test_proved_tight_for_every_n_and_rechecked(results, a, b, n, c, hand):
    r = results[(a, b)]
    assert r.verdict == "proved" and r.method == "chi-square-tv", (a, b, r.method)
    cert = r.details["certificate"]
    assert cert["tight"] and check_certificate(cert).ok
    N, d = sympy.Symbol("N", integer=True), sympy.Symbol("d", positive=True)
    f = sympy.sympify(str(r.tight), locals={"N": N, "d": d})
    assert sympy.simplify(f.subs({N: n, d: sympy.log(1 + sympy.Rational(c.numerator, c.denominator))}) - hand) == 0


def test_forgeries_are_rejected(results):
    cert = results[("renyi-ldp", "tv-ldp")].details["certificate"]
    bad = check_certificate({**cert, "upper": "sqrt(exp(T) - 1)/sqrt(exp(T) + 4)"})   # below the bound
    assert not bad.ok and any("U is the lemma's value" in s[0] and not s[1] for s in bad.steps)
    fam = copy.deepcopy(cert["tightness"])
    fam["rows"][1]["value"] = "1/2"
    assert not check_certificate({**cert, "tightness": fam}).ok
    assert not check_certificate({**cert, "upper_certificate": {**cert["upper_certificate"], "case": "removal"}}).ok
    cls = results[("renyi-closeness", "emd-t-closeness")].details["certificate"]
    assert not check_certificate({**cls, "upper": cls["upper"].replace("Max(1/2", "Max(1/3")}).ok
    fam = copy.deepcopy(cls["tightness"])
    fam["rows"][0]["count"] = "2"
    fam["rows"][1]["count"] = "N - 2"
    assert not check_certificate({**cls, "tightness": fam}).ok


def test_a_symbolic_order_is_not_this_arguments():
    from implgraph.definitions import get
    from implgraph.definitions.divergences import divergence_of
    from implgraph.prover.arguments.chi_square_tv import case_of
    alpha = sympy.Symbol("alpha", positive=True)
    b = divergence_of(get("tv-ldp"), {})
    assert case_of(divergence_of(get("renyi-ldp"), {"alpha": alpha}), b, None, None) is None
    assert case_of(divergence_of(get("renyi-ldp"), {"alpha": sympy.Integer(3)}), b, None, None) is None
    assert case_of(divergence_of(get("renyi-ldp"), {"alpha": sympy.Integer(2)}), b, None, None) == "pairs"
