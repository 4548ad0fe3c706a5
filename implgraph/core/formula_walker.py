"""The whitelist walker of :mod:`implgraph.core.formula`: a checked syntax tree to an exact sympy value.

The syntax tree of a formula is walked node by node (:class:`_Walker`); only numbers (read exactly from
their text, :func:`_literal`), declared symbols, arithmetic, the functions of ``FUNCTIONS``, the constants of
``CONSTANTS`` and comparisons are accepted, each within the bounds ``MAX_*`` (see
:mod:`implgraph.core.formula`). Nothing is ever evaluated by Python.
"""

from __future__ import annotations

import ast
import math
import re
from fractions import Fraction

import sympy

from implgraph.core.errors import InputError
from implgraph.core.extrema import fast_max, fast_min

__all__ = ["FUNCTIONS", "CONSTANTS", "MAX_LENGTH", "MAX_DEPTH", "MAX_DIGITS", "MAX_EXPONENT", "MAX_TOWER",
           "tower_height"]


MAX_LENGTH = 2000     # characters of one formula
MAX_DEPTH = 100       # nesting levels of expressions (data formulas need about 11)
MAX_DIGITS = 1000     # digits of a number literal and (about) of a power of a number
MAX_EXPONENT = 1000   # |exponent| of a numeric power, of exp's argument and of a literal's e-notation
MAX_TOWER = 2         # nesting of exponentials whose exponent is not a number (exp(exp(eps)) is 2)

FUNCTIONS = {
    "exp": sympy.exp,
    "ln": sympy.log,
    "log": sympy.log,
    "sqrt": sympy.sqrt,
    "Min": fast_min,      # sympy.Min and sympy.Max, the same objects (implgraph.core.extrema)
    "min": fast_min,
    "Max": fast_max,
    "max": fast_max,
    "Abs": sympy.Abs,
    "abs": sympy.Abs,
    "floor": sympy.floor,
    "ceiling": sympy.ceiling,
    "tanh": sympy.tanh,
    "cosh": sympy.cosh,
    "sinh": sympy.sinh,
    # pieces (value, condition), as sympy prints them: Piecewise((a, Eq(N, 2)), (b, True))
    "Piecewise": sympy.Piecewise,
}
CONSTANTS = {"oo": sympy.oo, "inf": sympy.oo, "E": sympy.E, "e": sympy.E, "pi": sympy.pi}

_BINOPS = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
    ast.Pow: lambda a, b: a ** b,   # also ^, turned into ** by _carets_to_powers
}
_CMPOPS = {
    ast.Lt: sympy.StrictLessThan,
    ast.LtE: sympy.LessThan,
    ast.Gt: sympy.StrictGreaterThan,
    ast.GtE: sympy.GreaterThan,
    ast.Eq: sympy.Eq,
    ast.NotEq: sympy.Ne,
}


_MAX_ARGS = {"ln": 2, "log": 2, "Min": None, "min": None, "Max": None, "max": None}  # others take one
_DECIMAL = re.compile(r"(?P<mantissa>[0-9]*\.?[0-9]*)(?:[eE](?P<exponent>[+-]?[0-9]+))?")
_BOUNDS_FIX = (f"write numbers with at most {MAX_DIGITS} digits and exponents within +-{MAX_EXPONENT}, "
               "or keep the quantity symbolic")
_UNDEFINED_FIX = "keep denominators and the arguments of ln away from 0 (write oo for an infinite value)"


def _short(value, width: int = 40) -> str:
    text = str(value)
    return text if len(text) <= width else text[:width] + "..."


def _literal(text: str) -> sympy.Rational:
    """The exact value of a Python number literal, read from its source text (never through a float).

    Raises
    ------
    ValueError
        ``(what, fix)``: an imaginary literal, more than ``MAX_DIGITS`` digits or an e-notation exponent
        beyond ``MAX_EXPONENT``.
    """
    plain = text.replace("_", "")
    if plain.isdigit() and len(plain) <= MAX_DIGITS:
        return sympy.Integer(int(plain))
    if plain[-1:] in ("j", "J"):
        raise ValueError("is imaginary", "write real numbers like 3, 0.5 or 1/3")
    based = plain[:2].lower() in ("0x", "0o", "0b")
    match = None if based else _DECIMAL.fullmatch(plain)
    if not based and match is None:
        raise ValueError("is not a number literal", "write numbers like 3, 0.5 or 1/3")
    digits = plain[2:] if based else match["mantissa"].replace(".", "")
    exponent = 0 if based else int(match["exponent"] or 0)
    if len(digits.lstrip("0")) > MAX_DIGITS:
        raise ValueError(f"has more than {MAX_DIGITS} digits", _BOUNDS_FIX)
    if abs(exponent) > MAX_EXPONENT:
        raise ValueError(f"has an exponent beyond +-{MAX_EXPONENT}", _BOUNDS_FIX)
    return sympy.Integer(int(plain, 0)) if based else sympy.Rational(Fraction(plain))


