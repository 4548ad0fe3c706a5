"""The ceiling-chord lemma: a class's total variation distance from the table, with its ratios at most N, bounds its KL
and Renyi-2 divergence.

**Lemma.** On a table of N records, a class with mean m, the table's mean P, r_l = m_l/P_l: (a) a class of e >= 1
records holds at most the table's mass, so r_l is in [0, N]; sum_l P_l r_l = sum_l m_l = 1, so
sum_l P_l (r_l - 1)^+ = sum_l P_l (1 - r_l)^+ = TV(m, P). (b) phi convex on [0, N] with phi(1) = 0 lies below its
chord on [0, 1] ((1 - r) phi(0)) and on [1, N] ((r - 1) phi(N)/(N - 1)), so
sum_l P_l phi(r_l) <= (phi(0) + phi(N)/(N - 1)) TV(m, P). (c) KL(m || P) = sum_l P_l phi(r_l) with
phi(r) = r log r - r + 1 (as sum_l P_l (r_l - 1) = 0), coefficient N log N/(N - 1); exp(D_2(m || P)) - 1 =
sum_l P_l (r_l - 1)^2, coefficient N. (d) TV(m, P) <= c T: c = 1 where A's level is a class's total variation distance
from the table (a declared class distance ``total-variation``, or a ``tv`` class divergence); c = (N - 1)/N where A
is the total variation between pairs of records: m - P = ((N - e)/N)(m - m'), m' the other records' mean (identity
re-checked), and TV(m, m') <= T (TV is convex: between two mixtures of records at most the largest between two).
So U = (N log N/(N - 1)) c T (KL) or log(1 + N c T) (Renyi-2), for every class of every partition (a table of one
class included: there m = P, TV 0 and B 0): the lemma reads the certificate's partitions itself.

Re-checked here from the registry, not the certificate's words: A's declaration and c; B a registered KL or Renyi-2
class divergence on any partition; phi(1) = 0, phi'' >= 0, phi(0) (a limit for KL) and the coefficient by exact
algebra; the identities of (a), (c), (d); U. Where the certificate claims tightness: its family (one record at
(t, 1 - t, 0) in a class of its own, N - 1 at (0, 1 - t, t), t = N c T/(N - 1), where t <= 1) is a table there, A's
level on it is at most T and the lone class's divergence is U, re-derived symbolically in N and T.
"""

from __future__ import annotations

import sympy

from implgraph.certify.lemmas import lemma
from implgraph.certify.report import lemma_steps, steps_report as _report
from implgraph.core import methods
from implgraph.core.formula import parse_condition, parse_expr

__all__ = ["check"]

_N = sympy.Symbol("N", integer=True, positive=True)
_T = sympy.Symbol("T", positive=True)


def _read(text):
    return parse_expr(str(text), {"N": _N, "T": _T})


def _same(x, y) -> bool:
    return sympy.simplify(sympy.expand_log(sympy.sympify(x) - y, force=True)) == 0


def _factor(cert):
    """``(c, how)`` from A's registered declaration, or (None, why)."""
    from implgraph.certify.registered import registered
    from implgraph.definitions.capabilities import ClassDistance
    from implgraph.definitions.divergences import divergence_of
    A = cert.get("A") or {}
    a = registered(A.get("definition"))
    if a is None:
        return None, "A not registered here"
    div = divergence_of(a, A.get("params"))
    if div is not None:
        if div.kind == "tv" and div.compares == "pairs":
            return (_N - 1) / _N, "the total variation between pairs of records"
        if div.kind == "tv" and div.compares == "class":
            return sympy.Integer(1), "a class's total variation divergence from the table"
        return None, f"a {div.kind} divergence ({div.compares})"
    declared = a.declared(ClassDistance)
    distance = None if declared is None else declared.at({k: str(v) for k, v in (A.get("params") or {}).items()},
                                                         a.words)
    if distance == "total-variation":
        return sympy.Integer(1), "a class's total variation distance from the table (declared)"
    return None, f"no total variation declared ({distance})"


