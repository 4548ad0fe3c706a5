"""``kind: math`` claims (the plain shape): ``formula`` decided on the condition with z3.

``holds`` (a proof on the whole condition, with the sound rewriting rules used named in the evidence),
``refuted`` with an exact point, or ``unknown``. The rules: each sqrt(X) with X > 0 replaced by a free
positive number, the triangle inequality term by term, the mediant inequality for ratios of sums, and
Max comparisons split term by term; each only ever yields a proof, never a refutation.

With ``derivatives:`` (a function and its printed partial derivatives), the set where the formulas have no
real value is found and reported exactly (:mod:`implgraph.checks.definedness`); on the rest of the
condition each printed derivative is compared with sympy's, its sign decided, and the monotonicity proved
on every slice that is an interval. A claim undefined on part of its condition stays ``unknown``.
"""

from __future__ import annotations

import functools
import itertools

import sympy

from implgraph.checks.common import edge_verdict
from implgraph.checks.definedness import defined_conditions, slices_are_intervals, undefined_parts
from implgraph.checks.lazy_max import max_args
from implgraph.core.point_values import differ_at_point, rational_zero, value_at
from implgraph.core.errors import InputError
from implgraph.core.formula import parse_condition, parse_expr
from implgraph.core.region import Region
from implgraph.io.table_data import make_symbols
from implgraph.core.verdict import Verdict, checker
from implgraph.io.datafile import Node

__all__ = ["check_math", "check_math_claim"]


def check_math(claim, context=None) -> Verdict:
    """Decide ``formula`` (with ``definitions`` substituted) on ``when`` (and each instantiation)."""
    formula = claim.get("formula")
    if not formula:
        return edge_verdict(claim, "unknown", evidence="no formula to check")
    _RULES.clear()
    groups = claim.get("instantiations") or [None]
    results, points, undefined = [], [], []
    for inst in groups:
        spec = dict(claim.get("symbols") or {})
        if inst:
            spec.update(inst.get("symbols") or {})
        names, kinds = make_symbols(spec, claim)
        defs = dict(claim.get("definitions") or {})
        if inst:
            defs.update(inst.get("definitions") or {})
        try:
            subs = {}
            for k, text in defs.items():
                if k not in names:
                    names[k] = sympy.Symbol(k, real=True)
                subs[names[k]] = parse_expr(str(text), names)
            cond = parse_condition(str(formula), names)
            for _ in range(4):
                cond = cond.subs(subs)
            when = [parse_condition(str(w), names) for w in (claim.get("when") or [])]
            if inst:
                when += [parse_condition(str(w), names) for w in (inst.get("when") or [])]
        except InputError as exc:
            raise InputError(exc.reason, file=claim.file, line=claim.line_of("formula"), fix=exc.fix) from None
        free = set()
        for c in [cond] + when:
            free |= sympy.sympify(c).free_symbols
        region = Region({s: kinds.get(s, "real") for s in free}, tuple(w for w in when if w is not sympy.true))
        if any(isinstance(x, sympy.Pow) and x.exp in (sympy.S.Half, -sympy.S.Half)
               for x in sympy.preorder_traversal(cond)):
            abstracted = _abstract_sqrt(region, cond)
            if abstracted is not None:
                cond_a, extra_syms = abstracted
                reg_a = Region({**region.kinds, **{s_: "real" for s_ in extra_syms}},
                               region.constraints + tuple(s_ > 0 for s_ in extra_syms))
                if all(_decide_relevant(reg_a, part) is True for part in sympy.And.make_args(cond_a)):
                    _RULES.add("each sqrt(X) with X > 0 on the region replaced by a free positive number")
                    results.append(True)
                    continue
        if _triangle(region, cond):
            _RULES.add("the triangle inequality term by term (convexity of |.|)")
            r = True
        else:
            r = _decide_split(region, cond)
        if r is not True:
            pt = region.find_point(sympy.Not(cond))
            if pt is not None:
                try:
                    val = value_at(cond, pt)   # the whole point at once, bottom-up
                    if val is None:
                        val = sympy.sympify(cond).subs(pt)
                except (ValueError, TypeError, ZeroDivisionError):
                    # a sub-term without a value (x/0, 0/0, sqrt of a negative number): undefined here
                    undefined.append({str(k): str(v) for k, v in pt.items()})
                    val = None
                if val in (sympy.false, False) and region.contains(pt) is True:
                    points.append({str(k): str(v) for k, v in pt.items()})
                    results.append(False)
                    continue
        results.append(r)
    der_ok, der_notes, undefined_text = True, [], ""
    if claim.get("derivatives") and not claim.get("instantiations"):
        der_ok, der_notes, undefined_text = _derivative_claim(claim, names, subs, region)
        if der_ok is not True or undefined_text:
            results.append(None)
    if all(r is True for r in results):
        rules = f" (with {'; '.join(sorted(_RULES))})" if _RULES else ""
        rules += ("; " + "; ".join(der_notes)) if der_notes else ""
        return edge_verdict(claim, "holds", evidence=f"proved `{formula}` on the whole condition{rules}"
                   + (f" for each of {len(groups)} instantiations" if len(groups) > 1 else ""))
    if any(r is False for r in results) and points:
        return edge_verdict(claim, "refuted", evidence=f"`{formula}` fails at the exact point {points[0]}",
                   witness={"point": points[0]})
    why = undefined_text or (
        f"`{formula}` is undefined at the exact point {undefined[0]} of the condition (a division by "
        f"zero; the checker gives x/0 no value)" if undefined else
        f"z3 could not decide `{formula}` on the condition ({results})")
    return edge_verdict(claim, "unknown", evidence=why + (("; " + "; ".join(der_notes)) if der_notes else ""))


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
    return sympy.solve(eq, sym, dict=True)


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


