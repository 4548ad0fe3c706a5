"""The top-cap lemma: A caps every class's top frequency, so B's class level of the distribution is at least its
value at the cap, attained by one class of capped rows.

A certificate of method ``top-cap`` says that B's raw level (a count, larger stronger) is at least ``upper`` = U on
every table whose A raw level meets T, whatever its partition, and that U is attained. Re-checked here from the
registry and the certificate's text alone:

- the cap: A's registered declarations give it (``top``: a ``ClassLevel`` equal to the class's top frequency, smaller
  stronger; ``tail``: a ``TailRatio`` whose parameter is 2 at A's parameters); ``x``, the least ``1/max q`` a class
  meeting A's level t can have, is the checker's own: ``Max(1, 1/t)`` or ``1 + 1/t`` (t = A's level of T, from the
  registered scale);
- B's registered class level is the one the certificate names, the facts (``implgraph.certify.lemma_chain``) chain
  from ``min-entropy`` to it, and their composition is the certificate's map f (``x``, ``ceiling(x)``, ``capped(x)``);
- U is the checker's own f(x) (``oo`` where a top cap t <= 0: no table; the number of values 2 under a tail ratio,
  x in (1, 2] at every level c >= 1), compared symbolically;
- tight: at sampled T and N = 2..6 the table of one class of N records, each the capped distribution at x (floor(x)
  values at 1/x, one at 1 - floor(x)/x), has A's registered level at least as strong as T and B's class level (the
  lemma chain's exact computation, a power product for exp H) exactly f(x).

- B's class floor (where the certificate's B names one: ``floor``): B's registered definition declares a class floor
  k_B above its weakest level w and the level X it equals where the floor holds (``MinClassSizeAboveWeakest``), A's a
  minimum class size k_A (``MinClassSize``), both k A's and B's parameters, w B's registered weakest raw level; X's
  registered class level is the one named and U is ``Piecewise((f(x), k_B <= k_A), (w, True))`` (with the piece oo
  where a top cap is <= 0); on the family, B's registered level (not only X's) is U.

A forged certificate (another cap, x, map, U, fact or floor) fails a step.
"""

from __future__ import annotations

from fractions import Fraction

import sympy

from implgraph.certify.lemmas import lemma
from implgraph.certify.report import lemma_steps, steps_report as _report
from implgraph.core import methods
from implgraph.core.formula import parse_expr

__all__ = ["check", "expected_upper", "floor_upper"]

_N = sympy.Symbol("N", positive=True, integer=True)
_T = sympy.Symbol("T", positive=True)
#: A's raw levels sampled (those in A's domain are used)
_T_GRID = [Fraction(n, d) for n, d in ((1, 1), (8, 7), (7, 6), (9, 7), (4, 3), (7, 5), (3, 2), (8, 5), (7, 4), (2, 1),
                                       (5, 2), (3, 1), (13, 3), (7, 1))]
_MAPS = {"x": lambda x: x, "ceiling(x)": sympy.ceiling,
         "capped(x)": lambda x: x * (x - sympy.floor(x)) ** ((sympy.floor(x) - x) / x)}


def _cap(a, params):
    """The cap A's registered declarations give (module notes), or None."""
    from implgraph.definitions._classes import GenericClass
    from implgraph.definitions.capabilities import ClassLevel, TailRatio
    if a.stronger != "smaller":
        return None
    declared = a.declared(ClassLevel)
    if declared is not None:
        cls = GenericClass()
        if sympy.simplify(sympy.sympify(declared.formula(cls)) - cls.top) == 0:
            return "top"
    tail = a.declared(TailRatio)
    if tail is not None and sympy.sympify(params.get(tail.param, 0)) == 2:
        return "tail"
    return None


def expected_upper(cap, f, level):
    """``(x, U)``: the checker's own lower bound x of ``1/max q`` at A's level t and B's bound (module notes)."""
    if cap == "tail":
        x = 1 + 1 / level
        if f == "ceiling(x)":
            return x, sympy.Integer(2)      # x = 1 + 1/c in (1, 2] at every c >= 1 (A's scale: c >= 1)
        if f == "capped(x)":                # floor(x) = 1 for c > 1: x (x - 1)^((1 - x)/x); at c = 1, g(2) = 2 too
            return x, (1 + level) / level ** (level / (1 + level))
        return x, x
    x = 1 / level if f == "ceiling(x)" else sympy.Max(1, 1 / level)
    return x, sympy.Piecewise((sympy.oo, level <= 0), (_MAPS[f](x), True))


