"""The floor-level lemma: a level with a class floor above its weakest level and the level it is where the floor
holds (``MinClassSizeAboveWeakest`` with ``level_of``; p-sensitive k-anonymity: distinct l-diversity's), and the
tight f it gives.

A certificate of method ``floor-level`` says that B's infimum over the tables of N records whose A raw level is at
least T is ``upper`` = U, for every T and N on its domain. Re-checked here from the registry and the certificate's
numbers alone:

- the ``family``'s kind is the one the registered declarations give: ``same`` (A declares the floor k above its
  weakest level w and the level it is there, B's; B's declared class level the number of values a class holds) or
  ``size`` (A's level the smallest class's size; B declares the floor k and the level it is there, that level's class
  level the number of values);
- U is the registry's: ``same``: ceiling(T), where the domain puts T above w (then the floor holds, B = A >= T, an
  integer); ``size``: 1 where T > k - 1 (every class of >= ceiling(T) >= k records, B the number of values of a
  class, >= 1), else 0, B's weakest; ``floor``: N where N < 2 k (one class: two of >= k records do not fit), else k,
  where the domain puts T above w; ``share`` (A declares the floor k, B a one-sided class ratio, a class's total
  variation distance or its KL or Renyi-2 divergence, smaller stronger): ratio 1, distance and divergence 0 where
  N < 2 k (one class, the table), else N/k, (N - k)/N and log(N/k) (a class of >= k records holds at least k/N of
  the table), where the domain puts T above w; compared at
  sampled T, N and k, exactly;
- the family's own domain only the registry's conditions (``N >= k``; ``T > k - 1 or T <= 1``, and ``T <= N``);
- A meets T and B's registered level is U on the family's table at sampled N and T (exact): ``same``: one class of
  N records uniform over the same ceiling(T) values (``floor``: in two classes of k and N - k records where N >= 2 k;
  ``share``: there, on 2 ceiling(T) buckets, the two classes on disjoint supports of ceiling(T) values each);
  ``size``: N one-hot records in one class, or each its own class where T <= 1.

A forged certificate (another U, another kind, a domain of its own the registry does not give) fails a step.
"""

from __future__ import annotations

from fractions import Fraction

import sympy

from implgraph.certify.lemmas import lemma
from implgraph.certify.report import lemma_steps, steps_report
from implgraph.core import methods
from implgraph.core.errors import InputError
from implgraph.core.formula import parse_condition, parse_expr

__all__ = ["check", "expected"]

_N = sympy.Symbol("N", positive=True, integer=True)
_T = sympy.Symbol("T", positive=True)
_MAX_N = 6


def _names(cert) -> dict:
    """The certificate's symbols by name (parameters plain symbols; N and T the lemma's)."""
    out = {n: sympy.Symbol(n) for n in (cert.get("symbols") or {}) if n not in ("N", "T") and str(n).isidentifier()}
    return {**out, "N": _N, "T": _T}


def _counts_values(d) -> bool:
    """Is ``d``'s declared class level the number of values a class holds?"""
    from implgraph.definitions._classes import GenericClass
    from implgraph.definitions.capabilities import ClassLevel
    declared = None if d is None else d.declared(ClassLevel)
    if declared is None:
        return False
    cls = GenericClass()
    try:
        return sympy.simplify(sympy.sympify(declared.formula(cls)) - cls.k) == 0
    except (TypeError, ValueError):
        return False


def expected(cert, a, b):
    """``(kind, U, k, where)`` the registry gives for the certificate's sides, or None (module notes)."""
    from implgraph.certify.registered import registered
    from implgraph.definitions.capabilities import ClassSizeLevel, MinClassSizeAboveWeakest
    names = _names(cert)
    fa, fb = a.declared(MinClassSizeAboveWeakest), b.declared(MinClassSizeAboveWeakest)
    pa, pb = ((cert.get(s) or {}).get("params") or {} for s in ("A", "B"))
    if (fa is not None and fa.level_of == b.name and not pb and fa.param in pa and _counts_values(b)
            and a.stronger == b.stronger == "larger"):
        k = parse_expr(str(pa[fa.param]), names)
        return "same", sympy.ceiling(_T), k, (sympy.true if k.is_Integer and k <= 2 else sympy.Ge(_N, k))
    if fb is not None and fb.level_of and a.has(ClassSizeLevel) and fb.param in pb \
            and _counts_values(registered(fb.level_of)):
        k = parse_expr(str(pb[fb.param]), names)
        where = sympy.And(sympy.Or(_T > k - 1, _T <= 1), _T <= _N)
        return "size", sympy.Piecewise((1, _T > k - 1), (0, True)), k, where
    if fa is not None and b.has(ClassSizeLevel) and fa.param in pa and a.stronger == "larger":
        k = parse_expr(str(pa[fa.param]), names)
        return "floor", sympy.Piecewise((_N, _N < 2 * k), (k, True)), k, sympy.true
    if fa is not None and fa.param in pa and a.stronger == "larger" and (shape := _share_shape(cert.get("B") or {}, b)):
        k = parse_expr(str(pa[fa.param]), names)
        small, big = {"ratio": (1, _N / k), "tv": (0, (_N - k) / _N), "divergence": (0, sympy.log(_N / k))}[shape]
        return "share", sympy.Piecewise((small, _N < 2 * k), (big, True)), k, sympy.true
    if fa is not None and fa.level_of and _counts_values(registered(fa.level_of)) and not pb \
            and b.stronger == "larger" and _skew_limit(b):
        return "skew", sympy.sympify(b.raw_from_level(b.weakest())), None, sympy.Le(_T, 1)
    return None


