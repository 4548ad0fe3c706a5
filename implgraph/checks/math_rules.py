"""The sound rewriting rules of ``kind: math`` claims (:mod:`implgraph.checks.math_claims`).

Each sqrt(X) with X > 0 replaced by a free positive number (:func:`_abstract_sqrt`), the triangle
inequality term by term (:func:`_triangle`), the mediant inequality for ratios of sums (:func:`_mediant`),
and Max comparisons split term by term (:func:`_decide_split`); each only ever yields a proof, never a
refutation. The rules used by the current claim are collected in ``_RULES`` (named in the evidence).
"""

from __future__ import annotations

import functools
import itertools

import sympy

from implgraph.checks.lazy_max import max_args
from implgraph.core.point_values import differ_at_point, rational_zero
from implgraph.core.region import Region
from implgraph.core.simplified import solved


_RULES: set = set()


def _mediant(region, x, ys):
    """x = (n_1 + ... + n_m)/(d_1 + ... + d_m) with every d_i > 0 and every n_i/d_i among ys: then x is at
    most the largest n_i/d_i (the mediant inequality), so x <= Max(ys)."""
    num, den = sympy.fraction(sympy.together(x))
    if not (num.is_Add and den.is_Add) or len(num.args) != len(den.args) or len(num.args) > 4:
        return False
    keys = set(ys)
    for perm in itertools.permutations(den.args):
        if all((n / d) in keys for n, d in zip(num.args, perm)):
            return all(region.decide(sympy.Gt(d, 0)) is True for d in perm)
    return False


def _prove_le(region, x, y):
    """x <= y on the region; for y = Max(ys) it suffices that x <= Max(ys over x's symbols) (sound)."""
    ys = max_args(y)
    if x in set(ys) or any(_identical(x, yy) for yy in ys):
        return True
    if _mediant(region, x, ys):
        _RULES.add("ratios of sums bounded by the mediant inequality")
        return True
    # equalities of the region (e.g. a1 + a2 + a3 == 1) simplify x
    for c in region.constraints:
        if isinstance(c, sympy.Eq):
            syms = sorted(c.free_symbols & x.free_symbols, key=str)
            if syms:
                sol = _solve_for(c, syms[-1])
                if len(sol) == 1:
                    x2 = sympy.cancel(x.subs(sol[0]))     # a rational function's normal form: its true symbols
                    if len(x2.free_symbols) < len(x.free_symbols):
                        x = x2
    cands = []
    sub = [yy for yy in ys if yy.free_symbols <= x.free_symbols]
    if sub and len(sub) < len(ys):
        cands.append(sub)
    groups = {}
    for yy in ys:
        groups.setdefault(frozenset(yy.free_symbols), []).append(yy)
    cands += [g for syms, g in groups.items() if x.free_symbols <= syms and len(g) < len(ys)]
    for cand in cands:
        if region.decide(sympy.Le(x, sympy.Max(*cand))) is True:
            return True
    return region.decide(sympy.Le(x, y))


def _identical(x, y) -> bool:
    """x == y identically (exactly as rational functions when they are, else screened at a point and
    ``cancel``)."""
    zero = rational_zero(x - y)
    if zero is not None:
        return zero
    return not differ_at_point(x, y) and sympy.cancel(x - y) == 0


@functools.lru_cache(maxsize=256)
def _solve_for(eq, sym):
    """``sympy.solve(eq, sym, dict=True)`` (memo: the same equality of a region is solved for every term);
    an equality linear in ``sym`` with a rational coefficient is solved directly, ``sym = -c0 / c1``."""
    diff = eq.lhs - eq.rhs
    if diff.is_polynomial(sym):
        poly = sympy.Poly(diff, sym)
        if poly.degree() == 1 and poly.LC().is_Rational:
            return [{sym: sympy.expand(-poly.nth(0) / poly.LC())}]
    return solved(eq, sym, dict=True)


def _decide_relevant(region, cond):
    """Decide ``cond`` under only the constraints whose symbols it mentions (sound for True: fewer
    assumptions), falling back to the whole region."""
    syms = sympy.sympify(cond).free_symbols
    sub = tuple(c for c in region.constraints if sympy.sympify(c).free_symbols <= syms)
    if len(sub) < len(region.constraints):
        r = Region({k: v for k, v in region.kinds.items() if k in syms}, sub).decide(cond)
        if r is True:
            return True
    return region.decide(cond)


