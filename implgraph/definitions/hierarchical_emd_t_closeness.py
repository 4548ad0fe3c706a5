"""t-closeness with the earth mover's distance under a hierarchical ground distance (N. Li, T. Li,
S. Venkatasubramanian, t-closeness: privacy beyond k-anonymity and l-diversity, ICDE 2007,
Section 4.2, "EMD for categorical attributes", hierarchical distance).

The sensitive values (buckets 1..p) are the leaves of a hierarchy whose leaves all lie at depth H;
the ground distance of two values is ``level(v1, v2) / H``, the height of their lowest common
ancestor over H. That is the path metric of the tree with every edge of length ``1 / (2H)``, so the
EMD between the table's distribution P and a class's Q is ``(1 / (2H)) sum_v |sum_{l under v} (q_l -
p_l)|`` over the nodes v other than the root (the net mass crossing each edge), a maximum over sign
vectors of linear forms (``lf_terms``). The level is the largest EMD of a class; undefined (None)
without classes.

The parameter ``ground`` is ``equal`` (one level: every value under the root, the equal ground
distance) or the hierarchy in nested parentheses of bucket numbers, e.g. ``((1 2)(3 4))``.
"""

from __future__ import annotations

import itertools
import re
from fractions import Fraction

import sympy

from implgraph.core.errors import InputError
from implgraph.definitions._classes import class_means, largest_class_distance, table_means
from implgraph.definitions.capabilities import ClassDistance
from implgraph.definitions.base import Definition, register
from implgraph.definitions.families import Form, LFModel, Term
from implgraph.core.simplified import simplified

__all__ = ["HierarchicalEMDTCloseness", "parse_hierarchy", "edge_sets"]


def parse_hierarchy(text: str):
    """``((1 2)(3 4))`` as nested tuples of 0-based bucket indices; ``equal`` as None (flat)."""
    text = str(text).strip()
    if text == "equal":
        return None
    tokens = re.findall(r"\(|\)|\d+|\S", text)
    pos = 0

    def node():
        nonlocal pos
        tok = tokens[pos]
        pos += 1
        if tok.isdigit():
            return int(tok) - 1
        if tok != "(":
            raise ValueError(tok)
        kids = []
        while tokens[pos] != ")":
            kids.append(node())
        pos += 1
        return tuple(kids)

    try:
        tree = node()
        if pos != len(tokens) or not isinstance(tree, tuple):
            raise ValueError(text)
    except (ValueError, IndexError):
        raise InputError(f"hierarchy {text!r} is not nested parentheses of bucket numbers",
                         fix="write e.g. ground=((1 2)(3 4)) or ground=equal") from None
    return tree


def _depths(tree, depth=0):
    if isinstance(tree, int):
        return {depth}
    return set().union(*(_depths(c, depth + 1) for c in tree)) if tree else {depth}


def _leaves(tree):
    return (tree,) if isinstance(tree, int) else tuple(x for c in tree for x in _leaves(c))


def edge_sets(tree, p):
    """(H, [leaf sets of the non-root nodes]) of a hierarchy over ``p`` buckets (InputError if it is not one)."""
    if tree is None:
        tree = tuple(range(p))
    depths = _depths(tree)
    if len(depths) != 1 or sorted(_leaves(tree)) != list(range(p)):
        raise InputError(f"the hierarchy must have the buckets 1..{p} as leaves, each once, all at the same depth",
                         fix="write e.g. ground=((1 2)(3 4)) for four buckets")
    sets = []

    def walk(t):
        for c in t:
            sets.append(_leaves(c))
            if not isinstance(c, int):
                walk(c)
    walk(tree)
    return depths.pop(), sets


@register
class HierarchicalEMDTCloseness(Definition):
    name = "hierarchical-emd-t-closeness"
    title = "t-closeness (EMD, hierarchical ground distance)"
    level_symbol = "t"
    scale = "distance"
    stronger = "smaller"
    #: the flat hierarchy (``equal``: every value under the root, H = 1) gives the total variation distance
    declares = (ClassDistance("total-variation", where={"ground": "equal"}),)
    model = "closeness"
    params = {"ground": "the hierarchy of the values: equal (flat) or nested parentheses, e.g. ((1 2)(3 4))"}
    words = {"ground": "equal"}
    reference = ("Li, Li, Venkatasubramanian, t-closeness: privacy beyond k-anonymity and l-diversity, ICDE 2007, "
                 "Section 4.2 (hierarchical distance)")
    label_format = "t-closeness (hierarchical EMD)"

    def check_params(self, table, params):
        params = dict(params)
        params.setdefault("ground", "equal")
        extra = set(params) - {"ground"}
        if extra:
            raise InputError(f"{self.name} has no parameter(s) {', '.join(sorted(extra))}",
                             fix="its only parameter is ground")
        tree = parse_hierarchy(params["ground"])
        if table is not None:
            edge_sets(tree, table.p)
        return {"ground": str(params["ground"])}

    def symbolic(self, ctx, table, ground="equal"):
        if not table.has_classes:
            return None
        H, sets = edge_sets(parse_hierarchy(ground), table.p)
        P = table_means(table)
        worst = sympy.Integer(0)
        for Q in class_means(table):
            d = [simplified(Q[l] - P[l]) for l in range(table.p)]
            emd = sum((ctx.abs(simplified(sum((d[l] for l in S), sympy.Integer(0)))) for S in sets),
                      sympy.Integer(0)) / (2 * H)
            worst = ctx.max([worst, simplified(emd)])
        return worst

    def concrete(self, ct, ground="equal"):
        H, sets = edge_sets(parse_hierarchy(ground), ct.p)
        return largest_class_distance(ct, sets, 2 * H)

    def lf_terms(self, N, sizes, p, ground="equal"):
        if not sizes:
            return None
        H, sets = edge_sets(parse_hierarchy(ground), p)
        one = Form((), Fraction(1))
        terms, start = [], 0
        for size in sizes:
            E = range(start, start + size)
            start += size
            parts = []
            for S in sets:
                coef = {}
                for l in S:
                    for i in E:
                        coef[(i, l)] = coef.get((i, l), 0) + Fraction(1, size)
                    for i in range(N):
                        coef[(i, l)] = coef.get((i, l), 0) - Fraction(1, N)
                parts.append(coef)
            for signs in itertools.product((1, -1), repeat=len(parts)):
                tot = {}
                for s, part in zip(signs, parts):
                    for key, v in part.items():
                        tot[key] = tot.get(key, 0) + s * v / (2 * H)
                terms.append(Term(Form(tuple(sorted((i, l, c) for (i, l), c in tot.items() if c))), one))
        return LFModel(terms, Fraction(0))
