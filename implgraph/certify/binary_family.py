"""A tightness family of binary rows checked at sampled points with the registry's exact levels, over N, T > 1 and
every integer symbol the certificate declares (a subset size's ``k1``): the lemmas whose U holds a logarithm (which
:mod:`implgraph.certify.family`'s rational evaluator does not read) or whose family reads a parameter's symbol.

The family is ``{"rows": [{"count", "value", "class"}]}``: ``count`` records at ``(value, 1 - value)`` in ``class``
(expressions in N, T and the declared symbols). At each point where every condition of the domain holds, the rows
must be a table of N records, A's registered level at most T and B's declared divergence equal to U (exactly, or to
40 digits where it holds a logarithm of a rational).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import sympy

from implgraph.certify.family import SAMPLE_T
from implgraph.certify.pointwise import level_number, truth, value_at
from implgraph.core.formula import parse_expr

__all__ = ["sampled_rows_step", "SLACK_T"]


def _point(cert, read, rows, div, env):
    """``''`` where the family at ``env`` is a table with A's registered level <= T and B's level U, else why not."""
    from implgraph.certify.kernel import registered
    from implgraph.core.concrete import INF, ConcreteTable
    N, T = read["N"], read["T"]
    table, classes = [], []
    for count, value, label in rows:
        c, x = value_at(count, env), value_at(value, env)
        if not (c.is_Integer and c >= 0 and x.is_Rational and 0 <= x <= 1):
            return f"at {env}: a row is no record ({c} x {x})"
        xf = Fraction(int(x.p), int(x.q))
        table += [[xf, 1 - xf]] * int(c)
        classes += [label] * int(c)
    if len(table) != env[N]:
        return f"at {env}: {len(table)} records"
    params = {k: value_at(v, env) for k, v in read["params"].items()}
    if read["a_div"] is not None:       # A declares a divergence: its level is that divergence's
        ra = read["a_div"].level([list(r) for r in table], classes)
    else:
        ra = registered(cert["A"]["definition"]).concrete(ConcreteTable.from_fractions(table, classes=classes),
                                                          **params)
    rb = div.level([list(r) for r in table], classes)
    if ra is None or ra == INF or rb is None or rb == INF:
        return f"at {env}: a level is undefined or infinite ({ra}, {rb})"
    upper = value_at(read["upper"], env)
    ra_s, rb_s = (level_number(x) for x in (ra, rb))
    same = abs(sympy.N(rb_s - upper, 50)) < 1e-40
    if not (ra_s <= env[T]) or not same:
        return f"at {env}: A's raw level {ra}, B's {rb_s} against U = {upper}"
    return ""


#: the levels T sampled where A's raw level is a slack (a hockey-stick's or total variation's delta, in [0, 1])
SLACK_T = ("0", "1/10", "1/4", "1/2", "3/4", "1")


def sampled_rows_step(cert, names, fam, div, rels, ns, levels=None):
    """The step "the family attains U" at every sampled N in ``ns``, T in ``levels`` (default: the sampled ratios
    above 1) and value 0..N of each integer symbol of ``names`` other than N, where every relation of ``rels`` (the
    domain) holds.

    ``names`` maps the certificate's names to its symbols (``T``, ``N`` and the declared ones); ``div`` is B's
    registered :class:`~implgraph.definitions.divergences.Divergence`."""
    def read_(text):
        return parse_expr(str(text), names)
    rows = [(read_(r["count"]), read_(r["value"]), str(r.get("class"))) for r in fam.get("rows") or []]
    # read once: U and A's parameters (a number, or a declared symbol's value at each point)
    from implgraph.certify.kernel import registered
    from implgraph.definitions.divergences import divergence_of
    A = cert.get("A") or {}
    read = {"upper": read_(cert["upper"]), "N": names["N"], "T": names["T"],
            "params": {k: read_(v) for k, v in (A.get("params") or {}).items()},
            "a_div": divergence_of(registered(A["definition"]), A.get("params"))}
    others = sorted((v for k, v in names.items() if k not in ("T", "N") and v.is_integer), key=str)
    tried, bad = 0, []
    for n in ns:
        for values in itertools.product(range(0, n + 1), repeat=len(others)):
            for t in (sympy.Rational(x) for x in levels or [x for x in SAMPLE_T if sympy.Rational(x) > 1]):
                env = {names["N"]: sympy.Integer(n), names["T"]: t, **dict(zip(others, map(sympy.Integer, values)))}
                if not all(truth(value_at(rel, env)) for rel in rels):
                    continue
                tried += 1
                why = _point(cert, read, rows, div, env)
                if why:
                    bad.append(why)
    return (f"the family attains U at {tried} sampled points (N, T, the size's symbols)", tried > 0 and not bad,
            "; ".join(bad[:3]) or "exact levels of the registry")
