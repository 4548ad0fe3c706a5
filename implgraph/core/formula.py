"""Whitelist parser for formulas in data files and on the command line.

Formulas are parsed with :mod:`ast` into a syntax tree that is walked node by node; only numbers,
declared symbols, arithmetic, a fixed set of functions and comparisons are accepted. Nothing is
ever evaluated by Python, so a data file cannot run code.

Notation
--------
``^`` is a power, as printed in the papers, with the usual precedence: it is turned into ``**`` token by
token (:mod:`tokenize`) before parsing, so ``N^2 - 1`` is ``N**2 - 1``, ``e^eps + 1`` is ``exp(eps) + 1``,
``-2^2`` is ``-4`` and ``a^b^c`` is ``a^(b^c)``. Python's exclusive or never applies.

Number literals are read exactly from their text (``0.1`` is 1/10, ``1e-3`` is 1/1000).

Bounds
------
Every formula is parsed in bounded time and memory, or refused with an :class:`InputError`:

- at most ``MAX_LENGTH`` (2000) characters and ``MAX_DEPTH`` (100) levels of nesting;
- a number literal has at most ``MAX_DIGITS`` (1000) digits and a decimal exponent (``1e-5``) of
  absolute value at most ``MAX_EXPONENT`` (1000);
- a numeric exponent, including the argument of ``exp``, has absolute value at most ``MAX_EXPONENT``
  (also after sympy combines powers, as in ``(x^600)^2``), and a power of a number has at most about
  ``MAX_DIGITS`` digits; ``floor`` and ``ceiling`` of a number need its absolute value below
  ``10^MAX_DIGITS``;
- exponentials nest at most ``MAX_TOWER`` (2) deep where the exponent is not a number: ``exp(exp(eps))`` is
  read, ``exp(exp(exp(eps)))`` or ``t^t^t^t`` is refused (its value at a level such as eps = 10 has more digits
  than any computer holds, so a check evaluating it would never end);
- a value undefined when parsed (``1/0``, ``0/0``, ``ln(0)``, ``0^-1``, ``oo - oo``: sympy's ``zoo`` or
  ``nan``) or not real (``sqrt(-1)``, ``ln(-2)``, ``(-8)^(1/3)``: sympy's ``I``) is refused; ``oo`` written
  explicitly is allowed.

Examples
--------
>>> import sympy
>>> mu = sympy.Symbol("mu")
>>> parse_expr("2*mu - 0.1", {"mu": mu})
2*mu - 1/10
>>> parse_expr("2^3^2 - 1", {})
511
"""

from __future__ import annotations

import ast
import functools
import io
import math
import re
import tokenize
from fractions import Fraction

import sympy

from implgraph.core.errors import InputError

__all__ = ["parse_expr", "parse_condition", "parse_number", "FUNCTIONS", "MAX_LENGTH", "MAX_DEPTH", "MAX_DIGITS", "MAX_EXPONENT",
           "MAX_TOWER", "tower_height", "Word"]


class Word(str):
    """A parameter that is a word (a ground distance ``equal``), not an expression: the prover and the
    refuter keep it as it is (an expression is parsed and, at a point, made an integer)."""

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
    "Min": sympy.Min,
    "min": sympy.Min,
    "Max": sympy.Max,
    "max": sympy.Max,
    "Abs": sympy.Abs,
    "abs": sympy.Abs,
    "floor": sympy.floor,
    "ceiling": sympy.ceiling,
    "tanh": sympy.tanh,
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


def _carets_to_powers(source: str) -> str:
    """Replace every operator token ``^`` by ``**`` (strings and names are left alone).

    Text that cannot be tokenized is returned unchanged: :func:`ast.parse` then reports the error,
    and a ``^`` left in place is refused by the whitelist (exclusive or is not allowed).
    """
    if "^" not in source:
        return source
    lines = io.StringIO(source).readlines()
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    carets = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.OP and token.string == "^":
                carets.append(starts[token.start[0] - 1] + token.start[1])
    except (tokenize.TokenError, SyntaxError):
        return source
    pieces, last = [], 0
    for at in carets:
        pieces += [source[last:at], "**"]
        last = at + 1
    return "".join(pieces) + source[last:]


def _depth_exceeds(tree: ast.expr, source: str, limit: int) -> bool:
    """Whether expressions are nested more than ``limit`` levels deep (iterative: no recursion).

    Each level of nested expressions takes at least one character, so a text of at most ``limit``
    characters is never too deep.
    """
    if len(source) <= limit:
        return False
    stack = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node) if isinstance(child, ast.expr))
    return False


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