def _mixture_identity() -> bool:
    """m - P = ((N - e)/N)(m - m') where P = (e m + (N - e) m')/N."""
    e, m, m2 = sympy.symbols("e m m2")
    P = (e * m + (_N - e) * m2) / _N
    return sympy.simplify(m - P - (_N - e) / _N * (m - m2)) == 0


def _chord(kind):
    """``(ok, coefficient, how)``: phi convex with phi(1) = 0, the divergence sum_l P_l phi(r_l), phi(0) + phi(N)/(N - 1)."""
    r = sympy.Symbol("r", positive=True)
    phi = r * sympy.log(r) - r + 1 if kind == "kl" else (r - 1) ** 2
    convex = sympy.simplify(sympy.diff(phi, r, 2)).is_nonnegative is True
    at0 = sympy.limit(phi, r, 0, "+")
    coef = sympy.simplify(at0 + phi.subs(r, _N) / (_N - 1))
    ok = convex and sympy.simplify(phi.subs(r, 1)) == 0
    # the divergence as sum P phi(r): for KL, sum P (r log r - r + 1) = sum m log(m/P) - 1 + 1; for chi^2, exact
    P, m = sympy.symbols("P m", positive=True)
    term = sympy.expand(P * phi.subs(r, m / P))
    want = m * sympy.log(m / P) - m + P if kind == "kl" else m ** 2 / P - 2 * m + P
    ok = ok and sympy.simplify(sympy.expand_log(term - want, force=True)) == 0
    return ok, coef, f"phi = {phi}, phi(0) = {at0}, phi'' >= 0; coefficient {coef}"


def _upper_steps(cert, c, kind):
    ok, coef, how = _chord(kind)
    steps = [("phi is convex with phi(1) = 0 and B's divergence is sum_l P_l phi(r_l) (sum_l P_l (r_l - 1) = 0): below "
              "its chords on [0, 1] and [1, N], at most (phi(0) + phi(N)/(N - 1)) TV(m, P)", ok, how)]
    want = coef * c * _T if kind == "kl" else sympy.log(1 + coef * c * _T)
    steps.append((f"U = {want}", _same(_read(cert.get("upper")), want), "exact"))
    return steps


def _nonneg(expr) -> bool:
    from implgraph.certify.lemmas.divergence_family_table import nonnegative_from
    return nonnegative_from(expr, {_N: 2, _T: 0})


def _tv(x, y):
    """TV(x, y) with each bucket's sign decided for N >= 2, T >= 0 (None where undecided)."""
    out = sympy.Integer(0)
    for a, b in zip(x, y):
        if _nonneg(a - b):
            out += a - b
        elif not _nonneg(b - a):
            return None
    return out


