"""Witness families in N for the divergence plugins, and their certificates (docs/sections/divergences.md).

Hand derivations:

- **one against the rest**: one record (1, 0) in class E1, N - 1 records (0, 1) in E2. The table is (1/N, (N - 1)/N).
  KL(E1 || P) = log N, KL(E2 || P) = log(N/(N - 1)): the KL closeness level is log N (finite); Renyi-2 of E1 is
  log(1/(1/N)) = log N, of E2 log(N/(N - 1)). Every two-sided ratio is infinite: two records 0 and 1 in bucket 1
  (pairwise); class E2 is 0 in bucket 1 where the table is 1/N; a set of j records of E2 (j <= N - 1) too: dp (j =
  N - 1) from N = 2, kdp(k=2) (j = N - 2 >= 1) and kt-closeness(k=2) (j = 2 <= N - 1) from N = 3.
- **two opposite records**: (0, 1) and (1, 0) in E1, N - 2 at (1/2, 1/2) in E2. KL between the first two is infinite;
  the table and both classes are (1/2, 1/2) (a class ratio 1); a set of j records is 0 in a bucket only if it is
  the single zero record: dp (j = N - 1 >= 2) finite from N = 3, kdp(k=2) (j = N - 2 >= 2) from N = 4.
- **the K family** (local divergence => ratio): as in test_divergences.py; for a subset of j records at y, j <= N - 1:
  kt-closeness(k=2) and kdp(k=2) from N = 3.
"""

from __future__ import annotations

import copy
import math
import sys
from fractions import Fraction as F
from pathlib import Path

import pytest

import brute
from _plugin_fixtures import registered

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "docs" / "examples" / "implgraph-divergences"))

from implgraph_divergences.kl_closeness import KLCloseness  # noqa: E402
from implgraph_divergences.kl_ldp import KLLocalPrivacy  # noqa: E402
from implgraph_divergences.renyi2_closeness import Renyi2Closeness  # noqa: E402
from implgraph_divergences.renyi2_ldp import Renyi2LocalPrivacy  # noqa: E402

from implgraph.certify import check_certificate  # noqa: E402
from implgraph.definitions import get  # noqa: E402
from implgraph.engines.prove import check_implication  # noqa: E402

PLUGINS = (KLCloseness, KLLocalPrivacy, Renyi2Closeness, Renyi2LocalPrivacy)


@pytest.fixture(scope="module", autouse=True)
def plugins():
    with registered(*PLUGINS):
        yield


def _support(a, b, ap=None, bp=None):
    from implgraph.prover.divergence_witness import support_certificate
    return support_certificate(get(a), ap or {}, get(b), bp or {})


# (A, A's params, B, B's params, the family's first records (hand), n0 (hand))
SUPPORT = [
    ("example-kl-closeness", None, "ldp", None, ("1", "0"), 2),
    ("example-kl-closeness", None, "dp", None, ("1", "0"), 2),
    ("example-renyi2-closeness", None, "mult-t-closeness", None, ("1", "0"), 2),
    ("example-renyi2-closeness", None, "delta-disclosure-privacy", None, ("1", "0"), 2),
    ("example-kl-closeness", None, "kdp", {"k": 2}, ("1", "0"), 3),
    ("example-renyi2-closeness", None, "kt-closeness", {"k": 2}, ("1", "0"), 3),
    ("dp", None, "example-kl-ldp", None, ("0", "1"), 3),
    ("mult-t-closeness", None, "example-renyi2-ldp", None, ("0", "1"), 3),
    ("kdp", {"k": 2}, "example-kl-ldp", None, ("0", "1"), 4),
    ("kt-closeness", {"k": 2}, "example-renyi2-ldp", None, ("0", "1"), 3),
]


@pytest.mark.parametrize("a,ap,b,bp,first,n0", SUPPORT)
def test_support_family_for_every_n(a, ap, b, bp, first, n0):
    cert, text = _support(a, b, ap, bp)
    assert cert["family"]["n0"] == n0 and f"every N >= {n0}" in text
    assert tuple(cert["family"]["rows"][0]["values"]) == first
    assert check_certificate(cert).ok