def _tree(text, mode_hint: str):
    """Parse ``text`` (``^`` read as ``**``) into a syntax tree within the length and depth bounds.

    Returns
    -------
    tuple
        ``(tree, text as written, text parsed)``.
    """
    if not isinstance(text, (str, int, float)) or isinstance(text, bool):
        raise InputError(f"expected a formula string, got {_short(repr(text))}",
                         fix=f"write the {mode_hint} as a quoted string")
    written = str(text).strip()
    if not written:
        raise InputError(f"empty {mode_hint}", fix=f"write the {mode_hint}")
    if len(written) > MAX_LENGTH:
        raise InputError(f"{mode_hint} longer than {MAX_LENGTH} characters", fix="shorten the formula")
    source = _carets_to_powers(written)
    try:
        tree = ast.parse(source, mode="eval")
    except SyntaxError as exc:
        raise InputError(f"cannot parse formula {_short(written, 200)!r}: {exc.msg}",
                         fix="check brackets and operators") from None
    except (ValueError, RecursionError, MemoryError):
        raise InputError(f"cannot parse formula {_short(written, 200)!r}: too complex or not text",
                         fix="simplify the formula") from None
    if _depth_exceeds(tree.body, source, MAX_DEPTH):
        raise InputError(f"cannot parse formula {_short(written, 200)!r}: nested more than {MAX_DEPTH} levels "
                         "deep", fix="simplify the formula (fewer nested brackets, signs or chained operators)")
    return tree, written, source


def _parse(text, symbols: dict[str, sympy.Symbol], mode_hint: str, method: str) -> sympy.Basic:
    """Walk the tree of ``text`` with the walker's ``method`` (expr or cond) and check the result.

    The result (an immutable sympy object) is remembered per text, its type and the symbols; an
    error is raised again on every call."""
    try:
        return _parse_memo(type(text), text, tuple(symbols.items()), mode_hint, method)
    except TypeError:  # an unhashable text or symbol table: parse without the memo
        return _parse_now(text, symbols, mode_hint, method)


@functools.lru_cache(maxsize=20_000)
def _parse_memo(kind, text, symbol_items, mode_hint, method):
    return _parse_now(text, dict(symbol_items), mode_hint, method)


def _parse_now(text, symbols, mode_hint, method):
    tree, written, source = _tree(text, mode_hint)
    walker = _Walker(symbols, written, source)
    try:
        value = getattr(walker, method)(tree)
    except (RecursionError, MemoryError):
        raise walker.fail("too complex to evaluate", "simplify the formula") from None
    walker.check_result(value)
    return value


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
        Unparseable formula, undeclared symbol, a construct outside the whitelist, a bound exceeded
        (length, nesting, digits, exponents; see the module docstring) or an undefined value (``1/0``).
    """
    return _parse(text, symbols, "formula", "expr")


def parse_number(text, what: str = "value", kind: str = "rational"):
    """A number given as text (a command-line option): read by :func:`parse_expr` with no symbols (so within
    its bounds: ``1e-999999999`` or ``10^10^10`` is refused, never computed), then of the ``kind`` asked for:
    ``integer`` (an int), ``rational`` (a Fraction) or ``real`` (a finite real sympy number).

    >>> parse_number("1/10"), parse_number("2^3", kind="integer")
    (Fraction(1, 10), 8)

    Raises
    ------
    InputError
        Not a formula of numbers, not finite and real, or not of the kind.
    """
    example = {"integer": "an integer such as 2", "rational": "a number such as 1/10"}.get(kind, "a number")
    try:
        value = parse_expr(text, {})
    except InputError as exc:
        if "undeclared symbol" in exc.reason or "not allowed" in exc.reason:
            raise InputError(f"{what} {_short(repr(text), 80)} is not a number", fix=f"give {example}") from None
        raise InputError(f"{what}: {exc.reason}", fix=exc.fix) from None
    if value.is_real is not True or value.is_finite is not True:
        raise InputError(f"{what} {_short(text)} is not a finite real number", fix=f"give {example}")
    if kind == "integer":
        if not value.is_Integer:
            raise InputError(f"{what} {_short(text)} is not an integer", fix=f"give {example}")
        return int(value)
    if kind == "rational":
        if not value.is_Rational:
            raise InputError(f"{what} {_short(text)} is not a rational number", fix=f"give {example}")
        return Fraction(int(value.p), int(value.q))
    return value


def parse_condition(text, symbols: dict[str, sympy.Symbol]) -> sympy.Basic:
    """Parse a condition such as ``"0 < sigma < mu <= 1/2"`` into a sympy boolean (same rules as
    :func:`parse_expr` for its sides)."""
    return _parse(text, symbols, "condition", "cond")
