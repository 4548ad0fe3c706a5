"""The subset chord lemma: every j records' mean within [1/T, T] of the table confines a record's ratio to an
interval, and a class's divergence from the table is at most the chord of phi over it.

**Lemma.** Let N records x_i have the mean P, every set of j records (1 <= j <= N - 1) have its mean within
[P_l/T, T P_l] bucket by bucket (T >= 1), and phi be convex. (1) For record i and a bucket with P_l > 0, a = x_i(l)/P_l
and b = (N - a)/(N - 1) (the others' mean ratio): the j-subsets of the others average to b, so 1/T <= b <= T; the
j-subsets holding record i average to (a + (j - 1) b)/j, so 1/T <= (a + (j - 1) b)/j <= T; and a >= 0. As b
decreases in a and (a + (j - 1) b)/j increases (slope (N - j)/(j (N - 1)) > 0), a lies in [lo, hi] with
lo = max(0, a at b = T, a at (a + (j - 1) b)/j = 1/T) and hi = min(a at b = 1/T, a at (a + (j - 1) b)/j = T). A class's
mean ratio is an average of its records', so it lies there too. (2) With sum_l P_l r_l = 1 and r_l in [lo, hi],
sum_l P_l phi(r_l) <= L phi(hi) + (1 - L) phi(lo), L = (1 - lo)/(hi - lo) (the chord; lo < 1 < hi where T > 1).
(3) At T = 1 every record is the table (the subsets' means are the table's) and B is phi(1) = 0.

What the checker re-derives from the certificate's statement, not from its data:

- A's side is a registered two-sided subset level; its size j is read from the registry's declaration (the
  certificate's ``size`` must be it, :func:`implgraph.certify._registered`), and the domain implies T >= 1,
  j >= 1 and j <= N - 1;
- B's side names a registered definition declaring a divergence of a class from the table, KL or Renyi of a finite
  order alpha > 1, on any partition (smallest class 1, no largest); the certificate's kind, order, phi are those and
  phi is convex;
- the ends: the four ends solved here from b and the holding mean (sympy ``solve`` of each linear equation in a), the
  certificate's ``lo`` exactly ``Max(0, l1, l2)`` and ``hi`` exactly ``Min(h1, h2)`` argument by argument; each h - 1
  and 1 - l is positive where T > 1 (the domain's hypotheses with T > 1, exact or by the solvers);
- U is ``Piecewise((0, T <= 1), ...)``; beyond T = 1 it is the chord's value with lo and hi read as atoms (exact
  algebra): for Renyi exp((alpha - 1) V) = L hi^alpha + (1 - L) lo^alpha; for KL the piece log(hi) under exactly
  l1 <= 0 and l2 <= 0 (lo = 0) and the chord on [max(l1, l2), hi] elsewhere;
- every partition, one class included (each class bounded by its own mean's ratios; one class is the table, at
  divergence 0 <= U: the chord lies above phi(1) = 0);
- where tightness is claimed: the family (record i alone at (hi L, lo (1 - L)), N - 1 others at the rest of the table)
  has ratios exactly hi and lo to its table, so record i's class is at the chord's value (symbolic, lo and hi atoms);
  and at each sampled N, T > 1 and value of A's size's symbols in the domain, the family is a table whose registered
  A level is <= T and whose B level is U (exact, the log values to 40 digits where not symbolic).
"""

from __future__ import annotations

import sympy

from implgraph.certify.domain import declared_names
from implgraph.certify.hypotheses import domain_hypotheses
from implgraph.certify.lemmas import lemma
from implgraph.certify.lemmas.chord import _convex, _divergence, _report
from implgraph.certify.binary_family import sampled_rows_step
from implgraph.certify.report import lemma_steps
from implgraph.core import methods
from implgraph.core.formula import parse_expr

__all__ = ["check", "ends"]

_R = sympy.Symbol("r", positive=True)
_T = sympy.Symbol("T", positive=True)
_N = sympy.Symbol("N", integer=True, positive=True)
_LO, _HI = sympy.Symbol("lo", positive=True), sympy.Symbol("hi", positive=True)


def ends(j):
    """``([h1, h2], [l1, l2])``: the ends of a record's ratio a solved from the lemma's four conditions."""
    a = sympy.Symbol("a", real=True)
    b = (_N - a) / (_N - 1)
    holding = (a + (j - 1) * b) / j

    def solved(expr, value):
        (x,) = sympy.solve(sympy.Eq(expr, value), a)
        return sympy.cancel(x)
    return [solved(b, 1 / _T), solved(holding, _T)], [solved(b, _T), solved(holding, 1 / _T)]


def _same_args(given, func, expected) -> bool:
    """``given`` is ``func(*expected)`` argument by argument (exact algebra; sympy may drop or reorder arguments only
    where it shows one is redundant, which is then refused: the certificate states the lemma's ends)."""
    args = list(given.args) if isinstance(given, func) else [given]
    if len(args) != len(expected):
        return False
    left = list(expected)
    for x in args:
        hit = next((e for e in left if sympy.cancel(x - e) == 0), None)
        if hit is None:
            return False
        left.remove(hit)
    return True


