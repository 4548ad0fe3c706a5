"""Reading a certificate's expressions: polynomials over the rationals and exact evaluators.

A certificate writes its expressions as text in sympy's notation (``"N*T**2*k - k"``,
``"(T - 1)/(T + 1)"``, ``"Min(T**2, N*(T - 1) + 1)"``). :class:`Reader` parses them with Python's
:mod:`ast` (a whitelist: integers, the certificate's symbols, ``+ - * /``, integer powers (in an evaluator, also a power
whose exponent is an expression that is an integer at each point, e.g. ``3**ceiling(T)``), ``Min``, ``Max``,
``ceiling``; relations ``<= < >= > ==`` and ``Eq``) and turns them into

- polynomials of a :func:`sympy.polys.rings.ring` over QQ (exact, and fast: no expression trees
  to simplify) for the identities and inequalities of the upper bound;
- exact evaluators on :class:`fractions.Fraction` points for the tightness family and the domain.

Anything else (a logarithm in a domain condition, say) raises :class:`Unreadable`; the checker then
reads that expression with sympy instead (:meth:`Reader.sympy`).

Examples
--------
>>> rd = Reader(["N", "T"])
>>> rd.poly("(N - 1)*T + 1")
N*T - T + 1
>>> rd.function("Min(T**2, N*(T - 1) + 1)")({"N": 3, "T": Fraction(3, 2)})
Fraction(9, 4)
"""

from __future__ import annotations

import ast
import math
import operator
from fractions import Fraction

import sympy
from sympy.polys.rings import ring

__all__ = ["Reader", "Unreadable", "NotPolynomial", "RELATIONS", "read_sympy"]

#: relation operators: Python's comparison node -> the text the checker reports
RELATIONS = {ast.LtE: "<=", ast.Lt: "<", ast.GtE: ">=", ast.Gt: ">", ast.Eq: "=="}
_BINARY = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul}


class Unreadable(ValueError):
    """An expression outside the fragment :class:`Reader` reads exactly."""


class NotPolynomial(Unreadable):
    """An expression that is not a polynomial (a division by a symbol, Min, Max)."""


