"""zcdp-dp, zero-concentrated privacy on record removal (Bun and Steinke 2016, Def. 1.1 with xi = 0; the table's mean P
against the mean Q_i without record i, both ways): its exact level against the brute force of ``tests/brute.py``
(every removal and every order, literally, in mpmath) and against tables derived by hand; every f the engine proves for
a pair with zcdp-dp never below the brute level on a grid of small tables; every witness and witness family of a
non-implication re-checked with the brute force (A finite or bounded, B infinite or unbounded).

Nothing here is copied from the engine's output: the values are derived by hand (in the docstrings) or computed by the
brute force; the engine's proved f is read from the prover and only compared with brute levels.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction as F

import mpmath
import pytest
import sympy

import brute
from brute import INF, zcdp_level_mp

from implgraph.core.concrete import INF as ENGINE_INF
from implgraph.definitions import get


@pytest.fixture(autouse=True)
def _digits():
    """Every comparison at 60 digits (restored after each test)."""
    with mpmath.workdps(60):
        yield


def _engine_level(rows):
    """zcdp-dp's exact level of the table ``rows`` (the registry's declared divergence), as an mpf at 60 digits, or
    INF; with its enclosure ``(lo, hi)`` where it has one."""
    v = get("zcdp-dp").level.level([[F(x) for x in r] for r in rows])
    if v == ENGINE_INF:
        return INF, None
    lo, hi = getattr(v, "lo", None), getattr(v, "hi", None)
    expr = getattr(v, "expr", v)
    with mpmath.workdps(60):
        value = mpmath.mpf(sympy.N(sympy.sympify(expr), 60)) if not isinstance(expr, F) else \
            mpmath.mpf(expr.numerator) / expr.denominator
    return value, (None if lo is None else (lo, hi))


def _close(engine, brute_value):
    """The engine's exact value and the brute force's (a value from below, at 30+ digits) agree."""
    if engine == INF or brute_value == INF:
        return engine == brute_value
    return abs(engine - brute_value) <= mpmath.mpf(10) ** -18 * max(1, abs(engine))


# -- the level --------------------------------------------------------------------------------------------------------

_VALUES = (F(0), F(1, 4), F(1, 2), F(2, 3), F(1))


def _grid(ns=(2, 3), values=_VALUES):
    """Tables of two buckets: every multiset of N records with first value in ``values``."""
    for n in ns:
        for firsts in itertools.combinations_with_replacement(values, n):
            yield [[a, 1 - a] for a in firsts]


def test_level_against_brute_on_a_grid():
    """Every table of the grid (N = 2, 3; 50 tables, zeros included): the engine's exact level equals the brute
    supremum over orders of the largest D_alpha/alpha over removals, both ways (INF exactly where a removal leaves 0
    where the table is positive)."""
    seen = 0
    for rows in _grid():
        engine, _ = _engine_level(rows)
        b = zcdp_level_mp(rows, "removal", dps=40)
        assert _close(engine, b), (rows, engine, b)
        seen += 1
    assert seen == 15 + 35


def test_level_against_brute_on_three_buckets():
    """A few tables of three buckets and N = 2..4 (no zeros): the same agreement."""
    rows_list = [[[F(1, 2), F(1, 3), F(1, 6)], [F(1, 6), F(1, 3), F(1, 2)]],
                 [[F(1, 10), F(1, 10), F(4, 5)], [F(1, 3), F(1, 3), F(1, 3)], [F(1, 2), F(1, 4), F(1, 4)]],
                 [[F(1, 100), F(1, 2), F(49, 100)]] + [[F(1, 4), F(1, 4), F(1, 2)]] * 3]
    for rows in rows_list:
        engine, _ = _engine_level(rows)
        assert _close(engine, zcdp_level_mp(rows, "removal", dps=40)), rows


def test_equal_records_and_zeros_by_hand():
    """Equal records: every Q_i is P, level 0. One record at (1, 0) beside (1/2, 1/2) (N = 2): removing the second
    leaves Q = (1, 0), and P = (3/4, 1/4) is positive where Q is 0: level oo. (1/2, 1/2) beside two at (1, 0): every
    Q_i is positive in bucket 1 and P too, but removing the (1/2, 1/2) leaves (1, 0) against P = (5/6, 1/6): oo."""
    assert _engine_level([[F(1, 3), F(2, 3)]] * 3)[0] == 0
    assert _engine_level([[F(1), F(0)], [F(1, 2), F(1, 2)]])[0] == INF
    assert _engine_level([[F(1, 2), F(1, 2)], [F(1), F(0)], [F(1), F(0)]])[0] == INF


@pytest.mark.parametrize("N,T", [(3, F(3, 2)), (4, F(5, 4)), (3, F(6, 5))])
def test_randomized_response_as_the_removal_pair(N, T):
    """By hand, for N >= 3 and 1 < T <= N/(N - 1): P = (1, T)/(T + 1) and N - 1 records at z = (T, 1)/(T + 1), the
    removed record x = N P - (N - 1) z = (N - (N - 1) T, N T - (N - 1))/(T + 1) >= 0. Removing x leaves Q = z: (P, z) is
    randomized response at T, whose zero-concentrated level is its KL, ln T (T - 1)/(T + 1), both ways (the tanh lemma,
    docs/sections/dp-conversions.md). Removing a z leaves Q' = P + (P - z)/(N - 1): Q'/P lies in
    [1 + (1 - T)/(N - 1), 1 + (1 - 1/T)/(N - 1)], inside [1/T, T] (T <= N - 1), so by the chord lemma its level both
    ways is at most the same value. The table's level is ln T (T - 1)/(T + 1), and its dp level is T (Q/P in
    {T, 1/T} at the removal of x; within it elsewhere): dp => zcdp-dp's f, eps tanh(eps/2), is attained there."""
    Ts = sympy.Rational(T.numerator, T.denominator)
    x = [(N - (N - 1) * T) / (T + 1), (N * T - (N - 1)) / (T + 1)]
    z = [T / (T + 1), 1 / (T + 1)]
    rows = [x] + [z] * (N - 1)
    assert all(v >= 0 for v in x) and sum(x) == 1
    by_hand = mpmath.mpf(sympy.N(sympy.log(Ts) * (Ts - 1) / (Ts + 1), 60))
    engine, _ = _engine_level(rows)
    assert abs(engine - by_hand) < mpmath.mpf(10) ** -40
    assert abs(zcdp_level_mp(rows, "removal", dps=40) - by_hand) < mpmath.mpf(10) ** -18
    assert brute.dp(rows) == T


