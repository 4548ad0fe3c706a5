"""A certificate's symbols, domain and class hypotheses against its row's claim (:mod:`implgraph.certify.statement`).

Every condition of the certificate's ``domain`` must be implied by the claim's: its ``when`` (in T), A's valid levels,
tables of N >= 2 records and the parameters' ranges the registry declares; a condition the claim does not imply is an
assumption of the certificate, accepted only where the row's verdict text states it. A refutation's certificate may
pin parameters of the claim to numbers (an instance of the claim, inside its condition).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import sympy

from implgraph.certify.claim import ClaimStatement, Mismatch, as_expr, parse_condition, parse_expr
from implgraph.certify.hypotheses import Hypotheses, normal, relation_text

__all__ = ["Context", "cert_names", "base_conditions", "instance_pins", "domain_steps", "unstated", "class_steps",
           "BASE_RECORDS", "PARTITION_WORDS"]

#: every table has at least this many records (each definition compares records: a pair, a record against the rest)
BASE_RECORDS = 2


#: how a verdict states the premise of a partition into two or more classes (``2*(s) <= N``, ``(s) >= 1``)
PARTITION_WORDS = re.compile(r"partition(?:s|ed)? into (?:at least 2|>= ?2|two or more) classes", re.I)


@dataclass
class Context:
    """What one row's comparison needs: the claim, the verdict's text and words, where pins are allowed."""

    claim: ClaimStatement
    evidence: str
    refutation: bool
    tight: dict          # direction index -> the tight f (in A's level symbol) the row states


def cert_names(cert, st: ClaimStatement):
    """The certificate's symbols as the claim's (the same objects), T A's raw level: ``(names, faults)``."""
    names = dict(st.names)
    faults = []
    for name, kind in (cert.get("symbols") or {}).items():
        name = str(name)
        if name == "T":
            continue
        if name not in st.kinds:
            faults.append(f"its symbol {name} is not the claim's")
        elif kind == "integer" and st.kinds[name] != "integer":
            faults.append(f"it takes {name} an integer, the claim a real")
    if "T" in st.names:
        faults.append("the claim names a symbol T (the certificates' name of A's raw level)")
    names["T"] = sympy.Symbol("T", real=True)
    return names, faults


def base_conditions(direction, st, T):
    """The claim's condition for ``direction`` in terms of A's raw level T (module notes)."""
    a, b = direction.a, direction.b
    alpha = a.level
    of_t = a.definition.level_from_raw(T)
    out = []
    for c in st.conditions:
        free = c.free_symbols
        if b.level in free and b.level != alpha:
            continue        # a condition on B's level: not one on the tables A holds on
        out.append(c.subs(alpha, of_t) if alpha in free else c)
    best = a.definition.level_scale.best_raw
    out.append(sympy.Ge(T, 1 if best is None else sympy.Rational(best.numerator, best.denominator)))
    N = st.names["N"]
    out.append(sympy.Ge(N, BASE_RECORDS))
    for side in (a, b):
        d = side.definition
        if not getattr(d, "ranges", None):
            continue
        try:
            ranges = d.param_ranges(N, **side.params)
        except (KeyError, TypeError, ValueError):
            continue
        out += [r for r in ranges if r not in (True, sympy.true)]
    return out


def instance_pins(rels, st, direction):
    """The certificate's domain's equations ``parameter == number`` (an instance; never N or a level)."""
    levels = {direction.a.level, direction.b.level}
    out = {}
    for r in rels:
        if isinstance(r, sympy.Equality):
            for x, v in ((r.lhs, r.rhs), (r.rhs, r.lhs)):
                if x.is_Symbol and v.is_number and x in st.names.values() and x not in levels \
                        and str(x) not in ("N", "T"):
                    out[x] = v
    return out


def _a_point(rels, kinds):
    """A point (N = 2..12, the other symbols on the checker's grids) where every relation holds exactly, or None."""
    from implgraph.certify import UNREADABLE
    from implgraph.certify.domain import Domain
    used = {str(s) for r in rels for s in r.free_symbols} | {"N", "T"}
    try:
        domain = Domain({"symbols": {k: kinds.get(k, "real") for k in used}, "domain": [relation_text(r) for r in rels]},
                        variables={})
        for env in domain.points(range(2, 13)):
            return ", ".join(f"{k} = {v}" for k, v in sorted(env.items()))
    except UNREADABLE:
        return None
    return None


def _stated(text, rel, cert, evidence):
    """Does the verdict's text state the assumption ``text`` (module notes)?"""
    squash = lambda s: re.sub(r"[\s()*]", "", str(s))       # noqa: E731
    ev = squash(evidence)
    forms = {squash(text), squash(rel)}
    if isinstance(rel, sympy.core.relational.Relational):
        forms.add(squash(rel.reversed))
    if any(f and f in ev for f in forms):
        return True
    return _partition_premise(rel, cert) and bool(PARTITION_WORDS.search(evidence))


