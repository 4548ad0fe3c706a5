"""The divergence-ceiling lemma: a class's KL or Renyi divergence from the table is at most log(N/s).

**Lemma.** On a table of N records, a class E of s' >= s records with mean m and the table's mean P: in each bucket
N P_l is the sum of every record's value, among them the s' of E (values >= 0), so s' m_l <= N P_l and
r_l = m_l/P_l <= N/s' <= N/s wherever m_l > 0. With sum_l m_l = 1: KL(E || P) = sum_l m_l log r_l <= log max_l r_l,
and exp((alpha - 1) D_alpha) = sum_l m_l r_l^(alpha - 1) <= max_l r_l^(alpha - 1) (alpha > 1; the largest log ratio
at alpha = oo), so every class's divergence, and B's level, is at most log(N/s).

Re-checked here from the registry, not the certificate's words: B names a registered definition declaring a KL or
Renyi divergence between each class and the table (its kind and order those of the certificate, an order read at B's
parameters); U = log(N/s) with s B's classes' minimum size, or s = T where the certificate says ``class_size`` and A's
registered level is its smallest class's size (no parameters, any partition; T an integer), or s = A's parameter
where the certificate says ``class_floor`` (its name) and A's registered definition declares that parameter a minimum
class size (``MinClassSize``: A's level is infinite on a smaller class), or s = A's parameter where the certificate
says ``class_floor_above_weakest`` (its name), A's registered definition declares that parameter a minimum class size
above its weakest level (``MinClassSizeAboveWeakest``) and the domain states T strictly stronger than the weakest
level (``T >= 1`` against p-sensitive k-anonymity's 0), by exact algebra; the domain states 1 <= s <= N; the mass
inequality N P_l - s' m_l =
(the other records' values) >= 0 as an identity on a class of s' records and N - s' others; no tightness claimed.
"""

from __future__ import annotations

import sympy

from implgraph.certify.lemmas import lemma
from implgraph.core import methods
from implgraph.core.errors import InputError
from implgraph.core.formula import parse_condition, parse_expr

__all__ = ["check"]

_N = sympy.Symbol("N", integer=True, positive=True)


def _mass_identity() -> bool:
    """N P - s' m = the sum of the other N - s' records' values (for symbolic s', N and values)."""
    s, n, i = sympy.symbols("s n i", integer=True, positive=True)
    v = sympy.IndexedBase("v")
    total = sympy.Sum(v[i], (i, 1, n))
    P, m = total / n, sympy.Sum(v[i], (i, 1, s)) / s
    others = sympy.Sum(v[i], (i, s + 1, n))
    return sympy.simplify((n * P - s * m - others).doit()) == 0


@lemma(methods.DIVERGENCE_CEILING, own_partitions=True)
def check(cert, ns=range(2, 13), timeout_ms=4000):
    """Re-check a divergence-ceiling certificate (see the module notes)."""
    from implgraph.certify import UNREADABLE, CertificateReport, _registered
    from implgraph.certify.registered import registered
    from implgraph.definitions.divergences import divergence_of
    steps = []
    try:
        steps += _registered(cert)
        B = cert.get("B") or {}
        b = registered(B.get("definition"))
        div = None if b is None else divergence_of(b, B.get("params"))     # an order read from B's parameters
        ok = div is not None and div.compares == "class" and div.kind in ("kl", "renyi")
        steps.append(("B declares a KL or Renyi divergence of each class from the table", ok, "registry"))
        if not ok:
            return CertificateReport(False, steps)
        data = cert.get("upper_certificate") or {}
        steps.append(("the certificate's divergence is B's", data.get("kind") == div.kind and data.get("order") ==
                      (None if div.order is None else str(div.order)), "exact"))
        by_size = bool(data.get("class_size"))
        if by_size:
            steps += _class_size_steps(cert, B)
        T = sympy.Symbol("T", integer=True, positive=True)
        s = T if by_size else parse_expr(str(B.get("min_class") or "1"), {"N": _N})
        if data.get("class_floor") is not None:
            floor_steps, s = _class_floor_steps(cert, B, data["class_floor"])
            steps += floor_steps
        if data.get("class_floor_above_weakest") is not None:
            floor_steps, s = floor_above_weakest_steps(cert, B, data["class_floor_above_weakest"])
            steps += floor_steps
        upper = parse_expr(str(cert.get("upper")), {"N": _N, "T": T})
        steps.append((f"U = log(N/({s}))", sympy.simplify(sympy.expand_log(upper - sympy.log(_N / s), force=True))
                      == 0, "exact"))
        names = {"N": _N, "T": T}
        domain = {str(parse_condition(str(c), names)) for c in cert.get("domain") or []}
        steps.append((f"the domain states 1 <= {s} <= N", str(sympy.Ge(s, 1)) in domain | {"True"} and
                      str(sympy.Le(s, _N)) in domain | {"True"}, "exact"))
        steps.append(("a class of s' records holds at most the table's mass: N P - s' m = the others' values >= 0",
                      _mass_identity(), "exact"))
        steps.append(("no tightness claimed", not cert.get("tight"), "exact"))
    except (*UNREADABLE, InputError) as exc:
        steps.append(("certificate readable", False, f"{exc.__class__.__name__}: {exc}"))
    return CertificateReport(bool(steps) and all(s[1] for s in steps), steps)


