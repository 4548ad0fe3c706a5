"""Instantiating rules at concrete group sizes: unification of a rule's ends with map nodes.

A rule's ends carry symbolic parameters (``k``, ``k0``, ``N - k`` ...).  :class:`CompiledRule`
compiles them once (lambdified with Python integers, each parameter solved for its symbols where it
can be inverted), so that :func:`implgraph.map.graph.groups_map` can match every node of a family
against a rule end quickly; :func:`instantiate` substitutes a binding into a level function.
"""

from __future__ import annotations

from functools import lru_cache

import sympy
from sympy.core.symbol import Str

from implgraph.map.rules import N_SYM, Endpoint, Rule

__all__ = ["CompiledRule", "instantiate", "edge_f"]


_V = sympy.Symbol("_V", integer=True)


class CompiledRule:
    """A rule compiled for fast instantiation with Python integers (bindings keyed by name)."""

    def __init__(self, rule: Rule, kw_sym):
        self.rule = rule
        kinds = rule.kinds
        self.int_syms = {s for s, k in kinds.items() if k == "integer"} | {N_SYM}
        self.kw = kw_sym.name
        self.sides = [_compiled_side(ep, rule.kind, ep is rule.a, self.kw) for ep in (rule.a, rule.b)]
        self.conds, self.residual = [], []
        for c in rule.when:
            fs = c.free_symbols
            if fs <= self.int_syms:
                self.conds.append(_compiled_condition(c))
            else:
                self.residual.append(c)

    def unify(self, side, node_params, binding):
        family, params = self.sides[side]
        if len(node_params) != len(params):
            return None
        b = dict(binding)
        for name, const, syms, fn, inv in params:
            if name not in node_params:
                return None
            value = node_params[name]
            if const is not None:
                if const != value:
                    return None
                continue
            unbound = [s for s in syms if s not in b]
            if not unbound:
                if fn(*[b[s] for s in syms]) != value:
                    return None
            elif len(unbound) == 1 and unbound[0] in inv:
                s = unbound[0]
                others, ifn = inv[s]
                b["_V"] = value
                try:
                    x = ifn(*[b[o] for o in others])
                except KeyError:
                    return None
                finally:
                    del b["_V"]
                if isinstance(x, float):
                    if not x.is_integer():
                        return None
                    x = int(x)
                b[s] = x
            else:
                return None
        return b

    def accepts(self, b) -> bool:
        for syms, fn in self.conds:
            try:
                if not fn(*[b[s] for s in syms]):
                    return False
            except KeyError:
                continue  # a symbol the ends do not fix: left to the residual condition
        if self.kw in b:
            top = self.rule.witness_min_class if self.rule.kind == "not-implies" else b["N"] // 2
            if not (1 <= b[self.kw] <= (top or 1)):
                return False
        return True


@lru_cache(maxsize=None)
def _compiled_condition(c):
    """``(symbol names, lambdified c)``: compiled once per process (a map is built for several N)."""
    syms = sorted(c.free_symbols, key=str)
    return [s.name for s in syms], sympy.lambdify(syms, c, "math")


@lru_cache(maxsize=None)
def _compiled_side(ep: Endpoint, kind: str, is_a: bool, kw: str):
    """One rule end compiled (see :class:`CompiledRule`); once per process for each end, rule kind, side
    and ``kw`` name (a map is built for several N, each rule of each build compiled the same)."""
    params = dict(ep.params)
    if ep.generic:
        if kind == "not-implies":
            params["k"] = sympy.Symbol(kw, integer=True)  # 1 <= kw <= smallest witness class
        elif is_a:
            params["k"] = sympy.Symbol(kw, integer=True)  # any partition: every minimum size
        else:
            params["k"] = sympy.Integer(1)   # "some partition": minimum class size >= 1
    out = []
    for name, expr in params.items():
        if isinstance(expr, Str):        # a word parameter (EMD's ground): matched as text, never parsed
            out.append((name, str(expr), [], None, {}))
            continue
        expr = sympy.sympify(expr)
        syms = sorted(expr.free_symbols, key=str)
        fn = sympy.lambdify(syms, expr, "math") if syms else None
        inv = {}
        for s in syms:
            if s == N_SYM:
                continue
            sol = sympy.solve(sympy.Eq(expr, _V), s)
            if len(sol) == 1:
                others = sorted(sol[0].free_symbols, key=str)
                inv[s.name] = ([o.name for o in others], sympy.lambdify(others, sol[0], "math"))
        out.append((name, int(expr) if not syms else None, [x.name for x in syms], fn, inv))
    return ep.family, out


@lru_cache(maxsize=None)
def _subs_cached(expr, items):
    return expr.xreplace(dict(items)) if items else expr


def instantiate(expr, binding: dict):
    """``expr`` with the integer symbols named in ``binding`` substituted (cached, not simplified)."""
    if expr is None:
        return None
    items = tuple(sorted(((s, sympy.Integer(binding[s.name])) for s in expr.free_symbols
                          if s.name in binding and s.is_integer), key=lambda x: x[0].name) if binding else ())
    return _subs_cached(expr, items)


def edge_f(data: dict):
    """The instantiated level function of a map edge (computed on first use)."""
    if "f" not in data:
        data["f"] = instantiate(data["rule"].f if data["kind"] == "implies" else None, data.get("binding") or {})
    return data["f"]