@pytest.mark.parametrize("T", [F(2), F(3), F(9)])
def test_randomized_response_on_removal_at_two_records(T):
    """By hand, N = 2, x = (T, 1)/(T + 1), y = (1, T)/(T + 1): P = (1/2, 1/2), Q_1 = y, Q_2 = x (the mirror: the same
    levels). With s = (T - 1)/(T + 1), y/P = (1 - s, 1 + s): the level is at least KL(P || y) = -ln(1 - s^2)/2 =
    ln((T + 1)^2/(4 T))/2 (the limit alpha -> 1), and, the ratios lying in [1/R, R] with R = (T + 1)/2 (1/(1 - s) =
    (T + 1)/2 >= 1 + s), at most ln R (R - 1)/(R + 1) (the chord lemma at R): the engine's exact level lies between
    and equals the brute force's."""
    rows = [[T / (T + 1), 1 / (T + 1)], [1 / (T + 1), T / (T + 1)]]
    engine, _ = _engine_level(rows)
    t = mpmath.mpf(T.numerator) / T.denominator
    R = (t + 1) / 2
    lower = mpmath.log((t + 1) ** 2 / (4 * t)) / 2
    upper = mpmath.log(R) * (R - 1) / (R + 1)
    assert lower - mpmath.mpf(10) ** -40 <= engine <= upper + mpmath.mpf(10) ** -40
    assert _close(engine, zcdp_level_mp(rows, "removal", dps=40))


# -- the proved f against the brute levels ---------------------------------------------------------------------------

def _log(v):
    return INF if v is None else mpmath.log(mpmath.mpf(v.numerator) / v.denominator)


def _ratio(v):
    return v if v == INF else mpmath.mpf(v.numerator) / v.denominator


