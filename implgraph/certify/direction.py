"""One certificate read as one direction of its row's claim (:mod:`implgraph.certify.statement`).

The sides are the claim's (its definitions, parameters and class hypotheses), its domain follows from the claim's
condition, its bound is in B's direction (an upper bound where smaller is stronger) and at least as strong as the
claimed f on the claim's condition, and, where the row states a tight f, its bound equals it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import sympy

from implgraph.certify.claim import as_expr, parse_condition, parse_expr
from implgraph.certify.statement_domain import BASE_RECORDS, cert_names, class_steps, domain_steps, instance_pins

__all__ = ["Reading", "direction_report", "covered", "statement_bound", "MAX_TIGHT_POINTS"]

#: sampled points of a tight f's comparison (at most)
MAX_TIGHT_POINTS = 48


def _b_side(cert):
    """The check of a B that is not a registered definition, where the certificate's lemma has one (else None)."""
    from implgraph.certify.lemmas import get
    lm = get(cert.get("method"))
    return lm.b_side if lm is not None else None


def side_steps(cert, direction, st, names, pins):
    """A and B are the claim's sides: ``(ok, [(what, ok, how)])``."""
    steps = []
    A, B = cert.get("A") or {}, cert.get("B") or {}
    b_side = _b_side(cert)
    for label, side, cside in (("A", direction.a, A), ("B", direction.b, B)):
        if label == "B" and b_side is not None:     # a B that is not a registered definition (the intruder's view)
            steps.append(b_side(cert, side, st))
            continue
        ok = cside.get("definition") == side.name and side.scope == "table" and side.of is None
        how = (f"the claim: {side.name}" + ("" if side.scope == "table" else f" (scope {side.scope})")
               + ("" if side.of is None else " (of a quantity the certificate does not model)")
               + f"; the certificate: {cside.get('definition')}")
        if ok:
            given = {str(k): v for k, v in (cside.get("params") or {}).items()}
            words = getattr(side.definition, "words", None) or {}
            for k in set(given) | set(side.params):
                if k not in given or k not in side.params:
                    ok = False
                elif k in words:
                    ok = ok and str(given[k]) == str(side.params[k])
                else:
                    ok = ok and sympy.simplify(parse_expr(given[k], names).subs(pins)
                                               - as_expr(side.params[k]).subs(pins)) == 0
            how += f"; parameters {side.params} / {given}"
        steps.append((f"{label} is the claim's {'from' if label == 'A' else 'to'} side", ok, how))
    if all(s[1] for s in steps):
        steps += class_steps(cert, direction, st, names, pins)
    return all(s[1] for s in steps), steps


def statement_bound(cert, direction, names):
    """``(expression, upper)``: the certificate's bound of B's raw level in T (upper: from above), or None. The
    lemma registered for its method reads it where it says how (:attr:`implgraph.certify.lemmas.Lemma.bound`: a
    lower bound, a map of A's level); otherwise it is ``upper``, from above."""
    from implgraph.certify.lemmas import get
    lm = get(cert.get("method"))
    if lm is not None and lm.bound is not None:
        return lm.bound(cert, direction, names)
    if cert.get("upper") is None:
        return None
    return parse_expr(cert["upper"], names), True


def _raw_f(f, direction, T):
    """The claimed f as B's raw level in terms of T."""
    of_t = direction.a.definition.level_from_raw(T)
    raw = direction.b.definition.raw_from_level(as_expr(f).subs(direction.a.level, of_t))
    return raw.rewrite(sympy.exp) if raw.has(sympy.tanh) else raw


def _proves_f(bound, upper, direction, hyps, T):
    """``(ok, how)``: the bound is at least as strong as the claimed f on the claim's condition."""
    raw_f = _raw_f(direction.f, direction, T)
    if raw_f is sympy.oo and upper:
        return True, "f is oo (every table)"
    mine = list(bound.args) if isinstance(bound, (sympy.Min if upper else sympy.Max)) else [bound]
    theirs = list(raw_f.args) if isinstance(raw_f, (sympy.Max if upper else sympy.Min)) else [raw_f]
    f_t = as_expr(direction.f).subs(direction.a.level, direction.a.definition.level_from_raw(T))
    tried = []
    for u in mine:
        for r in theirs:
            rel = sympy.Le(u, r, evaluate=False) if upper else sympy.Ge(u, r, evaluate=False)
            ok, how = hyps.implied(rel)
            if ok:
                return True, f"{rel} ({how})"
            tried.append(how)
        level = direction.b.definition.level_from_raw(u)
        if level != u:      # in B's own units (a condition of the claim may be written there)
            rel = sympy.Le(level, f_t, evaluate=False) if upper else sympy.Ge(level, f_t, evaluate=False)
            ok, how = hyps.implied(rel)
            if ok:
                return True, f"{rel} ({how})"
    return False, f"{'U' if upper else 'L'} = {bound} against raw f = {raw_f}: not shown ({'; '.join(tried[:2])})"