def _floor(a, pa, b, pb, given):
    """``(steps, floor)``: B's class floor from the registry (module notes) against the certificate's ``given``;
    floor ``(X's name, k_A, k_B, w)`` or None (no floor named)."""
    from implgraph.definitions.capabilities import MinClassSize, MinClassSizeAboveWeakest
    if not given:
        return [], None
    declared, floor = b.declared(MinClassSizeAboveWeakest), a.declared(MinClassSize)
    ok = (declared is not None and declared.level_of is not None and floor is not None and b.stronger == "larger"
          and not b.level_scale.weakest_depends_on_N and floor.param in pa and declared.param in pb)
    if not ok:
        return [("B declares a class floor above its weakest level, A a minimum class size", False, str(given))], None
    w = sympy.sympify(b.raw_from_level(b.weakest()))
    found = (declared.level_of, pa[floor.param], pb[declared.param], w)
    same = (given.get("level_of") == found[0] and str(given.get("A_floor")) == str(found[1])
            and str(given.get("B_floor")) == str(found[2]) and str(given.get("weakest")) == str(w))
    return [("B's class floor and the level it is there, A's class floor (registry)", same,
             f"registry: {found}; certificate: {given}")], found


def floor_upper(U, floor, level, cap):
    """U under B's class floor: f(x) where k_B <= k_A, w elsewhere (and oo where a top cap t <= 0)."""
    if floor is None:
        return U
    finite = U.args[1][0] if cap == "top" else U
    pieces = [(finite, sympy.Le(floor[2], floor[1])), (floor[3], True)]
    return sympy.Piecewise((sympy.oo, level <= 0), *pieces) if cap == "top" else sympy.Piecewise(*pieces)


def _chain(cert, bkind):
    """``(steps, f)``: the facts' chain from min-entropy to B's class level, and its composed map."""
    from implgraph.certify.lemma_chain import FACTS, compose
    chain = list(cert.get("steps") or [])
    if not all(s in FACTS for s in chain):
        return [("every step is a known fact", False, ", ".join(chain))], None
    start = FACTS[chain[0]][0] if chain else "min-entropy"
    end = FACTS[chain[-1]][1] if chain else "min-entropy"
    linked = all(FACTS[x][1] == FACTS[y][0] for x, y in zip(chain, chain[1:]))
    f = compose([FACTS[s][2] for s in chain])
    ok = linked and start == "min-entropy" and end == bkind and f is not None and cert.get("map") == f
    return [("the facts chain from 1/max q to B's class level; f is their composition", ok,
             f"{' -> '.join(['min-entropy'] + [FACTS[s][1] for s in chain])}: {f} (certificate: {cert.get('map')})")], f


def _exponents(value) -> frozenset:
    """A positive product of rational powers of rationals (sympy) as its prime exponents ``{(prime, e)}``."""
    from implgraph.certify.lemma_chain import _exponents as rational_exponents
    exps = {}
    for factor in sympy.Mul.make_args(sympy.sympify(value)):
        base, e = factor.as_base_exp()
        if not (base.is_Rational and e.is_Rational and base > 0):
            raise ValueError(f"{factor} is not a rational power of a rational")
        for p, k in rational_exponents(Fraction(int(base.p), int(base.q))).items():
            exps[p] = exps.get(p, Fraction(0)) + Fraction(int(e.p), int(e.q)) * k
    return frozenset((p, v) for p, v in exps.items() if v)