#: each definition's raw level by the brute force: (function of rows and classes, least N)
BRUTE = {
    "ldp": (lambda r, c: _ratio(brute.ldp(r)), 2),
    "dp": (lambda r, c: _ratio(brute.dp(r)), 2),
    "lip": (lambda r, c: _ratio(brute.kt(r, 1)), 2),
    "kdp": (lambda r, c: _ratio(brute.kdp(r, 2)), 3),
    "kt-closeness": (lambda r, c: _ratio(brute.kt(r, 2)), 3),
    "pml": (lambda r, c: _ratio(brute.subset_upper(r, 1)), 2),
    "zcdp-ldp": (lambda r, c: zcdp_level_mp(r, "pairs", dps=30), 2),
    "zcdp-dp": (lambda r, c: zcdp_level_mp(r, "removal", dps=30), 2),
    "kl-dp": (lambda r, c: brute.kl_level_float(r, "removal"), 2),
    "renyi-dp": (lambda r, c: _log(brute.renyi_level_sum(r, 2, "removal")), 2),
    "tv-dp": (lambda r, c: _ratio(brute.tv_level(r, "removal")), 2),
    "tv-ldp": (lambda r, c: _ratio(brute.tv_level(r, "pairs")), 2),
    "delta-dp": (lambda r, c: _ratio(brute.hockey_level(r, F(2), "removal")), 2),
    "delta-ldp": (lambda r, c: _ratio(brute.hockey_level(r, F(2), "pairs")), 2),
    "eps-delta-dp": (lambda r, c: _ratio(brute.eps_delta_dp(r, F(1, 10))), 2),
    "kl-closeness": (lambda r, c: brute.kl_level_float(r, "class", c), 2),
    "renyi-closeness": (lambda r, c: _log(brute.renyi_level_sum(r, 2, "class", c)), 2),
    "emd-t-closeness": (lambda r, c: _ratio(brute.emd_t(r, c)), 2),
}

#: the parameters the matrix states
PARAMS = {"kdp": {"k": 2}, "kt-closeness": {"k": 2}, "renyi-dp": {"alpha": 2}, "renyi-ldp": {"alpha": 2},
          "renyi-closeness": {"alpha": 2},
          "delta-dp": {"eps": sympy.log(2)}, "delta-ldp": {"eps": sympy.log(2)},
          "eps-delta-dp": {"delta": sympy.Rational(1, 10)}, "emd-t-closeness": {"ground": "equal"}}

#: the implications with zcdp-dp the engine proves for every N (matrix over every definition)
PROVED = [("ldp", "zcdp-dp"), ("dp", "zcdp-dp"), ("lip", "zcdp-dp"), ("zcdp-ldp", "zcdp-dp"), ("kdp", "zcdp-dp"),
          ("kt-closeness", "zcdp-dp"), ("zcdp-dp", "kl-dp"), ("zcdp-dp", "renyi-dp"), ("zcdp-dp", "tv-dp"),
          ("zcdp-dp", "tv-ldp"), ("zcdp-dp", "delta-dp"), ("zcdp-dp", "delta-ldp"), ("zcdp-dp", "eps-delta-dp"),
          ("zcdp-dp", "kl-closeness"), ("zcdp-dp", "renyi-closeness"), ("zcdp-dp", "emd-t-closeness"),
          ("zcdp-dp", "pml")]

_LEVELS: dict = {}


def _levels(name, rows, classes):
    key = (name, tuple(map(tuple, rows)), tuple(classes))
    if key not in _LEVELS:
        fn, least = BRUTE[name]
        _LEVELS[key] = None if len(rows) < least else fn(rows, classes)
    return _LEVELS[key]


def _params(name):
    from implgraph.core.formula import Word
    return {k: (Word(v) if isinstance(v, str) else sympy.sympify(v)) for k, v in PARAMS.get(name, {}).items()}


def _proved_U(a, b):
    """The engine's proved bound of B's raw level in A's raw level T and N (an expression), its verdict checked."""
    from implgraph.engines.prove import check_implication
    r = check_implication(a, b, a_params=_params(a), b_params=_params(b))
    assert r.verdict == "proved", (a, b, r.verdict, r.evidence[:300])
    return sympy.sympify(r.details["U_raw"], locals={"T": sympy.Symbol("T", positive=True),
                                                     "N": sympy.Symbol("N", integer=True, positive=True)})


