"""The whitelist formula parser: exact numbers, declared symbols only, never any code."""

import ast

import pytest
import sympy

from implgraph.core.errors import InputError
from implgraph.core.formula import parse_condition, parse_expr

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


# ^ is a power with the usual precedence (issue 10, item 1). Each expected value is the formula read by hand
# with ^ as ** (Python's precedence for **: above unary minus on its left, right-associative).
a, b, c, eps = sympy.symbols("a b c eps", positive=True)
POW_SYMS = {"a": a, "b": b, "c": c, "eps": eps, "N": N}


@pytest.mark.parametrize("text, expected", [
    ("N^2-1", N**2 - 1),                        # was N**(2-1) = N
    ("N^2 - 1", N**2 - 1),
    ("e^eps + 1", sympy.exp(eps) + 1),           # was exp(eps + 1)
    ("2*N^2", 2 * N**2),                         # was (2*N)**2
    ("2^-1", sympy.Rational(1, 2)),
    ("2^-1*4", sympy.Integer(2)),                # was 2**(-1*4) = 1/16
    ("-2^2", sympy.Integer(-4)),                 # was (-2)**2 = 4
    ("a^b^c", a**(b**c)),                        # right-associative; was (a**b)**c
    ("(a^b)^c", (a**b)**c),
    ("exp(N^2-1)", sympy.exp(N**2 - 1)),         # inside a function call; was exp(N)
    ("Max(N^2-1, 2^3)", sympy.Max(N**2 - 1, 8)),
    ("(e^eps*(N-1) + 1)/N", (sympy.exp(eps) * (N - 1) + 1) / N),
])
def test_caret_is_power(text, expected):
    assert parse_expr(text, POW_SYMS) == expected


@pytest.mark.parametrize("text, inside, outside", [
    ("N^2-1 < 3", 1, 2),                         # N**2 - 1 < 3 holds at N = 1, not at N = 2 (was N < 3: both)
    ("N^2-1 >= 2*N-1 and e^eps > 1", 2, 1),      # 3 >= 3 at N = 2, 0 >= 1 fails at N = 1 (was N >= 2N-1)
])
def test_caret_in_conditions(text, inside, outside):
    cond = parse_condition(text, POW_SYMS)
    assert cond.subs({N: inside, eps: 1}) is sympy.true
    assert cond.subs({N: outside, eps: 1}) is sympy.false


def test_xor_is_not_reachable():
    """A ^ that escapes the token conversion would be Python's exclusive or: no longer whitelisted."""
    from implgraph.core import formula
    assert ast.BitXor not in formula._BINOPS
    with pytest.raises(InputError):
        parse_expr("a ^= b", POW_SYMS)


# Numbers are read exactly from their text (values by hand: the decimal written is the rational meant).
@pytest.mark.parametrize("text, expected", [
    ("1e-400", sympy.Rational(1, 10**400)),      # was 0.0 through a float
    ("123456789012345678901234567890.5", sympy.Rational(246913578024691357802469135781, 2)),  # float rounded
    ("1_000.25", sympy.Rational(4001, 4)),
    ("0x1F", sympy.Integer(31)),
    ("1" * 1000, sympy.Integer(int("1" * 1000))),  # exactly MAX_DIGITS digits is allowed
    ("2^1000", sympy.Integer(2)**1000),            # exponent at the bound is allowed
    ("oo", sympy.oo),                               # oo written explicitly stays allowed
    ("-oo", -sympy.oo),
    ("1/oo", sympy.Integer(0)),
    ("exp(-oo)", sympy.Integer(0)),
])
def test_exact_and_bounded_values(text, expected):
    assert parse_expr(text, POW_SYMS) == expected


