"""The skew-family lemma: B's weakest level is the tight f under A, approached by skewed classes, attained only where
A's level is at most 1.

A certificate of method ``skew-family`` says that B's raw level (1/max q or exp H, larger stronger) is at least
``upper`` = U, B's weakest, on every table (its registered scale: every table meets it), and that no larger value
holds at any level T of A: U is B's infimum there, approached. Re-checked here from the registry and the certificate's
text alone:

- U is B's registered weakest raw level; the sides' class levels are the registered ones (``support`` or ``shannon``
  for A, ``min-entropy`` or ``shannon`` for B, not the same); A is larger stronger and declares no class floor and no
  class-size level (the family's one class is then free);
- the family (``skew-support``: records ``(1 - e, e/(m - 1), ...)`` over m = max(2, ceiling(T)) values;
  ``skew-entropy``: ``(1 - e, e/M, ...)``), symbolically: B's class level of the row tends to 1 as e tends to 0
  (sympy's limit, the checker's own formula), and for ``skew-entropy`` ``H = h(e) + e log M`` tends to oo in M;
- exactly, at sampled T and e and N = 2, 3: A's registered level of the table of one class of N such rows meets T
  (for exp H the least M the checker finds, compared exactly by
  :func:`implgraph.definitions.l_diversity.compare_level`), and B's class level (the lemma chain's exact one) is
  the formula's, above 1;
- not attained beyond T = 1 (the certificate's ``attained``: ``T <= 1``): A's declared class level of a class of one
  value is 1, and B = 1 needs such a class.

A forged certificate (another U, class level, family, or attainment) fails a step.
"""

from __future__ import annotations

import math
from fractions import Fraction

import sympy

from implgraph.certify.lemmas import lemma
from implgraph.certify.report import lemma_steps, steps_report as _report
from implgraph.core import methods
from implgraph.core.formula import parse_expr

__all__ = ["check"]

_N = sympy.Symbol("N", positive=True, integer=True)
_e = sympy.Symbol("e", positive=True)
_m = sympy.Symbol("m", positive=True, integer=True)
_M = sympy.Symbol("M", positive=True)
_PAIRS = {("support", "min-entropy"): "skew-support", ("support", "shannon"): "skew-support",
          ("shannon", "min-entropy"): "skew-entropy"}
_T_GRID = [Fraction(1), Fraction(3, 2), Fraction(2), Fraction(3), Fraction(7, 2)]
_E_GRID = [Fraction(1, 4), Fraction(1, 8)]


def _b_formula(kb, fam):
    """B's class level of the family's row, the checker's own formula in e (and m or M)."""
    if kb == "min-entropy":
        return 1 / (1 - _e)
    return sympy.exp(-(1 - _e) * sympy.log(1 - _e) - _e * sympy.log(_e / (_m - 1)))


def _symbolic(kb, fam):
    """``[(what, ok, how)]``: B tends to 1 as e tends to 0; exp H unbounded in M (``skew-entropy``)."""
    limit = sympy.limit(_b_formula(kb, fam), _e, 0, "+")
    out = [("B's class level of the row tends to 1 as e tends to 0 (B's weakest)", limit == 1, f"limit {limit}")]
    if fam == "skew-entropy":
        H = -(1 - _e) * sympy.log(1 - _e) - _e * sympy.log(_e / _M)
        grow = sympy.limit(H, _M, sympy.oo)
        out.append(("A's H = h(e) + e log M grows without bound in M at e > 0", grow == sympy.oo, f"limit {grow}"))
    return out


def _row(fam, t, e):
    """The family's row at A's level t and skew e, with M the least (exactly) meeting t for ``skew-entropy``."""
    from implgraph.definitions.l_diversity import compare_level
    if fam == "skew-support":
        m = max(2, math.ceil(t))
        return [1 - e] + [e / (m - 1)] * (m - 1)
    h = -(1 - e) * math.log(1 - e) - e * math.log(e)
    M = max(1, int(math.exp((math.log(t) - h) / e)) - 2)
    while True:
        b = e.denominator * M
        d = (sorted([int((1 - e) * b)] + [e.numerator] * M), b)
        if compare_level(d, t) >= 0:
            return [1 - e] + [e / M] * M
        M += 1