def _derivative_claim(claim, names, subs, region):
    """A function and its printed derivatives on the claim's region: where the formulas have no real value
    (exactly, :func:`~implgraph.checks.definedness.undefined_parts`), and on the rest of the region the
    derivatives, their signs and the monotonicity (:func:`_check_derivatives`); a ``reading_when`` is
    compared with the set where the formulas are defined. Returns (ok, notes, undefined text)."""
    exprs = [subs[names[k]] for k in (claim.get("definitions") or {})]
    fname = claim.get("function") or next(iter((claim.get("definitions") or {}).keys()), None)
    if fname is not None and names.get(fname) in subs:   # where sympy's derivatives are valid, too
        exprs += [sympy.diff(subs[names[fname]], names[str(d.get("with_respect_to"))])
                  for d in claim.get("derivatives") or [] if str(d.get("with_respect_to")) in names]
    parts = undefined_parts(region, exprs)
    defined = region.add(*defined_conditions(region, exprs))
    ok, notes = _check_derivatives(claim, names, subs, defined)
    where = "the whole condition" if not parts else "the rest of the condition (every formula defined)"
    notes = [f"on {where}: " + "; ".join(notes)]
    if claim.get("reading_when"):
        rw = [parse_condition(str(w), names) for w in claim.get("reading_when")]
        same = (region.add(*rw).decide(sympy.And(*defined.constraints)) is True
                and defined.decide(sympy.And(*rw)) is True)
        notes.append("reading_when is exactly where every formula is defined (both inclusions proved)" if same
                     else "reading_when is not shown to be where every formula is defined")
    if not parts:
        return ok, notes, ""
    pieces = []
    for i, (_, text, point) in enumerate(parts):
        at = f" (e.g. {({str(k): str(v) for k, v in point.items()})})" if point else ""
        pieces.append(("" if i == 0 else "else ") + text + at)
    names_text = ", ".join(claim.get("definitions") or {})
    text = (f"one of {names_text} has no real value (a division by 0 or the square root of a negative number) "
            f"exactly where {'; '.join(pieces)} -- on those points of the condition the printed claim cannot be "
            f"evaluated")
    return ok, notes, text


def _check_derivatives(claim, names, subs, region):
    """``derivatives:`` entries: the printed derivative equals d/dvar of the function (squares equal and
    both of the claimed sign); returns (ok, notes)."""
    ders = claim.get("derivatives") or []
    if not ders:
        return True, []
    fname = claim.get("function") or next(iter((claim.get("definitions") or {}).keys()), None)
    if fname is None or names.get(fname) not in subs:
        return None, ["no function to differentiate"]
    func = subs[names[fname]]
    notes, ok_all = [], True
    for d in ders:
        var = names.get(str(d.get("with_respect_to")))
        printed = parse_expr(str(d.get("formula")), names)
        mine = sympy.diff(func, var)
        same_sq = _same_square(mine, printed)
        sign = str(d.get("claimed_sign", ">= 0")).replace(" ", "")
        rel = (lambda e: sympy.Ge(e, 0)) if sign.startswith(">") else (lambda e: sympy.Le(e, 0))
        both = []
        for e in (mine, printed):
            ab = _abstract_sqrt(region, rel(e))
            if ab is None:
                both.append(None)
                continue
            c, syms_ = ab
            reg_a = Region({**region.kinds, **{x: "real" for x in syms_}}, region.constraints + tuple(x > 0 for x in syms_))
            both.append(_decide_relevant(reg_a, c))
        good = same_sq and all(b is True for b in both)
        notes.append(f"d{fname}/d{var}: {'equals the printed derivative' if good else 'not confirmed'}"
                     f" (squares equal: {same_sq}, signs {sign}: {both})")
        if d.get("monotonicity"):
            # a derivative of constant sign on an interval: monotone there (mean value theorem)
            interval = slices_are_intervals(region, var)
            weak = "weakly " if "=" in sign else ""
            notes.append(f"{fname} {weak}{d.get('monotonicity')} in {var}: "
                         + ("proved (the derivative's sign on every " + str(var) + "-slice, each an interval)"
                            if good and interval else "not shown"))
            good = good and interval
        ok_all = ok_all and good
    return ok_all, notes


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


@checker("math")
def check_math_claim(claim, context=None):
    """:func:`check_math` with a longer solver timeout, and the proof's reading (``reading_when``) as an
    extra row."""
    from implgraph.core import region as _region
    saved = _region.TIMEOUT_MS
    _region.TIMEOUT_MS = max(saved, 1500)   # one-off decisions: give z3 more time than the level splitter
    try:
        v = check_math(claim, context)
        if claim.get("reading_when"):
            # the proof's reading: the same formula on the paper's condition plus the reading's restrictions
            node = Node({k: x for k, x in claim.items() if k not in ("reading_when", "when_sources")})
            node.file, node.line = getattr(claim, "file", None), getattr(claim, "line", None)
            node["when"] = list(claim.get("when") or []) + list(claim.get("reading_when") or [])
            rv = check_math(node, context)
            rv.id = f"{claim.get('id')}#reading"
            rv.printed = rv.reading = str(claim.get("reading", ""))
            rv.expect = claim.get("reading_expect")
            v.details["reading_verdict"] = rv.verdict
            v.details["reading_evidence"] = rv.evidence
            if context is not None:
                context.setdefault("extra_rows", []).append(rv)
        return v
    finally:
        _region.TIMEOUT_MS = saved
