"""Certificates of the prover's "proved": the data an independent checker needs.

:func:`certificate` turns a :class:`~implgraph.prover.answer.Bound` into JSON that :mod:`implgraph.certify` re-checks
without the prover: the common header written here (the two sides described by their declarations: family, sides,
subset size or class sizes, a class distance, a slack; the symbols and the domain, the claim's condition in terms of
A's raw level T; the upper bound U, raw; the partitions it is for) and the method's own parts, which the argument's
module registers (:func:`implgraph.prover.registry.certificate_parts`): its checker lemma's data and, when U is tight, a
table family of blocks of equal binary rows, parametric in N, T and the parameters, whose exact levels are A <= T and
B = U. A method without registered parts cites a lemma of its own name without data (the checker rejects it unless it
knows that lemma).
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy

from implgraph.core import methods
from implgraph.core.formula import Word
from implgraph.definitions.capabilities import AdditiveSlack, ClassSizeLevel, FiniteLevelOf, TailRatio, family_of
from implgraph.prover.answer import T
from implgraph.prover.parts import lemma_only, uniform_family
from implgraph.prover.registry import Parts, parts_of
from implgraph.prover.shapes import class_distance_of, declared_subset_size, min_class_name, one_sided, ratio_sides

__all__ = ["certificate", "class_floor_certificate", "weakest_level_certificate", "every_partition_certificate",
           "symbols_and_domain", "side", "accepted", "reads_no_classes", "EVERY_TABLE_METHODS", "FORMAT", "CertContext"]

FORMAT = "implgraph-certificate/1"

#: the prover's arguments that hold on every table whatever its classes (B's raw level is A's): a certificate of one
#: of them comparing classes claims every partition (``min_classes`` 1)
EVERY_TABLE_METHODS = (methods.SAME_LEVEL.name, methods.CHORD.name, methods.SUBSET_CHORD.name,
                       methods.DIVERGENCE_ORDER.name, methods.DIVERGENCE_CEILING.name)
EVERY_TABLE_METHODS += (methods.WEAKEST_FAMILY.name,)     # B's weakest level: every table meets it, whatever its classes
EVERY_TABLE_METHODS += (methods.TOP_CAP.name,)     # a cap on every class's top frequency: whatever the partition
EVERY_TABLE_METHODS += (methods.SKEW_FAMILY.name,)     # B's weakest level approached: every table meets it
EVERY_TABLE_METHODS += (methods.FLOOR_LEVEL.name,)     # read off the class floor: whatever the partition


@dataclass(frozen=True)
class CertContext:
    """What a method's certificate parts read besides the certificate: A, N and the bound."""

    a: object
    N: object
    bound: object


def side(d, params, classes, N):
    """A side of a certificate: the definition's declarations at ``params`` on ``classes``."""
    from implgraph.definitions.class_bounds import uniform_class_raw, uniform_values
    out = {"definition": d.name, "params": {k: str(v) for k, v in params.items()}, "family": family_of(d),
           "sides": ratio_sides(d)}    # None: not a declared ratio of averages
    j = declared_subset_size(d, N, params)      # one- or two-sided
    if j is not None:
        out["size"] = str(j)
    finite = d.declared(FiniteLevelOf)
    if finite is not None:
        out["finite_level_of"] = finite.name
        if finite.increase_cap:
            out["increase_cap"] = finite.increase_cap     # the condition that makes the level finite (the checker's)
    distance = class_distance_of(d, params)
    if distance is not None:
        out["distance"] = distance
    if d.has(ClassSizeLevel):
        out["class_size_level"] = True      # the level is the smallest class's size (larger is stronger)
    if uniform_values(d, T) is not None:      # the raw level of a class uniform over m values, improving with m
        out["uniform_class_level"] = str(uniform_class_raw(d))
    tail = d.declared(TailRatio)
    if tail is not None and tail.param in params:      # max_E r_1 / (r_l + ... + r_m), l this parameter
        out["tail_ratio"] = str(params[tail.param])
    slack = d.declared(AdditiveSlack)
    if slack is not None:     # a <= e^level b + delta between these records, every event
        out["slack"] = {"compares": slack.compares, "delta": str(params.get("delta"))}
    if family_of(d) == "class":
        _class_side(out, d, params, classes)
    return out