def _abs_value(value: sympy.Expr):
    """``|value|`` of a number to 15 digits (a sympy Float), or None when it has no numeric value."""
    size = sympy.Abs(value).evalf(15)
    return size if size.is_Number else None


def _segment(source: str, node: ast.expr) -> str:
    """The source text of ``node`` (offsets are UTF-8 bytes: slice directly only in one ASCII line)."""
    if source.isascii() and "\n" not in source:
        return source[node.col_offset:node.end_col_offset]
    return ast.get_source_segment(source, node) or ""


class _Walker:
    """Builds the sympy value of a checked syntax tree, refusing anything outside the whitelist or bounds.

    ``text`` is the formula as written (for messages), ``source`` the text that was parsed (``^`` as
    ``**``), to which the tree's positions refer.
    """

    def __init__(self, symbols: dict[str, sympy.Symbol], text: str, source: str):
        self.symbols = symbols
        self.text = text
        self.source = source
        self.powers = False     # whether a power was built (sympy may then combine exponents)

    def fail(self, what: str, fix: str) -> InputError:
        return InputError(f"cannot parse formula {_short(self.text, 200)!r}: {what}", fix=fix)

    def number(self, node: ast.Constant) -> sympy.Rational:
        value = node.value
        if isinstance(value, bool) or not isinstance(value, (int, float, complex)):
            raise self.fail(f"{_short(repr(value))} is not a number", "write numbers like 3, 0.5 or 1/3")
        literal = _segment(self.source, node) or repr(value)
        try:
            return _literal(literal)
        except ValueError as exc:
            what, fix = exc.args
            raise self.fail(f"the number {_short(literal)} {what}", fix) from None

    def check_power(self, base: sympy.Expr, exponent: sympy.Expr) -> None:
        """Refuse ``base**exponent`` when a numeric exponent or a power of a number is out of bounds."""
        self.powers = True
        if not exponent.is_number or exponent.is_infinite:
            return
        size = _abs_value(exponent)
        if size is None or size > MAX_EXPONENT:
            raise self.fail(f"the exponent {_short(exponent)} is beyond +-{MAX_EXPONENT}", _BOUNDS_FIX)
        magnitude = _abs_value(base) if base.is_number and not base.is_infinite else None
        if magnitude and float(size) * abs(float(sympy.log(magnitude))) / math.log(10) > MAX_DIGITS:
            raise self.fail(f"the power {_short(base)}^{_short(exponent)} has more than about "
                            f"{MAX_DIGITS} digits", _BOUNDS_FIX)

    def check_magnitude(self, name: str, value: sympy.Expr) -> None:
        """Refuse floor/ceiling of a number of absolute value 10^MAX_DIGITS or more (all its digits)."""
        if value.is_number and not value.is_infinite:
            size = _abs_value(value)
            if size is None or size >= sympy.Integer(10) ** MAX_DIGITS:
                raise self.fail(f"{name} of a number with more than {MAX_DIGITS} digits", _BOUNDS_FIX)

    def defined(self, node, value: sympy.Expr) -> sympy.Expr:
        """Refuse a value containing sympy's ``zoo`` or ``nan`` (a division by zero or an undefined form) or the
        imaginary unit (``sqrt(-1)``, ``ln(-1)``: every quantity of the data is real)."""
        if value.has(sympy.zoo, sympy.nan):
            part = _segment(self.source, node) or self.text
            raise self.fail(f"{_short(part)} is undefined (a division by zero, ln(0), 0*oo or oo - oo)",
                            _UNDEFINED_FIX)
        if value.has(sympy.I) or (value.is_number and value.is_extended_real is False):
            part = _segment(self.source, node) or self.text
            raise self.fail(f"{_short(part)} is not a real number", "keep the arguments of sqrt and ln away from "
                            "negative numbers")
        return value

    def check_result(self, value: sympy.Basic) -> None:
        """Refuse a power whose exponent sympy's simplification took beyond ``MAX_EXPONENT``, and exponentials
        nested more than ``MAX_TOWER`` deep.

        Only needed once a power was built: a product of k equal factors takes 2k - 1 characters.
        """
        if not self.powers:
            return
        if tower_height(value) > MAX_TOWER:
            raise self.fail(f"exponentials nested more than {MAX_TOWER} deep (a tower such as exp(exp(exp(x))))",
                            f"nest exp and powers with a symbolic exponent at most {MAX_TOWER} deep")
        for part in sympy.preorder_traversal(value):
            exponent = part.exp if isinstance(part, (sympy.Pow, sympy.exp)) else None
            if exponent is not None and exponent.is_Rational and abs(exponent) > MAX_EXPONENT:
                raise self.fail(f"the power {_short(part)} has an exponent beyond +-{MAX_EXPONENT}", _BOUNDS_FIX)

    def call(self, node: ast.Call) -> sympy.Expr:
        name = getattr(node.func, "id", None) or _short(_segment(self.source, node.func) or "?")
        if not isinstance(node.func, ast.Name) or name not in FUNCTIONS or node.keywords:
            raise self.fail(f"function {name!r} is not allowed", "use one of " + ", ".join(sorted(FUNCTIONS)))
        if name == "Piecewise":
            return self.piecewise(node)
        args = [self.expr(a) for a in node.args]
        most = _MAX_ARGS.get(name, 1)
        if not args or (most is not None and len(args) > most):
            raise self.fail(f"{name}() takes " + ("at least one argument" if most is None else
                                                  f"1 to {most} arguments" if most > 1 else "one argument"),
                            f"give {name} the right number of arguments")
        if name == "exp":
            self.check_power(sympy.E, args[0])
        if name in ("floor", "ceiling"):
            self.check_magnitude(name, args[0])
        try:
            value = FUNCTIONS[name](*args)
        except (TypeError, ValueError) as exc:
            raise self.fail(f"{name} cannot be applied here ({_short(exc, 80)})",
                            f"give {name} real arguments") from None
        return self.defined(node, value)

    def piecewise(self, node: ast.Call) -> sympy.Expr:
        """``Piecewise((value, condition), ...)``, a condition being a comparison, ``Eq(a, b)``, ``&``/``|`` of
        conditions or ``True`` (as sympy prints a Piecewise)."""
        fix = "write Piecewise((f1, N == 2), (f2, True)): pairs of a value and a condition"
        if not node.args:
            raise self.fail("Piecewise() takes at least one (value, condition) pair", fix)
        pieces = []
        for arg in node.args:
            if not (isinstance(arg, ast.Tuple) and len(arg.elts) == 2):
                raise self.fail("Piecewise takes (value, condition) pairs", fix)
            value, c = arg.elts
            cond = sympy.true if isinstance(c, ast.Constant) and c.value is True else self.cond(c)
            pieces.append((self.expr(value), cond))
        try:
            return self.defined(node, sympy.Piecewise(*pieces))
        except (TypeError, ValueError) as exc:
            raise self.fail(f"Piecewise cannot be built here ({_short(exc, 80)})", fix) from None

    def expr(self, node):
        if isinstance(node, ast.Expression):
            return self.expr(node.body)
        if isinstance(node, ast.Constant):
            return self.number(node)
        if isinstance(node, ast.Name):
            if node.id in self.symbols:
                return self.symbols[node.id]
            if node.id in CONSTANTS:
                return CONSTANTS[node.id]
            declared = ", ".join(sorted(self.symbols)) or "none"
            raise self.fail(f"undeclared symbol {node.id!r} (declared: {declared})",
                            f"declare {node.id} under `symbols:` or use a declared symbol")
        if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
            left, right = self.expr(node.left), self.expr(node.right)
            if isinstance(node.op, ast.Pow):
                self.check_power(left, right)
            return self.defined(node, _BINOPS[type(node.op)](left, right))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            value = self.expr(node.operand)
            return -value if isinstance(node.op, ast.USub) else value
        if isinstance(node, ast.Call):
            return self.call(node)
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
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.BitAnd, ast.BitOr)):     # sympy prints And as &
            parts = [self.cond(node.left), self.cond(node.right)]
            return sympy.And(*parts) if isinstance(node.op, ast.BitAnd) else sympy.Or(*parts)
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("Eq", "Ne") and len(node.args) == 2 \
                and not node.keywords:      # as sympy prints an equation
            left, right = (self.expr(a) for a in node.args)
            return (sympy.Eq if node.func.id == "Eq" else sympy.Ne)(left, right, evaluate=False)
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


def tower_height(value: sympy.Basic) -> int:
    """How deep exponentials whose exponent is not a number nest in ``value``: 0 for a polynomial, 1 for
    ``exp(eps)`` or ``2^N``, 2 for ``exp(exp(eps))`` (iterative over the expression's distinct nodes).

    >>> t = sympy.Symbol("t")
    >>> tower_height(t**2 + 1), tower_height(sympy.exp(t)), tower_height(t**(t**t))
    (0, 1, 2)
    """
    height: dict = {}
    stack = [(value, False)]
    while stack:
        node, done = stack.pop()
        if node in height:
            continue
        if not done:
            stack.append((node, True))
            stack.extend((a, False) for a in node.args if a not in height)
            continue
        below = max((height[a] for a in node.args), default=0)
        exponent = node.exp if isinstance(node, (sympy.Pow, sympy.exp)) else None
        height[node] = below + 1 if exponent is not None and not exponent.is_number else below
    return height[value]
