"""The ``top-cap`` argument (``implgraph/prover/arguments/top_cap.py``) and its checker lemma
(``implgraph/certify/lemmas/top_cap.py``): A caps every class's top frequency ((alpha,k)-anonymity's alpha, recursive
(c,2)-diversity's c/(1 + c)), B a class level of the distribution.

Values by hand (docs/arguments/top-cap.md):

- alpha = 2/5: every class has q_b <= 2/5, so at least 3 values (1 = sum q <= k 2/5), 1/max q >= 5/2, and the capped
  row (2/5, 2/5, 1/5) has exp H = (5/2)^(4/5) 5^(1/5) = 5/2 * 2^(1/5); alpha = 1/3: 3, 3, 3; alpha >= 1: 1, 1, 1;
- c = 3: q_b <= 3/4, so 1/max q >= 4/3, two values, and the row (3/4, 1/4) has exp H = 4/3^(3/4); c = 1: (1/2, 1/2),
  2, 2, 2.

The upper bound is cross-checked with tests/brute.py's levels on random tables, the attaining rows with brute.py too.
"""

from __future__ import annotations

import json
import os
import random
from fractions import Fraction

import pytest
import sympy

import brute
from _forge import edited

from implgraph.certify import check_certificate

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "data", "coq", "top_cap.json")) as fh:
    CERTS = json.load(fh)
FREQ, DIST, ENT = (f"alpha-k-anonymity => {b}-l-diversity" for b in ("frequency", "distinct", "entropy"))
RFREQ, RDIST, RENT = (f"recursive-cl-diversity => {b}-l-diversity" for b in ("frequency", "distinct", "entropy"))


def _tight(a, b, a_params):
    from implgraph.core.region import Region
    from implgraph.prover.answer import T
    from implgraph.prover.search import tight_bound
    N = sympy.Symbol("N", integer=True)
    region = Region({T: "real", N: "integer"}, (T >= 1, N >= 2))
    return tight_bound(a, b, a_params, {}, region, N)


def _at(U, raw):
    from implgraph.prover.answer import T
    return sympy.nsimplify(sympy.sympify(U).subs(T, raw))


@pytest.mark.parametrize("b, values", [
    ("frequency-l-diversity", {Fraction(2, 5): Fraction(5, 2), Fraction(1, 3): 3, Fraction(1): 1, Fraction(3): 1}),
    ("distinct-l-diversity", {Fraction(2, 5): 3, Fraction(1, 3): 3, Fraction(3, 4): 2, Fraction(1): 1, Fraction(3): 1}),
    ("entropy-l-diversity", {Fraction(2, 5): sympy.Rational(5, 2) * 2 ** sympy.Rational(1, 5), Fraction(1, 3): 3,
                             Fraction(1): 1}),
])
def test_alpha_k_values_by_hand(b, values):
    found = _tight("alpha-k-anonymity", b, {"k": sympy.Integer(2)})
    assert found is not None and found.method == "top-cap" and found.tight
    for alpha, want in values.items():
        got = _at(found.upper, sympy.Rational(alpha.numerator, alpha.denominator) + 1)
        assert sympy.simplify(got - sympy.sympify(want)) == 0, (alpha, got)


@pytest.mark.parametrize("b, values", [
    ("frequency-l-diversity", {3: sympy.Rational(4, 3), 1: 2, sympy.Rational(3, 2): sympy.Rational(5, 3)}),
    ("distinct-l-diversity", {3: 2, 1: 2, 7: 2}),
    ("entropy-l-diversity", {3: 4 / sympy.Integer(3) ** sympy.Rational(3, 4), 1: 2}),
])
def test_recursive_values_by_hand(b, values):
    found = _tight("recursive-cl-diversity", b, {"l": sympy.Integer(2)})
    assert found is not None and found.method == "top-cap" and found.tight
    for c, want in values.items():
        assert sympy.simplify(_at(found.upper, c) - sympy.sympify(want)) == 0, (c,)


def test_not_applied_outside_its_shape():
    assert _tight("recursive-cl-diversity", "frequency-l-diversity", {"l": sympy.Integer(3)}) is None or \
        _tight("recursive-cl-diversity", "frequency-l-diversity", {"l": sympy.Integer(3)}).method != "top-cap"
    found = _tight("alpha-k-anonymity", "k-anonymity", {"k": sympy.Integer(2)})
    assert found is None or found.method != "top-cap"


