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

The certificate describes A and B by their class levels (``class_level``: ``min-entropy`` for
frequency l-diversity's 1/max q, ``shannon`` for entropy l-diversity's exp(H), ``support`` for distinct
l-diversity's count), as a ratio certificate describes them by their family: the checker trusts that
description (the prover derives it from the definitions' declared class levels) and checks the rest.
It checks that the first fact assumes A's class level and the last one bounds B's, that the facts chain
(each one's level is the next one's hypothesis), that the certificate's ``f``
is their composition (``x`` or ``ceiling(x)``, both nondecreasing), and the tightness family: tables whose
records are all uniform over ``m`` buckets, whose levels it computes itself (``exp(H)`` exactly only on a
distribution uniform on its support, where it is the support size), attain ``f`` at every sampled level
(``tight_where: every``: A's level ``a``, ``m = ceiling(a)``) or at every integer level (``integer``).

Examples
--------
>>> cert = {"format": "implgraph-certificate/1", "method": "inequality-lemmas",
...         "A": {"class_level": "min-entropy"}, "B": {"class_level": "support"},
...         "steps": ["shannon>=min-entropy", "support>=shannon"], "f": "ceiling(x)", "tight": True,
...         "tightness": {"uniform": True, "where": "every"}}
>>> check(cert).ok
True
"""

from __future__ import annotations

import math
from fractions import Fraction

__all__ = ["FACTS", "check", "class_levels"]

#: fact -> (the class level it assumes, the class level it bounds, the map applied: "x" or "ceiling(x)")
FACTS = {
    "shannon>=min-entropy": ("min-entropy", "shannon", "x"),
    "support>=shannon": ("shannon", "support", "ceiling(x)"),
}

#: A's levels at which the family is checked (``every``: these; ``integer``: the integers among them)
LEVELS = [Fraction(n, d) for n, d in ((1, 1), (5, 4), (3, 2), (2, 1), (5, 2), (3, 1), (10, 3), (4, 1), (5, 1))]


def _apply(f: str, x: Fraction) -> Fraction:
    return Fraction(math.ceil(x)) if f == "ceiling(x)" else x


def _compose(maps) -> str:
    return "ceiling(x)" if "ceiling(x)" in maps else "x"


def _class_level(kind: str, q) -> Fraction:
    """One class's level of ``kind`` (its bucket frequencies ``q``, Fractions summing to 1)."""
    support = [v for v in q if v > 0]
    if kind == "min-entropy":
        return 1 / max(support)
    if kind == "support":
        return Fraction(len(support))
    if kind == "shannon":
        if len(set(support)) != 1:
            raise ValueError("exp(H) is computed exactly only on a distribution uniform on its support")
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
    ends = ((cert.get("A") or {}).get("class_level"), (cert.get("B") or {}).get("class_level"))
    steps_out.append(("A's class level is the first fact's hypothesis, B's the last fact's conclusion",
                      ends == (FACTS[chain[0]][0], FACTS[chain[-1]][1]), f"A, B: {ends[0]}, {ends[1]}"))
    linked = all(FACTS[x][1] == FACTS[y][0] for x, y in zip(chain, chain[1:]))
    steps_out.append(("the facts chain (each bounds the level the next assumes)", linked,
                      " -> ".join([FACTS[chain[0]][0]] + [FACTS[s][1] for s in chain])))
    f = _compose([FACTS[s][2] for s in chain])
    steps_out.append((f"f is the composition of the facts' maps ({f}), nondecreasing", cert.get("f") == f,
                      f"certificate says {cert.get('f')!r}"))
    if cert.get("tight"):
        steps_out.append(("tightness family attains f", *_family(cert, FACTS[chain[0]][0], FACTS[chain[-1]][1], f)))
    return CertificateReport(all(s[1] for s in steps_out), steps_out)


def _family(cert, a_kind, b_kind, f):
    """``(ok, how)``: every record uniform over ``m`` buckets, two classes (1 and N - 1), N = 2..12."""
    fam = cert.get("tightness") or {}
    where = fam.get("where")
    if not fam.get("uniform") or where not in ("every", "integer"):
        return False, "no uniform family with where = every or integer"
    levels = LEVELS if where == "every" else [x for x in LEVELS if x.denominator == 1]
    checked = 0
    for a in levels:
        m = math.ceil(a)
        for N in range(2, 13):
            rows = [[Fraction(1, m)] * m + [Fraction(0)] * (max(m, 2) - m)] * N
            classes = ["E1"] + ["E2"] * (N - 1)
            la, lb = class_levels(a_kind, rows, classes), class_levels(b_kind, rows, classes)
            if la < a:
                return False, f"A's level {la} is weaker than {a} at N = {N}, m = {m}"
            if lb != _apply(f, a):
                return False, f"B's level {lb} differs from f({a}) = {_apply(f, a)} at N = {N}, m = {m}"
            checked += 1
    return True, (f"A >= a and B = f(a) exactly at {checked} points (levels {', '.join(map(str, levels))}; "
                  "N = 2..12; every record uniform over ceiling(a) buckets)")
