"""The whitelist formula parser: exact numbers, declared symbols only, never any code."""

import pytest
import sympy

from implgraph.errors import InputError
from implgraph.formula import parse_condition, parse_expr

mu, N = sympy.Symbol("mu", real=True), sympy.Symbol("N", integer=True)
SYMS = {"mu": mu, "N": N}


@pytest.mark.parametrize("text, expected", [
    ("0.1", sympy.Rational(1, 10)),            # decimals are exact
    ("1/3", sympy.Rational(1, 3)),
    ("2*mu - 0.5", 2 * mu - sympy.Rational(1, 2)),
    ("e^2", sympy.exp(2)),                      # ^ is a power, as printed in the papers
    ("ln(exp(mu))", mu),
    ("(exp(1)*(N - 1) + 1)/N", (sympy.E * (N - 1) + 1) / N),
    ("Max(N/(N - 1), 2)", sympy.Max(N / (N - 1), 2)),
    ("oo", sympy.oo),
])
def test_parse_expr(text, expected):
    assert sympy.simplify(parse_expr(text, SYMS) - expected) == 0 or parse_expr(text, SYMS) == expected


@pytest.mark.parametrize("text, needle", [
    ("nu + 1", "undeclared symbol 'nu'"),
    ("mu +* 2", "cannot parse"),
    ("__import__('os').system('echo hi')", "not allowed"),
    ("mu.__class__", "not allowed"),
    ("(lambda: 1)()", "not allowed"),
    ("[1, 2][0]", "not allowed"),
    ("open('x')", "not allowed"),
    ("'text'", "not a number"),
    ("True", "not a number"),
    ("mu < 1", "condition where a value was expected"),
    ("", "empty"),
])
def test_parse_expr_rejects(text, needle):
    with pytest.raises(InputError) as exc:
        parse_expr(text, SYMS)
    assert needle in str(exc.value)
    assert "fix:" in str(exc.value)


def test_parse_condition_chain():
    c = parse_condition("0 < mu <= 1/2", SYMS)
    assert c.subs(mu, sympy.Rational(1, 4)) is sympy.true
    assert c.subs(mu, sympy.Rational(1, 2)) is sympy.true
    assert c.subs(mu, 0) is sympy.false
    c2 = parse_condition("N >= 2 and N < 5", SYMS)
    assert c2.subs(N, 4) is sympy.true and c2.subs(N, 5) is sympy.false
    with pytest.raises(InputError):
        parse_condition("mu + 1", SYMS)