def test_one_against_the_rest_by_brute_force():
    """The family's table at N = 2..7: KL closeness log N (hand), ldp, dp, mult-t infinite (brute force)."""
    for n in range(2, 8):
        rows, classes = [[F(1), F(0)]] + [[F(0), F(1)]] * (n - 1), ["E1"] + ["E2"] * (n - 1)
        assert abs(brute.kl_level_float(rows, "class", classes) - math.log(n)) < 1e-12
        assert brute.renyi_level_sum(rows, 2, "class", classes) == n
        assert brute.ldp(rows) == brute.INF and brute.dp(rows) == brute.INF
        assert brute.mult_t(rows, classes) == brute.INF
        if n >= 3:
            assert brute.kdp(rows, 2) == brute.INF and brute.kt(rows, 2) == brute.INF
    cert, _ = _support("example-kl-closeness", "ldp")       # the checker's symbolic class levels are the hand ones
    steps = {what: how for what, _, how in check_certificate(cert).steps}
    assert "E1: log(N); E2: log(N/(N - 1))" in steps["A's level is finite for every N >= 2"]


def test_two_opposite_records_by_brute_force():
    for n in range(3, 8):
        rows = [[F(0), F(1)], [F(1), F(0)]] + [[F(1, 2), F(1, 2)]] * (n - 2)
        classes = ["E1", "E1"] + ["E2"] * (n - 2)
        assert brute.kl_level_float(rows, "pairs") == brute.INF
        assert brute.dp(rows) != brute.INF and brute.mult_t(rows, classes) == 1
        assert (brute.kdp(rows, 2) != brute.INF) == (n >= 4)
    cert, _ = _support("kdp", "example-kl-ldp", {"k": 2})    # the family the prover certifies is this one, from N = 4
    assert [r["values"] for r in cert["family"]["rows"]] == [["0", "1"], ["1", "0"], ["1/2", "1/2"]]
    assert cert["family"]["n0"] == 4


def _forged(cert, what):
    cert = copy.deepcopy(cert)
    rows = cert["family"]["rows"]
    if what == "count":
        rows[-1]["count"] = "N - 2"                   # N - 1 records in all
    elif what == "value":
        rows[0]["values"] = ["0", "1"]              # every record alike: B finite
    elif what == "n0":
        cert["family"]["n0"] = 2                    # below where the family is a witness
    elif what == "swap":
        cert["A"], cert["B"] = cert["B"], cert["A"]
    elif what == "claim":
        cert["claim"] = "proved"
    return cert


@pytest.mark.parametrize("what", ["count", "value", "swap", "claim"])
def test_forged_support_family_is_rejected(what):
    cert, _ = _support("example-kl-closeness", "ldp")
    assert not check_certificate(_forged(cert, what)).ok


def test_forged_n0_is_rejected():
    cert, _ = _support("kdp", "example-kl-ldp", {"k": 2})
    assert cert["family"]["n0"] == 4 and not check_certificate(_forged(cert, "n0")).ok


@pytest.mark.parametrize("a", ["example-kl-ldp", "example-renyi2-ldp"])
@pytest.mark.parametrize("b,bp,n0", [("ldp", None, 2), ("dp", None, 2), ("kt-closeness", {"k": 2}, 3),
                                     ("kdp", {"k": 2}, 3)])
def test_k_family_certificate(a, b, bp, n0):
    r = check_implication(a, b, b_params=bp, max_n=3)
    assert r.verdict == "refuted" and r.method == "divergence-family"
    cert = r.details["certificate"]
    assert cert["family"]["kind"] == "unbounded" and cert["family"]["n0"] == n0
    assert check_certificate(cert).ok


@pytest.mark.parametrize("what", ["count", "value", "b"])
def test_forged_k_family_is_rejected(what):
    cert = copy.deepcopy(check_implication("example-kl-ldp", "ldp", max_n=3).details["certificate"])
    rows = cert["family"]["rows"]
    if what == "count":
        rows[0]["count"] = "2"                      # N + 1 records
    elif what == "value":
        rows[0]["values"] = ["2*K/((K - 1)**2 + 1)", "1 - 2*K/((K - 1)**2 + 1)"]     # chi^2 = 4 (K-1/2)^2 b/(1-b) > 1
    else:
        rows[1]["values"] = ["1/(K + 1)", "K/(K + 1)"]      # ratio K^2/((K-1)^2+1) bounded; chi^2 unbounded
    assert not check_certificate(cert).ok


