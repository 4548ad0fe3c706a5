"""The Coq generator of the ``chord`` certificates on record removal against a two-sided subset level of size s (neither
1 nor N - 1: kdp(k=2), size N - 2, and kt-closeness(k=2), size 2, into kl-dp and renyi-dp(alpha=2)), whose U is
``Piecewise((0, T <= 1), (V, True))`` with V written in the interval's ends ``Max(...)`` and ``Min(...)``
(``RemovalChordPieces.v``, ``implgraph/kernel_coq/gen_chord_pieces.py``), and of each record against the table (lip)
into the class divergences (``Extreme.subset_to_classes``, then the class chord).

The prover's certificates of these matrix cells (``tests/data/coq/chord_pieces.json``) check with coqc and a clean
axiom audit; a forged certificate (an edited number in U, in an end of the interval, in A's size or in the Piecewise
condition) gives a file the generator writes and coqc rejects. Each forgery's reason is written beside it: every one
states a false implication (the certificates are tight: their families attain U). The coqc tests are slow and skip
where Debian's ``coq`` is not installed.
"""

from __future__ import annotations

import pytest
import sympy

from _forge import edited

from implgraph.core.formula import parse_expr
from implgraph.kernel_coq.coqexpr import Translator
from implgraph.kernel_coq.gen_chord_pieces import _ends
from implgraph.kernel_coq.gen_extreme_points import _pieces
from implgraph.kernel_coq.registry import generate

from _coq import assert_kernel_checked, check_generated, coq, load_certs

CERTS = load_certs("chord_pieces.json")
SUBSET = ["kdp(k=2) => kl-dp", "kdp(k=2) => renyi-dp(alpha=2)", "kt-closeness(k=2) => kl-dp",
          "kt-closeness(k=2) => renyi-dp(alpha=2)"]
#: A's size s of each subset certificate (kdp(k=2): every N - 2 records; kt-closeness(k=2): every 2)
SIZE = {"kdp": "N - 2", "kt-closeness": "2"}


def _upper(name, old, new):
    text = CERTS[name]["upper"]
    assert old in text
    return edited(CERTS[name], ["upper"], text.replace(old, new))


FORGERIES = [
    # hi's last argument (N - 3/T)/(N - 2) < (N - 2/T)/(N - 2): at N = 10, T = 3/2 it binds and U reads 0 (hi = 1),
    # while the family (one record at N P - (N - 1) Q, N - 1 at Q) attains KL 0.00538... > 0
    ("subset KL hi", _upper("kt-closeness(k=2) => kl-dp", "2/(N*T - 2*T)", "3/(N*T - 2*T)")),
    # every 3 records within [1/T, T] allows Q_i/P down to (N - 3 T)/(N - 3): at N = 10, T = 3/2 the chord there gives
    # Renyi-2 0.0269... > U = 0.0109...
    ("subset Renyi size", edited(CERTS["kt-closeness(k=2) => renyi-dp(alpha=2)"], ["A", "size"], "3")),
    # B at 0 for every T <= 2: false at every T in (1, 2] (U's second piece is > 0 there; the family attains it)
    ("subset piece condition", _upper("kt-closeness(k=2) => kl-dp", "T <= 1", "T <= 2")),
    # V - 1/10 < 0 near T = 1 (N = 3, T = 101/100: V = 1.24e-5): below every divergence
    ("subset KL U", _upper("kdp(k=2) => kl-dp", "T <= 1), (Max(", "T <= 1), (-1/10 + Max(")),
    # lo's first argument 2/T > 1/T: at N = 3, T = 6/5, U = log(0.969...) < 0, below every divergence
    ("subset Renyi lo", _upper("kdp(k=2) => renyi-dp(alpha=2)", "Max(1/T,", "Max(2/T,")),
    # (T - 1) log T/(T + 2) is below the chord's value (T - 1) log T/(T + 1), which the family attains
    ("class KL U", _upper("lip => kl-closeness", "/(T + 1)", "/(T + 2)")),
    # log((T^2 - T + 1)/(T + 1)) = log(1/2) < 0 at T = 1: below every divergence
    ("class Renyi U", _upper("lip => renyi-closeness(alpha=2)", "log((T**2 - T + 1)/T)",
                             "log((T**2 - T + 1)/(T + 1))")),
]


def _at(text, n, t):
    N, T = sympy.Symbol("N", positive=True), sympy.Symbol("T", positive=True)
    return parse_expr(str(text), {"N": N, "T": T}).subs({N: n, T: t})


@pytest.mark.parametrize("name", SUBSET)
def test_the_piecewise_u_is_stated_clause_by_clause(name):
    text = generate(CERTS[name])
    kind = "KL" if "kl-dp" in name else "(Renyi 2)"
    assert f"((T <= 1) -> div_removal_le {kind} N K x ((0))) /\\" in text
    (_, _), (V, _) = _pieces(CERTS[name]["upper"])
    coq_v = Translator(CERTS[name]["symbols"]).expr(V)
    assert f"(~ (T <= 1) -> div_removal_le {kind} N K x (({coq_v})))." in text
    size = Translator(CERTS[name]["symbols"]).expr(SIZE[name.split("(")[0]])
    assert f"subset_le TwoSided N K x ({size}) (T) ->" in text
    assert "subset_rconf_k N K x" in text and ("rconf_kl" in text or "rconf_renyi2" in text)


@pytest.mark.parametrize("name", SUBSET)
def test_the_ends_read_from_u_are_the_lemmas_interval(name):
    # by hand: every set of s records within [1/T, T] of the table puts Q_i/P in
    # [max(1/T, (N - s T)/(N - s)), min(T, N/(N - 1), (N - s/T)/(N - s))]
    (_, _), (V, _) = _pieces(CERTS[name]["upper"])
    lo, hi = _ends(V)
    for n, t in ((3, sympy.Rational(6, 5)), (10, sympy.Rational(3, 2)), (7, sympy.Integer(4))):
        s = _at(SIZE[name.split("(")[0]], n, t)
        want_lo = max(1 / t, (n - s * t) / (n - s))
        want_hi = min(t, sympy.Rational(n, n - 1), (n - s / t) / (n - s))
        assert _at(lo, n, t) == want_lo and _at(hi, n, t) == want_hi


def test_each_record_against_the_table_bounds_every_class():
    text = generate(CERTS["lip => kl-closeness"])
    assert "subset_le TwoSided N K x (1) (T) ->" in text and "partition N cls (1) ->" in text
    assert "div_class_le KL N K x cls" in text
    assert "subset_to_classes TwoSided N K x cls 1 (1) T" in text and "chord_class KL" in text



@pytest.mark.slow
@coq
@pytest.mark.parametrize("name", sorted(CERTS))
def test_real_chord_piece_certificates_check(name, library, tmp_path):
    assert_kernel_checked(CERTS[name], library, tmp_path, name)


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name,cert", FORGERIES, ids=[n for n, _ in FORGERIES])
def test_forged_chord_piece_certificates_fail(name, cert, library, tmp_path):
    # the generator writes the file; the kernel rejects it
    assert not check_generated(cert, library, tmp_path, name)["ok"]
