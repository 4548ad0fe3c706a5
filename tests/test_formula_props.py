"""Property: a formula printed with ``^`` or ``**``, fully or minimally parenthesised, parses to the very
sympy expression built directly from its tree (issue 10: ``^`` is a power with the usual precedence).

Trees are random: symbols, small integers and rationals (printed as decimals when exact), + - * /, powers
with small integer exponents, unary minus, exp, ln, sqrt, Max and Min, nested. The expected value is
built with sympy operators on the tree, never by parsing; the printers below are independent of
:mod:`implgraph.core.formula` (they know Python's precedence, nothing else).
"""

from decimal import Decimal
from fractions import Fraction

import pytest
import sympy
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from implgraph.core.errors import InputError
from implgraph.core.formula import parse_expr

SYMS = {name: sympy.Symbol(name, positive=True) for name in ("x", "y", "z")}
FAST = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

ADD, MUL, NEG, POW, ATOM = range(1, 6)     # Python's precedence levels, loosest first
BINARY = {"+": ADD, "-": ADD, "*": MUL, "/": MUL}
UNARY_FUNCTIONS = {"exp": sympy.exp, "ln": sympy.log, "sqrt": sympy.sqrt}
BINARY_FUNCTIONS = {"Max": sympy.Max, "Min": sympy.Min}

ATOMS = st.one_of(
    st.sampled_from(sorted(SYMS)).map(lambda name: ("sym", name)),
    st.integers(-9, 9).map(lambda n: ("num", Fraction(n))),
    st.fractions(min_value=-5, max_value=5, max_denominator=8).map(lambda f: ("num", f)),
)


def _extend(children):
    return st.one_of(
        st.tuples(st.sampled_from(sorted(BINARY)), children, children),
        st.tuples(st.just("^"), children, st.integers(-3, 3)),
        st.tuples(st.just("neg"), children),
        st.tuples(st.sampled_from(sorted(UNARY_FUNCTIONS)), children),
        st.tuples(st.sampled_from(sorted(BINARY_FUNCTIONS)), children, children),
    )


TREES = st.recursive(ATOMS, _extend, max_leaves=8)


class Undefined(Exception):
    """The tree's value is undefined somewhere (zoo or nan), not real (ln(-1)), or a function refuses its
    arguments."""


def build(tree) -> sympy.Expr:
    """The sympy value of ``tree``, by sympy's own operators (raises Undefined like the parser refuses)."""
    kind = tree[0]
    if kind == "sym":
        return SYMS[tree[1]]
    if kind == "num":
        return sympy.Rational(tree[1].numerator, tree[1].denominator)
    if kind == "^":
        value = build(tree[1]) ** sympy.Integer(tree[2])
    elif kind == "neg":
        return -build(tree[1])
    else:
        args = [build(t) for t in tree[1:]]
        ops = {"+": lambda u, v: u + v, "-": lambda u, v: u - v, "*": lambda u, v: u * v, "/": lambda u, v: u / v}
        try:
            value = {**ops, **UNARY_FUNCTIONS, **BINARY_FUNCTIONS}[kind](*args)
        except (TypeError, ValueError):
            raise Undefined from None
    if value.has(sympy.zoo, sympy.nan, sympy.I) or (value.is_number and value.is_extended_real is False):
        raise Undefined
    return value


def number_text(value: Fraction) -> tuple[str, int]:
    """A number as written in a formula, with its precedence level (exact decimals where possible)."""
    if value.denominator == 1:
        text = str(value.numerator)
    elif all(p in (2, 5) for p in sympy.factorint(value.denominator)):
        text = str(Decimal(value.numerator) / Decimal(value.denominator))
    else:
        return f"{value.numerator}/{value.denominator}", MUL
    return text, NEG if value < 0 else ATOM