# -- dp => a class divergence: the tight f (docs/sections/divergences.md) ---------------------------------------------

def _dp_kl_by_hand(T, N):
    """A record's ratio to the table lies in [a, c], a = max(0, N - (N - 1) T), c = N - (N - 1)/T; the chord of
    r log r there: log c where a = 0, else (T c log c + a log a)/(T + 1) (the mass at c is L = T/(T + 1))."""
    a, c = max(F(0), N - (N - 1) * T), N - (N - 1) / T
    if a == 0:
        return math.log(c)
    return float(T * c * F(1) / (T + 1)) * math.log(c) + float(a / (T + 1)) * math.log(a)


def test_dp_to_kl_closeness_tight_by_hand_and_brute_force():
    """The attaining table (one record at ratios (c, a) in a class of its own, N - 1 records alike) has dp level T
    and KL closeness the hand value; random tables never exceed it (brute force)."""
    import random
    for N in (3, 4, 6):
        for T in (F(11, 10), F(5, 4), F(3, 2), F(2), F(4)):
            a, c = max(F(0), N - (N - 1) * T), N - (N - 1) / T
            L = (1 - a) / (c - a)
            x1, rest = c * L, L * (N - c) / (N - 1)
            rows, classes = [[x1, 1 - x1]] + [[rest, 1 - rest]] * (N - 1), ["E1"] + ["E2"] * (N - 1)
            assert brute.dp(rows) <= T
            assert abs(brute.kl_level_float(rows, "class", classes) - _dp_kl_by_hand(T, N)) < 1e-9
    rng = random.Random(3)
    for _ in range(300):
        N = rng.randint(3, 5)
        rows = brute.random_rows(rng, N, rng.randint(2, 3))
        T = brute.dp(rows)
        if T == brute.INF or T == 1:
            continue
        classes = brute.random_labels(rng, N, 2)
        assert brute.kl_level_float(rows, "class", classes) <= _dp_kl_by_hand(F(T), N) + 1e-9
    import sympy
    eps, n = sympy.symbols("eps N", positive=True)      # the engine's tight f is the hand one
    tight = sympy.sympify(str(check_implication("dp", "example-kl-closeness", max_n=3).tight), locals={"eps": eps, "N": n})
    for N, T in ((3, F(5, 4)), (4, F(3, 2)), (5, F(3))):
        assert abs(float(tight.subs({n: N, eps: sympy.log(sympy.Rational(T.numerator, T.denominator))}))
                   - _dp_kl_by_hand(T, N)) < 1e-9


@pytest.mark.parametrize("b", ["example-kl-closeness", "example-renyi2-closeness"])
def test_dp_to_class_divergence_tight_f(b):
    import sympy
    r = check_implication("dp", b, max_n=3)
    assert r.verdict == "proved" and r.tightness == "tight"
    assert r.details.get("attained_where") is None      # tight for every N: N = 2 has its own piece
    eps, N = sympy.symbols("eps N", positive=True)
    tight = sympy.sympify(str(r.tight), locals={"eps": eps, "N": N})
    # N = 2 by hand: a record's ratio to the table lies in [1/T, 2 - 1/T] (the other record is its removal, and the two
    # ratios sum to 2), mass 1/2 at each end; at T = 2: KL = ((3/2) log(3/2) + (1/2) log(1/2))/2, exp(D_2) = 5/4
    two = float(tight.subs({N: 2, eps: sympy.log(2)}))
    want2 = ((1.5 * math.log(1.5) + 0.5 * math.log(0.5)) / 2 if b == "example-kl-closeness" else math.log(1.25))
    assert abs(two - want2) < 1e-9
    for n, e in ((3, sympy.log(sympy.Rational(5, 4))), (4, sympy.log(2)), (3, sympy.log(3))):
        T = sympy.exp(e)
        got = float(tight.subs({N: n, eps: e}))
        a, c = max(0, n - (n - 1) * T), n - (n - 1) / T
        if b == "example-kl-closeness":
            want = _dp_kl_by_hand(F(sympy.Rational(str(sympy.nsimplify(T)))), n)
        else:       # exp(D_2) = L c^2 + (1 - L) a^2, L = T/(T + 1) where a > 0, 1/c where a = 0
            want = math.log(float(c if a == 0 else (T * c ** 2 + a ** 2) / (T + 1)))
        assert abs(got - want) < 1e-9
    certs = [r.details["certificate"]] + list(r.details["certificates"])
    assert len(certs) == 4 and all(check_certificate(c).ok for c in certs)
    below = next(c for c in certs if any("T < N/(N - 1)" in d for d in c["domain"]))
    forged = copy.deepcopy(below)          # the piece below N/(N - 1), claimed on the whole domain
    forged["domain"] = [d for d in forged["domain"] if "N/(N - 1)" not in d]
    assert not check_certificate(forged).ok