def _class_side(out, d, params, classes):
    spec = classes or {}
    out["min_class"] = str(spec.get("min_size", 1))
    if spec.get("max_size") is not None:
        out["max_class"] = str(spec["max_size"])
    name = min_class_name(d)
    if name is not None and name in params and sympy.sympify(params[name]) == sympy.sympify(spec.get("min_size", 1)):
        out["min_class_param"] = name       # the classes are the ones its parameter declares (the checker reads it)


def _assumptions(kinds):
    """The symbols' sign assumptions as domain conditions (the certificate's symbols carry only a kind)."""
    out = []
    for s in sorted(kinds, key=str):
        if s.is_positive:
            out.append(f"{s} >= 1" if s.is_integer else f"{s} > 0")
        elif s.is_nonnegative:
            out.append(f"{s} >= 0")
    return out


def _pin(A, B, region):
    """A symbol the condition fixes (``N == 4``) takes its value in the sides' sizes, so that a lemma
    about a size (a subset of one record) reads it; the domain keeps the equality."""
    from implgraph.core.simplified import simplified
    pins = {}
    for c in region.constraints:
        if isinstance(c, sympy.Eq):
            for x, v in ((c.lhs, c.rhs), (c.rhs, c.lhs)):
                if x.is_Symbol and v.is_number:
                    pins[x] = v
    if not pins:
        return
    names = {str(x): x for x in pins}
    for s in (A, B):
        for key in ("size", "min_class", "max_class"):
            if s.get(key) is not None:
                s[key] = str(simplified(sympy.sympify(s[key], locals=names).subs(pins)))


def symbols_and_domain(region, exprs):
    """``(symbols, domain)`` of a certificate: the kinds of the region's symbols and of those in ``exprs`` (parameters
    and class sizes; a word parameter has none), N an integer and T a real unless the region says otherwise (an
    integer where A's level is a class size); the symbols' signs and the region's conditions."""
    syms = dict(region.kinds)
    for e in exprs:
        if isinstance(e, Word):
            continue        # a word parameter (a ground distance), no symbol
        for s in sympy.sympify(e).free_symbols:
            syms.setdefault(s, "integer" if s.is_integer else "real")
    kinds = {str(s): k for s, k in syms.items()}
    kinds.setdefault("N", "integer")
    kinds.setdefault("T", "real")
    return kinds, _assumptions(syms) + [str(c) for c in region.constraints if c not in (sympy.true, True)]


def class_floor_certificate(method, a, b, a_params, b_params, region, N, s, argument):
    """The certificate of :mod:`implgraph.engines.class_floor` (``method``: ``class-size-floor``, re-checked by
    :mod:`implgraph.certify.floor`): B's raw level at least ``lower`` = s, A's declared minimum class size, on both
    sides' classes of >= s records; tight, attained by :func:`~implgraph.prover.parts.uniform_family` (s records and
    N - s uniform over the fewest values meeting T, where that number exists and, for s > 1, 2 s <= N)."""
    kinds, domain = symbols_and_domain(region, [*a_params.values(), *b_params.values(), s])
    A = side(a, a_params, {"min_size": s}, N)
    # (every class of a table where A is finite has >= s records, however many classes: min_classes 1)
    return {"format": FORMAT, "method": method, "symbols": kinds, "domain": domain, "A": A,
            "B": side(b, b_params, {"min_size": s}, N), "lower": str(s), "tight": True, "argument": argument,
            "tightness": uniform_family(A, CertContext(a, N, None)), "min_classes": 1}


def weakest_level_certificate(a, b, a_params, b_params, a_classes, b_classes, region, N, raw_f):
    """The certificate of a trivial truth (method ``weakest-level``, re-checked by :mod:`implgraph.certify.trivial`):
    B's raw target ``raw_f`` is at least as weak as B's weakest level on the whole domain (``oo`` for a ratio), which
    B's registered scale declares every table to meet; nothing of A is used."""
    kinds, domain = symbols_and_domain(region, [*a_params.values(), *b_params.values(), *(a_classes or {}).values(),
                                                *(b_classes or {}).values()])
    return {"format": FORMAT, "method": methods.WEAKEST_LEVEL.name, "symbols": kinds, "domain": domain,
            "A": side(a, a_params, a_classes, N), "B": side(b, b_params, b_classes, N), "target": str(raw_f),
            "tight": False, "argument": f"B's target {raw_f} is at least as weak as its weakest level, met by every table"}


