"""``top-cap`` where B declares a class floor above its weakest level (p-sensitive k-anonymity: 0 on a table with a
class of fewer than k records, else distinct l-diversity's level) and A a minimum class size ((alpha,k)-anonymity).

Values by hand: at k_A = k_B = 2 every table meeting A has classes of at least 2 records, so B is distinct
l-diversity's level, at least ceiling(1/alpha): alpha = 1/2: 2; alpha = 2/5: 3 (1 = sum q <= k 2/5); alpha = 1: 1.
Attained by one class of N records, each the capped row: (1/2, 1/2), (2/5, 2/5, 1/5), (1, 0). Where k_B > k_A
(symbols) a table meeting A may have a class of k_A < k_B records, where B is 0: U = 0 there (B's weakest), not
claimed tight.

Forgeries: the checker rejects an edited U, floor or condition; coqc rejects an edited U (the last step), condition
(``lra`` at ``floor_level_of_min_class``: k4 <= k3 + 1 does not give k4 <= k3) or weakest piece (``lra`` at
``weakest_floor_level``: 1 is above B's weakest 0); the generator refuses an edited floor.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
import sympy

import brute
from _coq import assert_kernel_checked, coq, failing_step, load_certs
from _forge import edited

from implgraph.certify import check_certificate
from implgraph.kernel_coq.coqexpr import Untranslatable
from implgraph.kernel_coq.registry import generate

CERTS = load_certs("top_cap_floor.json")
NUM = "alpha-k-anonymity(k=2) => p-sensitive-k-anonymity(k=2)"
SYM = "alpha-k-anonymity(k=k3) => p-sensitive-k-anonymity(k=k4)"


def p_sensitive(rows, classes, k):
    """p-sensitive k-anonymity by its definition: 0 where a class has fewer than k records, else the fewest values
    a class holds."""
    if any(len(e) < k for e in brute.groups(classes)):
        return 0
    return brute.distinct_l(rows, classes)


def _tight(k_a, k_b, kinds=None):
    from implgraph.core.region import Region
    from implgraph.definitions import get
    from implgraph.prover.answer import T
    from implgraph.prover.search import tight_bound
    N = sympy.Symbol("N", integer=True)
    extra = [s for s in (k_a, k_b) if isinstance(s, sympy.Symbol)]
    region = Region({T: "real", N: "integer", **{s: "integer" for s in extra}},
                    (T >= 1, N >= 2, *[c for s in extra for c in (s >= 1, s <= N)]))
    return tight_bound(get("alpha-k-anonymity"), get("p-sensitive-k-anonymity"), {"k": k_a}, {"k": k_b}, region, N)


@pytest.mark.parametrize("alpha, want", [(Fraction(1, 2), 2), (Fraction(2, 5), 3), (Fraction(1), 1)])
def test_values_by_hand(alpha, want):
    from implgraph.prover.answer import T
    found = _tight(sympy.Integer(2), sympy.Integer(2))
    assert found is not None and found.method == "top-cap" and found.tight
    assert sympy.sympify(found.upper).subs(T, 1 + sympy.Rational(alpha.numerator, alpha.denominator)) == want


def test_symbolic_floors_give_a_piece():
    from implgraph.prover.answer import T
    k3, k4 = sympy.Symbol("k3", integer=True), sympy.Symbol("k4", integer=True)
    found = _tight(k3, k4)
    assert found is not None and found.method == "top-cap"
    at = sympy.sympify(found.upper).subs(T, sympy.Rational(7, 5))
    assert at.subs({k3: 3, k4: 2}) == 3 and at.subs({k3: 2, k4: 3}) == 0


@pytest.mark.parametrize("alpha, row, want", [
    (Fraction(1, 2), [Fraction(1, 2)] * 2, 2),
    (Fraction(2, 5), [Fraction(2, 5), Fraction(2, 5), Fraction(1, 5)], 3),
    (Fraction(1), [Fraction(1), Fraction(0)], 1),
])
def test_capped_rows_attain(alpha, row, want):
    for N in (2, 3, 5):
        assert brute.alpha_k([row] * N, ["E1"] * N, 2) == alpha
        assert p_sensitive([row] * N, ["E1"] * N, 2) == want


def test_upper_bound_on_random_tables():
    """p-sensitive(k=2) >= ceiling(1/alpha) wherever (alpha, 2)-anonymity is finite (every partition)."""
    rng, seen = random.Random(13), 0
    for _ in range(400):
        n, m = rng.randint(2, 5), rng.randint(2, 4)
        rows, classes = brute.random_rows(rng, n, m), brute.random_labels(rng, n)
        alpha = brute.alpha_k(rows, classes, 2)
        if alpha != brute.INF:
            x = 1 / alpha
            assert p_sensitive(rows, classes, 2) >= -(-x.numerator // x.denominator)
            seen += 1
    assert seen > 50


@pytest.mark.parametrize("name", sorted(CERTS))
def test_the_certificates_check(name):
    assert check_certificate(CERTS[name]).ok


FORGED = [
    ("U + 1", NUM, ["upper"], "Piecewise((oo, T <= 1), (ceiling(1/(T - 1)) + 1, True))"),
    ("B's floor", NUM, ["B", "floor", "B_floor"], "1"),
    ("level_of", NUM, ["B", "floor", "level_of"], "frequency-l-diversity"),
    ("condition", SYM, ["upper"], "Piecewise((oo, T <= 1), (ceiling(1/(T - 1)), k3 + 1 >= k4), (0, True))"),
    ("weakest", SYM, ["upper"], "Piecewise((oo, T <= 1), (ceiling(1/(T - 1)), k3 >= k4), (1, True))"),
    ("no piece", SYM, ["upper"], "Piecewise((oo, T <= 1), (ceiling(1/(T - 1)), True))"),
]


@pytest.mark.parametrize("label, name, path, value", FORGED, ids=[f[0] for f in FORGED])
def test_forged_certificates_are_rejected(label, name, path, value):
    assert not check_certificate(edited(CERTS[name], path, value)).ok


def test_stated_from_the_declarations():
    text = generate(CERTS[SYM])
    assert "min_class_level N cls ((INR k3)) (top_cap_le N K x cls (T - 1))" in text
    assert "floor_level_ge N cls ((INR k4)) (0) (if Rle_dec ((INR k4)) ((INR k3))" in text
    with pytest.raises(Untranslatable):
        generate(edited(CERTS[NUM], ["B", "floor", "B_floor"], "1"))


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name", sorted(CERTS))
def test_kernel_checks(name, library, tmp_path):
    assert_kernel_checked(CERTS[name], library, tmp_path, name)


KERNEL_FORGED = [
    ("U + 1", NUM, "Piecewise((oo, T <= 1), (ceiling(1/(T - 1)) + 1, True))"),
    ("condition", SYM, "Piecewise((oo, T <= 1), (ceiling(1/(T - 1)), k3 + 1 >= k4), (0, True))"),
    ("weakest", SYM, "Piecewise((oo, T <= 1), (ceiling(1/(T - 1)), k3 >= k4), (1, True))"),
]


@pytest.mark.slow
@coq
@pytest.mark.parametrize("label, name, value", KERNEL_FORGED, ids=[f[0] for f in KERNEL_FORGED])
def test_kernel_rejects_forged(label, name, value, library, tmp_path):
    assert failing_step(edited(CERTS[name], ["upper"], value), library, tmp_path, label) == "Hx"
