"""Certificate text and polynomials as Coq terms over the reals (read with :mod:`ast`, never evaluated).

A certificate's expressions (``"(T*(N - 1) + 1)/N"``, ``"Min(1, N*T/(N - 1))"``, ``"log(T) <= eps1"``) are parsed
by Python's own parser into a tree and only the nodes listed here are translated: integer constants, names, ``+ - *
/``, a power by a nonnegative integer constant, ``Min``, ``Max``, ``log``, ``exp``, ``sqrt``, one comparison and ``Eq``.
Anything else raises :class:`Untranslatable`. An integer symbol is a natural number in Coq, written ``(INR name)``
in a real expression; a real symbol is a real; the lemmas' variables (``u_``, ``m_``, ``e_``, ``v_``) are the
bound variables ``vu``, ``vm``, ``ve``, ``vv`` of the obligations.
"""

from __future__ import annotations

import ast
import re

__all__ = ["Untranslatable", "Translator", "LEMMA_VARIABLES", "coq_ident"]

#: the lemmas' real variables (implgraph.certify.kernel.VARIABLES) and their names in the generated Coq
LEMMA_VARIABLES = {"u_": "vu", "m_": "vm", "e_": "ve", "v_": "vv", "a_": "va", "b_": "vb", "q_": "vq"}

#: names the generated files bind themselves (a certificate symbol may not take them)
RESERVED = {"K", "x", "cls", "Htab", "HA", "HU", "Lvl", *LEMMA_VARIABLES.values()}

#: a symbol's Coq name: letters, digits and inner underscores (``l_j``); a trailing underscore is the lemmas' variables'
_IDENT = re.compile(r"^[A-Za-z](?:[A-Za-z0-9_]*[A-Za-z0-9])?$")
_FUNCS = {"Min": "Rmin", "Max": "Rmax", "log": "ln", "exp": "exp", "sqrt": "sqrt"}
_REL = {ast.LtE: "<=", ast.GtE: ">=", ast.Lt: "<", ast.Gt: ">", ast.Eq: "="}


class Untranslatable(ValueError):
    """A text or a certificate the generator does not translate (the reason is the message)."""


def coq_ident(name: str) -> str:
    """``name`` if it is a plain identifier Coq accepts and the generated files do not bind."""
    if not _IDENT.match(name) or name in RESERVED:
        raise Untranslatable(f"symbol {name!r} is not a plain identifier free in the generated file")
    return name


class Translator:
    """Translates over the certificate's ``symbols`` (``{name: "integer" | "real"}``)."""

    def __init__(self, kinds):
        self.kinds = dict(kinds)
        self.kinds.setdefault("N", "integer")
        self.kinds.setdefault("T", "real")
        for name in self.kinds:
            coq_ident(name)

    def name(self, n: str) -> str:
        if n in LEMMA_VARIABLES:
            return LEMMA_VARIABLES[n]
        if n not in self.kinds:
            raise Untranslatable(f"undeclared symbol {n!r}")
        return f"(INR {n})" if self.kinds[n] == "integer" else n

    def binders(self) -> str:
        """``(N k : nat) (T : R)``: the certificate's symbols, naturals first."""
        nats = sorted(n for n, k in self.kinds.items() if k == "integer")
        reals = sorted(n for n, k in self.kinds.items() if k != "integer")
        out = []
        if nats:
            out.append(f"({' '.join(nats)} : nat)")
        if reals:
            out.append(f"({' '.join(reals)} : R)")
        return " ".join(out)

    # text ------------------------------------------------------------------------------------------------------

    def _tree(self, text):
        try:
            return ast.parse(str(text).strip(), mode="eval").body
        except SyntaxError as exc:
            raise Untranslatable(f"cannot parse {text!r}: {exc.msg}") from None

    def expr(self, text) -> str:
        return self._expr(self._tree(text))

    def _expr(self, node) -> str:
        if isinstance(node, ast.Constant) and type(node.value) is int:
            return str(node.value) if node.value >= 0 else f"(- {-node.value})"
        if isinstance(node, ast.Name):
            return self.name(node.id)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            inner = self._expr(node.operand)
            return f"(- {inner})" if isinstance(node.op, ast.USub) else inner
        if isinstance(node, ast.BinOp):
            a = self._expr(node.left)
            if isinstance(node.op, ast.Pow):
                e = node.right
                if isinstance(e, ast.Constant) and type(e.value) is int and e.value >= 0:
                    return f"({a} ^ {e.value})"
                raise Untranslatable(f"a power other than a natural constant in {ast.unparse(node)}")
            b = self._expr(node.right)
            op = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/"}.get(type(node.op))
            if op is None:
                raise Untranslatable(f"operator in {ast.unparse(node)}")
            return f"({a} {op} {b})"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _FUNCS \
                and not node.keywords:
            f, args = _FUNCS[node.func.id], [self._expr(a) for a in node.args]
            if f in ("Rmin", "Rmax"):
                if len(args) < 2:
                    raise Untranslatable(f"{node.func.id} of fewer than 2 arguments")
                out = args[-1]
                for a in reversed(args[:-1]):
                    out = f"({f} {a} {out})"
                return out
            if len(args) != 1:
                raise Untranslatable(f"{node.func.id} of {len(args)} arguments")
            return f"({f} {args[0]})"
        raise Untranslatable(f"{ast.unparse(node)} is not an expression the generator translates")

    def relation(self, text) -> str:
        node = self._tree(text)
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _REL:
            return f"{self._expr(node.left)} {_REL[type(node.ops[0])]} {self._expr(node.comparators[0])}"
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Eq" and len(node.args) == 2:
            return f"{self._expr(node.args[0])} = {self._expr(node.args[1])}"
        raise Untranslatable(f"{text} is not a relation")

    # polynomials -----------------------------------------------------------------------------------------------

    def poly(self, p, names=None) -> str:
        """A polynomial of a :class:`implgraph.certify.expr.Reader` ring; ``names`` overrides a generator's
        Coq term (e.g. ``(T - 1)`` for a shifted variable)."""
        names = names or {}
        gens = [str(g) for g in p.ring.gens]
        terms = []
        for monom, coeff in sorted(p.terms(), key=lambda mc: (sum(mc[0]), mc[0])):
            factors = []
            for g, e in zip(gens, monom):
                if e:
                    term = names.get(g) or self.name(g)
                    factors.append(term if e == 1 else f"{term} ^ {e}")
            c = _rational(coeff)
            terms.append(c if not factors else f"{c} * ({' * '.join(factors)})")
        return " + ".join(f"({t})" for t in terms) if terms else "0"


def _rational(c) -> str:
    n, d = int(c.numerator), int(c.denominator)
    body = str(abs(n)) if d == 1 else f"{abs(n)} / {d}"
    return f"({body})" if n >= 0 else f"(- ({body}))"