def _abstract_sqrt(region, cond):
    """Replace every sqrt(X) by a fresh positive symbol when X > 0 on the whole region (sound: the claim
    is then proved for every positive value in its place). None if some X is not provably positive."""
    roots = {x for x in sympy.preorder_traversal(cond) if isinstance(x, sympy.Pow) and x.exp == sympy.S.Half}
    inv = {x for x in sympy.preorder_traversal(cond) if isinstance(x, sympy.Pow) and x.exp == -sympy.S.Half}
    subs, syms = {}, []
    for i, r in enumerate(sorted(roots | {sympy.sqrt(x.base) for x in inv}, key=str)):
        if region.decide(sympy.Gt(r.base, 0)) is not True:
            return None
        s_ = sympy.Symbol(f"_sqrt{i}", real=True)   # no assumption: `s_ > 0` must stay a constraint
        subs[r] = s_
        subs[1 / r] = 1 / s_
        syms.append(s_)
    return cond.xreplace(subs), syms


@functools.lru_cache(maxsize=64)
def _same_square(x, y) -> bool:
    """x**2 == y**2 identically (exactly as rational functions when they are, else ``cancel``; memo: a claim
    and its reading compare the same derivatives)."""
    diff = x ** 2 - y ** 2
    zero = rational_zero(diff)
    return zero if zero is not None else sympy.cancel(sympy.together(diff)) == 0


def _abs_terms(expr):
    """expr = rest + sum c_i |u_i| -> ({u_i: c_i}, rest), with u and -u merged."""
    terms, rest = {}, sympy.Integer(0)
    for term in sympy.Add.make_args(sympy.expand(expr)):
        absf = [f for f in sympy.Mul.make_args(term) if isinstance(f, sympy.Abs)]
        if len(absf) != 1:
            rest += term
            continue
        arg = sympy.expand(absf[0].args[0])
        coef = sympy.expand(term / absf[0])
        neg = sympy.expand(-arg)
        key = neg if neg in terms else arg
        terms[key] = sympy.expand(terms.get(key, 0) + coef)
    return terms, rest


def _triangle(region, cond):
    """L <= R where L = sum a_i |u_i| and R = sum b_j |v_j|: each u_i is a combination of two v_j with
    coefficients b_j / a_i (up to sign), all coefficients >= 0 on the region -> the triangle inequality
    gives L <= R term by term (the convexity of |.|). Sound; False when the pattern does not apply."""
    if not isinstance(cond, (sympy.Le, sympy.Ge)):
        return False
    lhs, rhs = (cond.lhs, cond.rhs) if isinstance(cond, sympy.Le) else (cond.rhs, cond.lhs)
    L, lrest = _abs_terms(lhs)
    R, rrest = _abs_terms(rhs)
    if not L or sympy.expand(lrest - rrest) != 0:
        return False
    used = set()
    for u, a in L.items():
        if region.decide(sympy.Gt(a, 0)) is not True:
            return False
        found = False
        for (v1, b1), (v2, b2) in itertools.combinations([(v, b) for v, b in R.items() if v not in used], 2):
            for s1, s2 in itertools.product((1, -1), repeat=2):
                rest = u - s1 * b1 / a * v1 - s2 * b2 / a * v2
                zero = rational_zero(rest)
                if zero if zero is not None else sympy.expand(sympy.cancel(rest)) == 0:
                    used |= {v1, v2}
                    found = True
                    break
            if found:
                break
        if not found:
            return False
    return all(region.decide(sympy.Ge(b, 0)) is True for b in R.values())


def _decide_split(region, cond):
    """Region.decide, helped by splitting Max(...) <= / == comparisons into one inequality per term.

    Only a True answer is taken from the split (each part is a sufficient condition); otherwise the
    plain decision is returned.
    """
    if isinstance(cond, (sympy.Eq, sympy.Le, sympy.Ge)) and (isinstance(cond.lhs, sympy.Max) or
                                                             isinstance(cond.rhs, sympy.Max)):
        lhs, rhs = cond.lhs, cond.rhs
        if isinstance(cond, sympy.Ge):
            lhs, rhs = rhs, lhs
        parts = [(lhs, rhs)] if not isinstance(cond, sympy.Eq) else [(lhs, rhs), (rhs, lhs)]
        ok = True
        for x, y in parts:
            if not all(_prove_le(region, xx, y) is True for xx in max_args(x)):
                ok = False
                break
        if ok:
            _RULES.add("Max comparisons split term by term")
            return True
        if sum(len(max_args(e)) for e in (cond.lhs, cond.rhs)) > 8:
            return None   # the unsplit problem is hopeless for z3; do not spend its timeout
    return region.decide(cond)
