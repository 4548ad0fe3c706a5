"""The checker of ``inequality-lemmas`` certificates: a chain of textbook inequalities between class levels.

A certificate of this kind says that B's optimal level is at least ``f`` of A's on every table with classes
(every N, every number of buckets, every partition), because a chain of inequalities holds for the class
distribution ``q`` of every class (its buckets' mean frequencies) and ``f`` is nondecreasing, so it commutes
with the minimum over classes. The checker trusts the facts below (each with its reference, as
:mod:`implgraph.certify.kernel` trusts its lemmas) and nothing the prover computed:

``shannon>=min-entropy``
    ``exp(H(q)) >= 1 / max q``: the weighted geometric mean of the ``q_i`` (weights ``q_i``) is at most their
    maximum (Renyi 1961: Renyi entropies are nonincreasing in their order).
``support>=shannon``
    ``|{i : q_i > 0}| >= exp(H(q))`` (Cover & Thomas 2006, Theorem 2.6.4), and the support size is an integer,
    so it is at least the ceiling.
``shannon>=capped``
    ``exp(H(q)) >= g(1 / max q)``, ``g(x) = x^(n/x) (1 - n/x)^(-(1 - n/x))``, ``n = floor(x)``: the entropy of the
    capped distribution (``n`` values at ``1/x``, one at ``1 - n/x``), the least on the polytope
    ``{0 <= q_i <= 1/x, sum q_i = 1}`` (a concave function's minimum is at a vertex; Marshall, Olkin, Arnold
    2011, 3.D), with ``g`` nondecreasing.
``support>=min-entropy``
    ``|{i : q_i > 0}| >= 1 / max q`` (``1 = sum q_i <= k max q``), and the support size is an integer.

The certificate describes A and B by their class levels (``class_level``: ``min-entropy`` for
frequency l-diversity's 1/max q, ``shannon`` for entropy l-diversity's exp(H), ``support`` for distinct
l-diversity's count), as a ratio certificate describes them by their family; the checker reads each
named definition's declared class level from the registry (the ``ClassLevel`` formula of a generic class)
and checks that it is the one described, then checks the rest.
It checks that the first fact assumes A's class level and the last one bounds B's, that the facts chain
(each one's level is the next one's hypothesis), that the certificate's ``f``
is their composition (``x``, ``ceiling(x)`` or ``capped(x)``, each nondecreasing), and the tightness family:
tables whose records are all uniform over ``m`` buckets, or all the capped distribution at A's level, whose
levels it computes itself, exactly, attain ``f`` at every sampled level (``tight_where: every``: A's level
``a``, ``m = ceiling(a)``) or at every integer level (``integer``). ``exp(H)`` of a distribution of rational
values is ``prod_i q_i^(-q_i)``, a product of primes to rational powers, compared exactly by its exponents
(unique factorization); ``g(a)`` at a rational ``a`` is one too.

Examples
--------
>>> cert = {"format": "implgraph-certificate/1", "method": "inequality-lemmas",
...         "A": {"definition": "frequency-l-diversity", "class_level": "min-entropy"},
...         "B": {"definition": "distinct-l-diversity", "class_level": "support"},
...         "steps": ["shannon>=min-entropy", "support>=shannon"], "f": "ceiling(x)", "tight": True,
...         "tightness": {"uniform": True, "where": "every"}}
>>> check(cert).ok
True
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction

import sympy

__all__ = ["FACTS", "check", "class_levels", "compose"]

#: fact -> (the class level it assumes, the class level it bounds, the map applied: "x", "ceiling(x)" or
#: "capped(x)")
FACTS = {
    "shannon>=min-entropy": ("min-entropy", "shannon", "x"),
    "support>=shannon": ("shannon", "support", "ceiling(x)"),
    "shannon>=capped": ("min-entropy", "shannon", "capped(x)"),
    "support>=min-entropy": ("min-entropy", "support", "ceiling(x)"),
}

#: A's levels at which the family is checked (``every``: these; ``integer``: the integers among them)
LEVELS = [Fraction(n, d) for n, d in ((1, 1), (5, 4), (3, 2), (2, 1), (5, 2), (3, 1), (10, 3), (4, 1), (5, 1))]


def _declares(name, kind) -> bool:
    """Does the registered definition ``name`` declare the class level ``kind`` (``1/max q``, ``exp(H(q))`` or the
    number of values ``k``, for a generic class over ``k`` values)? Read from the registry, not the certificate."""
    from implgraph.certify.registered import registered
    from implgraph.definitions.capabilities import ClassLevel
    d = registered(name)
    declared = None if d is None else d.declared(ClassLevel)
    if declared is None:
        return False
    return _declares_formula(declared.formula, kind)


@functools.lru_cache(maxsize=256)
def _declares_formula(declare, kind) -> bool:
    """Is the declared class level ``declare`` (a function of a generic class) the class level ``kind``? Remembered
    per declared function: the question is asked of the same definition for many pairs."""
    from implgraph.definitions._classes import GenericClass
    cls = GenericClass()
    want = {"min-entropy": 1 / cls.top, "support": cls.k,
            "shannon": sympy.exp(-sympy.Sum(cls.q[cls.i] * sympy.log(cls.q[cls.i]), (cls.i, 1, cls.k)))}.get(kind)
    if want is None:
        return False
    try:
        return sympy.simplify(sympy.sympify(declare(cls)) - want) == 0
    except (TypeError, ValueError):
        return False


def _capped(x: Fraction) -> list:
    """The capped distribution at level ``x >= 1``: ``floor(x)`` values at ``1/x`` and one at ``1 - floor(x)/x``
    (when positive)."""
    n = math.floor(x)
    rest = 1 - Fraction(n) / x
    return [1 / x] * n + ([rest] if rest else [])


def _exponents(v: Fraction) -> dict:
    """``{prime: exponent}`` of a positive rational (integer exponents, negative for the denominator)."""
    exps = {p: k for p, k in sympy.factorint(v.numerator).items()}
    for p, k in sympy.factorint(v.denominator).items():
        exps[p] = exps.get(p, 0) - k
    return exps


def _power_product(q) -> frozenset:
    """``exp(H(q)) = prod_i q_i^(-q_i)`` (positive rational ``q_i``) as its prime exponents ``{(prime, e)}``, e
    rational and nonzero: two such products are equal exactly when these sets are (unique factorization)."""
    exps = {}
    for v in q:
        for p, k in _exponents(v).items():
            exps[p] = exps.get(p, Fraction(0)) - v * k
    return frozenset((p, e) for p, e in exps.items() if e)


def _exact(v) -> frozenset:
    """A level (a Fraction, or a power product) in the power-product form, for exact equality."""
    if isinstance(v, frozenset):
        return v
    return frozenset((p, Fraction(k)) for p, k in _exponents(Fraction(v)).items() if k)


def _apply(f: str, x: Fraction):
    if f == "ceiling(x)":
        return Fraction(math.ceil(x))
    if f == "capped(x)":
        return _power_product(_capped(x))
    return x


def compose(maps) -> str | None:
    """The composition of the facts' maps, applied in order: ``x``, ``ceiling(x)``, ``capped(x)``; None when it
    is none of them (``capped`` followed by another map)."""
    out = "x"
    for m in maps:
        if m == "x" or (m == out == "ceiling(x)"):
            continue
        if out != "x":
            return None
        out = m
    return out


def _class_level(kind: str, q):
    """One class's level of ``kind`` (its bucket frequencies ``q``, Fractions summing to 1): a Fraction, or for
    ``shannon`` on a distribution not uniform on its support the power product of :func:`_power_product`."""
    support = [v for v in q if v > 0]
    if kind == "min-entropy":
        return 1 / max(support)
    if kind == "support":
        return Fraction(len(support))
    if kind == "shannon":
        if len(set(support)) != 1:
            return _power_product(support)
        return Fraction(len(support))
    raise ValueError(f"unknown class level {kind!r}")


def class_levels(kind: str, rows, classes) -> Fraction:
    """A table's level of ``kind``: the minimum over its classes (rows: Fractions; classes: one label per row)."""
    groups = {}
    for row, c in zip(rows, classes):
        groups.setdefault(c, []).append(row)
    levels = []
    for members in groups.values():
        q = [sum(col, Fraction(0)) / len(members) for col in zip(*members)]
        levels.append(_class_level(kind, q))
    if len({_exact(v) for v in levels}) == 1:
        return levels[0]            # (every class alike: no order needed)
    if any(isinstance(v, frozenset) for v in levels):
        raise ValueError("the minimum of irrational class levels is not computed here")
    return min(levels)