class Reader:
    """Parses a certificate's expressions over the symbols ``names``.

    Parameters
    ----------
    names : iterable of str
        The symbols the expressions may use (the generators of :attr:`ring`).
    """

    def __init__(self, names):
        self.names = tuple(dict.fromkeys(names))
        self.ring, *gens = ring(",".join(self.names), sympy.QQ)
        self.gens = dict(zip(self.names, gens))
        self.symbols = dict(zip(self.names, self.ring.symbols))
        self._trees = {}
        self._shared = {}

    def tree(self, text):
        """The checked :mod:`ast` expression of ``text`` (cached)."""
        text = str(text)
        if text not in self._trees:
            try:
                node = ast.parse(text.strip(), mode="eval").body
            except SyntaxError as exc:
                raise Unreadable(f"cannot parse {text!r}: {exc.msg}") from None
            self._trees[text] = node
        return self._trees[text]

    def names_in(self, text):
        """The names ``text`` mentions (functions excluded)."""
        node = self.tree(text)
        called = {id(c.func) for c in ast.walk(node) if isinstance(c, ast.Call)}
        return frozenset(n.id for n in ast.walk(node) if isinstance(n, ast.Name) and id(n) not in called)

    # polynomials -------------------------------------------------------------------------------

    def poly(self, text):
        """``text`` as a polynomial of :attr:`ring` (:class:`NotPolynomial` otherwise)."""
        num, den = self._ratio(self.tree(text))
        if not den.is_ground:
            raise NotPolynomial(f"{text} is not a polynomial")
        return num.quo_ground(den.LC)

    def ratio(self, text):
        """``(P, Q)``: ``text`` as a reduced quotient of polynomials, Q's leading coefficient > 0."""
        num, den = self._ratio(self.tree(text))
        return num.cancel(den)

    def components(self, text):
        """The polynomial arguments of a top-level ``Min`` (or ``[text]`` itself)."""
        node = self.tree(text)
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Min":
            return [self._poly_node(a) for a in node.args]
        return [self._poly_node(node)]

    def ratio_components(self, text):
        """The arguments of a top-level ``Min`` (or ``[text]`` itself), each as a reduced quotient ``(P, Q)``."""
        node = self.tree(text)
        args = node.args if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Min" else [node]
        out = []
        for a in args:
            num, den = self._ratio(a)
            out.append(num.cancel(den))
        return out

    def _poly_node(self, node):
        num, den = self._ratio(node)
        if not den.is_ground:
            raise NotPolynomial(f"{ast.unparse(node)} is not a polynomial")
        return num.quo_ground(den.LC)

    def _ratio(self, node):
        """``(numerator, denominator)`` without cancelling (the caller reduces)."""
        R = self.ring
        if isinstance(node, ast.Constant) and type(node.value) is int:
            return R(node.value), R.one
        if isinstance(node, ast.Name):
            if node.id not in self.gens:
                raise Unreadable(f"undeclared symbol {node.id!r}")
            return self.gens[node.id], R.one
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            n, d = self._ratio(node.operand)
            return (-n if isinstance(node.op, ast.USub) else n), d
        if isinstance(node, ast.BinOp):
            (a, b), (c, d) = self._ratio(node.left), self._ratio(node.right)
            if isinstance(node.op, (ast.Add, ast.Sub)):
                return _BINARY[type(node.op)](a * d, c * b), b * d
            if isinstance(node.op, ast.Mult):
                return a * c, b * d
            if isinstance(node.op, ast.Div):
                if not c:
                    raise Unreadable(f"division by 0 in {ast.unparse(node)}")
                return a * d, b * c
            if isinstance(node.op, ast.Pow):
                e = _integer(node.right)
                if e < 0:
                    if not a:
                        raise Unreadable(f"0 to a negative power in {ast.unparse(node)}")
                    a, b, e = b, a, -e
                for p in (a, b):
                    _check_ring_power(p, e, node)
                return a ** e, b ** e
        raise NotPolynomial(f"{ast.unparse(node)} is not a rational function")

    def to_sympy(self, p):
        """A polynomial of :attr:`ring` as a sympy expression (over :attr:`symbols`)."""
        return p.as_expr()

    def sympy(self, text):
        """``text`` as a sympy expression or relation over :attr:`symbols` (the fallback for what :meth:`tree`
        rejects, e.g. a logarithm), read by the project's whitelist parser (:func:`read_sympy`), never ``sympify``."""
        return read_sympy(text, self.symbols)

    # exact evaluation --------------------------------------------------------------------------

    def function(self, text):
        """An exact evaluator of ``text``: ``env -> int | Fraction`` with ``env`` ``{name: int | Fraction}``.

        The evaluators of one reader share their ``Min`` and ``Max`` subexpressions (a bound written
        inside a table family's values is evaluated once per point): each keeps its last point and
        value, recognised by identity, so an ``env`` must not be changed after it was evaluated (pass
        a new dict for a new point, as :meth:`implgraph.certify.domain.Domain.points` does)."""
        return _compile(self.tree(text), self.gens, self._shared)

    def relation(self, text):
        """``(op, lhs evaluator, rhs evaluator)`` of a relation ``a <= b`` (or ``Eq(a, b)``)."""
        node = self.tree(text)
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in RELATIONS:
            return RELATIONS[type(node.ops[0])], node.left, node.comparators[0]
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Eq" and len(node.args) == 2:
            return "==", node.args[0], node.args[1]
        raise Unreadable(f"{text} is not a relation")

    def relation_poly(self, text):
        """``(op, g)``: the relation as ``g op 0`` with op ``>=``, ``>`` or ``==`` (g a polynomial)."""
        op, lhs, rhs = self.relation(text)
        a, b = self._poly_node(lhs), self._poly_node(rhs)
        if op in ("<=", "<"):
            return {"<=": ">=", "<": ">"}[op], b - a
        return op, a - b

    def relation_function(self, text):
        """An exact test of a relation at a point: ``env -> bool``."""
        op, lhs, rhs = self.relation(text)
        f, g = _compile(lhs, self.gens), _compile(rhs, self.gens)
        cmp = {"<=": operator.le, "<": operator.lt, ">=": operator.ge, ">": operator.gt, "==": operator.eq}[op]
        return lambda env: cmp(f(env), g(env))


def read_sympy(text, symbols):
    """``text`` (an expression, or a relation such as ``log(T) <= eps1`` or ``Eq(k, 1)``) as sympy over ``symbols``
    (``{name: Symbol}``), by :func:`implgraph.core.formula.parse_expr` / :func:`~implgraph.core.formula.parse_condition`:
    a whitelist walk of the syntax tree that runs nothing (a certificate may come from a file, e.g. a verdict cache).
    :class:`Unreadable` for anything else."""
    from implgraph.core.errors import InputError
    from implgraph.core.formula import parse_condition, parse_expr
    text = str(text)
    try:
        return parse_expr(text, dict(symbols))
    except InputError as exc:
        first = exc
    try:
        return parse_condition(text, dict(symbols))
    except InputError:
        raise Unreadable(f"cannot read {text[:80]!r}: {first.reason}") from None