# -- ldp => a class divergence: the tight f ------------------------------------------------------------------------

def test_ldp_to_class_divergence_tight_by_hand_and_brute_force():
    """Under ldp at T a class of s records has ratio to the table N/(s + (N - s) r), r (the rest's mean over the
    class's) in [1/T, T]: within [lo, hi] = [N/(1 + (N - 1) T), N T/(T + N - 1)] (s = 1). The chord of r log r there,
    with y-mass L = (T + N - 1)/(N (T + 1)) at hi: KL <= (T log hi + log lo)/(T + 1); attained by one record at
    (T, 1)/(T + 1) in a class of its own and N - 1 at (1, T)/(T + 1)."""
    import random

    import sympy
    def hand(T, N):
        lo, hi = N / (1 + (N - 1) * T), N * T / (T + N - 1)
        return (float(T) * math.log(hi) + math.log(lo)) / float(T + 1)
    for N in (2, 3, 5):
        for T in (F(5, 4), F(2), F(7)):
            rows = [[T / (T + 1), 1 / (T + 1)]] + [[1 / (T + 1), T / (T + 1)]] * (N - 1)
            classes = ["E1"] + ["E2"] * (N - 1)
            assert brute.ldp(rows) == T
            assert abs(brute.kl_level_float(rows, "class", classes) - hand(T, N)) < 1e-9
    rng = random.Random(8)
    for _ in range(300):
        N = rng.randint(2, 5)
        rows = brute.random_rows(rng, N, rng.randint(2, 3))
        T = brute.ldp(rows)
        if T == brute.INF or T == 1:
            continue
        assert brute.kl_level_float(rows, "class", brute.random_labels(rng, N, 2)) <= hand(F(T), N) + 1e-9
    r = check_implication("ldp", "example-kl-closeness", max_n=3)
    assert r.verdict == "proved" and r.tightness == "tight"
    eps, n = sympy.symbols("eps N", positive=True)
    tight = sympy.sympify(str(r.tight), locals={"eps": eps, "N": n})
    for N, T in ((2, 2), (4, 3)):
        assert abs(float(tight.subs({n: N, eps: sympy.log(T)})) - hand(F(T), N)) < 1e-9
    assert check_certificate(r.details["certificate"]).ok


# -- the ordering facts: re-checked where elementary, cited elsewhere -------------------------------------------------

def test_ordering_facts_rechecked_steps():
    """KL <= D_2 by log u <= u - 1 (exact steps), Pinsker's two-bucket case exact, its reduction cited."""
    r = check_implication("example-renyi2-ldp", "example-kl-ldp", max_n=3)
    steps = check_certificate(r.details["certificate"]).steps
    assert any(what == "D_1 <= D_2" and ok and how.startswith("exact") for what, ok, how in steps)
    mixed = check_certificate(check_implication("example-kl-ldp", "example-kl-closeness", max_n=3).details["certificate"]).steps
    assert any("joint convexity" in what and how.startswith("cited") for what, _, how in mixed)


def test_binary_pinsker_identity_by_hand():
    """The derivative the checker re-checks, at numbers: d/dq of p log(p/q) + (1 - p) log((1 - p)/(1 - q)) - 2 (p - q)^2
    is -p/q + (1 - p)/(1 - q) + 4 (p - q); at p = 1/3, q = 1/4 (hand): -4/3 + 8/9 + 1/3 = -1/9, and
    (q - p)(1 - 2 q)^2/(q (1 - q)) = (-1/12)(1/4)/(3/16) = -1/9."""
    from implgraph.certify.lemmas.divergence_order import _binary_pinsker
    assert _binary_pinsker()
    p, q = F(1, 3), F(1, 4)
    assert -p / q + (1 - p) / (1 - q) + 4 * (p - q) == (q - p) * (1 - 2 * q) ** 2 / (q * (1 - q)) == F(-1, 9)


