"""The Coq generator of the ``chord`` certificates on record removal's total variation (tv-dp) and hockey stick at
gamma = 2 (delta-dp(eps=log(2))) against a two-sided subset level of size s = N - k, k >= 2 (kdp(k=2): s = N - 2;
kt-closeness(k=2): s = 2), whose U is ``Piecewise((0, T <= 1), (V, True))``: TV's V = (hi - 1)(1 - lo)/(hi - lo), the
hockey stick's V = max(0, L (hi - 2), (1 - L)(1 - 2 lo)), L = (1 - lo)/(hi - lo), on the interval of Q_i/P,
lo = max(1/T, (N - s T)/(N - s)), hi = min(T, N/(N - 1), (N - s/T)/(N - s)) (``RemovalChordPieces.v``: ``rconf_tv``,
``rconf_hockey``; ``implgraph/kernel_coq/gen_chord_pieces.py``).

The prover's four certificates (``tests/data/coq/subset_removal_tv.json``) check with coqc and a clean axiom audit.
Their U is attained (by hand): the table P = (L, 1 - L), one record at N P - (N - 1) Q and N - 1 at
Q = (hi L, lo (1 - L)) has Q_0/P in {lo, hi}. At N = 5, T = 2 both levels have [lo, hi] = [1/2, 5/4], L = 2/3: record
0 at (0, 1), four at (5/6, 1/6), TV 1/6. At T = 3, [1/3, 5/4], L = 8/11: four at (10/11, 1/11), the hockey stick
(1 - L)(1 - 2 lo) = 3/11 * 1/3 = 1/11. At T = 9/4, [4/9, 5/4], L = 20/29: four at (25/29, 4/29), the hockey stick
9/29 - 2 * 4/29 = 1/29. So a smaller U is a false claim; a forged certificate (an edited U, end, size, order or
condition) gives a file the generator writes and coqc rejects at the step the edit concerns (named beside each
forgery). The coqc tests are slow and skip where Debian's ``coq`` is not installed.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy

from _forge import edited

from implgraph.core.formula import parse_expr
from implgraph.kernel_coq.coqexpr import Translator, Untranslatable
from implgraph.kernel_coq.gen_chord_pieces import _ends
from implgraph.kernel_coq.gen_extreme_points import _pieces
from implgraph.kernel_coq.registry import generate

from _coq import assert_kernel_checked, coq, failing_step, load_certs

CERTS = load_certs("subset_removal_tv.json")
KT_TV, KT_H = "kt-closeness(k=2) => tv-dp", "kt-closeness(k=2) => delta-dp(eps=log(2))"
KDP_TV, KDP_H = "kdp(k=2) => tv-dp", "kdp(k=2) => delta-dp(eps=log(2))"
#: A's size s (kdp(k=2): every N - 2 records; kt-closeness(k=2): every 2)
SIZE = {"kdp": "N - 2", "kt-closeness": "2"}

#: (N, T, lo, hi, the value U takes there, the divergence: "tv" or "hockey"), by hand (module notes)
HAND = [(5, Fraction(2), Fraction(1, 2), Fraction(5, 4), Fraction(1, 6), "tv"),
        (5, Fraction(3), Fraction(1, 3), Fraction(5, 4), Fraction(1, 11), "hockey"),
        (5, Fraction(9, 4), Fraction(4, 9), Fraction(5, 4), Fraction(1, 29), "hockey")]


def _family(n, lo, hi):
    """One record at N P - (N - 1) Q, N - 1 at Q: Q/P is hi on bucket 0, lo on bucket 1."""
    L = (1 - lo) / (hi - lo)
    q = [hi * L, lo * (1 - L)]
    return [[n * L - (n - 1) * q[0], n * (1 - L) - (n - 1) * q[1]]] + [q] * (n - 1)


def _at(text, n, t):
    N, T = sympy.Symbol("N", positive=True), sympy.Symbol("T", positive=True)
    return parse_expr(str(text), {"N": N, "T": T}).subs({N: n, T: sympy.Rational(t.numerator, t.denominator)})


def _upper(name, old, new):
    text = CERTS[name]["upper"]
    assert old in text
    return edited(CERTS[name], ["upper"], text.replace(old, new))


def _scaled_v(name):
    """U's second piece times (N - 1)/N."""
    (b0, c0), (V, _) = _pieces(CERTS[name]["upper"])
    return edited(CERTS[name], ["upper"], f"Piecewise(({b0}, {c0[0]}), (({V})*(N - 1)/N, True))")