def _family_steps(cert, c, div):
    from implgraph.certify.lemmas.divergence_family import _class_divergence, _rows
    from implgraph.certify.lemmas.divergence_family_table import mean
    fam = cert.get("tightness") or {}
    t = sympy.simplify(_N * c * _T / (_N - 1))
    rows = _rows(fam, {"N": _N, "T": _T})
    steps = []
    where = parse_condition(str(fam.get("where")), {"N": _N, "T": _T})
    steps.append((f"the family is claimed where t = {t} <= 1", isinstance(where, sympy.core.relational.Relational) and
                  where.canonical == sympy.Le(t, 1).canonical, str(fam.get("where"))))
    counts = [r[0] for r in rows]
    steps.append(("the counts add up to N, each >= 1 for every N >= 2", _same(sympy.Add(*counts), _N) and
                  all(_nonneg(x - 1) for x in counts), " + ".join(map(str, counts))))
    shapes = all(_same(sympy.Add(*v), 1) and all(_same(x, 0) or _same(x, t) or _same(x, 1 - t) for x in v)
                 for _, v, _ in rows)
    steps.append(("each record is a distribution where t <= 1 (values t >= 0, 1 - t, 0, adding up to 1)",
                  shapes and _nonneg(t), "exact"))
    # A's level on the family at most T
    distinct = list(dict.fromkeys(v for _, v, _ in rows))
    if c != 1:
        tvs = [_tv(x, y) for x in distinct for y in distinct if x != y]
    else:
        table = mean(rows, _N)
        tvs = []
        for label in dict.fromkeys(r[2] for r in rows):
            members = [r for r in rows if r[2] == label]
            tvs.append(_tv(mean(members, sympy.Add(*[k for k, _, _ in members])), table))
    ok = bool(tvs) and all(x is not None and _nonneg(_T - x) for x in tvs)
    steps.append(("A's level on the family is at most T", ok, "; ".join(str(sympy.factor(x)) for x in tvs
                                                                    if x is not None)))
    # the lone class's divergence is U
    levels = _class_divergence(div, rows)
    U = _read(cert.get("upper"))
    hit = next((k for k, v in levels.items() if _same(v, U)), None)
    steps.append(("a class's divergence from the table on the family is U (so B's level is at least U, and at most U "
                  "by the bound: attained)", hit is not None,
                  "; ".join(f"{k}: {sympy.simplify(v)}" for k, v in levels.items())))
    return steps


@lemma(methods.CEILING_CHORD, own_partitions=True)
def check(cert, ns=range(2, 13), timeout_ms=4000):
    """Re-check a ceiling-chord certificate (see the module notes)."""
    from implgraph.certify.lemmas.divergence_ceiling import _mass_identity
    from implgraph.certify.registered import registered
    from implgraph.definitions.divergences import divergence_of
    with lemma_steps(cert) as steps:
        c, how = _factor(cert)
        steps.append(("A bounds a class's total variation distance from the table by c T (its registered "
                      "declaration)", c is not None, how))
        if c is None:
            return _report(steps)
        if c != 1:
            steps.append(("m - P = ((N - e)/N)(m - m') for a class of e >= 1 records (identity), TV(m, m') <= T "
                          "(convex: at most the largest between two records): c = (N - 1)/N", _mixture_identity(),
                          "exact"))
        data = cert.get("upper_certificate") or {}
        steps.append(("the certificate's factor is A's", _same(_read(data.get("factor")), c), str(data.get("factor"))))
        B = cert.get("B") or {}
        b = registered(B.get("definition"))
        div = None if b is None else divergence_of(b, B.get("params"))
        kind = None if div is None or div.compares != "class" else (
            "kl" if div.kind == "kl" else "renyi2" if div.kind == "renyi" and sympy.sympify(div.order) == 2 else None)
        anyp = all(str(x.get("min_class") or "1") == "1" and x.get("max_class") is None
                   for x in (cert.get("A") or {}, B) if x.get("family") == "class")
        steps.append(("B declares a KL or Renyi-2 divergence of each class from the table, on any partition",
                      kind is not None and anyp and data.get("kind") == div.kind, "registry"))
        if kind is None:
            return _report(steps)
        steps.append(("a class of >= 1 records holds at most the table's mass: its ratios to the table are in [0, N]",
                      _mass_identity(), "exact"))
        steps.append(("the domain states N >= 2 and T > 0", {"N >= 2", "T > 0"} <= set(cert.get("domain") or []),
                      "exact"))
        steps.append(("every partition, one class included: the argument reads only the class it bounds and the "
                      "table (a class of e records, e = N included: TV 0, B 0 <= U)", cert.get("min_classes") in (1, 2)
                      and cert.get("max_classes") is None, f"min_classes {cert.get('min_classes')!r}"))
        steps += _upper_steps(cert, c, kind)
        if cert.get("tight"):
            steps += _family_steps(cert, c, div)
    return _report(steps)
