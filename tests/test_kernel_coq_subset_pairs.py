"""The Coq generator of the ``subset-pairs`` certificates (``SubsetPairs.v``, ``implgraph/kernel_coq/gen_subset_pairs.py``):
a two-sided subset level of size j bounds the total variation between any two records (tv-ldp) by
U = min(1, j (1 - 1/T)), B stated as its additive slack on every event (``slack_pairs_le N K x U 1``).

The prover's six certificates (``tests/data/coq/subset_pairs.json``: dp, kdp(k=2), kdp(k=k2), kt-closeness(k=2),
kt-closeness(k=k1), lip) check with coqc and a clean axiom audit. U is attained (by hand): two buckets, t = U, record i
at ((1 + t)/2, (1 - t)/2), record k at ((1 - t)/2, (1 + t)/2), the N - 2 others at (1/2, 1/2); a j-subset holding one
of i, k has ratios 1 +- t/j to the table, within [1/T, T] (t/j <= 1 - 1/T). kt-closeness(k=2) at N = 4, T = 3/2:
t = 2/3, rows (5/6, 1/6), (1/6, 5/6); kdp(k=2) at N = 5, T = 5/4: j = 3, t = 3/5; dp at N = 3, T = 2: t = 1, rows
(1, 0), (0, 1), (1/2, 1/2); lip at N = 3, T = 2: t = 1/2. So a smaller U is a false claim; a forged certificate gives
a file the generator writes and coqc rejects at the step the edit concerns (named beside each forgery). The
divergence predicate would be false: at t = 1 the two records have disjoint supports (no domination).

The coqc tests are slow and skip where Debian's ``coq`` is not installed.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy

from _forge import edited

from implgraph.core.formula import parse_expr
from implgraph.kernel_coq.coqexpr import Untranslatable
from implgraph.kernel_coq.registry import COVERED, generate

from _coq import assert_kernel_checked, coq, failing_step, load_certs

CERTS = load_certs("subset_pairs.json")
KT, KT1, KDP, KDP2 = ("kt-closeness(k=2) => tv-ldp", "kt-closeness(k=k1) => tv-ldp", "kdp(k=2) => tv-ldp",
                      "kdp(k=k2) => tv-ldp")
DP, LIP = "dp => tv-ldp", "lip => tv-ldp"

#: (certificate, N, T, j, t = U there, A's brute level of the family), by hand (module notes)
HAND = [(KT, 4, Fraction(3, 2), 2, Fraction(2, 3), lambda b, r: b.kt(r, 2)),
        (KDP, 5, Fraction(5, 4), 3, Fraction(3, 5), lambda b, r: b.kdp(r, 2)),
        (DP, 3, Fraction(2), 2, Fraction(1), lambda b, r: b.dp(r)),
        (LIP, 3, Fraction(2), 1, Fraction(1, 2), lambda b, r: b.kt(r, 1))]


def _family(n, t):
    half = Fraction(1, 2)
    return [[(1 + t) / 2, (1 - t) / 2], [(1 - t) / 2, (1 + t) / 2]] + [[half, half]] * (n - 2)


def _at(text, values):
    names = {n: sympy.Symbol(n, positive=True) for n in ("N", "T", "k1", "k2")}
    return parse_expr(str(text), names).subs({names[k]: sympy.nsimplify(v) for k, v in values.items()})


def _upper(name, old, new):
    text = CERTS[name]["upper"]
    assert old in text
    return edited(CERTS[name], ["upper"], text.replace(old, new))


def _size(name, size):
    cert = edited(CERTS[name], ["A", "size"], size)
    return edited(cert, ["upper_certificate", "size"], size)


FORGERIES = [
    # j (1 - 1/T) - 1/10: 17/30 at N = 4, T = 3/2, below the 2/3 the family attains; j (1 - 1/T) is above it
    ("kt U", _upper(KT, "2 - 2/T", "2 - 2/T - 1/10"), "Hu1"),
    # the cap 9/10: at N = 3, T = 2 the family's two records have total variation 1
    ("dp cap", _upper(DP, "Min(1,", "Min(9/10,"), "Hu0"),
    # 1 - 2/T: 0 at T = 2, below the 1/2 attained
    ("lip U", _upper(LIP, "1 - 1/T", "1 - 2/T"), "Hu0"),
    # (k1 - 1)(1 - 1/T) with the size k1: below the k1 (1 - 1/T) the family attains (k1 = 2, N = 4, T = 3/2)
    ("kt(k1) U", _upper(KT1, "k1*(1 - 1/T)", "(k1 - 1)*(1 - 1/T)"), "Hu1"),
    # every 3 records with U of every 2: the family of size 3 attains 3 (1 - 1/T) > 2 (1 - 1/T); and size 3 is more
    # than N - 1 at N = 3, which the domain allows
    ("kt size", _size(KT, "3"), "HsN"),
    # the certificate's size N - 3 for A's N - 2: not A's size
    ("kdp data size", edited(CERTS[KDP], ["upper_certificate", "size"], "N - 3"), "Hj"),
]


def test_subset_pairs_states_b_as_its_slack():
    assert "subset-pairs" in COVERED
    text = generate(CERTS[KT])
    assert "subset_le TwoSided N K x (2) (T) ->" in text
    assert "slack_pairs_le N K x ((Rmin 1 (2 - (2 / T)))) (1)." in text and "div_pairs_le" not in text
    assert "subset_pairs N K x (2) T Htab HA" in text and "slack_pairs_one N K x Htab" in text
    assert "subset_le TwoSided N K x (((INR N) - (INR k2))) (T) ->" in generate(CERTS[KDP2])
    assert "slack_pairs_le N K x ((1 - (1 / T))) (1)." in generate(CERTS[LIP])


@pytest.mark.parametrize("name,n,t,j,u,level", HAND, ids=[h[0] for h in HAND])
def test_the_family_has_level_t_and_attains_u(name, n, t, j, u, level):
    import brute
    rows = _family(n, u)
    assert level(brute, rows) <= t
    assert brute.eps_delta_ldp(rows, u) == 1 < brute.eps_delta_ldp(rows, u - Fraction(1, 1000))
    assert u == min(1, j * (1 - 1 / t))
    assert _at(CERTS[name]["upper"], {"N": n, "T": t}) == u


def test_the_divergence_predicate_would_be_false():
    # kt-closeness(k=2) at T = 2: t = 1, records 0 and 1 have disjoint supports (no domination), at level 2
    import brute
    rows = _family(4, Fraction(1))
    assert brute.kt(rows, 2) == 2 and rows[1][0] == 0 < rows[0][0]


@pytest.mark.parametrize("path,value", [(["A", "family"], "pairwise"), (["A", "sides"], "one-sided"),
                                        (["B", "definition"], "tv-dp")])
def test_other_sides_are_refused(path, value):
    with pytest.raises(Untranslatable):
        generate(edited(CERTS[KT], path, value))


def test_a_composition_through_subset_pairs_is_not_generated_yet():
    # kt-closeness(k=2) => delta-ldp(eps=log(2)): subset-pairs, then divergence-order; the whole's B would be stated
    # with domination, which its part's slack does not give (registered for standalone certificates only)
    part2 = {"format": "implgraph-certificate/1", "method": "divergence-order", "symbols": {"N": "integer", "T": "real"},
             "domain": ["T > 0", "N >= 2", "2 <= N - 1"],
             "A": {"definition": "tv-ldp", "params": {}, "family": None, "sides": None},
             "B": {"definition": "delta-ldp", "params": {"eps": "log(2)"}, "family": None, "sides": None},
             "upper": "T", "tight": False}
    whole = {**CERTS[KT], "method": "composition", "parts": [CERTS[KT], part2],
             "B": {"definition": "delta-ldp", "params": {"eps": "log(2)"}, "family": None, "sides": None}}
    with pytest.raises(Untranslatable, match="subset-pairs"):
        generate(whole)


def _failing_step(cert, library, tmp_path, name):
    return failing_step(cert, library, tmp_path, name)


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name", sorted(CERTS))
def test_subset_pairs_certificates_check(name, library, tmp_path):
    assert_kernel_checked(CERTS[name], library, tmp_path, name)


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name,cert,step", FORGERIES, ids=[n for n, _, _ in FORGERIES])
def test_forged_subset_pairs_certificates_fail_at_their_step(name, cert, step, library, tmp_path):
    failed = _failing_step(cert, library, tmp_path, name)
    assert failed is not None and failed.startswith(step), failed