def _at(U, T, N):
    with mpmath.workdps(40):
        t = sympy.Rational(T.numerator, T.denominator) if isinstance(T, F) else sympy.Float(str(T), 40)
        v = U.subs({sympy.Symbol("T", positive=True): t,
                    sympy.Symbol("N", integer=True, positive=True): N})
        v = sympy.N(v, 40)
        return INF if v in (sympy.oo, sympy.zoo) else mpmath.mpf(str(v))


@pytest.mark.parametrize("a,b", PROVED, ids=[f"{a}=>{b}" for a, b in PROVED])
def test_proved_f_is_never_below_the_brute_level(a, b):
    """On every table of a grid (N = 2, 3, 4; two buckets; classes: the first record alone, or every record alone), B's
    brute level is at most the engine's proved bound at A's brute level (A's raw level T: a ratio e^eps, or the
    divergence itself)."""
    U = _proved_U(a, b)
    checked = 0
    for rows in itertools.chain(_grid((2, 3)), _grid((4,), (F(1, 4), F(1, 2), F(2, 3)))):
        n = len(rows)
        for classes in (["E1"] + ["E2"] * (n - 1), list(range(n))):
            ta, tb = _levels(a, rows, classes), _levels(b, rows, classes)
            if ta is None or tb is None or ta == INF:
                continue
            bound = _at(U, ta, n)
            assert tb != INF and tb <= bound + mpmath.mpf(10) ** -12 * max(1, abs(bound)), (rows, classes, ta, tb,
                                                                                          bound)
            checked += 1
    assert checked >= 20


def test_the_removal_bounds_are_the_chord_at_R():
    """The f of ldp, dp and lip => zcdp-dp by hand: R = (N - 1 + e^eps)/N (ldp: Q_i/P = N/(N - 1 + x_i/Q_i), a
    mediant), R = e^eps (dp: the pair's own ratios; lip: [1/T, (N - 1/T)/(N - 1)] inside [1/T, T]), the bound
    ln R (R - 1)/(R + 1); the engine's proved U is no larger than it (it is this bound)."""
    Ts, Ns = sympy.Symbol("T", positive=True), sympy.Symbol("N", integer=True, positive=True)
    for a, R in (("ldp", (Ns - 1 + Ts) / Ns), ("dp", Ts), ("lip", Ts)):
        U = _proved_U(a, "zcdp-dp")
        by_hand = sympy.log(R) * (R - 1) / (R + 1)
        for N, T in itertools.product((2, 3, 7), (F(1), F(3, 2), F(4), F(40))):
            assert _at(U, T, N) <= _at(by_hand, T, N) + mpmath.mpf(10) ** -30


# -- witnesses --------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("N", [2, 3])
def test_zero_concentrated_family_on_removal(N):
    """zcdp-dp =/=> dp (and every two-sided ratio): one record at (K b, 1 - K b), N - 1 at (b, 1 - b), K = 2^j,
    b = 2^(-j^2 - 2 j). The brute zCDP level on removal stays <= 1 (the family's level between records is <= 1, and a
    removal compares averages of records), while dp's level is at least (K + N - 1)/N (P against Q = y, bucket 1):
    it grows without bound in j."""
    previous = 0
    for j in (1, 2, 3, 4):
        K, b = 2 ** j, F(1, 2 ** (j * j + 2 * j))
        rows = [[K * b, 1 - K * b]] + [[b, 1 - b]] * (N - 1)
        assert zcdp_level_mp(rows, "removal", dps=30) <= 1
        ratio = brute.dp(rows)
        assert ratio >= F(K + N - 1, N) and ratio > previous
        previous = ratio
    assert previous >= F(16 + N - 1, N)