FORGERIES = [
    # V (N - 1)/N: 2/15 at N = 5, T = 2, below the 1/6 the family attains; the chord's identity fails
    ("tv U", _scaled_v(KDP_TV), "value"),
    # lo's first argument 2/T: at N = 5, T = 2 lo = 1 and U = 0 < 1/6; 2/T is at most none of the library's ends
    ("tv lo", _upper(KT_TV, "Max(1/T,", "Max(2/T,"), "Hwl0"),
    # hi's last argument (N - 3/T)/(N - 2): at N = 5, T = 9/4 hi = 11/9 and U = 2/63 < 1/29 (attained); the library's
    # (N - 2/T)/(N - 2) is above it
    ("hockey hi", _upper(KT_H, "2/(N*T - 2*T)", "3/(N*T - 2*T)"), "Hwh2"),
    # (1 - L)(1 - 3 lo): 0 at N = 5, T = 3, below the 1/11 attained; no argument is the perspective's chord
    ("hockey perspective chord", _upper(KDP_H, "(2*Max(", "(3*Max("), "value"),
    # the stick's floor -1/N: U = -1/5 at N = 5, T = 3/2 (lo = 2/3: both chords < 0), below every divergence
    ("hockey floor", _upper(KDP_H, "Max(0,", "Max(-1/N,"), "value"),
    # gamma = 3/2 with U of gamma = 2: at N = 5, T = 3 the family's hockey stick of order 3/2 is 3/22 > 1/11
    ("hockey order", edited(CERTS[KDP_H], ["B", "params"], {"eps": "log(3/2)"}), "value"),
    # every 3 records: at N = 10, T = 3/2 Q_i/P may go down to (N - 3 T)/(N - 3) = 11/14 < 7/8, U's lo; and size 3
    # is more than N - 1 at N = 3, which the domain allows
    ("kt size", edited(CERTS[KT_TV], ["A", "size"], "3"), "HsN"),
    # U = 0 up to T = 2: false at T = 2 (1/6 attained at N = 5)
    ("first clause", _upper(KDP_TV, "T <= 1", "T <= 2"), "E1"),
    # U = -1/N at T = 1: below phi(1) = 0
    ("value at one", _upper(KT_H, "Piecewise((0,", "Piecewise((-1/N,"), "HU1"),
]


@pytest.mark.parametrize("name", sorted(CERTS))
def test_the_piecewise_u_is_stated_clause_by_clause(name):
    text = generate(CERTS[name])
    kind = "TV" if "tv-dp" in name else "(Hockey (2))"
    assert f"((T <= 1) -> div_removal_le {kind} N K x ((0))) /\\" in text
    (_, _), (V, _) = _pieces(CERTS[name]["upper"])
    tr = Translator(CERTS[name]["symbols"])
    assert f"(~ (T <= 1) -> div_removal_le {kind} N K x (({tr.expr(V)})))." in text
    assert f"subset_le TwoSided N K x ({tr.expr(SIZE[name.split('(')[0]])}) (T) ->" in text
    lemma = "apply (rconf_tv N K x lo hi)" if kind == "TV" else "apply (rconf_hockey N K x (2) lo hi)"
    assert "subset_rconf_k N K x" in text and lemma in text
    assert text.count("apply Req_le; field") == (1 if kind == "TV" else 3)


@pytest.mark.parametrize("name", sorted(CERTS))
def test_the_ends_read_from_u_are_the_lemmas_interval(name):
    # by hand: every set of s records within [1/T, T] of the table puts Q_i/P in
    # [max(1/T, (N - s T)/(N - s)), min(T, N/(N - 1), (N - s/T)/(N - s))]
    (_, _), (V, _) = _pieces(CERTS[name]["upper"])
    lo, hi = _ends(V)
    for n, t in ((3, Fraction(6, 5)), (10, Fraction(3, 2)), (7, Fraction(4)), (5, Fraction(9, 4))):
        s = _at(SIZE[name.split("(")[0]], n, t)
        tt = sympy.Rational(t.numerator, t.denominator)
        assert _at(lo, n, t) == max(1 / tt, (n - s * tt) / (n - s))
        assert _at(hi, n, t) == min(tt, sympy.Rational(n, n - 1), (n - s / tt) / (n - s))


@pytest.mark.parametrize("n,t,lo,hi,value,div", HAND)
def test_the_family_has_level_t_and_attains_u(n, t, lo, hi, value, div):
    import brute
    rows = _family(n, lo, hi)
    assert rows[0] == [0, 1] and all(sum(r) == 1 and min(r) >= 0 for r in rows)
    assert brute.kdp(rows, 2) <= t and brute.kt(rows, 2) <= t
    gamma = 1 if div == "tv" else 2        # tv-dp is delta-dp at eps = 0
    assert brute.eps_delta_dp(rows, value) <= gamma < brute.eps_delta_dp(rows, value - Fraction(1, 1000))
    for name in ((KT_TV, KDP_TV) if div == "tv" else (KT_H, KDP_H)):
        (_, _), (V, _) = _pieces(CERTS[name]["upper"])
        lo_u, hi_u = _ends(V)
        assert (_at(lo_u, n, t), _at(hi_u, n, t), _at(V, n, t)) == (lo, hi, value)


RENYI3 = {"definition": "renyi-dp", "params": {"alpha": "3"}, "family": None, "sides": None}


@pytest.mark.parametrize("path,value", [(["A", "family"], "pairwise"), (["A", "sides"], "one-sided"),
                                        (["B", "definition"], "delta-ldp"), (["B"], RENYI3)])
def test_other_sides_are_refused(path, value):
    # a pairwise or one-sided A has no subset interval, delta-ldp compares pairs of records, Renyi of order 3 has no
    # lemma both ways on [lo, hi]: the generator writes no file
    with pytest.raises(Untranslatable):
        generate(edited(CERTS[KT_H], path, value))


def _failing_step(cert, library, tmp_path, name):
    return failing_step(cert, library, tmp_path, name, value_line="apply Req_le")


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name", sorted(CERTS))
def test_subset_removal_tv_certificates_check(name, library, tmp_path):
    assert_kernel_checked(CERTS[name], library, tmp_path, name)


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name,cert,step", FORGERIES, ids=[n for n, _, _ in FORGERIES])
def test_forged_subset_removal_tv_certificates_fail_at_their_step(name, cert, step, library, tmp_path):
    failed = _failing_step(cert, library, tmp_path, name)
    assert failed is not None and failed.startswith(step), failed
