"""The Coq generator of the ``subset-chord`` certificates (``SubsetChord.v``): a two-sided subset level of size j bounds
the KL and Renyi-2 divergence of every class from the table by the chord of phi on [lo, hi], the range of one record's
ratio to the table, hi = min(N - (N - 1)/T, (j T (N - 1) - (j - 1) N)/(N - j)), lo = max(0, N - (N - 1) T,
(j (N - 1)/T - (j - 1) N)/(N - j)) (docs/proofs/subset-closeness-chord.md).

The prover's certificates (``tests/data/coq/subset_chord.json``: kt-closeness(k=2), j = 2, and kdp(k=2), j = N - 2,
against kl-closeness and renyi-closeness(alpha=2), and the same with the sizes symbols, j = k1 and j = N - k2) check
with coqc and a clean axiom audit. Their U is attained (by hand, the proof's step 4): at N = 7, T = 3/2, kt(2) has [lo,
hi] = [1/5, 11/5] (h2 = (18 - 7)/5, l2 = (8 - 7)/5), L = (1 - lo)/(hi - lo) = 2/5, the table P = (2/5, 3/5) with record
0 at (hi L, lo (1 - L)) = (22/25, 3/25) and six records at ((N - hi) L/(N - 1), (N - lo)(1 - L)/(N - 1)) = (8/25,
17/25): record 0 alone in its class has KL (22/25) ln(11/5) + (3/25) ln(1/5) and sum x^2/P = hi + lo - hi lo = 49/25. At
N = 5, T = 9/8 kdp(2) (j = 3) has [1/2, 13/9], L = 9/17, record 0 at (13/17, 4/17), four at (8/17, 9/17): KL (13/17)
ln(13/9) + (4/17) ln(1/2), sum 11/9. So a smaller U is a false claim; a forged certificate (an edited U, end, size or
condition) gives a file the generator writes and coqc rejects at the step the edit concerns (named beside each forgery).

The coqc tests are slow and skip where Debian's ``coq`` is not installed.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

import pytest
import sympy

from _forge import edited

from implgraph.kernel_coq.coqexpr import Untranslatable
from implgraph.kernel_coq.gen_extreme_points import _pieces
from implgraph.kernel_coq.registry import COVERED, generate

from _coq import assert_kernel_checked, coq, failing_step, load_certs

CERTS = load_certs("subset_chord.json")
KT_KL, KT_R = "kt-closeness(k=2) => kl-closeness", "kt-closeness(k=2) => renyi-closeness(alpha=2)"
KDP_KL, KDP_R = "kdp(k=2) => kl-closeness", "kdp(k=2) => renyi-closeness(alpha=2)"
#: the sizes as symbols (the matrix's symbols mode): kt-closeness(k=k1), j = k1; kdp(k=k2), j = N - k2
KT1_R, KDP2_KL = "kt-closeness(k=k1) => renyi-closeness(alpha=2)", "kdp(k=k2) => kl-closeness"

#: the attaining tables (module notes): (rows, classes, N, T, KL, Renyi's sum)
KT_ROWS = [[Fraction(22, 25), Fraction(3, 25)]] + [[Fraction(8, 25), Fraction(17, 25)]] * 6
KDP_ROWS = [[Fraction(13, 17), Fraction(4, 17)]] + [[Fraction(8, 17), Fraction(9, 17)]] * 4
ATTAINED = {
    "kt": (KT_ROWS, 7, Fraction(3, 2), 22 / 25 * math.log(11 / 5) + 3 / 25 * math.log(1 / 5), Fraction(49, 25)),
    "kdp": (KDP_ROWS, 5, Fraction(9, 8), 13 / 17 * math.log(13 / 9) + 4 / 17 * math.log(1 / 2), Fraction(11, 9)),
}


def _piecewise(pieces):
    """A Piecewise's text from ``[(bound, [conditions])]`` (the last without a condition)."""
    return "Piecewise(" + ", ".join(f"({b}, {' & '.join(f'({c})' for c in cs) if cs else 'True'})"
                                    for b, cs in pieces) + ")"