@pytest.mark.parametrize("N", [2, 3])
def test_lower_family_on_removal(N):
    """kl-dp, kl-ldp, renyi-dp(2), renyi-ldp(2) =/=> zcdp-dp: one record at (K b, 1 - K b), N - 1 at (b, 1 - b),
    b = 1/((K - 1)^2 + 1). By hand chi^2 <= 1 both ways between the two records, so KL <= 1 and D_2 <= log 2, between
    records and (averages) on removal: the brute levels say so. zcdp-dp's level is at least D_3(P || y)/3 >=
    log(b (K + N - 1)^3/N^3)/6, unbounded in K: the brute level passes 1 at K = 10^4."""
    for K in (3, 10, 100, 10 ** 4):
        b = F(1, (K - 1) ** 2 + 1)
        rows = [[K * b, 1 - K * b]] + [[b, 1 - b]] * (N - 1)
        for compares in ("pairs", "removal"):
            assert brute.kl_level_float(rows, compares) <= 1
            assert brute.renyi_level_sum(rows, 2, compares) <= 2
        level = zcdp_level_mp(rows, "removal", dps=30)
        assert level >= mpmath.log(mpmath.mpf(b.numerator) / b.denominator * mpmath.mpf(K + N - 1) ** 3 / N ** 3) / 6
    assert level > 1


@pytest.mark.parametrize("N", [2, 3, 4, 5])
def test_support_families_into_zcdp_dp(N):
    """A finite, zcdp-dp infinite at every N: one record at (1, 0), N - 1 at (0, 1) (removing the first leaves Q = (0, 1)
    against P positive in bucket 1): tv-dp (<= 1/N), tv-ldp, delta-dp, delta-ldp (at most TV), pml (at most N),
    kl-closeness and renyi-closeness (a class against the table, finite) are finite there; one record at
    (1/10, 9/10), N - 1 at (0, 1): eps-delta-ldp(1/10) and eps-delta-dp(1/10) at level 0 (every event where one side is 0
    has mass <= 1/10 on the other), zcdp-dp infinite (the same reason)."""
    rows = [[F(1), F(0)]] + [[F(0), F(1)]] * (N - 1)
    classes = ["E1"] + ["E2"] * (N - 1)
    assert zcdp_level_mp(rows, "removal") == INF
    for name in ("tv-dp", "tv-ldp", "delta-dp", "delta-ldp", "pml", "kl-closeness", "renyi-closeness"):
        assert _levels(name, rows, classes) != INF, name
    rows = [[F(1, 10), F(9, 10)]] + [[F(0), F(1)]] * (N - 1)
    assert zcdp_level_mp(rows, "removal") == INF
    assert brute.eps_delta_ldp(rows, F(1, 10)) == 1 and brute.eps_delta_dp(rows, F(1, 10)) == 1


@pytest.mark.parametrize("N", [3, 4, 5, 6])
def test_support_family_out_of_zcdp_dp(N):
    """zcdp-dp finite, B infinite at every N >= 3: one record at (0, 1), N - 1 at (1/2, 1/2). Every Q_i keeps a
    (1/2, 1/2) record, so every removal pair is positive in both buckets (zcdp-dp finite); the records (0, 1) and
    (1/2, 1/2) make every level between records infinite (ldp, zcdp-ldp, kl-ldp, renyi-ldp, eps-delta-ldp(1/10): the
    event {1} has 1/2 > 1/10 against 0), and lip (the record (0, 1) against the table, bucket 1)."""
    rows = [[F(0), F(1)]] + [[F(1, 2), F(1, 2)]] * (N - 1)
    assert zcdp_level_mp(rows, "removal") not in (INF, None)
    assert brute.ldp(rows) == INF and brute.kt(rows, 1) == INF
    assert zcdp_level_mp(rows, "pairs") == INF and brute.kl_level_float(rows, "pairs") == INF
    assert brute.renyi_level_sum(rows, 2, "pairs") is None
    assert brute.eps_delta_ldp(rows, F(1, 10)) == INF


WITNESSED = [("tv-dp", "zcdp-dp"), ("eps-delta-ldp", "zcdp-dp"), ("zcdp-dp", "ldp"), ("zcdp-dp", "zcdp-ldp"),
             ("zcdp-dp", "kl-ldp")]