def _partition_premise(rel, cert):
    """Is ``rel`` the premise ``2*(s) <= N`` or ``(s) >= 1`` of a partition into classes of >= s records, s a side's
    ``min_class`` (or T, A's level a class size)?"""
    try:
        op, e = normal(rel)
    except Mismatch:
        return False
    sizes = {str((cert.get(k) or {}).get("min_class")) for k in ("A", "B")} | {"T"}
    syms = {str(s): s for s in e.free_symbols}
    for s_text in sizes - {"None"}:
        try:
            s_ = parse_expr(s_text, {**syms, "N": syms.get("N", sympy.Symbol("N", integer=True)),
                                      "T": syms.get("T", sympy.Symbol("T", real=True))})
        except Mismatch:
            continue
        N = syms.get("N")
        if op == ">=" and (sympy.expand(e - (s_ - 1)) == 0 or (N is not None and sympy.expand(e - (N - 2 * s_)) == 0)):
            return True
    return False


def domain_steps(cert, direction, ctx, names):
    """``[(what, ok, how)]``: the certificate's domain against the claim's condition (module notes)."""
    st = ctx.claim
    T = names["T"]
    base = base_conditions(direction, st, T)
    hyps = Hypotheses(base, {**st.kinds, "T": "real"}, names)
    rels = []
    for text in cert.get("domain") or []:
        rels += [(text, r) for r in parse_condition(text, names)]
    pins = instance_pins([r for _, r in rels], st, direction) if ctx.refutation else {}
    extra = []
    if pins:        # an instance of the claim: inside its condition, then implied by the condition with the pins
        at = base + [sympy.Eq(x, v) for x, v in pins.items()]
        where = ", ".join(f"{x} = {v}" for x, v in pins.items())
        point = _a_point(at, {**st.kinds, "T": "real"})
        extra.append((f"the instance {where} is inside the claim's condition", point is not None,
                      f"the condition holds at {point}" if point is not None else
                      "no point of the condition with the instance found"))
        hyps = Hypotheses(at, hyps.kinds, names)
    out, implied, extras, assumed = [], [], [], []
    for text, rel in rels:
        ok, how = hyps.implied(rel)
        if ok:
            implied.append(text)
            continue
        if _stated(text, rel, cert, ctx.evidence):
            out.append((f"its domain's {text} is stated in the verdict", True, "an assumption the verdict states"))
            assumed.append((text, rel, how))
            continue
        extras.append((text, rel, how))
    summary = [(f"its domain follows from the claim's condition{' with the instance' if pins else ''}", True,
                f"{len(implied)} of its {len(rels)} conditions implied by the claim's condition, A's valid levels, "
                f"N >= {BASE_RECORDS} and the declared parameter ranges")] if not extras else []
    return extra + summary + out, hyps, pins, extras, assumed


def unstated(extras):
    """The steps failing on a certificate's assumptions that neither the claim nor the verdict states."""
    return [(f"its domain's {text} follows from the claim's condition", False,
             f"{text} is an assumption the claim does not state (its condition with the declared ranges does not imply "
             f"it: {how}) and the verdict does not state") for text, _, how in extras]


def class_steps(cert, direction, st, names, pins):
    """The certificate's class hypotheses are the claim's (module notes)."""
    from implgraph.definitions.capabilities import MinClassSize
    claim_min = [s.classes["min_size"] for s in (direction.a, direction.b) if s.classes.get("min_size") is not None]
    claim_max = [s.classes["max_size"] for s in (direction.a, direction.b) if s.classes.get("max_size") is not None]
    out = []
    for label, side, cside in (("A", direction.a, cert.get("A") or {}), ("B", direction.b, cert.get("B") or {})):
        for key, given, what in (("min_class", claim_min, "minimum"), ("max_class", claim_max, "maximum")):
            if cside.get(key) is None:
                continue
            value = parse_expr(cside[key], names).subs(pins)
            if key == "min_class" and value == 1:
                continue
            ok = any(sympy.simplify(value - as_expr(g).subs(pins)) == 0 for g in given)
            min_class = direction.a.definition.declared(MinClassSize)
            declared = None if min_class is None else min_class.param
            if not ok and key == "min_class" and declared is not None and declared in direction.a.params:
                ok = cert.get("A", {}).get("min_class_param") == declared and \
                    sympy.simplify(value - as_expr(direction.a.params[declared]).subs(pins)) == 0
            out.append((f"{label}'s {what} class size {cside[key]} is the claim's", ok,
                        "stated by the claim or declared by the registry" if ok else
                        "a class hypothesis the claim does not state"))
    return out