def _share_shape(B, b):
    """``"ratio"`` (B's side a one-sided ratio over classes, no distance), ``"tv"`` (a class's total variation
    distance) or ``"divergence"`` (a class's KL or Renyi-2 divergence from the table, registered), B smaller
    stronger, classes of any size; else None. (The side's family, sides and distance are checked against the
    registry by the certificate's registered steps.)"""
    from implgraph.definitions.divergences import divergence_of
    if b.stronger != "smaller" or B.get("family") != "class" or str(B.get("min_class", "1")) != "1":
        return None
    div = divergence_of(b, B.get("params"))
    if div is not None and div.compares == "class" and (div.kind == "kl" or (div.kind == "renyi" and div.order == 2)):
        return "divergence"        # (a class's ratios to the table at most N/k: its divergence at most log(N/k))
    if B.get("distance") is None and B.get("sides") == "one-sided":
        return "ratio"
    return "tv" if B.get("distance") == "total-variation" else None


def _skew_limit(b) -> bool:
    """B's declared class level (not a count of values) at a class (1 - e, e/(m - 1), ...) tends to B's weakest raw
    level as e -> 0+, at m = 2, 3, 4 (its declared formula, exactly by sympy's limit)."""
    from implgraph.definitions._classes import GenericClass
    from implgraph.definitions.capabilities import ClassLevel
    declared = b.declared(ClassLevel)
    if declared is None or _counts_values(b) or b.level_scale.weakest_depends_on_N:
        return False
    e, cls = sympy.Symbol("e", positive=True), GenericClass()
    w = sympy.sympify(b.raw_from_level(b.weakest()))
    for m in (2, 3, 4):
        q = [1 - e] + [e / (m - 1)] * (m - 1)          # (0 < e < 1/2: the top is 1 - e)
        at = sympy.sympify(declared.formula(cls)).subs({cls.k: m, cls.top: 1 - e}).doit()
        at = at.subs({cls.q[n + 1]: x for n, x in enumerate(q)})
        if sympy.limit(sympy.sympify(b.raw_from_level(at)), e, 0, "+") != w:
            return False
    return True


def _above_weakest(cert, a) -> bool:
    """Does a domain condition put T above A's weakest raw level w (``T >= c`` with c > w, or ``T > c``, c >= w)?"""
    w = sympy.sympify(a.raw_from_level(a.weakest()))
    for text in cert.get("domain") or []:
        try:
            rel = parse_condition(str(text), _names(cert)).canonical
        except InputError:
            continue
        if isinstance(rel, (sympy.GreaterThan, sympy.StrictGreaterThan)) and rel.lhs == _T and rel.rhs.is_number:
            if bool(rel.rhs > w) or (isinstance(rel, sympy.StrictGreaterThan) and bool(rel.rhs >= w)):
                return True
    return False


def _rows(kind, n, t, k=None):
    """The family's table at n records and A's level t (module notes)."""
    if kind == "skew":
        return [[Fraction(1), Fraction(0)] for _ in range(n)], ["E1"] * n
    if kind == "share":        # (one class below 2 k records, else k and n - k on disjoint supports)
        m = int(sympy.ceiling(t))
        first, second = [Fraction(1, m)] * m + [Fraction(0)] * m, [Fraction(0)] * m + [Fraction(1, m)] * m
        if n < 2 * k:
            return [first for _ in range(n)], ["E1"] * n
        return [first] * k + [second] * (n - k), ["E1"] * k + ["E2"] * (n - k)
    if kind in ("same", "floor"):
        m = int(sympy.ceiling(t))
        two = kind == "floor" and n >= 2 * k
        return [[Fraction(1, m)] * m for _ in range(n)], ["E1"] * k + ["E2"] * (n - k) if two else ["E1"] * n
    classes = [f"R{i}" for i in range(n)] if t <= 1 else ["E1"] * n
    return [[Fraction(1), Fraction(0)] for _ in range(n)], classes