def _sampled(a, kb, fam):
    from implgraph.certify.lemma_chain import _exact, _power_product, class_levels
    from implgraph.certify.lemmas.weakest_family import _level, _number
    from implgraph.core.concrete import ConcreteTable
    checked = 0
    for t in _T_GRID:
        for e in _E_GRID:
            row = _row(fam, t, e)
            want = 1 / (1 - e) if kb == "min-entropy" else _power_product([v for v in row if v])
            for N in (2, 3):
                rows, classes = [row] * N, ["E1"] * N
                ra = _level(a, ConcreteTable.from_fractions(rows, classes=classes), {})
                ok_a = ra is not None and (fam == "skew-entropy" or _number(ra) >= sympy.Rational(t.numerator,
                                                                                                   t.denominator))
                if not ok_a:
                    return [("A meets T on the family (exact)", False, f"A's level {ra} at T = {t}, e = {e}")]
                lb = class_levels(kb, rows, classes)
                if _exact(lb) != _exact(want) or (not isinstance(lb, frozenset) and lb <= 1):
                    return [("B's class level is the formula's, above 1", False, f"{lb} at T = {t}, e = {e}")]
                checked += 1
    return [("A meets T and B is the formula's, above 1, on the family (exact)", checked > 0,
             f"{checked} points: T in {', '.join(map(str, _T_GRID))}, e in {', '.join(map(str, _E_GRID))}, N = 2, 3")]


def _single_value_is_one(a) -> bool:
    """A's declared class level of a class of one value is 1 (so B = 1, a class of one value, puts A at 1)."""
    from implgraph.definitions._classes import GenericClass
    from implgraph.definitions.capabilities import ClassLevel
    declared = a.declared(ClassLevel)
    return declared is not None and sympy.simplify(GenericClass().evaluate(declared.formula(GenericClass()), [1])
                                                   - 1) == 0


def describe(cert) -> list:
    return [f"{(cert.get('A') or {}).get('definition')} => {(cert.get('B') or {}).get('definition')}: B's weakest "
            f"level {cert.get('upper')}, approached by the {(cert.get('family') or {}).get('kind')} family"]


@lemma(methods.SKEW_FAMILY, describe=describe,
       every_partition="B's weakest level is met by every table, whatever its classes (its registered scale)")
def check(cert, ns=range(2, 13), timeout_ms=4000):
    """Re-check a skew-family certificate (see the module notes)."""
    from implgraph.certify.lemma_chain import _declares
    from implgraph.certify.registered import registered
    from implgraph.definitions.capabilities import ClassSizeLevel, MinClassSize, MinClassSizeAboveWeakest
    with lemma_steps(cert) as steps:
        A, B = cert.get("A") or {}, cert.get("B") or {}
        a, b = registered(A.get("definition")), registered(B.get("definition"))
        if a is None or b is None:
            return _report(steps + [("A and B are registered definitions", False, "not registered here")])
        ka, kb = A.get("class_level"), B.get("class_level")
        fam = (cert.get("family") or {})
        free = not (a.has(ClassSizeLevel) or a.declared(MinClassSize) or a.declared(MinClassSizeAboveWeakest))
        steps.append(("the sides' registered class levels are the ones named; A has no class floor",
                      _declares(a.name, ka) and _declares(b.name, kb) and free and a.stronger == b.stronger == "larger"
                      and _PAIRS.get((ka, kb)) == fam.get("kind"), f"A {ka}, B {kb}, family {fam.get('kind')}"))
        U = parse_expr(str(cert.get("upper")), {"N": _N})
        weakest = sympy.sympify(b.raw_from_level(b.weakest(_N)))
        steps.append((f"U is B's weakest raw level {weakest}", sympy.simplify(U - weakest) == 0, f"U = {U}"))
        steps.append(("the infimum is claimed (tight), attained only where T <= 1",
                      cert.get("tight") is True and fam.get("attained") == "T <= 1" and _single_value_is_one(a),
                      f"tight {cert.get('tight')}, attained {fam.get('attained')!r}"))
        if all(s[1] for s in steps):
            steps += _symbolic(kb, fam.get("kind"))
            steps += _sampled(a, kb, fam.get("kind"))
    return _report(steps)
