"""The tv-distance argument: a declared divergence bounds a class's total variation distance from the table
(docs/proofs/tv-distance.md, docs/proofs/pinsker.md); and the binary program on the removal pair (kl-dp, renyi-dp
=> eps-delta-dp).

Hand values (t-closeness with the equal ground distance is TV(P_E, P)):

- tv-ldp at delta = 1/2, N = 4: one record at (1/2, 1/2) alone, three at (0, 1): P = (1/8, 7/8), TV = 3/8 =
  (N - 1) delta/N;
- delta-ldp(eps = log 2) (gamma = 2) at delta = 1/4: g = (2/4 + 1)/3 = 1/2, the pair (3/4, 1/4), (1/4, 3/4):
  E_2 = 3/4 - 2/4 = 1/4 both ways, TV = 1/2; at N = 4, f = 3/8;
- renyi-ldp(2): m = 1/8, the pair (5/8, 3/8), (3/8, 5/8): chi^2 = (1/16)(8/5 + 8/3) = 4/15 = c, sqrt(c/(4 + c)) =
  sqrt(4/64) = 1/4 = TV; at N = 2, f = 1/8;
- kl-closeness at d = 1/8: Pinsker sqrt(1/16) = 1/4, N = 4: min(3/4, 1/4) = 1/4;
- kl-dp at d = 1/8, N = 3: min(2/3, 2 * 1/4) = 1/2;
- record removal, every N >= 10: |P(E) - Q_i(E)| <= 1/N <= 1/10, so every table is (0, 1/10)-DP.
"""

from __future__ import annotations

import copy
import random
from fractions import Fraction as F

import pytest
import sympy

import brute
from brute_divergences import event_gap, level_over

from implgraph.certify import check_certificate
from implgraph.engines.prove import check_implication

EMD = "emd-t-closeness"
EQ = {"ground": "equal"}


def _proof(a, a_params=None, b=EMD, b_params=EQ):
    return check_implication(a, b, a_params=a_params or {}, b_params=b_params, max_n=3)


def _f(res, **at):
    f = res.tight if res.tightness == "tight" else res.details["proved_f"]
    f = sympy.sympify(f, locals={n: sympy.Symbol(n) for n in ("N", "d", "delta")}) if isinstance(f, str) else f
    subs = {s: at[s.name] for s in f.free_symbols if s.name in at}
    return sympy.simplify(f.subs(subs))


def _tv(x, y):
    return event_gap(x, y)


def test_tv_ldp_tight_hand_value_and_brute():
    res = _proof("tv-ldp")
    assert res.verdict == "proved" and res.method == "tv-distance" and res.tightness == "tight"
    assert _f(res, N=4, delta=sympy.Rational(1, 2)) == sympy.Rational(3, 8)
    rows = [[F(1, 2), F(1, 2)]] + [[F(0), F(1)]] * 3
    assert level_over(_tv, rows, "pairs") == F(1, 2)
    assert brute.emd_t(rows, ["E1", "E2", "E2", "E2"]) == F(3, 8)


def test_delta_ldp_tight_hand_value_and_brute():
    res = _proof("delta-ldp", {"eps": sympy.log(2)})
    assert res.verdict == "proved" and res.method == "tv-distance" and res.tightness == "tight"
    assert _f(res, N=4, delta=sympy.Rational(1, 4)) == sympy.Rational(3, 8)
    rows = [[F(3, 4), F(1, 4)]] + [[F(1, 4), F(3, 4)]] * 3
    assert level_over(lambda x, y: event_gap(x, y, 2), rows, "pairs") == F(1, 4)
    assert brute.emd_t(rows, ["E1", "E2", "E2", "E2"]) == F(3, 8)


def test_renyi2_ldp_tight_hand_value_and_brute():
    res = _proof("renyi-ldp", {"alpha": 2})
    assert res.verdict == "proved" and res.method == "tv-distance" and res.tightness == "tight"
    c = F(4, 15)
    level = sympy.log(1 + sympy.Rational(4, 15))
    assert sympy.simplify(_f(res, N=2, d=level) - sympy.Rational(1, 8)) == 0
    rows = [[F(5, 8), F(3, 8)], [F(3, 8), F(5, 8)]]
    assert brute.renyi_level_sum(rows, 2, "pairs") - 1 == c
    assert brute.emd_t(rows, ["E1", "E2"]) == F(1, 8)


def test_upper_bounds_hand_values():
    d = sympy.Rational(1, 8)
    kl = _proof("kl-closeness")
    assert kl.verdict == "proved" and kl.tightness == "not derived"
    assert _f(kl, N=4, d=d) == sympy.Rational(1, 4)
    dp = _proof("kl-dp")
    assert dp.verdict == "proved" and dp.tightness == "not derived"
    assert _f(dp, N=3, d=d) == sympy.Rational(1, 2)
    ldp = _proof("kl-ldp")
    assert _f(ldp, N=2, d=d) == sympy.Rational(1, 8)


