"""One record against the table at most T (pml: a one-sided subset level of size 1) against a class's KL or Renyi-2
divergence from the table: tight for every N, piece by piece in T (implgraph.prover.removal_record_class).

Hand values: a record's ratio a = x_i(l)/P_l is N minus the others' N - 1 ratios, each <= T, so a >= N - (N - 1) T
(> 0 exactly where T < N/(N - 1)); the others' are >= 0, so a <= N; a class's ratio is an average of its records'.
The chord of phi on [lo, hi] has mass L = (1 - lo)/(hi - lo) at hi:

- T < N/(N - 1): [N - (N - 1) T, T], L = (N - 1)/N: KL ((N - 1) T log T + lo log lo)/N, Renyi-2
  log(((N - 1) T^2 + lo^2)/N). At N = 2, T = 3/2 (lo = 1/2): KL (3/4) log(3/2) - (1/4) log 2, Renyi-2 log(5/4); at
  N = 3, T = 5/4 (lo = 1/2): KL (5/6) log(5/4) - (1/6) log 2, Renyi-2 log(9/8);
- N/(N - 1) <= T <= N: [0, T], L = 1/T: log T for both;
- T > N: [0, N], L = 1/N: log N for both.

The attaining tables (tests/brute.py's subset_upper at k = 1 is pml's raw level): below N/(N - 1) one record at
(T (N - 1)/N, 1 - T (N - 1)/N) alone and N - 1 at ((N - T)/N, T/N); between, one record at (1, 0) alone and N - 1 at
((N/T - 1)/(N - 1), ...); beyond N, one record at (1, 0) alone and N - 1 at (0, 1).
"""

from __future__ import annotations

import math
import random
from fractions import Fraction as F

import pytest
import sympy

import brute
from _forge import edited
from implgraph.certify import check_certificate
from implgraph.engines.prove import check_implication


@pytest.fixture(scope="module")
def proved():
    return {"kl": check_implication("pml", "kl-closeness", max_n=3),
            "renyi2": check_implication("pml", "renyi-closeness", b_params={"alpha": sympy.Integer(2)}, max_n=3)}


def _kl_hand(n, t):
    if t < n / (n - 1):
        lo = n - (n - 1) * t
        return ((n - 1) * t * math.log(t) + lo * math.log(lo)) / n
    return math.log(min(t, n))


def _renyi2_hand(n, t):
    if t < n / (n - 1):
        lo = n - (n - 1) * t
        return math.log(((n - 1) * t * t + lo * lo) / n)
    return math.log(min(t, n))


def test_the_points_by_hand():
    assert _kl_hand(2, 1.5) == pytest.approx(0.75 * math.log(1.5) - 0.25 * math.log(2))
    assert _kl_hand(3, 1.25) == pytest.approx(5 / 6 * math.log(1.25) - 1 / 6 * math.log(2))
    assert _renyi2_hand(2, 1.5) == pytest.approx(math.log(5 / 4))
    assert _renyi2_hand(3, 1.25) == pytest.approx(math.log(9 / 8))
    assert _kl_hand(3, 2) == pytest.approx(math.log(2)) and _kl_hand(3, 5) == pytest.approx(math.log(3))


def _tight_at(r, n, t):
    names = {s.name: s for s in r.tight.free_symbols}
    return float(r.tight.subs({names["N"]: n, names["eps"]: sympy.log(sympy.Rational(t))}))


def test_tight_for_every_n_piece_by_piece(proved):
    for key, hand in (("kl", _kl_hand), ("renyi2", _renyi2_hand)):
        r = proved[key]
        assert r.verdict == "proved" and r.tightness == "tight" and not r.details.get("attained_where")
        assert isinstance(r.tight, sympy.Piecewise) and len(r.tight.args) == 3       # three pieces, no Min/Max
        assert not r.tight.has(sympy.Min, sympy.Max)
        for n, t in ((2, F(3, 2)), (2, F(2)), (2, F(3)), (3, F(5, 4)), (3, F(2)), (3, F(5)), (5, F(9, 8)), (5, F(7))):
            assert _tight_at(r, n, t) == pytest.approx(hand(n, float(t)), rel=1e-12)


def _table(n, t):
    """The attaining table of the piece holding T (module notes): rows and classes."""
    if t < F(n, n - 1):
        one, other = t * (n - 1) / n, (n - t) / n
    else:
        one, other = F(1), (F(n) / t - 1) / (n - 1) if t <= n else F(0)
    return [[one, 1 - one]] + [[other, 1 - other]] * (n - 1), ["E1"] + ["E2"] * (n - 1)


@pytest.mark.parametrize("n,t", [(2, F(3, 2)), (2, F(5, 4)), (3, F(5, 4)), (4, F(1)), (4, F(6, 5)), (3, F(2)),
                                 (2, F(2)), (2, F(3)), (3, F(7, 2)), (4, F(9))])
def test_the_attaining_tables(n, t):
    rows, classes = _table(n, t)
    assert brute.subset_upper(rows, 1) == min(t, n)       # pml's raw level: at most T (N where T > N)
    assert brute.kl_level_float(rows, "class", classes) == pytest.approx(_kl_hand(n, float(t)), abs=1e-12)
    assert math.log(brute.renyi_level_sum(rows, 2, "class", classes)) == pytest.approx(_renyi2_hand(n, float(t)),
                                                                                     abs=1e-12)


def test_no_random_table_beats_the_pieces():
    rng = random.Random(7)
    for _ in range(300):
        n = rng.choice((2, 3, 4))
        rows, classes = brute.random_rows(rng, n, 2), brute.random_labels(rng, n, 2)
        t = brute.subset_upper(rows, 1)
        assert brute.kl_level_float(rows, "class", classes) <= _kl_hand(n, float(t)) + 1e-12


def _piece(r, lo, hi):
    (cert,) = [c for c in r.details["certificates"]
               if (c["upper_certificate"]["lo"], c["upper_certificate"]["hi"]) == (lo, hi)]
    return cert


def test_every_certificate_is_accepted(proved):
    for r in proved.values():
        assert len(r.details["certificates"]) == 3 and all(check_certificate(c).ok for c in r.details["certificates"])
        assert "T < N/(N - 1)" in _piece(r, "N - T*(N - 1)", "T")["domain"]
        assert "T > N" in _piece(r, "0", "N")["domain"]


def test_forged_pieces_are_rejected(proved):
    for r in proved.values():
        low, top = _piece(r, "N - T*(N - 1)", "T"), _piece(r, "0", "N")
        # the narrowed ends claimed beyond their pieces: there the interval A confines to is [0, T]
        assert not check_certificate(edited(low, ["domain"], [d for d in low["domain"] if d != "T < N/(N - 1)"])).ok
        assert not check_certificate(edited(low, ["domain"], [*low["domain"][:-1], "T < N/(N - 2)"])).ok
        assert not check_certificate(edited(top, ["domain"], [*top["domain"][:-1], "T > N - 1"])).ok
        # a narrower end than the records allow (one record at ratio N - (N - 1) T, or N, is a table satisfying A)
        assert not check_certificate(edited(low, ["upper_certificate", "lo"], "N - T*(N - 1) + T - 1")).ok
        assert not check_certificate(edited(top, ["upper_certificate", "hi"], "N - 1")).ok
        # U below the chord's value, which the family attains
        assert not check_certificate(edited(low, ["upper"], f"({low['upper']})*9/10")).ok
        assert not check_certificate(edited(top, ["upper"], f"({top['upper']})*9/10")).ok