def _edit_piece(name, index, bound=None, conds=None):
    pieces = _pieces(CERTS[name]["upper"])
    b, cs = pieces[index]
    pieces[index] = (bound(b) if bound else b, conds(cs) if conds else cs)
    return edited(CERTS[name], ["upper"], _piecewise(pieces))


def _edit_end(name, key, fn):
    """The certificate with its ``upper_certificate[key]`` (a Max or Min) edited by ``fn`` on the argument list."""
    from implgraph.kernel_coq.gen_subset_chord import _args
    text = CERTS[name]["upper_certificate"][key]
    func = "Max" if key == "lo" else "Min"
    return edited(CERTS[name], ["upper_certificate", key], f"{func}({', '.join(fn(_args(text, func)))})")


def _smaller(text):
    return f"({text})*(N - 1)/N"


def _log_smaller(text):
    inner = re.fullmatch(r"log\((.*)\)", text).group(1)
    return f"log(({inner})*(N - 1)/N)"


def _strict_zero(conds):
    from implgraph.kernel_coq.gen_subset_chord import _relation
    small, large = _relation(conds[0])
    return [f"{small} <= ({large}) - 1"] + conds[1:]


FORGERIES = [
    # exp(U) = (hi + lo - hi lo)(N - 1)/N: below the 49/25 the rows attain; the identity with the chord fails
    ("renyi U", _edit_piece(KT_R, 1, _log_smaller), "value"),
    # lo = Max(1/2, ...) in U: above A's range (lo = 1/5 at N = 7, T = 3/2); not at most any of the certificate's
    ("renyi lo in U", _edit_piece(KT_R, 1, lambda b: b.replace("Max(0, ", "Max(1/2, ")), "Hulo0"),
    # the certificate's hi with its first argument halved: below A's N - (N - 1)/T
    ("renyi hi", _edit_end(KDP_R, "hi", lambda a: [f"({a[0]})/2"] + a[1:]), "Hchi0"),
    # the certificate's lo with 1/2 added: above the library's arguments
    ("kl lo", _edit_end(KT_KL, "lo", lambda a: a + ["1/2"]), "Hclo"),
    # W times (N - 1)/N: below the value the rows attain
    ("kl W", _edit_piece(KT_KL, 2, _smaller), "value"),
    # log(hi) times (N - 1)/N where lo <= 0
    ("kl log(hi)", _edit_piece(KDP_KL, 1, _smaller), "value"),
    # the condition max(l1, l2) <= -1: its negation no longer gives lo > 0 (l_i + 1 is no multiple c l_i, c >= 0)
    ("kl condition", _edit_piece(KT_KL, 1, conds=_strict_zero), "Hcf"),
    # the certificate's size 3 for kt-closeness(k=2)
    ("kt size", edited(CERTS[KT_KL], ["upper_certificate", "size"], "3"), "Hj"),
    # N - 3 for kdp(k=2); N - k2 - 1 for kdp(k=k2)
    ("kdp size", edited(CERTS[KDP_R], ["upper_certificate", "size"], "N - 3"), "Hj"),
    ("kdp(k2) size", edited(CERTS[KDP2_KL], ["upper_certificate", "size"], "N - k2 - 1"), "Hj"),
    # as "renyi hi", with the size a symbol: hi's first argument halved, below A's N - (N - 1)/T
    ("kt(k1) hi", _edit_end(KT1_R, "hi", lambda a: [f"({a[0]})/2"] + a[1:]), "Hchi0"),
    # U = 0 up to T = 2: A's T = 3/2 table has B > 0
    ("first clause", _edit_piece(KDP_R, 0, conds=lambda cs: ["T <= 2"]), "E1"),
    # U = -1/N at T = 1: below phi(1) = 0
    ("value at one", _edit_piece(KT_KL, 0, bound=lambda b: "-1/N"), "HU1"),
]


def _value(text, n, t):
    """A certificate's U at (N, T) (the project's safe parser; sympy only evaluates)."""
    from implgraph.core.formula import parse_expr
    N, T = sympy.Symbol("N", positive=True, integer=True), sympy.Symbol("T", positive=True)
    return float(parse_expr(text, {"N": N, "T": T}).subs({N: n, T: sympy.Rational(t)}))