def _finite(lim) -> bool:
    """Is a limit sympy returned a finite value (not oo, nan, an unevaluated Limit or an interval of limit points)?"""
    return not (lim.has(sympy.Limit, sympy.AccumBounds) or lim in (sympy.oo, sympy.nan, sympy.zoo))


def _only_positive_T(extras, T, hyps):
    """Is the certificate's one assumption of its own ``T > 0``, where the claim allows A's best raw level T = 0?"""
    if len(extras) != 1 or not isinstance(extras[0][1], sympy.StrictGreaterThan):
        return False
    rel = extras[0][1]
    return rel.lhs == T and rel.rhs == 0 and hyps.implied(sympy.Ge(T, 0, evaluate=False))[0]


def _at_best_level(bound, direction, hyps, T):
    """``(ok, how)``: at T = 0, B's raw level is at most lim_{t -> 0+} U(t) (every table at A's level 0 is at A's
    level <= t for every t > 0, where U holds), and that limit is finite and at most the claimed raw f at T = 0."""
    try:
        lim = sympy.limit(_near_zero(bound, T, hyps), T, 0, "+")
    except (NotImplementedError, ValueError, TypeError) as exc:
        lim = _least_limit_above(bound, T, hyps)
        if lim is None:
            return False, f"the limit of U at 0+ not found ({type(exc).__name__}{': ' + str(exc) if str(exc) else ''})"
    if not _finite(lim):
        return False, f"the limit of U at 0+ is {lim}"
    if direction.f is None:         # the claim names no f: a finite limit is B's level at A's best level
        return True, f"lim U = {lim}, finite"
    raw_f0 = _raw_f(direction.f, direction, T).subs(T, 0)
    ok, how = hyps.implied(sympy.Le(lim, raw_f0, evaluate=False))
    return ok, f"lim U = {lim} <= raw f at T = 0, {raw_f0} ({how})"


def _near_zero(expr, T, hyps):
    """``expr`` with each ``Min``/``Max`` replaced by the argument it equals on some interval (0, e): the one whose
    limit at 0+ is strictly the least (greatest), decided under the claim's condition; each ``Piecewise`` by its first
    piece whose condition holds on such an interval (:func:`_holds_near_zero`); NotImplementedError where neither is
    shown (the limit is then not taken)."""
    if not isinstance(expr, sympy.Basic) or not expr.has(sympy.Min, sympy.Max, sympy.Piecewise):
        return expr
    if isinstance(expr, sympy.Piecewise):
        for e, c in expr.args:
            near = _holds_near_zero(c, T, hyps)
            if near is True:
                return _near_zero(e, T, hyps)
            if near is None:
                raise NotImplementedError(f"the piece condition {c} neither holds nor fails on an interval (0, e)")
        raise NotImplementedError("no piece holds near 0+")
    if isinstance(expr, (sympy.Min, sympy.Max)):
        args = [_near_zero(a, T, hyps) for a in expr.args]
        lims = [sympy.limit(a, T, 0, "+") for a in args]
        rel = sympy.Lt if isinstance(expr, sympy.Min) else sympy.Gt
        for i, (a, la) in enumerate(zip(args, lims)):
            if all(hyps.implied(rel(la, lb, evaluate=False))[0] for j, lb in enumerate(lims) if j != i):
                return a
        raise NotImplementedError(f"no argument of {expr} is strictly {'least' if rel is sympy.Lt else 'greatest'} "
                                  "at 0+")
    return expr.func(*[_near_zero(a, T, hyps) for a in expr.args])


def _above(expr, T, hyps):
    """Min-free expressions each at least ``expr`` at every T > 0: a Min by each of its arguments, pushed through an
    increasing function of the one argument holding it (a positive T-free factor, an added term, log, exp, a positive
    power); [] where that is not shown."""
    if not expr.has(sympy.Min):
        return [expr]
    if isinstance(expr, sympy.Min):
        return [u for a in expr.args for u in _above(a, T, hyps)]
    inner = [a for a in expr.args if a.has(sympy.Min)]
    if len(inner) != 1:
        return []
    (x,) = inner
    rest = [a for a in expr.args if a is not x]
    if isinstance(expr, sympy.Mul) and all(T not in a.free_symbols and (
            hyps.implied(sympy.Gt(a, 0, evaluate=False))[0] or _positive(a)) for a in rest):
        ok = True
    elif isinstance(expr, sympy.Add):
        ok = True
    elif isinstance(expr, (sympy.log, sympy.exp)):
        ok = True
    elif isinstance(expr, sympy.Pow) and x is expr.base and expr.exp.is_positive and T not in expr.exp.free_symbols:
        ok = True
    else:
        ok = False
    return [expr.xreplace({x: u}) for u in _above(x, T, hyps)] if ok else []


