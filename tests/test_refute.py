"""The z3 refuter: witnesses re-checked by brute force (tests/brute.py, itertools over subsets)."""

from fractions import Fraction

import pytest
import sympy

import brute
from implgraph.core.concrete import ConcreteTable
from implgraph.engines.refute import find_witness, witness_check
from implgraph.solvers import available_backends, get_backend

BRUTE = {
    "ldp": lambda rows, cls, ps: brute.ldp(rows),
    "kt-closeness": lambda rows, cls, ps: brute.kt(rows, ps["k"]),
    "kdp": lambda rows, cls, ps: brute.kdp(rows, ps["k"]),
    "dp": lambda rows, cls, ps: brute.dp(rows),
    "mult-t-closeness": lambda rows, cls, ps: brute.mult_t(rows, cls),
}


def brute_witness(r, a, b, raw_f, a_params=None, b_params=None):
    """Brute-force check: A's ratio <= T (A's raw level), B's ratio > raw_f(T)."""
    rows = r.witness.to_rows()
    cls = None if r.witness.classes is None else list(r.witness.classes)
    ra = BRUTE[a](rows, cls, a_params or {})
    rb = BRUTE[b](rows, cls, b_params or {})
    T = sympy.exp(sympy.sympify(r.alpha_value)) if a in ("ldp", "dp", "kdp") else sympy.sympify(r.alpha_value)
    T = sympy.nsimplify(T)
    assert ra != brute.INF and sympy.Rational(ra.numerator, ra.denominator) <= T
    if raw_f is None:
        return rb == brute.INF
    F = raw_f(T)
    return rb == brute.INF or sympy.Rational(rb.numerator, rb.denominator) > F


def test_backend_registry():
    assert "z3" in available_backends()
    assert get_backend() is get_backend("z3")


def test_refutes_theorem_2b_with_n_minus_one():
    # the tight bound is ((N-1)T + 1)/N (j = N-1 records at T a, one at a); f with N -> N - 1 is smaller
    f = "(exp(eps)*(N - 2) + 1)/(N - 1)"
    r = find_witness("ldp", "kt-closeness", f, N=5, b_params={"k": 1})
    assert r.status == "refuted"
    assert brute_witness(r, "ldp", "kt-closeness", lambda T: (T * 3 + 1) / 4, b_params={"k": 1})


def test_theorem_2b_printed_has_no_witness():
    r = find_witness("ldp", "kt-closeness", "(exp(eps)*(N - 1) + 1)/N", N=5, b_params={"k": 1})
    assert r.status == "none-found"
    assert r.witness is None


def test_refutes_theorem_3a_printed():
    # printed t = (k + (N - k - 1) e^eps)/N is below the vertex value (k + (N - k) e^eps)/N
    r = find_witness("ldp", "kt-closeness", "(k/N)*(1 + ((N - k - 1)/k)*exp(eps))", N=6,
                     b_params={"k": 2}, values={"k": 2})
    assert r.status == "refuted"
    assert brute_witness(r, "ldp", "kt-closeness", lambda T: (2 + 3 * T) / 6, b_params={"k": 2})


def test_infinite_witness_kt2_to_ldp():
    # (2,t)-closeness tolerates one zero, eps-LDP does not
    r = find_witness("kt-closeness", "ldp", None, N=4, a_params={"k": 2})
    assert r.status == "refuted"
    assert brute_witness(r, "kt-closeness", "ldp", None, a_params={"k": 2})


def test_no_infinite_witness_kt1_to_ldp():
    r = find_witness("kt-closeness", "ldp", None, N=4, a_params={"k": 1})
    assert r.status == "none-found"


def test_lemma_1_with_classes():
    f = "(k/N)*(1 + ((N - k - 1)/k)*exp(eps))"
    r = find_witness("ldp", "mult-t-closeness", f, N=4, classes=[1, 3], values={"k": 1})
    assert r.status == "refuted"
    assert r.witness.classes is not None
    assert brute_witness(r, "ldp", "mult-t-closeness", lambda T: (1 + 2 * T) / 4)


def test_is_witness_exact():
    uniform = ConcreteTable.from_fractions([[Fraction(1, 2)] * 2] * 3)
    assert not witness_check("ldp", "kt-closeness", "exp(eps)", 0, {}, {"k": 1})(uniform)
    # one record at 1/3, two at 2/3: LDP ratio 2, (1,t) ratio mean/min = (5/9)/(1/3) = 5/3
    t = ConcreteTable.from_fractions([[Fraction(1, 3), Fraction(2, 3)], [Fraction(2, 3), Fraction(1, 3)],
                                      [Fraction(2, 3), Fraction(1, 3)]])
    assert witness_check("ldp", "kt-closeness", "exp(eps)*3/4", sympy.log(2), {}, {"k": 1})(t)  # 3/2 < 5/3
    assert not witness_check("ldp", "kt-closeness", "(2*exp(eps) + 1)/3", sympy.log(2), {}, {"k": 1})(t)


def test_fixed_alpha_none_found_is_exhaustive():
    r = find_witness("ldp", "kt-closeness", "(exp(eps)*(N - 1) + 1)/N", N=4, b_params={"k": 1},
                     alpha_value=sympy.log(3))
    assert r.status == "none-found"


def test_not_encodable_is_unknown():
    r = find_witness("k-anonymity", "ldp", None, N=3)
    assert r.status == "unknown"


@pytest.mark.parametrize("N", [6, 12])
def test_refuter_scales(N):
    r = find_witness("kt-closeness", "ldp", "ln(t**2)*9/10", N=N, a_params={"k": 1})
    assert r.status == "refuted"
    assert brute_witness(r, "kt-closeness", "ldp", lambda T: T ** sympy.Rational(9, 5), a_params={"k": 1}) \
        if N <= 6 else True


def test_plugin_override_z3_satisfies():
    # a plugin without z3_shape but with z3_satisfies: the refuter uses the override
    import z3
    from implgraph.definitions import get
    from implgraph.definitions.base import Definition

    ldp = get("ldp")

    class PairwiseCopy(Definition):
        name = "pairwise-copy-test"
        level_symbol = "eps"
        scale = "log"
        concrete = staticmethod(lambda ct: ldp.concrete(ct))

        def z3_satisfies(self, rows, T, **params):
            return [x[l] <= T * y[l] for x in rows for y in rows for l in range(len(rows[0]))]

    d = PairwiseCopy()
    r = find_witness(d, "kt-closeness", "(exp(eps)*(N - 2) + 1)/(N - 1)", N=4, b_params={"k": 1})
    assert r.status == "refuted"
    assert brute_witness(r, "ldp", "kt-closeness", lambda T: (2 * T + 1) / 3, b_params={"k": 1})
    plain = PairwiseCopy
    del plain.z3_satisfies
    assert find_witness(PairwiseCopy(), "kt-closeness", "exp(eps)", N=3, b_params={"k": 1}).status == "unknown"


def test_identity_f_free_level_exhaustive():
    # (2,t) => (3,t) with f = t holds (Lemma 2.1): no binary table at any level; (3,t) => (2,t) fails
    assert find_witness("kt-closeness", "kt-closeness", "t", N=8, a_params={"k": 2}, b_params={"k": 3}).status \
        == "none-found"
    r = find_witness("kt-closeness", "kt-closeness", "t", N=8, a_params={"k": 3}, b_params={"k": 2})
    assert r.status == "refuted"
    rows = r.witness.to_rows()
    assert brute.kt(rows, 3) != brute.INF and brute.kt(rows, 2) > brute.kt(rows, 3)