def _multiples(given, expected) -> bool:
    """Each of ``given`` is a positive number times a distinct one of ``expected`` (sympy scales a relation
    ``x <= 0`` by a positive number: its sign is the same)."""
    left = list(expected)
    for x in given:
        hit = next((e for e in left if (q := sympy.cancel(x / e)).is_number and q.is_positive), None)
        if hit is None:
            return False
        left.remove(hit)
    return not left


def _as_atoms(expr, lows, highs, positive=False):
    """``expr`` with every ``Max(0, l1, l2)`` read as the atom lo (``Max(l1, l2)`` instead where ``positive``: a piece
    where max(l1, l2) > 0) and every ``Min(h1, h2)`` as hi (each matched argument by argument, exact algebra); None
    where another maximum or minimum is left."""
    swap, low = {}, lows if positive else [sympy.Integer(0), *lows]
    for m in expr.atoms(sympy.Max):
        if _same_args(m, sympy.Max, low):
            swap[m] = _LO
    for m in expr.atoms(sympy.Min):
        if _same_args(m, sympy.Min, highs):
            swap[m] = _HI
    out = expr.xreplace(swap)
    return None if out.has(sympy.Max, sympy.Min) else out


def _value_ok(div, upper, lows, highs) -> bool:
    """U is Piecewise((0, T <= 1), ...) with the chord's value beyond (lo, hi as atoms; module notes)."""
    if not isinstance(upper, sympy.Piecewise) or upper.args[0] != (0, sympy.Le(_T, 1)) \
            or upper.args[-1].cond is not sympy.true:
        return False
    L = (1 - _LO) / (_HI - _LO)
    if div.kind == "renyi":
        value = _as_atoms(upper.args[1].expr, lows, highs) if len(upper.args) == 2 else None
        return value is not None and sympy.simplify(sympy.exp((div.order - 1) * value)
                                                    - (L * _HI ** div.order + (1 - L) * _LO ** div.order)) == 0
    if len(upper.args) != 3:
        return False
    (zero_lo, cond), (rest, _) = upper.args[1], upper.args[2]
    conds = list(sympy.And.make_args(cond))
    at_zero = len(conds) == 2 and all(isinstance(c, sympy.LessThan) and c.rhs == 0 for c in conds) \
        and _multiples([c.lhs for c in conds], lows)
    # the last piece is read where its condition fails: max(l1, l2) > 0 there, so lo = max(l1, l2)
    first, second = _as_atoms(zero_lo, lows, highs), _as_atoms(rest, lows, highs, positive=True)
    if first is None or second is None:
        return False
    chord = L * _HI * sympy.log(_HI) + (1 - L) * _LO * sympy.log(_LO)
    return bool(at_zero and sympy.simplify(first - sympy.log(_HI)) == 0
                and sympy.simplify(sympy.expand_log(second - chord, force=True)) == 0)


def _family_ok(fam, names, lows, highs) -> bool:
    """Record i's row (class E1, count 1) over the table's first bucket is hi, its second lo: its class is at the
    chord's value, U's."""
    rows = {str(r.get("class")): (_read(r["count"], names), _read(r["value"], names)) for r in fam.get("rows") or []}
    if set(rows) != {"E1", "E2"} or rows["E1"][0] != 1 or sympy.simplify(rows["E2"][0] - (_N - 1)) != 0:
        return False
    x, y = rows["E1"][1], rows["E2"][1]
    P = (x + (_N - 1) * y) / _N
    ratios = [_as_atoms(x / P, lows, highs), _as_atoms((1 - x) / (1 - P), lows, highs)]
    return None not in ratios and [sympy.cancel(r) for r in ratios] == [_HI, _LO]


def _read(text, names=None):
    return parse_expr(str(text), names or {"T": _T, "N": _N, "r": _R})


def _names(cert):
    return declared_names(cert, {"T": _T, "N": _N, "r": _R})


def _implied(hyps, rel) -> bool:
    return bool(hyps.implied(rel)[0])