def check(cert):
    """Re-check an ``inequality-lemmas`` certificate: a :class:`implgraph.certify.CertificateReport`."""
    from implgraph.certify import CertificateReport
    steps_out = []
    chain = list(cert.get("steps") or [])
    known = bool(chain) and all(s in FACTS for s in chain)
    steps_out.append(("every step is a known fact", known, ", ".join(chain) or "no step"))
    if not known:
        return CertificateReport(False, steps_out)
    for side in ("A", "B"):
        desc = cert.get(side) or {}
        steps_out.append((f"{side}'s registered definition declares the class level described",
                          _declares(desc.get("definition"), desc.get("class_level")),
                          f"{desc.get('definition')}: {desc.get('class_level')}"))
    ends = ((cert.get("A") or {}).get("class_level"), (cert.get("B") or {}).get("class_level"))
    steps_out.append(("A's class level is the first fact's hypothesis, B's the last fact's conclusion",
                      ends == (FACTS[chain[0]][0], FACTS[chain[-1]][1]), f"A, B: {ends[0]}, {ends[1]}"))
    linked = all(FACTS[x][1] == FACTS[y][0] for x, y in zip(chain, chain[1:]))
    steps_out.append(("the facts chain (each bounds the level the next assumes)", linked,
                      " -> ".join([FACTS[chain[0]][0]] + [FACTS[s][1] for s in chain])))
    f = compose([FACTS[s][2] for s in chain])
    steps_out.append((f"f is the composition of the facts' maps ({f}), nondecreasing",
                      f is not None and cert.get("f") == f, f"certificate says {cert.get('f')!r}"))
    if f is None:
        return CertificateReport(False, steps_out)
    if cert.get("tight"):
        steps_out.append(("tightness family attains f", *_family(cert, FACTS[chain[0]][0], FACTS[chain[-1]][1], f)))
    return CertificateReport(all(s[1] for s in steps_out), steps_out)


