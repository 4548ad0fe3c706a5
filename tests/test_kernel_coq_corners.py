"""The Coq generator of the ``corners`` certificates (``Corners.v``): each record against the table within ratio T both
ways (``lip``, a two-sided subset level of size 1) bounds the divergence between every two records by the value of the
affine function through the perspective's corner values on the box [lo, hi] = [1/T, T], at (1, 1): KL 2 (T - 1)
ln T/T, Renyi of order 2 log(T^2 - T + 1 - 1/T^2 + 1/T^3), total variation (T - 1)/T, the hockey stick of order 2
max(T^2 - 2, 0)/(T (T + 1)).

The hand-written certificates (``tests/data/coq/corners.json``) check with coqc and a clean axiom audit; each U is
attained at T = 2 by three records (2/3, 1/6, 1/6), (1/6, 2/3, 1/6), (1/6, 1/6, 2/3) (brute force below), so a
smaller U is a false claim. A forged certificate (an edited U, box end or domain) gives a file the generator writes and
coqc rejects at the step the edit concerns: the failing line's enclosing step is named beside each forgery.

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
from implgraph.kernel_coq.registry import COVERED, generate

from _coq import assert_kernel_checked, coq, load_certs

CERTS = load_certs("corners.json")
KL, RENYI, TV, HOCKEY = ("lip => kl-ldp", "lip => renyi-ldp(alpha=2)", "lip => tv-ldp",
                         "lip => delta-ldp(eps=log(2))")

#: three records each at twice the mean in one bucket: the subset level of size 1 is 2 (T = 2)
ROWS = [[Fraction(2, 3), Fraction(1, 6), Fraction(1, 6)], [Fraction(1, 6), Fraction(2, 3), Fraction(1, 6)],
        [Fraction(1, 6), Fraction(1, 6), Fraction(2, 3)]]


def _edit(name, path, value):
    return edited(CERTS[name], path, value)


FORGERIES = [
    # 2 (T - 1) log T/(T + 1): below the value ln 2 the rows attain at T = 2; the identity with (1 - lo) ln(hi/lo) fails
    ("kl U", _edit(KL, ["upper"], "2*(T - 1)*log(T)/(T + 1)"), "Hc"),
    # hi = T/2: A's ratios reach T > T/2 (the box does not hold A's interval)
    ("kl hi", _edit(KL, ["upper_certificate", "hi"], "T/2"), "Hhi"),
    # lo = 1/(2 T): a wider box, whose value (1 - 1/(2 T)) ln(2 T^2) is not U
    ("kl lo", _edit(KL, ["upper_certificate", "lo"], "1/(2*T)"), "Hc"),
    # the domain without T >= 1: the lemma asks it (the ratio level is at least 1)
    ("kl domain", _edit(KL, ["domain"], ["T > 0", "N >= 2"]), "HT1"),
    # exp(U) = T^2 - T + 1 - 1/T^2, below the sum's value T^2 - T + 1 - 1/T^2 + 1/T^3 (23/8 at T = 2)
    ("renyi U", _edit(RENYI, ["upper"], "log(T**2 - T + 1 - 1/T**2)"), "Hc"),
    # lo = 1/T**2 inside A's 1/T: the wider box's value is larger than exp(U)
    ("renyi lo", _edit(RENYI, ["upper_certificate", "lo"], "1/T**2"), "Hc"),
    # (T - 1)/(T + 1): below the value 1/2 the rows attain at T = 2
    ("tv U", _edit(TV, ["upper"], "(T - 1)/(T + 1)"), "Hc"),
    # lo = 2/T: above A's 1/T (a record at m/T)
    ("tv lo", _edit(TV, ["upper_certificate", "lo"], "2/T"), "Hlo"),
    # max(T^2 - 2, 0)/(T (T + 2)): below the value 1/3 the rows attain at T = 2; no argument of the maximum is the
    # value (T^2 - 2)/(T^2 + T)
    ("hockey U", _edit(HOCKEY, ["upper"], "Max(0, T**2 - 2)/(T*(T + 2))"), "Hc"),
    # hi = T/2: as "kl hi"
    ("hockey hi", _edit(HOCKEY, ["upper_certificate", "hi"], "T/2"), "Hhi"),
]


def _value_at_2(text):
    """A certificate's U at T = 2 (the project's safe parser; sympy only evaluates)."""
    from implgraph.core.formula import parse_expr
    T = sympy.Symbol("T", positive=True)
    return float(parse_expr(text, {"T": T}).subs(T, 2))


def test_the_rows_have_level_two_and_attain_every_u():
    import brute
    from brute_divergences import event_gap, level_over
    assert brute.kt(ROWS, 1) == 2
    assert math.isclose(brute.kl_level_float(ROWS, "pairs"), math.log(2))
    assert brute.renyi_level_sum(ROWS, 2, "pairs") == Fraction(23, 8)
    assert level_over(event_gap, ROWS, "pairs") == Fraction(1, 2)
    assert level_over(lambda x, y: event_gap(x, y, 2), ROWS, "pairs") == Fraction(1, 3)
    expected = {KL: math.log(2), RENYI: math.log(23 / 8), TV: 1 / 2, HOCKEY: 1 / 3}
    for name, value in expected.items():
        assert math.isclose(_value_at_2(CERTS[name]["upper"]), value), name


def test_corners_states_each_record_against_the_table_and_every_pair():
    assert "corners" in COVERED
    text = generate(CERTS[KL])
    assert "subset_le TwoSided N K x (1) (T) ->" in text and "div_pairs_le KL N K x" in text
    assert "corners_kl" in text and "Require Import Corners" in text
    assert "corners_hockey (2)" in generate(CERTS[HOCKEY])
    assert "div_pairs_le (Renyi 2)" in generate(CERTS[RENYI])


@pytest.mark.parametrize("path,value", [(["A", "family"], "pairwise"), (["A", "size"], "2"),
                                        (["A", "sides"], "one-sided")])
def test_corners_refuses_another_a(path, value):
    with pytest.raises(Untranslatable):
        generate(_edit(KL, path, value))


def test_corners_refuses_a_renyi_order_other_than_two():
    with pytest.raises(Untranslatable):
        generate(_edit(RENYI, ["B", "params"], {"alpha": "3"}))


def _failing_step(cert, library, tmp_path, name):
    """coqc on ``cert``'s file: None where it checks, else the proof's top-level step (``assert (NAME`` or
    ``exact``) around the line of the error."""
    from implgraph.kernel_coq.check import run_coqc
    text = generate(cert)
    path = tmp_path / f"{re.sub(r'[^A-Za-z0-9]', '_', name)}.v"
    path.write_text(text)
    ok, out, _, _ = run_coqc(["coqc", "-q", "-Q", library, "Implgraph", path.name], str(tmp_path))
    if ok:
        return None
    line = int(re.search(r'File "[^"]*", line (\d+)', out).group(1))
    for ln in reversed(text.splitlines()[:line]):
        m = re.match(r"  (?:assert \((\w+) :|(exact))", ln)
        if m:
            return m.group(1) or m.group(2)
    return "?"


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name", sorted(CERTS))
def test_corners_certificates_check(name, library, tmp_path):
    assert_kernel_checked(CERTS[name], library, tmp_path, name)


@pytest.mark.slow
@coq
def test_a_looser_renyi_u_checks_too(library, tmp_path):
    # exp(U) = T^2 - T + 1 >= T^2 - T + 1 - 1/T^2 + 1/T^3 for T >= 1: the step is an inequality, not an identity
    assert _failing_step(_edit(RENYI, ["upper"], "log(T**2 - T + 1)"), library, tmp_path, "looser") is None


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name,cert,step", FORGERIES, ids=[n for n, _, _ in FORGERIES])
def test_forged_corners_certificates_fail_at_their_step(name, cert, step, library, tmp_path):
    failed = _failing_step(cert, library, tmp_path, name)
    assert failed is not None and failed.startswith(step), failed


@pytest.mark.slow
@coq
# (lip => tv-ldp: the prover now proves it by subset-pairs, tight for every N; its stored corners certificate still checks)
@pytest.mark.parametrize("name", [n for n in sorted(CERTS) if n != "lip => tv-ldp"])
def test_the_provers_corners_certificate_checks(name, library, tmp_path):
    # the prover's own certificate of the edge (``implgraph certificate --edge``), as the matrices and the benchmark
    # collect it: its U is the hand-written one, and its theorem checks
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
    cert = claim["certificates"][0]     # the bound on [1/T, T] (its pieces beside it: test_kernel_coq_corners_narrow)
    assert claim["verdict"] == "proved" and cert["method"] == "corners" and cert["upper"] == CERTS[name]["upper"]
    assert_kernel_checked(cert, library, tmp_path, name)
