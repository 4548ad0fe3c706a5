"""The tightness family of a certificate: a table family that attains U, checked exactly at sampled points.

A family is blocks of equal binary rows ``{"count", "value", "class"}`` (expressions in N, T and the parameters), or
blocks of records uniform over values of their own ``{"count", "values", "class"}`` (``uniform_blocks``: as many
buckets as the blocks' values), evaluated at every point of the domain with the sampled N, every integer parameter
and a grid of levels; the exact levels (:mod:`implgraph.certify.levels`, from the definitions, computed on the
blocks without expanding them) must give A <= T (A >= T for a level that is a class size or a uniform class's
number of values, larger is stronger) and B = U. A family may ``split`` each bucket into m equal buckets (an
expression, e.g. ``3**ceiling(T)``): ratios and distances do not change, and a level with an ``increase_cap`` reads
the smaller masses. A family's own ``domain`` may restrict where it is checked only by the conditions the registry
gives (:func:`_unlicensed_conditions`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction

from implgraph.certify.domain import Domain
from implgraph.certify.expr import Unreadable, read_sympy
from implgraph.certify.levels import INF, blocks_table, larger_is_stronger, level, uniform_table
from implgraph.certify.registered import declared_family, declared_sides, registered

__all__ = ["check_family", "family_step", "sampled_family_step"]


def check_family(cert, domain, ns):
    """``(ok, how)``: the tightness family at every sampled point of the domain (and of the family's own ``domain``,
    the levels where it exists: the checker's obligation is then only there, and its answer says so)."""
    fam = cert.get("tightness") or {}
    if fam.get("domain"):
        unknown = _unlicensed_conditions(cert, fam["domain"])
        if unknown:
            return False, (f"the family's own domain {', '.join(unknown)} is not a condition the registry gives for "
                           "A's family (where a uniform class meets T) or two classes of A's size")
        domain = Domain({**cert, "domain": [*cert.get("domain", []), *fam["domain"]]})
    uniform = bool(fam.get("uniform_blocks")) and not fam.get("blocks")
    blocks = fam.get("uniform_blocks") if uniform else fam.get("blocks")
    if not blocks:
        return False, "no table family given"
    setting = _read(cert, domain.reader, fam, uniform, blocks)
    checked, seen, done = 0, {}, set()
    for env in domain.points(ns):
        where = tuple(env[n] for n in setting.used)
        if where in done:
            continue
        done.add(where)
        fault = _fault_at(setting, env, seen)
        if fault:
            return False, fault
        checked += 1
    if not checked:
        return False, "no point of the domain was sampled"
    where = f", where {' and '.join(fam['domain'])}" if fam.get("domain") else ""
    return True, (f"A {'>=' if setting.larger else '<='} T and B = U exactly at {checked} points (N = {min(ns)}.."
                  f"{max(ns)}, levels {', '.join(map(str, domain.t_grid))}{where})")


@dataclass
class _Setting:
    """The family and the sides, read once (the functions of a point)."""

    upper: object
    parsed: list
    split: object
    sides: list
    sizes: list
    class_limits: list
    used: list
    described: tuple
    larger: bool
    uniform: bool
    singleton: bool


def _read(cert, rd, fam, uniform, blocks) -> _Setting:
    """The family's blocks, split, sides, subset sizes and class limits as functions of a point."""
    field_ = "values" if uniform else "value"
    upper = rd.function(cert["upper"])
    parsed = [(rd.function(b["count"]), rd.function(b[field_]), b.get("class")) for b in blocks]
    texts = [cert["upper"], *(b[k] for b in blocks for k in ("count", field_))]
    # each bucket split into m equal buckets (a number at each point; ratios and distances do not change)
    split = rd.function(str(fam["split"])) if fam.get("split") is not None else None
    texts += [str(fam["split"])] if split is not None else []
    sides = [_effective(cert["A"]), _effective(cert["B"])]
    sizes = []
    for d in (cert["A"], cert["B"]):
        sizes.append(None if d.get("size") is None else rd.function(d["size"]))
        texts += [d["size"]] if d.get("size") is not None else []
    # the classes' sizes the sides allow (a class side: at least min_class, at most max_class records)
    class_limits = [(rd.function(str(d.get("min_class", "1"))),
                     None if d.get("max_class") is None else rd.function(str(d["max_class"])))
                    for d in (cert["A"], cert["B"]) if d.get("family") == "class"]
    texts += [str(d[k]) for d in (cert["A"], cert["B"]) if d.get("family") == "class"
              for k in ("min_class", "max_class") if d.get(k) is not None]
    # the check at a point depends only on these names: points differing elsewhere are one check
    used = sorted(frozenset({"N", "T"}).union(*(rd.names_in(t) for t in texts)))
    # each side's level is memoised by its whole description (any field may change it)
    described = tuple(json.dumps(cert[k], sort_keys=True, default=str) for k in ("A", "B"))
    # a class size, or a uniform class's level increasing in its number of values: larger is stronger
    return _Setting(upper, parsed, split, sides, sizes, class_limits, used, described, larger_is_stronger(cert["A"]),
                    uniform, bool(fam.get("singleton_classes")))


def _table(s: _Setting, env):
    """``(evaluated blocks, table, j_A, j_B)`` at the point ``env`` (ValueError: not a table there)."""
    evald = []
    for count, value, label in s.parsed:
        c = count(env)
        if c.denominator != 1:
            raise ValueError(f"block size {c} is not an integer")
        evald.append((int(c), None if c == 0 else value(env), label))
    table = uniform_table(evald) if s.uniform else blocks_table(evald, singleton_classes=s.singleton)
    ja, jb = (None if f is None else f(env) for f in s.sizes)
    if any(j is not None and j.denominator != 1 for j in (ja, jb)):
        raise ValueError(f"a subset size ({ja}, {jb}) is not an integer")
    return evald, table, ja, jb


def _fault_at(s: _Setting, env, seen) -> str:
    """Why the family fails at the point ``env`` ('' where A's level meets T and B's is U there)."""
    try:
        evald, table, ja, jb = _table(s, env)
    except (ValueError, ZeroDivisionError, TypeError) as exc:
        return f"the family is not a table at {_pt(env)}: {exc}"
    if sum(c for c, _, _ in table) != env["N"]:
        return f"the family has {sum(c for c, _, _ in table)} rows, not N, at {_pt(env)}"
    bad = _partition_fault(table, s.class_limits, env)
    if bad:
        return f"{bad} at {_pt(env)}"
    try:
        m = 1 if s.split is None else s.split(env)
        if Fraction(m).denominator != 1 or m < 1:
            raise ValueError(f"split {m} is not a positive integer")
    except (ValueError, ZeroDivisionError, TypeError) as exc:
        return f"the family is not a table at {_pt(env)}: {exc}"
    key = tuple(evald)
    a, b = (_memo(seen, (described, j, s.uniform, key, m), lambda: level(side, table, j, split=int(m)))
            for side, described, j in zip(s.sides, s.described, (ja, jb)))
    t, u = env["T"], s.upper(env)
    if s.larger:      # A holds at T where its level is >= T
        if a < t:
            return f"A's level {a} is below T = {t} at {_pt(env)}"
    elif a == INF or a > t:
        return f"A's level {a} exceeds T = {t} at {_pt(env)}"
    if b != u:
        return f"B's level {b} differs from U = {u} at {_pt(env)}"
    return ""


def family_step(cert, ns):
    """The step of a composite certificate's tightness claim: its family, with the certificate's own sides."""
    from implgraph.certify import UNREADABLE
    try:
        ok, how = check_family(cert, Domain(cert), ns)
    except UNREADABLE as exc:
        ok, how = False, f"{exc.__class__.__name__}: {exc}"
    return "tightness family attains U", ok, how


def _effective(side):
    """A side whose level is another definition's where a cap on each increase holds (``finite_level_of`` with
    ``increase_cap``): described by that definition's registered family and sides, with the cap (the checker's
    level then applies both, :mod:`implgraph.certify.levels`); any other side as it is."""
    if side.get("increase_cap") is None:
        return side
    d = registered(side.get("finite_level_of"))
    if d is None:
        raise ValueError(f"a capped level of {side.get('finite_level_of')!r}, which is not registered here")
    return {**side, "family": declared_family(d), "sides": declared_sides(d)}


def _unlicensed_conditions(cert, conditions) -> list:
    """The conditions of a family's own ``domain`` that neither the registry nor the partition licenses: only where
    A's registered uniform class level meets T (:func:`implgraph.definitions.class_bounds.uniform_values`) and, for
    A's smallest class s > 1, ``2 s <= N`` (two classes of >= s records) may restrict where the family is checked;
    anything else would let a certificate hide the levels where its tightness fails."""
    import sympy
    from implgraph.definitions.class_bounds import uniform_values
    A = cert.get("A") or {}
    names = {"N": sympy.Symbol("N", integer=True), "T": sympy.Symbol("T", positive=True)}
    for name, kind in (cert.get("symbols") or {}).items():
        names.setdefault(name, sympy.Symbol(name, integer=kind == "integer", real=True))

    def read(text):
        return read_sympy(text, {str(k): v for k, v in names.items()})
    allowed = []
    d = registered(A.get("definition")) if A.get("uniform_class_level") else None
    found = uniform_values(d, names["T"]) if d is not None else None
    if found is not None and found[1] is not sympy.true:
        allowed += list(found[1].args) if isinstance(found[1], sympy.And) else [found[1]]
    s_ = A.get("min_class")
    if s_ is not None and str(s_) != "1":
        allowed.append(read(f"2*({s_}) <= N"))
    out = []
    for c in conditions:
        try:
            rel = read(c)
        except (Unreadable, TypeError, SyntaxError):
            out.append(str(c))
            continue
        if not any(rel == a or sympy.simplify(rel.lhs - rel.rhs - (a.lhs - a.rhs)) == 0 and rel.rel_op == a.rel_op
                   for a in allowed if isinstance(a, sympy.core.relational.Relational)
                   and isinstance(rel, sympy.core.relational.Relational)):
            out.append(str(c))
    return out


def _partition_fault(table, class_limits, env):
    """Why the family's classes are not a partition the sides allow (>= 2 classes, each within every class
    side's size limits), or ''."""
    if not class_limits:
        return ""
    sizes = {}
    for count, _, label in table:
        sizes[label] = sizes.get(label, 0) + count
    if len(sizes) < 2:
        return "the family has fewer than 2 classes"
    for lo, hi in class_limits:
        if min(sizes.values()) < lo(env) or (hi is not None and max(sizes.values()) > hi(env)):
            return f"the family's class sizes {sorted(sizes.values())} are outside a side's limits"
    return ""


def _memo(cache, key, compute):
    if key not in cache:
        cache[key] = compute()
    return cache[key]


def _pt(env):
    return ", ".join(f"{k} = {v}" for k, v in sorted(env.items()))


#: the levels T at which :func:`sampled_family_step` checks a family
SAMPLE_T = ("1", "5/4", "3/2", "2", "3", "5")


def sampled_family_step(cert, fam, ns, at, read_domain):
    """The step "the family attains U" at every sampled (N, T) where the family's domain and the certificate's hold:
    ``at(T, N) -> (ok, how)`` checks one point (T in {1, 5/4, 3/2, 2, 3, 5}, N in ``ns``); ``read_domain(cert, texts)``
    reads the conditions over T and N (the lemma's own reader)."""
    import sympy
    T, N = sympy.Symbol("T", positive=True), sympy.Symbol("N", integer=True, positive=True)
    where = read_domain(cert, [*(fam.get("domain") or []), *(cert.get("domain") or [])])
    tried, bad = 0, []
    for n in ns:
        for t in map(sympy.Rational, SAMPLE_T):
            if not all(bool(c.subs({T: t, N: n})) for c in where):
                continue
            tried += 1
            ok, how = at(t, n)
            if not ok:
                bad.append(how)
    return (f"the family attains U at {tried} points (N, T)", tried > 0 and not bad,
            "; ".join(bad[:3]) or "exact levels of the registry")