def test_random_tables_never_above_f():
    """Random tables and partitions: B's exact level (brute) never exceeds f at A's level (brute), for the tight
    sides (rational levels)."""
    rng = random.Random(33)
    N_, t_ = sympy.symbols("N t")
    for _ in range(200):
        n, p = rng.randint(2, 4), rng.randint(2, 3)
        rows = brute.random_rows(rng, n, p, high=5)
        labels = brute.random_labels(rng, n)
        b = brute.emd_t(rows, labels)
        tv = level_over(_tv, rows, "pairs")
        assert b <= F(n - 1, n) * tv
        hs = level_over(lambda x, y: event_gap(x, y, 2), rows, "pairs")
        assert b <= F(n - 1, n) * (2 * hs + 1) / 3
        chi = brute.renyi_level_sum(rows, 2, "pairs")
        if chi is not None:
            c = chi - 1
            assert b ** 2 <= (F(n - 1, n)) ** 2 * c / (4 + c)


def test_certificates_are_rechecked():
    for a, params in (("tv-ldp", {}), ("delta-ldp", {"eps": sympy.log(2)}), ("renyi-ldp", {"alpha": 2}),
                      ("kl-ldp", {}), ("kl-dp", {}), ("renyi-dp", {"alpha": 2}), ("kl-closeness", {}),
                      ("renyi-closeness", {"alpha": 2})):
        res = _proof(a, params)
        cert = res.details["certificate"]
        # a class's Renyi 2 against the table has its own tight argument (chi-square-tv), tried first
        method = "chi-square-tv" if a == "renyi-closeness" else "tv-distance"
        assert cert["method"] == method and check_certificate(cert).ok, a


def _forged(cert, edit):
    out = copy.deepcopy(cert)
    edit(out)
    assert out != cert
    return out


def test_forged_certificates_are_rejected():
    tight = _proof("delta-ldp", {"eps": sympy.log(2)}).details["certificate"]
    pinsker = _proof("kl-closeness").details["certificate"]
    removal = _proof("kl-dp").details["certificate"]
    forgeries = [
        (tight, lambda c: c.update(upper="(N - 1)*(2*T + 1)/(4*N)")),              # a smaller slope
        (tight, lambda c: c["upper_certificate"].update(fact="tv")),               # the wrong pair fact
        (tight, lambda c: c["tightness"]["rows"][0].update(value="T")),            # a wrong attaining row
        (tight, lambda c: c.update(domain=[d for d in c["domain"] if "2*" not in d])),  # 2 s <= N dropped
        (pinsker, lambda c: c.update(upper="Min(T/2, (N - 1)/N)")),               # not Pinsker's sqrt(T/2)
        (pinsker, lambda c: c.update(tight=True)),                                  # tightness claimed
        (removal, lambda c: c.update(upper="Min((N - 1)/N, sqrt(2)*sqrt(T)/2)")),  # the factor N - 1 dropped
        (removal, lambda c: c["upper_certificate"].update(compares="pairs")),
    ]
    for cert, edit in forgeries:
        assert not check_certificate(_forged(cert, edit)).ok


# -- the binary program on the removal pair --------------------------------------------------------------------------

@pytest.mark.parametrize("a, params", [("kl-dp", {}), ("renyi-dp", {"alpha": 2})])
def test_removal_pair_to_eps_delta_dp(a, params):
    res = check_implication(a, "eps-delta-dp", a_params=params, b_params={"delta": sympy.Rational(1, 10)}, max_n=3)
    assert res.verdict == "proved" and res.method == "binary-program" and res.tightness == "not derived"
    cert = res.details["certificate"]
    assert check_certificate(cert).ok
    N, d = sympy.symbols("N d")
    f = sympy.sympify(res.details["proved_f"], locals={"N": N, "d": d})
    assert f.subs({N: 10, d: 7}) == 0 and f.subs({N: 2, d: sympy.Rational(1, 1000)}) == 0   # N d >= 1; flat piece
    assert f.subs({N: 2, d: 1}) != 0
    # by hand: N >= 10 makes every table (0, 1/10)-DP (brute force on random tables)
    rng = random.Random(34)
    for _ in range(50):
        n = rng.randint(10, 11)
        rows = brute.random_rows(rng, n, 2, high=3)
        assert brute.eps_delta_dp(rows, F(1, 10)) == 1
    assert not check_certificate(_forged(cert, lambda c: c.update(upper=c["upper"].replace("N >= 10", "N >= 5")))).ok
