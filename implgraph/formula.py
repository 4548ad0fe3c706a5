"""Whitelist parser for formulas in data files and on the command line.

Formulas are parsed with :mod:`ast` into a syntax tree that is walked node by node; only numbers,
declared symbols, arithmetic, a fixed set of functions and comparisons are accepted. Nothing is
ever evaluated by Python, so a data file cannot run code.

Examples
--------
>>> import sympy
>>> mu = sympy.Symbol("mu")
>>> parse_expr("2*mu - 0.1", {"mu": mu})
2*mu - 1/10
"""

from __future__ import annotations

import ast
from fractions import Fraction

import sympy

from .errors import InputError

__all__ = ["parse_expr", "parse_condition", "FUNCTIONS"]

FUNCTIONS = {
    "exp": sympy.exp,
    "ln": sympy.log,
    "log": sympy.log,
    "sqrt": sympy.sqrt,
    "Min": sympy.Min,
    "min": sympy.Min,
    "Max": sympy.Max,
    "max": sympy.Max,
    "Abs": sympy.Abs,
    "abs": sympy.Abs,
    "floor": sympy.floor,
    "ceiling": sympy.ceiling,
}
CONSTANTS = {"oo": sympy.oo, "inf": sympy.oo, "E": sympy.E, "e": sympy.E, "pi": sympy.pi}

_BINOPS = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
    ast.Pow: lambda a, b: a ** b,
    ast.BitXor: lambda a, b: a ** b,  # papers write e^eps
}
_CMPOPS = {
    ast.Lt: sympy.StrictLessThan,
    ast.LtE: sympy.LessThan,
    ast.Gt: sympy.StrictGreaterThan,
    ast.GtE: sympy.GreaterThan,
    ast.Eq: sympy.Eq,
    ast.NotEq: sympy.Ne,
}


def _number(value) -> sympy.Expr:
    if isinstance(value, bool):
        raise ValueError("booleans are not numbers")
    if isinstance(value, int):
        return sympy.Integer(value)
    if isinstance(value, float):
        return sympy.Rational(Fraction(repr(value)))
    raise ValueError(f"unsupported constant {value!r}")


class _Walker:
    def __init__(self, symbols: dict[str, sympy.Symbol], text: str):
        self.symbols = symbols
        self.text = text

    def fail(self, what: str, fix: str) -> InputError:
        return InputError(f"cannot parse formula {self.text!r}: {what}", fix=fix)

    def expr(self, node):
        if isinstance(node, ast.Expression):
            return self.expr(node.body)
        if isinstance(node, ast.Constant):
            try:
                return _number(node.value)
            except ValueError:
                raise self.fail(f"{node.value!r} is not a number", "write numbers like 3, 0.5 or 1/3")
        if isinstance(node, ast.Name):
            if node.id in self.symbols:
                return self.symbols[node.id]
            if node.id in CONSTANTS:
                return CONSTANTS[node.id]
            declared = ", ".join(sorted(self.symbols)) or "none"
            raise self.fail(f"undeclared symbol {node.id!r} (declared: {declared})",
                            f"declare {node.id} under `symbols:` or use a declared symbol")
        if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
            return _BINOPS[type(node.op)](self.expr(node.left), self.expr(node.right))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            value = self.expr(node.operand)
            return -value if isinstance(node.op, ast.USub) else value
        if isinstance(node, ast.Call):
            if not isinstance(node.func, ast.Name) or node.func.id not in FUNCTIONS or node.keywords:
                name = getattr(node.func, "id", "?")
                raise self.fail(f"function {name!r} is not allowed",
                                "use one of " + ", ".join(sorted(FUNCTIONS)))
            args = [self.expr(a) for a in node.args]
            if not args:
                raise self.fail(f"{node.func.id}() needs an argument", "give the function an argument")
            return FUNCTIONS[node.func.id](*args)
        if isinstance(node, (ast.Compare, ast.BoolOp)):
            raise self.fail("a condition where a value was expected", "write an expression")
        raise self.fail(f"{type(node).__name__} is not allowed",
                        "use numbers, declared symbols, + - * / ** ^, parentheses and "
                        + ", ".join(sorted(FUNCTIONS)))

    def cond(self, node):
        if isinstance(node, ast.Expression):
            return self.cond(node.body)
        if isinstance(node, ast.BoolOp):
            parts = [self.cond(v) for v in node.values]
            return sympy.And(*parts) if isinstance(node.op, ast.And) else sympy.Or(*parts)
        if isinstance(node, ast.Compare):
            left = self.expr(node.left)
            parts = []
            for op, right_node in zip(node.ops, node.comparators):
                if type(op) not in _CMPOPS:
                    raise self.fail(f"comparison {type(op).__name__} is not allowed",
                                    "use < <= > >= == !=")
                right = self.expr(right_node)
                parts.append(_CMPOPS[type(op)](left, right, evaluate=False))
                left = right
            return sympy.And(*parts) if len(parts) > 1 else parts[0]
        raise self.fail("expected a comparison such as `0 < mu`", "write a condition like `0 < sigma < mu`")


def _tree(text, mode_hint: str):
    if not isinstance(text, (str, int, float)) or isinstance(text, bool):
        raise InputError(f"expected a formula string, got {text!r}", fix=f"write the {mode_hint} as a quoted string")
    source = str(text).strip()
    if not source:
        raise InputError(f"empty {mode_hint}", fix=f"write the {mode_hint}")
    if len(source) > 2000:
        raise InputError(f"{mode_hint} longer than 2000 characters", fix="shorten the formula")
    try:
        return ast.parse(source, mode="eval"), source
    except SyntaxError as exc:
        raise InputError(f"cannot parse formula {source!r}: {exc.msg}",
                         fix="check brackets and operators") from None


def parse_expr(text, symbols: dict[str, sympy.Symbol]) -> sympy.Expr:
    """Parse an arithmetic formula into an exact sympy expression.

    Parameters
    ----------
    text : str or number
        The formula, e.g. ``"(exp(eps)*(N-1) + 1)/N"``.
    symbols : dict
        Declared symbols by name; any other name is an error.

    Raises
    ------
    InputError
        Unparseable formula, undeclared symbol or a construct outside the whitelist.
    """
    tree, source = _tree(text, "formula")
    return _Walker(symbols, source).expr(tree)


def parse_condition(text, symbols: dict[str, sympy.Symbol]) -> sympy.Basic:
    """Parse a condition such as ``"0 < sigma < mu <= 1/2"`` into a sympy boolean."""
    tree, source = _tree(text, "condition")
    return _Walker(symbols, source).cond(tree)
