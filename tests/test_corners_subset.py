"""The ``subset-corners`` argument and its checker: a two-sided subset level of size j bounds the hockey stick between
two records by max(hi - gamma lo, 0) min(1 - lo, hi - 1)/(hi - lo) on one record's ratio range [lo, hi].

Values derived by hand from the formula (module notes of implgraph/prover/arguments/corners_subset.py):

- dp (j = 3), N = 4, T = 6/5: hi = min(4 - 5/2, 54/5 - 8) = 3/2, lo = max(0, 4 - 18/5, 15/2 - 8) = 2/5,
  G = 3/2 - 4/5 = 7/10, min(3/5, 1/2) = 1/2, hi - lo = 11/10: U = 7/22 (the research note's dp form
  (2 (N - 1) T^2 - N T - (N - 1))/(T (T + 1)) = 0.84/2.64 = 7/22 too);
- dp, N = 4, T = 11/10: hi = 14/11, lo = 7/10, hi - 2 lo < 0: U = 0;
- kt-closeness(2) (j = 2), N = 6, T = 3/2: hi = min(8/3, 9/4) = 9/4, lo = max(0, -3/2, 1/6) = 1/6, G = 23/12,
  min(5/6, 5/4) = 5/6, hi - lo = 25/12: U = 23/30;
- kdp(2) (j = 3), N = 5, T = 6/5: hi = min(5/3, 11/5) = 5/3, lo = max(0, 1/5, 0) = 1/5, G = 19/15, min(4/5, 2/3) = 2/3,
  hi - lo = 22/15: U = 19/33.

The dp point is attained by the corner table of the research note (section 1.1; L = 6/11 > 1/2): buckets of mass
(5/11, 5/11, 1/11), x_i = (15/22, 2/11, 3/22), x_k = (2/11, 15/22, 3/22), two others at (21/44, 21/44, 1/22); its
levels are computed by tests/brute.py.
"""

from __future__ import annotations

import random
from fractions import Fraction as F

import pytest
import sympy

import brute
from _forge import edited
from brute_divergences import event_gap, level_over

from implgraph.certify import check_certificate
from implgraph.prover.answer import T
from implgraph.prover.arguments.corners_subset import upper

from _coq import load_certs

CERTS = load_certs("corners_subset.json")
DP, KDP, KT = ("dp => delta-ldp(eps=log(2))", "kdp(k=2) => delta-ldp(eps=log(2))",
               "kt-closeness(k=2) => delta-ldp(eps=log(2))")
N = sympy.Symbol("N", integer=True, positive=True)


def _u(n, j, t, gamma=2):
    value = upper(sympy.Integer(gamma), N, j).subs(N, n).subs(T, t)
    return sympy.Rational(value)


@pytest.mark.parametrize("n,j,t,value", [(4, N - 1, F(6, 5), F(7, 22)), (4, N - 1, F(11, 10), 0),
                                         (6, 2, F(3, 2), F(23, 30)), (5, N - 2, F(6, 5), F(19, 33)),
                                         (4, N - 1, 1, 0)])
def test_the_bound_at_points_worked_by_hand(n, j, t, value):
    assert _u(n, j, sympy.Rational(t)) == value


def test_the_corner_table_attains_the_dp_bound():
    rows = [[F(15, 22), F(2, 11), F(3, 22)], [F(2, 11), F(15, 22), F(3, 22)],
            [F(21, 44), F(21, 44), F(1, 22)], [F(21, 44), F(21, 44), F(1, 22)]]
    assert all(sum(r) == 1 for r in rows)
    assert brute.dp(rows) == F(6, 5) and brute.kt(rows, 3) == F(6, 5)
    assert level_over(lambda x, y: event_gap(x, y, 2), rows, "pairs") == F(7, 22)


def test_the_bound_holds_on_random_tables():
    # every size j of N = 3..5 records: the hockey stick (gamma 2, and 3/2) between two records of a random table is at
    # most U at the table's own subset level T (exact)
    rng = random.Random(7)
    checked = 0
    for _ in range(40):
        n, m = rng.choice([3, 4, 5]), rng.choice([2, 3])
        weights = [[rng.randint(1, 6) for _ in range(m)] for _ in range(n)]
        rows = [[F(w, sum(ws)) for w in ws] for ws in weights]      # every entry positive: a finite level
        for j in range(1, n):
            t = brute.kt(rows, j)
            for gamma in (F(2), F(3, 2)):
                gap = level_over(lambda x, y: event_gap(x, y, gamma), rows, "pairs")
                assert gap <= _u(n, j, sympy.Rational(t), sympy.Rational(gamma)), (rows, j, t, gamma)
                checked += 1
    assert checked > 100


@pytest.mark.parametrize("name", sorted(CERTS))
def test_the_checker_accepts_the_provers_certificates(name):
    # (the numbers' sizes and the symbols matrix's k1, N - k2)
    assert check_certificate(CERTS[name]).ok


FORGERIES = [
    # gamma 3 in U against B's declared 2: a smaller bound
    ("gamma", DP, ["upper"], lambda u: u.replace("-2*Max", "-3*Max")),
    # hi's second end edited (the lemma's end is (j T (N - 1) - (j - 1) N)/(N - j))
    ("hi", KT, ["upper_certificate", "hi"], lambda h: h.replace("2*N*t", "3*N*t").replace("2*N*T", "3*N*T")),
    # A's size N - 2 for dp (declared N - 1)
    ("size", DP, ["upper_certificate", "size"], lambda s: "N - 2"),
    # the domain without T >= 1
    ("domain", DP, ["domain"], lambda d: ["T > 0", "N >= 2"]),
    # tightness claimed: the lemma is an upper bound
    ("tight", KDP, ["tight"], lambda t: True),
]


def _get(cert, path):
    for key in path:
        cert = cert[key]
    return cert


@pytest.mark.parametrize("label,name,path,edit", FORGERIES, ids=[f[0] for f in FORGERIES])
def test_the_checker_rejects_a_forgery(label, name, path, edit):
    forged = edited(CERTS[name], path, edit(_get(CERTS[name], path)))
    assert forged != CERTS[name]
    assert not check_certificate(forged).ok


def test_lip_keeps_the_corners_argument():
    from implgraph.definitions import get
    from implgraph.prover.search import tight_bound
    from implgraph.core.region import Region
    region = Region({T: "real", N: "integer"}, (T >= 1, N >= 2))
    bound = tight_bound(get("lip"), get("delta-ldp"), {}, {"eps": sympy.log(2)}, region, N)
    assert bound.method == "corners"
    found = tight_bound(get("dp"), get("delta-ldp"), {}, {"eps": sympy.log(2)}, region, N)
    assert found.method == "subset-corners" and not found.tight