def _integer(node):
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_integer(node.operand)
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    raise NotPolynomial(f"exponent {ast.unparse(node)} is not an integer")


#: the largest exponent evaluated at a point (a family's 3**ceiling(T) at the checker's levels is far below it)
MAX_EXPONENT = 4096


#: the largest result of a power, in bits (no input may exhaust memory: (2**4096)**4096 is refused)
MAX_POWER_BITS = 1 << 20


def _power(base, e):
    """``base ** e`` exactly, for an exponent that is an integer at this point (ValueError otherwise, when it is
    larger than :data:`MAX_EXPONENT`, or when the result would exceed :data:`MAX_POWER_BITS`)."""
    if type(e) is not int:
        if Fraction(e).denominator != 1:
            raise ValueError(f"exponent {e} is not an integer")
        e = int(e)
    if abs(e) > MAX_EXPONENT:
        raise ValueError(f"exponent {e} is larger than {MAX_EXPONENT}")
    bits = base.bit_length() if type(base) is int else max(base.numerator.bit_length(), base.denominator.bit_length())
    if bits * abs(e) > MAX_POWER_BITS:
        raise ValueError(f"a power of more than {MAX_POWER_BITS} bits")
    return _divide(1, base ** -e) if e < 0 else base ** e


#: the largest total degree of a polynomial power the reader expands
MAX_POWER_DEGREE = 512


def _check_ring_power(p, e, node):
    """Unreadable unless ``p ** e`` stays within :data:`MAX_POWER_DEGREE` and :data:`MAX_POWER_BITS` per coefficient
    (no input may exhaust memory: ``((T + 1)**4096)**4096`` is refused before it is expanded)."""
    degree = max((sum(m) for m in p.monoms()), default=0)
    bits = max((max(abs(c.numerator).bit_length(), c.denominator.bit_length()) for c in p.coeffs()), default=0)
    if degree * e > MAX_POWER_DEGREE or bits * e > MAX_POWER_BITS:
        raise Unreadable(f"{ast.unparse(node)} is too large a power")


def _divide(a, b):
    """Exact a / b (two ints give a Fraction, not a float)."""
    return Fraction(a, b) if type(a) is int and type(b) is int else a / b


def _compile(node, names, shared=None):
    """A closure evaluating ``node`` exactly (ints and Fractions; Min, Max, ceiling). With ``shared`` (a dict),
    identical ``Min``/``Max`` subtrees get one closure that remembers its last ``(env, value)``."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        v = node.value
        return lambda env: v
    if isinstance(node, ast.Name):
        if node.id not in names:
            raise Unreadable(f"undeclared symbol {node.id!r}")
        key = node.id
        return lambda env: env[key]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        f = _compile(node.operand, names, shared)
        return (lambda env: -f(env)) if isinstance(node.op, ast.USub) else f
    if isinstance(node, ast.BinOp):
        f = _compile(node.left, names, shared)
        if isinstance(node.op, ast.Pow):
            try:
                e = _integer(node.right)
            except NotPolynomial:       # an exponent that is an integer at each point (3**ceiling(T)): evaluated there
                g = _compile(node.right, names, shared)
                return lambda env: _power(f(env), g(env))
            return lambda env: _power(f(env), e)
        g = _compile(node.right, names, shared)
        op = {**_BINARY, ast.Div: _divide}.get(type(node.op))
        if op is not None:
            return lambda env: op(f(env), g(env))
    if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("Min", "Max") and node.args \
            and not node.keywords:
        key = ast.dump(node) if shared is not None else None
        if key is not None and key in shared:
            return shared[key]
        fs = [_compile(a, names, shared) for a in node.args]
        pick = min if node.func.id == "Min" else max
        if shared is None:
            return lambda env: pick(f(env) for f in fs)
        last = [None, None]     # the last env (kept alive, so ``is`` cannot match a new dict) and value

        def call(env):
            if last[0] is not env:
                last[1] = pick(f(env) for f in fs)
                last[0] = env
            return last[1]

        shared[key] = call
        return call
    if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "ceiling" and len(node.args) == 1 \
            and not node.keywords:
        f = _compile(node.args[0], names, shared)
        return lambda env: math.ceil(f(env))        # (an int: exact for ints and Fractions)
    raise Unreadable(f"{ast.unparse(node)} is not a rational expression")