def _declared_floor(cert, B, name, capability):
    """``(ok, value, s, a)``: whether A's registered definition ``a`` declares its parameter ``name`` a class floor of
    the kind ``capability`` with a value in the certificate, both sides on any partition; its value, and s read from it
    (1 where not ok)."""
    from implgraph.certify.registered import registered
    A = cert.get("A") or {}
    a = registered(A.get("definition"))
    declared = None if a is None else a.declared(capability)
    value = (A.get("params") or {}).get(name)
    anyp = all(str(x.get("min_class") or "1") == "1" and x.get("max_class") is None for x in (A, B))
    ok = declared is not None and declared.param == name and value is not None and anyp
    return ok, value, (parse_expr(str(value), {"N": _N}) if ok else sympy.Integer(1)), a


def _class_floor_steps(cert, B, name):
    """``(steps, s)``: s = A's parameter ``name``, which A's registered definition declares a minimum class size
    (``MinClassSize``: its level is infinite on a table with a smaller class), both sides on any partition: every
    table where A is finite has classes of >= s records."""
    from implgraph.definitions.capabilities import MinClassSize
    ok, value, s, _ = _declared_floor(cert, B, name, MinClassSize)
    return [(f"A's registered definition declares its parameter {name} a minimum class size (s = {value}), on any "
             "partition", ok, "registry")], s


def floor_above_weakest_steps(cert, B, name):
    """``(steps, s)``: s = A's parameter ``name``, which A's registered definition declares a minimum class size above
    its weakest level (``MinClassSizeAboveWeakest``: on a table with a smaller class its level is the weakest), both
    sides on any partition, and the domain bounds T strictly stronger than that weakest level (a relation of T with a
    number, read by the project's parser): every table meeting T has classes of >= s records."""
    from implgraph.definitions.capabilities import MinClassSizeAboveWeakest
    ok, value, s, a = _declared_floor(cert, B, name, MinClassSizeAboveWeakest)
    stronger = ok and _domain_stronger_than_weakest(cert, a)
    return [(f"A's registered definition declares its parameter {name} a minimum class size above its weakest level "
             f"(s = {value}), on any partition", ok, "registry"),
            ("the domain makes A's level T stronger than its weakest", stronger, "exact")], s


def _domain_stronger_than_weakest(cert, a) -> bool:
    """Does a condition of the domain, ``T >= c`` / ``T > c`` (``<=`` / ``<`` where smaller is stronger) with c a
    number, put T strictly beyond A's weakest raw level (a number that does not depend on N)?"""
    if a.level_scale.weakest_depends_on_N:      # (the weakest of every N need not be each N's)
        return False
    weakest = sympy.sympify(a.raw_from_level(a.weakest()))
    if not weakest.is_number or not weakest.is_finite:
        return False
    T = sympy.Symbol("T", real=True)
    larger = a.stronger == "larger"
    for c in cert.get("domain") or []:
        try:
            rel = parse_condition(str(c), {"T": T, "N": _N})
        except (InputError, TypeError, ValueError):
            continue
        if not isinstance(rel, sympy.core.relational.Relational) or rel.lhs != T or not rel.rhs.is_number:
            continue
        if larger and ((isinstance(rel, sympy.GreaterThan) and rel.rhs > weakest)
                       or (isinstance(rel, sympy.StrictGreaterThan) and rel.rhs >= weakest)):
            return True
        if not larger and ((isinstance(rel, sympy.LessThan) and rel.rhs < weakest)
                           or (isinstance(rel, sympy.StrictLessThan) and rel.rhs <= weakest)):
            return True
    return False


def _class_size_steps(cert, B):
    """s = T: A's registered definition declares its level the smallest class's size (no parameters, any partition on
    both sides), so at level T every class has >= T records; T an integer."""
    from implgraph.certify.registered import registered
    from implgraph.definitions.capabilities import ClassSizeLevel
    A = cert.get("A") or {}
    a = registered(A.get("definition"))
    anyp = all(str(x.get("min_class") or "1") == "1" and x.get("max_class") is None for x in (A, B))
    return [("A's registered level is its smallest class's size (s = T), on any partition", a is not None
             and a.has(ClassSizeLevel) and not A.get("params") and anyp, "registry"),
            ("T is an integer", (cert.get("symbols") or {}).get("T") == "integer", "exact")]