def _least_limit_above(bound, T, hyps):
    """The least of the limits at 0+ of :func:`_above`'s expressions (each at least U for every T > 0, so B's raw
    level at A's level 0 is at most each limit): a Min of them, or None where none is found finite."""
    lims = []
    for u in _above(bound, T, hyps):
        try:
            lim = sympy.limit(_near_zero(u, T, hyps), T, 0, "+")
        except (NotImplementedError, ValueError, TypeError):
            continue
        if _finite(lim):
            lims.append(lim)
    return sympy.Min(*lims) if lims else None


def _holds_near_zero(cond, T, hyps):
    """Does ``cond`` hold for every T in some interval (0, e) (True), fail on one (False), or neither shown (None)?
    A relation decides by the strict comparison of its sides' limits at 0+ under the claim's condition (continuity:
    a strict inequality between the limits holds on an interval); And and Or by their parts."""
    if cond in (True, sympy.true):
        return True
    if cond in (False, sympy.false):
        return False
    if isinstance(cond, (sympy.And, sympy.Or)):
        parts = [_holds_near_zero(c, T, hyps) for c in cond.args]
        if isinstance(cond, sympy.And):
            return False if False in parts else (None if None in parts else True)
        return True if True in parts else (None if None in parts else False)
    if not isinstance(cond, sympy.core.relational.Relational) or isinstance(cond, (sympy.Eq, sympy.Ne)):
        return None
    if T not in cond.free_symbols:
        ok = hyps.implied(cond)[0]
        return True if ok else (False if hyps.implied(sympy.Not(cond))[0] else None)
    small, large = (cond.lhs, cond.rhs) if isinstance(cond, (sympy.LessThan, sympy.StrictLessThan)) \
        else (cond.rhs, cond.lhs)
    ls, ll = sympy.limit(small, T, 0, "+"), sympy.limit(large, T, 0, "+")
    if hyps.implied(sympy.Lt(ls, ll, evaluate=False))[0] or _positive(ll - ls):
        return True
    if hyps.implied(sympy.Gt(ls, ll, evaluate=False))[0] or _positive(ls - ll):
        return False
    return None


def _positive(expr):
    """Is ``expr`` > 0 for every N >= BASE_RECORDS, by sympy's assumptions after N = N' + BASE_RECORDS (N' a
    nonnegative integer; a log, a square root or an exp the solvers do not read)? Other free symbols: not shown."""
    if expr.free_symbols - {s for s in expr.free_symbols if s.name == "N"}:
        return False
    shifted = expr.xreplace({s: sympy.Symbol("N_", integer=True, nonnegative=True) + BASE_RECORDS
                             for s in expr.free_symbols})
    return sympy.simplify(shifted).is_positive is True


def _equal_tight(cert, bound, tight, direction, names, pins):
    """``(ok, how)``: the certificate's bound (B's raw level in T) equals the stated tight f (B's level in A's level
    symbol): identically, or exactly at every sampled point of the certificate's domain (each side evaluated there:
    the tight f at A's level of the point's T, then B's raw level of that number)."""
    from fractions import Fraction
    from implgraph.certify import UNREADABLE
    from implgraph.certify.domain import Domain
    from implgraph.certify.pointwise import value_at
    a_def, b_def, alpha, T = direction.a.definition, direction.b.definition, direction.a.level, names["T"]
    tight, bound = tight.xreplace(pins), bound.xreplace(pins)
    if not any(e.has(sympy.Piecewise, sympy.Min, sympy.Max) for e in (tight, bound)):
        raw = b_def.raw_from_level(tight.subs(alpha, a_def.level_from_raw(T)))
        if sympy.expand(raw - bound) == 0:
            return True, "identically (sympy)"
    checked = 0
    try:
        for env in Domain(cert).points(range(2, 9)):
            at = {names[k]: sympy.Rational(Fraction(v).numerator, Fraction(v).denominator)
                  for k, v in env.items() if k in names}
            u = value_at(bound, at)      # (a piece chosen by its condition first: the others may read 0/0 there)
            level = value_at(tight, {**at, alpha: a_def.level_from_raw(at[T])})
            r = b_def.raw_from_level(level)
            if u.free_symbols or r.free_symbols:
                return False, f"not a number at {env}"
            if not (u == r or sympy.simplify(u - r) == 0):
                return False, f"U = {u} but the tight f's raw level is {r} at " + ", ".join(
                    f"{k} = {v}" for k, v in sorted(env.items()))
            checked += 1
            if checked >= MAX_TIGHT_POINTS:
                break
    except UNREADABLE as exc:
        return False, f"{exc.__class__.__name__}: {exc}"
    if not checked:
        return False, "no point of the certificate's domain sampled"
    return True, f"equal exactly at {checked} sampled points of its domain"