def certificate(a, b, a_params, b_params, a_classes, b_classes, region, N, bound):
    """The JSON certificate of ``bound`` (a :class:`~implgraph.prover.answer.Bound`) for A => B.

    ``region`` is the claim's condition in terms of T with the parameter ranges; its symbols' kinds
    become the certificate's ``symbols``. The method's own parts (its checker lemma's data, its
    tightness family) are the ones its module registered; a method without them has no certificate lemma
    the checker knows, and the checker rejects it. Where a side compares classes, ``min_classes`` says which
    partitions the certificate is for: 2 (the lemmas read another class than the one they bound: partitions into >= 2
    classes; :func:`every_partition_certificate` adds the tables of one class), or 1 for an argument of
    :data:`EVERY_TABLE_METHODS`.
    """
    cert = _certificate(a, b, a_params, b_params, a_classes, b_classes, region, N, bound)
    if "class" in (cert["A"].get("family"), cert["B"].get("family")):
        cert["min_classes"] = 1 if bound.method in EVERY_TABLE_METHODS or _set_ceiling_without_classes(b, bound) else 2
    return cert


def _set_ceiling_without_classes(b, bound) -> bool:
    """B's set ceiling (``one-sided-ceiling``) where B compares no classes: it holds whatever the partition."""
    from implgraph.prover.shapes import as_definition
    return reads_no_classes(bound, as_definition(b))


def reads_no_classes(bound, b) -> bool:
    """Does ``bound`` (for B = ``b``) hold on every table whatever its partition: B compares no classes (a one-sided
    subset level, pml) and the bound is ``one-sided-ceiling``'s, which reads nothing of A (a set of j records holds at
    most the table's mass)? A table of one class is then covered as every other (the tables of one class need no B
    class level)."""
    return (bound is not None and bound.method == methods.ONE_SIDED_CEILING.name and not b.needs_classes
            and one_sided(b, "subset"))


def every_partition_certificate(cert):
    """``cert`` (for partitions into >= 2 classes, ``min_classes`` 2) with the tables of one class beside it: its
    ``one_class`` part (B's level there is its strongest, which the certificate's U is at least), re-checked by
    :mod:`implgraph.certify.partitions`; the certificate is then for every partition into classes, one class included
    (``min_classes`` 1)."""
    return dict(cert, min_classes=1, one_class="on a table of one class, the class is the table: B's level is its "
                                               "strongest (its registered class level), at most U on the domain")


def _certificate(a, b, a_params, b_params, a_classes, b_classes, region, N, bound):
    """:func:`certificate` without the partitions it is for."""
    parts = parts_of(bound.method) or Parts(lemma_only(bound.method))
    if parts.whole is not None:     # a composite: the parts' certificates inside one
        return parts.whole(a, b, a_params, b_params, a_classes, b_classes, region, N, bound)
    kinds, domain = symbols_and_domain(region, [*a_params.values(), *b_params.values(), *(a_classes or {}).values(),
                                                *(b_classes or {}).values()])
    A = side(a, a_params, a_classes, N)
    B = side(b, b_params, b_classes, N)
    if family_of(b) == "class" and not b_classes:
        B["min_class"] = "1"
    if bound.method == methods.PRODUCT.name:       # its lemma reads A's size 1 off the text
        _pin(A, B, region)
    cert = {"format": FORMAT, "method": bound.method, "symbols": kinds, "domain": domain,
            "A": A, "B": B, "upper": str(bound.upper), "tight": bool(bound.tight),
            "argument": bound.argument}
    ctx = CertContext(a, N, bound)
    parts.upper(cert, ctx)
    if bound.tight:
        fam = None if parts.family is None else parts.family(cert, ctx)
        if fam is not None and "1" in (A.get("max_class"), B.get("max_class")):
            # singleton classes: each record its own class (a block's class ratio is then its records'
            # ratio, the subset ratio of size 1 or the vertex record the family is built for)
            fam["singleton_classes"] = True
        cert["tightness"] = fam
    else:
        cert["tightness"] = None
        cert["tightness_note"] = "U is an upper bound only; the prover does not claim it is attained"
    return cert


def accepted(ctx, found) -> bool:
    """Does the independent checker (:func:`implgraph.certify.check_certificate`) accept the certificate of the bound
    ``found`` on the claim of ``ctx``? An argument that answers only where its certificate checks asks this."""
    from implgraph.certify.accepted import accepted as checker_accepts
    cert = certificate(ctx.a, ctx.b, ctx.a_params, ctx.b_params, ctx.a_classes, ctx.b_classes, ctx.region, ctx.N,
                       found)
    return checker_accepts(cert)
