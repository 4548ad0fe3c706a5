"""``same-level``: B's raw level is A's on every table (docs/arguments/same-level.md).

A and B are the same definition with the same parameters, or declare the same raw level (both two-sided pairwise, or
both two-sided class levels on the same partition, without parameters): ``U = T``; tight for a two-sided ratio of
averages, whose every level T is some table's, an upper bound for another level (e.g. a distance, at most (N - 1)/N at
N records). A two-sided ratio of averages bounds the one-sided one over the same record sets (B's ratios are some of
A's): ``U = T`` again, an upper bound (not claimed tight: a one-sided level has a ceiling A's has not).
"""

from __future__ import annotations

import sympy

from implgraph.core import methods
from implgraph.prover.answer import Bound, T
from implgraph.prover.parts import lemma_only, level_T
from implgraph.prover.registry import argument, certificate_parts
from implgraph.prover.shapes import compares, declared_subset_size, one_sided, same_value

METHOD = methods.SAME_LEVEL


def _same_definition(ctx):
    """A and B are one definition (compared as objects of the registry, by their name) at the same parameters."""
    return ctx.a.name == ctx.b.name and all(same_value(ctx.a_params[k], ctx.b_params.get(k, 0)) for k in ctx.a_params) \
        and not ctx.a_classes and not ctx.b_classes


@argument(METHOD, order=20, applies=_same_definition)
def same_definition(ctx):
    """Same definition, same parameters."""
    # every level T is some table's exactly for a two-sided ratio of averages (the family of U = T);
    # a distance, a count or an entropy takes a bounded or discrete set of values at each N
    ratio = any(compares(ctx.a, fam) for fam in ("pairwise", "subset", "class"))
    return Bound(T, ratio, METHOD.name,
                 "A and B are the same definition with the same parameters: a table satisfying it at "
                 "level alpha has optimal level <= alpha, so B holds at every level >= alpha" + (
                     ", and at no smaller level on a table whose optimal level is alpha" if ratio else
                     " (an upper bound: not every alpha is some table's level at each N, e.g. a distance is "
                     "at most (N - 1)/N, so U = T is not claimed tight)"))


def _same_family(ctx):
    return next((fam for fam in ("pairwise", "class") if compares(ctx.a, fam) and compares(ctx.b, fam)
                 or fam == "class" and one_sided(ctx.a, fam) and one_sided(ctx.b, fam)), None)


def _same_raw_level(ctx):
    """Both declare a two-sided ratio of averages over the same record sets (pairs, or the one partition's
    classes), or both a one-sided ratio over that partition's classes, without parameters."""
    same_family = _same_family(ctx)
    one_spec = same_family == "pairwise" or (
        (ctx.a_classes or {"min_size": sympy.Integer(1)}) == ctx.b_classes and not (ctx.b_classes or {}).get("max_size"))
    return same_family is not None and not ctx.a.params and not ctx.b.params and one_spec


@argument(METHOD, order=30, applies=_same_raw_level)
def same_raw_level(ctx):
    """Two definitions declaring the same raw level."""
    same_family = _same_family(ctx)
    sets = "pairs of records" if same_family == "pairwise" else "the classes of the table's one partition"
    if one_sided(ctx.a, "class"):
        # a one-sided class ratio is at most N/s on every table (one-sided-ceiling): U = T is not the least f above it
        return Bound(T, False, METHOD.name,
                     "A and B declare the same raw level, a one-sided ratio of averages over the classes of the "
                     "table's one partition (no parameters): on every table B's raw level is A's, so B holds at A's "
                     "raw level (an upper bound: above the ceiling N/s every table meets B, so U = T is not claimed "
                     "tight there)")
    return Bound(T, True, METHOD.name,
                 f"A and B declare the same raw level, a two-sided ratio of averages over {sets} (family "
                 f"{same_family}, no parameters): on every table B's raw level is A's, so B holds at A's raw "
                 "level and at no smaller one on a table whose level is exactly that")


def _one_side_of(ctx):
    """A two-sided and B one-sided ratio of averages over the same record sets: pairs, subsets of one declared size,
    or the classes of the one partition; no parameters."""
    if ctx.a.params or ctx.b.params:
        return None
    for fam in ("pairwise", "subset", "class"):
        if not (compares(ctx.a, fam) and one_sided(ctx.b, fam)):
            continue
        jb = declared_subset_size(ctx.b, ctx.N, ctx.b_params) if fam == "subset" else None
        if fam == "subset" and (ctx.ja is None or jb is None or sympy.expand(ctx.ja - jb) != 0):
            return None
        if fam == "class" and ((ctx.a_classes or {"min_size": sympy.Integer(1)}) != ctx.b_classes
                               or (ctx.b_classes or {}).get("max_size")):
            return None
        return fam
    return None


@argument(METHOD, order=260, applies=_one_side_of)       # last: a tight argument for the same pair goes first
def one_side_of(ctx):
    """B's one-sided ratio is one side of A's two-sided one."""
    fam = _one_side_of(ctx)
    return Bound(T, False, METHOD.name,
                 f"A declares a two-sided ratio of averages and B the one-sided ratio over the same record sets (family "
                 f"{fam}, no parameters): B's ratios are some of A's, so on every table B's raw level is at most A's "
                 "(an upper bound: a one-sided level has a ceiling the two-sided one has not, so U = T is not claimed "
                 "tight)")


certificate_parts(METHOD, family=level_T)(lemma_only(METHOD.lemma))
