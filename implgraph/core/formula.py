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
import re
import tokenize
from fractions import Fraction

import sympy

from implgraph.core.errors import InputError
# the whitelist and its bounds live with the walker; imported from here as before
from implgraph.core.formula_walker import (CONSTANTS, FUNCTIONS, MAX_DEPTH, MAX_DIGITS, MAX_EXPONENT,  # noqa: F401
                                           MAX_LENGTH, MAX_TOWER, _BINOPS, _Walker, _short, tower_height)

__all__ = ["parse_expr", "parse_condition", "parse_number", "free_names", "FUNCTIONS", "MAX_LENGTH", "MAX_DEPTH", "MAX_DIGITS", "MAX_EXPONENT",
           "MAX_TOWER", "tower_height", "Word"]


class Word(str):
    """A parameter that is a word (a ground distance ``equal``), not an expression: the prover and the
    refuter keep it as it is (an expression is parsed and, at a point, made an integer)."""


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


def free_names(text) -> set:
    """The identifiers of ``text`` that are neither a function nor a constant of the formula reader: the names a
    caller must give :func:`parse_expr` or :func:`parse_condition` a symbol for.

    Examples
    --------
    >>> sorted(free_names("log(N*exp(eps)) <= t + pi"))
    ['N', 'eps', 't']
    """
    return set(_IDENTIFIER.findall(str(text))) - set(FUNCTIONS) - set(CONSTANTS)


_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")


def parse_condition(text, symbols: dict[str, sympy.Symbol]) -> sympy.Basic:
    """Parse a condition such as ``"0 < sigma < mu <= 1/2"`` into a sympy boolean (same rules as
    :func:`parse_expr` for its sides)."""
    return _parse(text, symbols, "condition", "cond")
