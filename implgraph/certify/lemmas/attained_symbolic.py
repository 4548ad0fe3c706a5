"""The attained-family lemma's symbolic step: B's level on the family is U as an identity in N and T, branch by branch.

B's level on a family of blocks (:mod:`implgraph.certify.lemmas.attained_family`) is written as an expression in N,
T and the parameters, from B's description alone: a maximum over the comparisons B makes (one record's value over the
table's mean in each bucket for a one-sided ratio of one record; each class's total variation from the table; for a
declared divergence, the divergence between the compared pairs: two records of different blocks, the table against the
table without one record of a block, each class against the table), each written with ``Abs``, ``Max`` (the hockey
stick's positive parts) and logarithms. The family's values and U may hold ``Min`` and ``Max`` too.

At each sampled point every ``Min``, ``Max`` and ``Abs`` is resolved to the argument (or sign) it takes there,
exactly; the resolved B and U, free of them, must then be the same function of N, T and the parameters (sympy's
simplification of their difference, logarithms expanded, is 0). So on the region of each pattern of branches seen, B's
comparison that attains U does so for every N and T, not only at the points. Blocks of zero records at a point are
left out there (their absence is part of the pattern). A side of another kind is not read: the step fails.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import sympy

__all__ = ["b_expression", "symbolic_steps"]


def _q(x):
    if isinstance(x, sympy.Basic):
        return x
    x = Fraction(x)
    return sympy.Rational(x.numerator, x.denominator)


def _blocks(cert, names):
    """``[(count, row, label)]`` as sympy expressions over ``names``."""
    from implgraph.certify.expr import read_sympy
    out = []
    for block in (cert.get("tightness") or {}).get("blocks") or []:
        count = read_sympy(str(block["count"]), names)
        if "row" in block:
            row = [read_sympy(str(x), names) for x in block["row"]]
        else:
            v = read_sympy(str(block["value"]), names)
            row = [v, 1 - v]
        out.append((count, row, str(block.get("class"))))
    return out


def _divergence(kind, order, x, y):
    """The divergence ``kind`` of the rows x from y, as an expression (a bucket where x is 0 adds nothing to KL)."""
    if kind == "tv":
        return sum((sympy.Abs(a - b, evaluate=False) for a, b in zip(x, y)), sympy.Integer(0)) / 2
    if kind == "hockey-stick":
        return sum((sympy.Max(0, a - order * b, evaluate=False) for a, b in zip(x, y)), sympy.Integer(0))
    if kind == "kl":
        return sum((a * sympy.log(a / b) for a, b in zip(x, y) if a != 0), sympy.Integer(0))
    if kind == "renyi":
        return sympy.log(sum((a ** order * b ** (1 - order) for a, b in zip(x, y) if a != 0),
                             sympy.Integer(0))) / (order - 1)
    raise ValueError(f"a divergence of kind {kind} is not read")


def _mean(blocks):
    n = sum((c for c, _, _ in blocks), sympy.Integer(0))
    return [sum((c * r[b] for c, r, _ in blocks), sympy.Integer(0)) / n for b in range(len(blocks[0][1]))]


def _classes(blocks):
    groups = {}
    for c, r, k in blocks:
        groups.setdefault(k, []).append((c, r, k))
    return list(groups.values())


def b_expression(B, div, blocks, N):
    """B's level on the (present) blocks as an expression: the maximum of its comparisons (module notes)."""
    P = _mean(blocks)
    if div is not None:
        if div.compares == "pairs":
            comps = [(x, y) for i, (_, x, _) in enumerate(blocks) for j, (_, y, _) in enumerate(blocks) if i != j]
        elif div.compares == "removal":
            comps = []
            for _, x, _ in blocks:
                Q = [(N * p - a) / (N - 1) for p, a in zip(P, x)]
                comps += [(P, Q), (Q, P)]
        else:
            comps = [(_mean(g), P) for g in _classes(blocks)]
        order = None if div.order is None else sympy.sympify(div.order)
        return sympy.Max(*[_divergence(div.kind, order, x, y) for x, y in comps], evaluate=False)
    if B.get("family") == "subset" and B.get("sides") == "one-sided" and str(B.get("size")) == "1":
        return sympy.Max(*[r[b] / P[b] for _, r, _ in blocks for b in range(len(P))], evaluate=False)
    if B.get("family") == "class" and B.get("distance") == "total-variation":
        return sympy.Max(*[_divergence("tv", None, _mean(g), P) for g in _classes(blocks)], evaluate=False)
    raise ValueError("B's kind is not read by the symbolic step")


#: the most resolutions of one expression kept where branches tie at a point
MAX_TIES = 16