# Bounded work, clean failure (issue 10, item 2): each is refused with one line carrying a fix.
@pytest.mark.parametrize("text, needle", [
    ("2**10**10", "exponent 10000000000 is beyond"),   # was: sympy computes 2**(10**10) (hangs)
    ("10^(10^10)", "exponent 10000000000 is beyond"),  # same
    ("(N+1)^100000", "exponent 100000 is beyond"),
    ("(N**600)**2", "exponent beyond"),                # sympy combines to N**1200
    ("exp(600)*exp(600)", "exponent beyond"),          # sympy combines to exp(1200)
    ("exp(exp(1000))", "is beyond"),                   # exp's argument is an exponent
    ("(2**1000)**1000", "digits"),                     # 301030 digits
    ("floor(exp(1000)*exp(400)*exp(1000))", "digits"),  # floor of a 1042-digit number
    ("1e-1000000000", "exponent beyond"),              # was silently 0
    ("1e999999", "exponent beyond"),
    ("1" * 1001, "more than 1000 digits"),
    ("2j", "imaginary"),
    ("1/0", "undefined"),
    ("0/0", "undefined"),
    ("ln(0)", "undefined"),
    ("0**-1", "undefined"),
    ("0^-1", "undefined"),
    ("log(1, 1)", "undefined"),
    ("oo - oo", "undefined"),
    ("0*oo", "undefined"),
    ("1/(1/0)", "undefined"),                          # was 0: the zoo vanished
    ("mu/(N - N)", "division by zero"),
    ("-" * 1500 + "1", "nested more than 100"),        # was RecursionError
    ("1" + "+1" * 150, "nested more than 100"),
    ("exp(" * 101 + "0" + ")" * 101, "nested more than 100"),
    ("(" * 300 + "1" + ")" * 300, "too many nested parentheses"),
    ("-(" * 250 + "1" + ")" * 250, "cannot parse"),
    ("1" + "+1" * 1000, "longer than 2000"),
    ("exp(1, 2)", "takes one argument"),               # was TypeError
    ("sqrt(mu, 2)", "takes one argument"),
    ("floor()", "takes one argument"),
    ("1\x00", "cannot parse"),
])
def test_bounded_and_defined(text, needle):
    with pytest.raises(InputError) as exc:
        parse_expr(text, SYMS)
    message = str(exc.value)
    assert needle in message and "fix:" in message and "\n" not in message


def test_condition_sides_are_checked():
    with pytest.raises(InputError, match="undefined"):
        parse_condition("mu < 1/0", SYMS)
    with pytest.raises(InputError, match="beyond"):
        parse_condition("0 < mu^100000", SYMS)


# every f the engine prints can be given back (tanh and Piecewise are in its tight f's; sympy prints And as &)
@pytest.mark.parametrize("text, at, expected", [
    ("tanh(ln(3)/2)", {}, sympy.Rational(1, 2)),                                    # (3 - 1)/(3 + 1)
    ("Piecewise((1/2, Eq(N, 2)), (N/3, True))", {N: 2}, sympy.Rational(1, 2)),
    ("Piecewise((1/2, Eq(N, 2)), (N/3, True))", {N: 6}, 2),
    ("Piecewise((0, (N >= 3) & (mu < 1)), (1, True))", {N: 3, mu: 0}, 0),
    ("Piecewise((0, (N >= 3) & (mu < 1)), (1, True))", {N: 3, mu: 2}, 1),
    ("Piecewise((0, (N >= 3) | (mu < 1)), (1, True))", {N: 2, mu: 2}, 1),
    ("Piecewise((0, Ne(N, 2)), (1, True))", {N: 2}, 1),
])
def test_tanh_and_piecewise(text, at, expected):
    assert sympy.simplify(parse_expr(text, SYMS).subs(at) - expected) == 0


@pytest.mark.parametrize("text, needle", [
    ("Piecewise()", "at least one (value, condition) pair"),
    ("Piecewise(1, 2)", "(value, condition) pairs"),
    ("Piecewise((1,))", "(value, condition) pairs"),
    ("Piecewise((1, 2))", "expected a comparison"),
    ("Piecewise((1, __import__('os')))", "expected a comparison"),
    ("Piecewise((nu, True))", "undeclared symbol 'nu'"),
])
def test_piecewise_rejects(text, needle):
    with pytest.raises(InputError) as exc:
        parse_expr(text, SYMS)
    assert needle in str(exc.value) and "fix:" in str(exc.value)


@pytest.mark.parametrize("path", ["implgraph/data/matrix.json", "implgraph/data/matrix-symbols.json"])
def test_every_published_f_parses_back(path):
    import json
    import pathlib
    import re
    root = pathlib.Path(__file__).resolve().parents[1]
    fs = {c[k] for c in json.loads((root / path).read_text())["cells"] for k in ("tight", "proved_f")
          if c.get(k)}
    assert any("Piecewise" in f for f in fs) and any("tanh" in f for f in fs)
    for f in fs:
        text = f.removesuffix(" (an upper bound; tightness not derived)")
        names = set(re.findall(r"[A-Za-z_]\w*", text)) - {"exp", "log", "ln", "tanh", "Min", "Max", "Piecewise", "Eq",
                                                             "True", "ceiling", "floor", "sqrt", "cosh", "sinh"}
        syms = {n: sympy.Symbol(n, integer=True) if n == "N" or n.startswith("k") else sympy.Symbol(n, positive=True)
                for n in names}
        got = parse_expr(text, syms)
        assert sympy.srepr(got) == sympy.srepr(sympy.sympify(text, locals=syms)), f