def show(tree, power: str, minimal: bool) -> tuple[str, int]:
    """Print ``tree`` with ``power`` ("^" or "**"), fully parenthesised (every compound part and every
    exponent bracketed) or, when ``minimal``, with only the brackets Python's precedence needs."""
    kind = tree[0]
    if kind == "sym":
        return tree[1], ATOM
    if kind == "num":
        text, level = number_text(tree[1])
        return (text, level) if minimal or level == ATOM else (f"({text})", ATOM)
    if kind in UNARY_FUNCTIONS or kind in BINARY_FUNCTIONS:
        return f"{kind}({', '.join(show(t, power, minimal)[0] for t in tree[1:])})", ATOM

    def operand(sub, tighter_than: int) -> str:
        text, level = show(sub, power, minimal)
        return text if level > tighter_than else f"({text})"

    if kind == "neg":
        text, level = "-" + operand(tree[1], MUL), NEG     # -x^2 is -(x^2): a power needs no brackets
    elif kind == "^":
        exponent = str(tree[2]) if minimal else f"({tree[2]})"
        text, level = f"{operand(tree[1], POW)}{power}{exponent}", POW   # base: an atom or bracketed
    else:
        op_level = BINARY[kind]
        text, level = f"{operand(tree[1], op_level - 1)} {kind} {operand(tree[2], op_level)}", op_level
    return (text, level) if minimal else (f"({text})", ATOM)


def outcome(text: str):
    """The parsed value, or the reason it was refused."""
    try:
        return parse_expr(text, SYMS)
    except InputError as exc:
        return exc.reason


@FAST
@given(TREES)
@example(tree=("exp", ("^", ("^", ("num", Fraction(3)), 3), 3)))   # refused in all four printings: exp(19683), exponent beyond 1000
@example(tree=("exp", ("exp", ("exp", ("sym", "x")))))     # refused in all four printings: a tower of exponentials
def test_caret_and_double_star_parse_to_the_built_expression(tree):
    texts = [show(tree, power, minimal)[0] for power in ("^", "**") for minimal in (False, True)]
    results = [outcome(t) for t in texts]
    try:
        expected = build(tree)
    except Undefined:
        event("undefined: refused")
        assert all(isinstance(r, str) for r in results), (texts, results)
        return
    event("caret in text" if "^" in texts[1] else "no power")
    for text, result in zip(texts, results):
        if isinstance(result, str):     # a bound (exponents beyond 1000, digits, exponentials nested more than 2
            event("bound: refused")     # deep: core/formula_walker's), never precedence
            assert "+-1000" in result or "digits" in result or "exponentials nested more than" in result, (text, result)
            # the same refusal in all four printings (the message quotes each printing's own text)
            causes = [r.split("': ", 1)[-1] if isinstance(r, str) else r for r in results]
            assert causes.count(causes[0]) == len(causes), (texts, results)
        else:
            assert result == expected or sympy.simplify(result - expected) == 0, (text, result, expected)


@pytest.mark.parametrize("tree, minimal, fully", [
    (("neg", ("^", ("sym", "x"), 2)), "-x^2", "(-(x^(2)))"),
    (("^", ("neg", ("sym", "x")), 2), "(-x)^2", "((-x)^(2))"),
    (("^", ("^", ("sym", "x"), 2), 3), "(x^2)^3", "((x^(2))^(3))"),
    (("-", ("sym", "x"), ("-", ("sym", "y"), ("sym", "z"))), "x - (y - z)", "(x - (y - z))"),
    (("+", ("neg", ("sym", "x")), ("neg", ("num", Fraction(2)))), "-x + -2", "((-x) + (-2))"),
    (("/", ("num", Fraction(1)), ("num", Fraction(1, 3))), "1 / (1/3)", "(1 / (1/3))"),
    (("*", ("sym", "x"), ("num", Fraction(-3, 4))), "x * -0.75", "(x * (-0.75))"),
])
def test_printer(tree, minimal, fully):
    """The test's own printer, checked by hand: brackets exactly where Python's precedence needs them."""
    assert show(tree, "^", True)[0] == minimal
    assert show(tree, "^", False)[0] == fully