@dataclass
class Reading:
    """One certificate read as one direction of the claim."""

    sides_ok: bool
    steps: list
    proves: bool = False        # its bound is at least as strong as the claimed f (on its domain)
    tight_ok: object = None     # its bound equals the row's tight f (None: not compared)
    extras: list = field(default_factory=list)      # its domain's conditions the claim does not imply
    assumed: list = field(default_factory=list)     # those of them the verdict states (an assumption it makes)
    hyps: object = None         # the claim's condition (with an instance's pins) as hypotheses

    @property
    def ok(self):
        return self.sides_ok and all(s[1] for s in self.steps)


def direction_report(cert, direction, ctx, index) -> Reading:
    """The certificate read as ``direction`` (module notes)."""
    st = ctx.claim
    names, faults = cert_names(cert, st)
    T = names["T"]
    steps = [("its symbols are the claim's", not faults, "; ".join(faults) or "the same kinds")]
    rels = []
    for text in cert.get("domain") or []:
        rels += parse_condition(text, names)
    pins = instance_pins(rels, st, direction) if ctx.refutation else {}
    ok, sides = side_steps(cert, direction, st, names, pins)
    steps += sides
    if not ok or faults:
        return Reading(False, steps)
    dom_steps, hyps, pins, extras, assumed = domain_steps(cert, direction, ctx, names)
    steps += dom_steps
    out = Reading(True, steps, extras=extras, assumed=assumed, hyps=hyps)
    if not all(s[1] for s in steps):
        return out
    d_b = direction.b.definition
    found = statement_bound(cert, direction, names)
    if found is None:
        steps.append(("its bound can be compared with the claim", direction.f is None,
                      f"method {cert.get('method')} states no bound this check reads"))
        return out
    bound, upper = found
    views = _b_side(cert) is not None
    smaller = d_b.stronger == "smaller"
    steps.append(("the bound's direction is B's (an upper bound where smaller is stronger)", upper == smaller,
                  f"{'an upper' if upper else 'a lower'} bound; {d_b.name}: {d_b.stronger} is stronger"
                  + (" (the view's eps-DP)" if views else "")))
    if upper != smaller:
        return out
    if not pins and extras and upper and _only_positive_T(extras, T, hyps):
        ok, how = _at_best_level(bound, direction, hyps, T)
        steps.append(("its domain's T > 0 extends to A's best level T = 0 (the tables at level 0 are at level <= t "
                      "for every t > 0, so B's raw level is at most the limit of U as t -> 0+)", ok, how))
        if ok:
            extras, out.extras = [], []
    if direction.f is not None and not pins:
        out.proves, how = _proves_f(bound, upper, direction, hyps, T)
        steps.append((f"{'U' if upper else 'L'} is at least as strong as the claimed f on the claim's "
                      f"{'whole condition' if not extras else 'condition where its domain holds'}", out.proves, how))
    tight = ctx.tight.get(index)
    if cert.get("tight") and tight is not None:
        out.tight_ok, how = _equal_tight(cert, bound, as_expr(tight), direction, names, pins)
        steps.append(("its tight bound is the row's tight f" + (" where its domain holds" if extras else ""),
                      out.tight_ok, how))
    return out


def covered(readings, hyps):
    """``(ok, how)``: the tight certificates' domains cover the claim's condition (one has no condition of its own,
    or the condition with none of their own conditions sets is unsatisfiable: z3, cvc5); an assumption the verdict
    states is the verdict's, not a certificate's own condition."""
    own = [r.extras for r in readings]
    if any(not x for x in own):
        return True, "a certificate on the whole condition"
    outside = [sympy.Not(sympy.And(*[rel for _, rel, _ in x])) for x in own]
    ok, how = hyps.implied(sympy.Not(sympy.And(*outside)))
    texts = " | ".join(" & ".join(t for t, _, _ in x) for x in own)
    return ok, f"their own conditions {texts}: {how}"