def _side_steps(cert, names):
    """``(steps, j, div)``: A's and B's shapes, the divergence, and the domain's T >= 1 and 1 <= j <= N - 1."""
    A, B, data = cert.get("A") or {}, cert.get("B") or {}, cert.get("upper_certificate") or {}
    steps = [("A is a two-sided subset level with a size", A.get("family") == "subset"
              and A.get("sides") == "two-sided" and A.get("size") is not None, "declared families")]
    _, div = _divergence(cert)
    finite = div is not None and (div.kind == "kl" or (div.kind == "renyi" and div.order.is_number
                                                       and div.order.is_finite and bool(div.order > 1)))
    steps.append(("B's registered definition declares a divergence of a class from the table (KL, or Renyi of a "
                  "finite order > 1), on any partition", finite and div.compares == "class"
                  and str(B.get("min_class") or "1") == "1" and not B.get("max_class"), "registry"))
    if not steps[0][1] or not steps[1][1]:
        return steps, None, None, None
    declared = {"lemma": methods.SUBSET_CHORD.lemma, "kind": div.kind, "compares": div.compares,
                "order": None if div.order is None else str(div.order)}
    steps.append(("the certificate's divergence is B's declared one", all(data.get(k) == v for k, v in declared.items())
                  and sympy.simplify(_read(data.get("phi"), names) - div.phi(_R)) == 0, "exact"))
    steps.append(("phi is convex for r > 0", _convex(div.phi(_R)), "phi'' >= 0 for r > 0"))
    j = _read(A["size"], names)
    steps.append(("the certificate's size is A's, its symbols integers", sympy.simplify(_read(data.get("size"), names)
                                                                                         - j) == 0
                  and all(x.is_integer for x in j.free_symbols), "exact"))
    hyps = domain_hypotheses(cert, names)
    for rel, text in ((sympy.Ge(_T, 1), "T >= 1"), (sympy.Ge(j, 1), f"{j} >= 1"), (sympy.Le(j, _N - 1), f"{j} <= N - 1")):
        steps.append((f"the domain implies {text}", _implied(hyps, rel), "the domain's conditions"))
    return steps, j, div, hyps


def _end_steps(cert, names, j):
    """``(steps, lows, highs)``: the certificate's ends are the lemma's, and lo < 1 < hi where T > 1."""
    data = cert.get("upper_certificate") or {}
    highs, lows = ends(j)
    lo, hi = _read(data.get("lo"), names), _read(data.get("hi"), names)
    steps = [(f"lo is Max(0, {lows[0]}, {lows[1]}) (the lemma's ends, solved here)",
              _same_args(lo, sympy.Max, [sympy.Integer(0), *lows]), "exact"),
             (f"hi is Min({highs[0]}, {highs[1]})", _same_args(hi, sympy.Min, highs), "exact")]
    steps.append(("lo < 1 < hi where T > 1, for every size 1 <= j <= N - 1 (each end, exact)", _ends_around_one(),
                  "h - 1 and 1 - l at T = 1 + u, j = 1 + a, N = 2 + a + b: positive coefficients"))
    return steps, lows, highs


def _positive(expr, u, a, b) -> bool:
    """``expr`` (a rational function of u > 0, a, b >= 0) is positive: numerator and denominator with nonnegative
    coefficients, each nonzero at a = b = 0 (so positive for u > 0)."""
    num, den = sympy.fraction(sympy.cancel(sympy.together(expr)))
    polys = [sympy.Poly(x, u, a, b) for x in (num, den)]
    if any(p.LC() < 0 for p in polys):
        polys = [-p for p in polys]
    return all(all(c >= 0 for c in p.coeffs()) and not p.subs({a: 0, b: 0}).is_zero for p in polys)


def _ends_around_one() -> bool:
    """Each end of the generic size J: h - 1 > 0 and 1 - l > 0 where T > 1, 1 <= J <= N - 1 (T = 1 + u, J = 1 + a,
    N = J + 1 + b; the certificate's size lies in that range by the domain's steps)."""
    u, a, b = sympy.Symbol("u", positive=True), sympy.Symbol("a", nonnegative=True), sympy.Symbol("b", nonnegative=True)
    J = sympy.Symbol("J", positive=True)
    highs, lows = ends(J)
    shift = {_T: 1 + u, _N: 2 + a + b}
    return all(_positive((e - 1 if up else 1 - e).subs(shift).subs(J, 1 + a), u, a, b)
               for es, up in ((highs, True), (lows, False)) for e in es)


@lemma(methods.SUBSET_CHORD, own_partitions=True)
def check(cert, ns=range(2, 10), timeout_ms=4000):
    """Re-check a subset-chord certificate (see the module notes)."""
    with lemma_steps(cert) as steps:
        names = _names(cert)
        more, j, div, hyps = _side_steps(cert, names)
        steps += more
        if j is None:
            return _report(steps)
        more, lows, highs = _end_steps(cert, names, j)
        steps += more
        steps.append(("U is 0 at T = 1 and the chord's value on [lo, hi] beyond (exact algebra, lo and hi atoms)",
                      _value_ok(div, _read(cert.get("upper"), names), lows, highs), "exact"))
        steps.append(("for every partition (each class within [lo, hi] by its own records; one class is the table, "
                      "at divergence 0 <= U)", cert.get("min_classes") in (1, 2), f"min_classes {cert.get('min_classes')!r}"))
        if cert.get("tight"):
            fam = cert.get("tightness") or {}
            steps.append(("the family's record i has ratios hi and lo to its table (its class at U)",
                          _family_ok(fam, names, lows, highs), "exact"))
            steps.append(sampled_rows_step(cert, names, fam, div, hyps.rels, ns))
    return _report(steps)