@pytest.mark.parametrize("a,b", WITNESSED, ids=[f"{a}=/=>{b}" for a, b in WITNESSED])
def test_engine_witness_tables_break_the_implication(a, b):
    """The engine's refutation of A => B: its witness table, re-checked with the brute force, has A finite and B
    infinite (no f can work)."""
    from implgraph.api_checks import check_edge
    nodes = {"eps-delta-ldp": "eps-delta-ldp(delta=1/10)"}
    r = check_edge(nodes.get(a, a), nodes.get(b, b), N=3).forward
    assert r.verdict == "refuted" and r.witness["level_b"] == "oo", (a, b, r.verdict)
    rows = [[F(v) for v in row] for row in r.witness["rows"]]
    level_a = {"tv-dp": lambda: brute.tv_level(rows, "removal"),
               "eps-delta-ldp": lambda: brute.eps_delta_ldp(rows, F(1, 10)),
               "zcdp-dp": lambda: zcdp_level_mp(rows, "removal")}[a]()
    level_b = {"zcdp-dp": lambda: zcdp_level_mp(rows, "removal"), "ldp": lambda: brute.ldp(rows),
               "zcdp-ldp": lambda: zcdp_level_mp(rows, "pairs"),
               "kl-ldp": lambda: brute.kl_level_float(rows, "pairs")}[b]()
    assert level_a != INF and level_b == INF, (rows, level_a, level_b)


def test_zcdp_dp_is_declared_beside_zcdp_ldp():
    """The definition: a removal zero-concentrated divergence, level rho, model dp; not named in any engine file."""
    import pathlib
    d = get("zcdp-dp")
    assert d.level.kind == "zcdp" and d.level.compares == "removal" and d.level_symbol == "rho"
    assert "Bun and Steinke" in d.reference and "Definition 1.1" in d.reference
    root = pathlib.Path(__file__).resolve().parents[1] / "implgraph"
    for sub in ("prover", "engines", "certify"):
        for path in (root / sub).rglob("*.py"):
            assert '"zcdp-dp"' not in path.read_text(), path


def test_bad_input_is_one_line():
    """Record removal needs two records: a one-line error."""
    from implgraph.core.concrete import ConcreteTable
    from implgraph.core.errors import InputError
    with pytest.raises(InputError) as exc:
        get("zcdp-dp").concrete_enclosed(ConcreteTable.from_fractions([[F(1, 2), F(1, 2)]]))
    assert "\n" not in str(exc.value)


# -- certificates -----------------------------------------------------------------------------------------------------

def test_removal_chord_certificate_rechecks_and_forgeries_fail():
    """ldp => zcdp-dp: the certificate (zcdp-chord on record removal) is accepted by the independent checker; a smaller
    R (with its U), a claimed tightness, or another interval is refused."""
    import copy

    from implgraph.certify import check_certificate
    from implgraph.engines.prove import check_implication
    cert = check_implication("ldp", "zcdp-dp").details["certificate"]
    assert check_certificate(cert).ok
    forged = copy.deepcopy(cert)
    forged["upper_certificate"]["R"], forged["upper"] = "1", "0"
    assert not check_certificate(forged).ok
    forged = copy.deepcopy(cert)
    forged["tight"] = True
    assert not check_certificate(forged).ok
    forged = copy.deepcopy(cert)
    forged["upper_certificate"]["hi"] = "1"
    assert not check_certificate(forged).ok


@pytest.mark.parametrize("a,b", [("zcdp-dp", "dp"), ("kl-dp", "zcdp-dp"), ("renyi-ldp", "zcdp-dp")])
def test_family_certificates_recheck_and_a_forged_family_fails(a, b):
    """The witness families' certificates (zcdp-family with A on removal; zcdp-lower-family with B on removal) are
    accepted by the independent checker; the same family with its first record's count doubled is refused."""
    import copy

    from implgraph.certify import check_certificate
    from implgraph.engines.prove import check_implication
    r = check_implication(a, b, a_params=_params(a), b_params=_params(b))
    assert r.verdict == "refuted"
    cert = r.details["certificate"]
    assert check_certificate(cert).ok
    forged = copy.deepcopy(cert)
    forged["family"]["rows"][0]["count"] = "2"
    assert not check_certificate(forged).ok