def _resolve(expr, at):
    """The expressions ``expr`` becomes with every Min, Max and Abs replaced by an argument (or sign) it takes at the
    point ``at``: one, or several where arguments tie there (at most :data:`MAX_TIES`)."""
    if not expr.args:
        return [expr]
    if isinstance(expr, (sympy.Min, sympy.Max)):
        values = [(sympy.N(a.subs(at), 60), a) for a in expr.args]
        values = [(v, a) for v, a in values if v.is_real and v.is_finite]      # (an undefined one: not read)
        if not values:
            return []
        best = (min if isinstance(expr, sympy.Min) else max)(v for v, _ in values)
        tied = [a for v, a in values if abs(v - best) < sympy.Rational(1, 10 ** 40)]
        return [r for a in tied for r in _resolve(a, at)][:MAX_TIES]
    if isinstance(expr, sympy.Abs):
        out = []
        for inner in _resolve(expr.args[0], at):
            v = sympy.N(inner.subs(at), 60)
            if not (v.is_real and v.is_finite):
                continue
            out += [inner] if v > 0 else [-inner] if v < 0 else [inner, -inner]
        return out[:MAX_TIES]
    choices = [_resolve(a, at) for a in expr.args]
    return [expr.func(*c) for c in itertools.islice(itertools.product(*choices), MAX_TIES)]


def _without_zero_terms(expr):
    """``expr`` with 0 * log(..) and 0 * (..)**(-k) terms (a bucket where the compared row is 0) read as 0."""
    return expr.replace(lambda e: e.is_Mul and any(f == 0 for f in e.args), lambda e: sympy.Integer(0))


#: generic points (N and T) at which a resolved difference is evaluated before it is simplified
_PROBES = ({"N": sympy.Rational(37, 3), "T": sympy.Rational(2, 97)},
           {"N": sympy.Rational(53, 7), "T": sympy.Rational(11, 5)})


def _identity(b, u) -> bool:
    """Is ``b - u`` 0 as a function (each logarithm's argument cancelled first, then logarithms expanded)?"""
    gap = _without_zero_terms(b) - u
    if gap.has(sympy.nan, sympy.zoo):
        return False
    for probe in _PROBES:     # (a quick refutation first: the difference at two generic points, 60 digits)
        at = {x: probe.get(x.name, sympy.Rational(3, 7)) for x in gap.free_symbols}
        value = sympy.N(gap.subs(at), 60)
        if value.is_real and value.is_finite and abs(value) > sympy.Rational(1, 10 ** 30):
            return False
    gap = gap.replace(lambda e: isinstance(e, sympy.log), lambda e: sympy.log(sympy.factor(sympy.cancel(e.args[0]))))
    return sympy.simplify(sympy.expand_log(gap, force=True)) == 0


def symbolic_steps(cert, points):
    """The step: at each branch pattern of the sampled ``points`` (``{name: number}``), B's resolved expression minus
    U's simplifies to 0."""
    from implgraph.certify.kernel import registered
    from implgraph.definitions.divergences import divergence_of
    names = {k: sympy.Symbol(k) for k in (cert.get("symbols") or {})}
    names.setdefault("N", sympy.Symbol("N"))
    names.setdefault("T", sympy.Symbol("T"))
    from implgraph.certify.expr import read_sympy
    B = cert.get("B") or {}
    d = registered(B.get("definition")) if B.get("definition") else None
    div = None if d is None else divergence_of(d, B.get("params"))
    blocks, U = _blocks(cert, names), read_sympy(str(cert["upper"]), names)
    seen, patterns = {}, 0
    for env in points:
        at = {names[k]: _q(v) for k, v in env.items() if k in names}
        present = [(c, r, k) for c, r, k in blocks if c.subs(at) != 0]
        # (a value's Min or Max that ties at the point: each argument tried)
        options = [[(c, list(vals), k) for vals in itertools.islice(itertools.product(
            *[_resolve(x, at) for x in r]), MAX_TIES)] for c, r, k in present]
        tables = list(itertools.islice(itertools.product(*options), MAX_TIES))
        key = (tuple(tuple((c, tuple(r), k) for c, r, k in t) for t in tables), U)
        if key in seen:
            continue
        us = _resolve(U, at)
        bs = [b for t in tables for b in _resolve(b_expression(B, div, list(t), names["N"]), at)]
        ok = any(_identity(b, u) for b in bs for u in us)
        seen[key] = ok
        patterns += 1
        if not ok:
            where = ", ".join(f"{k} = {v}" for k, v in sorted(env.items()))
            return [("B's level on the family is U, an identity in N and T on each branch pattern", False,
                     f"at the pattern of {where}: B = {bs[0]}, U = {us[0]}")]
    return [("B's level on the family is U, an identity in N and T on each branch pattern", patterns > 0,
             f"{patterns} pattern(s) of branches, each an identity")]