# -- the ceiling of a class divergence --------------------------------------------------------------------------------

def test_divergence_ceiling_by_hand_and_brute_force():
    """A class of s records holds at most the table's mass, so its ratio to the table is <= N/s and its KL or Renyi
    divergence <= log(N/s); one record at (1, 0), the rest at (0, 1) has KL closeness exactly log N (hand)."""
    import random

    import sympy
    rng = random.Random(13)
    for _ in range(200):
        N = rng.randint(2, 6)
        rows, classes = brute.random_rows(rng, N, rng.randint(2, 3)), brute.random_labels(rng, N, 3)
        assert brute.kl_level_float(rows, "class", classes) <= math.log(N) + 1e-12
        assert brute.renyi_level_sum(rows, 2, "class", classes) <= N
    # (basic-beta-likeness: the chord on [0, T] gives log T, below log N where T < N: tests/test_chord_one_sided.py;
    # k-anonymity: s = k, log(N/k); kt-closeness: a composition below it: tests/test_divergence_params.py)
    # (the l-diversities keep a lone class uniform over m values at log N from the table: the ceiling is their tight f,
    # a vacuous implication, tests/test_ceiling_family.py; the ceiling is the certificate's part)
    for a, ap in (("distinct-l-diversity", None), ("entropy-l-diversity", None)):
        r = check_implication(a, "example-kl-closeness", a_params=ap, max_n=3)
        assert r.verdict == "proved" and r.method == "ceiling-family" and r.tightness == "tight"
        n = sympy.Symbol("N")
        assert sympy.simplify(sympy.sympify(str(r.tight), locals={"N": n}) - sympy.log(n)) == 0
        part = r.details["certificate"]["parts"][0]
        assert part["method"] == "divergence-ceiling" and check_certificate(part).ok
        assert check_certificate(r.details["certificate"]).ok
    cert = check_implication("k-anonymity", "example-renyi2-closeness", max_n=3, b_classes={"min_size": 2}).details["certificate"]
    assert cert["upper"] == "log(N/2)" and check_certificate(cert).ok
    for forged in (dict(cert, upper="log(N/3)"), dict(cert, upper="log(N)/2"),
                   dict(cert, upper_certificate=dict(cert["upper_certificate"], kind="kl"))):
        assert not check_certificate(forged).ok


# -- an additive slack against a divergence between records -----------------------------------------------------------

@pytest.mark.parametrize("a", ["eps-delta-ldp", "eps-delta-dp"])
def test_slack_family(a):
    """One record at (delta, 1 - delta), N - 1 at (0, 1), delta = 1/10 (hand): every event where a record (or, for
    record removal, the table without the first record, (0, 1)) is 0 is bucket 1, holding delta (or delta/N of the
    table) <= delta in the other: the slack's level is finite (brute force: e^eps = 1); KL between the two kinds of
    records is infinite. A forged value 1/2: between records 1/2 > delta, and for record removal the table holds 1/(2 N)
    on that event, > delta at N = 2..4: not finite for every N >= 2, rejected."""
    delta = F(1, 10)
    for n in range(2, 7):
        rows = [[delta, 1 - delta]] + [[F(0), F(1)]] * (n - 1)
        assert (brute.eps_delta_ldp if a == "eps-delta-ldp" else brute.eps_delta_dp)(rows, delta) == 1
        assert brute.kl_level_float(rows, "pairs") == brute.INF
    cert, text = _support(a, "example-kl-ldp", {"delta": delta})
    assert cert["family"]["n0"] == 2 and cert["family"]["rows"][0]["values"] == ["1/10", "9/10"]
    assert check_certificate(cert).ok
    forged = copy.deepcopy(cert)
    forged["family"]["rows"][0]["values"] = ["1/2", "1/2"]
    assert not check_certificate(forged).ok