def _family(a, pa, cap, bkind, U, ns, b=None, pb=None):
    """``(ok, how)``: one class of N records, each the capped distribution at x (``max(1, 1/t)`` or ``1 + 1/c``), at
    sampled T and N: A's registered level meets T and B's class level (exact) is U at T (module notes)."""
    from implgraph.certify.lemma_chain import _exact, class_levels
    from implgraph.core.concrete import ConcreteTable
    from implgraph.certify.lemmas.weakest_family import _level, _number
    checked = 0
    lowest = 1 if a.level_scale.best_raw is None else a.level_scale.best_raw
    for t in _T_GRID:
        raw = sympy.Rational(t.numerator, t.denominator)
        level = sympy.sympify(a.level_from_raw(raw))
        if t < lowest or (cap == "top" and not level > 0):
            continue
        xs = max(sympy.Integer(1), 1 / level) if cap == "top" else 1 + 1 / level
        x = Fraction(int(xs.p), int(xs.q))
        n = x.numerator // x.denominator
        row = [1 / x] * n + ([1 - n / x] if n / x != 1 else [])
        row += [Fraction(0)] * max(0, 2 - len(row))
        for N in ns:
            rows, classes = [row] * N, ["E1"] * N
            at_n = {k: (v.subs({s_: N for s_ in v.free_symbols}) if hasattr(v, "free_symbols") else v)
                    for k, v in pa.items()}
            u_at = U.subs(_T, raw).subs({s_: N for s_ in U.free_symbols if s_ != _T})     # (a parameter k at N)
            table = ConcreteTable.from_fractions(rows, classes=classes)
            ra = _level(a, table, at_n)
            if ra is None or ra == float("inf") or not _number(ra) <= raw:
                return False, f"A's level {ra} does not meet T = {t} at N = {N}"
            if _exact(class_levels(bkind, rows, classes)) != _exponents(u_at):
                return False, f"B's class level differs from U at T = {t}, N = {N}"
            if b is not None:
                rb = _level(b, table, {k: (v.subs({s_: N for s_ in v.free_symbols}) if hasattr(v, "free_symbols")
                                           else v) for k, v in pb.items()})
                if rb is None or sympy.simplify(_number(rb) - u_at) != 0:
                    return False, f"B's registered level {rb} differs from U = {u_at} at T = {t}, N = {N}"
            checked += 1
    return checked > 0, f"{checked} points: one class of N = {min(ns)}..{max(ns)} capped rows, T in the sampled grid"


def describe(cert) -> list:
    return [f"{(cert.get('A') or {}).get('definition')} => {(cert.get('B') or {}).get('definition')}: a {cert.get('cap')}"
            f" cap gives 1/max q >= {cert.get('x')}, so B >= {cert.get('upper')} (tight: one class of capped rows)"]


@lemma(methods.TOP_CAP, describe=describe,
       every_partition="A's cap holds in every class and B is its worst class's level, whatever the partition")
def check(cert, ns=range(2, 13), timeout_ms=4000):
    """Re-check a top-cap certificate (see the module notes)."""
    from implgraph.certify.lemma_chain import _declares
    from implgraph.certify.registered import registered
    with lemma_steps(cert) as steps:
        A, B = cert.get("A") or {}, cert.get("B") or {}
        a, b = registered(A.get("definition")), registered(B.get("definition"))
        if a is None or b is None:
            return _report(steps + [("A and B are registered definitions", False, "not registered here")])
        names = {"N": _N, **{str(k): sympy.Symbol(str(k), integer=True) for k in (cert.get("symbols") or {})
                             if str(k) not in ("N", "T")}}
        pa = {k: parse_expr(str(v), names) for k, v in (A.get("params") or {}).items()}
        cap = _cap(a, pa)
        steps.append(("A's registered declarations give the cap", cap is not None and cert.get("cap") == cap,
                      f"registry: {cap}; certificate: {cert.get('cap')}"))
        bkind = B.get("class_level")
        pb = {k: parse_expr(str(v), names) for k, v in (B.get("params") or {}).items()}
        floor_steps, floor = _floor(a, pa, b, pb, B.get("floor"))
        steps += floor_steps
        x_name = b.name if floor is None else floor[0]
        steps.append(("B's registered class level is the one named (larger stronger)",
                      b.stronger == "larger" and _declares(x_name, bkind), f"{x_name}: {bkind}"))
        chain_steps, f = _chain(cert, bkind)
        steps += chain_steps
        if not all(s[1] for s in steps):
            return _report(steps)
        level = a.level_from_raw(_T)
        x, U = expected_upper(cap, f, level)
        U = floor_upper(U, floor, level, cap)
        given_x = parse_expr(str(cert.get("x")), {"T": _T})
        given_u = parse_expr(str(cert.get("upper")), {**names, "T": _T, "N": _N})
        steps.append(("x is the least 1/max q at A's level (the checker's)", sympy.simplify(given_x - x) == 0,
                      f"x = {given_x}; the checker's {x}"))
        steps.append(("U is f(x) (the checker's)", given_u == U or sympy.simplify(given_u - U) == 0,
                      f"U = {given_u}; the checker's {U}"))
        steps.append(("the supremum is claimed (tight)", cert.get("tight") is True, str(cert.get("tight"))))
        if all(s[1] for s in steps):
            ns_used = [n for n in ns if n <= 6]
            # (a symbolic parameter, a class floor k <= N: the family's one class of N records meets it; sampled at N)
            steps.append(("tight: A meets T and B = U on one class of capped rows (exact)",
                          *_family(a, pa, cap, bkind, U, ns_used, *((b, pb) if floor else ()))))
    return _report(steps)