@pytest.mark.parametrize("a", ["kt", "kdp"])
def test_the_rows_have_level_t_and_attain_u(a):
    import brute
    rows, n, t, kl, rsum = ATTAINED[a]
    level = brute.kt(rows, 2) if a == "kt" else brute.kdp(rows, 2)
    assert len(rows) == n and level <= t
    classes = [0] + [1] * (n - 1)
    assert math.isclose(brute.kl_level_float(rows, "class", classes), kl)
    assert brute.renyi_level_sum(rows, 2, "class", classes) == rsum
    name_kl, name_r = (KT_KL, KT_R) if a == "kt" else (KDP_KL, KDP_R)
    assert math.isclose(_value(CERTS[name_kl]["upper"], n, t), kl)
    assert math.isclose(_value(CERTS[name_r]["upper"], n, t), math.log(rsum))


def test_subset_chord_states_a_and_every_class():
    assert "subset-chord" in COVERED
    text = generate(CERTS[KT_KL])
    assert "subset_le TwoSided N K x (2) (T) ->" in text and "partition N cls (1) ->" in text
    assert "div_class_le KL N K x cls" in text and "Require Import Divergence RemovalChord RemovalChordPieces " \
                                                    "SubsetChord" in text
    assert "subset_chord_kl0" in text and "subset_chord_one KL" in text
    assert "subset_le TwoSided N K x (((INR N) - 2)) (T) ->" in generate(CERTS[KDP_R])
    assert "subset_chord_renyi2" in generate(CERTS[KDP_R])


@pytest.mark.parametrize("path,value", [(["A", "family"], "pairwise"), (["A", "sides"], "one-sided"),
                                        (["B", "params"], {"alpha": "3"})])
def test_subset_chord_refuses_other_sides(path, value):
    with pytest.raises(Untranslatable):
        generate(edited(CERTS[KT_R], path, value))


def test_subset_chord_refuses_another_shape_of_u():
    with pytest.raises(Untranslatable):
        generate(_edit_piece(KT_KL, 2, conds=lambda cs: ["T <= 3"]))


def _failing_step(cert, library, tmp_path, name):
    return failing_step(cert, library, tmp_path, name, value_line="apply Req_le")


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name", sorted(CERTS))
def test_subset_chord_certificates_check(name, library, tmp_path):
    assert_kernel_checked(CERTS[name], library, tmp_path, name)


@pytest.mark.slow
@coq
def test_the_condition_as_two_conjuncts_checks(library, tmp_path):
    # kt(2)'s max(l1, l2) <= 0 as T >= N/(N - 1) and T >= 2 (N - 1)/N: l1/(N - 1) and l2 T (N - 2)/N
    cert = _edit_piece(KT_KL, 1, conds=lambda cs: ["T >= N/(N - 1)", "T >= 2*(N - 1)/N"])
    assert "/\\" in generate(cert)
    assert _failing_step(cert, library, tmp_path, "conjuncts") is None


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name,cert,step", FORGERIES, ids=[n for n, _, _ in FORGERIES])
def test_forged_subset_chord_certificates_fail_at_their_step(name, cert, step, library, tmp_path):
    failed = _failing_step(cert, library, tmp_path, name)
    assert failed is not None and failed.startswith(step), failed


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name", [KT_KL, KDP2_KL])
def test_the_provers_subset_chord_certificate_checks(name, library, tmp_path):
    # the prover's own certificate of the edge (``implgraph certificate --edge``), as the matrices collect it: its U
    # and data are the stored ones, and its theorem checks
    import json
    import os
    import subprocess
    import sys
    a, b = name.split(" => ")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = {**os.environ, "PYTHONPATH": root + os.pathsep + os.environ.get("PYTHONPATH", "")}
    out = subprocess.run([sys.executable, "-m", "implgraph", "certificate", "--edge", a, b], capture_output=True,
                         text=True, check=True, env=env, cwd=str(tmp_path)).stdout
    (claim,) = json.loads(out)["claims"]
    (cert,) = claim["certificates"]
    assert claim["verdict"] == "proved" and cert["method"] == "subset-chord"
    assert cert["upper"] == CERTS[name]["upper"] and cert["upper_certificate"] == CERTS[name]["upper_certificate"]
    assert_kernel_checked(cert, library, tmp_path, name)
