"""The Coq generator of the ``slack-pairs-tv`` certificates (``SlackPairsTV.v``): an additive slack d at a ratio g,
between two records or on record removal, bounds the total variation between two records by (g - 1 + 2 d)/(g + 1),
or on removal by min(1, (N - 1)(1 - (1 - 2 d)/g)); (g, d) = (T, delta) for an (eps, delta) level, (gamma, T) for a
hockey-stick level of order gamma (total variation: gamma = 1).

The prover's five certificates (``tests/data/coq/slack_pairs_tv.json``: eps-delta-ldp(delta=1/10), eps-delta-dp(delta=
1/10), delta-ldp(eps=log(2)), tv-dp and delta-dp(eps=log(2)) into tv-ldp) check with coqc and a clean axiom audit.
The same file holds four of the matrices' compositions through them, whose theorems check too.
Their U is attained (by hand, from the families in the argument's notes):

- eps-delta-ldp, T = 3, N = 3: two records at (31/40, 9/40), one at (9/40, 31/40): (31/40 - 1/10)/(9/40) = 3, total
  variation 22/40 = 11/20 = (3 - 4/5)/4;
- eps-delta-dp, N = 3, T = 9/8, t = 2 (1 - 32/45) = 26/45: (71/90, 19/90), (19/90, 71/90), (1/2, 1/2); P = 1/2, without
  the first record 16/45, (1/2 - 1/10)/(16/45) = 9/8; total variation 26/45; at T = 8/5, t = 1: (1, 0), (0, 1), (1/2,
  1/2), without the first record 1/4, (1/2 - 1/10)/(1/4) = 8/5, total variation 1;
- delta-ldp(eps=log(2)), T = 1/4: two records at (3/4, 1/4), one at (1/4, 3/4): 3/4 - 2 (1/4) = 1/4, total variation
  1/2 = 2 (1/4)/3 + 1/3;
- tv-dp, T = 1/10, N = 3, t = 2/5: (7/10, 3/10), (3/10, 7/10), (1/2, 1/2): without the first record 2/5, total
  variation from P = 1/2 is 1/10; between the first two 2/5 = 2 (1/10)(3 - 1);
- delta-dp(eps=log(2)), T = 1/10, N = 2, t = 3/5: (4/5, 1/5), (1/5, 4/5): 1/2 - 2 (1/5) = 1/10; total variation 3/5 =
  (2 - 1)(1/10 + 1/2).

So a smaller U is a false claim; a forged certificate (an edited U, delta or gamma) gives a file the generator writes
and coqc rejects at the step the edit concerns (named beside each forgery). The coqc tests are slow and skip where
Debian's ``coq`` is not installed.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest
import sympy

from _forge import edited

from implgraph.kernel_coq.coqexpr import Untranslatable
from implgraph.kernel_coq.registry import COVERED, generate

from _coq import assert_kernel_checked, coq, failing_step, load_certs

CERTS = load_certs("slack_pairs_tv.json")
LDP, DP = "eps-delta-ldp(delta=1/10) => tv-ldp", "eps-delta-dp(delta=1/10) => tv-ldp"
HLDP, TVDP, HDP = "delta-ldp(eps=log(2)) => tv-ldp", "tv-dp => tv-ldp", "delta-dp(eps=log(2)) => tv-ldp"
LEAVES = [LDP, DP, HLDP, TVDP, HDP]
#: compositions through slack-pairs-tv as the matrices carry them (its theorem the first part, or the second)
COMPOSED = sorted(n for n in CERTS if n.endswith("(composition)"))


def _rows(*pairs):
    return [[F(a), F(b)] for a, b in pairs]


def _hockey(rows, g, compares):
    """The hockey-stick level of order g, the largest p(S) - g q(S) (at least 0), over the compared distributions."""
    import brute
    return max([F(0)] + [sum(p[b] for b in S) - g * sum(q[b] for b in S)
                         for p, q in brute._pairs_of(rows, compares) for S in brute._events(len(rows[0]))])


def _a_level(name, rows):
    import brute
    return {LDP: lambda: brute.eps_delta_ldp(rows, F(1, 10)), DP: lambda: brute.eps_delta_dp(rows, F(1, 10)),
            HLDP: lambda: _hockey(rows, 2, "pairs"), TVDP: lambda: _hockey(rows, 1, "removal"),
            HDP: lambda: _hockey(rows, 2, "removal")}[name]()


#: the attaining tables (module notes): (name, rows, T, A's level, the total variation between two records)
ATTAINED = [
    (LDP, _rows(("31/40", "9/40"), ("31/40", "9/40"), ("9/40", "31/40")), F(3), F(3), F(11, 20)),
    (DP, _rows(("71/90", "19/90"), ("19/90", "71/90"), ("1/2", "1/2")), F(9, 8), F(9, 8), F(26, 45)),
    # at the ceiling: without the first record (1/4, 3/4), (1/2 - 1/10)/(1/4) = 8/5; U = min(1, 2 (1 - 1/2)) = 1
    (DP, _rows((1, 0), (0, 1), ("1/2", "1/2")), F(8, 5), F(8, 5), F(1)),
    (HLDP, _rows(("3/4", "1/4"), ("3/4", "1/4"), ("1/4", "3/4")), F(1, 4), F(1, 4), F(1, 2)),
    (TVDP, _rows(("7/10", "3/10"), ("3/10", "7/10"), ("1/2", "1/2")), F(1, 10), F(1, 10), F(2, 5)),
    (HDP, _rows(("4/5", "1/5"), ("1/5", "4/5")), F(1, 10), F(1, 10), F(3, 5)),
]


def _value(text, n, t):
    """A certificate's U at (N, T) (the project's safe parser; sympy only evaluates)."""
    from implgraph.core.formula import parse_expr
    N, T = sympy.Symbol("N", positive=True, integer=True), sympy.Symbol("T", positive=True)
    return sympy.nsimplify(parse_expr(text, {"N": N, "T": T}).subs({N: n, T: sympy.Rational(t)}))


@pytest.mark.parametrize("name,rows,t,level,tv", ATTAINED)
def test_the_rows_have_level_t_and_attain_u(name, rows, t, level, tv):
    import brute
    assert _a_level(name, rows) == level <= t
    assert _hockey(rows, 1, "pairs") == tv
    assert _value(CERTS[name]["upper"], len(rows), t) == sympy.Rational(tv.numerator, tv.denominator)
    assert brute.INF not in (level, tv)


def test_slack_pairs_tv_states_a_and_b_as_their_slacks():
    assert "slack-pairs-tv" in COVERED
    text = generate(CERTS[LDP])
    assert "slack_pairs_le N K x ((1 / 10)) (T) ->" in text and "Require Import Divergence SlackPairsTV" in text
    assert "slack_pairs_le N K x (((T - (4 / 5)) / (T + 1))) (1)." in text and "slack_pairs_tv_pairs" in text
    text = generate(CERTS[DP])
    assert "slack_removal_le N K x ((1 / 10)) (T) ->" in text and "slack_pairs_tv_removal" in text
    assert "slack_pairs_le N K x ((Rmin 1 " in text and "slack_pairs_tv_one" in text
    assert "slack_pairs_le N K x (T) (2) ->" in generate(CERTS[HLDP])
    assert "slack_removal_le N K x (T) (1) ->" in generate(CERTS[TVDP])
    assert "slack_removal_le N K x (T) (2) ->" in generate(CERTS[HDP])
    assert "div_pairs_le" not in generate(CERTS[HDP])


@pytest.mark.parametrize("path,value", [
    (["B", "definition"], "kl-ldp"),                                   # B not the total variation
    (["upper_certificate", "slack", "compares"], "removal"),           # the certificate's slack against A's
    (["upper_certificate", "slack"], None),                            # neither slack nor a_divergence
])
def test_slack_pairs_tv_refuses_other_sides(path, value):
    with pytest.raises(Untranslatable):
        generate(edited(CERTS[LDP], path, value))


def test_slack_pairs_tv_refuses_an_a_without_slack():
    cert = edited(CERTS[HLDP], ["A"], {"definition": "ldp", "params": {}, "family": "pairwise", "sides": "two-sided"})
    with pytest.raises(Untranslatable):
        generate(cert)


FORGERIES = [
    # (T - 9/10)/(T + 1): 21/40 at T = 3, below the 11/20 the rows attain
    ("pairs U", edited(CERTS[LDP], ["upper"], "(T - 9/10)/(T + 1)"), "HU"),
    # the certificate's delta 1/20 against A's 1/10
    ("pairs delta", edited(CERTS[LDP], ["upper_certificate", "slack", "delta"], "1/20"), "Hd"),
    # A's delta 1/20 (its slack and parameter) against the certificate's 1/10
    ("A's delta", edited(edited(CERTS[LDP], ["A", "slack", "delta"], "1/20"), ["A", "params", "delta"], "1/20"), "Hd"),
    # (1 - 9/(10 T))(N - 1): 4/9 at N = 3, T = 9/8, below the 26/45 the rows attain
    ("removal U", edited(CERTS[DP], ["upper"], "Min(1, (1 - 9/(10*T))*(N - 1))"), "HU1"),
    # the ceiling 1/2 for 1: below the total variation 1 the rows (1, 0), (0, 1), (1/2, 1/2) attain at T = 8/5
    ("removal ceiling", edited(CERTS[DP], ["upper"], "Min(1/2, (1 - 4/(5*T))*(N - 1))"), "HU0"),
    ("removal delta", edited(CERTS[DP], ["upper_certificate", "slack", "delta"], "1/20"), "Hd"),
    # gamma 3 for delta-ldp(eps=log(2))'s 2, and 2 for tv-dp's 1
    ("hockey gamma", edited(CERTS[HLDP], ["upper_certificate", "a_divergence", "gamma"], "3"), "Hg"),
    ("tv gamma", edited(CERTS[TVDP], ["upper_certificate", "a_divergence", "gamma"], "2"), "Hg"),
    # 2 T/3 + 1/4: 5/12 at T = 1/4, below the 1/2 the rows attain
    ("hockey U", edited(CERTS[HLDP], ["upper"], "2*T/3 + 1/4"), "HU"),
    # (N - 1)(T + 1/4): 7/20 at N = 2, T = 1/10, below the 3/5 the rows attain
    ("hockey removal U", edited(CERTS[HDP], ["upper"], "Min(1, (N - 1)*(T + 1/4))"), "HU1"),
]


def _failing_step(cert, library, tmp_path, name):
    return failing_step(cert, library, tmp_path, name)


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name", LEAVES)
def test_slack_pairs_tv_certificates_check(name, library, tmp_path):
    assert_kernel_checked(CERTS[name], library, tmp_path, name)


@pytest.mark.parametrize("name", COMPOSED)
def test_compositions_through_slack_pairs_tv_are_stated(name):
    assert "slack_pairs_tv_" in generate(CERTS[name])


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name", COMPOSED)
def test_compositions_through_slack_pairs_tv_check(name, library, tmp_path):
    assert_kernel_checked(CERTS[name], library, tmp_path, name)


@pytest.mark.slow
@coq
def test_the_removal_bound_without_its_ceiling_checks(library, tmp_path):
    # U = (N - 1)(1 - (1 - 2 delta)/T) alone (at least the Min): the lemma's value by field, no Min to split
    cert = edited(CERTS[DP], ["upper"], "(1 - 4/(5*T))*(N - 1)")
    assert "min_bound" not in generate(cert)
    assert_kernel_checked(cert, library, tmp_path, "no ceiling")


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name,cert,step", FORGERIES, ids=[n for n, _, _ in FORGERIES])
def test_forged_slack_pairs_tv_certificates_fail_at_their_step(name, cert, step, library, tmp_path):
    failed = _failing_step(cert, library, tmp_path, name)
    assert failed == step, failed


@pytest.mark.slow
@coq
@pytest.mark.parametrize("a", ["eps-delta-dp(delta=1/4)", "tv-dp"])
def test_the_provers_slack_pairs_tv_certificate_checks(a, library, tmp_path):
    # the prover's own certificate of the edge (``implgraph certificate --edge``), at a delta other than the stored
    # one too: it is slack-pairs-tv's and its theorem checks
    import json
    import os
    import subprocess
    import sys
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = {**os.environ, "PYTHONPATH": root + os.pathsep + os.environ.get("PYTHONPATH", "")}
    out = subprocess.run([sys.executable, "-m", "implgraph", "certificate", "--edge", a, "tv-ldp"], capture_output=True,
                         text=True, check=True, env=env, cwd=str(tmp_path)).stdout
    (claim,) = json.loads(out)["claims"]
    (cert,) = claim["certificates"]
    assert claim["verdict"] == "proved" and cert["method"] == "slack-pairs-tv"
    assert_kernel_checked(cert, library, tmp_path, a)