def _hand_f(kind, b, level):
    """f at A's level, by hand (module notes)."""
    if kind == "alpha":
        x = max(Fraction(1), 1 / level)
        return {"frequency": x, "distinct": -(-x.numerator // x.denominator)}[b]
    return {"frequency": 1 + 1 / level, "distinct": 2}[b]


def test_upper_bound_on_random_tables():
    """B >= f(A's level) on random tables (brute.py's levels), every partition."""
    rng = random.Random(33)
    seen = 0
    for _ in range(400):
        n, m = rng.randint(2, 4), rng.randint(2, 4)
        rows, classes = brute.random_rows(rng, n, m), brute.random_labels(rng, n)
        alpha, c = brute.alpha_k(rows, classes, 2), brute.recursive_cl(rows, classes, 2)
        if alpha != brute.INF:
            assert brute.frequency_l(rows, classes) >= _hand_f("alpha", "frequency", alpha)
            assert brute.distinct_l(rows, classes) >= _hand_f("alpha", "distinct", alpha)
            seen += 1
        if c != brute.INF:
            assert brute.frequency_l(rows, classes) >= _hand_f("c", "frequency", c)
            assert brute.distinct_l(rows, classes) >= 2
            g = (1 + sympy.Rational(c.numerator, c.denominator)) / sympy.Rational(c.numerator, c.denominator) ** (
                sympy.Rational(c.numerator, c.denominator) / (1 + sympy.Rational(c.numerator, c.denominator)))
            assert sympy.N(brute.entropy_l(rows, classes) - g, 40) >= -sympy.Rational(1, 10 ** 30)
            seen += 1
    assert seen > 100


@pytest.mark.parametrize("alpha, row, freq, dist", [
    (Fraction(2, 5), [Fraction(2, 5), Fraction(2, 5), Fraction(1, 5)], Fraction(5, 2), 3),
    (Fraction(1, 3), [Fraction(1, 3)] * 3, Fraction(3), 3),
    (Fraction(3, 4), [Fraction(3, 4), Fraction(1, 4)], Fraction(4, 3), 2),
])
def test_capped_rows_attain(alpha, row, freq, dist):
    for N in (2, 3, 5):
        rows, classes = [row] * N, ["E1"] * N
        assert brute.alpha_k(rows, classes, 2) == alpha
        assert brute.frequency_l(rows, classes) == freq and brute.distinct_l(rows, classes) == dist
    # the same row is recursive (c, 2)-diverse at c = top/(1 - top) where it has two values
    if len(row) == 2:
        assert brute.recursive_cl([row] * 2, ["E1"] * 2, 2) == row[0] / row[1]


@pytest.mark.parametrize("name", sorted(CERTS))
def test_the_stored_certificates_check(name):
    assert check_certificate(CERTS[name]).ok


FORGED = [
    ("U doubled", FREQ, ["upper"], "Piecewise((oo, T <= 1), (Max(1, 2/(T - 1)), True))"),
    ("x doubled", FREQ, ["x"], "Max(1, 2/(T - 1))"),
    ("no oo piece", DIST, ["upper"], "ceiling(1/(T - 1))"),
    ("cap word", FREQ, ["cap"], "tail"),
    ("map", DIST, ["map"], "x"),
    ("fact", DIST, ["steps"], ["shannon>=capped"]),
    ("three values", RDIST, ["upper"], "3"),
    ("entropy exponent", RENT, ["upper"], "(T + 1)/T**(1/(T + 1))"),
    ("B's class level", RFREQ, ["B", "class_level"], "shannon"),
    ("l = 3", RFREQ, ["A", "params", "l"], "3"),
    ("not tight", ENT, ["tight"], False),
]


@pytest.mark.parametrize("label, name, path, value", FORGED, ids=[f[0] for f in FORGED])
def test_forged_certificates_are_rejected(label, name, path, value):
    assert not check_certificate(edited(CERTS[name], path, value)).ok


def _symbolic_floor(cert):
    out = edited(cert, ["A", "params", "k"], "k3")
    out["symbols"] = {**out["symbols"], "k3": "integer"}
    out["domain"] = out["domain"] + ["k3 >= 1", "k3 <= N"]
    return out


@pytest.mark.parametrize("name", [FREQ, DIST, ENT])
def test_a_symbolic_class_floor_is_read(name):
    # (the symbols matrix's alpha-k-anonymity(k=k3): the family's one class of N records meets every k3 <= N)
    from implgraph.kernel_coq.registry import generate
    cert = _symbolic_floor(CERTS[name])
    assert check_certificate(cert).ok
    assert "top_cap_le N K x cls (T - 1)" in generate(cert)