def _row(a, capped):
    """One record of the family at A's level ``a``: uniform over ``ceiling(a)`` buckets, or the capped
    distribution; at least two buckets."""
    row = _capped(a) if capped else [Fraction(1, math.ceil(a))] * math.ceil(a)
    return row + [Fraction(0)] * max(0, 2 - len(row))


def _family(cert, a_kind, b_kind, f):
    """``(ok, how)``: every record uniform over ``m`` buckets (or the capped distribution), two classes (1 and
    N - 1), N = 2..12."""
    fam = cert.get("tightness") or {}
    where = fam.get("where")
    capped = bool(fam.get("capped"))
    if not (fam.get("uniform") or capped) or where not in ("every", "integer"):
        return False, "no uniform or capped family with where = every or integer"
    levels = LEVELS if where == "every" else [x for x in LEVELS if x.denominator == 1]
    checked = 0
    for a in levels:
        for N in range(2, 13):
            rows = [_row(a, capped)] * N
            classes = ["E1"] + ["E2"] * (N - 1)
            try:
                la, lb = class_levels(a_kind, rows, classes), class_levels(b_kind, rows, classes)
            except ValueError as exc:
                return False, f"the family's levels at N = {N}, a = {a}: {exc}"
            if isinstance(la, frozenset) or la < a:
                return False, f"A's level {la} is not at least {a} at N = {N}"
            if _exact(lb) != _exact(_apply(f, a)):
                return False, f"B's level differs from f({a}) at N = {N}"
            checked += 1
    what = "the capped distribution at a" if capped else "uniform over ceiling(a) buckets"
    return True, (f"A >= a and B = f(a) exactly at {checked} points (levels {', '.join(map(str, levels))}; "
                  f"N = 2..12; every record {what})")
