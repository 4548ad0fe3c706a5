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
(the other records' values) >= 0 as an identity on a class of s' records and N - s' others.

**Tightness** (docs/proofs/tight-divergence-ceiling.md), where the certificate claims it: its family is s records
uniform over m values in class E1 and N - s uniform over m other values in E2 (``uniform_blocks``, m an expression in
T alone, the same in both), its own domain exactly ``2*(s) <= N``, s the s of U. Re-derived symbolically: E1's mean
is 1/m on each of its values where the table's is s/(N m), so KL(E1 || P) = log(N/s) and exp((alpha - 1) D_alpha) =
m (1/m)^alpha (s/(N m))^(1 - alpha) = (N/s)^(alpha - 1) (at B's order; the largest log ratio at alpha = oo), and E2's
log(N/(N - s)) <= log(N/s) where 2 s <= N: B's level is U. At sampled points (N of the checker's range, levels T of
the domain: integers 1..4, and 3/2 and 5/2 where T is real; every condition of the domain and the family's domain
holding) the family is built and A's registered exact level must meet T (>= T where larger is stronger, <= T
otherwise) and B's registered exact level equal U.
"""

from __future__ import annotations

import sympy

from implgraph.certify.lemmas import lemma
from implgraph.certify.report import lemma_steps, steps_report
from implgraph.core import methods
from implgraph.core.errors import InputError
from implgraph.certify.domain import declared_names
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
    from implgraph.certify.registered import registered
    from implgraph.definitions.divergences import divergence_of
    with lemma_steps(cert) as steps:
        B = cert.get("B") or {}
        b = registered(B.get("definition"))
        div = None if b is None else divergence_of(b, B.get("params"))     # an order read from B's parameters
        ok = div is not None and div.compares == "class" and div.kind in ("kl", "renyi")
        steps.append(("B declares a KL or Renyi divergence of each class from the table", ok, "registry"))
        if not ok:
            return steps_report(steps)
        data = cert.get("upper_certificate") or {}
        steps.append(("the certificate's divergence is B's", data.get("kind") == div.kind and data.get("order") ==
                      (None if div.order is None else str(div.order)), "exact"))
        by_size = bool(data.get("class_size"))
        if by_size:
            steps += _class_size_steps(cert, B)
        T = sympy.Symbol("T", integer=True, positive=True)
        names = declared_names(cert, {"N": _N, "T": T})     # (a parameter the claim states as a symbol: k4)
        s = T if by_size else parse_expr(str(B.get("min_class") or "1"), names)
        if data.get("class_floor") is not None:
            floor_steps, s = _class_floor_steps(cert, B, data["class_floor"])
            steps += floor_steps
        if data.get("class_floor_above_weakest") is not None:
            floor_steps, s = floor_above_weakest_steps(cert, B, data["class_floor_above_weakest"])
            steps += floor_steps
        upper = parse_expr(str(cert.get("upper")), names)
        steps.append((f"U = log(N/({s}))", sympy.simplify(sympy.expand_log(upper - sympy.log(_N / s), force=True))
                      == 0, "exact"))
        domain = {str(parse_condition(str(c), names)) for c in cert.get("domain") or []}
        steps.append((f"the domain states 1 <= {s} <= N", str(sympy.Ge(s, 1)) in domain | {"True"} and
                      str(sympy.Le(s, _N)) in domain | {"True"}, "exact"))
        steps.append(("a class of s' records holds at most the table's mass: N P - s' m = the others' values >= 0",
                      _mass_identity(), "exact"))
        if cert.get("tight"):
            steps += tightness_steps(cert, div, s, names, ns)
        else:
            steps.append(("no tightness claimed", True, "exact"))
    return steps_report(steps)


def _renyi_at_family(order, m, s, n):
    """D_order(E1 || P) on the family (E1 1/m on each of its m values, P s/(n m) there), simplified; KL at None."""
    mass, table = 1 / m, s / (n * m)
    if order is None:
        return sympy.expand_log(m * mass * sympy.log(mass / table), force=True)
    if order is sympy.oo:
        return sympy.expand_log(sympy.log(mass / table), force=True)
    return sympy.expand_log(sympy.log(sympy.powsimp(m * mass ** order * table ** (1 - order), force=True))
                            / (order - 1), force=True)


def _family_rows(fam, s_text, T):
    """``(ok, m)``: the family is E1 of s records and E2 of N - s records, each uniform over the same m values (an
    expression in T alone), its domain exactly 2 s <= N."""
    blocks = fam.get("uniform_blocks") or []
    if fam.get("blocks") or len(blocks) != 2 or list(fam.get("domain") or []) != [f"2*({s_text}) <= N"]:
        return False, None
    first, second = blocks
    if (first.get("class"), second.get("class")) != ("E1", "E2") or first.get("values") != second.get("values"):
        return False, None
    m = parse_expr(str(first.get("values")), {"T": T})
    counts_ok = str(first.get("count")) == s_text and str(second.get("count")) == f"N - ({s_text})"
    return counts_ok and m.free_symbols <= {T}, m


def _domain_holds(conditions, names, point) -> bool:
    for c in conditions:
        value = sympy.sympify(parse_condition(str(c), names)).subs(point)
        if isinstance(value, sympy.core.relational.Relational):     # (the parser leaves 2 >= 1 unevaluated)
            value = value.func(value.lhs, value.rhs)
        if value is not sympy.true:
            return False
    return True


def tightness_steps(cert, div, s, names, ns):
    """The steps of a tight certificate's family (module notes)."""
    from fractions import Fraction

    from implgraph.certify.registered import registered
    from implgraph.core.concrete import INF, ConcreteTable
    fam = cert.get("tightness") or {}
    real = (cert.get("symbols") or {}).get("T") != "integer"
    outer_T = names["T"]
    names = {"N": names["N"], "T": sympy.Symbol("T", positive=True) if real else outer_T}     # T as the domain's kind
    s = s.subs(outer_T, names["T"])
    s_text = next((c[1:-len(") >= 1")] for c in cert.get("domain") or [] if c.startswith("(") and
                   c.endswith(") >= 1")), None)
    ok, m = (False, None) if s_text is None else _family_rows(fam, s_text, names["T"])
    steps = [("the family is s records uniform over m values in E1, N - s uniform over m others in E2, where "
              "2 s <= N (s that of U)", ok and sympy.simplify(parse_expr(s_text, names) - s) == 0, "exact")]
    if not steps[-1][1]:
        return steps
    mm, ss, nn = (sympy.Symbol(x, positive=True) for x in ("m", "s", "n"))
    e1 = _renyi_at_family(div.order, mm, ss, nn)
    e2 = _renyi_at_family(div.order, mm, nn - ss, nn)
    steps.append(("E1's divergence from the table is log(N/s), E2's log(N/(N - s)) (at most it where 2 s <= N)",
                  sympy.simplify(e1 - sympy.log(nn) + sympy.log(ss)) == 0
                  and sympy.simplify(e2 - sympy.log(nn) + sympy.log(nn - ss)) == 0, "exact"))
    A = cert.get("A") or {}
    a = registered(A.get("definition"))
    b = registered((cert.get("B") or {}).get("definition"))
    T, N = names["T"], names["N"]
    levels = [sympy.Integer(t) for t in range(1, 5)] + ([sympy.Rational(3, 2), sympy.Rational(5, 2)] if real else [])
    upper = parse_expr(str(cert.get("upper")), names)
    conditions = [*(cert.get("domain") or []), *(fam.get("domain") or [])]
    params = {k: parse_expr(str(v), {"N": N}) for k, v in (A.get("params") or {}).items()}
    bad, tried = [], 0
    for n in list(ns)[:7]:
        for t in levels:
            point = {N: sympy.Integer(n), T: t}
            if not _domain_holds(conditions, names, point):
                continue
            sv, mv = int(s.subs(point)), int(m.subs(T, t))
            rows = ([[Fraction(1, mv)] * mv + [Fraction(0)] * mv] * sv
                    + [[Fraction(0)] * mv + [Fraction(1, mv)] * mv] * (n - sv))
            labels = ["E1"] * sv + ["E2"] * (n - sv)
            ct = ConcreteTable.from_fractions(rows, classes=labels)
            ra = a.concrete(ct, **{k: v.subs(point) for k, v in params.items()})
            rb = div.level([list(r) for r in rows], labels)
            tried += 1
            tf = Fraction(int(t.p), int(t.q))
            a_ok = ra is not None and ra != INF and (ra >= tf if a.stronger == "larger" else ra <= tf)
            rb_s = getattr(rb, "expr", None)
            rb_s = rb_s if rb_s is not None else (None if rb is None or rb == INF else
                                                 sympy.Rational(rb.numerator, rb.denominator))
            u = upper.subs(point)
            b_ok = rb_s is not None and (sympy.simplify(sympy.expand_log(rb_s - u, force=True)) == 0
                                         or abs(sympy.N(rb_s - u, 50)) < sympy.Rational(1, 10 ** 40))
            if not (a_ok and b_ok):
                bad.append(f"N = {n}, T = {t}: A {ra}, B {rb_s}, U {u}")
    steps.append((f"the family's registered exact levels meet T (A) and equal U (B) at {tried} points", tried > 0
                  and not bad and b is not None, "; ".join(bad[:3]) or "exact levels of the registry"))
    return steps


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
    return ok, value, (parse_expr(str(value), declared_names(cert, {"N": _N})) if ok else sympy.Integer(1)), a


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