def _level(d, table, params):
    """``d``'s registered raw level of a concrete table (exact), or None."""
    if d.concrete is not None:
        return d.concrete(table, **params)
    from implgraph.definitions.levels import optimal_level
    pieces = optimal_level(table, d, **params).pieces
    return pieces[0].value if len(pieces) == 1 else None


def _sampled(cert, fam, kind, a, b, U, ns, k=None):
    """A meets T and B's registered level is U on the family's table at sampled points (exact)."""
    from implgraph.certify.domain import Domain
    from implgraph.core.concrete import ConcreteTable
    domain = Domain({**cert, "domain": [*(cert.get("domain") or []), *(fam.get("domain") or [])]})
    names = _names(cert)
    checked = 0
    for env in domain.points([n for n in ns if n <= _MAX_N]):
        point = {names[k]: sympy.nsimplify(v) for k, v in env.items() if k in names}
        params = [{k: _param_at(v, names, point) for k, v in ((cert.get(s) or {}).get("params") or {}).items()}
                  for s in ("A", "B")]
        kv = int(sympy.sympify(k).xreplace(point)) if k is not None else None
        rows, classes = _rows(kind, env["N"], point[_T], kv)
        table = ConcreteTable.from_fractions(rows, classes=classes)
        ra, rb = _level(a, table, params[0]), _level(b, table, params[1])
        u = sympy.sympify(U).xreplace(point)
        if ra is None or sympy.nsimplify(ra) < point[_T] or rb is None or sympy.nsimplify(rb) != u:
            return [("A meets T and B's registered level is U on the family", False,
                     f"at {env}: A {ra}, B {rb}, U {u}")]
        checked += 1
    return [("A meets T and B's registered level is U on the family's table (exact)", checked > 0,
             f"{checked} points, N = 2..{min(max(ns), _MAX_N)}")]


def _param_at(v, names, point):
    """A side's parameter at a sampled point: an integer, or a word (``ground=equal``) as it is."""
    text = str(v)
    if text.isidentifier() and text not in names:
        return text
    return int(parse_expr(text, names).xreplace(point))


def _same_u(U, want, k) -> bool:
    """U is the registry's value for every T, N (and k): identical, or their difference folds and simplifies to 0;
    and, as a guard, equal at sampled T, N (and k), exactly."""
    if U != want and sympy.simplify(sympy.piecewise_fold(U - want)) != 0:
        return False
    grid = [Fraction(1, 2), 1, Fraction(5, 4), Fraction(3, 2), 2, Fraction(7, 3), 3, 5]
    syms = [s for s in (U.free_symbols | want.free_symbols) if s not in (_T, _N)]
    for t in grid:
        for n in range(2, 9):
            for kv in (range(1, 5) if syms else [None]):
                at = {_T: sympy.nsimplify(t), _N: n, **({s: kv for s in syms} if kv else {})}
                if sympy.simplify(U.xreplace(at) - want.xreplace(at)) != 0:
                    return False
    return True


def describe(cert) -> list:
    """The certificate in words."""
    kind = (cert.get("family") or {}).get("kind")
    return [f"{(cert.get('A') or {}).get('definition')} => {(cert.get('B') or {}).get('definition')}: U = "
            f"{cert.get('upper')}, read off the class floor above the weakest level ({kind})"]


@lemma(methods.FLOOR_LEVEL, describe=describe,
       every_partition="read off the class floor and the level it is there: whatever the partition")
def check(cert, ns=range(2, 13), timeout_ms=4000):
    """Re-check a floor-level certificate (see the module notes)."""
    from implgraph.certify.registered import registered
    with lemma_steps(cert) as steps:
        a, b = (registered((cert.get(k) or {}).get("definition")) for k in ("A", "B"))
        found = None if a is None or b is None else expected(cert, a, b)
        fam = cert.get("family") or {}
        steps.append(("the family's kind is the one the registered declarations give", found is not None and
                      fam.get("kind") == found[0], f"{fam.get('kind')} against {found and found[0]}"))
        if found is None or not all(s[1] for s in steps):
            return steps_report(steps)
        kind, want, k, where = found
        U = parse_expr(str(cert.get("upper")), _names(cert))
        steps.append((f"U is the registry's {want}", _same_u(U, want, k), f"U = {U}"))
        steps.append(("the supremum is claimed (tight)", cert.get("tight") is True, str(cert.get("tight"))))
        if kind in ("same", "floor", "share"):
            steps.append(("the domain puts T above A's weakest level (there the floor holds)",
                          _above_weakest(cert, a), str(cert.get("domain"))))
        own = [parse_condition(str(t), _names(cert)) for t in fam.get("domain") or []]
        steps.append(("the family's own domain holds only the registry's conditions",
                      all(c == where or getattr(c, "canonical", c) == getattr(where, "canonical", where)
                          for c in own), str(fam.get("domain"))))
        if all(s[1] for s in steps):
            steps += _sampled(cert, fam, kind, a, b, U, ns, k)
    return steps_report(steps)
